"""The coach's exercises started from the board's buttons, as scripted scenarios in virtual
time on the simulated board: each position set up by the lights, then solved by hand (a
puzzle solved, one failed with its refutation lit) or drilled (a right hand and a wrong one)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest

from board_io.clock import VirtualClock
from engine import Board
from engine.pdn import line_text
from engine.puzzles import Puzzle, load
from engine.types import Move
from firmware_host.app.notify import Notifier
from firmware_host.app.service import Wiring, build_service
from firmware_host.coach.drills import DRILLS
from firmware_host.coach.lessons import Lessons
from firmware_host.coach.progress import ProgressBook, RatingChange
from firmware_host.config.loader import Config
from firmware_host.feedback import texts
from firmware_host.feedback.roles import Role
from firmware_host.game.fields import side_name
from firmware_host.i18n import translator
from firmware_host.opponents.puzzle import PuzzleOpponent
from firmware_host.terms.commands import Command
from firmware_host.terms.settings import Mode
from tests.firmware_host.coach.test_drills import follow_the_lights, hand
from tests.firmware_host.session_harness import ScriptedOpponent, SimRig
from tests.firmware_host.set_up_hand import READING
from tests.firmware_host.web.harness import BoardRig


def lessons_rig(variant: str, puzzles: list[Puzzle], mode: Mode = Mode.PLAY,
                rate: Any = None) -> tuple[SimRig, Lessons]:
    holder: list[Lessons] = []
    defender = PuzzleOpponent(lambda: holder[0].puzzle(), fallback=ScriptedOpponent(),
                              judged=lambda *a: holder[0].judged(*a))
    rig = SimRig(variant, mode=mode, opponent=defender)
    lessons = Lessons(variant, translator("en"), rig.controller.post, rig.session.publish,
                      lambda player: [(p, False) for p in puzzles], rate)
    holder.append(lessons)
    rig.controller.scanner = lessons.poller(rig.controller.scanner)
    rig.session.subscribe(lessons.listen)
    rig.run_for(100)
    return rig, lessons


def lessons_said(rig: SimRig) -> list[dict[str, Any]]:
    return [e for e in rig.events if e["event"] == "lesson"]


def said(rig: SimRig) -> list[str]:
    return [str(e["text"]) for e in lessons_said(rig)]


def by_hand(rig: SimRig, move: Move) -> None:
    rig.board.lift(move.origin)
    rig.run_for(150)
    rig.board.place(move.destination)
    rig.run_for(150)
    for square in move.captures:
        rig.board.lift(square)
        rig.run_for(150)
    rig.run_for(1000)


def computer_moves(rig: SimRig) -> list[str]:
    return [str(e["pdn"]) for e in rig.events if e["event"] == "computer_move"]


def test_a_puzzle_solved_then_one_failed_from_the_button(tmp_path: Any) -> None:
    first, second = load("russian")[:2]  # White to move, then Black: the player takes each
    book = ProgressBook(str(tmp_path))
    rated: list[RatingChange] = []

    def rate(player: str, puzzle: Puzzle, solved: bool, attempt: str) -> RatingChange:
        rated.append(book.attempt(player, puzzle, solved, attempt))
        return rated[-1]

    rig, lessons = lessons_rig("russian", [first, second], rate=rate)
    # The phone's command names the player (the button's press is the same, no one's).
    rig.session.handle(Command("puzzles", rig.now, value="ann"))
    rig.run_for(100)
    assert (lessons.kind, lessons.player) == ("puzzles", "ann")
    follow_the_lights(rig)
    assert rig.session.board.fen() == Board("russian", fen=first.fen).fen()
    for ply, move in enumerate(first.line):
        if ply % 2 == 0:
            by_hand(rig, move)
        else:  # the defender's line, lit and carried out
            assert computer_moves(rig)[-1] == rig.session.board.move_notation(move)
            by_hand(rig, move)
    assert any(s.startswith("Solved: ") for s in said(rig)), said(rig)
    assert rated and rated[0].rated and rated[0].change > 0
    # The next puzzle (Black to play): the player now has Black.
    follow_the_lights(rig)
    assert rig.session.board.fen() == Board("russian", fen=second.fen).fen()
    board = rig.session.board
    wrong = next(m for m in board.legal_moves if m != second.solution)
    by_hand(rig, wrong)
    told = said(rig)[-2] if said(rig)[-1].startswith("Your puzzle") else said(rig)[-1]
    assert told.startswith("Not that: after "), said(rig)
    refutation = computer_moves(rig)[-1]
    assert refutation in told  # the reply said is the one lit
    pending = rig.session.pending  # the refutation, lit as the computer's move
    assert pending is not None and rig.session.board.move_notation(pending) == refutation
    frame = rig.session.frame
    assert frame[pending.origin] is Role.FROM and frame[pending.destination] is Role.TO
    assert rated[-1].change < 0
    # A viewer's page says each sentence in the viewer's language (the board speaks English),
    # the side to play included.
    russian = translator("ru")
    for event in lessons_said(rig):
        text = texts.said(event, russian)
        assert text and text != event["text"] and re.search("[а-яё]", text), event
    first_puzzle = texts.said(lessons_said(rig)[0], russian)
    assert first_puzzle and russian.gettext("White") in first_puzzle


def test_a_position_of_the_player_s_own_mid_puzzle_ends_the_exercises() -> None:
    """The phone sets up a position of its own in the middle of a puzzle: the exercises stop
    there (said, the score kept), the board is left to that game, and a game won in it is no
    puzzle solved."""
    first = load("russian")[0]
    rated: list[tuple[str, bool]] = []

    def rate(player: str, puzzle: Puzzle, solved: bool, attempt: str) -> RatingChange:
        rated.append((puzzle.fen, solved))
        raise AssertionError("no puzzle was finished")

    rig, lessons = lessons_rig("russian", [first], rate=rate)
    rig.session.handle(Command("puzzles", rig.now, value="ann"))
    rig.run_for(100)
    follow_the_lights(rig)
    assert rig.session.board.fen() == Board("russian", fen=first.fen).fen()
    rig.session.handle(Command("setup", rig.now, value="W:W22:B18", side="white"))
    rig.run_for(100)
    assert lessons.kind is None
    assert said(rig)[-1] == "0 of 0 right. The exercises are over."
    follow_the_lights(rig)  # the player's position, as the lights set it up
    board = rig.session.board
    assert board.fen() == "W:Wc3:Bd4"
    by_hand(rig, next(iter(board.legal_moves)))  # c3:e5 takes the last man: White wins
    assert [e["winner"] for e in rig.events if e["event"] == "result"] == ["white"]
    assert not any(s.startswith("Solved") for s in said(rig)) and rated == []
    assert said(rig)[-1] == "0 of 0 right. The exercises are over."


def test_the_new_game_button_tries_a_failed_puzzle_again_without_counting_it_twice(
        tmp_path: Any) -> None:
    """A puzzle failed, the child presses new game: the board sets up the puzzle's position
    again, the second try is judged and said, the attempt counted and rated once; the
    exercises go on to the next puzzle after it."""
    first, second = load("russian")[1:3]  # (the first has no wrong move)
    book = ProgressBook(str(tmp_path))

    def rate(player: str, puzzle: Puzzle, solved: bool, attempt: str) -> RatingChange:
        return book.attempt(player, puzzle, solved, attempt)

    rig, lessons = lessons_rig("russian", [first, second], rate=rate)
    rig.session.handle(Command("puzzles", rig.now, value="ann"))
    rig.run_for(100)
    follow_the_lights(rig)
    board = rig.session.board
    by_hand(rig, next(m for m in board.legal_moves if m != first.solution))
    assert any(s.startswith("Not that: ") for s in said(rig)), said(rig)
    rig.board.press("newgame")  # the lights ask for the puzzle's position again
    rig.run_for(100)
    follow_the_lights(rig)
    assert rig.session.board.fen() == Board("russian", fen=first.fen).fen()
    assert lessons.kind == "puzzles"
    for move in first.line:
        by_hand(rig, move)
    assert said(rig)[-1].startswith("Puzzle "), said(rig)  # the next one, after "Solved: "
    assert said(rig)[-2].startswith("Solved: "), said(rig)
    progress = book.load("ann")
    assert (progress.tried, progress.solved) == (1, 0)  # the first try is the one rated
    assert (lessons.tried, lessons.done) == (1, 0)
    follow_the_lights(rig)
    assert rig.session.board.fen() == Board("russian", fen=second.fen).fen()


def test_the_new_game_button_in_a_drill_asks_it_again() -> None:
    """In the middle of a drill the new-game button starts it again from its position: the
    question is asked again and the hand judged once."""
    rig, lessons = lessons_rig("international", [], mode=Mode.RECORD)
    rig.board.press("drills")
    rig.run_for(100)
    follow_the_lights(rig)
    question = DRILLS["take-off-after"].question
    assert said(rig)[-1] == question
    rig.board.press("newgame")
    rig.run_for(100)
    follow_the_lights(rig)
    assert said(rig)[-1] == question and said(rig).count(question) == 2
    hand(rig, ["-33", "+22", "-28"])
    assert [s for s in said(rig) if s.startswith("Right: ")] == [said(rig)[-2]]
    assert lessons.kind == "drills" and (lessons.tried, lessons.done) == (1, 1)


def test_a_drill_run_from_its_button_right_then_wrong() -> None:
    rig, lessons = lessons_rig("international", [], mode=Mode.RECORD)
    rig.board.press("drills")
    rig.run_for(100)
    assert lessons.kind == "drills"
    follow_the_lights(rig)
    assert said(rig)[-1] == DRILLS["take-off-after"].question
    hand(rig, ["-33", "+22", "-28"])
    assert said(rig)[-2].startswith("Right: 33x22")  # then the next drill is announced
    follow_the_lights(rig)  # the next drill: the majority capture
    assert said(rig)[-1] == DRILLS["majority"].question
    hand(rig, ["-32", "+23", "-28"])
    assert "Take the most" in said(rig)[-2]
    rig.board.press("drills")  # stop
    rig.run_for(100)
    assert said(rig)[-1].startswith("1 of 2 right")
    assert lessons.kind is None
    # On a viewer's page in Japanese: questions, verdicts (with what each drill trains) and the
    # score, each in Japanese.
    japanese = translator("ja")
    for event in lessons_said(rig):
        text = texts.said(event, japanese)
        kana_or_kanji = re.search("[\u3040-\u30ff\u4e00-\u9fff]", text or "")
        assert text and text != event["text"] and kana_or_kanji, event


class _Board:
    """The service's simulated board stepped in virtual time, as SimRig steps its own."""

    def __init__(self, service: Any, clock: VirtualClock) -> None:
        self.service, self.clock, self.now = service, clock, 0.0
        self.board = service.sim
        self.session = service.session
        self.events: list[dict[str, Any]] = []
        self.session.subscribe(self.events.append)

    def run_for(self, ms: float) -> None:
        end = self.now + ms / 1000.0
        while self.now < end - 1e-9:
            self.now = min(self.now + self.service.scan_period, end)
            self.clock.set(self.now)
            self.service.controller.step(self.now)


