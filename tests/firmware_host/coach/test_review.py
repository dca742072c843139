"""Review on the board as a scripted scenario in virtual time: the simulated board, scanner,
controller and the review session; the last game's analysis (a blunder marked, its better
move); the hand follows the lights to the game's start, steps to the mistake, sees the move
played and the better one lit, tries the better one and gets the engine's reply (through the
engine worker), is guided back, and steps on by the game's own move."""

from __future__ import annotations

import queue
import re
from contextlib import ExitStack
from typing import Any

import pytest

from board_io.clock import VirtualClock
from board_io.scanner import Scanner
from board_io.sim import SimulatedBoard
from engine import Board
from engine.search import Limit
from engine.types import Color
from firmware_host.app.notify import Notifier
from firmware_host.app.service import Wiring, build_service
from firmware_host.cli import build_parser
from firmware_host.coach.results import MoveMark, StoredAnalysis
from firmware_host.coach.review import Phase, Review, ReviewGame, Source, last_game
from firmware_host.config.loader import Config
from firmware_host.feedback.roles import Role
from firmware_host.feedback.texts import render
from firmware_host.game.controller import Controller
from firmware_host.game.outbox import Outbox
from firmware_host.game.types import SessionEvent
from firmware_host.i18n import translator
from firmware_host.opponents.worker import SyncEngineWorker
from firmware_host.recognition.layout import layout_for
from firmware_host.store import open_store
from firmware_host.store.keys import analysis_key
from firmware_host.terms.buttons import names as button_names
from firmware_host.terms.commands import Command
from firmware_host.terms.settings import Mode
from tests.firmware_host.session_harness import ListStore, ScriptedOpponent, SimRig
from tests.firmware_host.set_up_hand import READING, follow_set_up_lights
from tests.firmware_host.web.harness import BoardRig

#: The last game: Black's 1... f6-e5 drops a man (the mark and better move as an analysis
#: writes them); White takes it, Black takes back.
MOVES = ("c3-d4", "f6-e5", "d4:f6", "g7:e5")
ANALYSIS = StoredAnalysis("b1", "g1", "russian", 6, "draughtsboard", "0.00", (
    MoveMark("c3-d4", "0.05"), MoveMark("f6-e5", "0.95", "??", 0.45, ("b6-a5", "d4-c5")),
    MoveMark("d4:f6", "0.90"), MoveMark("g7:e5", "0.95")))


class ReviewRig:
    """Simulated board -> scanner -> controller -> review, in virtual time; the engine worker
    answers with the scripted ``replies``."""

    def __init__(self, source: Source, occupied: frozenset[int], replies: list[str]) -> None:
        self.clock = VirtualClock()
        self.board = SimulatedBoard(layout_for("russian"), occupied=occupied, clock=self.clock,
                                    buttons=button_names(simulated=True))
        scanner = Scanner(self.board.sensor_matrix, self.board.cell_map,
                          buttons=self.board.buttons)
        events: queue.SimpleQueue[SessionEvent] = queue.SimpleQueue()
        self.opponent = ScriptedOpponent(replies)
        worker = SyncEngineWorker(self.opponent, Limit(depth=1), self.clock, post=events.put)
        outbox = Outbox(ListStore(), self.clock.monotonic)
        self.review = Review("russian", source, thinker=worker, outbox=outbox)
        self.events: list[dict[str, Any]] = []
        self.review.subscribe(self.events.append)
        self.controller = Controller(self.review, scanner, clock=self.clock, events=events)
        self.now = 0.0
        self.sq = Board("russian").variant.parse_square

    def run_for(self, ms: float) -> None:
        end = self.now + ms / 1000.0
        while self.now < end - 1e-9:
            self.now = min(self.now + 0.01, end)
            self.clock.set(self.now)
            self.controller.step(self.now)

    def said(self, reason: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["event"] == "review" and e.get("reason") == reason]

    def follow_lights(self) -> None:
        """The hand does what the set-up lights ask until none asks."""
        follow_set_up_lights(lambda: self.review.frame, self.board.lift, self.board.place,
                             lambda: self.run_for(80))

    def hand(self, *steps: str) -> None:
        """``-b6`` lifts the piece on b6, ``+a5`` puts one there."""
        for step in steps:
            square = self.sq(step[1:])
            self.board.lift(square) if step[0] == "-" else self.board.place(square)
            self.run_for(120)

    def press(self, name: str) -> None:
        self.board.press(name)
        self.run_for(80)

    def lit(self, role: Role) -> set[str]:
        name = Board("russian").variant.square_name
        return {name(sq) for sq, shown in self.review.frame.items() if shown is role}


