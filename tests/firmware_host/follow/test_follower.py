"""The follower's decisions (firmware_host/follow/follower.py: ``plan``), from facts alone."""

from __future__ import annotations

from engine import Board
from firmware_host.follow.follower import Said, plan
from firmware_host.follow.game import Followed
from firmware_host.terms.commands import Command
from firmware_host.terms.jobs import EngineJob, EngineResult, Purpose


def _followed(*texts: str, result: str = "*", white: str = "Ann") -> Followed:
    board = Board("international")
    moves = []
    for text in texts:
        moves.append(board.parse_move(text))
        board.push(moves[-1])
    return Followed("international", None, tuple(moves), result, {"White": white})


def _job(*texts: str) -> EngineJob:
    board = Board("international")
    for text in texts:
        board.push(board.parse_move(text))
    return EngineJob(7, Purpose.REPLY, board)


def test_a_turn_is_answered_with_the_followed_move_at_its_ply() -> None:
    said = Said()
    posted = plan(_job("32-28"), _job("32-28").board.move_stack, _followed("32-28", "19-23"),
                  said, 1.0)
    assert [type(p) for p in posted] == [Command, EngineResult]
    reply = posted[1]
    assert isinstance(reply, EngineResult) and reply.token == 7
    assert reply.move == _job("32-28").board.parse_move("19-23")


def test_nothing_is_said_twice_and_a_turn_waits_for_its_move() -> None:
    said = Said(tags={"White": "Ann"})
    assert plan(_job("32-28"), _job("32-28").board.move_stack, _followed("32-28"), said,
                1.0) == []
    renamed = plan(None, [], _followed(white="Ann Smit"), said, 1.0)
    assert renamed == []  # (no turn of a game to name yet)


def test_the_result_comes_once_the_last_move_is_on_the_board() -> None:
    said = Said(tags={"White": "Ann"})
    over = _followed("32-28", "19-23", result="0-2")
    assert not [p for p in plan(_job("32-28"), _job("32-28").board.move_stack, over, said, 1.0)
                if isinstance(p, Command)]
    done = _job("32-28", "19-23")
    posted = plan(done, done.board.move_stack, over, said, 2.0)
    assert [(p.name, p.value) for p in posted if isinstance(p, Command)] == [
        ("followed_result", "0-2")]
    assert plan(done, done.board.move_stack, over, said, 3.0) == []


def test_a_game_that_no_longer_continues_this_one_is_a_new_game_asked_once() -> None:
    said = Said(tags={"White": "Ann"})
    mine = _job("32-28", "19-23")
    other = _followed("33-28")
    posted = plan(mine, mine.board.move_stack, other, said, 1.0)
    assert [p.name for p in posted if isinstance(p, Command)] == ["newgame"]
    assert said.restart and said.tags == {}
    assert plan(mine, mine.board.move_stack, other, said, 2.0) == []
