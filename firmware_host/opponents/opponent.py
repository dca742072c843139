"""The computer opponent as one small protocol, so the built-in engine and an external Hub engine
(e.g. Scan) plug into the session the same way.

>>> from engine import Board
>>> from engine.search import Limit, StopToken
>>> opponent: Opponent = BuiltinOpponent(seed=1)
>>> board = Board("russian")
>>> result = opponent.best_move(board, Limit(depth=2), stop=StopToken())
>>> result.move in board.legal_moves, isinstance(opponent, Opponent)
(True, True)
>>> opponent.close()
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from types import TracebackType
from typing import Protocol, runtime_checkable

from engine import Board, Move
from engine.clock import SearchClock
from engine.search import Limit, Searcher, SearchOptions, SearchResult, StopToken
from firmware_host.opponents.hub.client import HubEngine
from firmware_host.opponents.hub.notation import move_from_hub, move_to_hub, score_from_hub

__all__ = ["BuiltinOpponent", "HubOpponent", "Opponent", "Ponderer"]


@runtime_checkable
class Opponent(Protocol):
    """Something that finds a move: ``best_move`` blocks (run it off the scan thread) and returns
    as soon as it can once ``stop`` is set; ``close`` is idempotent. ``name`` goes into the PDN
    player tag of the computer's side."""

    @property
    def name(self) -> str:
        """The engine's name and version, e.g. ``"Scan 3.1"``."""
        ...

    def best_move(self, board: Board, limit: Limit, stop: StopToken | None = None) -> SearchResult:
        """Return the move to play in ``board`` (``result.move`` is legal, or None with no move)."""
        ...

    def close(self) -> None:
        """Release the engine (threads, processes, memory)."""
        ...


@runtime_checkable
class Ponderer(Protocol):
    """An opponent that can think on the other side's time (a Hub engine's ``go ponder``)."""

    def ponder(self, board: Board, limit: Limit) -> bool:
        """Think on ``board`` until the next ``best_move``; False when it cannot now.

        ``best_move`` of that same position and limit then goes on from there (a hit); any
        other drops it.
        """
        ...


class BuiltinOpponent:
    """The built-in searcher (:class:`engine.search.Searcher`), one per variant, made on demand.

    Its time: a level's time per move (``Limit.movetime``) is the search thread's CPU time,
    capped by the wall clock (:class:`engine.clock.SearchClock`), so a level plays the same while
    the service's other threads share the core; a game clock (``Limit.time_left``) runs on the
    wall, so its time is ``time.monotonic``. ``clock`` replaces both (tests inject one).

    >>> from engine import Board
    >>> from engine.search import Limit
    >>> with BuiltinOpponent() as opponent:
    ...     opponent.best_move(Board("english"), Limit(depth=4)).depth
    4
    """

    def __init__(self, seed: int = 0, tt_mb: float = 16, options: SearchOptions | None = None,
                 clock: Callable[[], float] | None = None) -> None:
        self.seed = seed
        self.tt_mb = tt_mb
        self.options = options
        self.clock = clock
        self._searchers: dict[str, Searcher] = {}

    @property
    def name(self) -> str:
        """``"draughtsboard"``: the built-in engine."""
        return "draughtsboard"

    def searcher(self, board: Board) -> Searcher:
        """The searcher for the board's variant (kept, with its hash table, between moves)."""
        name = board.variant.name
        if name not in self._searchers:
            # A level's clock until a search sets its own (clock_for): never without one.
            clock = self.clock if self.clock is not None else SearchClock()
            self._searchers[name] = Searcher(board.variant, seed=self.seed, tt_mb=self.tt_mb,
                                             clock=clock, options=self.options)
        return self._searchers[name]

    def best_move(self, board: Board, limit: Limit, stop: StopToken | None = None) -> SearchResult:
        """Search ``board`` within ``limit``.

        Raises:
            ValueError: a bad limit (see :meth:`engine.search.Searcher.search`).
        """
        searcher = self.searcher(board)
        searcher.clock = self.clock_for(limit)
        return searcher.search(board, limit, stop=stop)

    def clock_for(self, limit: Limit) -> Callable[[], float]:
        """The clock a search within ``limit`` runs on (see the class's docstring).

        >>> opponent = BuiltinOpponent()
        >>> opponent.clock_for(Limit(movetime=1.0))
        SearchClock(wall_factor=2.0)
        >>> opponent.clock_for(Limit(time_left=60.0)) is time.monotonic
        True
        """
        if self.clock is not None:
            return self.clock
        return time.monotonic if limit.time_left is not None else SearchClock()

    def close(self) -> None:
        """Drop the searchers (their tables are the only resource). Idempotent."""
        self._searchers.clear()

    def __enter__(self) -> BuiltinOpponent:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


