"""The coach's exercises on the board: puzzles and drills, one after another.

A press of the ``puzzles`` or ``drills`` button (or the command of that name: the phone, the
terminal's ``play --drills``) makes the session publish a ``coach`` event; :class:`Lessons`
hears it and runs the exercises on the board's own session, as a player at the board would:

- each position is set up by the lights: the ``setup`` command (with the side the player takes)
  posted on the controller's queue, never a set-up of its own;
- a **puzzle** is solved by hand against its defender
  (:class:`~firmware_host.opponents.puzzle.PuzzleOpponent`, the engine worker's opponent), which
  judges each move of the player's as it is asked for the reply (a search: on the worker's
  thread, never on the scan thread) and hands the verdict here. Right or wrong is said; after
  a wrong move the defender's refutation is lit as the computer's move. The player's own
  mistake book comes first (a player named with the command), and each puzzle finished counts
  in their puzzle rating (the ``rate`` hook) as ``play --puzzles`` does;
- a **drill** asks its question once the position is set, watches the hand
  (:class:`~firmware_host.coach.drills.DrillWatch`) and says the verdict.

Then the next exercise, until they run out or a button of theirs is pressed again; then the
board guides the pieces back to the start position, for a game.

The exercises survive a restart of the service (a power cut): their state (the exercises in
order, the one under way and its game, what is counted) is kept with the session's snapshot
(the ``keep`` hook, :meth:`~firmware_host.game.session.Session.keep_lesson`), written as each
exercise begins and as each is judged, before its rating. When the session resumes, the
lessons resume with it: a puzzle whose game is the one resumed goes on where it was (the
lights ask for the pieces the game wants, the defender's reply stays lit) and its question is
said again; any other exercise is set up again by the lights. A puzzle's attempt is rated with
the id of its game, so an attempt recorded before the stop is not rated twice.

What is said is a ``lesson`` event whose ``text`` is in the board's language, and which carries
its ``message``, ``values`` and ``words`` so that a viewer's page says it in the viewer's
(:func:`~firmware_host.feedback.texts.message_text`).

:meth:`Lessons.poller` wraps the scanner the controller polls: the hand's frames, the verdicts
that came from the worker and the next exercise are all taken up on the controller's thread.
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from board_io.events import BoardEvent
from engine import Board
from engine.pdn import line_text
from engine.puzzles import Progress, Puzzle, Verdict, load
from engine.types import Move
from engine.variant import find_variant
from firmware_host.coach.book import BookError, MistakeBook
from firmware_host.coach.drills import DRILLS, WORDS, Drill, DrillWatch, said
from firmware_host.coach.drills import Verdict as DrillVerdict
from firmware_host.coach.progress import ProgressBook, RatingChange
from firmware_host.feedback.texts import message_text
from firmware_host.game.controller import Poller, Tapped
from firmware_host.game.fields import side_name
from firmware_host.game.types import SessionEvent
from firmware_host.i18n import N_, Translator
from firmware_host.terms.commands import Command, CommandName

__all__ = ["Lessons", "PuzzleSource", "offer"]

log = logging.getLogger(__name__)

#: Said as a puzzle's position is set up.
PUZZLE: Final = N_("Puzzle {number}, difficulty {difficulty} of 5: {side} to play and win. "
                   "Set up the position the lights show.")
#: Said before a puzzle of the player's own mistake book.
OWN: Final = N_("From your own game ({source}): you missed this.")
#: Said after a right move that does not end the puzzle.
RIGHT: Final = N_("Right: {move}.")
#: Said when the puzzle is solved.
SOLVED: Final = N_("Solved: {line}.")
#: Said after a wrong move (the refutation is lit as the computer's move).
WRONG: Final = N_("Not that: after {move}, {refutation} and the win is gone. The lights show "
                  "the reply. The solution: {line}.")
#: Said again when the board comes back (a restart) to a puzzle failed, its refutation lit.
MISSED: Final = N_("Puzzle {number}: the win was missed. The lights show the reply: carry it "
                   "out for the next puzzle. The solution: {line}.")
#: Said of the rating after a rated puzzle.
RATED: Final = N_("Your puzzle rating: {before} → {after} ({change}).")
#: Said as a drill's position is set up.
DRILL: Final = N_("Drill {number} of {count}. Set up the position the lights show.")
#: Said when the exercises run out or are stopped (those judged, those right).
DONE: Final = N_("{done} of {tried} right. The exercises are over.")
#: Said when there is nothing to offer.
NONE: Final = N_("No exercises for this variant.")

#: The puzzles offered (each with whether it is the player's own mistake), by player name
#: ("": no one's).
PuzzleSource = Callable[[str], Sequence[tuple[Puzzle, bool]]]
#: An exercise: a puzzle (with whether it is the player's own mistake) or a drill.
Exercise = tuple[Puzzle, bool] | Drill


def offer(variant: str, folder: str, player: str) -> list[tuple[Puzzle, bool]]:
    """The puzzles of ``variant`` offered to ``player`` (empty: no one), each with whether it is
    their own: their mistake book (in ``folder``) first, then those that ship, the ones they
    have not tried yet first (a first attempt is the one rated).

    Raises:
        BookError: the player's name, or a book or record that cannot be read.
    """
    own = [] if not player else [
        p for p in MistakeBook(folder).load(player) if p.variant.name == variant]
    rated = set() if not player else set(ProgressBook(folder).load(player).rated)
    shipped = load(variant)
    shipped.sort(key=lambda p: f"{p.variant.name}:{p.fen}" in rated)
    return [(p, True) for p in own] + [(p, False) for p in shipped]


@dataclass
class _Puzzle:
    puzzle: Puzzle
    progress: Progress = Progress.GOING
    #: Whether its finished attempt is recorded in the player's progress.
    rated: bool = False
    #: Tried again after it ended (the new-game button): not counted again.
    again: bool = False


def _board(item: Exercise) -> Board:
    """An exercise's position."""
    return item.board() if isinstance(item, Drill) else item[0].board()