def end_of_game() -> frozenset[int]:
    board = Board("russian")
    for move in MOVES:
        board.push(board.parse_move(move))
    return board.occupied_squares()


def test_a_review_steps_to_the_mistake_tries_the_better_line_and_steps_on() -> None:
    game = ReviewGame.of(ANALYSIS, None)
    rig = ReviewRig(lambda: game, end_of_game(), ["d4-c5"])
    rig.run_for(100)
    assert rig.said("start")[0]["mistakes"] == 1
    # The board held the game's end: the lights take it back to the game's start.
    assert rig.review.frame and rig.review.ply == 0
    rig.follow_lights()
    assert Board("russian").occupied_squares() == frozenset(rig.board.occupied)
    assert rig.review.frame == {}  # 1. c3-d4 was no mistake: nothing to show
    # done steps on: the lights show what 1. c3-d4 changes, the hand follows them.
    rig.press("done")
    assert rig.lit(Role.EXTRA) == {"c3"} and rig.lit(Role.SET_WHITE) == {"d4"}
    rig.follow_lights()
    # Before 1... f6-e5??: the move played and the better one, each in its own light.
    assert rig.lit(Role.PLAYED) == {"f6", "e5"} and rig.lit(Role.BETTER) == {"b6", "a5"}
    mistake = rig.said("mistake")[-1]
    assert (mistake["played"], mistake["mark"], mistake["better"]) == ("f6-e5", "??", "b6-a5")
    assert "better was b6-a5" in render(mistake)
    # The better move by hand: the engine answers (the worker, as the opponent does).
    rig.hand("-b6", "+a5")
    assert rig.opponent.searches == 1 and rig.review.phase is Phase.LINE
    assert rig.said("reply")[-1]["reply"] == "d4-c5"
    assert rig.lit(Role.FROM) == {"d4"} and rig.lit(Role.TO) == {"c5"}
    rig.hand("-d4", "+c5")
    assert rig.review.frame == {} and rig.said("line")
    # done: the pieces go back to the game's position by the set-up lights.
    rig.press("done")
    assert rig.said("back") and rig.review.phase is Phase.GAME
    assert rig.lit(Role.EXTRA) == {"a5", "c5"}
    assert rig.lit(Role.SET_BLACK) == {"b6"} and rig.lit(Role.SET_WHITE) == {"d4"}
    rig.follow_lights()
    assert rig.lit(Role.PLAYED) == {"f6", "e5"}  # the mistake is shown again
    # The game's own move by hand steps on; takeback steps back, done forward again.
    rig.hand("-f6", "+e5")
    assert rig.review.ply == 2 and rig.said("moved")[-1]["move"] == "1... f6-e5??"
    assert rig.review.frame == {}
    rig.press("takeback")
    assert rig.review.ply == 1 and rig.lit(Role.SET_BLACK) == {"f6"}
    rig.follow_lights()
    assert rig.lit(Role.BETTER) == {"b6", "a5"}
    rig.press("done")
    rig.follow_lights()
    rig.press("done")
    rig.follow_lights()
    rig.press("done")
    rig.follow_lights()
    assert rig.review.ply == 4 and rig.said("end")
    assert frozenset(rig.board.occupied) == end_of_game()


def test_a_game_not_yet_analysed_is_said_and_done_looks_again() -> None:
    found: list[ReviewGame | str] = ["not_analysed"]
    rig = ReviewRig(lambda: found[-1], Board("russian").occupied_squares(), [])
    rig.run_for(100)
    assert rig.said("not_analysed") and rig.review.phase is Phase.WAITING
    assert "not analysed yet" in render(rig.said("not_analysed")[0])
    rig.press("hint")  # nothing else is done in a review
    assert [e["reason"] for e in rig.events if e["event"] == "command_refused"] == ["review"]
    found.append(ReviewGame.of(ANALYSIS, None))
    rig.press("done")
    assert rig.review.phase is Phase.GAME and rig.said("start")
    assert rig.opponent.searches == 0  # looking again is a read, never a search


