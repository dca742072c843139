"""A board service run as a process on a script, watched line by line (the Redis HA tests).

:func:`scripted_game` writes a random game as the simulated board's script, ending in a press
far in the future so the service stays up until the test stops it; :class:`BoardProcess` runs
``draughtsboard run --realtime`` on it and lets the test wait for the events it prints
(``--events json``) and for lines of its log, without polling.
"""

from __future__ import annotations

import json
import queue
import random
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine import Board
from tests.firmware_host.sloppy_hands import BRISK, SETTLE_GAP_MS, sloppy_events

__all__ = ["BoardProcess", "scripted_game"]


def scripted_game(variant: str, seed: int, plies: int, path: Path) -> list[str]:
    """Write a random game of ``plies`` moves as a script at ``path``; return its moves (PDN).

    The script ends with a press 10 minutes on: the run goes on until the test stops it.
    """
    rng = random.Random(seed)
    board = Board(variant)
    notation: list[str] = []
    lines: list[str] = []
    t = 300
    while len(notation) < plies and not board.is_game_over():
        move = rng.choice(list(board.generate_moves(paths=True)))
        for event in sloppy_events(board, move, rng, BRISK):
            t += event.dt_ms
            assert event.square is not None
            lines.append(f"{t} {event.action} {board.variant.square_name(event.square)}\n")
        t += SETTLE_GAP_MS  # the move settles before the next hand comes
        notation.append(board.move_notation(move))
        board.push(move)
    lines.append(f"{t + 600_000} press hint\n")
    path.write_text("".join(lines))
    return notation


class BoardProcess:
    """``draughtsboard run --board sim --script SCRIPT --realtime --events json`` on ``config``.

    Its printed events and its log lines are read by two threads into queues; the test waits on
    them with :meth:`event` and :meth:`log_line`.
    """

    def __init__(self, config: Path, script: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "firmware_host.cli", "run", "--config", str(config),
             "--board", "sim", "--script", str(script), "--realtime", "--events", "json"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.events: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.logs: queue.Queue[str | None] = queue.Queue()
        self.log_text: list[str] = []
        self.moves: list[str] = []
        threading.Thread(target=self._read_events, daemon=True).start()
        threading.Thread(target=self._read_log, daemon=True).start()

    def _read_events(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            try:
                self.events.put(json.loads(line))
            except ValueError:
                continue
        self.events.put(None)

    def _read_log(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.log_text.append(line)
            self.logs.put(line)
        self.logs.put(None)

    def event(self, wanted: Callable[[dict[str, Any]], bool], timeout: float = 60) -> \
            dict[str, Any]:
        """The next printed event that is ``wanted`` (moves on the way are kept in ``moves``).

        Raises:
            AssertionError: the service stopped, or nothing came in ``timeout`` seconds.
        """
        while True:
            try:
                event = self.events.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"no such event in {timeout} s: {self.log()}") from None
            if event is None:
                raise AssertionError(f"the service stopped (rc {self.process.wait()}): "
                                     f"{self.log()}")
            if event.get("event") == "move":
                self.moves.append(str(event.get("move") or event.get("pdn") or "?"))
            if wanted(event):
                return event

    def moves_announced(self, count: int, timeout: float = 60) -> None:
        """Wait until ``count`` moves have been announced in all."""
        while len(self.moves) < count:
            self.event(lambda e: e.get("event") == "move", timeout)

    def log_line(self, words: str, timeout: float = 60) -> str:
        """The next log line that holds ``words``.

        Raises:
            AssertionError: the service stopped first, or nothing came in ``timeout`` seconds.
        """
        while True:
            try:
                line = self.logs.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"no log line with {words!r}: {self.log()}") from None
            if line is None:
                raise AssertionError(f"the service stopped (rc {self.process.wait()}) before "
                                     f"logging {words!r}: {self.log()}")
            if words in line:
                return line

    def log(self) -> str:
        return "".join(self.log_text)

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> int:
        """SIGTERM, as systemd stops it; return its exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=60)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=30)
