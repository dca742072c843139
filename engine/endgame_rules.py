"""The counting draw rules of :mod:`engine.draw`, counted ply by ply for the search.

:func:`engine.draw.evaluate` reads a whole game backwards; a search needs the same verdict at
every node along its path, in constant time. :class:`RuleCounters` reads the variant's rules
from :data:`engine.draw.DRAW_RULES` (repetition is the search's own business) and keeps, per
rule, the count that rule looks at: the plies since its last progress for a
:class:`~engine.draw.ProgressRule`; for an :class:`~engine.draw.EndgameRule` 0 while its
configuration does not hold, else 1 plus the plies made since it arose (the ply that brought it
about is not counted), and the strong side's moves among them. A state is a plain tuple of ints
whose first item is 1 once a rule has ended the game; the tests check that the counters agree
with :func:`engine.draw.evaluate` on random histories.

Example:
    >>> from engine import Board
    >>> rules = RuleCounters.for_variant("international")
    >>> board = Board("international", fen="W:WK46,K47,K48:BK5")
    >>> state = rules.start(board)
    >>> rules.plies_left(state, (0, 3, 0, 1))         # FMJD: 16 moves each for 3 kings v 1
    32
    >>> RuleCounters.for_variant("italian") is None      # repetition only
    True
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.board import Board
from engine.draw import (
    DRAW_RULES,
    EndgameRule,
    Material,
    PlyFacts,
    ProgressRule,
    RepetitionRule,
    _main_road,
    history,
    start_road,
)
from engine.generators import generator_for
from engine.movegen import MoveGen
from engine.variant import Variant, find_variant

__all__ = ["Material4", "RuleCounters", "State"]

#: Counts of one position: (white men, white kings, black men, black kings).
Material4 = tuple[int, int, int, int]
#: The counters after a ply: (drawn flag, then the rules' counts).
State = tuple[int, ...]


@dataclass(frozen=True)
class _Progress:
    name: str
    plies: int                 # the count that ends the game
    man_moves_count: bool
    any_capture: bool          # every capture is progress (else only the capture of a king)
    max_pieces: int


@dataclass(frozen=True)
class _Endgame:
    name: str
    moves: int
    strong_count: bool         # the strong side's moves, not both sides' plies
    main_road: bool
    strong_on_main_road: bool
    configs: dict[Material4, int]   # material -> strong colour (-1: a "totals" rule)
    totals: frozenset[int]


_Rule = _Progress | _Endgame


def _compile(rule: ProgressRule | EndgameRule) -> _Rule:
    if isinstance(rule, ProgressRule):
        return _Progress(rule.name, 2 * rule.moves, rule.man_moves_count,
                         rule.progress == "capture", rule.max_pieces)
    configs: dict[Material4, int] = {}
    for (strong, weak) in rule.configs:
        configs.setdefault((*strong, *weak), 0)
        configs.setdefault((*weak, *strong), 1)
    return _Endgame(rule.name, rule.moves, rule.count == "strong", rule.main_road,
                    rule.strong_on_main_road, configs, rule.totals)


def _strong(rule: _Endgame, m: Material4) -> int | None:
    if rule.totals:
        if m[1] and m[3] and sum(m) in rule.totals:
            return -1
        return None
    return rule.configs.get(m)


def _holds(rule: _Endgame, m: Material4, lone_on_road: bool, road_kings: int) -> bool:
    """Whether ``rule``'s configuration holds in a position (its material and road facts)."""
    strong = _strong(rule, m)
    if strong is None or (rule.main_road and not lone_on_road):
        return False
    return not rule.strong_on_main_road or (strong >= 0 and bool(road_kings >> strong & 1))


def _small_side_with_king(m: Material4, max_pieces: int) -> bool:
    return (m[1] > 0 and m[0] + m[1] <= max_pieces) or (m[3] > 0 and m[2] + m[3] <= max_pieces)


