"""Static evaluation of a position, per variant, in hundredths of a man for the side to move.

The evaluation is a sum of terms (material, advancement, runaway men, centre, back-rank guard,
tempo, mobility, trapped kings) weighted per variant, plus endgame knowledge: positions that the
variant's rules or theory make dead draws score 0, and the giveaway variants invert the goal.

Example:
    >>> from engine import Board
    >>> Evaluator(Board("russian").variant).evaluate(Board("russian"))
    0
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from engine import Board, Variant
from engine.types import WHITE


@dataclass(frozen=True)
class Weights:
    """The evaluation's knobs for one variant (hundredths of a man)."""

    man: int = 100
    king: int = 300
    advance: int = 3
    runaway: int = 60
    centre: int = 4
    back_guard: int = 6
    mobility: int = 2
    blocked_man: int = 2
    trapped_king: int = 40
    side_to_move: int = 3
    #: A lone king draws against up to this many pieces (the variant's rules make it a draw).
    lone_king_holds: int = 1
    #: Also holds against one piece more while standing on the long diagonal (Petrov's rule).
    long_diagonal_holds: bool = False


#: Flying kings rule the long diagonals: three kings cannot beat one in international draughts
#: (FMJD rules art. 8: 3 kings v 1 is drawn after 16 moves), two cannot in Russian draughts,
#: where three win unless the lone king holds the long diagonal. A short (English) king is
#: worth about one and a half men, and two kings beat one.
_WEIGHTS: Mapping[str, Weights] = MappingProxyType(
    {
        "international": Weights(king=320, advance=3, lone_king_holds=3),
        "brazilian": Weights(king=300, advance=3, lone_king_holds=2, long_diagonal_holds=True),
        "canadian": Weights(king=350, advance=2, lone_king_holds=3),
        "russian": Weights(king=280, advance=4, lone_king_holds=2, long_diagonal_holds=True),
        "pool": Weights(king=270, advance=4, lone_king_holds=2, long_diagonal_holds=True),
        "english": Weights(king=150, advance=3, runaway=35, back_guard=10, trapped_king=25),
        "italian": Weights(king=150, advance=3, runaway=35, back_guard=10, trapped_king=25),
        "spanish": Weights(king=260, advance=4, lone_king_holds=2),
        "turkish": Weights(king=250, advance=4, centre=2, back_guard=2, lone_king_holds=1),
    }
)


def weights_for(variant: Variant) -> Weights:
    """The weights for ``variant``: its own, else by family (flying or short kings).

    Example:
        >>> from engine import find_variant
        >>> weights_for(find_variant("international")).king > weights_for(find_variant("english")).king
        True
    """
    for name in (variant.name, *getattr(variant, "aliases", ())):
        if name in _WEIGHTS:
            return _WEIGHTS[name]
    if _flag(variant, "flying_kings", default=True):
        return Weights(king=280, lone_king_holds=2)
    return Weights(king=150, runaway=35, back_guard=10, trapped_king=25)


def _flag(variant: Variant, name: str, default: bool = False) -> bool:
    return bool(getattr(variant, name, default))


def _bits(squares: Iterator[int]) -> int:
    value = 0
    for square in squares:
        value |= 1 << square
    return value


def _iter_bits(value: int) -> Iterator[int]:
    while value:
        low = value & -value
        yield low.bit_length() - 1
        value ^= low


