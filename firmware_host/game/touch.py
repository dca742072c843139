"""Touch-move and j'adoube at the board (docs/design.md#touch-move-and-jadoube).

A small tracker fed with the stable occupancy and the adjust button, clock-driven (the time of
each event is passed in, so tests run in virtual time). It decides only two things: which piece,
if any, the player is obliged to move, and whether an adjust window is open. The recogniser is
then asked with ``obliged=tracker.obliged``, and no move is accepted while ``tracker.adjusting``.

Rules:
- A touch is a lift of a piece of the side to move that has at least one legal move (``playable``),
  while no adjust window is open. With ``strict`` the first touch sets the obligation; touching an
  opponent's or an unplayable piece sets none; putting the piece back does not clear it. Two
  playable pieces lifted within one debounce interval: which came first cannot be known, so
  neither obliges (nor does a later touch that turn): the board never refuses a move that the
  rule allowed.
- The adjust button opens a window in which lifts and placements neither move nor oblige. It
  closes once the board has been disturbed and is back to the position for ``settle_ms``, or when
  the button is pressed again, or with a move: j'adoube covers putting pieces right on their
  own squares, and a piece released on another square is a move (:meth:`TouchTracker.close`).
  An announcement after the lift does not cancel an obligation.

Example:
    >>> t = TouchTracker(strict=True, settle_ms=300)
    >>> t.reset(frozenset({1, 2, 30}), playable=frozenset({30}), at=0.0)
    ()
    >>> t.update(frozenset({1, 2}), at=1.0)                # 30 lifted: obliged
    (Obliged(square=30, at=1.0),)
    >>> t.update(frozenset({1, 2, 30}), at=2.0), t.obliged   # put back: still obliged
    ((), 30)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeAlias

from board_io.types import Square

__all__ = ["AdjustClosed", "AdjustOpened", "Obliged", "TouchEvent", "TouchTracker"]


@dataclass(frozen=True)
class Obliged:
    """The player touched the playable piece on ``square`` and must move it."""

    square: Square
    at: float


@dataclass(frozen=True)
class AdjustOpened:
    """The adjust window opened (``obliged``: an obligation that stays, announced too late)."""

    at: float
    obliged: Square | None = None


@dataclass(frozen=True)
class AdjustClosed:
    """The adjust window closed: ``reason`` is ``"restored"``, ``"button"``, ``"reset"`` or
    ``"move"`` (a piece was released on another square: a move)."""

    at: float
    reason: str


TouchEvent: TypeAlias = Obliged | AdjustOpened | AdjustClosed


class TouchTracker:
    """Touch-move obligation and adjust window for the side to move.

    Args:
        strict: ``touch_move = strict`` (obligations) or off (none; the adjust window still works).
        settle_ms: how long the board must be back in the position to close an adjust window.

    Call :meth:`reset` at every new position (after a move, a takeback, a new game), with the
    pieces that may move (``MoveIndex.playable``; empty on the computer's turn), :meth:`update`
    on every stable occupancy, :meth:`press_adjust` on the button and :meth:`tick` when the
    time given by :attr:`deadline` has come.

    Example:
        >>> t = TouchTracker(strict=True)
        >>> _ = t.reset(frozenset({1, 30}), playable=frozenset({30}), at=0.0)
        >>> t.press_adjust(at=0.5)
        (AdjustOpened(at=0.5, obliged=None),)
        >>> t.update(frozenset({1}), at=1.0), t.obliged      # adjusting: no obligation
        ((), None)
    """

    def __init__(self, *, strict: bool, settle_ms: float = 300.0) -> None:
        if settle_ms < 0:
            raise ValueError(f"settle_ms must be >= 0, not {settle_ms!r}")
        self.strict = strict
        self.settle = settle_ms / 1000.0
        self._position: frozenset[Square] = frozenset()
        self._playable: frozenset[Square] = frozenset()
        self._board: frozenset[Square] = frozenset()
        self._disturbed: set[Square] = set()  # squares placed on since the position: not P's piece
        self._obliged: Square | None = None
        self._ambiguous = False  # two playable pieces lifted at once this turn
        #: The piece the last move crowned: while it is off the board (being crowned), lifts are
        #: the mover's hand and oblige nobody. Set after :meth:`reset`; reset clears it.
        self.tail: frozenset[Square] = frozenset()
        self._adjusting = False
        self._left = False  # the board left the position while the window was open
        self._home_since: float | None = None

    @property
    def obliged(self) -> Square | None:
        """The square of the piece that must be moved, or None."""
        return self._obliged

    @property
    def adjusting(self) -> bool:
        """True while an adjust window is open (no move may be accepted)."""
        return self._adjusting

    @property
    def deadline(self) -> float | None:
        """When :meth:`tick` would close the adjust window if nothing changes, else None."""
        if self._adjusting and self._left and self._home_since is not None:
            return self._home_since + self.settle
        return None

    def reset(
        self, occupied: Iterable[Square], playable: Iterable[Square], at: float,
        board: Iterable[Square] | None = None,
    ) -> tuple[TouchEvent, ...]:
        """Start a new position: ``occupied`` = occ(P), ``playable`` = pieces with a legal move.

        ``board``: what the board shows now if it differs from ``occupied`` (default: the same).
        Clears the obligation and closes an open adjust window.
        """
        self._position = frozenset(occupied)
        self._playable = frozenset(playable)
        self._board = self._position if board is None else frozenset(board)
        self._disturbed = set(self._board - self._position)
        self._obliged = None
        self._ambiguous = False
        self.tail = frozenset()
        self._home_since = at if self._board == self._position else None
        return self._close(at, "reset") if self._adjusting else ()

    def update(self, occupied: Iterable[Square], at: float) -> tuple[TouchEvent, ...]:
        """A new stable occupancy (``OccupancyChanged.occupied`` at ``at``)."""
        now = frozenset(occupied)
        lifted, placed = self._board - now, now - self._board
        self._board = now
        events: list[TouchEvent] = []
        touched = sorted(sq for sq in lifted if sq in self._playable and sq not in self._disturbed)
        busy = bool(self.tail - now)  # the crowned piece is in the mover's hand
        if touched and self.strict and not self._adjusting and self._obliged is None \
                and not self._ambiguous and not busy:
            if len(touched) > 1:
                # Lifted within one debounce interval: the first touch is unknown.
                self._ambiguous = True
            else:
                self._obliged = touched[0]
                events.append(Obliged(touched[0], at))
        self._disturbed |= placed
        if now == self._position:
            self._disturbed.clear()
            if self._home_since is None:
                self._home_since = at
        else:
            self._home_since = None
            if self._adjusting:
                self._left = True
        events.extend(self.tick(at))
        return tuple(events)

    def press_adjust(self, at: float) -> tuple[TouchEvent, ...]:
        """The adjust button (or the CLI/web announcement): opens the window, or closes it."""
        if self._adjusting:
            return self._close(at, "button")
        self._adjusting = True
        self._left = self._board != self._position
        return (AdjustOpened(at, self._obliged),)

    def close(self, at: float, reason: str = "move") -> tuple[TouchEvent, ...]:
        """Close the adjust window, if open (a move was made in it)."""
        return self._close(at, reason) if self._adjusting else ()

    def replay(self, occupied: Iterable[Square], at: float) -> tuple[TouchEvent, ...]:
        """Take the pieces missing from the position in ``occupied`` as lifted now (lifts that
        came before :meth:`reset`, such as the opponent's touch that released the last move)."""
        self._board = self._position
        return self.update(occupied, at)

    def tick(self, at: float) -> tuple[TouchEvent, ...]:
        """Let time pass: closes the adjust window once the board held the position long enough."""
        deadline = self.deadline
        if deadline is not None and at >= deadline:
            return self._close(at, "restored")
        return ()

    def _close(self, at: float, reason: str) -> tuple[TouchEvent, ...]:
        self._adjusting = False
        self._left = False
        return (AdjustClosed(at, reason),)
