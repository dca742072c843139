"""Static evaluation of a position, per variant, in hundredths of a man for the side to move.

The evaluation is a weighted sum of structural terms (:data:`FEATURES`: material, tempo in the
opening and in the endgame, centre, back-rank guard, mobility, blocked and locked men, outposts,
wing balance, runaway men and the race to crown, king mobility, trapped kings, kings on the main
road, kings beside men, a king against men only, the material lead as pieces come off), plus
endgame knowledge: material that the variant's rules or theory make a dead draw scores 0, the
giveaway variants invert the goal and in breakthrough a crowned king has won. The weights are
hand-set priors (``_PRIORS``) overlaid with the weights fitted on self-play games or a teacher's
labels (:mod:`engine.weights`, written by ``draughtsboard tune fit`` or ``tune patterns``;
docs/evaluation.md). Where a variant ships region patterns (:mod:`engine.patterns`:
international), their score is added to the sum; they were fitted together with its weights.
It works on the raw bitboards of :mod:`engine.movegen`.

Example:
    >>> from engine import Board
    >>> board = Board("russian")
    >>> evaluator = Evaluator(board.variant)
    >>> evaluator.evaluate(board) == evaluator.weights.side_to_move
    True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from engine import Board, Variant
from engine.bits import popcount
from engine.compiled import pure_module
from engine.generators import generator_for
from engine.movegen import MoveGen, routed
from engine.patterns import PatternTable
from engine.weights import TUNED

if TYPE_CHECKING:  # mypyc's 64-bit machine integer; an int when interpreted
    from mypy_extensions import i64

__all__ = ["CROWNED", "FEATURES", "Evaluator", "Weights", "prior_weights_for", "weights_for"]

#: The terms of the evaluation, in the order of :meth:`Evaluator.features_bits` and
#: :meth:`Weights.vector`. The first ``SIDE_FEATURES`` are counted per side (white minus black);
#: the last three are global.
FEATURES: tuple[str, ...] = (
    "man", "king", "tempo_open", "tempo_end", "centre", "back_guard", "mobility", "blocked",
    "locked", "outpost", "balance", "runaway", "runaway_rank", "king_mobility", "trapped_king",
    "king_main_road", "king_with_men", "sole_king", "lead_end", "race", "side_to_move",
)
SIDE_FEATURES: Final = 18
#: Score of a breakthrough position in which a king stands: the game is over, its side has won.
CROWNED: Final = 10_000
#: Steps to crown when a side has no runaway man.
_NO_RACE: Final = 1_000


@dataclass(frozen=True)
class Weights:
    """The evaluation's knobs for one variant: one weight per feature, in hundredths of a man.

    A feature counts something per side (white minus black) or is global; see docs/evaluation.md.
    Signs are in the weights: a penalty (a blocked man, a trapped king) has a negative weight.
    """

    man: int = 100
    king: int = 300
    #: Per rank advanced, summed over the men: in the opening ...
    tempo_open: int = 1
    #: ... and in the endgame (the features are scaled by the phase, 0..8).
    tempo_end: int = 5
    centre: int = 4
    #: Men on the own first rank while the opponent has no king.
    back_guard: int = 6
    #: Forward moves of the men.
    mobility: int = 2
    #: Men with no forward move.
    blocked: int = -3
    #: Men whose every forward square holds an enemy piece (or is off the board).
    locked: int = 0
    #: Men in the opponent's half with both squares behind held by their own pieces.
    outpost: int = 0
    #: ``abs(men on the left wing - men on the right wing)``.
    balance: int = 0
    #: Men that no enemy piece can stop any more, and their ranks.
    runaway: int = 10
    runaway_rank: int = 5
    #: One-step moves of the kings.
    king_mobility: int = 2
    #: Kings with no empty neighbour.
    trapped_king: int = -40
    #: Kings on the long diagonal.
    king_main_road: int = 0
    #: Kings while the same side still has men (Frisian: the king-move limit binds then).
    king_with_men: int = 0
    #: 1 for the side with kings while the other has none.
    sole_king: int = 0
    #: The material lead (men, a king as 3 or 2) times the phase: the side ahead wants trades.
    lead_end: int = 6
    #: +1 / -1: who crowns first among the runaway men, with the side to move.
    race: int = 0
    side_to_move: int = 3
    #: A lone king draws against up to this many pieces with a king among them.
    lone_king_holds: int = 1
    #: ... and against one more while it stands on the long diagonal (the "main road").
    main_road_holds: bool = False

    def vector(self) -> tuple[int, ...]:
        """The weights in the order of :data:`FEATURES`.

        Example:
            >>> Weights().vector()[:2]
            (100, 300)
        """
        return (
            self.man, self.king, self.tempo_open, self.tempo_end, self.centre, self.back_guard,
            self.mobility, self.blocked, self.locked, self.outpost, self.balance, self.runaway,
            self.runaway_rank, self.king_mobility, self.trapped_king, self.king_main_road,
            self.king_with_men, self.sole_king, self.lead_end, self.race, self.side_to_move,
        )

    def with_terms(self, terms: Mapping[str, int]) -> Weights:
        """A copy with the named weights replaced (names from :data:`FEATURES`).

        Example:
            >>> Weights().with_terms({"king": 250}).king
            250

        Raises:
            ValueError: a name that is not a feature.
        """
        unknown = sorted(set(terms) - set(FEATURES))
        if unknown:
            raise ValueError(f"not evaluation features: {', '.join(unknown)}")
        values = dict(zip(FEATURES, self.vector(), strict=True))
        values.update(terms)
        return Weights(
            man=values["man"], king=values["king"], tempo_open=values["tempo_open"],
            tempo_end=values["tempo_end"], centre=values["centre"],
            back_guard=values["back_guard"], mobility=values["mobility"],
            blocked=values["blocked"], locked=values["locked"], outpost=values["outpost"],
            balance=values["balance"], runaway=values["runaway"],
            runaway_rank=values["runaway_rank"], king_mobility=values["king_mobility"],
            trapped_king=values["trapped_king"], king_main_road=values["king_main_road"],
            king_with_men=values["king_with_men"], sole_king=values["sole_king"],
            lead_end=values["lead_end"], race=values["race"], side_to_move=values["side_to_move"],
            lone_king_holds=self.lone_king_holds, main_road_holds=self.main_road_holds,
        )


_SHORT = Weights(king=150, runaway=5, runaway_rank=4, back_guard=10, trapped_king=-25)
_FLYING = Weights(king=280, lone_king_holds=2)

#: Hand-set priors (the start of every fit, and the weights of variants not yet tuned). King
#: values: a flying king sweeps whole diagonals and is worth about three men; a short (English,
#: Italian) king about one and a half. Endgames: FMJD rules make three pieces with a king against
#: a lone king a draw (art. 6.3, 16 moves); in Russian draughts two kings never beat one and
#: three do only when the lone king is off the main road (Petrov's triangle); in English
#: checkers two kings beat one, but one against one is a draw. Killer, Frisian and Thai: only
#: one king against one is counted dead (the killer rule, Frisian's 7-move rule for two kings
#: against one and Thai's halting kings leave the rest to be played).
_PRIORS: Mapping[str, Weights] = MappingProxyType(
    {
        "international": Weights(king=320, lone_king_holds=3, outpost=5, king_main_road=5),
        "killer": Weights(king=300, outpost=5),
        "breakthrough": Weights(runaway=60, runaway_rank=20, race=300, lead_end=2,
                                tempo_end=8),
        "frisian": Weights(king=250, king_with_men=-20),
        "frysk": Weights(king=250, king_with_men=-20),
        "brazilian": Weights(king=300, lone_king_holds=3),
        "canadian": Weights(king=350, tempo_end=4, lone_king_holds=3),
        "russian": Weights(king=280, tempo_end=7, lone_king_holds=2, main_road_holds=True,
                           king_main_road=5),
        "diagonal": Weights(king=280, tempo_end=7, lone_king_holds=2, main_road_holds=True),
        "pool": Weights(king=270, tempo_end=7, lone_king_holds=2, main_road_holds=True),
        "spanish": Weights(king=260, tempo_end=7, lone_king_holds=2),
        "portuguese": Weights(king=260, tempo_end=7, lone_king_holds=2),
        "czech": Weights(king=260, tempo_end=7, lone_king_holds=2),
        "thai": Weights(king=220, tempo_end=7),
        "english": _SHORT,
        "italian": _SHORT,
        "turkish": Weights(king=250, tempo_end=7, centre=2, back_guard=0),
    }
)


def prior_weights_for(variant: Variant) -> Weights:
    """The hand-set weights for ``variant``: its own, else by family (flying or short kings).

    Example:
        >>> from engine import find_variant
        >>> prior_weights_for(find_variant("international")).king
        320
    """
    if variant.name in _PRIORS:
        return _PRIORS[variant.name]
    return _FLYING if variant.flying_kings else _SHORT


def weights_for(variant: Variant) -> Weights:
    """The weights the engine plays ``variant`` with: the priors, with the tuned weights over them.

    Example:
        >>> from engine import find_variant
        >>> weights_for(find_variant("english")).man
        100
    """
    prior = prior_weights_for(variant)
    tuned = TUNED.get(variant.name)
    return prior if tuned is None else prior.with_terms(tuned)


def _shift(mask: i64, offset: int) -> i64:
    return mask << offset if offset > 0 else mask >> -offset


class _Geometry:
    """Masks over the move generator's bit layout, built once per evaluator (rows and columns
    come from ``gen.coords``, never from a bit's number)."""

    def __init__(self, gen: MoveGen) -> None:
        variant = gen.variant
        rows, cols = variant.rows, variant.cols
        coords = gen.coords
        row = [rc[0] for rc in coords]
        col = [rc[1] for rc in coords]
        self.rows = rows
        self.board: i64 = gen.board_mask
        board = self.board
        bits = list(gen.sq2bit)
        forward = tuple(tuple(gen.offsets[k] for k in gen.man_dirs[c]) for c in (0, 1))
        # Per colour: (offset, squares whose neighbour that way is on the board) per forward step.
        self.forward: tuple[tuple[tuple[int, i64], ...], ...] = tuple(
            tuple((off, board & _shift(board, -off)) for off in forward[c]) for c in (0, 1)
        )
        # The steps that come from behind (Turkish men also step sideways: not support).
        self.support: tuple[tuple[int, ...], ...] = tuple(
            tuple(gen.offsets[k] for k in gen.man_dirs[c] if gen.steps[k][0]) for c in (0, 1)
        )
        self.king_offsets = tuple(gen.offsets[k] for k in gen.king_dirs)
        # rank_masks[colour][k]: squares k rows up from that colour's own first rank.
        rank_masks = tuple(
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
        self.rank_planes: tuple[tuple[i64, ...], ...] = tuple(
            tuple(sum(rank_masks[c][k] for k in range(rows) if k >> j & 1) for j in range(4))
            for c in (0, 1)
        )
        lo, hi = rows // 2 - 2, (rows - 1) // 2 + 2
        self.centre: i64 = sum(
            1 << b for b in bits if lo <= row[b] <= hi and 2 <= col[b] <= cols - 3
        )
        self.back: tuple[i64, i64] = (rank_masks[0][0], rank_masks[1][0])
        self.front_half: tuple[i64, ...] = tuple(
            sum(rank_masks[c][k] for k in range(rows // 2, rows)) for c in (0, 1)
        )
        inner = sum(1 << b for b in bits if 0 < col[b] < cols - 1)
        self.outpost_zone: tuple[i64, ...] = tuple(self.front_half[c] & inner for c in (0, 1))
        self.left: i64 = sum(1 << b for b in bits if col[b] < cols // 2)
        self.right: i64 = sum(1 << b for b in bits if col[b] >= (cols + 1) // 2)
        # cone[colour][bit]: squares ahead from which an enemy piece could still stop the man.
        self.cone: tuple[tuple[i64, ...], ...] = tuple(
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
        road = diag_a if len(diag_a) >= len(diag_b) else diag_b
        self.main_road: i64 = sum(1 << b for b in road)


class Evaluator:
    """Scores positions of one variant for the side to move.

    Example:
        >>> from engine import Board
        >>> board = Board("english", fen="W:W21,K5:B12")
        >>> Evaluator(board.variant).evaluate(board) > 100
        True
    """

    def __init__(self, variant: Variant, weights: Weights | None = None,
                 patterns: PatternTable | None = None, shipped_patterns: bool = True) -> None:
        """``patterns``: region patterns to add; by default the variant's shipped ones (none
        when ``shipped_patterns`` is false or none ship)."""
        self.variant = variant
        self.weights = weights if weights is not None else weights_for(variant)
        if patterns is None and shipped_patterns and PatternTable.available(variant):
            patterns = PatternTable.load(variant)
        self.patterns: PatternTable | None = patterns
        self.giveaway = variant.giveaway
        self.crown_wins = variant.crown_wins
        #: A board too wide for the compiled build (engine.generators): the pure copy's
        #: evaluator, which every public method hands the position to.
        self.pure: Any = None
        if routed(variant):
            self.pure = pure_module("engine.evaluate").Evaluator(variant, self.weights, patterns,
                                                                 shipped_patterns)
            return
        gen = generator_for(variant)
        self.geometry = _Geometry(gen)
        white, black, _ = gen.initial_bitboards()
        self._initial = max(1, popcount(white | black))
        self._vector = self.weights.vector()
        self._king_units = 3 if variant.flying_kings else 2

    # ------------------------------------------------------------------ public
    def evaluate(self, board: Board) -> int:
        """Return the score of ``board`` for the side to move (positive: better for it)."""
        if self.pure is not None:
            return int(self.pure.evaluate(board))
        white, black, kings = board.bitboards()
        return self.evaluate_bits(white, black, kings, int(board.turn))

    def is_dead_draw(self, board: Board) -> bool:
        """True when the material left cannot win under the variant's rules or theory.

        Example:
            >>> from engine import Board
            >>> board = Board("international", fen="W:WK46,K47,K48:BK5")
            >>> Evaluator(board.variant).is_dead_draw(board)
            True
        """
        return self.dead_draw_bits(*board.bitboards())

    def evaluate_bits(self, white: i64, black: i64, kings: i64, colour: int) -> int:
        """:meth:`evaluate` on raw bitboards; ``colour`` is the side to move (0 white). The
        boards of a variant too wide for the compiled build go to :attr:`pure`'s."""
        if self.giveaway:
            score = self._giveaway(white, black, kings)
            return (score if colour == 0 else -score) + self.weights.side_to_move
        if self.crown_wins and kings:
            score = CROWNED if white & kings else -CROWNED
        elif self._dead_draw(white, black, kings):
            return 0
        else:
            score = self._score(white, black, kings, colour)
        return score if colour == 0 else -score

    def features_bits(self, white: int, black: int, kings: int, colour: int) -> list[int]:
        """The terms of a position from White's point of view, in the order of :data:`FEATURES`.

        The evaluation (outside dead draws, giveaway and a crowned breakthrough king) is the dot
        product of these with :meth:`Weights.vector`, plus the region patterns' score where a
        variant has them (:attr:`patterns`), turned to the side to move; the tuner fits the
        weights on them.

        Example:
            >>> from engine import Board
            >>> board = Board("english", fen="W:W21,K5:B12")
            >>> evaluator = Evaluator(board.variant)
            >>> terms = dict(zip(FEATURES, evaluator.features_bits(*board.bitboards(), 0)))
            >>> terms["man"], terms["king"], terms["side_to_move"]
            (0, 1, 1)
        """
        if self.pure is not None:
            return list(self.pure.features_bits(white, black, kings, colour))
        wm, bm = white & ~kings, black & ~kings
        wk, bk = white & kings, black & kings
        total = popcount(white) + popcount(black)
        # 0 in the opening .. 8 with nothing left.
        phase = max(0, self._initial - total) * 8 // self._initial
        empty = self.geometry.board & ~(white | black)
        ours, white_steps = self._side(wm, wk, 0, white, black, bk, empty, phase)
        theirs, black_steps = self._side(bm, bk, 1, black, white, wk, empty, phase)
        terms = [a - b for a, b in zip(ours, theirs, strict=True)]
        lead = (ours[0] - theirs[0]) + self._king_units * (ours[1] - theirs[1])
        terms.append(lead * phase)
        race = 0
        if white_steps < _NO_RACE or black_steps < _NO_RACE:
            white_first = white_steps <= black_steps if colour == 0 else white_steps < black_steps
            race = 1 if white_first else -1
        terms.append(race)
        terms.append(1 if colour == 0 else -1)
        return terms

    def dead_draw_bits(self, white: int, black: int, kings: int) -> bool:
        """:meth:`is_dead_draw` on raw bitboards."""
        if self.pure is not None:
            return bool(self.pure.dead_draw_bits(white, black, kings))
        return self._dead_draw(white, black, kings)

    def _dead_draw(self, white: i64, black: i64, kings: i64) -> bool:
        """:meth:`dead_draw_bits` in machine words (the hot path's)."""
        if self.giveaway or self.crown_wins:
            return False
        n_white, n_black = popcount(white), popcount(black)
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
        holds = self.weights.lone_king_holds
        if self.weights.main_road_holds and lone & self.geometry.main_road:
            holds += 1
        return strong <= holds

    # ------------------------------------------------------------------ the hot path
    def _score(self, white: i64, black: i64, kings: i64, colour: int) -> int:
        """The dot product of :meth:`features_bits` with the weights, without the list."""
        wm, bm = white & ~kings, black & ~kings
        wk, bk = white & kings, black & kings
        phase = max(0, self._initial - popcount(white) - popcount(black)) * 8 // self._initial
        empty = self.geometry.board & ~(white | black)
        ours, white_steps = self._side_score(wm, wk, 0, white, black, bk, empty, phase)
        theirs, black_steps = self._side_score(bm, bk, 1, black, white, wk, empty, phase)
        w = self.weights
        score = ours - theirs + (w.side_to_move if colour == 0 else -w.side_to_move)
        if phase and w.lead_end:
            lead = (popcount(wm) - popcount(bm)) + self._king_units * (
                popcount(wk) - popcount(bk))
            score += w.lead_end * lead * phase
        if white_steps < _NO_RACE or black_steps < _NO_RACE:
            white_first = white_steps <= black_steps if colour == 0 else white_steps < black_steps
            score += w.race if white_first else -w.race
        patterns = self.patterns
        if patterns is not None:
            score += patterns.score_bits(wm, bm)
        return score

    def _side_score(
        self, men: i64, own_kings: i64, colour: int, own: i64, enemy: i64, enemy_kings: i64,
        empty: i64, phase: int,
    ) -> tuple[int, int]:
        """The weighted per-side terms of one colour (as :meth:`_side`), and its runaway steps."""
        w = self.weights
        g = self.geometry
        score = w.man * popcount(men)
        steps = _NO_RACE
        if men:
            p0, p1, p2, p3 = g.rank_planes[colour]
            tempo = (popcount(men & p0) + 2 * popcount(men & p1)
                     + 4 * popcount(men & p2) + 8 * popcount(men & p3))
            score += (w.tempo_open * (tempo * (8 - phase) // 8) + w.tempo_end * (tempo * phase // 8)
                      + w.centre * popcount(men & g.centre))
            if not enemy_kings:
                score += w.back_guard * popcount(men & g.back[colour])
            movable: i64 = 0
            held, mobility = men, 0
            for offset, reach in g.forward[colour]:
                if offset > 0:
                    targets = (men << offset) & empty
                    movable |= targets >> offset
                    held &= (enemy >> offset) | ~reach
                else:
                    targets = (men >> -offset) & empty
                    movable |= targets << -offset
                    held &= (enemy << -offset) | ~reach
                mobility += popcount(targets)
            score += (w.mobility * mobility + w.blocked * popcount(men & ~movable)
                      + w.locked * popcount(held))
            if w.outpost:
                supported = men & g.outpost_zone[colour]
                for offset in g.support[colour]:
                    supported &= _shift(own, offset)
                score += w.outpost * popcount(supported)
            if w.balance:
                balance = popcount(men & g.left) - popcount(men & g.right)
                score += w.balance * (balance if balance >= 0 else -balance)
            advanced = men & g.front_half[colour]
            if advanced:
                cone, rank, last = g.cone[colour], g.rank[colour], g.rows - 1
                while advanced:
                    low = advanced & -advanced
                    advanced ^= low
                    bit = popcount(low - 1)
                    if not cone[bit] & enemy:  # nothing ahead can stop it
                        score += w.runaway + w.runaway_rank * rank[bit]
                        steps = min(steps, last - rank[bit])
        if own_kings:
            free: i64 = 0
            moves = 0
            for offset in g.king_offsets:
                free |= _shift(empty, -offset)
                moves += popcount(_shift(own_kings, offset) & empty)
            count = popcount(own_kings)
            score += (w.king * count + w.king_mobility * moves
                      + w.trapped_king * popcount(own_kings & ~free)
                      + w.king_main_road * popcount(own_kings & g.main_road))
            if men:
                score += w.king_with_men * count
            if not enemy_kings:
                score += w.sole_king
        return score, steps

    # ------------------------------------------------------------------ terms (the tuner's view)
    def _side(
        self, men: i64, own_kings: i64, colour: int, own: i64, enemy: i64, enemy_kings: i64,
        empty: i64, phase: int,
    ) -> tuple[tuple[int, ...], int]:
        """The per-side terms of one colour, and the steps its nearest runaway man needs."""
        men_terms, steps = self._men(men, colour, own, enemy, enemy_kings, empty, phase)
        if own_kings:
            king_terms = self._kings(own_kings, bool(men), bool(enemy_kings), empty)
        else:
            king_terms = (0, 0, 0, 0, 0)
        return (popcount(men), popcount(own_kings), *men_terms, *king_terms), steps

    def _men(
        self, men: i64, colour: int, own: i64, enemy: i64, enemy_kings: i64, empty: i64,
        phase: int,
    ) -> tuple[tuple[int, ...], int]:
        """tempo_open .. runaway_rank of one side's men, and the steps to crown of its runaway."""
        if not men:
            return (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), _NO_RACE
        g = self.geometry
        p0, p1, p2, p3 = g.rank_planes[colour]
        # Sum of the men's ranks: bit j of a rank number selects plane j.
        tempo = (popcount(men & p0) + 2 * popcount(men & p1)
                 + 4 * popcount(men & p2) + 8 * popcount(men & p3))
        back = 0 if enemy_kings else popcount(men & g.back[colour])
        movable: i64 = 0
        held, mobility = men, 0
        for offset, reach in g.forward[colour]:
            if offset > 0:
                targets = (men << offset) & empty
                movable |= targets >> offset
                held &= (enemy >> offset) | ~reach
            else:
                targets = (men >> -offset) & empty
                movable |= targets << -offset
                held &= (enemy << -offset) | ~reach
            mobility += popcount(targets)
        supported = men & g.outpost_zone[colour]
        for offset in g.support[colour]:
            supported &= _shift(own, offset)
        balance = popcount(men & g.left) - popcount(men & g.right)
        runaway = runaway_rank = 0
        steps = _NO_RACE
        advanced = men & g.front_half[colour]
        if advanced:
            cone, rank, last = g.cone[colour], g.rank[colour], g.rows - 1
            while advanced:
                low = advanced & -advanced
                advanced ^= low
                bit = popcount(low - 1)
                if not cone[bit] & enemy:  # nothing ahead can stop it: nearly a king already
                    runaway += 1
                    runaway_rank += rank[bit]
                    steps = min(steps, last - rank[bit])
        return (
            tempo * (8 - phase) // 8, tempo * phase // 8, popcount(men & g.centre), back,
            mobility, popcount(men & ~movable), popcount(held), popcount(supported),
            balance if balance >= 0 else -balance, runaway, runaway_rank,
        ), steps

    def _kings(
        self, kings: i64, with_men: bool, enemy_kings: bool, empty: i64
    ) -> tuple[int, int, int, int, int]:
        """king_mobility .. sole_king of one side's kings."""
        free: i64 = 0
        moves = 0
        for offset in self.geometry.king_offsets:
            free |= _shift(empty, -offset)
            moves += popcount(_shift(kings, offset) & empty)
        count = popcount(kings)
        return (
            moves, popcount(kings & ~free), popcount(kings & self.geometry.main_road),
            count if with_men else 0, 0 if enemy_kings else 1,
        )

    def _giveaway(self, white: i64, black: i64, kings: i64) -> int:
        """Losing draughts: fewer pieces is better; a king is the hardest piece to give away."""
        w = self.weights
        wk, bk = popcount(white & kings), popcount(black & kings)
        pieces = popcount(white) - popcount(black)
        return -(w.man * pieces + w.man * (wk - bk))