class _Geometry:
    """Per-square tables built once per variant: ranks, neighbours, cones, zones."""

    def __init__(self, variant: Variant) -> None:
        rows, cols = variant.rows, variant.cols
        n = variant.num_squares
        coords = [variant.square_coords(sq) for sq in range(n)]
        at = {rc: sq for sq, rc in enumerate(coords)}
        orthogonal = _flag(variant, "orthogonal")
        self.rows = rows
        # rank[colour][sq]: rows advanced from the colour's own first rank.
        self.rank = (
            tuple(r for r, _ in coords),
            tuple(rows - 1 - r for r, _ in coords),
        )
        steps_white = ((1, 0), (0, -1), (0, 1)) if orthogonal else ((1, -1), (1, 1))
        self.forward = tuple(
            tuple(
                tuple(
                    at[(r + dr * sign, c + dc)]
                    for dr, dc in steps_white
                    if (r + dr * sign, c + dc) in at
                )
                for r, c in coords
            )
            for sign in (1, -1)
        )
        king_steps = ((1, 0), (-1, 0), (0, 1), (0, -1)) if orthogonal else (
            (1, 1), (1, -1), (-1, 1), (-1, -1)
        )
        self.around = tuple(
            tuple(at[(r + dr, c + dc)] for dr, dc in king_steps if (r + dr, c + dc) in at)
            for r, c in coords
        )
        self.rank_masks = tuple(
            tuple(_bits(sq for sq in range(n) if self.rank[colour][sq] == k) for k in range(rows))
            for colour in (0, 1)
        )
        mid_lo, mid_hi = cols // 2 - 2, (cols + 1) // 2 + 1
        self.centre = _bits(
            sq for sq, (r, c) in enumerate(coords)
            if mid_lo <= c <= mid_hi and rows // 2 - 2 < r < rows // 2 + 1 + (rows % 2)
        )
        self.back = (self.rank_masks[0][0], self.rank_masks[1][0])
        # cone[colour][sq]: every square a man on sq passes or that an enemy could block from.
        self.cone = tuple(
            tuple(
                _bits(
                    sq2 for sq2, (r2, c2) in enumerate(coords)
                    if (r2 - r) * sign > 0 and abs(c2 - c) <= abs(r2 - r) + 1
                )
                for r, c in coords
            )
            for sign in (1, -1)
        )
        long_a = [sq for sq, (r, c) in enumerate(coords) if r == c]
        long_b = [sq for sq, (r, c) in enumerate(coords) if r + c == cols - 1]
        self.long_diagonal = _bits(long_a if len(long_a) >= len(long_b) else long_b)


