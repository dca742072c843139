"""``draughtsboard play --puzzles`` as a script plays it: a puzzle solved move by move on the
simulated board (the defender's replies lit and carried out), one failed (the refutation played
on the board and said, with the solution), the player's own missed win offered first; and
``puzzles mistakes`` filling the player's mistake book from their games."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from engine.pdn import write_board, write_game
from engine.puzzles import Puzzle, find, load
from firmware_host.cli import main
from firmware_host.coach.book import MistakeBook
from firmware_host.coach.progress import PUZZLE_START
from firmware_host.config.loader import Config
from firmware_host.tools.puzzles import line_text, play_puzzles
from firmware_host.tools.terminal import PlayOptions
from tests.engine.test_analysis import DROPPED_SHOT, MISS, game


@pytest.fixture(autouse=True)
def _suites_logging(monkeypatch: pytest.MonkeyPatch) -> None:
    """``play`` sets the process's log level for a person at a terminal: not the suite's."""
    monkeypatch.setattr("firmware_host.app.logsetup.configure", lambda level: None)


#: The two-for-one of tests/engine/test_analysis.py, White to find 31-27 22x31 36x16.
SHOT = find(game(DROPPED_SHOT[:MISS]))


def run(puzzles: list[tuple[Puzzle, bool]], lines: str, language: str = "en") -> str:
    config = Config.from_mapping({"game": {"variant": "international"},
                                  "store": {"url": "memory"}, "board": {"language": language}})
    out = io.StringIO()
    options = PlayOptions(config=config, auto_execute=True, colour=False, virtual_time=True)
    assert play_puzzles(options, puzzles, stdin=io.StringIO(lines), out=out) == 0
    return out.getvalue()


def test_a_puzzle_solved_and_one_failed() -> None:
    assert SHOT is not None
    text = run([(SHOT, False), (SHOT, False)], "31-27\n36x16\nnext\n39-34\nnext\n")
    assert "Puzzle -, difficulty 2 of 5: White to play and win." in text
    first, second = text.split("type next for the next puzzle", 1)
    assert "right: 1. 31-27" in first
    assert "the computer plays 22x31" in first            # the line's reply, lit
    assert "solved: 1. 31-27 22x31 2. 36x16" in first
    assert ("not that: after 1. 39-34, 1... 21-26 and the win is gone. The solution: "
            "1. 31-27 22x31 2. 36x16") in second
    assert "the computer plays 21-26" in second            # the refutation, on the board
    assert text.rstrip().endswith("1 of 2 puzzles solved")


def test_a_puzzle_in_the_viewers_language() -> None:
    assert SHOT is not None
    text = run([(SHOT, False)], "31-27\n36x16\nquit\n", language="ru")
    assert "Белые начинают и выигрывают" in text and "решено: 1. 31-27" in text
    assert "решено задач: 1 из 1" in text


def test_the_players_own_mistake_comes_first(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    board = game(DROPPED_SHOT)
    games = tmp_path / "club.pdn"
    games.write_text(write_board(board, {"White": "Anna de Vries", "Black": "Bob"}))
    book = tmp_path / "book"
    assert main(["puzzles", "mistakes", str(games), "--player", "anna de vries", "--depth", "6",
                 "--book", str(book)]) == 0
    said = capsys.readouterr().out
    assert said.startswith("anna de vries: 1 of 1 games theirs, 1 missed wins, 1 new in the "
                           "mistake book (1 in all): ")
    [mine] = MistakeBook(book).load("Anna de Vries")
    assert (line_text(mine.board(), mine.line[:1]), mine.source) == ("1. 31-27",
                                                                    "club.pdn game 1, ply 9")
    assert main(["puzzles", "mistakes", str(games), "--player", "Bob", "--depth", "6",
                 "--book", str(book)]) == 0  # Bob's ?? allowed the shot: nothing he missed
    assert "0 missed wins" in capsys.readouterr().out
    assert main(["puzzles", "mistakes", str(games), "--player", "Anna de Vries",
                 "--book", str(book), "--depth", "6"]) == 0
    assert "0 new in the mistake book (1 in all)" in capsys.readouterr().out


def test_an_annotated_game_is_read_as_annotated(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "club.pdn"
    source.write_text(write_board(game(DROPPED_SHOT), {"White": "Ann", "Black": "Bob"}))
    annotated = tmp_path / "annotated.pdn"
    assert main(["annotate", str(source), "-o", str(annotated), "--depth", "6",
                 "--quiet"]) == 0
    # The marks are read from the file: with its ?? taken away, nothing is looked at.
    text = annotated.read_text().replace("39-34??", "39-34")
    annotated.write_text(text)
    assert main(["puzzles", "mistakes", str(annotated), "--player", "Ann",
                 "--book", str(tmp_path / "book")]) == 0
    assert "0 missed wins" in capsys.readouterr().out


def test_play_offers_the_book_first(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    assert SHOT is not None
    MistakeBook(tmp_path).add("Ann", [SHOT])
    monkeypatch.setattr("sys.stdin", io.StringIO("31-27\nquit\n"))
    assert main(["play", "--puzzles", "--player", "Ann", "--book", str(tmp_path),
                 "--variant", "international", "--virtual-time", "--no-colour",
                 "--auto-execute"]) == 0
    out = capsys.readouterr().out
    assert "From your own game (): you missed this." in out.split("Puzzle -")[0]
    assert "right: 1. 31-27" in out


@pytest.mark.parametrize(("args", "says"), [
    (["play", "--player", "Ann"], "--player goes with --puzzles"),
    (["play", "--puzzles", "--fen", "W:W31:B22"], "--fen and --puzzles"),
    (["play", "--puzzles", "--player", "?"], "names no player"),
    (["play", "--puzzles", "--variant", "frisian"], "no puzzles for frisian"),
    (["puzzles", "mistakes", "nowhere.pdn", "--player", "Ann"], "No such file"),
    (["puzzles", "mistakes", "x.pdn", "--player", "White"], "names no player"),
    (["puzzles", "mistakes", "x.pdn", "--player", "Ann", "--depth", "0"], "--depth must be"),
    (["puzzles", "progress", "--player", "-"], "names no player"),
])
def test_bad_options_are_one_line_and_status_2(args: list[str], says: str, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    (tmp_path / "x.pdn").write_text(write_game(None, ["32-28"], "*", variant="international"))
    assert main(args) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1


def test_a_players_rating_moves_with_each_puzzle_and_progress_shows_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert SHOT is not None
    MistakeBook(tmp_path).add("Ann", [SHOT])
    book = ["--book", str(tmp_path)]
    # The book's shot solved, then the first shipped puzzle failed with a move that is legal
    # there and not its solution.
    shipped = load("international")[0]
    board = shipped.board()
    wrong = next(m for m in board.legal_moves if m != shipped.solution)
    monkeypatch.setattr("sys.stdin", io.StringIO(
        f"31-27\n36x16\nnext\n{board.move_notation(wrong)}\nquit\n"))
    assert main(["play", "--puzzles", "--player", "Ann", *book, "--variant", "international",
                 "--virtual-time", "--no-colour", "--auto-execute"]) == 0
    out = capsys.readouterr().out
    solved, failed = out.split("type next for the next puzzle", 1)
    start = PUZZLE_START[SHOT.difficulty].r
    assert re.search(rf"your puzzle rating: 1500\? → 1[5-9]\d\d\? \(\+\d+\); this puzzle's: "
                     rf"{start:.0f}\?", solved)
    assert re.search(r"your puzzle rating: 1[5-9]\d\d\? → \d+\? \(-\d+\)", failed)
    assert main(["puzzles", "progress", "--player", "ann", *book]) == 0
    shown = capsys.readouterr().out
    assert "puzzles        2 tried, 1 solved (50%), 2 different" in shown
    assert "games          none analysed yet" in shown
    # Played again: the book's shot is offered first again, and not rated again.
    monkeypatch.setattr("sys.stdin", io.StringIO("31-27\n36x16\nquit\n"))
    assert main(["play", "--puzzles", "--player", "Ann", *book, "--variant", "international",
                 "--virtual-time", "--no-colour", "--auto-execute"]) == 0
    assert "tried before, so not rated again: your puzzle rating stays" in \
        capsys.readouterr().out


def test_progress_shows_mistakes_per_game_by_month(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    games = tmp_path / "club.pdn"
    games.write_text(write_board(game(DROPPED_SHOT), {"White": "Ann", "Black": "Bob",
                                                      "Date": "2026.10.14"}))
    book = ["--book", str(tmp_path / "book")]
    assert main(["puzzles", "mistakes", str(games), "--player", "Bob", "--depth", "6",
                 *book]) == 0
    assert main(["puzzles", "mistakes", str(games), "--player", "Bob", "--depth", "6",
                 *book]) == 0  # read twice, counted once
    capsys.readouterr()
    assert main(["puzzles", "progress", "--player", "Bob", *book]) == 0
    shown = capsys.readouterr().out.splitlines()
    # Bob's 16-21?? (the dropped two-for-one) is his one marked move of the game.
    assert shown[-1].split() == ["2026-10", "1", "1.0", "1.0"]
    assert shown[1].startswith("puzzle rating  1500?")


def test_play_drills_from_the_terminal(capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """``play --drills``: each drill's position set up by the lights ('fix'), the question
    asked, a typed capture right (the captured man off after the man lands), a hand taking the
    men off too early told so, and the drills stopped by their button."""
    monkeypatch.setattr("sys.stdin", io.StringIO(
        "\nfix\n33x22\nfix\nlift 32\nlift 27\nlift 17\nplace 12\ndrills\nquit\n"))
    assert main(["play", "--drills", "--variant", "international", "--virtual-time",
                 "--no-colour", "--no-save"]) == 0
    out = capsys.readouterr().out
    first, rest = out.split("Drill 2 of 5.", 1)
    assert "Drill 1 of 5. Set up the position the lights show." in first
    assert "White captures. Take the captured man off only after your man has landed." in first
    assert "Right: 33x22. The captured pieces come off after the capture." in first
    second = rest.split("Drill 3 of 5.")[0]
    assert "The capture 32x12 stands, but 17, 27 came off before your piece landed" in second
    assert "1 of 2 right. The exercises are over." in out
