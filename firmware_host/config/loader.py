"""Load and validate the TOML configuration, and apply command-line overrides.

Every problem is reported as one :class:`ConfigError` naming the file and the key; the CLI turns it
into one line on stderr and a non-zero exit, never a traceback.

A key is read through its option, so the value is typed by it (``config[TIMING_SETTLE_MS]`` is
an ``int``):

>>> from firmware_host.terms.settings import GAME_VARIANT
>>> from firmware_host.config.schema import TIMING_SETTLE_MS
>>> config = Config.from_mapping({"game": {"variant": "russian"}})
>>> config[GAME_VARIANT], config[TIMING_SETTLE_MS]
('russian', 300)
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, overload

from board_io.errors import ConfigProblem
from board_io.options import Option, read
from firmware_host.config.schema import OPTIONS, options_by_path
from firmware_host.errors import ConfigError
from firmware_host.store.urls import redact_url
from firmware_host.terms.settings import GAME_MODE, GAME_TOUCH_MOVE, GAME_VARIANT

__all__ = ["Config", "ConfigError", "bad_variant", "check_variant", "redact_url"]

T = TypeVar("T")


def _checked(option: Option[object], value: object, where: str) -> object:
    try:
        return option.validate(value)
    except ConfigProblem as exc:  # board_io's, from the declaration: said as the service's
        raise ConfigError.from_problem(exc).in_file(where) from None


def _read_text(path: str | Path) -> str:
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such configuration file") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise ConfigError(f"{path}: not UTF-8 text (byte 0x{data[exc.start]:02x} on line {line}); "
                          "save the file as UTF-8") from None


@dataclass(frozen=True)
class Config:
    """Validated configuration: every option of the schema, by dotted path.

    ``config[OPTION]`` (an :class:`~board_io.options.Option` of
    :mod:`~firmware_host.config.schema`) is always a validated value of the option's type: the
    file's, the command line's, or the schema default. ``config["section.key"]`` is the same
    value as an ``object``, for code that walks the keys. ``explicit`` holds the paths that were
    given.
    """

    values: Mapping[str, object]
    source: str = "<defaults>"
    explicit: frozenset[str] = field(default_factory=frozenset)

    @overload
    def __getitem__(self, key: Option[T]) -> T: ...

    @overload
    def __getitem__(self, key: str) -> object: ...

    def __getitem__(self, key: Option[T] | str) -> object:
        if isinstance(key, str):
            return self.values[key]
        try:
            return read(self.values, key)  # validated again: typed by the option, never a cast
        except ConfigProblem as exc:
            raise ConfigError.from_problem(exc) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self.values)

    def is_set(self, path: str) -> bool:
        """Whether ``path`` was given in the file or on the command line (not a default)."""
        return path in self.explicit

    @classmethod
    def from_mapping(cls, data: Mapping[str, object], source: str = "<mapping>") -> Config:
        """Validate a parsed TOML document.

        Raises:
            ConfigError: for an unknown section or key, a wrong type, a value out of range, or a
                pin used twice.
        """
        known = options_by_path()
        values = {option.path: option.default_value() for option in OPTIONS}
        explicit: set[str] = set()
        for section, table in data.items():
            if not isinstance(table, dict):
                raise ConfigError(f"[{section}] must be a table of options", source=source)
            for key, value in table.items():
                path = f"{section}.{key}"
                option = known.get(path)
                if option is None:
                    raise ConfigError.worded(path, f"unknown option {path}{_suggest(path)}",
                                             source=source)
                values[path] = _checked(option, value, source)
                explicit.add(path)
        config = cls(values, source, frozenset(explicit))
        config.check_pins()
        return config

    @classmethod
    def load(cls, path: str | Path) -> Config:
        """Read and validate a TOML file (UTF-8).

        Raises:
            ConfigError: the file is missing, unreadable, not UTF-8, not TOML, or invalid.
        """
        text = _read_text(path)
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: not valid TOML: {exc}") from None
        return cls.from_mapping(data, str(path))

    def with_overrides(self, overrides: Mapping[Option[Any], object] | Mapping[str, object]
                       ) -> Config:
        """Return a copy with command-line values (``None`` means not given) applied, keyed by
        option (``{GAME_MODE: "record"}``) or, for code that walks the keys, by dotted path.

        Raises:
            ConfigError: an override is invalid (or names no option).
        """
        known = options_by_path()
        values = dict(self.values)
        explicit = set(self.explicit)
        for key, value in overrides.items():
            path = key.path if isinstance(key, Option) else key
            if value is None:
                continue
            if path not in known:
                raise ConfigError.worded(path, f"unknown option {path}", source="command line")
            values[path] = _checked(known[path], value, "command line")
            explicit.add(path)
        config = Config(values, self.source, frozenset(explicit))
        config.check_pins()
        return config

    def check_pins(self) -> None:
        """Check no GPIO pin is used twice by the selected backends (the options declared as
        pins, of the backends ``board.sensors``/``leds``/``buttons`` name).

        Raises:
            ConfigError: naming the pin and both options.
        """
        selected = {f"{kind}:{self[f'board.{kind}']}" for kind in ("sensors", "leds", "buttons")}
        seen: dict[int, str] = {}
        for option in OPTIONS:
            if not option.pin or selected.isdisjoint(option.readers):
                continue
            value = self[option.path]
            for pin in value if isinstance(value, list) else [value]:
                if not isinstance(pin, int) or pin < 0:
                    continue
                if pin in seen:
                    raise ConfigError.worded(
                        option.path, f"GPIO pin {pin} is used twice: {seen[pin]} and "
                                     f"{option.path}", source=self.source)
                seen[pin] = option.path

    def touch_move(self) -> str:
        """The touch-move rule in force: ``auto`` resolves to strict in record mode, else off."""
        setting = self[GAME_TOUCH_MOVE]
        if setting != "auto":
            return setting
        return "strict" if self[GAME_MODE] == "record" else "off"

    def describe(self) -> dict[str, object]:
        """Every value, secrets redacted, for logs and ``--verbose`` output."""
        known = options_by_path()
        return {path: _shown(known[path], value) for path, value in self.values.items()}


def _shown(option: Option[object], value: object) -> object:
    if not option.secret:
        return value
    return redact_url(value) if isinstance(value, str) else "***"  # a secret is a URL


def _suggest(path: str) -> str:
    close = difflib.get_close_matches(path, list(options_by_path()), n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def check_variant(name: str, source: str) -> None:
    """Raise :func:`bad_variant`'s error unless ``name`` is a variant the engine knows.

    >>> check_variant("shashki", "command line")
    >>> check_variant("chess", "command line")
    Traceback (most recent call last):
    ...
    firmware_host.errors.ConfigError: command line: game.variant = 'chess': unknown variant ...
    """
    from engine.variant import find_variant  # the engine's tables: only when a command runs

    try:
        find_variant(name)
    except ValueError as exc:
        raise bad_variant(name, exc, source) from None


def bad_variant(name: str, reason: ValueError, source: str) -> ConfigError:
    """The error for a ``game.variant`` that names no variant, worded as every bad value is
    (``SOURCE: KEY = VALUE: why``); the schema cannot check it alone, the rules live in the
    engine.

    >>> print(bad_variant("chess", ValueError("unknown variant 'chess'"), "command line"))
    command line: game.variant = 'chess': unknown variant 'chess'
    """
    return ConfigError.worded(GAME_VARIANT.path, f"{GAME_VARIANT.path} = {name!r}: {reason}",
                              source=source)
