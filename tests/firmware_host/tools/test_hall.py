"""``demo --hall``'s boards over five minutes of play, in virtual time: no board is ever shown
offline, not even between two games, because each board's service runs from start to stop.

The players' pace is virtual (each pause of a hand adds to the board's time instead of being
waited for), and at every pause the web app's own reading of every board's heartbeat
(:func:`firmware_host.web.liveness.of`) is taken: a board whose service closed between games
(the heartbeat ``stopped``, or gone) fails it.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
import redis

from firmware_host.store import open_store
from firmware_host.store.keys import BoardKeys
from firmware_host.tools.hall import HallOptions, play_board, private_store
from firmware_host.web.liveness import of

pytestmark = pytest.mark.redis  # the hall's own redis-server

#: Five minutes of every board's play.
PLAY_S = 300.0
BOARDS = 3


class VirtualPace:
    """The players' pauses in virtual time, one clock a board; at each pause every board's
    liveness is read as the hall page reads it."""

    def __init__(self, url: str, stop: threading.Event) -> None:
        self.client = redis.Redis.from_url(url)
        self.stop = stop
        self.played = dict.fromkeys(range(1, BOARDS + 1), 0.0)
        self.offline: list[tuple[int, float, str]] = []
        self.looks = 0
        self.lock = threading.Lock()
        self.all_done = threading.Event()
        #: The boards whose service is up (they paused once): each must stay online.
        self.up: set[int] = set()

    def waiter(self, number: int) -> object:
        def wait(seconds: float) -> bool:
            with self.lock:
                self.up.add(number)
            self.look(number)
            with self.lock:
                self.played[number] += seconds
                if all(t >= PLAY_S for t in self.played.values()):
                    self.all_done.set()
            if self.played[number] >= PLAY_S:
                # This board has played its five minutes: it waits (its service still
                # running) for the others to finish theirs.
                self.all_done.wait(timeout=300)
                return True
            return self.stop.is_set()
        return wait

    def look(self, number: int) -> None:
        keys = [BoardKeys(f"table{n}").alive for n in range(1, BOARDS + 1)]
        values = self.client.mget(keys)
        now = time.time()
        with self.lock:
            self.looks += 1
            for n, raw in enumerate(values, start=1):
                if n in self.up and not of(raw, now).online:
                    self.offline.append((n, self.played[number], repr(raw)))


def test_no_board_is_ever_offline_over_five_minutes(tmp_path: Path) -> None:
    options = HallOptions(count=BOARDS, plies=24)
    stop = threading.Event()
    errors: list[BaseException] = []
    with private_store(tmp_path) as url:
        pace = VirtualPace(url, stop)

        def board(number: int) -> None:
            try:
                play_board(number, options, url, tmp_path, stop, wait=pace.waiter(number))
            except BaseException as exc:
                errors.append(exc)
                pace.all_done.set()

        threads = [threading.Thread(target=board, args=(n,)) for n in range(1, BOARDS + 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=600)
        stop.set()
        assert not errors, errors
        store = open_store(url, "table1", background_events=False)
        try:
            games = store.list_games(all_boards=True)
        finally:
            store.close()
        pace.client.close()
    assert pace.offline == [], pace.offline[:10]
    assert pace.looks > 300
    assert all(t >= PLAY_S for t in pace.played.values())
    per_board = {f"table{n}": sum(1 for g in games if g.board_id == f"table{n}")
                 for n in range(1, BOARDS + 1)}
    assert all(count >= 3 for count in per_board.values()), per_board  # games turned over