def test_the_last_game_is_read_with_its_analysis() -> None:
    store = open_store("memory", "b1")
    assert last_game(store) == "no_game"
    game_id = store.new_game({}, "russian", None, "play")
    board = Board("russian")
    from firmware_host.store.records import MoveRecord
    for ply, text in enumerate(MOVES, start=1):
        board.push(board.parse_move(text))
        store.append_move(game_id, MoveRecord(ply, text, board.fen(), float(ply)))
    store.finish(game_id, "0-2", "resignation")
    assert last_game(store) == "not_analysed"
    store.client.set(analysis_key("b1", game_id), ANALYSIS.to_json())
    found = last_game(store)
    assert isinstance(found, ReviewGame) and found.mistakes == (1,)


@pytest.mark.parametrize("language", ["fr", "ja", "ko", "nl", "pt_BR", "ru"])
def test_the_review_speaks_the_viewers_language(language: str) -> None:
    tr = translator(language)
    event = {"event": "review", "reason": "mistake", "played": "f6-e5", "mark": "??",
             "better": "b6-a5"}
    text = render(event, tr)
    assert text != render(event) and "b6-a5" in text and "f6-e5" in text


def session_rig(source: Source, **settings: Any) -> SimRig:
    """A board's whole session (play mode unless told) whose review reads ``source``."""
    def reviewer(worker: Any) -> Any:
        return lambda variant, outbox: Review(variant, source, thinker=worker, outbox=outbox)
    return SimRig("russian", reviewer=reviewer, **settings)


def test_the_review_button_hands_the_board_to_the_review_and_newgame_takes_it_back() -> None:
    rig = session_rig(lambda: ReviewGame.of(ANALYSIS, None), mode=Mode.PLAY)
    rig.run_for(100)
    rig.board.press("review")
    rig.run_for(100)
    review = rig.session.review
    assert isinstance(review, Review) and review.phase is Phase.GAME
    assert [e["mistakes"] for e in rig.events if e.get("reason") == "start"] == [1]
    rig.board.press("done")  # the board's buttons are the review's now
    rig.run_for(100)
    assert review.ply == 1 and rig.session.frame.get(rig.session.board.variant
                                                      .parse_square("d4")) is Role.SET_WHITE
    rig.board.press("newgame")
    rig.run_for(100)
    assert rig.session.review is None
    assert any(e.get("reason") == "left" for e in rig.events)
    assert any(e["event"] == "newgame_requested" for e in rig.events)


def test_mode_review_starts_with_a_review_and_a_game_going_on_refuses_one() -> None:
    rig = session_rig(lambda: "not_analysed", mode=Mode.REVIEW)
    rig.run_for(100)
    assert isinstance(rig.session.review, Review) and rig.session.config.mode is Mode.PLAY
    assert [e.get("reason") for e in rig.events if e["event"] == "review"] == ["not_analysed"]
    rig = session_rig(lambda: "no_game", mode=Mode.PLAY, human_side=Color.WHITE)
    rig.run_for(100)
    rig.board.lift(rig.session.board.variant.parse_square("c3"))
    rig.board.place(rig.session.board.variant.parse_square("d4"))
    rig.run_for(500)
    assert rig.session.board.move_stack  # a game going on
    rig.session.handle(Command("mode", rig.now, value="review"))  # the phone's choice
    assert rig.session.review is None
    assert [e["reason"] for e in rig.events if e["event"] == "command_refused"] == ["in_game"]