def test_the_service_starts_the_puzzles_and_rates_its_player(tmp_path: Any) -> None:
    """``coach.start = "puzzles"`` and ``coach.player``: the service's lessons, the engine
    worker lent to the puzzle's defender while they run and given back when they stop."""
    config = Config.from_mapping({
        "game": {"variant": "russian"}, "store": {"url": "memory"},
        "coach": {"start": "puzzles", "player": "ann", "mistakes_dir": str(tmp_path)}})
    clock = VirtualClock()
    with ExitStack() as stack:
        service = build_service(config, stack, Wiring(
            clock=clock, notifier=Notifier({}), virtual_time=True, pdn_files=False))
        engine = service.worker.opponent
        rig = _Board(service, clock)
        rig.run_for(200)
        assert isinstance(service.worker.opponent, PuzzleOpponent)
        follow_the_lights(rig)
        puzzle = load("russian")[0]
        assert rig.session.board.fen() == Board("russian", fen=puzzle.fen).fen()
        for move in puzzle.line:
            by_hand(rig, move)
        assert any(s.startswith("Solved: ") for s in said(rig)), said(rig)
        assert ProgressBook(str(tmp_path)).load("ann").tried == 1
        rig.board.press("puzzles")  # stop: the engine plays again
        rig.run_for(200)
        assert said(rig)[-1].startswith("1 of 1 right")
        assert service.worker.opponent is engine


