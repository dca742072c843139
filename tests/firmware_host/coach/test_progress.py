"""A player's progress record: puzzle attempts rated once each, the puzzle's rating moving the
other way, games' mistakes counted once, a damaged record named, not trusted."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.pdn import read_games
from engine.puzzles import load
from firmware_host.coach.book import BookError, marks
from firmware_host.coach.progress import (
    PUZZLE_RATINGS,
    PUZZLE_START,
    ProgressBook,
    by_month,
    game_mistakes,
)
from firmware_host.coach.rating import START


def test_a_first_attempt_moves_both_ratings_a_second_is_not_rated(tmp_path: Path) -> None:
    book = ProgressBook(tmp_path)
    puzzle = load("russian")[0]
    start = PUZZLE_START[puzzle.difficulty]
    won = book.attempt("Anna de Vries", puzzle, solved=True)
    assert (won.before, won.puzzle, won.rated) == (START, start, True)
    assert won.after.r > START.r and won.after.rd < START.rd
    assert book.puzzle_rating(puzzle).r < start.r            # the puzzle lost the game
    again = book.attempt("anna de vries", puzzle, solved=False)  # the same player
    assert (again.rated, again.after, again.change) == (False, won.after, 0)
    progress = book.load("ANNA DE VRIES")
    assert (progress.tried, progress.solved, len(progress.rated)) == (2, 1, 1)


def test_a_failed_puzzle_lowers_the_rating_and_raises_the_puzzles(tmp_path: Path) -> None:
    book = ProgressBook(tmp_path)
    puzzle = load("english")[0]
    lost = book.attempt("Bob", puzzle, solved=False)
    assert lost.after.r < START.r and lost.change < 0
    after_bob = book.puzzle_rating(puzzle)
    assert after_bob.r > PUZZLE_START[puzzle.difficulty].r
    assert book.attempt("Cor", puzzle, solved=True).puzzle == after_bob  # as Bob left it


GAME = """[Event "Club"]
[Date "2026.11.03"]
[White "Anna de Vries"]
[Black "Bob"]
[GameType "20"]
[Result "*"]

1. 32-28 {[%eval 0.1]} 19-23?? {[%eval 1.2]} 2. 28x19 {[%eval 1.1]} 14x23? {[%eval 1.3]}
3. 37-32?! {[%eval 1.0]} *
"""


def test_a_games_mistakes_are_counted_for_its_player_once(tmp_path: Path) -> None:
    [game] = read_games(GAME)
    marked = marks(game, depth=1)  # annotated: read from its signs, not analysed
    assert marked == {1: "??", 3: "?"}
    bob = game_mistakes(game, "bob", marked, "club.pdn game 1")
    assert bob is not None
    assert (bob.date, bob.moves, bob.mistakes, bob.blunders) == ("2026-11-03", 2, 1, 1)
    anna = game_mistakes(game, "Anna de Vries", marked)
    assert anna is not None and (anna.moves, anna.errors) == (3, 0)
    assert game_mistakes(game, "Cor", marked) is None
    book = ProgressBook(tmp_path)
    assert book.games("Bob", [bob]) == 1
    assert book.games("Bob", [bob]) == 0                        # the same game read again
    assert by_month(book.load("Bob").games) == [("2026-11", 1, 2.0, 1.0)]


@pytest.mark.parametrize(("date", "kept"), [("2026.11.??", "2026-11"), ("2026.??.??", "2026"),
                                            ("????.??.??", ""), ("yesterday", "")])
def test_a_partial_or_unknown_date(date: str, kept: str) -> None:
    [game] = read_games(GAME.replace("2026.11.03", date))
    found = game_mistakes(game, "Bob", {})
    assert found is not None and found.date == kept


@pytest.mark.parametrize("text", ["{", "[]", '{"rating": {"r": 1500, "rd": -3, "vol": 0.06}}',
                                  '{"rating": {"r": "x", "rd": 300, "vol": 0.06}}',
                                  '{"rating": {"r": 1500, "rd": 300, "vol": 0.06}, '
                                  '"games": [{"key": 1}]}'])
def test_a_damaged_record_is_named_and_not_overwritten(tmp_path: Path, text: str) -> None:
    book = ProgressBook(tmp_path)
    book.path("Ann").write_text(text)
    with pytest.raises(BookError, match=r"ann\.progress\.json"):
        book.load("Ann")
    with pytest.raises(BookError):
        book.attempt("Ann", load("russian")[0], solved=True)
    assert book.path("Ann").read_text() == text


def test_damaged_puzzle_ratings_are_named(tmp_path: Path) -> None:
    (tmp_path / PUZZLE_RATINGS).write_text('{"russian:x": {"r": 1500}}')
    with pytest.raises(BookError, match=re.escape(PUZZLE_RATINGS)):
        ProgressBook(tmp_path).puzzle_rating(load("russian")[0])


def test_a_name_that_names_nobody_has_no_record(tmp_path: Path) -> None:
    with pytest.raises(BookError, match="names no player"):
        ProgressBook(tmp_path).attempt("?", load("russian")[0], solved=True)