def test_the_last_finished_game_is_found_behind_newer_unfinished_ones() -> None:
    store = open_store("memory", "b1")
    from firmware_host.store.records import MoveRecord
    board = Board("russian")
    finished = store.new_game({}, "russian", None, "play")
    for ply, text in enumerate(MOVES, start=1):
        board.push(board.parse_move(text))
        store.append_move(finished, MoveRecord(ply, text, board.fen(), float(ply)))
    store.finish(finished, "0-2", "resignation")
    store.client.set(analysis_key("b1", finished), ANALYSIS.to_json())
    left = store.new_game({}, "russian", None, "play")  # abandoned after a move
    store.append_move(left, MoveRecord(1, "c3-d4", Board("russian").fen(), 1.0))
    store.new_game({}, "russian", None, "play")  # the game in play, no move yet
    found = last_game(store)
    assert isinstance(found, ReviewGame) and found.plies == 4
    store.client.set(analysis_key("b1", finished), b"{not json")
    assert last_game(store) == "not_analysed"  # a bad analysis is none


def test_the_boards_page_says_the_review_in_every_viewers_language() -> None:
    from firmware_host.feedback.texts import said_everywhere
    from firmware_host.web.reader import SPOKEN

    assert "review" in SPOKEN  # the page's feed carries the review's sentences
    event = {"event": "review", "reason": "reply", "tried": "b6-a5", "reply": "d4-c5"}
    sentences = said_everywhere(event)
    assert len(set(sentences.values())) == len(sentences) == 7
    assert all("d4-c5" in text for text in sentences.values())


@pytest.mark.parametrize(("analyse", "wired", "case", "told"), [
    ("queue", True, "queue", ["the hall's analysts", "draughtsboard coach worker",
                              "press done to look again"]),
    ("off", True, "off", ["does not analyse", "coach.analyse = idle", "draughtsboard annotate"]),
    # A wiring that analyses nothing (the terminal's, a script's), whatever the setting:
    ("idle", False, "none", ["nothing analyses the games played here", "draughtsboard run",
                             "draughtsboard annotate"]),
])
def test_a_game_not_analysed_is_said_as_coach_analyse_has_it(analyse: str, wired: bool,
                                                            case: str, told: list[str]) -> None:
    """The board service's review of a game not analysed says what happens to it under each
    ``coach.analyse`` (and what to do: with ``off``, nothing ever analyses it), or, where the
    service is wired to analyse nothing, that nothing will; in the board's language and in a
    viewer's; the commands it names are the CLI's. (``idle`` analyses in a process of its own
    as soon as the game ends: its sentence is checked as said.)"""
    idle = render({"event": "review", "reason": "not_analysed", "case": "idle"})
    assert idle and "the board analyses it while it is idle" in idle
    config = Config.from_mapping({"game": {"variant": "russian"}, "store": {"url": "memory"},
                                  "coach": {"analyse": analyse}})
    clock = VirtualClock()
    with ExitStack() as stack:
        service = build_service(config, stack, Wiring(
            clock=clock, virtual_time=True, notifier=Notifier({}), pdn_files=False,
            coach=wired))
        events: list[dict[str, Any]] = []
        service.session.subscribe(events.append)
        move = Board("russian").parse_move("c3-d4")
        assert service.sim is not None
        for step in range(1, 31):  # the board read, the game's first move made by hand
            if step == 10:
                service.sim.lift(move.origin)
                service.sim.place(move.destination)
            clock.set(step * 0.1)
            service.controller.step(step * 0.1)
        assert len(service.session.board.move_stack) >= 1
        service.session.command("resign", 3.1, "white")
        service.session.command("review", 3.2)
        [event] = [e for e in events if e["event"] == "review"]
    assert (event["reason"], event.get("case")) == ("not_analysed", case), events
    sentence = render(event)
    assert sentence is not None and all(part in sentence for part in told), sentence
    russian = render(event, translator("ru"))
    assert russian and re.search("[а-яё]", russian) and russian != sentence
    for command in re.findall(r"draughtsboard ([a-z]+(?: [a-z]+)?)", sentence):
        build_parser().parse_args([*command.split(), *(["g.pdn"] if command == "annotate"
                                                       else [])])


def _lights_followed(rig: BoardRig) -> None:
    """The hand does what the set-up lights ask until none asks."""
    follow_set_up_lights(lambda: rig.session.frame, rig.sim.lift, rig.sim.place,
                         lambda: rig.run(0.1))


def _reviewed(rig: BoardRig) -> Review:
    review = rig.session.review
    assert isinstance(review, Review)
    return review


