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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine import Board, Move, Variant, find_variant
from engine.evaluate import Evaluator

#: Score of a won position at the root; a win found ``n`` plies deep scores ``WIN - n``.
WIN = 30_000
#: Scores beyond this bound are wins or losses, not evaluations.
WIN_BOUND = WIN - 1_000
MAX_PLY = 96
_INF = WIN + 1

_EXACT, _LOWER, _UPPER = 0, 1, 2
#: Approximate memory one transposition-table slot costs, for sizing the table from ``tt_mb``.
_SLOT_BYTES = 160
#: The stop flag and the clock are looked at every this many nodes (a power of two minus one).
_CHECK_MASK = 63


@dataclass(frozen=True)
class Limit:
    """What bounds one search: any combination; the first bound reached ends it.

    ``movetime`` is the time for this move in seconds; ``time_left`` and ``increment`` are the
    side to move's game clock, from which the searcher budgets its own time.

    Example:
        >>> Limit(depth=8).depth
        8

    Raises:
        ValueError: on a negative or zero bound.
    """

    depth: int | None = None
    nodes: int | None = None
    movetime: float | None = None
    time_left: float | None = None
    increment: float | None = None

    def __post_init__(self) -> None:
        for name in ("depth", "nodes", "movetime"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ValueError(f"Limit.{name} must be positive, not {value!r}")
        if self.time_left is not None and self.time_left < 0:
            raise ValueError(f"Limit.time_left must not be negative, not {self.time_left!r}")
        if self.increment is not None and self.increment < 0:
            raise ValueError(f"Limit.increment must not be negative, not {self.increment!r}")

    @property
    def timed(self) -> bool:
        """True if this limit needs a clock."""
        return self.movetime is not None or self.time_left is not None


class StopToken:
    """A flag another thread sets to end a running search early.

    A plain attribute write and read: under the GIL this is enough, and it keeps the engine free
    of threading imports.

    Example:
        >>> token = StopToken()
        >>> token.stop()
        >>> token.stopped
        True
    """

    __slots__ = ("stopped",)

    def __init__(self) -> None:
        self.stopped = False

    def stop(self) -> None:
        """Ask the search to return as soon as it can."""
        self.stopped = True

    def reset(self) -> None:
        """Clear the flag so the token can serve the next search."""
        self.stopped = False


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

    ``quiescence``: resolve pending captures past the horizon (off: the beginner's horizon).
    ``noise``: up to this many hundredths of a man added to each root move's score, from the seed.
    ``max_depth``: hard cap on the iterative deepening.
    """

    quiescence: bool = True
    noise: int = 0
    max_depth: int = MAX_PLY - 1
    extensions: bool = True


class _Stop(Exception):
    """Raised inside the tree to unwind a search that must end now."""


@dataclass
class _Budget:
    soft: float | None = None
    hard: float | None = None
    nodes: int | None = None
    stop: StopToken | None = None
    started: float = 0.0


def _mkey(move: Move) -> tuple[int, int, tuple[int, ...]]:
    return (move.origin, move.destination, move.captures)


@dataclass
class _Tables:
    """Per-search move-ordering memory: killers per ply, history per (origin, destination)."""

    killers: list[list[tuple[int, int, tuple[int, ...]] | None]] = field(
        default_factory=lambda: [[None, None] for _ in range(MAX_PLY + 2)]
    )
    history: dict[tuple[int, int], int] = field(default_factory=dict)


class Searcher:
    """Iterative-deepening PVS with a bounded transposition table, for one variant.

    Args:
        variant: a :class:`engine.Variant` or its name.
        seed: makes the noisy levels reproducible; the full-strength search is deterministic anyway.
        tt_mb: approximate memory for the transposition table.
        clock: a function returning seconds (e.g. ``time.monotonic``); needed for time limits.
        evaluator: the static evaluation; defaults to :class:`engine.evaluate.Evaluator`.
        options: weakening knobs for the strength levels.

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
    ) -> None:
        if tt_mb <= 0:
            raise ValueError(f"tt_mb must be positive, not {tt_mb!r}")
        self.variant: Variant = find_variant(variant) if isinstance(variant, str) else variant
        self.seed = seed
        self.clock = clock
        self.evaluator = evaluator if evaluator is not None else Evaluator(self.variant)
        self.options = options if options is not None else SearchOptions()
        slots = 1 << max(10, int(tt_mb * (1 << 20) / _SLOT_BYTES).bit_length() - 1)
        self._tt_mask = slots - 1
        self._tt: list[tuple[int, int, int, int, tuple[int, int, tuple[int, ...]] | None] | None]
        self._tt = [None] * slots
        self._tables = _Tables()
        self._nodes = 0
        self._path: dict[int, int] = {}
        self._budget = _Budget()
        self._giveaway = bool(getattr(self.variant, "giveaway", False))

    # ------------------------------------------------------------------ public API
    def new_game(self) -> None:
        """Forget everything learnt in earlier searches (a new game, or a takeback)."""
        self._tt = [None] * (self._tt_mask + 1)
        self._tables = _Tables()

    def search(
        self,
        board: Board,
        limit: Limit,
        stop: StopToken | None = None,
        on_iteration: Callable[[SearchResult], None] | None = None,
    ) -> SearchResult:
        """Search ``board`` (left unchanged) within ``limit`` and return the best move found.

        ``on_iteration`` is called after each finished depth (for ``info`` lines).

        Raises:
            ValueError: a time limit without a clock, or a board of another variant.
        """
        if limit.timed and self.clock is None:
            raise ValueError("time limits need a clock: Searcher(..., clock=time.monotonic)")
        if board.variant.name != self.variant.name:
            raise ValueError(f"searcher is for {self.variant.name}, board is {board.variant.name}")
        work = board.copy()
        self._start(work, limit, stop)
        root_moves = list(work.legal_moves)
        if not root_moves:
            return SearchResult(None, self._terminal(0), 0, 0, self._elapsed())
        best = SearchResult(self._order(root_moves, None, 0)[0], 0, 0, 0, 0.0)
        if len(root_moves) == 1 and limit.depth is None and limit.nodes is None:
            return SearchResult(root_moves[0], 0, 0, 0, self._elapsed(), (root_moves[0],))
        max_depth = min(limit.depth or MAX_PLY - 1, self.options.max_depth)
        noise = self._root_noise(work, root_moves)
        for depth in range(1, max_depth + 1):
            try:
                move, score = self._root(work, root_moves, depth, noise)
            except _Stop:
                break
            pv = self._pv(work, move, depth)
            best = SearchResult(move, score, depth, self._nodes, self._elapsed(), pv)
            if on_iteration is not None:
                on_iteration(best)
            if abs(score) > WIN_BOUND and WIN - abs(score) <= depth:
                break
            if self._soft_time_up():
                break
        return SearchResult(best.move, best.score, best.depth, self._nodes, self._elapsed(), best.pv)

    # ------------------------------------------------------------------ set-up and limits
    def _start(self, board: Board, limit: Limit, stop: StopToken | None) -> None:
        self._nodes = 0
        self._tables = _Tables()
        started = self.clock() if self.clock is not None else 0.0
        soft, hard = _time_budget(limit)
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

    def _root_noise(self, board: Board, moves: Sequence[Move]) -> dict[tuple[int, int, tuple[int, ...]], int]:
        amplitude = self.options.noise
        if amplitude <= 0:
            return {}
        rng = random.Random(f"{self.seed}:{board.zobrist_hash()}")
        return {_mkey(m): rng.randint(-amplitude, amplitude) for m in moves}

    # ------------------------------------------------------------------ the tree
    def _root(
        self,
        board: Board,
        moves: list[Move],
        depth: int,
        noise: dict[tuple[int, int, tuple[int, ...]], int],
    ) -> tuple[Move, int]:
        entry = self._tt[board.zobrist_hash() & self._tt_mask]
        tt_move = entry[4] if entry is not None and entry[0] == board.zobrist_hash() else None
        ordered = self._order(moves, tt_move, 0)
        alpha, beta = -_INF, _INF
        best_move, best_score = ordered[0], -_INF
        key = board.zobrist_hash()
        base = len(board.move_stack)
        self._path[key] = self._path.get(key, 0) + 1
        try:
            for index, move in enumerate(ordered):
                bonus = noise.get(_mkey(move), 0)
                board.push(move)
                if index == 0 or noise:
                    score = -self._node(board, depth - 1, -beta, -(alpha - bonus), 1, True)
                else:
                    score = -self._node(board, depth - 1, -alpha - 1, -alpha, 1, False)
                    if score > alpha:
                        score = -self._node(board, depth - 1, -beta, -alpha, 1, True)
                board.pop()
                score += bonus
                if score > best_score:
                    best_move, best_score = move, score
                    alpha = max(alpha, score)
                    moves.remove(move)
                    moves.insert(0, move)
        except _Stop:
            _unwind(board, base)
            # A move that beat the earlier best at this depth is trusted; otherwise give up.
            if best_score == -_INF or depth == 1:
                raise
            return best_move, best_score
        finally:
            self._leave(key)
        self._store(board.zobrist_hash(), depth, _EXACT, best_score, 0, best_move)
        return best_move, best_score

    def _leave(self, key: int) -> None:
        count = self._path[key] - 1
        if count:
            self._path[key] = count
        else:
            del self._path[key]

    def _node(self, board: Board, depth: int, alpha: int, beta: int, ply: int, pv: bool) -> int:
        self._nodes += 1
        if not self._nodes & _CHECK_MASK:
            self._check()
        key = board.zobrist_hash()
        if key in self._path:
            return 0
        moves = list(board.legal_moves)
        if not moves:
            return self._terminal(ply)
        capture = moves[0].is_capture
        if depth <= 0 and (not capture or not self.options.quiescence) or ply >= MAX_PLY:
            return self.evaluator.evaluate(board)
        if self.evaluator.is_dead_draw(board):
            return 0
        slot = key & self._tt_mask
        entry = self._tt[slot]
        tt_move = None
        if entry is not None and entry[0] == key:
            tt_move = entry[4]
            if entry[1] >= depth and not pv:
                score = _from_tt(entry[3], ply)
                flag = entry[2]
                if flag == _EXACT or (flag == _LOWER and score >= beta) or (
                    flag == _UPPER and score <= alpha
                ):
                    return score
        if len(moves) == 1 and self.options.extensions and depth > 0:
            depth += 1  # a forced move costs the opponent nothing: look one ply further
        ordered = self._order(moves, tt_move, ply) if len(moves) > 1 else moves
        best, best_move, original_alpha = -_INF, ordered[0], alpha
        self._path[key] = 1
        try:
            for index, move in enumerate(ordered):
                board.push(move)
                if index == 0:
                    score = -self._node(board, depth - 1, -beta, -alpha, ply + 1, pv)
                else:
                    reduce = 1 if depth >= 3 and index >= 3 and not capture and not move.promotes else 0
                    score = -self._node(board, depth - 1 - reduce, -alpha - 1, -alpha, ply + 1, False)
                    if score > alpha and (reduce or score < beta):
                        score = -self._node(board, depth - 1, -beta, -alpha, ply + 1, pv)
                board.pop()
                if score > best:
                    best, best_move = score, move
                    if score > alpha:
                        alpha = score
                        if score >= beta:
                            if not capture:
                                self._reward(move, depth, ply)
                            break
        finally:
            del self._path[key]
        flag = _LOWER if best >= beta else (_EXACT if best > original_alpha else _UPPER)
        self._store(key, depth, flag, best, ply, best_move)
        return best

    def _terminal(self, ply: int) -> int:
        """Score for the side to move that has no legal move: a loss, or a win in giveaway."""
        return WIN - ply if self._giveaway else -(WIN - ply)

    # ------------------------------------------------------------------ tables
    def _store(self, key: int, depth: int, flag: int, score: int, ply: int, move: Move) -> None:
        slot = key & self._tt_mask
        old = self._tt[slot]
        if old is None or old[0] != key or depth >= old[1] or flag == _EXACT:
            self._tt[slot] = (key, max(depth, 0), flag, _to_tt(score, ply), _mkey(move))

    def _reward(self, move: Move, depth: int, ply: int) -> None:
        killers = self._tables.killers[ply]
        mkey = _mkey(move)
        if killers[0] != mkey:
            killers[1] = killers[0]
            killers[0] = mkey
        hkey = (move.origin, move.destination)
        history = self._tables.history
        history[hkey] = history.get(hkey, 0) + depth * depth

    def _order(
        self, moves: list[Move], tt_move: tuple[int, int, tuple[int, ...]] | None, ply: int
    ) -> list[Move]:
        """TT move first, then bigger captures, promotions, killers, and history."""
        killers = self._tables.killers[min(ply, MAX_PLY)]
        history = self._tables.history

        def rank(move: Move) -> int:
            mkey = (move.origin, move.destination, move.captures)
            if mkey == tt_move:
                return 1 << 40
            value = len(move.captures) << 30
            if move.promotes:
                value += 1 << 29
            if mkey == killers[0]:
                value += 1 << 28
            elif mkey == killers[1]:
                value += 1 << 27
            return value + history.get((move.origin, move.destination), 0)

        return sorted(moves, key=rank, reverse=True)

    def _pv(self, board: Board, first: Move, depth: int) -> tuple[Move, ...]:
        line = [first]
        probe = board.copy()
        probe.push(first)
        seen = {board.zobrist_hash(), probe.zobrist_hash()}
        while len(line) < depth:
            key = probe.zobrist_hash()
            entry = self._tt[key & self._tt_mask]
            if entry is None or entry[0] != key or entry[4] is None:
                break
            move = next((m for m in probe.legal_moves if _mkey(m) == entry[4]), None)
            if move is None:
                break
            probe.push(move)
            line.append(move)
            if probe.zobrist_hash() in seen:
                break
            seen.add(probe.zobrist_hash())
        return tuple(line)


def _to_tt(score: int, ply: int) -> int:
    if score > WIN_BOUND:
        return score + ply
    if score < -WIN_BOUND:
        return score - ply
    return score


def _from_tt(score: int, ply: int) -> int:
    if score > WIN_BOUND:
        return score - ply
    if score < -WIN_BOUND:
        return score + ply
    return score


def _time_budget(limit: Limit) -> tuple[float | None, float | None]:
    """Return (soft, hard) seconds: no new iteration after soft, abort at hard."""
    budgets: list[tuple[float, float]] = []
    if limit.movetime is not None:
        # A fixed time per move is spent in full: iterations run until the deadline.
        budgets.append((limit.movetime, limit.movetime))
    if limit.time_left is not None:
        left = limit.time_left
        increment = limit.increment or 0.0
        target = min(left / 30 + increment * 0.8, left * 0.25)
        hard = min(target * 3, left * 0.4)
        budgets.append((target * 0.6, max(hard, 0.001)))
    if not budgets:
        return None, None
    return min(b[0] for b in budgets), min(b[1] for b in budgets)


def _unwind(board: Board, length: int) -> None:
    """Take back the moves an interrupted search left on ``board``."""
    while len(board.move_stack) > length:
        board.pop()


def _history_hashes(board: Board) -> list[int]:
    """Hashes of the game's earlier positions that the current one could still repeat."""
    probe = board.copy()
    hashes: list[int] = []
    while probe.move_stack and len(hashes) < 200:
        move = probe.pop()
        piece = probe.piece_at(move.origin)
        if move.is_capture or piece is None or not piece.king:
            break
        hashes.append(probe.zobrist_hash())
    return hashes
