"""Load and validate the TOML configuration, and apply command-line overrides.

Every problem is reported as one :class:`ConfigError` naming the file and the key; the CLI turns it
into one line on stderr and a non-zero exit, never a traceback.

>>> config = Config.from_mapping({"game": {"variant": "russian"}})
>>> config["game.variant"], config["timing.settle_ms"]
('russian', 300)
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from firmware_host.config.schema import OPTIONS, PIN_OPTIONS, Option, options_by_path


class ConfigError(ValueError):
    """A configuration file or option is invalid; the message names the file and the key."""


_TYPE_CHECKS: dict[str, Any] = {
    "str": lambda v: isinstance(v, str),
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "float": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "bool": lambda v: isinstance(v, bool),
    "list[int]": lambda v: isinstance(v, list)
    and all(isinstance(x, int) and not isinstance(x, bool) for x in v),
    "list[str]": lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
    "table": lambda v: isinstance(v, dict)
    and all(isinstance(x, (str, int, float, bool)) for x in v.values()),
}

_TYPE_NAMES = {
    "str": "a string",
    "int": "an integer",
    "float": "a number",
    "bool": "true or false",
    "list[int]": "a list of integers",
    "list[str]": "a list of strings",
    "table": "a table of strings, numbers or booleans",
}


def redact_url(url: str) -> str:
    """Return ``url`` with any password replaced by ``***``, for logs and messages.

    >>> redact_url("redis://:hunter2@pi.local:6379/0")
    'redis://:***@pi.local:6379/0'
    """
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}{port}"))


def _check_value(option: Option, value: Any, where: str) -> Any:
    if not _TYPE_CHECKS[option.kind](value):
        shown = "***" if option.secret else repr(value)
        raise ConfigError(
            f"{where}: {option.path} must be {_TYPE_NAMES[option.kind]}, not {shown}"
        )
    if option.kind == "float":
        value = float(value)
    if option.choices is not None and value not in option.choices:
        allowed = ", ".join(str(c) for c in option.choices)
        raise ConfigError(f"{where}: {option.path} = {value!r} is not one of: {allowed}")
    numbers = value if isinstance(value, list) else [value]
    for number in numbers:
        if not isinstance(number, (int, float)):
            continue
        if option.minimum is not None and number < option.minimum:
            raise ConfigError(f"{where}: {option.path} = {number!r} is below {option.minimum:g}")
        if option.maximum is not None and number > option.maximum:
            raise ConfigError(f"{where}: {option.path} = {number!r} is above {option.maximum:g}")
    if option.path == "engine.hub_params" and "variant" in value:
        raise ConfigError(f"{where}: engine.hub_params may not set variant: the board sets it "
                          "from game.variant")
    if option.path == "store.url":
        _check_store_url(value, where)
    return value


def _check_store_url(url: str, where: str) -> None:
    if url == "memory":
        return
    scheme = urlsplit(url).scheme
    if scheme not in ("redis", "rediss", "unix"):
        raise ConfigError(
            f"{where}: store.url must be 'memory' or a redis://, rediss:// or unix:// URL, "
            f"not {redact_url(url)!r}"
        )


@dataclass(frozen=True)
class Config:
    """Validated configuration: every option of the schema, by dotted path."""

    values: Mapping[str, Any]
    source: str = "<defaults>"
    explicit: frozenset[str] = field(default_factory=frozenset)

    def __getitem__(self, path: str) -> Any:
        return self.values[path]

    def __iter__(self) -> Iterator[str]:
        return iter(self.values)

    def is_set(self, path: str) -> bool:
        """Whether ``path`` was given in the file or on the command line (not a default)."""
        return path in self.explicit

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], source: str = "<mapping>") -> Config:
        """Validate a parsed TOML document.

        Raises:
            ConfigError: for an unknown section or key, a wrong type, a value out of range, or a
                pin used twice.
        """
        known = options_by_path()
        values = {option.path: option.default for option in OPTIONS}
        explicit: set[str] = set()
        for section, table in data.items():
            if not isinstance(table, dict):
                raise ConfigError(f"{source}: [{section}] must be a table of options")
            for key, value in table.items():
                path = f"{section}.{key}"
                option = known.get(path)
                if option is None:
                    raise ConfigError(f"{source}: unknown option {path}{_suggest(path, known)}")
                values[path] = _check_value(option, value, source)
                explicit.add(path)
        config = cls(values, source, frozenset(explicit))
        config.check_pins()
        return config

    @classmethod
    def load(cls, path: str | Path) -> Config:
        """Read and validate a TOML file.

        Raises:
            ConfigError: the file is missing, unreadable, not TOML, or invalid.
        """
        try:
            with open(path, "rb") as file:
                data = tomllib.load(file)
        except FileNotFoundError:
            raise ConfigError(f"{path}: no such configuration file") from None
        except OSError as exc:
            raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: not valid TOML: {exc}") from None
        return cls.from_mapping(data, str(path))

    def with_overrides(self, overrides: Mapping[str, Any]) -> Config:
        """Return a copy with command-line values (``None`` means not given) applied.

        Raises:
            ConfigError: an override is invalid.
        """
        known = options_by_path()
        values = dict(self.values)
        explicit = set(self.explicit)
        for path, value in overrides.items():
            if value is None:
                continue
            values[path] = _check_value(known[path], value, "command line")
            explicit.add(path)
        config = Config(values, self.source, frozenset(explicit))
        config.check_pins()
        return config

    def check_pins(self) -> None:
        """Check no GPIO pin is used twice by the selected backends.

        Raises:
            ConfigError: naming the pin and both options.
        """
        selected = {self["board.sensors"], self["board.buttons"]}
        seen: dict[int, str] = {}
        for backend, paths in PIN_OPTIONS.items():
            if backend not in selected:
                continue
            for path in paths:
                value = self[path]
                for pin in value if isinstance(value, list) else [value]:
                    if pin < 0:
                        continue
                    if pin in seen:
                        raise ConfigError(
                            f"{self.source}: GPIO pin {pin} is used twice: {seen[pin]} and {path}"
                        )
                    seen[pin] = path

    def touch_move(self) -> str:
        """The touch-move rule in force: ``auto`` resolves to strict in record mode, else off."""
        setting = str(self["game.touch_move"])
        if setting != "auto":
            return setting
        return "strict" if self["game.mode"] == "record" else "off"

    def describe(self) -> dict[str, Any]:
        """Every value, secrets redacted, for logs and ``--verbose`` output."""
        known = options_by_path()
        return {
            path: redact_url(value) if known[path].secret and isinstance(value, str) else value
            for path, value in self.values.items()
        }


def _suggest(path: str, known: Mapping[str, Option]) -> str:
    import difflib

    close = difflib.get_close_matches(path, list(known), n=1)
    return f" (did you mean {close[0]}?)" if close else ""
