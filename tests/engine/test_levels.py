"""Strength levels: data that is well formed, weak levels that blunder like people, not dice."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import pytest

from bench.rating import fit, load
from engine import Board, Move
from engine.levels import LEVELS, level, limit_for_level, searcher_for_level
from engine.search import Limit, Searcher
from tests.conftest import sample_size


def _text(board: Board, move: Move | None) -> str:
    assert move is not None
    return board.move_notation(move)

KAULEN = (
    "g3-f4 f6-e5 h2-g3 e5-d4 c3:e5 h6-g5 f4:h6 d6:h2 a3-b4 g7-f6 b4-a5 f6-e5 b2-c3 h8-g7 "
    "c3-b4 g7-f6 a1-b2 e5-f4 e3:g5 f6:h4 d2-e3 b6-c5 b4:d6 c7:e5 b2-c3 e5-f4 e3:g5 h4:f6 "
    "c3-d4 a7-b6 a5:c7 d8:b6 c1-d2 e7-d6"
)  # see test_search.py: White wins a man with the sacrifice 18. f2-g3!


def test_ten_levels_numbered_in_order() -> None:
    assert [lv.number for lv in LEVELS] == list(range(1, 11))
    depths = [lv.depth if lv.depth is not None else 99 for lv in LEVELS]
    assert depths == sorted(depths)
    noise = [lv.options.noise for lv in LEVELS]
    assert noise == sorted(noise, reverse=True)
    assert LEVELS[-1].depth is None and LEVELS[-1].options.noise == 0


@pytest.mark.parametrize("bad", [0, 11, -1, 2.5, "5"])
def test_unknown_level_is_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="level"):
        level(bad)  # type: ignore[arg-type]


def test_limit_for_level() -> None:
    assert limit_for_level(1) == Limit(depth=1, movetime=LEVELS[0].movetime)
    assert limit_for_level(10, movetime=1.5) == Limit(movetime=1.5)
    assert limit_for_level(7, time_left=300, increment=2) == Limit(
        depth=LEVELS[6].depth, time_left=300, increment=2)


def _board(moves: str) -> Board:
    board = Board("russian")
    for text in moves.split():
        board.push(board.parse_move(text))
    return board


def test_beginner_misses_the_combination_the_club_player_finds() -> None:
    board = _board(KAULEN)
    for seed in range(5):
        weak = searcher_for_level("russian", 1, seed=seed)
        move = weak.search(board, Limit(depth=LEVELS[0].depth)).move
        assert _text(board, move) != "f2-g3"
    strong = searcher_for_level("russian", 6)
    assert _text(board, strong.search(board, Limit(depth=LEVELS[5].depth)).move) == "f2-g3"


def _play(board: Board, players: dict[int, tuple[Searcher | None, Limit]], rng: random.Random,
          max_plies: int = 160) -> int | None:
    """Play out; a player without a searcher moves at random. Returns the winner or None."""
    for _ in range(max_plies):
        outcome = board.outcome()
        if outcome is not None:
            return None if outcome.winner is None else int(outcome.winner)
        searcher, limit = players[int(board.turn)]
        if searcher is None:
            move = rng.choice(list(board.legal_moves))
        else:
            result = searcher.search(board, limit)
            assert result.move is not None
            move = result.move
        board.push(move)
    return None


def _reply_captures(board: Board, move: Move) -> list[Move]:
    """The opponent's captures after ``move`` (captures are compulsory: all or nothing)."""
    board.push(move)
    try:
        replies = list(board.legal_moves)
        return replies if replies and replies[0].is_capture else []
    finally:
        board.pop()


def _loses_a_piece_at_once(board: Board, move: Move) -> bool:
    """After ``move`` the opponent can capture and leave us no capture in return."""
    board.push(move)
    try:
        replies = list(board.legal_moves)
        if not replies or not replies[0].is_capture:
            return False
        for reply in replies:
            board.push(reply)
            answers = list(board.legal_moves)
            board.pop()
            if not answers or not answers[0].is_capture:
                return True
        return False
    finally:
        board.pop()


@dataclass
class Position:
    """Positions from seeded random games where one kind of move loses material at once."""

    board: Board
    moves: int
    bad: set[tuple[int, int, frozenset[int]]]


