"""The computer's opponent from the configuration's ``[engine]`` section: the built-in engine at
its level, or an external Hub engine (Scan) at its own strength.

The board's built-in engine searches in a process of its own, never in the service's: the
service starts ``draughtsboard engine`` once (:func:`builtin_engine_config`), keeps it warm
between moves and speaks the Hub protocol to it, as to Scan; a time per move is the CPU time of
that process's search thread, capped by the wall clock (its ``clock`` parameter), so a level
plays the same whatever else runs. ``process=False`` keeps the search in the caller's process
(virtual time, ``analyse``).

``engine.level``, ``engine.depth`` and ``engine.movetime_ms`` are the built-in engine's; a Hub
engine searches as ``engine.hub_depth``, ``engine.hub_nodes`` or ``engine.hub_movetime_s`` say,
sent as exactly one Hub ``level`` form (:func:`hub_limit`). Every bad combination is one
:class:`ConfigError` naming the keys.

>>> from firmware_host.config.loader import Config
>>> hub_limit(Config.from_mapping({"engine": {"kind": "hub", "hub_depth": 12}}))
Limit(depth=12, nodes=None, movetime=None, time_left=None, increment=None)
>>> hub_limit(Config.from_mapping({"engine": {"kind": "hub", "level": 2}})).movetime
1.0
"""

from __future__ import annotations

import os
import sys

from engine.levels import level, limit_for_level
from engine.search import Limit
from engine.variant import Variant
from firmware_host.config.loader import Config
from firmware_host.config.schema import (
    ENGINE_DEPTH,
    ENGINE_HUB_COMMAND,
    ENGINE_HUB_DEPTH,
    ENGINE_HUB_MOVETIME_S,
    ENGINE_HUB_NODES,
    ENGINE_KIND,
    ENGINE_MOVETIME_MS,
    ENGINE_SEED,
)
from firmware_host.errors import ConfigError
from firmware_host.opponents.hub.client import HubEngine, HubEngineError
from firmware_host.opponents.hub.config import HubEngineConfig, config_from_settings
from firmware_host.opponents.opponent import BuiltinOpponent, HubOpponent, Opponent
from firmware_host.terms.settings import ENGINE_LEVEL

__all__ = ["build_opponent", "builtin_engine_config", "builtin_limit", "hub_engine_config",
           "hub_limit", "spare_core", "start_hub"]

#: The keys of the built-in engine's strength: with ``engine.kind = "hub"`` giving one a value
#: (not 0) is an error, since it would not apply; ``engine.level`` is not among them (the web
#: app may set it on any board, and the example file sets it).
_BUILTIN_ONLY = (ENGINE_DEPTH, ENGINE_MOVETIME_MS)


def builtin_limit(config: Config) -> Limit:
    """The built-in engine's limit a move: ``engine.depth`` and ``engine.movetime_ms`` when set,
    else the level's.

    >>> builtin_limit(Config.from_mapping({"engine": {"depth": 6}})).depth
    6
    """
    movetime = config[ENGINE_MOVETIME_MS] / 1000 or None
    depth = config[ENGINE_DEPTH]
    if depth:
        return Limit(depth=depth, movetime=movetime)
    return limit_for_level(config[ENGINE_LEVEL], movetime=movetime)


def hub_limit(config: Config) -> Limit:
    """The Hub engine's limit a move, one bound only: ``engine.hub_depth``, else
    ``engine.hub_nodes``, else ``engine.hub_movetime_s`` (``engine.level`` never applies).

    Raises:
        ConfigError: two bounds are set (the Hub protocol's ``level`` takes one form), or a
            built-in engine's key is set for a Hub engine.
    """
    depth = config[ENGINE_HUB_DEPTH]
    nodes = config[ENGINE_HUB_NODES]
    given = [f"engine.hub_depth = {depth}"] if depth else []
    given += [f"engine.hub_nodes = {nodes}"] if nodes else []
    movetime = config[ENGINE_HUB_MOVETIME_S]
    # The example file sets every key to its default: only another time per move is a choice.
    if given and movetime != ENGINE_HUB_MOVETIME_S.default:
        given.append(f"engine.hub_movetime_s = {movetime}")
    if len(given) > 1:
        raise ConfigError.worded(
            ENGINE_HUB_DEPTH.path, f"{' and '.join(given)}: set only one (the Hub protocol's level "
            "is one of depth, nodes or move-time)", source=config.source)
    for option in _BUILTIN_ONLY:
        if config[option]:
            path = option.path
            hub_key = "hub_depth" if option is ENGINE_DEPTH else "hub_movetime_s"
            raise ConfigError.worded(
                path, f"{path} is the built-in engine's; with engine.kind = \"hub\" set "
                f"engine.{hub_key} instead", source=config.source)
    if depth:
        return Limit(depth=depth)
    if nodes:
        return Limit(nodes=nodes)
    return Limit(movetime=movetime)


