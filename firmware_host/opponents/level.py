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
from firmware_host.opponents.opponent import BuiltinOpponent, HubOpponent
from firmware_host.opponents.worker import EngineWorker

__all__ = ["level_hook"]


def level_hook(config: Config, worker: EngineWorker | None, virtual_depth: int | None
               ) -> Callable[[int], None] | None:
    """What sets the level of ``worker``'s built-in engine, or None (no engine, a Hub engine).

    ``virtual_depth``: in virtual time, the depth searched when nothing else caps it.

    ``engine.depth`` and ``engine.movetime_ms``, when set, still cap the search as at start.
    The built-in engine in its own process is sent its new ``level`` before its next search.
    """
    if worker is None:
        return None
    opponent = worker.opponent
    builtin = isinstance(opponent, BuiltinOpponent)
    if not builtin and not (isinstance(opponent, HubOpponent) and opponent.engine.config.builtin):
        return None
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
        if isinstance(opponent, BuiltinOpponent):
            opponent.options = chosen.options
            opponent.close()  # its searchers are made again, with the new options
        elif isinstance(opponent, HubOpponent):
            opponent.engine.configure({"level": str(chosen.number)})

    return apply