class _Rig:
    """A :class:`BoardRig` seen as the lessons' tests see a board (``board``, ``run_for``)."""

    def __init__(self, rig: BoardRig) -> None:
        self.rig, self.board, self.events = rig, rig.sim, rig.events

    @property
    def session(self) -> Any:
        return self.rig.session

    def run_for(self, ms: float) -> None:
        self.rig.run(ms / 1000)


@contextmanager
def _coach_board(url: str, directory: Path, start: str,
                 occupied: frozenset[int] | None = None) -> Iterator[_Rig]:
    """The board service with the coach (``coach.start``), its pieces ``occupied`` (None: the
    start position), on ``url``; stopped at the end (a restart: another with its pieces)."""
    rig = BoardRig(url, "coach-1", directory, mode="play", occupied=occupied, extra={
        "coach": {"start": start, "player": "ann", "mistakes_dir": str(directory)}})
    try:
        yield _Rig(rig)
    finally:
        rig.close()


def _back_by_the_lights(rig: _Rig) -> None:
    """The hand puts back what the lights ask for until none asks."""
    for _ in range(100):
        asked = sorted((sq, r) for sq, r in rig.session.frame.items()
                       if r is Role.MISSING or r in READING)
        if not asked:
            return
        square, role = asked[0]
        rig.board.place(square, READING.get(role))
        rig.run_for(200)
    raise AssertionError("the lights went on asking")


