"""When a piece set down counts as let go: the settle model.

The model in prose: docs/design.md#release-when-a-move-counts.

FMJD rules, notes to article 16: a move is complete when the player has released the piece; a
piece still held may be moved on. The board cannot feel a hand, so it reads release from what
it sees, the same way for every piece (men and kings, flying or not):

1. **hold**: the board has shown the result of a legal move, unchanged, for ``settle_ms``
   (0.3 s by default): a hand that still held the piece would have moved it on by then;
2. **the next lift elsewhere**: while the result shows, a square other than the moved piece's
   is lifted and the board no longer fits that move being carried on: the hand has moved on;
3. **the opponent's touch**: the board no longer fits the move being carried on but does fit
   the next move being begun (or made) on top of it: the opponent is playing, so the move was
   released (a fast reply in blitz).

A piece set down and lifted again before any of these was never released there: nothing is
recorded, and the move counts wherever it is finally let go. The model remembers the last move
whose result the board showed (:attr:`Release.shown`) until the board returns to the position
or shows another move's result, so evidence that comes after a brief lift still counts.

Whose hand it was (docs/design.md#touch-move-and-jadoube): a lift that released a capture or
a promotion may be the mover's hand finishing its move (a piece taken off that was not
captured, a crowned man lifted to jump on): it obliges nothing. After a quiet move it can only
be the opponent's touch.

Example (international: 32-28 shown, then a Black piece lifted at once):

>>> from engine import Board
>>> from firmware_host.recognition.recogniser import MoveIndex
>>> board = Board("international")
>>> release = Release()
>>> move = board.parse_move("32-28")
>>> shown = board.occupied_squares() - {31} | {27}
>>> release.show(move, shown)
True
>>> release.moved_on(board, shown - {18})        # 19 lifted: Black is replying
True
>>> release.moved_on(board, shown - {27})        # 28 lifted again: still in the hand
False
>>> Release.tail_of(move)                        # a quiet move: the lift was Black's touch
False
"""

from __future__ import annotations

from collections.abc import Iterable

from engine import Board
from engine.types import Move, Square
from firmware_host.recognition.recogniser import MoveIndex
from firmware_host.recognition.resolution import Complete, InProgress

__all__ = ["Release"]


class Release:
    """The last move whose result the board showed, not yet released."""

    def __init__(self) -> None:
        self.shown: Move | None = None
        self._occupied: frozenset[Square] = frozenset()
        self._after: MoveIndex | None = None

    def show(self, move: Move, occupied: Iterable[Square]) -> bool:
        """The board shows ``move``'s result (``occupied``); True when that is new."""
        occupied = frozenset(occupied)
        if self.shown is not None and self.shown.key() == move.key() \
                and occupied == self._occupied:
            return False
        if self.shown is None or self.shown.key() != move.key():
            self._after = None
        self.shown, self._occupied = move, occupied
        return True

    def forget(self) -> None:
        """The board went back to the position, or the turn changed."""
        self.shown, self._after = None, None
        self._occupied = frozenset()

    def moved_on(self, board: Board, occupied: Iterable[Square]) -> bool:
        """Whether ``occupied``, which is no legal move (nor a move in progress) of ``board``,
        shows that the shown move was released (rules 2 and 3 of the module)."""
        move = self.shown
        if move is None:
            return False
        now = frozenset(occupied)
        if now < self._occupied and move.destination in now:
            return True  # only lifts since, the moved piece still stands: a lift elsewhere
        if self._after is None:
            after = board.copy()
            after.push(move)
            self._after = MoveIndex(after)
        return isinstance(self._after.resolve(now), InProgress | Complete)

    @staticmethod
    def tail_of(move: Move) -> bool:
        """Whether a lift right after ``move`` may be the mover's own hand (it obliges nobody):
        after a capture (a piece taken off that was not captured) or a promotion (the crowned
        piece lifted to crown it, or to jump on where the rules end the move)."""
        return bool(move.is_capture or move.promotes)