def test_a_review_comes_back_to_its_step_after_a_restart(redis_url: str, tmp_path: Any) -> None:
    """A game played, resigned and analysed (White's second move a blunder); its review
    stepped to that blunder, and the service restarted (a power cut; as ``run --mode
    review``) with the pieces where they stand: the board is back at that step (no move of
    the game read from its pieces), the move played and the better one lit. The better one
    tried, the engine's reply lit, a man knocked off, restarted again: the line is left and
    the lights ask for the step's pieces, the man among them; then the review steps on to the
    end, and new-game leaves it for good."""
    def rig_for(occupied: frozenset[int] | None = None, mode: str = "play") -> BoardRig:
        return BoardRig(redis_url, "review-1", tmp_path, mode=mode, occupied=occupied)

    rig = rig_for()
    try:
        for _ in range(2):  # White's first move by hand, the engine's reply carried out
            rig.play(rig.session.board.move_notation(min(rig.session.board.legal_moves,
                                                         key=str)))
            rig.play_computer_move()
        rig.session.command("resign", rig.clock.monotonic(), "white")
        rig.run(0.2)
        game_id = rig.session.game.game_id
        moves = [m.pdn for m in rig.service.store.load_game(game_id).moves]
        before = Board("russian")
        for text in moves[:2]:
            before.push(before.parse_move(text))
        better = before.move_notation(min((m for m in before.legal_moves
                                           if before.move_notation(m) != moves[2]), key=str))
        analysis = StoredAnalysis("review-1", game_id, "russian", 4, "draughtsboard", "0.00",
                                  tuple(MoveMark(text, "0.00", *(("??", 0.5, (better,))
                                                                 if ply == 2 else ()))
                                        for ply, text in enumerate(moves)))
        rig.service.store.client.set(analysis_key("review-1", game_id), analysis.to_json())
        rig.sim.press("review")
        rig.run(0.2)
        _lights_followed(rig)
        for _ in range(2):
            rig.sim.press("done")
            rig.run(0.2)
            _lights_followed(rig)
        assert _reviewed(rig).ply == 2
        standing = frozenset(rig.sim.occupied)
    finally:
        rig.close()
    rig = rig_for(standing, mode="review")  # (run --mode review: the review kept, not anew)
    try:
        review = _reviewed(rig)
        assert (review.ply, review.phase) == (2, Phase.GAME)
        assert not [e for e in rig.events if e.get("reason") == "start"]
        [back] = [e for e in rig.events if e.get("reason") == "resumed"]
        assert back["move"] == f"1... {moves[1]}" and "after a restart" in str(render(back))
        assert len(rig.session.board.move_stack) == 4  # the game resumed as it ended
        lit = {sq for sq, role in rig.session.frame.items() if role is Role.BETTER}
        tried = before.parse_move(better)
        assert lit == {tried.origin, tried.destination}
        assert not [r for r in rig.session.frame.values() if r is Role.EXTRA or r in READING]
        rig.play(better)  # the better move by hand: the engine's reply is lit
        assert review.phase is Phase.LINE and review.reply is not None
        knocked = min(frozenset(rig.sim.occupied) - {tried.destination, tried.origin,
                                                     review.reply.origin})
        standing = frozenset(rig.sim.occupied) - {knocked}
    finally:
        rig.close()
    rig = rig_for(standing)
    try:
        review = _reviewed(rig)
        assert (review.ply, review.phase, review.line) == (2, Phase.GAME, None)
        assert [e.get("case") for e in rig.events if e.get("reason") == "resumed"] == ["line"]
        frame = rig.session.frame
        assert frame[tried.destination] is Role.EXTRA and frame[tried.origin] in READING
        assert frame[knocked] in READING
        _lights_followed(rig)
        assert frozenset(rig.sim.occupied) == before.occupied_squares()
        rig.sim.press("done")
        rig.run(0.2)
        _lights_followed(rig)
        rig.sim.press("done")
        rig.run(0.2)
        _lights_followed(rig)
        assert review.ply == 4 and any(e.get("reason") == "end" for e in rig.events)
        rig.sim.press("newgame")
        rig.run(0.2)
        assert rig.session.review is None
        assert "review" not in rig.service.store.load_session()
    finally:
        rig.close()
