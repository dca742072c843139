"""Analysis after the game: the marks a dropped shot gets, the better line, the evaluations."""

from __future__ import annotations

import re

import pytest

from engine import BLACK, WHITE, Board, Move
from engine.analysis import (
    THRESHOLDS,
    Evaluation,
    GameAnalysis,
    Judgement,
    analyse,
    evaluations,
    winning_chances,
)
from engine.pdn import read_games, write_game
from engine.search import Limit, Searcher

#: White's 4th move leaves nothing hanging, Black's 4th (16-21) allows the two-for-one
#: 31-27 22x31 36x16 (one man given, two taken), White's 5th (39-34) misses it; then play goes
#: on as the engine plays it.
DROPPED_SHOT = ["32-28", "17-22", "28x17", "11x22", "34-29", "20-25", "37-32", "16-21",
                "39-34", "21-26", "32-28", "26x37", "41x32", "12-17"]
DROP, MISS = 7, 8
#: The depth every test here searches at: the shot is three plies deep.
DEPTH = 6


def game(moves: list[str], variant: str = "international", fen: str | None = None) -> Board:
    board = Board(variant, fen=fen)
    for text in moves:
        board.push(board.parse_move(text))
    return board


def notation(board: Board, line: tuple[Move, ...]) -> list[str]:
    probe, words = board.copy(), []
    for move in line:
        words.append(probe.move_notation(move))
        probe.push(move)
    return words


@pytest.fixture(scope="module")
def dropped() -> tuple[Board, GameAnalysis]:
    board = game(DROPPED_SHOT)
    return board, analyse(board, Searcher("international"), Limit(depth=DEPTH))


def test_the_move_that_drops_a_two_for_one_is_a_blunder(
        dropped: tuple[Board, GameAnalysis]) -> None:
    _, analysis = dropped
    assert analysis.moves[DROP].judgement is Judgement.BLUNDER
    assert analysis.moves[DROP].evaluation.centimen >= 70  # White's shot: a man for White


def test_the_shot_is_the_better_line_of_the_move_that_misses_it(
        dropped: tuple[Board, GameAnalysis]) -> None:
    _, analysis = dropped
    missed = analysis.moves[MISS]
    assert missed.judgement is Judgement.BLUNDER
    assert notation(game(DROPPED_SHOT[:MISS]), missed.better)[:3] == ["31-27", "22x31", "36x16"]


def test_no_other_move_of_the_game_is_marked(dropped: tuple[Board, GameAnalysis]) -> None:
    _, analysis = dropped
    marked = {m.ply for m in analysis.moves if m.judgement is not None}
    assert marked == {DROP, MISS}


def test_every_move_has_its_eval_comment_in_the_pdn(dropped: tuple[Board, GameAnalysis]) -> None:
    board, analysis = dropped
    text = write_game(None, board.move_stack, "*", variant="international",
                      comments=analysis.comments(), annotations=analysis.annotations(),
                      variations=analysis.variations())
    assert re.search(r"4\. 37-32\s+\{\[%eval -?[0-9.]+\]\}\s+16-21\?\?\s+\{\[%eval", text)
    assert re.search(r"5\. 39-34\?\?\s+\{\[%eval -?[0-9.]+\]\}\s+\(5\. 31-27\s+22x31\s+6\. 36x16",
                     text)
    read = read_games(text)[0]
    found = evaluations(read.comments)
    assert sorted(found) == list(range(1, len(DROPPED_SHOT) + 1))
    assert found[MISS] == analysis.moves[MISS - 1].evaluation
    assert read.annotations == {DROP: ["??"], MISS: ["??"]}
    assert read.variations[MISS][0].startswith("5. 31-27 22x31 6. 36x16")


def test_playing_the_shot_is_the_only_good_move() -> None:
    board = game([*DROPPED_SHOT[:MISS], "31-27", "22x31", "36x16"])
    analysis = analyse(board, Searcher("international"), Limit(depth=DEPTH))
    assert analysis.moves[MISS].judgement is Judgement.ONLY_MOVE
    assert analysis.moves[MISS].better == ()
    assert [m.judgement for m in analysis.moves[MISS + 1:]] == [None, None]


def test_a_game_won_on_the_board_ends_with_hash_zero() -> None:
    analysis = analyse(game(["c3:e5"], "russian", "W:Wc3:Bd4"), Searcher("russian"),
                       Limit(depth=2))
    assert analysis.moves[0].evaluation == Evaluation(winner=WHITE, moves=0)
    assert analysis.moves[0].evaluation.text() == "#0"
    assert analysis.start.text() == "#1"


def test_a_won_ending_of_the_tables_is_a_forced_win() -> None:
    # 33x11 takes two and leaves two men against one: won, as the tables know.
    board = game(["33x11"], "international", "W:W33,48:B28,17,5")
    analysis = analyse(board, Searcher("international"), Limit(depth=3))
    after = analysis.moves[0].evaluation
    assert after.winner is WHITE and after.moves > 0
    assert after.text() == f"#{after.moves}"
    assert analysis.start.winner is WHITE


def test_evaluation_text_round_trip() -> None:
    for value in (Evaluation(35), Evaluation(-105), Evaluation(0),
                  Evaluation(winner=BLACK, moves=4), Evaluation(winner=WHITE, moves=0)):
        assert Evaluation.parse(f"{{{value.comment()}}}") == value
    assert Evaluation.parse("[%clk 0:01:00]") is None
    assert Evaluation(winner=BLACK, moves=0).text() == "#-0"


def test_winning_chances_thresholds_in_men() -> None:
    """From a level position a quarter of a man is an inaccuracy, half a man a mistake, 0.8
    of a man a blunder; a man given up when already two up is still a blunder."""
    def judged(before: int, after: int) -> Judgement | None:
        loss = winning_chances(before) - winning_chances(after)
        return next((j for threshold, j in THRESHOLDS if loss >= threshold), None)

    assert judged(0, -20) is None
    assert judged(0, -26) is Judgement.INACCURACY
    assert judged(0, -52) is Judgement.MISTAKE
    assert judged(0, -80) is Judgement.BLUNDER
    assert judged(200, 95) is Judgement.BLUNDER
    assert judged(900, 600) is None  # still winning by far
    assert winning_chances(29_000) == 1.0 and winning_chances(-29_000) == -1.0
