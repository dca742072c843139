"""How to run an external Hub engine: :class:`HubEngineConfig`, built from the ``[engine]``
section of the configuration by :func:`config_from_settings`.

The keys, their types, ranges and defaults are declared once, in
:mod:`firmware_host.config.schema`; this module maps them onto the fields
:class:`~firmware_host.opponents.hub.client.HubEngine` uses, and takes its defaults from there.

>>> HubEngineConfig(command=("/opt/scan/scan", "hub")).default_movetime
1.0
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType

from firmware_host.config.schema import options_by_path

__all__ = ["CONFIG_KEYS", "HubEngineConfig", "config_from_settings"]


def _schema_default(key: str) -> float:
    """The default of ``engine.<key>``, in seconds, as the configuration schema declares it."""
    default = options_by_path()[f"engine.{key}"].default
    if isinstance(default, bool) or not isinstance(default, int | float):
        raise TypeError(f"engine.{key} is not a number of seconds in the schema: {default!r}")
    return float(default)


@dataclass(frozen=True)
class HubEngineConfig:
    """How to run an external Hub engine. Times are seconds.

    ``command`` is the argv (``("/opt/scan/scan", "hub")``); it is never given to a shell.
    ``params`` are sent with ``set-param`` before ``init`` (values as Hub text, e.g. ``"true"``);
    the ``variant`` parameter is set from the board being played, not from here.

    >>> HubEngineConfig(command=("scan", "hub"), cwd="/opt/scan").reply_timeout
    10.0

    Raises:
        ValueError: an empty command or a non-positive timeout.
    """

    command: tuple[str, ...]
    cwd: str | None = None
    params: Mapping[str, str] = field(default_factory=dict)
    handshake_timeout: float = _schema_default("hub_handshake_timeout_s")
    init_timeout: float = _schema_default("hub_init_timeout_s")
    reply_timeout: float = _schema_default("hub_timeout_s")
    search_timeout: float = _schema_default("hub_search_timeout_s")
    search_margin: float = _schema_default("hub_search_margin_s")
    stop_timeout: float = _schema_default("hub_stop_timeout_s")
    quit_timeout: float = 2.0  # not configurable: how long a quitting engine may take to exit
    default_movetime: float = _schema_default("hub_movetime_s")
    #: The built-in engine in a process of its own (``draughtsboard engine``: the board's
    #: engine worker), not a configured Hub engine: every bound of a limit goes in its one
    #: ``level`` line (it reads them all), a time per move is its search thread's CPU time
    #: (its ``clock`` parameter; waited for up to ``engine.clock.WALL_FACTOR`` times on the
    #: wall), and its ``level`` parameter may change between two searches.
    builtin: bool = False

    def __post_init__(self) -> None:
        if not self.command or not all(isinstance(a, str) and a for a in self.command):
            raise ValueError(f"hub engine command must be a non-empty argv list: {self.command!r}")
        positive = {"handshake_timeout": self.handshake_timeout, "init_timeout": self.init_timeout,
                    "reply_timeout": self.reply_timeout, "search_timeout": self.search_timeout,
                    "stop_timeout": self.stop_timeout, "quit_timeout": self.quit_timeout,
                    "default_movetime": self.default_movetime}
        for name, value in positive.items():
            if value <= 0:
                raise ValueError(f"hub engine {name} must be positive, not {value!r}")
        if self.search_margin < 0:
            raise ValueError(f"hub engine search_margin must not be negative: {self.search_margin}")


#: Config keys (section ``[engine]``) read by :func:`config_from_settings`, and their fields.
CONFIG_KEYS: Mapping[str, str] = MappingProxyType({
    "hub_command": "command",
    "hub_cwd": "cwd",
    "hub_params": "params",
    "hub_handshake_timeout_s": "handshake_timeout",
    "hub_init_timeout_s": "init_timeout",
    "hub_timeout_s": "reply_timeout",
    "hub_search_timeout_s": "search_timeout",
    "hub_search_margin_s": "search_margin",
    "hub_stop_timeout_s": "stop_timeout",
    "hub_movetime_s": "default_movetime",
})


def config_from_settings(settings: Mapping[str, object]) -> HubEngineConfig:
    """Build the config from the ``[engine]`` settings (keys in :data:`CONFIG_KEYS`; others are
    ignored, missing ones keep their defaults; an empty ``hub_cwd`` means the program's directory).

    >>> config = config_from_settings({"hub_command": ["/opt/scan/scan", "hub"],
    ...                                "hub_timeout_s": 3})
    >>> config.command, config.cwd, config.reply_timeout
    (('/opt/scan/scan', 'hub'), '/opt/scan', 3.0)

    Raises:
        ValueError: a missing command, a value of the wrong type, or a bad timeout.
    """
    given = {name: settings[key] for key, name in CONFIG_KEYS.items()
             if key in settings and settings[key] not in (None, "")}
    command = given.pop("command", None)
    if not isinstance(command, (list, tuple)) or not all(isinstance(a, str) for a in command):
        raise ValueError(f"engine.hub_command must be a list of strings, not {command!r}")
    argv = tuple(str(a) for a in command)
    params = given.pop("params", {})
    if not isinstance(params, Mapping):
        raise ValueError(f"engine.hub_params must be a table of name = value, not {params!r}")
    texts = MappingProxyType({str(k): _param_text(v) for k, v in params.items()})
    cwd = given.pop("cwd", None)
    if cwd is None and argv and os.path.dirname(argv[0]):
        cwd = os.path.dirname(os.path.abspath(argv[0]))

    def seconds(name: str) -> float:
        value = given.get(name, _DEFAULTS[name])
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"engine {name} must be a number of seconds, not {value!r}")
        return float(value)

    return HubEngineConfig(
        command=argv, cwd=None if cwd is None else str(cwd), params=texts,
        handshake_timeout=seconds("handshake_timeout"), init_timeout=seconds("init_timeout"),
        reply_timeout=seconds("reply_timeout"), search_timeout=seconds("search_timeout"),
        search_margin=seconds("search_margin"), stop_timeout=seconds("stop_timeout"),
        quit_timeout=seconds("quit_timeout"), default_movetime=seconds("default_movetime"))


#: The defaults of the fields, for the keys a configuration leaves out.
_DEFAULTS: Mapping[str, object] = MappingProxyType(
    {f.name: f.default for f in fields(HubEngineConfig)})


def _param_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
