"""Setting the built-in engine's level from the phone (from the next new game on).

The session calls the hook once a new game starts with a level the phone chose
(:mod:`firmware_host.game.settings`); :func:`firmware_host.app.service.build_service` makes it
for the engine worker it wires.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.levels import level, limit_for_level
from engine.search import Limit
from firmware_host.config import Config
from firmware_host.config.schema import ENGINE_DEPTH, ENGINE_MOVETIME_MS
from firmware_host.opponents.opponent import BuiltinOpponent
from firmware_host.opponents.worker import EngineWorker

__all__ = ["level_hook"]


def level_hook(config: Config, worker: EngineWorker | None, virtual_depth: int | None
               ) -> Callable[[int], None] | None:
    """What sets the level of ``worker``'s built-in engine, or None (no engine, a Hub engine).

    ``virtual_depth``: in virtual time, the depth searched when nothing else caps it.

    ``engine.depth`` and ``engine.movetime_ms``, when set, still cap the search as at start.
    """
    if worker is None or not isinstance(worker.opponent, BuiltinOpponent):
        return None
    opponent = worker.opponent
    depth = config[ENGINE_DEPTH]
    movetime_ms = config[ENGINE_MOVETIME_MS]
    movetime = movetime_ms / 1000 or None

    def apply(number: int) -> None:
        chosen = level(number)
        limit = (Limit(depth=depth, movetime=movetime) if depth
                 else limit_for_level(chosen.number, movetime=movetime))
        if virtual_depth is not None:
            limit = Limit(depth=limit.depth or virtual_depth)
        worker.limit = limit
        opponent.options = chosen.options
        opponent.close()  # its searchers are made again, with the new options

    return apply