def _key(item: Exercise) -> str:
    """An exercise's key in the kept state: a drill's key, a puzzle's variant and position."""
    if isinstance(item, Drill):
        return item.key
    return f"{item[0].variant.name}:{item[0].fen}"


class Lessons:
    """Runs the coach's exercises on a board's session.

    Args:
        variant: the session's variant (the drills of it are offered).
        tr: the board's language.
        post: the controller's queue (the ``setup`` commands go there).
        publish: the session's ``publish`` (the ``lesson`` events; the service gives it once
            the session is made: :attr:`publish`).
        puzzles: the puzzles offered to a player.
        rate: records a player's finished puzzle, with the attempt's id (None: no ratings
            kept).
        player: the board's player (``coach.player``) when the command names no one.
        side: the player's side in the board's games (``game.human_side``): when the
            exercises stop, the board guides the pieces back to the start position for a
            game in that side.
        start: the exercises started as the service starts (``coach.start``: ``puzzles``,
            ``drills``; "": none), unless the session resumes some under way.
    """

    def __init__(self, variant: str, tr: Translator, post: Callable[[SessionEvent], None],
                 publish: Callable[..., None] | None, puzzles: PuzzleSource,
                 rate: Callable[[str, Puzzle, bool, str], RatingChange] | None = None,
                 player: str = "", side: str = "white", start: str = "") -> None:
        self.variant = variant
        self.tr = tr
        self._post = post
        self.publish = publish
        self._puzzles = puzzles
        self._rate = rate
        self._player = player
        self._side = side
        self._start_kind = start
        #: Keeps the state with the session's snapshot (None: not kept, a test's), and the
        #: state kept (read when the session resumes); the service gives both.
        self.keep: Callable[[dict[str, object] | None], None] | None = None
        self.kept: Callable[[], dict[str, object] | None] | None = None
        self._begun = False  # the session's start heard
        #: Makes the engine worker's opponent the puzzles' defender (True) or the engine
        #: again (False); None: the opponent is the defender already (a test's).
        self.defend: Callable[[bool], None] | None = None
        self.kind: str | None = None
        self.player = ""
        self._items: list[Exercise] = []
        #: The exercise under way (its index in ``_items``), and its game (None: not set up).
        self._at = -1
        self._game: str | None = None
        self._setting_up = False
        self.current: _Puzzle | None = None
        self.watch: DrillWatch | None = None
        self.tried = 0
        self.done = 0
        self._now = 0.0
        #: Verdicts from the defender (the worker's thread), taken up at the next poll.
        self._judged: queue.SimpleQueue[tuple[Puzzle, tuple[Move, ...], Verdict]] = \
            queue.SimpleQueue()

    # -- hooks --------------------------------------------------------------------------------

    def puzzle(self) -> Puzzle | None:
        """The puzzle being solved (the defender's question; any thread)."""
        current = self.current
        return None if current is None else current.puzzle

    def judged(self, puzzle: Puzzle, moves: tuple[Move, ...], verdict: Verdict) -> None:
        """The defender judged a move (any thread): taken up at the next poll."""
        self._judged.put((puzzle, moves, verdict))

    def poller(self, inner: Poller) -> Poller:
        """``inner`` (the scanner), polled on the controller's thread with the lessons."""
        return Tapped(inner, self.tick)

    def listen(self, event: Mapping[str, object]) -> None:
        """The session listener."""
        kind = event.get("event")
        at = event.get("at")
        if isinstance(at, int | float):
            self._now = float(at)
        if kind == "coach":
            self._start(str(event.get("kind")), str(event.get("player") or ""))
            return
        if kind in ("resumed", "new_game") and not self._begun:  # the session's start
            self._begun = True
            kept = self.kept() if self.kept is not None and kind == "resumed" else None
            ply = event.get("ply")
            if kept is not None and self._resume(kept, str(event.get("game_id")),
                                                 ply if isinstance(ply, int) else 0):
                return
            if self._start_kind:  # as if its button were pressed once the board is read
                self._post(Command(self._start_kind, self._now))
        if kind == "new_game" and self.kind is not None:
            item = self._items[self._at] if 0 <= self._at < len(self._items) else None
            here = item is not None and event.get("fen") == _board(item).fen()
            if self._setting_up and here:  # the exercise's game
                self._setting_up = False
                self._game = str(event.get("game_id"))
                self._save()
            elif not self._setting_up:
                self._other_game(item, str(event.get("game_id")) if here else None)
                if self.kind is None:
                    return
        if self.watch is not None:
            self.watch.listener()(event)
            if kind == "position_set" and self.watch.verdict is None:
                self._say(self.watch.drill.question)
        elif self.current is not None:
            self._puzzle_event(self.current, event)

    # -- the run --------------------------------------------------------------------------------

    def _start(self, kind: str, player: str) -> None:
        if self.kind is not None:  # a press again: stop
            self._stop()
            return
        self.kind, self.player, self.tried, self.done = kind, player or self._player, 0, 0
        self._items = self._offered(kind)
        self._at = -1
        if not self._items:
            self._say(NONE)
            self.kind = None
            if self.defend is not None:
                self.defend(False)
            return
        self._advance(self._now)

    def _offered(self, kind: str) -> list[Exercise]:
        """The exercises of ``kind`` offered to the player (the puzzles' defender lent)."""
        if kind != CommandName.PUZZLES.value:
            return [d for d in DRILLS.values() if d.variant == self.variant]
        if self.defend is not None:
            self.defend(True)
        try:
            return list(self._puzzles(self.player))
        except BookError as exc:  # the player's book unreadable: say so, offer the rest
            self._say_text(str(exc))
            return list(self._puzzles(""))

    def _stop(self, guide: bool = True) -> None:
        self._say(DONE, done=str(self.done), tried=str(self.tried))
        self.kind, self.current, self.watch, self._items = None, None, None, []
        self._at, self._game, self._setting_up = -1, None, False
        self._save()
        if self.defend is not None:
            self.defend(False)
        if guide:  # back to the board's games: the start position set up, the side kept
            self._post(Command(CommandName.SETUP.value, self._now, side=self._side,
                               value=find_variant(self.variant).starting_fen))

    def _other_game(self, item: Exercise | None, game_id: str | None) -> None:
        """A new game the exercises did not set up: the new-game button (its position is the
        exercise's, ``game_id`` given: the exercise is tried again in it) or a position of
        the player's own, another variant (the exercises stop there, the game left as it
        is)."""
        if item is None or game_id is None:
            self._stop(guide=False)
            return
        self._game = game_id
        if isinstance(item, Drill):
            self.watch = DrillWatch(item, self._drill_verdict)
        elif self.current is not None and self.current.progress is not Progress.GOING:
            # Tried again after its end: judged and said, counted and rated once already.
            self.current = _Puzzle(self.current.puzzle, rated=True, again=True)
        self._save()

    def _advance(self, now: float) -> None:
        self._at += 1
        if self._at >= len(self._items):
            self._stop()
            return
        self._begin(self._items[self._at], now)

    def _begin(self, item: Exercise, now: float) -> None:
        """Say the exercise and post its position to set up (its state kept first)."""
        self._game, self._setting_up = None, True
        self.current = None if isinstance(item, Drill) else _Puzzle(item[0])
        self._save()
        if isinstance(item, Drill):
            self.watch = DrillWatch(item, self._drill_verdict)
            self._say(DRILL, number=str(self._at + 1), count=str(len(self._items)))
            self._post(Command(CommandName.SETUP.value, now,
                               side=side_name(item.board().turn), value=item.fen))
            return
        puzzle = item[0]
        self._ask(item)
        self._post(Command(CommandName.SETUP.value, now, side=side_name(puzzle.board().turn),
                           value=puzzle.fen))

    def _ask(self, item: tuple[Puzzle, bool]) -> None:
        """Say the puzzle's question (after whose mistake it was, if the player's own)."""
        puzzle, own = item
        if own:
            self._say(OWN, source=puzzle.source)
        self._say(PUZZLE, words=("side",), number=str(puzzle.number or "-"),
                  difficulty=str(puzzle.difficulty),
                  side=side_name(puzzle.board().turn).capitalize())

    # -- kept across a restart ----------------------------------------------------------------

    def _save(self) -> None:
        """Keep the state with the session's snapshot (nothing under way: none)."""
        if self.keep is None:
            return
        current = self.current
        self.keep(None if self.kind is None else {
            "kind": self.kind, "player": self.player,
            "exercises": [_key(item) for item in self._items], "at": self._at,
            "game": self._game, "tried": self.tried, "done": self.done,
            "progress": None if current is None else current.progress.value,
            "rated": current is not None and current.rated,
            "again": current is not None and current.again})

    def _resume(self, kept: Mapping[str, object], game_id: str, ply: int) -> bool:
        """Come back to the exercises ``kept`` (the session resumed ``game_id`` at ``ply``);
        False: nothing to come back to (said in the log)."""
        try:
            kind, player = str(kept["kind"]), str(kept["player"])
            keys, at = kept["exercises"], kept["at"]
            tried, done = kept["tried"], kept["done"]
            if kind not in (CommandName.PUZZLES.value, CommandName.DRILLS.value) or \
                    not isinstance(keys, list) or not all(
                        isinstance(n, int) and not isinstance(n, bool) and n >= 0
                        for n in (at, tried, done)):
                raise ValueError("out of shape")
            progress = Progress(kept.get("progress") or Progress.GOING.value)
        except (KeyError, TypeError, ValueError) as exc:
            log.error("coach: the exercises kept cannot be resumed (%s): %.200r", exc, kept)
            return False
        self.kind, self.player = kind, player
        offered = {_key(item): item for item in reversed(self._offered(kind))}
        index = int(str(at))
        # The exercises as they were, but those no longer offered (a book rewritten).
        before = [offered[k] for k in map(str, keys[:index]) if k in offered]
        rest = [offered[k] for k in map(str, keys[index:]) if k in offered]
        self._items, self._at = before + rest, len(before)
        self.tried, self.done = int(str(tried)), int(str(done))
        if not rest:
            self._stop()
            return True
        item = rest[0]
        if isinstance(item, Drill) or kept.get("game") != game_id:
            self._begin(item, self._now)  # its position set up again by the lights
            return True
        # The puzzle's game resumed: on from where it was.
        self._game = game_id
        self.current = _Puzzle(item[0], progress, rated=kept.get("rated") is True,
                               again=kept.get("again") is True)
        if progress is Progress.GOING:
            self._ask(item)
            return True
        # Failed: on once the refutation is carried out; lit, it is said again. In the record
        # already (the solver to move: the stop came between it and the next puzzle), on now.
        waits = progress is Progress.WRONG and ply % 2 == 1
        if waits:
            puzzle = item[0]
            self._say(MISSED, number=str(puzzle.number or "-"),
                      line=line_text(puzzle.board(), puzzle.line))
        if not self.current.rated:  # judged before the stop, not yet in the progress
            self._record(self.current)
        if not waits:
            self.current = None
            self._advance(self._now)
        return True

    def tick(self, frames: Sequence[BoardEvent], now: float) -> None:
        """On the controller's thread, at each poll: the hand's frames, the verdicts in."""
        if self.watch is not None:
            self.watch.took(frames, now)
        self._now = max(self._now, now)
        while not self._judged.empty():
            self._take(*self._judged.get())

    # -- drills -------------------------------------------------------------------------------

    def _drill_verdict(self, verdict: DrillVerdict) -> None:
        self.tried += 1
        self.done += verdict.right
        self._say_text(said(verdict, self.tr), right=verdict.right, message=verdict.message,
                       values=dict(verdict.values), words=sorted(WORDS))
        self.watch = None
        self._advance(self._now)  # (kept with the counts: one write)

    # -- puzzles ------------------------------------------------------------------------------

    def _take(self, puzzle: Puzzle, moves: tuple[Move, ...], verdict: Verdict) -> None:
        current = self.current
        if current is None or current.puzzle is not puzzle or \
                current.progress is not Progress.GOING:
            return
        start = puzzle.board()
        played = start.copy()
        for move in moves[:-1]:
            played.push(move)
        said_move = line_text(played, moves[-1:])
        if verdict.progress is Progress.GOING:
            self._say(RIGHT, move=said_move)
            return
        if verdict.progress is Progress.SOLVED:
            self._say(SOLVED, line=line_text(start, moves))
        else:
            after = played.copy()
            after.push(moves[-1])
            self._say(WRONG, move=said_move, refutation=line_text(after, verdict.refutation),
                      line=line_text(start, puzzle.line))
        self._finish(current, verdict.progress)

    def _finish(self, current: _Puzzle, progress: Progress) -> None:
        current.progress = progress
        if not current.again:
            self.tried += 1
            self.done += progress is Progress.SOLVED
        self._save()  # counted, before the rating: a stop in between rates it at the resume
        if not current.rated:
            self._record(current)
        if progress is Progress.SOLVED:  # at once (a wrong move: once its refutation is seen)
            self.current = None
            self._advance(self._now)

    def _record(self, current: _Puzzle) -> None:
        """The finished attempt in the player's progress (rated if it is their first), once:
        the attempt's id is its game's."""
        if self.player and self._rate is not None:
            try:
                change = self._rate(self.player, current.puzzle,
                                    current.progress is Progress.SOLVED, self._game or "")
            except BookError as exc:
                self._say_text(str(exc))
            else:
                if change.rated:
                    self._say(RATED, before=change.before.shown(), after=change.after.shown(),
                              change=f"{change.change:+d}")
        current.rated = True
        self._save()

    def _puzzle_event(self, current: _Puzzle, event: Mapping[str, object]) -> None:
        kind = event.get("event")
        if kind == "result" and current.progress is Progress.GOING:
            # The defender has no move (no reply asked, nothing judged): the solver won.
            solver = side_name(current.puzzle.board().turn)
            if event.get("winner") == solver:
                self._say(SOLVED, line=line_text(current.puzzle.board(), current.puzzle.line))
                self._finish(current, Progress.SOLVED)
                return
        if current.progress is Progress.GOING:
            return
        # Failed: the next puzzle once the refutation is carried out, or the game ends.
        if kind == "result" or (kind == "move" and event.get("by") == "computer"):
            self.current = None
            self._advance(self._now)

    def _say(self, message: str, *, words: tuple[str, ...] = (), **values: str) -> None:
        """Say ``message`` with ``values`` (``words``: the values that are messages too) in the
        board's language, carried whole for a viewer's."""
        text = message_text(message, values, frozenset(words), self.tr)
        self._say_text(text if text is not None else message, message=message, values=values,
                       words=list(words))

    def _say_text(self, text: str, **fields: object) -> None:
        if self.publish is not None:
            self.publish("lesson", text=text, **fields)