class RuleCounters:
    """The counting rules of one variant as counters along a line of play.

    Use :meth:`for_variant` (None when the variant counts nothing, so the search skips the
    work). :meth:`advance` takes the facts of one ply straight from the bitboards.
    """

    def __init__(self, variant: Variant, rules: tuple[_Rule, ...]) -> None:
        self.variant = variant
        self.rules = rules
        self.names: tuple[str, ...] = tuple(r.name for r in rules)
        gen: MoveGen = generator_for(variant)
        self.gen = gen
        road = _main_road(Board(variant))
        self.road_mask: int = gen.squares_to_mask(road)
        self.needs_road = any(isinstance(r, _Endgame) and (r.main_road or r.strong_on_main_road)
                              for r in rules)

    @classmethod
    def for_variant(cls, variant: str | Variant) -> RuleCounters | None:
        """The counters of ``variant``'s rules, or None when it has only repetition."""
        v = find_variant(variant)
        counting = tuple(_compile(r) for r in DRAW_RULES.get(v.name, ())
                         if not isinstance(r, RepetitionRule))
        return cls(v, counting) if counting else None

    # -- states -----------------------------------------------------------------------------
    def initial(self, material: Material4, lone_on_road: bool = False,
                road_kings: int = 0) -> State:
        """The state before any ply (a position set up from a FEN): a configuration that holds
        there counts from the first ply."""
        out = [0]
        for rule in self.rules:
            if isinstance(rule, _Progress):
                out.append(0)
            else:
                out += (int(_holds(rule, material, lone_on_road, road_kings)), 0)
        return self._verdict(out, material, lone_on_road, road_kings)

    def _width(self) -> int:
        return 1 + sum(1 if isinstance(r, _Progress) else 2 for r in self.rules)

    def start(self, board: Board) -> State:
        """The state after ``board``'s game so far (replayed from ``board.root()``)."""
        material, _key, plies = history(board)
        lone, kings = start_road(board)
        state = self.initial(_four(material), lone, sum(1 << c for c in kings))
        before = _four(material)
        for ply in plies:
            after = _four(ply.material)
            roads = sum(1 << c for c in ply.kings_on_main_road)
            state = self.advance(state, ply.mover, ply.king_move, ply.capture, ply.promotion,
                                 before, after, ply.lone_king_on_main_road, roads)
            before = after
        return state

    def advance(
        self, state: State, mover: int, king_move: bool, capture: bool, promotion: bool,
        before: Material4, after: Material4, lone_on_road: bool, road_kings: int,
    ) -> State:
        """The state after one ply. ``road_kings``: bit ``c`` set when colour ``c`` has a king
        on the long diagonal after the ply."""
        out = [0]
        i = 1
        for rule in self.rules:
            if isinstance(rule, _Progress):
                reset = (
                    promotion
                    or (rule.man_moves_count and not king_move)
                    or (capture and (rule.any_capture
                                     or after[3 - 2 * mover] < before[3 - 2 * mover]))
                    or (rule.max_pieces > 0
                        and not _small_side_with_king(before, rule.max_pieces))
                )
                out.append(0 if reset else state[i] + 1)
                i += 1
                continue
            if not _holds(rule, after, lone_on_road, road_kings):
                out += (0, 0)
            elif state[i] and after == before:  # it held before the ply too: the ply counts
                out += (state[i] + 1, state[i + 1] + (mover == _strong(rule, after)))
            else:  # the ply brought the configuration about
                out += (1, 0)
            i += 2
        return self._verdict(out, after, lone_on_road, road_kings)

    def _verdict(self, out: list[int], material: Material4, lone_on_road: bool,
                 road_kings: int) -> State:
        name = self._drawn(out, material, lone_on_road, road_kings)
        out[0] = 0 if name is None else 1 + self.names.index(name)
        return tuple(out)

    def _drawn(self, counts: list[int], material: Material4, lone_on_road: bool,
               road_kings: int) -> str | None:
        i = 1
        for rule in self.rules:
            if isinstance(rule, _Progress):
                if counts[i] >= rule.plies:
                    return rule.name
                i += 1
                continue
            held, strong_moves = counts[i], counts[i + 1]
            i += 2
            if not held:
                continue
            if rule.strong_count:
                if strong_moves >= rule.moves:
                    return rule.name
            elif held - 1 >= 2 * rule.moves:
                return rule.name
        return None

    def rule_name(self, state: State) -> str | None:
        """The rule that has ended the game in ``state``, or None."""
        return None if not state[0] else self.names[state[0] - 1]

    def plies_left(self, state: State, material: Material4) -> int:
        """Plies after which a rule may end the game if nothing resets it (0: it has)."""
        if state[0]:
            return 0
        left = 1 << 30
        i = 1
        for rule in self.rules:
            if isinstance(rule, _Progress):
                left = min(left, rule.plies - state[i])
                i += 1
                continue
            if _strong(rule, material) is not None:
                if rule.strong_count:
                    left = min(left, 2 * (rule.moves - state[i + 1]) - 1)
                else:
                    left = min(left, 2 * rule.moves - max(state[i] - 1, 0))
            i += 2
        return max(left, 0)

    def horizon(self, state: State, material: Material4) -> int:
        """A lower bound on the plies before any rule can end the game from ``state``.

        Counts grow by one a ply at most; a configuration that does not hold yet needs the ply
        that brings it about first (not counted), and at least one ply per piece above its size.

        >>> rules = RuleCounters.for_variant("international")
        >>> rules.horizon(rules.initial((20, 0, 20, 0)), (20, 0, 20, 0))  # 37 to 2 v 1, 5 moves
        47
        """
        if state[0]:
            return 0
        pieces = sum(material)
        left = 1 << 30
        i = 1
        for rule in self.rules:
            if isinstance(rule, _Progress):
                left = min(left, rule.plies - state[i])
                i += 1
                continue
            strong_count = rule.strong_count
            need = 2 * rule.moves - (1 if strong_count else 0)
            if state[i]:
                done = 2 * state[i + 1] if strong_count else state[i] - 1
                left = min(left, need - done)
            elif _strong(rule, material) is not None:  # a road rule: the road first
                left = min(left, 1 + need)
            else:
                largest = max(rule.totals) if rule.totals else max(map(sum, rule.configs))
                left = min(left, max(1, pieces - largest) + need)
            i += 2
        return max(left, 0)

    # -- the search's view --------------------------------------------------------------------
    def child(self, state: State, white: int, black: int, kings: int, colour: int,
              raw_from: int, capture: bool, promotes: bool,
              w2: int, b2: int, k2: int) -> State:
        """The state after the raw move from (white, black, kings) to (w2, b2, k2)."""
        before = _material(white, black, kings)
        after = _material(w2, b2, k2) if capture or promotes else before
        lone = False
        roads = 0
        if self.needs_road:
            road = self.road_mask
            roads = (1 if w2 & k2 & road else 0) | (2 if b2 & k2 & road else 0)
            if after[:2] == (0, 1):
                lone = bool(w2 & road)
            elif after[2:] == (0, 1):
                lone = bool(b2 & road)
        return self.advance(state, colour, bool(kings >> raw_from & 1), capture, promotes,
                            before, after, lone, roads)


def _four(m: Material) -> Material4:
    return (m.white_men, m.white_kings, m.black_men, m.black_kings)


def _material(white: int, black: int, kings: int) -> Material4:
    wk, bk = (white & kings).bit_count(), (black & kings).bit_count()
    return (white.bit_count() - wk, wk, black.bit_count() - bk, bk)


def facts_material(facts: PlyFacts) -> Material4:
    """The material after a ply as the counters read it."""
    return _four(facts.material)
