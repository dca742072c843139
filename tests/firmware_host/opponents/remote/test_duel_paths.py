"""The duel's fast paths (the service's two threads, here called by hand): a move of this
board's player is written as the session tells it, and the partner's entries an ``XREAD``
brings are answered at once, without waiting for the next whole poll."""

from __future__ import annotations

from dataclasses import dataclass, field

import fakeredis
import pytest

from board_io.clock import VirtualClock
from engine import Board
from engine.types import Color
from firmware_host.opponents.remote.duel import Duel, Link, Partner, RemoteOpponent, answer
from firmware_host.opponents.remote.entries import Ended, Played
from firmware_host.store.keys import BoardKeys
from firmware_host.store.records import GameRecord
from firmware_host.terms.commands import GAME_ID_TAGS, Command
from firmware_host.terms.jobs import EngineJob, EngineResult, Purpose


@dataclass
class Local:
    game_id: str | None = "g1"
    record: GameRecord = field(default_factory=lambda: GameRecord(
        "g1", "a", {}, "international", None, "play", 0.0))

    def load_game(self, game_id: str) -> GameRecord:
        return self.record


def _duel(client: fakeredis.FakeRedis, me: str, partner: str, side: Color,
          posted: list[object]) -> Duel:
    opponent = RemoteOpponent(VirtualClock(), post=posted.append)
    return Duel(Link(client, me, partner), Local(), me=me, partner=partner, side=side,
                variant="international", opponent=opponent)


def test_a_move_told_is_written_and_an_entry_heard_is_answered() -> None:
    client = fakeredis.FakeRedis()
    heard: list[object] = []
    white = _duel(client, "a", "b", Color.WHITE, [])
    black = _duel(client, "b", "a", Color.BLACK, heard)
    white.poll()
    black.poll()  # both found game 1
    board = Board("international")
    # Black's record is to name both boards' ids of the game (its header commands) ...
    assert [(c.name, c.tag, c.value) for c in heard if isinstance(c, Command)] == [
        ("header", GAME_ID_TAGS["white"], "g1"), ("header", GAME_ID_TAGS["black"], "g1")]
    heard.clear()
    black.opponent.submit(EngineJob(5, Purpose.REPLY, board.copy()))
    assert heard == []  # ... and no move is written yet
    move = board.parse_move("32-28")
    board.push(move)
    white.moved({"event": "move", "side": "white", "ply": 1, "pdn": "32-28",
                 "fen": board.fen(), "clock_white": 301.5})
    white._send()  # (the writer's thread, woken by that event)
    entries = client.xrange(BoardKeys("a").duel("b"))
    assert [entry_id for entry_id, _ in entries] == [b"1-0", b"1-4"]  # (ply 1: seq 4)
    last, read = black.link.wait("1-0", 0)  # (the reader's XREAD)
    assert last == "1-4" and read == [Played(1, 1, "32-28", board.fen(), 301.5)]
    black.heard(read)
    assert len(heard) == 1 and isinstance(heard[0], EngineResult)
    assert heard[0].move == move and heard[0].clock == 301.5 and heard[0].token == 5


def test_an_entry_of_a_game_not_known_yet_asks_for_a_whole_poll() -> None:
    client = fakeredis.FakeRedis()
    black = _duel(client, "b", "a", Color.BLACK, [])
    black.heard([Played(1, 1, "32-28", "B:W28,31-50:B1-20", None)])
    assert black._full.is_set() and black._wake.is_set()


@pytest.mark.logs_errors  # (each refusal is said at ERROR: the game cannot go on)
@pytest.mark.parametrize(("pdn", "fen"), [
    ("32-28", "B:W27,31-50:B1-20"),        # a position not the move's
    ("32-28", "B:W28,31-50,32-49:B1-20"),  # no position at all (a square twice)
    ("33-27", "B:W27,31,32,34-50:B1-20"),  # no move there
])
def test_a_partner_s_move_that_does_not_fit_is_not_played(pdn: str, fen: str) -> None:
    wrong = Partner(1, {1: Played(1, 1, pdn, fen, 299.0)})
    assert answer(EngineJob(1, Purpose.REPLY, Board("international")), wrong, 0.0) is None


def _last_move_and_end() -> tuple[Board, Partner]:
    """The start, and a partner whose board wrote its first move and its end in one breath
    (its player resigned right after it, or the move took the last piece)."""
    board = Board("international")
    after = board.copy()
    after.push(board.parse_move("32-28"))
    return board, Partner(1, {1: Played(1, 1, "32-28", after.fen(), 299.0)},
                          ended=Ended(1, "0-2", "resignation", "White resigned"))


def _kinds(posted: list[object]) -> list[str]:
    start = Board("international")
    return [f"move {start.move_notation(p.move)}" if isinstance(p, EngineResult) and p.move else
            f"{p.name} {p.value} {p.tag}" for p in posted if isinstance(p, EngineResult | Command)]


@pytest.mark.parametrize("asked_first", [True, False])
def test_the_partner_s_end_comes_after_its_last_move_is_lit(asked_first: bool) -> None:
    # (a full-size duel ended one board's game before its partner's last move was lit there:
    # the two records differed by that move). Whether the session asked for the partner's
    # move before or after the duel read it, the move is handed over first, then the end (the
    # session's followed_result puts the lit move in the record with it), each once.
    board, partner = _last_move_and_end()
    posted: list[object] = []
    opponent = RemoteOpponent(VirtualClock(), post=posted.append)
    if asked_first:
        opponent.submit(EngineJob(3, Purpose.REPLY, board))
    opponent.offer(partner, over=False, plies=0)
    if not asked_first:
        assert posted == []  # (the move not asked for yet: no end either)
        opponent.submit(EngineJob(3, Purpose.REPLY, board))
    opponent.offer(partner, over=False, plies=0)
    opponent.offer(partner, over=True, plies=1)
    assert _kinds(posted) == ["move 32-28", "followed_result 0-2 resignation"]
