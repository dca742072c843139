"""Sensor changes -> moves: the recogniser (docs/design.md#how-a-board-change-becomes-a-move).

A pure function of the game position and the stable occupancy of the board. It never waits and
keeps no state: the session decides about time (settle, error delays), the touch tracker about
touch-move (it passes the obliged square in).

Example:
    >>> from engine.board import Board
    >>> board = Board("international")
    >>> occ = board.occupied_squares()
    >>> resolve(board, occ)
    InSync()
    >>> r = resolve(board, occ - {31} | {27})          # 32-28: square 32 is index 31
    >>> board.move_notation(r.move), r.needs_settle
    ('32-28', False)
    >>> resolve(board, occ - {31}).single              # 32 lifted: 32-27 or 32-28
    False

Every position is first turned into a :class:`MoveIndex` (the moves' resulting occupancies in a
dict, the in-progress shapes bucketed by origin and by captured square), so a change of the board
costs a dict lookup and a short filter, not a scan of every legal move. The session keeps one
index per position; :func:`resolve` builds one when none is given.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import TypeAlias

from board_io.types import Reading
from engine import Board, CaptureRule, Color, IllegalMoveError, Move, Square, Variant
from firmware_host.recognition.resolution import (
    Complete,
    Illegal,
    InProgress,
    InSync,
    RefusalDetail,
    RefusalReason,
    Resolution,
)

__all__ = [
    "Complete",
    "Illegal",
    "InProgress",
    "InSync",
    "MoveIndex",
    "PendingIndex",
    "RefusalReason",
    "Resolution",
    "resolve",
    "resolve_after",
]

#: A move's identity (:meth:`engine.Move.key`): origin, destination, captured set.
_Key: TypeAlias = tuple[Square, Square, frozenset[Square]]

#: What a colour-aware reading says: (colour, crowned). Presence readings say nothing.
_COLOUR_OF_READING: Mapping[Reading, tuple[Color, bool]] = MappingProxyType({
    Reading.WHITE: (Color.WHITE, False),
    Reading.BLACK: (Color.BLACK, False),
    Reading.WHITE_KING: (Color.WHITE, True),
    Reading.BLACK_KING: (Color.BLACK, True),
})


def _mask(squares: Iterable[Square]) -> int:
    m = 0
    for sq in squares:
        m |= 1 << sq
    return m


def _squares(mask: int) -> frozenset[Square]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return frozenset(out)


def _between(variant: Variant, a: Square, b: Square) -> list[Square]:
    """Squares strictly between ``a`` and ``b`` on a line (where a flying piece slides)."""
    (ra, ca), (rb, cb) = variant.square_coords(a), variant.square_coords(b)
    dr, dc = rb - ra, cb - ca
    if not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
        return []
    steps = max(abs(dr), abs(dc))
    sr, sc = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)
    out = []
    for i in range(1, steps):
        sq = variant.square_at(ra + i * sr, ca + i * sc)
        if sq is not None:
            out.append(sq)
    return out


class _Shape:
    """One legal move as bitmasks: what may be lifted, removed and stood on while playing it."""

    __slots__ = ("captures", "dest", "final", "key", "locations", "move", "origin", "settle")

    def __init__(self, move: Move, captures: int, locations: int, final: int) -> None:
        self.move = move
        self.key = move.key()
        self.origin = move.origin
        self.dest = 1 << move.destination
        self.captures = captures
        self.locations = locations  # empty squares (and the origin) where the piece may be
        self.final = final
        self.settle = False  # another legal move may still follow from ``final``


def _locations(variant: Variant, move: Move, occupied: int) -> int:
    loc = 1 << move.origin
    prev = move.origin
    for landing in move.path:
        for sq in _between(variant, prev, landing):
            loc |= 1 << sq
        loc |= 1 << landing
        prev = landing
    # Squares holding pieces are never "stood on" (a captured piece still there, or a passage
    # over a removed one in Turkish is indistinguishable from "not removed yet").
    return loc & ~(occupied & ~(1 << move.origin))


class MoveIndex:
    """The legal moves of one position, indexed by the occupancies they produce.

    Build once per position; every :meth:`resolve` is then a dict lookup plus a short filter.

    Example:
        >>> from engine.board import Board
        >>> index = MoveIndex(Board("english"))
        >>> sorted(index.playable)[:2]
        [8, 9]
    """

    def __init__(self, board: Board) -> None:
        self.board = board.copy()
        self.variant: Variant = board.variant
        self.turn: Color = board.turn
        pieces = board.pieces()
        self.pieces = pieces
        self.occupied = _mask(pieces)
        self._occupancy = frozenset(pieces)
        self.own = _mask(sq for sq, p in pieces.items() if p.color is board.turn)
        self.opp = self.occupied & ~self.own
        self.size = self.variant.num_squares
        self.moves: tuple[Move, ...] = tuple(board.legal_moves)
        locs: dict[_Key, int] = {}
        for m in board.generate_moves(paths=True):
            key = m.key()
            locs[key] = locs.get(key, 0) | _locations(self.variant, m, self.occupied)
        self._finals: dict[int, list[_Shape]] = {}
        self._by_origin: dict[Square, list[_Shape]] = {}
        self._by_capture: dict[Square, list[_Shape]] = {}
        self._by_key: dict[_Key, _Shape] = {}
        for m in self.moves:
            shape = self._shape(m, locs.get(m.key(), 0))
            self._by_key[m.key()] = shape
            self._finals.setdefault(shape.final, []).append(shape)
            self._by_origin.setdefault(m.origin, []).append(shape)
            for c in m.captures:
                self._by_capture.setdefault(c, []).append(shape)
        for shape in self._by_key.values():
            shape.settle = any(o.key != shape.key for o in self.in_progress(shape.final))

    def _shape(self, move: Move, locations: int) -> _Shape:
        caps = _mask(move.captures)
        final = (self.occupied & ~(1 << move.origin) & ~caps) | (1 << move.destination)
        loc = locations | _locations(self.variant, move, self.occupied)
        return _Shape(move, caps, loc, final)

    @property
    def playable(self) -> frozenset[Square]:
        """Squares of the pieces that have a legal move (touching one obliges)."""
        return frozenset(self._by_origin)

    @property
    def occupancy(self) -> frozenset[Square]:
        """``occ(P)``: the occupied squares of the position."""
        return self._occupancy

    def moves_from(self, origin: Square) -> tuple[Move, ...]:
        """The legal moves of the piece on ``origin`` (empty when it cannot move)."""
        return tuple(s.move for s in self._by_origin.get(origin, ()))

    def _shape_of(self, move: Move) -> _Shape:
        shape = self._by_key.get(move.key())
        if shape is None:
            raise IllegalMoveError(f"illegal move {move!r} in {self.board.fen()}")
        return shape

    def mask_of(self, occupied: Iterable[Square]) -> int:
        """The occupancy as a bitmask (bit ``sq`` set), computed from its few differences with
        the position so that a whole board is not walked in Python on every change.

        Raises:
            ValueError: a square outside the board.
        """
        now = occupied if isinstance(occupied, frozenset) else frozenset(occupied)
        new = now - self._occupancy
        for sq in new:
            if not isinstance(sq, int) or not 0 <= sq < self.size:
                raise ValueError(f"occupancy has {sq!r}, outside the {self.variant.name} board")
        return (self.occupied & ~_mask(self._occupancy - now)) | _mask(new)

    def in_progress(self, s: int) -> list[_Shape]:
        """Shapes of the legal moves that occupancy mask ``s`` could be a stage of."""
        dminus, dplus = self.occupied & ~s, s & ~self.occupied
        if dplus & (dplus - 1):
            return []  # one piece moves: at most one square newly occupied
        lifted, removed = dminus & self.own, dminus & self.opp
        if lifted:
            if lifted & (lifted - 1):
                return []
            origin = lifted.bit_length() - 1
            return [
                sh for sh in self._by_origin.get(origin, ())
                if not removed & ~sh.captures and not dplus & ~sh.locations
            ]
        if dplus or not removed:
            return []  # the piece is on its origin: only captured pieces may be gone
        first = (removed & -removed).bit_length() - 1
        return [sh for sh in self._by_capture.get(first, ()) if not removed & ~sh.captures]

    def resolve(
        self,
        occupied: Iterable[Square],
        *,
        colours: Mapping[Square, Reading] | None = None,
        obliged: Square | None = None,
    ) -> Resolution:
        """Resolve a stable occupancy against this position (see :func:`resolve`).

        Raises:
            ValueError: a square outside the board.
        """
        s = self.mask_of(occupied)
        if s == self.occupied:
            return self._colour_check(s, colours, 0, InSync())
        shapes = self._finals.get(s)
        if shapes:
            return self._complete(s, shapes, colours, obliged)
        cands = self.in_progress(s)
        if cands and obliged is not None:
            cands = [c for c in cands if c.origin == obliged]
            if not cands:
                return self._refuse_touch(s, obliged)
        if cands:
            progress = self._progress(s, cands)
            if not colours:
                return progress
            # A flying piece may stand over a captured piece's vacated square: either colour.
            passing = s & ~self.occupied
            for c in cands:
                passing |= c.captures & s
            return self._colour_check(s, colours, passing, progress)
        return _refusal(self, s, obliged)

    def _complete(
        self, s: int, shapes: list[_Shape], colours: Mapping[Square, Reading] | None,
        obliged: Square | None,
    ) -> Resolution:
        if obliged is not None:
            shapes = [sh for sh in shapes if sh.origin == obliged]
            if not shapes:
                return self._refuse_touch(s, obliged)
        if len(shapes) > 1:  # two kings capturing the same pieces around to their own squares
            moves = tuple(sh.move for sh in shapes)
            detail: RefusalDetail = {"moves": moves, "pdn": self._pdn(moves)}
            return Illegal(RefusalReason.AMBIGUOUS, frozenset(), frozenset(), detail)
        shape = shapes[0]
        done = Complete(shape.move, shape.settle)
        if not colours:
            return done
        return self._colour_check(s, colours, shape.dest, done)

    def _progress(self, s: int, cands: list[_Shape]) -> InProgress:
        remove = land = 0
        for sh in cands:
            remove |= sh.captures
            land |= sh.dest
        moves = tuple(sh.move for sh in cands)
        remove &= s
        land &= ~s
        return InProgress(moves, _squares(remove), _squares(land), len(moves) == 1)

    def _refuse_touch(self, s: int, obliged: Square) -> Illegal:
        moves = self.moves_from(obliged)
        target = self._nearest(s, [sh.final for sh in self._by_origin.get(obliged, ())])
        detail: RefusalDetail = {
            "piece": obliged,
            "square": self.variant.square_name(obliged),
            "moves": moves,
            "pdn": self._pdn(moves),
            "destinations": frozenset(m.destination for m in moves),
        }
        return _illegal(RefusalReason.TOUCHED_PIECE_MUST_MOVE, s, target, detail)

    def _nearest(self, s: int, finals: Iterable[int]) -> int:
        """The target closest to ``s``: the position, or one of ``finals`` (ties: the position)."""
        best, cost = self.occupied, (self.occupied ^ s).bit_count()
        for f in finals:
            c = (f ^ s).bit_count()
            if c < cost:
                best, cost = f, c
        return best

    def _pdn(self, moves: Iterable[Move]) -> tuple[str, ...]:
        return tuple(self.board.move_notation(m) for m in moves)

    def _colour_check(
        self, s: int, colours: Mapping[Square, Reading] | None, placed: int, ok: Resolution
    ) -> Resolution:
        """``ok`` unless a colour-aware reading contradicts it.

        ``placed``: squares where the moving piece may stand (besides what the position has).
        """
        if not colours:
            return ok
        wrong = []
        for sq, reading in colours.items():
            seen = _COLOUR_OF_READING.get(reading)
            if seen is None or not s >> sq & 1:
                continue
            piece = self.pieces.get(sq)
            if placed >> sq & 1:
                if seen[0] is not self.turn and (piece is None or seen[0] is not piece.color):
                    wrong.append(sq)
                continue
            # A crown the game does not know is wrong; a missing crown is tolerated (the game
            # tracks kings, and a just-promoted man is crowned a moment later).
            if piece is not None and (seen[0] is not piece.color or (seen[1] and not piece.king)):
                wrong.append(sq)
        if not wrong:
            return ok
        names = tuple(self.variant.square_name(sq) for sq in sorted(wrong))
        return Illegal(
            RefusalReason.WRONG_COLOUR, frozenset(), frozenset(wrong),
            {"squares": names, "wrong": frozenset(wrong)},
        )


def _illegal(
    reason: RefusalReason, s: int, target: int, detail: RefusalDetail | None = None
) -> Illegal:
    return Illegal(reason, _squares(target & ~s), _squares(s & ~target), detail or {})


def _capture_refusal(index: MoveIndex, s: int, origin: Square, removed: int) -> Illegal | None:
    """A capture was compulsory, or a bigger one (None: this is not about captures)."""
    captures = [sh for sh in index._by_key.values() if sh.move.is_capture]
    if not captures:
        return None
    moves = tuple(sh.move for sh in captures)
    pdn = index._pdn(moves)
    own = [sh.final for sh in index._by_origin.get(origin, ())]
    target = index._nearest(s, own)
    detail: RefusalDetail = {"moves": moves, "pdn": pdn, "capture": ", ".join(pdn)}
    if not removed:
        return _illegal(RefusalReason.CAPTURE_COMPULSORY, s, target, detail)
    counts = {len(m.captures) for m in moves}
    rule = index.variant.capture_rule
    if rule is CaptureRule.FREE or len(counts) != 1:
        return None
    (count,) = counts
    detail["count"] = count
    if removed.bit_count() < count:
        return _illegal(RefusalReason.MAXIMUM_CAPTURE, s, target, detail)
    if rule is CaptureRule.MAJORITY or removed.bit_count() > count:
        return None  # as many pieces as the legal captures (or more), yet none of them
    kings = {sq for sq, p in index.pieces.items() if p.king}
    if rule is CaptureRule.ITALIAN and origin not in kings and all(
        m.origin in kings for m in moves
    ):
        return _illegal(RefusalReason.KING_PRIORITY, s, target, detail)
    return _illegal(RefusalReason.CAPTURE_PRECEDENCE, s, target, detail)


def _refusal(index: MoveIndex, s: int, obliged: Square | None) -> Illegal:
    """Why ``s`` is no legal move, with the nearest target to guide the correction."""
    dminus, dplus = index.occupied & ~s, s & ~index.occupied
    lifted, removed = dminus & index.own, dminus & index.opp
    if obliged is not None and lifted & ~(1 << obliged):
        return index._refuse_touch(s, obliged)
    if not lifted:
        if removed and not dplus:
            names = tuple(index.variant.square_name(sq) for sq in sorted(_squares(removed)))
            detail: RefusalDetail = {"squares": names, "side": index.turn.name.lower()}
            return _illegal(RefusalReason.NOT_SIDE_TO_MOVE, s, index.occupied, detail)
        names = tuple(index.variant.square_name(sq) for sq in sorted(_squares(dplus)))
        reason = RefusalReason.NOT_SIDE_TO_MOVE if removed else RefusalReason.UNKNOWN_PIECE
        detail = {"squares": names, "side": index.turn.name.lower()}
        return _illegal(reason, s, index.occupied, detail)
    if lifted & (lifted - 1):
        return _illegal(RefusalReason.NO_SUCH_MOVE, s, index.occupied, {})
    origin = lifted.bit_length() - 1
    refused = _capture_refusal(index, s, origin, removed)
    if refused is not None:
        return refused
    shapes = index._by_origin.get(origin, [])
    target = index._nearest(s, [sh.final for sh in shapes])
    # Guiding towards a move's result (a wrong piece taken off, ...): say which move.
    toward = next((sh.move for sh in shapes if sh.final == target), None)
    info: RefusalDetail = {}
    if toward is not None:
        info["toward"], info["pdn"] = toward, index._pdn([toward])
    return _illegal(RefusalReason.NO_SUCH_MOVE, s, target, info)


def resolve(
    board: Board,
    occupied: Iterable[Square],
    *,
    colours: Mapping[Square, Reading] | None = None,
    obliged: Square | None = None,
    index: MoveIndex | None = None,
) -> Resolution:
    """What the board shows, given the game position ``board`` (the human to move).

    Returns :class:`InSync`, :class:`Complete`, :class:`InProgress` or :class:`Illegal`.
    ``colours`` (colour-aware sensors) are checked too; ``obliged`` (touch-move) restricts the
    moves to those of the piece on that square. Pass the position's :class:`MoveIndex` as
    ``index`` to avoid rebuilding it on every change.

    Example:
        >>> from engine.board import Board
        >>> board = Board("english", "B:W18:B14")      # Black 14 must jump 18
        >>> r = resolve(board, {16, 17})               # 14-17 instead: refused
        >>> r.reason.value, r.detail["capture"]
        ('capture_compulsory', '14x23')

    Raises:
        ValueError: a square outside the board.
    """
    idx = index if index is not None else MoveIndex(board)
    return idx.resolve(occupied, colours=colours, obliged=obliged)


class PendingIndex:
    """The position with the computer's move ``pending`` shown on the LEDs (docs/design.md, step 3).

    Example:
        >>> from engine.board import Board
        >>> board = Board("international")
        >>> pending = PendingIndex(board, board.parse_move("32-28"))
        >>> occ = board.occupied_squares() - {31} | {27}
        >>> pending.resolve(occ).move == pending.move
        True

    Raises:
        IllegalMoveError: ``pending`` is not legal in ``board``.
    """

    def __init__(
        self, board: Board, pending: Move, *, index: MoveIndex | None = None
    ) -> None:
        self.before = index if index is not None else MoveIndex(board)
        self._shape = self.before._shape_of(pending)
        self.move = self._shape.move
        after = board.copy()
        after.push(self.move)
        self.after = MoveIndex(after)

    def resolve(
        self, occupied: Iterable[Square], *, colours: Mapping[Square, Reading] | None = None
    ) -> Resolution:
        """Resolve ``occupied`` against the pending move and a human reply on top of it.

        ``InSync``: nothing done yet. ``Complete(move)``: the pending move is carried out
        (possibly with a human reply begun or finished on top: commit it, then resolve again on
        the new position, which finds the reply). ``InProgress``: the pending move is being
        carried out. ``Illegal`` with reason ``PENDING_MOVE_EXPECTED``: a different legal move
        (``detail["alternative"]``, for the "alternative move" option) or anything else, guided
        towards the pending result.

        Raises:
            ValueError: a square outside the board.
        """
        before, after = self.before, self.after
        s = before.mask_of(occupied)
        if s == before.occupied:
            return before._colour_check(s, colours, 0, InSync())
        if s == after.occupied:
            return after._colour_check(s, colours, 0, Complete(self.move))
        if any(sh is self._shape for sh in before.in_progress(s)):
            progress = before._progress(s, [self._shape])
            return before._colour_check(s, colours, s & ~before.occupied, progress)
        if after.in_progress(s):  # a reply begun, or finished, on top of the pending move
            return after._colour_check(s, colours, s & ~after.occupied, Complete(self.move))
        return self._refuse(s)

    def _refuse(self, s: int) -> Illegal:
        before, after = self.before, self.after
        expected = before._pdn([self.move])[0]
        detail: RefusalDetail = {"pending": self.move, "expected": expected, "alternative": None}
        alternatives = before._finals.get(s)
        if alternatives and len(alternatives) == 1:
            alt = alternatives[0]
            detail["alternative"], detail["played"] = alt.move, before._pdn([alt.move])[0]
            detail["needs_settle"] = alt.settle
        # Ties go to the pending result: that is what the player is asked to do.
        closer = (before.occupied ^ s).bit_count() < (after.occupied ^ s).bit_count()
        target = before.occupied if closer else after.occupied
        return _illegal(RefusalReason.PENDING_MOVE_EXPECTED, s, target, detail)


def resolve_after(
    board: Board,
    pending_move: Move,
    occupied: Iterable[Square],
    *,
    colours: Mapping[Square, Reading] | None = None,
) -> Resolution:
    """Resolve the board while the computer's ``pending_move`` waits to be carried out.

    ``S == occ(mc(P))`` commits the computer's move; so does ``S == occ(mh(mc(P)))``, the human
    reply ``mh`` played on top (resolving again after the commit finds ``mh``). Keep a
    :class:`PendingIndex` to avoid rebuilding.

    Example:
        >>> from engine.board import Board
        >>> board = Board("international")
        >>> mc = board.parse_move("32-28")
        >>> occ = board.occupied_squares() - {31, 18} | {27, 23}   # 32-28 then 19-24
        >>> resolve_after(board, mc, occ).move == mc
        True
        >>> board.push(mc)
        >>> board.move_notation(resolve(board, occ).move)
        '19-24'

    Raises:
        IllegalMoveError: ``pending_move`` is not legal in ``board``.
        ValueError: a square outside the board.
    """
    return PendingIndex(board, pending_move).resolve(occupied, colours=colours)
