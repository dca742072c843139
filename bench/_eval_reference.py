"""The evaluation as it was before the tuned terms (kept for bench/: speed and matches).

A verbatim copy of the hand-weighted ``engine/evaluate.py`` of commit d5d8757, renamed
``ReferenceEvaluator`` with its ``ReferenceWeights``; it has the same ``evaluate_bits``, so a
pure-Python :class:`engine.search.Searcher` takes it as its evaluator. Not used by the
engine; bench/evaluate.py and bench/eval_match.py compare against it in the same run.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from engine import Board, Variant
from engine.generators import generator_for
from engine.movegen import MoveGen

__all__ = ["ReferenceEvaluator", "ReferenceWeights", "reference_weights_for"]


@dataclass(frozen=True)
class ReferenceWeights:
    """The evaluation's knobs for one variant (hundredths of a man)."""

    man: int = 100
    king: int = 300
    advance: int = 3
    runaway: int = 60
    centre: int = 4
    back_guard: int = 6
    mobility: int = 2
    blocked_man: int = 3
    trapped_king: int = 40
    side_to_move: int = 3
    #: A lone king draws against up to this many pieces with a king among them.
    lone_king_holds: int = 1
    #: ... and against one more while it stands on the long diagonal (the "main road").
    main_road_holds: bool = False


#: King values: a flying king sweeps whole diagonals and is worth about three men; a short
#: (English, Italian) king about one and a half. Endgames: FMJD rules make three pieces with a
#: king against a lone king a draw (art. 6.3, 16 moves); in Russian draughts two kings never beat
#: one and three do only when the lone king is off the main road (Petrov's triangle); in English
#: checkers two kings beat one, but one against one is a draw.
_WEIGHTS: Mapping[str, ReferenceWeights] = MappingProxyType(
    {
        "international": ReferenceWeights(king=320, lone_king_holds=3),
        "brazilian": ReferenceWeights(king=300, lone_king_holds=3),
        "canadian": ReferenceWeights(king=350, advance=2, lone_king_holds=3),
        "russian": ReferenceWeights(king=280, advance=4, lone_king_holds=2, main_road_holds=True),
        "diagonal": ReferenceWeights(king=280, advance=4, lone_king_holds=2, main_road_holds=True),
        "pool": ReferenceWeights(king=270, advance=4, lone_king_holds=2, main_road_holds=True),
        "spanish": ReferenceWeights(king=260, advance=4, lone_king_holds=2),
        "english": ReferenceWeights(king=150, runaway=35, back_guard=10, trapped_king=25),
        "italian": ReferenceWeights(king=150, runaway=35, back_guard=10, trapped_king=25),
        "turkish": ReferenceWeights(king=250, advance=4, centre=2, back_guard=0),
    }
)


def reference_weights_for(variant: Variant) -> ReferenceWeights:
    """The weights for ``variant``: its own, else by family (flying or short kings).

    Example:
        >>> from engine import find_variant
        >>> reference_weights_for(find_variant("international")).king
        320
    """
    if variant.name in _WEIGHTS:
        return _WEIGHTS[variant.name]
    if variant.flying_kings:
        return ReferenceWeights(king=280, lone_king_holds=2)
    return ReferenceWeights(king=150, runaway=35, back_guard=10, trapped_king=25)


def _shift(mask: int, offset: int) -> int:
    return mask << offset if offset > 0 else mask >> -offset


