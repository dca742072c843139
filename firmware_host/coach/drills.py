"""Drills of the physical rules: short exercises only a board with sensors can give.

The conventions a club's first diploma teaches (the KNDB's level 1) are about the hand as much
as the rules: the captured men come off only after the capturing piece has landed; the capture
that takes the most is compulsory; a jumped piece stays on the board until the capture ends and
may not be jumped twice (the *coup turc*); a man that reaches the last row ends its move there
in international draughts and goes on capturing as a king in Russian; a piece touched that can
move must move. A screen cannot watch any of that. Each :class:`Drill` is a position (set up by
the lights: the ``setup`` command), a question, the moves that answer it and the outcomes a
wrong hand leads to; :func:`judge` reads what the sensors saw, the board's occupancy after each
change from the position to the end of the hand's move (:class:`Hand`), and returns a
:class:`Verdict` said in the viewer's language (:func:`said`).

Judging is pure: the same frames, the same verdict. :class:`DrillWatch` records the frames on
the board (it wraps the scanner the controller polls, so it sees exactly what the session sees)
and judges when the session publishes the hand's move, or refuses what the board shows.

Example (drill ``take-off-after``: 33x22, the captured man on 28 lifted before the man lands):
    >>> drill = DRILLS["take-off-after"]
    >>> start = drill.board().occupied_squares()
    >>> sq = drill.board().variant.parse_square
    >>> hand = Hand(start)
    >>> hand.saw(start - {sq("33")})
    >>> hand.saw(start - {sq("33"), sq("28")})
    >>> hand.saw(start - {sq("33"), sq("28")} | {sq("22")})
    >>> verdict = judge(drill, hand.frames)
    >>> verdict.right, verdict.values["taken"]
    (False, '28')
    >>> said(verdict)[:47]
    'The capture 33x22 stands, but 28 came off befor'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from types import MappingProxyType
from typing import Final

from board_io.events import BoardEvent, OccupancyChanged
from engine import Board
from engine.types import Move, Square
from firmware_host.game.controller import Poller, Tapped
from firmware_host.i18n import ENGLISH, N_, Translator

__all__ = ["DRILLS", "Drill", "DrillWatch", "Hand", "Verdict", "Wrong", "judge", "said"]

#: A hand at rest this long (s) on a wrong outcome the drill knows is judged.
REST_S: Final = 2.0
#: Said when the hand did it right (each drill adds what it trained).
RIGHT: Final = N_("Right: {move}. {lesson}")
#: The board shows no move of the position and no mistake this drill knows.
NO_MOVE: Final = N_("The board shows no move of this position: set it back and try again.")
#: A legal move, but not the one the drill asks for.
NOT_ASKED: Final = N_("{move} is a move, but not the one asked for: {answer}.")
#: The hand touched a piece that could move, then moved another.
TOUCHED: Final = N_("You touched the piece on {touched}, which can move: a touched piece must "
                    "move. You moved {origin} instead.")
#: The captured men came off before the capturing piece landed.
EARLY: Final = N_("The capture {move} stands, but {taken} came off before your piece landed "
                  "on {destination}: take the captured pieces off only after the capturing "
                  "piece has landed.")


@dataclass(frozen=True)
class Wrong:
    """An outcome a wrong hand leads to: the board without ``off``'s pieces and with a piece
    on one of ``on``'s squares (PDN names), and what is then said (``values`` its fields)."""

    off: tuple[str, ...]
    on: tuple[str, ...]
    message: str
    values: Mapping[str, str] = field(default_factory=dict)

    def shows(self, board: Board, frame: frozenset[Square]) -> bool:
        """Whether ``frame`` is this outcome of ``board``'s position."""
        parse = board.variant.parse_square
        left = board.occupied_squares() - {parse(s) for s in self.off}
        return any(frame == left | {parse(s)} for s in self.on)


@dataclass(frozen=True)
class Drill:
    """One drill: its ``key``, variant and position (FEN), the ``question`` asked once the
    position is set, the ``answers`` (PDN; none: any legal move), the ``lesson`` said with a
    right answer, and the ``wrong`` outcomes it knows."""

    key: str
    variant: str
    fen: str
    question: str
    answers: tuple[str, ...]
    lesson: str
    wrong: tuple[Wrong, ...] = ()

    def board(self) -> Board:
        """The drill's position."""
        return Board(self.variant, fen=self.fen)