@pytest.mark.parametrize("start", ["puzzles", ""])
def test_a_restart_mid_puzzle_comes_back_to_it_and_counts_once(redis_url: str, tmp_path: Path,
                                                               start: str) -> None:
    """The service restarts (a power cut) in the second puzzle, its first move made and the
    defender's reply lit, a man knocked off meanwhile: the board comes back to that puzzle, the
    man asked back by the lights, the question said again, the reply still lit; the first
    puzzle is neither lost nor counted again, and the second counts once. The puzzles started
    as the service starts (``coach.start``, ``run --coach puzzles``), or by the button."""
    first, second = load("russian")[:2]
    with _coach_board(redis_url, tmp_path, start) as rig:
        if not start:
            rig.board.press("puzzles")
            rig.run_for(100)
        follow_the_lights(rig)
        for move in first.line:
            by_hand(rig, move)
        assert any(s.startswith("Solved: ") for s in said(rig)), said(rig)
        follow_the_lights(rig)
        assert rig.session.board.fen() == Board("russian", fen=second.fen).fen()
        by_hand(rig, second.line[0])
        assert said(rig)[-1].startswith("Right: "), said(rig)
        pending = rig.session.pending
        assert pending == second.line[1]  # the defender's reply, lit
        standing = rig.board.occupied
    assert ProgressBook(str(tmp_path)).load("ann").tried == 1
    knocked = min(standing)
    with _coach_board(redis_url, tmp_path, start, occupied=frozenset(standing - {knocked})) as rig:
        rig.run_for(500)
        assert said(rig)[-1].startswith(f"Puzzle {second.number}, "), said(rig)
        assert rig.session.frame.get(knocked) is Role.MISSING
        _back_by_the_lights(rig)
        assert rig.session.pending == second.line[1]
        by_hand(rig, second.line[1])  # the reply carried out, then the last move of the line
        by_hand(rig, second.line[2])
        assert any(s.startswith("Solved: ") for s in said(rig)), said(rig)
        progress = ProgressBook(str(tmp_path)).load("ann")
        assert (progress.tried, progress.solved) == (2, 2)
        assert sorted(progress.rated) == sorted(f"russian:{p.fen}" for p in (first, second))
        rig.board.press("puzzles")  # stop: both puzzles in the score
        rig.run_for(200)
        assert said(rig)[-1].startswith("2 of 2 right"), said(rig)


def test_a_restart_mid_drill_sets_it_up_again_and_judges_it(redis_url: str,
                                                             tmp_path: Path) -> None:
    """The service restarts while a drill's question waits for the hand: the drill is set up
    again (the pieces where they stood: nothing to move), asked again, and judged once."""
    drill = DRILLS["crowning-goes-on"]  # the Russian one
    with _coach_board(redis_url, tmp_path, "drills") as rig:
        follow_the_lights(rig)
        assert said(rig)[-1] == drill.question
        standing = rig.board.occupied
    with _coach_board(redis_url, tmp_path, "drills", occupied=frozenset(standing)) as rig:
        rig.run_for(500)
        assert said(rig) == ["Drill 1 of 1. Set up the position the lights show.",
                             drill.question]
        hand(rig, ["-b6", "+h4", "-c7", "-f6"])
        verdicts = [s for s in said(rig) if s.startswith("Right: ")]
        assert len(verdicts) == 1, said(rig)
        assert any(s.startswith("1 of 1 right") for s in said(rig)), said(rig)


def _second_puzzle_failed(rig: _Rig) -> Move:
    """The first puzzle solved, the second set up and a wrong move made: the refutation lit
    (returned)."""
    first, second = load("russian")[:2]
    follow_the_lights(rig)
    for move in first.line:
        by_hand(rig, move)
    follow_the_lights(rig)
    board = rig.session.board
    by_hand(rig, next(m for m in board.legal_moves if m != second.solution))
    pending = rig.session.pending
    assert pending is not None and any(s.startswith("Not that: ") for s in said(rig))
    return pending