class _Geometry:
    """Masks over the move generator's padded bit layout, built once per evaluator."""

    def __init__(self, gen: MoveGen) -> None:
        variant = gen.variant
        rows, cols = variant.rows, variant.cols
        row = [rc[0] for rc in gen.coords]
        col = [rc[1] for rc in gen.coords]
        self.rows = rows
        self.board = gen.board_mask
        bits = list(gen.sq2bit)
        self.forward = tuple(tuple(gen.offsets[k] for k in gen.man_dirs[c]) for c in (0, 1))
        self.all_offsets = gen.offsets
        # rank_masks[colour][k]: squares k rows up from that colour's own first rank.
        self.rank_masks = tuple(
            tuple(
                sum(1 << b for b in bits if (row[b] if c == 0 else rows - 1 - row[b]) == k)
                for k in range(rows)
            )
            for c in (0, 1)
        )
        self.rank = tuple(
            tuple(
                (row[b] if c == 0 else rows - 1 - row[b]) if row[b] >= 0 else 0
                for b in range(gen.size)
            )
            for c in (0, 1)
        )
        lo, hi = rows // 2 - 2, (rows - 1) // 2 + 2
        self.rank_planes = tuple(
            tuple(
                sum(self.rank_masks[c][k] for k in range(rows) if k >> j & 1) for j in range(4)
            )
            for c in (0, 1)
        )
        self.centre = sum(
            1 << b for b in bits if lo <= row[b] <= hi and 2 <= col[b] <= cols - 3
        )
        self.back = (self.rank_masks[0][0], self.rank_masks[1][0])
        self.front_half = tuple(
            sum(self.rank_masks[c][k] for k in range(rows // 2, rows)) for c in (0, 1)
        )
        # cone[colour][bit]: squares ahead from which an enemy piece could still stop the man.
        self.cone = tuple(
            tuple(
                sum(
                    1 << b2 for b2 in bits
                    if ((row[b2] - row[b]) * sign > 0
                        and abs(col[b2] - col[b]) <= abs(row[b2] - row[b]) + 1)
                )
                if b in bits else 0
                for b in range(gen.size)
            )
            for sign in (1, -1)
        )
        diag_a = [b for b in bits if row[b] == col[b]]
        diag_b = [b for b in bits if row[b] + col[b] == cols - 1]
        self.main_road = sum(1 << b for b in (diag_a if len(diag_a) >= len(diag_b) else diag_b))


class ReferenceEvaluator:
    """Scores positions of one variant for the side to move.

    Example:
        >>> from engine import Board
        >>> board = Board("english", fen="W:W21,K5:B12")
        >>> ReferenceEvaluator(board.variant).evaluate(board) > 100
        True
    """

    def __init__(self, variant: Variant, weights: ReferenceWeights | None = None) -> None:
        self.variant = variant
        self.ref_weights = weights if weights is not None else reference_weights_for(variant)
        self.giveaway = variant.giveaway
        gen = generator_for(variant)
        self.geometry = _Geometry(gen)
        white, black, _ = gen.initial_bitboards()
        self._initial = max(1, (white | black).bit_count())

    # ------------------------------------------------------------------ public
    def evaluate(self, board: Board) -> int:
        """Return the score of ``board`` for the side to move (positive: better for it)."""
        white, black, kings = board.bitboards()
        return self.evaluate_bits(white, black, kings, int(board.turn))

    def is_dead_draw(self, board: Board) -> bool:
        """True when the material left cannot win under the variant's rules or theory.

        Example:
            >>> from engine import Board
            >>> board = Board("international", fen="W:WK46,K47,K48:BK5")
            >>> ReferenceEvaluator(board.variant).is_dead_draw(board)
            True
        """
        return self.dead_draw_bits(*board.bitboards())

    def evaluate_bits(self, white: int, black: int, kings: int, colour: int) -> int:
        """:meth:`evaluate` on raw bitboards; ``colour`` is the side to move (0 white)."""
        if self.giveaway:
            score = self._giveaway(white, black, kings)
        elif self.dead_draw_bits(white, black, kings):
            return 0
        else:
            score = self._normal(white, black, kings)
        return (score if colour == 0 else -score) + self.ref_weights.side_to_move

    def dead_draw_bits(self, white: int, black: int, kings: int) -> bool:
        """:meth:`is_dead_draw` on raw bitboards."""
        if self.giveaway:
            return False
        n_white, n_black = white.bit_count(), black.bit_count()
        if n_white > 1 and n_black > 1:
            return False
        if n_white == 1 and white & kings:
            lone, strong, strong_kings = white, n_black, black & kings
        elif n_black == 1 and black & kings:
            lone, strong, strong_kings = black, n_white, white & kings
        else:
            return False
        if not strong_kings:
            return False  # a king against men is a fight, not a draw
        holds = self.ref_weights.lone_king_holds
        if self.ref_weights.main_road_holds and lone & self.geometry.main_road:
            holds += 1
        return strong <= holds

    # ------------------------------------------------------------------ terms
    def _normal(self, white: int, black: int, kings: int) -> int:
        w = self.ref_weights
        wm, bm = white & ~kings, black & ~kings
        wk, bk = white & kings, black & kings
        n_wm, n_bm, n_wk, n_bk = wm.bit_count(), bm.bit_count(), wk.bit_count(), bk.bit_count()
        score = w.man * (n_wm - n_bm) + w.king * (n_wk - n_bk)
        total = n_wm + n_bm + n_wk + n_bk
        # 0 in the opening .. 7 in a bare endgame.
        endgame = max(0, self._initial - total) * 8 // self._initial
        empty = self.geometry.board & ~(white | black)
        if wm:
            score += self._men_terms(wm, 0, black, bk, empty, endgame)
        if bm:
            score -= self._men_terms(bm, 1, white, wk, empty, endgame)
        if wk:
            score += self._king_terms(wk, empty)
        if bk:
            score -= self._king_terms(bk, empty)
        material = w.man * (n_wm - n_bm) + w.king * (n_wk - n_bk)
        if material >= w.man or material <= -w.man:
            # The side ahead wants trades: a lead counts for more with fewer pieces left.
            bonus = abs(material) * endgame // 16
            score += bonus if material > 0 else -bonus
        return score

    def _men_terms(
        self, men: int, colour: int, enemy: int, enemy_kings: int, empty: int, endgame: int
    ) -> int:
        w = self.ref_weights
        g = self.geometry
        p0, p1, p2, p3 = g.rank_planes[colour]
        # Sum of the men's ranks: bit j of a rank number selects plane j.
        tempo = ((men & p0).bit_count() + 2 * (men & p1).bit_count()
                 + 4 * (men & p2).bit_count() + 8 * (men & p3).bit_count())
        # Early on racing forward only loses shape; in the endgame every step counts.
        value = tempo * w.advance * (endgame + 1) // 4
        value += w.centre * (men & g.centre).bit_count()
        if not enemy_kings:
            value += w.back_guard * (men & g.back[colour]).bit_count()
        movable = 0
        for offset in g.forward[colour]:
            if offset > 0:
                targets = (men << offset) & empty
                movable |= targets >> offset
            else:
                targets = (men >> -offset) & empty
                movable |= targets << -offset
            value += w.mobility * targets.bit_count()
        value -= w.blocked_man * (men & ~movable).bit_count()
        advanced = men & g.front_half[colour]
        if advanced and w.runaway:
            cone, rank, last = g.cone[colour], g.rank[colour], g.rows - 1
            while advanced:
                low = advanced & -advanced
                advanced ^= low
                bit = low.bit_length() - 1
                if not cone[bit] & enemy:
                    # Nothing ahead can stop it: nearly a king already.
                    value += w.runaway * rank[bit] // last
        return value

    def _king_terms(self, kings: int, empty: int) -> int:
        w = self.ref_weights
        free = 0
        for offset in self.geometry.all_offsets:
            free |= _shift(empty, -offset)
        trapped = (kings & ~free).bit_count()
        moves = 0
        for offset in self.geometry.all_offsets:
            moves += (_shift(kings, offset) & empty).bit_count()
        return w.mobility * moves - w.trapped_king * trapped

    def _giveaway(self, white: int, black: int, kings: int) -> int:
        """Losing draughts: fewer pieces is better; a king is the hardest piece to give away."""
        w = self.ref_weights
        wk, bk = (white & kings).bit_count(), (black & kings).bit_count()
        pieces = white.bit_count() - black.bit_count()
        return -(w.man * pieces + w.man * (wk - bk))
