"""Sloppy hands: realistic physical event sequences for carrying out a move on a sensor board.

A reusable test generator (R2's session tests use it for the random-games-per-variant suite).
Given a position and a legal move (with its path), :func:`sloppy_events` returns what a real,
untidy but honest player's hands do:

- a thinking pause, then optionally an adjust (button, lift an own piece, put it back, wait);
- captured pieces taken off in random order and at random moments: some before the capturing
  piece is lifted, some while it is in the air or resting on an intermediate landing square, the
  rest after it has landed, one by one with pauses;
- the capturing piece put down on some, all or none of its intermediate landing squares;
- a flying piece slid along the board over the empty squares between its landings (each square
  sensed briefly: well under ``settle_ms``, as a sliding hand does);
- optional contact bounce on every lift and place (1-3 ms: under any debounce time).
- optionally (``hover``) a quiet move's piece set down for a moment on another square it could go
  to, and lifted again before it is let go (well under ``settle_ms``: notes to FMJD art. 16, a
  piece not yet released may still go elsewhere);
- optionally (``quick_adjust``) the move begun right after a j'adoube, inside the adjust
  window's settle time (a piece released on another square is a move).

Events are :class:`HandEvent` ``(dt_ms, action, square)`` with ``action`` one of ``"lift"``,
``"place"`` (square given) and ``"adjust"`` (the adjust button; square None). ``dt_ms`` is the
time since the previous event. After the last event the board holds the move's result: wait at
least ``settle_ms`` before expecting the move to be accepted.

Example:
    >>> import random
    >>> from engine import Board
    >>> board = Board("international")
    >>> move = board.parse_move("32-28")
    >>> events = sloppy_events(board, move, random.Random(1), Hands(bounce=0.0))
    >>> [(e.action, e.square) for e in events]
    [('lift', 31), ('place', 27)]
    >>> final_occupancy(board.occupied_squares(), events) == board.occupied_squares() - {31} | {27}
    True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from engine import Board, Move, Square

__all__ = ["BRISK", "SETTLE_GAP_MS", "HandEvent", "Hands", "final_occupancy", "replay",
           "sloppy_events"]


class HandEvent(NamedTuple):
    """One physical event: ``dt_ms`` after the previous one, lift/place a square or press adjust."""

    dt_ms: int
    action: str  # "lift" | "place" | "adjust"
    square: Square | None


@dataclass(frozen=True)
class Hands:
    """How sloppy the hands are (probabilities per opportunity, times in ms)."""

    intermediate: float = 0.5  # put the piece down on each intermediate landing square
    early_removal: float = 0.4  # a captured piece goes before the capturing piece has landed
    slide: float = 0.5  # a flying piece slides over the squares between its landings
    bounce: float = 0.3  # contact bounce on a lift or place
    adjust: float = 0.0  # an adjust (j'adoube) before the move
    quick_adjust: float = 0.0  # after an adjust, the move starts before the window has closed
    hover: float = 0.0  # a quiet move's piece touches down on another destination first
    settle_ms: int = 300  # slides stay under this; pauses on landing squares may be longer
    think_ms: tuple[int, int] = (200, 3000)
    pause_ms: tuple[int, int] = (80, 900)


#: Hands for games played on the wall clock (``run --realtime``: the kill, outage and Redis HA
#: campaigns): as sloppy as any, but brisk, so a game of ten moves takes seconds, not a minute.
BRISK = Hands(adjust=0.0, think_ms=(60, 150), pause_ms=(20, 60))
#: How long the board rests after a move before the next hand comes, on the wall clock: past
#: the default ``settle_ms`` (300), so the move is let go before the next one begins.
SETTLE_GAP_MS = 350


class _Hand:
    """Builds the event list and tracks the board, so every event is physically possible."""

    def __init__(self, occupied: Iterable[Square], rng: random.Random, hands: Hands) -> None:
        self.board = set(occupied)
        self.rng = rng
        self.hands = hands
        self.events: list[HandEvent] = []
        self.removed: set[Square] = set()
        self.wait = 0
        self.quick = False  # the move begins inside an adjust window

    def pause(self, low: int, high: int) -> None:
        self.wait += self.rng.randint(low, high)

    def act(self, action: str, sq: Square) -> None:
        if action == "lift":
            assert sq in self.board, f"lift of empty square {sq}"
            self.board.discard(sq)
        else:
            assert sq not in self.board, f"place on occupied square {sq}"
            self.board.add(sq)
        self.events.append(HandEvent(max(self.wait, 1), action, sq))
        self.wait = 0
        if self.rng.random() < self.hands.bounce:
            undo = "place" if action == "lift" else "lift"
            self.events.append(HandEvent(self.rng.randint(1, 3), undo, sq))
            self.events.append(HandEvent(self.rng.randint(1, 3), action, sq))

    def press_adjust(self) -> None:
        self.events.append(HandEvent(max(self.wait, 1), "adjust", None))
        self.wait = 0


def _between(board: Board, a: Square, b: Square) -> list[Square]:
    v = board.variant
    (ra, ca), (rb, cb) = v.square_coords(a), v.square_coords(b)
    steps = max(abs(rb - ra), abs(cb - ca))
    sr, sc = (rb > ra) - (rb < ra), (cb > ca) - (cb < ca)
    out = [v.square_at(ra + i * sr, ca + i * sc) for i in range(1, steps)]
    return [sq for sq in out if sq is not None]


def _removal_phases(move: Move, rng: random.Random, hands: Hands) -> list[list[Square]]:
    """Captured squares grouped by when they go: 0 before lifting, 1 after lifting, i + 1 after
    landing i (the last group after the final landing)."""
    last = len(move.path)
    phases: list[list[Square]] = [[] for _ in range(last + 2)]
    for sq in move.captures:
        early = rng.random() < hands.early_removal
        phases[rng.randint(0, last) if early else last + 1].append(sq)
    for group in phases:
        rng.shuffle(group)
    return phases


def _remove(hand: _Hand, squares: list[Square]) -> None:
    for sq in squares:
        # Taken off once only: in Turkish the capturing piece may later stand on that square.
        if sq in hand.board and sq not in hand.removed:
            hand.removed.add(sq)
            hand.pause(*hand.hands.pause_ms)
            hand.act("lift", sq)


def _adjust(hand: _Hand, board: Board) -> None:
    own = sorted(sq for sq, p in board.pieces().items() if p.color is board.turn)
    sq = hand.rng.choice(own)
    hand.press_adjust()
    hand.pause(150, 600)
    hand.act("lift", sq)
    hand.pause(100, 800)
    hand.act("place", sq)
    if hand.hands.quick_adjust and hand.rng.random() < hand.hands.quick_adjust:
        # The move begins inside the window (it closes with the move, not before).
        hand.pause(30, hand.hands.settle_ms - 150)
        hand.quick = True
        return
    # The window closes once the board has held the position for settle_ms: wait well past it.
    hand.pause(hand.hands.settle_ms + 150, hand.hands.settle_ms + 1500)


def sloppy_events(
    board: Board, move: Move, rng: random.Random, hands: Hands | None = None
) -> list[HandEvent]:
    """The physical events of carrying out the legal ``move`` (its own ``path``) on ``board``.

    Example:
        >>> import random
        >>> from engine import Board
        >>> b = Board("english", "B:W18:B14")
        >>> ev = sloppy_events(b, b.parse_move("14x23"), random.Random(0), Hands(bounce=0.0))
        >>> sorted((e.action, e.square) for e in ev)
        [('lift', 13), ('lift', 17), ('place', 22)]
    """
    hands = hands or Hands()
    hand = _Hand(board.occupied_squares(), rng, hands)
    if hands.adjust and rng.random() < hands.adjust:
        _adjust(hand, board)
    piece = board.piece_at(move.origin)
    if piece is None:
        raise ValueError(f"no piece on the origin of {move!r} in {board.fen()}")
    flying = board.variant.flying_kings and piece.king
    phases = _removal_phases(move, rng, hands)
    if hand.quick:
        _remove(hand, phases[0])
        hand.pause(1, 50)
    else:
        hand.pause(*hands.think_ms)
        _remove(hand, phases[0])
        hand.pause(50, 400)
    hand.act("lift", move.origin)
    _remove(hand, phases[1])
    if hands.hover and not move.is_capture and rng.random() < hands.hover:
        _hover(hand, board, move)
    prev = move.origin
    for i, landing in enumerate(move.path, start=1):
        if flying and rng.random() < hands.slide:
            for sq in _between(board, prev, landing):
                if sq not in hand.board:
                    hand.pause(15, 100)
                    hand.act("place", sq)
                    hand.pause(15, 100)
                    hand.act("lift", sq)
        hand.pause(30, 300)
        # Turkish: a captured piece must be off before the piece lands on its square.
        _remove(hand, [sq for sq in move.captures if sq == landing])
        final = i == len(move.path)
        if final or rng.random() < hands.intermediate:
            hand.act("place", landing)
        _remove(hand, phases[i + 1])
        if not final and landing in hand.board:
            hand.pause(*hands.pause_ms)
            hand.act("lift", landing)
        prev = landing
    return hand.events


def _hover(hand: _Hand, board: Board, move: Move) -> None:
    """Set the lifted piece down for a moment on another square it could go to, then lift it."""
    others = sorted({m.destination for m in board.legal_moves
                     if m.origin == move.origin and m.destination != move.destination
                     and m.destination not in hand.board})
    if not others:
        return
    sq = hand.rng.choice(others)
    hand.pause(30, 200)
    hand.events.append(HandEvent(max(hand.wait, 1), "place", sq))
    hand.board.add(sq)
    hand.wait = 0
    # Lifted again well inside settle_ms (no bounce here: the stay must stay short).
    hand.events.append(HandEvent(hand.rng.randint(40, hand.hands.settle_ms - 140), "lift", sq))
    hand.board.discard(sq)


def replay(
    occupied: Iterable[Square], events: Iterable[HandEvent]
) -> Iterator[tuple[int, frozenset[Square], HandEvent]]:
    """Apply events one by one: yields ``(t_ms, occupancy after the event, event)``.

    ``adjust`` events leave the occupancy as it is.

    Raises:
        ValueError: an event lifts from an empty square or places on an occupied one.
    """
    board = set(occupied)
    t = 0
    for ev in events:
        t += ev.dt_ms
        if ev.action == "lift":
            if ev.square not in board:
                raise ValueError(f"lift from empty square {ev.square} at {t} ms")
            board.discard(ev.square)
        elif ev.action == "place":
            if ev.square is None or ev.square in board:
                raise ValueError(f"place on occupied square {ev.square} at {t} ms")
            board.add(ev.square)
        elif ev.action != "adjust":
            raise ValueError(f"unknown action {ev.action!r}")
        yield t, frozenset(board), ev


def final_occupancy(occupied: Iterable[Square], events: Iterable[HandEvent]) -> frozenset[Square]:
    """The occupancy after all ``events``."""
    states = [frozenset(occupied)] + [occ for _, occ, _ in replay(occupied, events)]
    return states[-1]
