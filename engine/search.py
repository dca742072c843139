"""The computer opponent's search: iterative-deepening PVS alpha-beta with a transposition table.

The searcher is pure: it reads no clock of its own (pass ``clock=time.monotonic`` to use time
limits), starts no thread and does no I/O. Another thread may interrupt it through a
:class:`StopToken`; the search then returns the best move of the last finished iteration.

Example:
    >>> import time
    >>> from engine import Board
    >>> searcher = Searcher("russian", clock=time.monotonic)
    >>> result = searcher.search(Board("russian"), Limit(depth=4))
    >>> result.move in Board("russian").legal_moves
    True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from engine import Board, Move, Variant, find_variant
from engine.bits import popcount
from engine.compiled import pure_module
from engine.endgame import MAX_DISTANCE, EndgameTable
from engine.endgame_rules import RuleCounters, State
from engine.evaluate import Evaluator
from engine.generators import generator_for
from engine.limits import Limit, StopToken, time_budget
from engine.movegen import MoveGen, RawMove, make_move, routed
from engine.ordering import MoveKey, MoveOrder, raw_key, unique
from engine.ttable import EXACT, LOWER, UPPER, TranspositionTable

if TYPE_CHECKING:  # mypyc's 64-bit machine integer; an int when interpreted
    from mypy_extensions import i64

__all__ = ["MAX_PLY", "TABLE_BOUND", "TABLE_WIN", "WIN", "WIN_BOUND", "Limit", "SearchOptions",
           "SearchResult", "Searcher", "StopToken"]

#: Score of a won position at the root; a win found ``n`` plies deep scores ``WIN - n``.
WIN: Final = 30_000
#: Scores beyond this bound are wins or losses, not evaluations.
WIN_BOUND: Final = WIN - 1_000
MAX_PLY: Final = 96
_INF: Final = WIN + 1
#: An endgame-table win ``d`` plies from conversion, ``ply`` plies below the root, scores
#: ``TABLE_WIN - ply - d``: above every evaluation, below every forced end of the game.
TABLE_WIN: Final = WIN_BOUND - 1
#: Scores beyond this bound (up to ``WIN_BOUND``) are endgame-table wins or losses.
TABLE_BOUND: Final = TABLE_WIN - MAX_PLY - MAX_DISTANCE - 1

#: The stop flag and the clock are looked at every this many nodes (a power of two minus one).
_CHECK_MASK: Final = 63


@dataclass(frozen=True)
class SearchResult:
    """The outcome of one search, from the side to move's point of view.

    ``score`` is in hundredths of a man; beyond ``WIN_BOUND`` it is a forced win (``WIN - plies``)
    and below ``-WIN_BOUND`` a forced loss. ``move`` is None only when there is no legal move.
    """

    move: Move | None
    score: int
    depth: int
    nodes: int
    seconds: float
    pv: tuple[Move, ...] = ()

    @property
    def mate_in(self) -> int | None:
        """Plies to a forced end of the game (negative when losing), or None."""
        if self.score > WIN_BOUND:
            return WIN - self.score
        if self.score < -WIN_BOUND:
            return -(WIN + self.score)
        return None


@dataclass(frozen=True)
class SearchOptions:
    """Knobs that make the searcher weaker on purpose (strength levels) or change its habits.

    ``quiescence``: plies of pending captures resolved past the horizon (None: all of them, and
    a horizon position whose side to move has no capture but faces one gets every reply
    searched one ply more: captures are compulsory, so a threat is half a capture). A beginner
    sees the capture that answers its move, not the shot that follows it.
    ``noise``: up to this many hundredths of a man added to each root move's score, from the seed.
    ``max_depth``: hard cap on the iterative deepening.
    ``extensions``: on the principal variation, search one ply deeper after a forced (only)
    move. Everywhere else the quiescence search follows the captures; extending there too
    triples the tree for little gain.
    ``endgame_tables``: probe the shipped endgame tables (:mod:`engine.endgame`) of the variant.
    ``draw_rules``: count the variant's draw rules (:mod:`engine.draw`) along the search path,
    from the game's own counts, and score a position where a rule ends the game as a draw.
    """

    quiescence: int | None = None
    noise: int = 0
    max_depth: int = MAX_PLY - 1
    extensions: bool = True
    endgame_tables: bool = True
    draw_rules: bool = True


class _Stop(Exception):
    """Raised inside the tree to unwind a search that must end now."""


@dataclass
class _Budget:
    soft: float | None = None
    hard: float | None = None
    nodes: int | None = None
    stop: StopToken | None = None
    started: float = 0.0


class Searcher:
    """Iterative-deepening PVS with a bounded transposition table, for one variant.

    The tree is searched on the raw bitboards of :mod:`engine.movegen` (immutable ints, so a
    child position is three new ints and an updated Zobrist key); :class:`engine.Board` is used
    only at the root.

    Args:
        variant: a :class:`engine.Variant` or its name.
        seed: makes the noisy levels reproducible. Under depth and node limits a search is
            deterministic for a seed; under time limits it depends on the clock, as it must.
        tt_mb: approximate memory for the transposition table.
        clock: a function returning seconds (e.g. ``time.monotonic``); needed for time limits.
            A clock with a ``restart()`` method (:class:`engine.clock.SearchClock`: the
            search thread's CPU time capped by the wall clock) is restarted at every search's
            start, from the thread that searches.
        evaluator: the static evaluation; defaults to :class:`engine.evaluate.Evaluator`.
        options: weakening knobs for the strength levels.
        tables: endgame tables to probe; by default the variant's shipped ones (none when
            ``options.endgame_tables`` is false or none ship).

    Example:
        >>> from engine import Board
        >>> Searcher("international").search(Board(), Limit(depth=2)).depth
        2

    Raises:
        ValueError: unknown variant name or a non-positive ``tt_mb``.
    """

    def __init__(
        self,
        variant: Variant | str,
        seed: int = 0,
        tt_mb: float = 16,
        clock: Callable[[], float] | None = None,
        evaluator: Evaluator | None = None,
        options: SearchOptions | None = None,
        tables: EndgameTable | None = None,
    ) -> None:
        self.variant: Variant = find_variant(variant)
        self.seed = seed
        self.clock = clock
        self.options = options if options is not None else SearchOptions()
        #: A board too wide for the compiled build (engine.generators): the pure copy's
        #: searcher, which searches every position given to this one.
        self.pure: Any = None
        if routed(self.variant):
            self.pure = pure_module("engine.search").Searcher(
                self.variant, seed, tt_mb, clock,
                evaluator.pure if evaluator is not None else None, self.options, tables)
            return
        self.evaluator = evaluator if evaluator is not None else Evaluator(self.variant)
        self._gen: MoveGen = generator_for(self.variant)
        # Forced ends and table wins are stored relative to the node, not to the root.
        self._tt = TranspositionTable(tt_mb, TABLE_BOUND)
        self._ordering = MoveOrder(MAX_PLY, self._gen.size)
        self._nodes = 0
        self._path: dict[i64, int] = {}
        self._budget = _Budget()
        self._giveaway = self.variant.giveaway
        plies = self.options.quiescence
        self._quiescence_floor = -MAX_PLY if plies is None else -plies
        self._threats = plies is None
        if tables is None and self.options.endgame_tables and EndgameTable.available(
            self.variant
        ):
            tables = EndgameTable.load(self.variant)
        self._table: EndgameTable | None = tables if self.options.endgame_tables else None
        self._table_pieces = 0 if self._table is None else self._table.info.pieces
        self._rules: RuleCounters | None = (
            RuleCounters.for_variant(self.variant) if self.options.draw_rules else None
        )
        #: The draw-rule counters at each ply of the current path, kept from ``_rules_from``
        #: on (no rule can end the game sooner); above it the path's moves and positions are
        #: recorded, and the counts at ``_rules_from`` taken from them.
        self._rule_path: list[State] = [()] * (MAX_PLY + 2)
        self._rules_from = 0
        self._path_raws: list[RawMove] = [(0, 0, 0, False, (), ())] * (MAX_PLY + 2)
        # The path's positions, a list a bitboard (not a tuple a node for the collector).
        self._path_white: list[i64] = [0] * (MAX_PLY + 2)
        self._path_black: list[i64] = [0] * (MAX_PLY + 2)
        self._path_kings: list[i64] = [0] * (MAX_PLY + 2)
        self._root_colour = 0

    # ------------------------------------------------------------------ public API
    @property
    def nodes(self) -> int:
        """Nodes visited by the last (or running) search."""
        if self.pure is not None:
            return int(self.pure.nodes)
        return self._nodes

    def new_game(self) -> None:
        """Forget everything learnt in earlier searches (a new game, or a takeback)."""
        if self.pure is not None:
            self.pure.new_game()
            return
        self._tt.clear()
        self._ordering = MoveOrder(MAX_PLY, self._gen.size)

    def search(
        self,
        board: Board,
        limit: Limit,
        stop: StopToken | None = None,
        on_iteration: Callable[[SearchResult], None] | None = None,
        moves: Collection[Move] | None = None,
    ) -> SearchResult:
        """Search ``board`` (left unchanged) within ``limit`` and return the best move found.

        ``on_iteration`` is called after each finished depth (for ``info`` lines). A search
        stopped before its first iteration ends still returns a legal move (the first in order).
        ``moves``, when given, are the only root moves searched (UCI's ``searchmoves``: the
        analysis asks how good the second-best move is).

        Raises:
            ValueError: a time limit without a clock, a board of another variant, or ``moves``
                given with none of them legal.
        """
        if self.pure is not None:
            found = self.pure.search(board, limit, stop, on_iteration, moves)
            return SearchResult(found.move, found.score, found.depth, found.nodes, found.seconds,
                                found.pv)
        if limit.timed and self.clock is None:
            raise ValueError("time limits need a clock: Searcher(..., clock=time.monotonic)")
        if board.variant.name != self.variant.name:
            raise ValueError(f"searcher is for {self.variant.name}, board is {board.variant.name}")
        self._start(board, limit, stop)
        white, black, kings = board.bitboards()
        colour, key = int(board.turn), board.zobrist_hash()
        roots = unique(self._gen.moves(white, black, kings, colour))
        by_key = {m.key(): m for m in board.legal_moves}
        if moves is not None:
            wanted = {m.key() for m in moves}
            by_key = {k: m for k, m in by_key.items() if k in wanted}
            if not by_key:
                raise ValueError(f"none of the moves to search is legal in {board.fen()}")
        if board.variant.same_king_move_limit or moves is not None:
            # a rule on the game's history (Frisian), or the caller's choice of root moves
            b2s = self._gen.bit2sq
            roots = [r for r in roots
                     if (b2s[r[0]], b2s[r[1]], frozenset(b2s[b] for b in r[5])) in by_key]
        if not roots:
            return SearchResult(None, self._terminal(0), 0, 0, self._elapsed())
        to_move = self._converter(by_key)
        fallback = to_move(self._ordering.order(roots, None, 0)[0])
        best = SearchResult(fallback, 0, 0, 0, 0.0, (fallback,))
        if len(roots) == 1 and limit.depth is None and limit.nodes is None and moves is None:
            return SearchResult(fallback, 0, 0, 0, self._elapsed(), (fallback,))
        max_depth = min(limit.depth or MAX_PLY - 1, self.options.max_depth)
        noise = self._root_noise(key, roots)
        state = (white, black, kings, colour, key)
        for depth in range(1, max_depth + 1):
            try:
                raw, score, complete = self._root(state, roots, depth, noise)
            except _Stop:
                break
            pv = self._pv(board, state, raw, depth)
            done = depth if complete else depth - 1
            best = SearchResult(to_move(raw), score, done, self._nodes, self._elapsed(), pv)
            if not complete:
                break
            if on_iteration is not None:
                on_iteration(best)
            if abs(score) > WIN_BOUND and WIN - abs(score) <= depth:
                break
            if self._soft_time_up():
                break
        return SearchResult(best.move, best.score, best.depth, self._nodes, self._elapsed(),
                            best.pv)

    # ------------------------------------------------------------------ set-up and limits
    def _converter(
        self, by_key: dict[tuple[int, int, frozenset[int]], Move]
    ) -> Callable[[RawMove], Move]:
        b2s = self._gen.bit2sq

        def to_move(raw: RawMove) -> Move:
            return by_key[(b2s[raw[0]], b2s[raw[1]], frozenset(b2s[b] for b in raw[5]))]

        return to_move

    def _start(self, board: Board, limit: Limit, stop: StopToken | None) -> None:
        self._nodes = 0
        self._ordering = MoveOrder(MAX_PLY, self._gen.size)
        restart = getattr(self.clock, "restart", None)
        if restart is not None:
            restart()
        started = self.clock() if self.clock is not None else 0.0
        soft, hard = time_budget(limit)
        self._budget = _Budget(
            soft=None if soft is None else started + soft,
            hard=None if hard is None else started + hard,
            nodes=limit.nodes,
            stop=stop,
            started=started,
        )
        self._path = {}
        for key in _history_hashes(board):
            self._path[key] = self._path.get(key, 0) + 1
        if self._rules is not None:
            state = self._rule_path[0] = self._rules.start(board)
            white, black, kings = board.bitboards()
            self._path_white[0], self._path_black[0], self._path_kings[0] = white, black, kings
            wk, bk = popcount(white & kings), popcount(black & kings)
            material = (popcount(white) - wk, wk, popcount(black) - bk, bk)
            # Far from any count's end (a middle game), the counts are taken only at the rare
            # nodes deep enough to need them.
            self._rules_from = self._rules.horizon(state, material)
            self._root_colour = int(board.turn)

    def _elapsed(self) -> float:
        return 0.0 if self.clock is None else max(0.0, self.clock() - self._budget.started)

    def _soft_time_up(self) -> bool:
        soft = self._budget.soft
        return soft is not None and self.clock is not None and self.clock() >= soft

    def _check(self) -> None:
        budget = self._budget
        if budget.stop is not None and budget.stop.stopped:
            raise _Stop
        if budget.nodes is not None and self._nodes >= budget.nodes:
            raise _Stop
        if budget.hard is not None and self.clock is not None and self.clock() >= budget.hard:
            raise _Stop

    def _root_noise(self, key: i64, moves: Sequence[RawMove]) -> dict[MoveKey, int]:
        amplitude = self.options.noise
        if amplitude <= 0:
            return {}
        rng = random.Random(f"{self.seed}:{key}")
        return {raw_key(m): rng.randint(-amplitude, amplitude) for m in moves}

    # ------------------------------------------------------------------ the tree
    def _root(
        self, state: tuple[i64, i64, i64, int, i64], moves: list[RawMove], depth: int,
        noise: dict[MoveKey, int],
    ) -> tuple[RawMove, int, bool]:
        white, black, kings, colour, key = state
        slot = self._tt.find(key)
        tt_move = self._tt.move(slot) if slot >= 0 else None
        ordered = self._ordering.order(moves, tt_move, 0)
        z, z_black = self._gen.zobrist, self._gen.zobrist_black
        alpha, beta = -_INF, _INF
        best_move, best_score = ordered[0], -_INF
        self._path[key] = self._path.get(key, 0) + 1
        rules = self._rules
        try:
            for index, raw in enumerate(ordered):
                bonus = noise.get(raw_key(raw), 0)
                w2, b2, k2, key2 = make_move(z, z_black, raw, white, black, kings, colour, key)
                if rules is not None:
                    self._follow(1, raw, white, black, kings, colour, w2, b2, k2)
                if index == 0 or noise:
                    score = -self._node(w2, b2, k2, 1 - colour, key2, depth - 1,
                                        -beta, bonus - alpha, 1, True)
                else:
                    score = -self._node(w2, b2, k2, 1 - colour, key2, depth - 1,
                                        -alpha - 1, -alpha, 1, False)
                    if score > alpha:
                        score = -self._node(w2, b2, k2, 1 - colour, key2, depth - 1,
                                            -beta, -alpha, 1, True)
                score += bonus
                if score > best_score:
                    best_move, best_score = raw, score
                    alpha = max(alpha, score)
        except _Stop:
            # A move that beat the earlier best at this depth is trusted; otherwise give up.
            if best_score == -_INF or depth == 1:
                raise
            return best_move, best_score, False
        finally:
            self._leave(key)
        self._tt.store(key, depth, EXACT, best_score, 0, best_move)
        return best_move, best_score, True

    def _leave(self, key: i64) -> None:
        count = self._path[key] - 1
        if count:
            self._path[key] = count
        else:
            del self._path[key]

    def _node(
        self, white: i64, black: i64, kings: i64, colour: int, key: i64,
        depth: int, alpha: int, beta: int, ply: int, pv: bool,
    ) -> int:
        self._nodes += 1
        if not self._nodes & _CHECK_MASK:
            self._check()
        if key in self._path:
            return 0  # a repetition: the side that wants more must deviate earlier
        if self._rules is not None and ply >= self._rules_from:
            if ply == self._rules_from:
                self._rule_path[ply] = self._rule_state(ply)
            if self._rule_path[ply][0]:
                return 0  # a counting rule has ended the game
        if self._table_pieces and popcount(white | black) <= self._table_pieces:
            found = self._probe(white, black, kings, colour, ply, alpha, beta)
            if found is not None:
                return found
        gen = self._gen
        if depth <= 0 or ply >= MAX_PLY:
            if depth <= self._quiescence_floor or ply >= MAX_PLY:
                return self.evaluator.evaluate_bits(white, black, kings, colour)
            own, opp = (white, black) if colour == 0 else (black, white)
            if gen.has_capture(own, opp, kings, colour):
                moves = gen.captures(own, opp, kings, colour)
            elif depth < 0 or not self._threats or not gen.has_capture(opp, own, kings,
                                                                        1 - colour):
                return self.evaluator.evaluate_bits(white, black, kings, colour)
            else:  # at the horizon with a capture threatened: every reply, one ply more
                moves = gen.moves(white, black, kings, colour)
                if not moves:
                    return self._terminal(ply)
        else:
            moves = gen.moves(white, black, kings, colour)
            if not moves:
                return self._terminal(ply)
        capture = bool(moves[0][2])
        if capture and len(moves) > 1:
            moves = unique(moves)
        tt = self._tt
        slot = tt.find(key)
        tt_move = None
        if slot >= 0:
            tt_move = tt.move(slot)
            if not pv and tt.depth(slot) >= depth:
                score = tt.score(slot, ply)
                flag = tt.flag(slot)
                if flag == EXACT or (flag == LOWER and score >= beta) or (
                    flag == UPPER and score <= alpha
                ):
                    return score
        if len(moves) == 1:
            if depth > 0 and pv and self.options.extensions:
                depth += 1  # a forced reply on the main line: look one ply past it
            ordered = moves
        else:
            ordered = self._ordering.order(moves, tt_move, ply)
        return self._children(white, black, kings, colour, key, ordered, capture,
                              depth, alpha, beta, ply, pv)

    def _children(
        self, white: i64, black: i64, kings: i64, colour: int, key: i64,
        ordered: list[RawMove], capture: bool, depth: int, alpha: int, beta: int,
        ply: int, pv: bool,
    ) -> int:
        z, z_black = self._gen.zobrist, self._gen.zobrist_black
        best, best_move, original_alpha = -_INF, ordered[0], alpha
        other, child_ply = 1 - colour, ply + 1
        # self._node(...), not a local alias of it: compiled (mypyc) that is a native call.
        rules, rule_path = self._rules, self._rule_path
        incremental = child_ply > self._rules_from
        raws = self._path_raws
        path_white, path_black, path_kings = self._path_white, self._path_black, self._path_kings
        self._path[key] = 1
        try:
            for index, raw in enumerate(ordered):
                w2, b2, k2, key2 = make_move(z, z_black, raw, white, black, kings, colour, key)
                if rules is not None:
                    if incremental:
                        rule_path[child_ply] = rules.child(rule_path[ply], white, black, kings,
                                                           colour, raw[0], bool(raw[2]), raw[3],
                                                           w2, b2, k2)
                    else:
                        raws[child_ply] = raw
                        path_white[child_ply], path_black[child_ply] = w2, b2
                        path_kings[child_ply] = k2
                if index == 0:
                    score = -self._node(w2, b2, k2, other, key2, depth - 1, -beta, -alpha,
                                        child_ply, pv)
                else:
                    reduce = 0
                    if depth >= 3 and index >= 2 and not capture and not raw[3]:
                        # Late quiet moves are searched shallower, unless they offer a capture:
                        # a sacrifice is how every shot starts.
                        own, opp = (b2, w2) if other else (w2, b2)
                        if not self._gen.has_capture(own, opp, k2, other):
                            reduce = 2 if depth >= 6 and index >= 6 else 1
                    score = -self._node(w2, b2, k2, other, key2, depth - 1 - reduce,
                                        -alpha - 1, -alpha, child_ply, False)
                    if score > alpha and (reduce or score < beta):
                        score = -self._node(w2, b2, k2, other, key2, depth - 1, -beta, -alpha,
                                            child_ply, pv)
                if score > best:
                    best, best_move = score, raw
                    if score > alpha:
                        alpha = score
                        if score >= beta:
                            if not capture:
                                self._ordering.reward(raw, depth, ply)
                            break
        finally:
            del self._path[key]
        flag = LOWER if best >= beta else (EXACT if best > original_alpha else UPPER)
        self._tt.store(key, depth, flag, best, ply, best_move)
        return best

    def _probe(self, white: i64, black: i64, kings: i64, colour: int, ply: int, alpha: int,
               beta: int) -> int | None:
        """The endgame tables' score, or None outside them or where a counting rule could
        end the game before the conversion the table counts on (such a win is still at least
        a draw, such a loss at most one: enough for a cut-off when the window is past 0)."""
        table = self._table
        if table is None:  # no tables: every position is outside them
            return None
        byte = table.probe_byte(white, black, kings, colour)
        if byte <= 0:
            return None if byte < 0 else 0
        distance = byte if byte < 128 else byte - 128
        rules = self._rules
        if rules is not None and ply + distance >= self._rules_from:
            wk, bk = popcount(white & kings), popcount(black & kings)
            material = (popcount(white) - wk, wk, popcount(black) - bk, bk)
            if distance > rules.plies_left(self._rule_state(ply), material):
                # The table's win may be too slow for the rules: search on, unless a draw
                # already decides this node.
                if (byte < 128 and beta <= 0) or (byte >= 128 and alpha >= 0):
                    return 0
                return None
        score = TABLE_WIN - ply - distance
        return score if byte < 128 else -score

    def _follow(self, ply: int, raw: RawMove, white: i64, black: i64, kings: i64, colour: int,
                w2: i64, b2: i64, k2: i64) -> None:
        """Record the move that leads to ``ply`` for the draw-rule counters."""
        rules = self._rules
        if rules is None:  # no counting rule: nothing to record
            return
        if ply > self._rules_from:
            self._rule_path[ply] = rules.child(self._rule_path[ply - 1], white, black, kings,
                                               colour, raw[0], bool(raw[2]), raw[3], w2, b2, k2)
        else:
            self._path_raws[ply] = raw
            self._path_white[ply], self._path_black[ply], self._path_kings[ply] = w2, b2, k2

    def _rule_state(self, ply: int) -> State:
        """The draw-rule counters of the position ``ply`` plies down the current path."""
        if ply > self._rules_from or ply == 0:
            return self._rule_path[ply]
        rules = self._rules
        state = self._rule_path[0]
        if rules is None:  # no counting rule: the counters never change
            return state
        colour = self._root_colour
        raws = self._path_raws
        path_white, path_black, path_kings = self._path_white, self._path_black, self._path_kings
        for q in range(1, ply + 1):
            raw = raws[q]
            state = rules.child(state, path_white[q - 1], path_black[q - 1], path_kings[q - 1],
                                colour, raw[0], bool(raw[2]), raw[3], path_white[q],
                                path_black[q], path_kings[q])
            colour = 1 - colour
        return state

    def _terminal(self, ply: int) -> int:
        """Score for the side to move that has no legal move: a loss, or a win in giveaway."""
        return WIN - ply if self._giveaway else -(WIN - ply)

    # ------------------------------------------------------------------ tables
    def _pv(
        self, board: Board, state: tuple[i64, i64, i64, int, i64], first: RawMove, depth: int
    ) -> tuple[Move, ...]:
        z, z_black = self._gen.zobrist, self._gen.zobrist_black
        white, black, kings, colour, key = state
        raws = [first]
        seen = {key}
        white, black, kings, key = make_move(z, z_black, first, white, black, kings, colour, key)
        colour = 1 - colour
        while len(raws) < depth and key not in seen:
            seen.add(key)
            slot = self._tt.find(key)
            stored = self._tt.move(slot) if slot >= 0 else None
            if stored is None:
                break
            wanted = raw_key(stored)
            raw = next(
                (r for r in self._gen.moves(white, black, kings, colour) if raw_key(r) == wanted),
                None,
            )
            if raw is None:
                break
            raws.append(raw)
            white, black, kings, key = make_move(z, z_black, raw, white, black, kings, colour, key)
            colour = 1 - colour
        probe = board.copy()
        line: list[Move] = []
        b2s = self._gen.bit2sq
        for raw in raws:
            wanted_key = (b2s[raw[0]], b2s[raw[1]], frozenset(b2s[b] for b in raw[5]))
            move = next((m for m in probe.legal_moves if m.key() == wanted_key), None)
            if move is None:
                break
            probe.push(move)
            line.append(move)
        return tuple(line)


def _history_hashes(board: Board) -> list[int]:
    """Hashes of the game's earlier positions that the current one could still repeat."""
    probe = board.copy()
    hashes: list[int] = []
    while probe.ply and len(hashes) < 200:
        move = probe.pop()
        piece = probe.piece_at(move.origin)
        if move.is_capture or piece is None or not piece.king:
            break
        hashes.append(probe.zobrist_hash())
    return hashes