@dataclass(frozen=True)
class Verdict:
    """What the hand did: ``right``, and what is said (a message and its fields)."""

    right: bool
    message: str
    values: Mapping[str, str] = field(default_factory=dict)


#: The values of a verdict that are messages themselves (said in the viewer's language too).
WORDS: Final = frozenset({"lesson"})


def said(verdict: Verdict, tr: Translator = ENGLISH) -> str:
    """The verdict in ``tr``'s language."""
    values = {key: tr.gettext(value) if key in WORDS else value
              for key, value in verdict.values.items()}
    return tr.gettext(verdict.message).format(**values)


_CAPTURE_LATE = N_("The captured pieces come off after the capture.")
_MAJORITY = N_("Take the most: here two men, not one.")
_COUP_TURC = N_("A jumped piece stays on the board until the capture ends, and may not be "
                "jumped twice: the king cannot pass 43 again, so the capture ends on 36 with "
                "three men. Put 43 back: it stays.")
_ENDS = N_("In international draughts a man that reaches the last row at the end of its "
           "capture stops there and is crowned: it does not go on as a king. Put 14 back and "
           "your piece on 3.")
_GOES_ON = N_("In Russian draughts a man that reaches the last row during a capture becomes a "
              "king at once and goes on capturing as a king: take f6 too.")
_TOUCH = N_("You moved the piece you touched first.")

#: The drills, by key: the level-1 conventions, one position each.
DRILLS: Mapping[str, Drill] = MappingProxyType({drill.key: drill for drill in (
    Drill("take-off-after", "international", "W:W33,45:B28,10",
          N_("White captures. Take the captured man off only after your man has landed."),
          ("33x22",), _CAPTURE_LATE),
    Drill("majority", "international", "W:W32,45:B17,27,28,5",
          N_("White captures. Two captures are possible: play the one the rules demand."),
          ("32x12",), N_("The capture that takes the most pieces is compulsory."),
          (Wrong(("32", "28"), ("23",), _MAJORITY),)),
    Drill("coup-turc", "international", "W:WK15,45:B5,26,31,32,33,43",
          N_("White's king captures. Leave every jumped piece on the board until the capture "
             "ends."),
          ("15x36",), N_("The jumped men stay until the capture ends (the coup turc)."),
          (Wrong(("15", "31", "32", "33", "43"), ("36",), _COUP_TURC),)),
    Drill("crowning-ends", "international", "W:W12,45:B8,14,30",
          N_("White captures onto the last row. Where does the move end?"),
          ("12x3",), N_("Crowned on the last row: the move ends there."),
          (Wrong(("12", "8", "14"), ("20", "25"), _ENDS),)),
    Drill("crowning-goes-on", "russian", "W:Wb6,h2:Bc7,f6,a5",
          N_("White captures onto the last row. Where does the move end?"),
          ("b6:g5", "b6:h4"), N_("A king at once, and the capture goes on."),
          (Wrong(("b6", "c7"), ("d8",), _GOES_ON),)),
    Drill("touch-move", "international", "W:W31,32,45:B19,10",
          N_("Play a move. Mind: the first piece you touch that can move must move."),
          (), _TOUCH),
)})


class Hand:
    """The board's occupancy after each change, from the drill's position on."""

    def __init__(self, start: frozenset[Square]) -> None:
        self.frames: list[frozenset[Square]] = [start]

    def saw(self, occupied: frozenset[Square]) -> None:
        """The board now holds ``occupied`` (kept when it changed)."""
        if occupied != self.frames[-1]:
            self.frames.append(occupied)


def _first_gone(frames: Sequence[frozenset[Square]], squares: frozenset[Square]) -> int | None:
    return next((i for i, f in enumerate(frames) if squares - f), None)


