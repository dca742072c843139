"""Following a game from a PDN broadcast's URL (``run --follow URL``): a board that joins late
is guided through the moves played so far, one at a time, to the position now; the game then
advances as the broadcast does, takes its players' names and its result; a new game there is a
new game here, set up and followed from its first move."""

from __future__ import annotations

import hashlib
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import Board
from engine.pdn import write_game
from firmware_host.feedback.texts import render
from firmware_host.game.types import State
from tests.firmware_host.follow.rig import FollowingBoard

GAME = ["32-28", "19-23", "28x19", "14x23", "37-32", "10-14", "32-28", "23x32", "38x27"]


class Broadcast:
    """A PDN file served over HTTP as a club's broadcast serves it (ETag, 304), whose games
    the test changes."""

    def __init__(self) -> None:
        self.text = ""
        self.gets = 0
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                owner.gets += 1
                body = owner.text.encode()
                tag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
                if self.headers.get("If-None-Match") == tag:
                    self.send_response(304)
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/x-chess-pdn")
                self.send_header("ETag", tag)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/broadcast.pdn"
        threading.Thread(target=self.server.serve_forever, name="broadcast-test",
                         daemon=True).start()

    def games(self, *games: tuple[list[str], str]) -> None:
        """Serve these games (moves, result), each with its players' tags."""
        self.text = "\n".join(
            write_game({"Event": "Club final", "White": f"White {n}", "Black": f"Black {n}"},
                       moves, result, variant="international")
            for n, (moves, result) in enumerate(games, start=1))

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def broadcast() -> Iterator[Broadcast]:
    served = Broadcast()
    yield served
    served.close()


def test_a_late_join_is_guided_to_the_position_then_follows(broadcast: Broadcast,
                                                            tmp_path: Path) -> None:
    broadcast.games((["31-27", "20-24"], "*"), (GAME[:6], "*"))  # the file's second game
    board = FollowingBoard(broadcast.url + "#2", tmp_path)
    assert board.session.state is State.ENGINE_THINKING  # nothing read yet: nothing lit
    board.poll()
    replay = Board("international")
    for text in GAME[:6]:  # the set-up by the lights: each move of the game so far, in turn
        expected = replay.parse_move(text)
        assert board.lit() == expected
        board.carry_out()
        replay.push(expected)
    assert board.session.state is State.ENGINE_THINKING
    assert board.session.board.fen() == replay.fen()
    gets = broadcast.gets
    board.poll()  # nothing new: a 304, nothing lit
    assert broadcast.gets == gets + 1 and board.session.state is State.ENGINE_THINKING
    broadcast.games((["31-27", "20-24"], "*"), (GAME[:8], "*"))  # the game advances
    board.poll()
    for text in GAME[6:8]:
        assert board.lit() == replay.parse_move(text)
        replay.push(board.carry_out())
    broadcast.games((["31-27", "20-24"], "*"), (GAME, "2-0"))
    board.poll()
    replay.push(board.carry_out())
    board.poll()
    assert board.session.state is State.GAME_OVER
    record = board.service.store.load_game(board.session.game_id)
    assert [m.pdn for m in record.moves] == GAME
    assert record.result == "2-0" and record.headers["White"] == "White 2"
    assert record.headers["Event"] == "Club final" and record.mode == "follow"
    assert "the followed game ended 2-0" in [text for _, text in record.notes]
    said = [render(e) for e in board.events if e["event"] == "computer_move"]
    assert len(said) == len(GAME) and said[0] == "32-28 in the followed game: carry it out " \
                                                 "on the board"
    board.close()


def test_a_new_game_there_is_set_up_and_followed_here(broadcast: Broadcast,
                                                      tmp_path: Path) -> None:
    broadcast.games((GAME[:2], "*"))
    board = FollowingBoard(broadcast.url, tmp_path)
    board.poll()
    board.carry_out()
    board.carry_out()
    first = board.session.game_id
    broadcast.games((["33-28"], "*"))  # another game began there
    board.poll()
    assert board.session.state is State.SETTING_UP
    start = Board("international").occupied_squares()
    for square in board.sim.occupied - start:  # the players set up the start
        board.sim.lift(square)
    for square in start - board.sim.occupied:
        board.sim.place(square)
    board.run(5.0)
    assert board.session.game_id != first
    board.poll()
    assert board.lit() == Board("international").parse_move("33-28")


def test_a_source_that_cannot_be_read_lights_nothing_and_is_said_once(
        broadcast: Broadcast, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    broadcast.text = "this is no PDN {"
    board = FollowingBoard(broadcast.url, tmp_path)
    board.poll()
    board.poll()
    assert board.session.state is State.ENGINE_THINKING
    said = [r.message for r in caplog.records if r.message.startswith("follow:")]
    assert len(said) == 1 and "no game" not in said[0]
    broadcast.games((GAME[:1], "*"))
    board.poll()
    assert board.lit() == Board("international").parse_move("32-28")