class HubOpponent:
    """An external Hub engine as an opponent; its ``info`` becomes a :class:`SearchResult`
    (score in hundredths of a man, as the built-in engine reports).

    >>> import sys
    >>> from engine import Board
    >>> from engine.search import Limit
    >>> from firmware_host.opponents.hub.config import HubEngineConfig
    >>> config = HubEngineConfig(command=(sys.executable, "-m", "firmware_host.cli", "engine",
    ...                                   "--hub"))
    >>> with HubOpponent(HubEngine(config)) as opponent:
    ...     result = opponent.best_move(Board(), Limit(depth=3))
    ...     opponent.name.startswith("draughtsboard"), result.depth
    (True, 3)
    """

    def __init__(self, engine: HubEngine) -> None:
        self.engine = engine
        #: How many answers came after a ``ponder-hit`` (the engine had thought on them).
        self.hits = 0

    @property
    def name(self) -> str:
        """The engine's ``id name`` and ``version``, e.g. ``"Scan 3.1"`` (the file name of its
        program before it has started, or when it gives no name)."""
        if self.engine.config.builtin:  # the built-in engine in its own process
            return "draughtsboard"
        named = self.engine.engine_id.get("name") or os.path.basename(self.engine.config.command[0])
        return f"{named} {self.engine.engine_id.get('version', '')}".strip()

    def best_move(self, board: Board, limit: Limit, stop: StopToken | None = None) -> SearchResult:
        """Ask the external engine; a game already over gives ``SearchResult(None, ...)``.

        Raises:
            HubEngineError (HubTimeout, HubEngineDied): the engine failed; the next call
                restarts it.
        """
        if not board.legal_moves:
            return SearchResult(None, 0, 0, 0, 0.0)
        played = self.engine.play(board, limit, stop)
        self.hits += played.hit
        info = played.info
        score = 0 if info.score is None else score_from_hub(info.score)
        pv = info.pv
        if len(pv) < 2 and played.ponder is not None:  # the reply it expects, said in "done"
            pv = (move_to_hub(played.move, board.variant), played.ponder)
        return SearchResult(played.move, score, info.depth or 0, info.nodes or 0,
                            played.seconds, _pv_moves(board, pv, played.move))

    def ponder(self, board: Board, limit: Limit) -> bool:
        """Have the engine think on ``board`` until the next :meth:`best_move` (``go ponder``);
        False when it cannot now (see :meth:`HubEngine.ponder`)."""
        return self.engine.ponder(board, limit)

    def close(self) -> None:
        """Quit the engine process. Idempotent."""
        self.engine.close()

    def __enter__(self) -> HubOpponent:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def _pv_moves(board: Board, pv: tuple[str, ...], move: Move) -> tuple[Move, ...]:
    """The legal prefix of the engine's PV, or just ``move`` when the PV does not start with it."""
    probe = board.copy()
    moves: list[Move] = []
    for text in pv:
        try:
            step = move_from_hub(probe, text)
        except ValueError:
            break
        moves.append(step)
        probe.push(step)
    if not moves or moves[0].key() != move.key():
        return (move,)
    return tuple(moves)