def judge(drill: Drill, frames: Sequence[frozenset[Square]]) -> Verdict:
    """What the hand did, from ``frames`` (the first the drill's position, the last the board
    as the hand left it).

    In this order: a wrong outcome the drill knows; no move at all; touch-move (the first piece
    lifted that could move must be the one moved); a move not asked for; captured pieces off
    before the capturing piece landed; else right.
    """
    board = drill.board()
    name = board.variant.square_name
    final = frames[-1]
    for wrong in drill.wrong:
        if wrong.shows(board, final):
            return Verdict(False, wrong.message, dict(wrong.values))
    made = _made(board, final)
    if made is None:
        return Verdict(False, NO_MOVE)
    text = board.move_notation(made)
    movable = frozenset(m.origin for m in board.legal_moves)
    lifted = next((sq for before, after in pairwise(frames)
                   for sq in sorted(before - after) if sq in movable), None)
    if lifted is not None and lifted != made.origin:
        return Verdict(False, TOUCHED, {"touched": name(lifted), "origin": name(made.origin)})
    if drill.answers and text not in drill.answers:
        return Verdict(False, NOT_ASKED, {"move": text, "answer": " / ".join(drill.answers)})
    if made.captures and made.destination != made.origin:
        landed = next(i for i, f in enumerate(frames) if made.destination in f)
        gone = _first_gone(frames, frozenset(made.captures))
        if gone is not None and gone < landed:
            early = sorted(sq for sq in made.captures if sq not in frames[landed])
            return Verdict(False, EARLY, {"move": text, "destination": name(made.destination),
                                          "taken": ", ".join(name(sq) for sq in early)})
    return Verdict(True, RIGHT, {"move": text, "lesson": drill.lesson})


def _made(board: Board, final: frozenset[Square]) -> Move | None:
    for move in board.legal_moves:
        after = board.copy()
        after.push(move)
        if after.occupied_squares() == final:
            return move
    return None


class DrillWatch:
    """Watches a drill on the board: :meth:`poller` wraps the scanner the controller polls (the
    frames are what the session sees), :meth:`listener` hears the session. From the
    ``position_set`` event it records the hand; it judges at the hand's ``move``, at a
    ``refused`` board, or when the board has rested :data:`REST_S` showing a wrong outcome the
    drill knows (a capture stopped too soon is no refusal: the session waits for the rest of
    it); ``on_verdict`` hears the verdict, once a drill."""

    def __init__(self, drill: Drill, on_verdict: Callable[[Verdict], None]) -> None:
        self.drill = drill
        self.on_verdict = on_verdict
        self.hand: Hand | None = None
        self.verdict: Verdict | None = None
        self._changed: float | None = None
        self._position = drill.board()

    def poller(self, inner: Poller) -> Poller:
        """``inner`` (the scanner), its occupancy recorded as it passes."""
        return Tapped(inner, self.took)

    def took(self, events: Sequence[BoardEvent], now: float) -> None:
        """One poll of the scanner: its occupancy changes recorded, then the time."""
        for event in events:
            if isinstance(event, OccupancyChanged):
                self.saw(frozenset(event.occupied), event.at)
        self.tick(now)

    def saw(self, occupied: frozenset[Square], at: float) -> None:
        """The board holds ``occupied`` from ``at`` on."""
        if self.hand is not None and self.verdict is None:
            self.hand.saw(occupied)
            self._changed = at

    def tick(self, now: float) -> None:
        """Judge a hand at rest on a wrong outcome the drill knows."""
        if self.hand is None or self.verdict is not None or self._changed is None \
                or now - self._changed < REST_S:
            return
        final = self.hand.frames[-1]
        if any(wrong.shows(self._position, final) for wrong in self.drill.wrong):
            self._judge()

    def _judge(self) -> None:
        if self.hand is None:  # nothing watched yet: nothing to judge
            return
        self.verdict = judge(self.drill, self.hand.frames)
        self.on_verdict(self.verdict)

    def listener(self) -> Callable[[Mapping[str, object]], None]:
        """The session listener."""

        def listen(event: Mapping[str, object]) -> None:
            kind = event.get("event")
            if kind == "position_set" and self.hand is None:
                self.hand = Hand(self._position.occupied_squares())
            elif kind in ("move", "refused") and self.hand is not None and self.verdict is None:
                self._judge()

        return listen