def hub_engine_config(config: Config) -> HubEngineConfig:
    """How to run the Hub engine, from the ``engine.hub_*`` keys.

    Raises:
        ConfigError: ``engine.hub_command`` is empty, or another key does not fit.
    """
    if not config[ENGINE_HUB_COMMAND]:
        raise ConfigError.worded(
            ENGINE_HUB_COMMAND.path, "engine.hub_command is empty: engine.kind = \"hub\" needs the "
            "engine's argv, e.g. [\"/opt/scan/scan\", \"hub\"]", source=config.source)
    section = {key.split(".", 1)[1]: config[key] for key in config if key.startswith("engine.")}
    try:
        return config_from_settings(section)
    except ValueError as exc:
        raise ConfigError("engine", str(exc), source=config.source) from None


def builtin_engine_config(config: Config) -> HubEngineConfig:
    """How to run the built-in engine in a process of its own: ``draughtsboard engine`` under
    this interpreter, at the configured level and seed, its time per move in CPU seconds.
    ``-P``: the working directory is not put on the module path, so the process imports the
    engine the service does (an installed, compiled one), wherever it was started.

    >>> from firmware_host.config.loader import Config
    >>> worker = builtin_engine_config(Config.from_mapping({"engine": {"level": 7}}))
    >>> worker.command[1:], worker.builtin
    (('-P', '-m', 'firmware_host.cli', 'engine'), True)
    >>> dict(worker.params)
    {'level': '7', 'seed': '0', 'clock': 'cpu'}
    """
    return HubEngineConfig(
        command=(sys.executable, "-P", "-m", "firmware_host.cli", "engine"),
        params={"level": str(config[ENGINE_LEVEL]), "seed": str(config[ENGINE_SEED]),
                "clock": "cpu"},
        builtin=True)


def spare_core() -> bool:
    """Whether this process may run on more than one core: one for the service, one for the
    engine thinking on the human's time (``engine.ponder = "auto"``).

    >>> isinstance(spare_core(), bool)
    True
    """
    affinity = getattr(os, "sched_getaffinity", None)
    cores = len(affinity(0)) if affinity is not None else (os.cpu_count() or 1)
    return cores > 1


def start_hub(opponent: HubOpponent, variant: Variant | str, source: str = "") -> None:
    """Start the Hub engine now (so its ``id`` names it in the PDN from the first game).

    Raises:
        ConfigError: it cannot start (keyed on ``engine.hub_command``, with the engine's words).
    """
    try:
        opponent.engine.start(variant)
    except HubEngineError as exc:
        if opponent.engine.config.builtin:
            raise ConfigError.worded(ENGINE_KIND.path, f"the built-in engine's process did not "
                                     f"start: {exc}", source=source or None) from None
        raise ConfigError.worded(ENGINE_HUB_COMMAND.path, f"engine.hub_command: the Hub engine "
                                 f"did not start: {exc}", source=source or None) from None


def build_opponent(config: Config, variant: Variant, *, start: bool = True,
                   process: bool = True) -> tuple[Opponent, Limit]:
    """The opponent and its search limit a move; an engine process (a Hub engine's, or the
    built-in engine's own unless ``process`` is False) is started at once unless ``start`` is
    False (a Hub engine's name is then its program's until its first move).

    Raises:
        ConfigError: a bad ``[engine]`` setting, or an engine that does not start.
    """
    if config[ENGINE_KIND] == "hub":
        limit = hub_limit(config)
        hub = HubOpponent(HubEngine(hub_engine_config(config)))
    elif process:
        limit = builtin_limit(config)
        hub = HubOpponent(HubEngine(builtin_engine_config(config)))
    else:
        chosen = level(config[ENGINE_LEVEL])
        return (BuiltinOpponent(seed=config[ENGINE_SEED], options=chosen.options),
                builtin_limit(config))
    if start:
        try:
            start_hub(hub, variant, config.source)
        except ConfigError:
            hub.close()
            raise
    return hub, limit