class Evaluator:
    """Scores positions of one variant for the side to move.

    Example:
        >>> from engine import Board
        >>> board = Board("english", fen="W:W21,K5:B12")
        >>> Evaluator(board.variant).evaluate(board) > 0
        True
    """

    def __init__(self, variant: Variant, weights: Weights | None = None) -> None:
        self.variant = variant
        self.weights = weights if weights is not None else weights_for(variant)
        self.giveaway = _flag(variant, "giveaway")
        self.geometry = _Geometry(variant)
        self._initial = max(1, _initial_count(variant))

    # ------------------------------------------------------------------ public
    def evaluate(self, board: Board) -> int:
        """Return the score of ``board`` for the side to move (positive: better for it)."""
        wm, wk, bm, bk = piece_bits(board)
        if self.giveaway:
            score = self._giveaway(wm, wk, bm, bk)
        else:
            score = self._normal(wm, wk, bm, bk)
        score = score if board.turn == WHITE else -score
        return score + self.weights.side_to_move

    def is_dead_draw(self, board: Board) -> bool:
        """True when the material left cannot win under the variant's rules or theory.

        Example:
            >>> from engine import Board
            >>> board = Board("international", fen="W:WK46,K47,K48:BK5")
            >>> Evaluator(board.variant).is_dead_draw(board)
            True
        """
        wm, wk, bm, bk = piece_bits(board)
        return self._dead_draw(wm, wk, bm, bk)

    # ------------------------------------------------------------------ terms
    def _dead_draw(self, wm: int, wk: int, bm: int, bk: int) -> bool:
        if self.giveaway:
            return False
        white, black = (wm | wk).bit_count(), (bm | bk).bit_count()
        if white > 1 and black > 1:
            return False
        if white == 1 and wk:
            lone, strong_kings, strong = wk, bk, black
        elif black == 1 and bk:
            lone, strong_kings, strong = bk, wk, white
        else:
            return False
        if not strong_kings:
            return False  # a king against men is a fight, not a draw
        holds = self.weights.lone_king_holds
        if self.weights.long_diagonal_holds and lone & self.geometry.long_diagonal:
            holds += 1
        return strong <= holds

    def _normal(self, wm: int, wk: int, bm: int, bk: int) -> int:
        w = self.weights
        if self._dead_draw(wm, wk, bm, bk):
            return 0
        white_men, black_men = wm.bit_count(), bm.bit_count()
        white_kings, black_kings = wk.bit_count(), bk.bit_count()
        score = w.man * (white_men - black_men) + w.king * (white_kings - black_kings)
        total = white_men + black_men + white_kings + black_kings
        endgame = max(0, self._initial - total) * 8 // self._initial  # 0 opening .. ~7 endgame
        empty = ~(wm | wk | bm | bk)
        score += self._men_terms(wm, 0, bm | bk, bk, empty, endgame)
        score -= self._men_terms(bm, 1, wm | wk, wk, empty, endgame)
        score += self._king_terms(wk, empty) - self._king_terms(bk, empty)
        # Ahead in material, trade down: the lead counts for more with fewer pieces on the board.
        lead = score
        if abs(lead) >= w.man and total:
            score += lead * endgame // 16
        return score

    def _men_terms(self, men: int, colour: int, enemy: int, enemy_kings: int, empty: int,
                   endgame: int) -> int:
        w = self.weights
        g = self.geometry
        rank_masks = g.rank_masks[colour]
        tempo = 0
        for k in range(1, g.rows):
            if men & rank_masks[k]:
                tempo += k * (men & rank_masks[k]).bit_count()
        # Tempo: early on, racing forward only loses shape; later every step counts.
        value = tempo * w.advance * (endgame + 1) // 4
        value += w.centre * (men & g.centre).bit_count()
        if not enemy_kings:
            value += w.back_guard * (men & g.back[colour]).bit_count()
        forward = g.forward[colour]
        rank = g.rank[colour]
        cone = g.cone[colour]
        half = g.rows // 2
        for sq in _iter_bits(men):
            free = 0
            for nxt in forward[sq]:
                if empty >> nxt & 1:
                    free += 1
            if free:
                value += w.mobility * free
            else:
                value -= w.blocked_man
            if rank[sq] >= half and not cone[sq] & enemy:
                # Nothing ahead can stop it: nearly a king already.
                value += w.runaway * rank[sq] // (g.rows - 1)
        return value

    def _king_terms(self, kings: int, empty: int) -> int:
        if not kings:
            return 0
        w = self.weights
        around = self.geometry.around
        value = 0
        for sq in _iter_bits(kings):
            free = 0
            for nxt in around[sq]:
                if empty >> nxt & 1:
                    free += 1
            value += w.mobility * free if free else -w.trapped_king
        return value

    def _giveaway(self, wm: int, wk: int, bm: int, bk: int) -> int:
        """Losing draughts: fewer pieces is better, and a king is a liability hard to give away."""
        w = self.weights
        material = w.man * (wm.bit_count() - bm.bit_count()) + 2 * w.man * (
            wk.bit_count() - bk.bit_count()
        )
        return -material


def piece_bits(board: Board) -> tuple[int, int, int, int]:
    """Return (white men, white kings, black men, black kings) as square bitmasks.

    Example:
        >>> from engine import Board
        >>> piece_bits(Board("english", fen="W:W32:B1"))
        (2147483648, 0, 1, 0)
    """
    fast = getattr(board, "bitboards", None)
    if fast is not None:
        result: tuple[int, int, int, int] = fast()
        return result
    wm = wk = bm = bk = 0
    for square, piece in board.pieces().items():
        bit = 1 << square
        if piece.color == WHITE:
            if piece.king:
                wk |= bit
            else:
                wm |= bit
        elif piece.king:
            bk |= bit
        else:
            bm |= bit
    return wm, wk, bm, bk


def _initial_count(variant: Variant) -> int:
    wm, wk, bm, bk = piece_bits(Board(variant.name))
    return (wm | wk | bm | bk).bit_count()