def _positions(variant: str, count: int, kind: str) -> list[Position]:
    """``count`` positions of ``kind`` from random games (seeded), each with its bad moves.

    ``threat``: no capture to make; some moves leave a piece that the opponent takes for
    nothing, others leave nothing to take. ``free``: captures of one piece each to choose
    from; some keep the piece won, others let the opponent take one back for nothing.
    """
    rng = random.Random(f"{variant}:{kind}")
    found: list[Position] = []
    while len(found) < count:
        board = Board(variant)
        for ply in range(150):
            moves = list(board.legal_moves)
            if not moves:
                break
            capture = moves[0].is_capture
            if ply >= 4 and (kind == "free") == capture and len(moves) > 1 and (
                    not capture or len({len(m.captures) for m in moves}) == 1):
                bad = {m.key() for m in moves if _loses_a_piece_at_once(board, m)}
                kept = [m for m in moves if not _reply_captures(board, m)]
                if bad and kept:
                    found.append(Position(board.copy(), len(moves), bad))
                    if len(found) == count:
                        break
            board.push(rng.choice(moves))
    return found


@pytest.mark.parametrize(("variant", "kind"), [
    ("english", "threat"), ("russian", "threat"), ("international", "threat"),
    ("english", "free"), ("russian", "free"),
])
def test_level_one_sees_the_piece_it_would_lose(variant: str, kind: str) -> None:
    """Level 1 answers the threat and keeps the free piece far more often than chance.

    Counted over positions from seeded random games; a random mover's expected number of
    losing choices is the sum, over the positions, of the share of moves that lose a piece.
    """
    tests = _positions(variant, sample_size(ci=30, full=300), kind)
    chance = sum(len(t.bad) / t.moves for t in tests)
    assert chance >= len(tests) / 6  # the positions are a real test: chance blunders often
    blunders = 0
    for seed, test in enumerate(tests):
        move = searcher_for_level(variant, 1, seed=seed).search(
            test.board, Limit(depth=LEVELS[0].depth)).move
        assert move is not None
        blunders += move.key() in test.bad
    assert blunders <= chance / 5, (blunders, chance)


@pytest.mark.parametrize("variant", ["english", "russian"])
def test_level_one_is_a_beginner_not_a_dice_roll(variant: str) -> None:
    games = sample_size(ci=4, full=40)
    wins = 0
    for game in range(games):
        rng = random.Random(game)
        engine_colour = game % 2
        players: dict[int, tuple[Searcher | None, Limit]] = {
            engine_colour: (searcher_for_level(variant, 1, seed=game), Limit(depth=1)),
            1 - engine_colour: (None, Limit()),
        }
        wins += _play(Board(variant), players, rng) == engine_colour
    assert wins >= games * 3 // 4


def test_club_player_beats_the_beginner() -> None:
    games = sample_size(ci=2, full=20)
    points = 0.0
    for game in range(games):
        strong_colour = game % 2
        players: dict[int, tuple[Searcher | None, Limit]] = {
            strong_colour: (searcher_for_level("english", 6, seed=game), Limit(depth=6)),
            1 - strong_colour: (searcher_for_level("english", 1, seed=game), Limit(depth=1)),
        }
        winner = _play(Board("english"), players, random.Random(game), max_plies=200)
        points += 1.0 if winner == strong_colour else 0.5 if winner is None else 0.0
    assert points >= games * 0.75


BENCH_DATA = Path(__file__).resolve().parents[2] / "bench" / "data"
LADDER_FILES = sorted(BENCH_DATA.glob("ladder-*.json"))


def test_the_published_ladder_measured_these_levels_and_they_climb() -> None:
    """The ladder files behind docs/levels.md's table were played with the levels as they are now,
    and the rating fit over all their games shows no level significantly weaker than the one
    below it (no gap under minus two standard errors), level 5 well above level 1 and level 10
    well above level 5 (more than two standard errors each).

    Change a level and this fails until the ladder is run again (bench/level_ladder.py --out).
    """
    assert LADDER_FILES, "no bench/data/ladder-*.json"
    for path in LADDER_FILES:
        data = json.loads(path.read_text(encoding="utf-8"))
        for name, played in data["players"].items():
            if not name.startswith("L"):
                continue
            now = level(int(name[1:]))
            assert (played["depth"], played["movetime"], played["noise"], played["quiescence"],
                    played["description"]) == (
                now.depth, now.movetime, now.options.noise, now.options.quiescence,
                now.description), f"{path.name}: {name} has changed since it was measured"
    for variant, ladder in load(LADDER_FILES).items():
        names = [f"L{n}" for n in range(1, 11)]
        others = {p for g in ladder.games for p in (g.white, g.black)} - set(names)
        result = fit(ladder.games, anchor="L1", players=[*names, *sorted(others)])
        r = result.ratings
        for lower, upper in pairwise(names):
            assert r[upper] - r[lower] > -2 * result.gap_error(upper, lower), (variant, upper)
        for lower, upper in (("L1", "L5"), ("L5", "L10")):
            assert r[upper] - r[lower] > 2 * result.gap_error(upper, lower), (variant, upper)