def test_a_restart_before_the_refutation_is_carried_out_goes_on_from_it(
        redis_url: str, tmp_path: Path) -> None:
    """A puzzle failed, the defender's refutation lit, the service restarts before the hand
    carries it out: the refutation is lit again, the attempt is not counted again, and once
    it is carried out the next puzzle is set up."""
    with _coach_board(redis_url, tmp_path, "puzzles") as rig:
        refutation = _second_puzzle_failed(rig)
        standing = rig.board.occupied
    with _coach_board(redis_url, tmp_path, "puzzles", occupied=frozenset(standing)) as rig:
        rig.run_for(500)
        second = load("russian")[1]
        assert said(rig) == [f"Puzzle {second.number}: the win was missed. The lights show the "
                             "reply: carry it out for the next puzzle. The solution: "
                             f"{line_text(second.board(), second.line)}."]
        russian = texts.said(lessons_said(rig)[-1], translator("ru"))  # a viewer's page
        assert russian is not None and russian.startswith(f"Задача {second.number}: выигрыш "
                                                          "упущен."), russian
        assert rig.session.pending == refutation
        assert rig.session.frame.get(refutation.origin) is Role.FROM
        by_hand(rig, refutation)
        third = load("russian")[2]
        assert said(rig)[-1].startswith(f"Puzzle {third.number}, "), said(rig)
        progress = ProgressBook(str(tmp_path)).load("ann")
        assert (progress.tried, progress.solved) == (2, 1)


class _PowerCut(BaseException):
    """The service stops between two of its writes (no handler catches it)."""


def test_a_restart_after_the_refutation_is_carried_out_sets_up_the_next_puzzle(
        redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The power goes once the refutation of a failed puzzle is in the record, before the
    next puzzle is begun: the board comes back to the next puzzle, not to a game that waits
    for a move of the solver's."""
    with _coach_board(redis_url, tmp_path, "puzzles") as rig:
        refutation = _second_puzzle_failed(rig)

        def cut(*args: Any) -> None:
            raise _PowerCut

        monkeypatch.setattr(Lessons, "_begin", cut)
        with pytest.raises(_PowerCut):
            by_hand(rig, refutation)
        standing = rig.board.occupied
    monkeypatch.undo()
    with _coach_board(redis_url, tmp_path, "puzzles", occupied=frozenset(standing)) as rig:
        rig.run_for(500)
        third = load("russian")[2]
        assert said(rig) == [f"Puzzle {third.number}, difficulty {third.difficulty} of 5: "
                             f"{side_name(third.board().turn).capitalize()} to play and win. "
                             "Set up the position the lights show."]
        follow_the_lights(rig)
        assert rig.session.board.fen() == Board("russian", fen=third.fen).fen()
        progress = ProgressBook(str(tmp_path)).load("ann")
        assert (progress.tried, progress.solved) == (2, 1)


def test_an_attempt_judged_before_the_stop_is_rated_once_at_the_resume(
        redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The power goes between a puzzle judged (kept with the session) and its rating: the
    resume rates it, once, and goes on to the next puzzle."""
    attempt = ProgressBook.attempt

    def cut(book: ProgressBook, *args: Any) -> RatingChange:
        if book.load("ann").tried:  # the second attempt: the power goes
            raise _PowerCut
        return attempt(book, *args)

    monkeypatch.setattr(ProgressBook, "attempt", cut)
    with _coach_board(redis_url, tmp_path, "puzzles") as rig:
        with pytest.raises(_PowerCut):
            _second_puzzle_failed(rig)
        standing = rig.board.occupied
    monkeypatch.undo()
    assert ProgressBook(str(tmp_path)).load("ann").tried == 1  # the first puzzle only
    with _coach_board(redis_url, tmp_path, "puzzles", occupied=frozenset(standing)) as rig:
        rig.run_for(500)
        assert any(s.startswith("Your puzzle rating: ") for s in said(rig)), said(rig)
        progress = ProgressBook(str(tmp_path)).load("ann")
        assert (progress.tried, progress.solved, len(progress.attempts)) == (2, 1, 2)
        by_hand(rig, rig.session.pending)  # the refutation, then the next puzzle
        assert said(rig)[-1].startswith(f"Puzzle {load('russian')[2].number}, "), said(rig)
        assert ProgressBook(str(tmp_path)).load("ann").tried == 2
