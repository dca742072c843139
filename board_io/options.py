"""One declaration per configuration key, and the one way to read a key through it.

An :class:`Option` declares a key once: its dotted path, TOML type, default, allowed values
(choices or a range), documentation, whether it is a secret, and which backends read it.
:meth:`Option.validate` is the only validation there is: ``firmware_host``'s configuration
loader checks a file with it, and a backend reads its keys with :func:`read`, which validates
again, so a value that reaches a backend has always been checked, and a plain ``dict`` works as
a configuration in tests (a missing key takes the declaration's default).

The declarations of the keys board_io reads are in :mod:`board_io.schema` (and the backend
names in :mod:`board_io.registry`); ``firmware_host.config.schema`` adds the service's own.

Example:
    >>> STUCK = Option("timing.stuck_ms", "int", 3000, "Flapping this long is a fault.",
    ...                minimum=100, maximum=600_000)
    >>> read({"timing.stuck_ms": 500}, STUCK), read({}, STUCK)
    (500, 3000)
    >>> read({"timing.stuck_ms": 0}, STUCK)
    Traceback (most recent call last):
    ...
    board_io.errors.ConfigError: timing.stuck_ms = 0 is below 100
    >>> STUCK.allowed()
    '100..600000'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, TypeVar, cast

from board_io.errors import ConfigError

__all__ = ["KINDS", "ConfigSource", "Kind", "Option", "read"]

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)

Kind = Literal["str", "int", "float", "bool", "list[int]", "list[str]", "table"]
"""The TOML type of an option; ``table`` is a table of strings, numbers and booleans."""

KINDS: Mapping[str, str] = {
    "str": "a string",
    "int": "an integer",
    "float": "a number",
    "bool": "true or false",
    "list[int]": "a list of integers",
    "list[str]": "a list of strings",
    "table": "a table of strings, numbers or booleans",
}
"""Each kind, as a message names it."""


class ConfigSource(Protocol):
    """A flat configuration: ``config["section.key"]``, ``KeyError`` when absent."""

    def __getitem__(self, key: str, /) -> Any: ...


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Option(Generic[T_co]):
    """One configuration key, declared once.

    ``readers`` says who reads the key: ``"<kind>:<backend>"`` for a backend
    (``sensors:gpio-matrix``, ``leds:ws2812-spi``, ``buttons:gpio``), or a part's name
    (``scanner``, ``registry``, ``service``). ``pin``: the value names GPIO pins (checked for
    use twice among the selected backends). ``default_factory`` computes a default that depends
    on the machine, ``default_doc`` says in words what it is. ``check`` is a further test of a
    well-typed value: it returns what is wrong, as words that follow the key (``"must name a
    host"``), or None.
    """

    path: str
    kind: Kind
    default: T_co
    doc: str
    choices: tuple[T_co, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    secret: bool = False
    readers: tuple[str, ...] = ()
    pin: bool = False
    default_doc: str | None = None
    default_factory: Callable[[], T_co] | None = None
    check: Callable[[Any], str | None] | None = None

    def __hash__(self) -> int:
        """By the dotted path (a default may be a list): an option keys a mapping of values."""
        return hash(self.path)

    @property
    def section(self) -> str:
        """The TOML table: ``timing`` for ``timing.stuck_ms``."""
        return self.path.partition(".")[0]

    @property
    def key(self) -> str:
        """The key inside its table: ``stuck_ms`` for ``timing.stuck_ms``."""
        return self.path.partition(".")[2]

    def default_value(self) -> T_co:
        """The default, computed for this machine where it depends on it (a fresh copy of a
        list or table, so a caller may change it)."""
        if self.default_factory is not None:
            return self.default_factory()
        if isinstance(self.default, list | dict):
            return cast(T_co, self.default.copy())
        return self.default

    def allowed(self) -> str:
        """The allowed values in words: ``"one of: a, b"``, ``"0..1000"``, ``"0 or more"``, or
        ``""`` when the type says it all."""
        if self.choices is not None:
            return "one of: " + ", ".join(str(c) for c in self.choices)
        low, high = self.minimum, self.maximum
        if low is not None and high is not None:
            return f"{_number(low)}..{_number(high)}"
        if low is not None:
            return f"{_number(low)} or more"
        if high is not None:
            return f"{_number(high)} or less"
        return ""

    def validate(self, value: object) -> T_co:
        """Return ``value`` checked against the declaration (an integer given for a float
        becomes a float, a list a fresh list).

        Raises:
            ConfigError: the wrong type, a number that is not finite, not one of the choices, out
                of range, or refused by ``check``; the message names the key (list entries
                by index) and never shows a secret.
        """
        checked = self._typed(value)
        if self.choices is not None and checked not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise ConfigError.worded(
                self.path, f"{self.path} = {checked!r} is not one of: {allowed}")
        items = checked if isinstance(checked, list) else [checked]
        for i, item in enumerate(items):
            if isinstance(item, int | float) and not isinstance(item, bool):
                where = f"{self.path}[{i}]" if isinstance(checked, list) else self.path
                self._in_range(where, item)
        result = cast(T_co, checked)
        if self.check is not None and (problem := self.check(result)) is not None:
            raise ConfigError.worded(self.path, f"{self.path} {problem}")
        return result

    def _wrong(self, where: str, expected: str, value: object) -> ConfigError:
        shown = "***" if self.secret else repr(value)
        return ConfigError.worded(where, f"{where} must be {expected}, not {shown}")

    def _typed(self, value: object) -> object:
        kind = self.kind
        if kind in ("list[int]", "list[str]"):
            if isinstance(value, str | bytes) or not isinstance(value, Sequence):
                raise self._wrong(self.path, KINDS[kind], value)
            item_kind = "int" if kind == "list[int]" else "str"
            return [self._scalar(f"{self.path}[{i}]", item_kind, item)
                    for i, item in enumerate(value)]
        if kind == "table":
            if not isinstance(value, Mapping) or not all(
                    isinstance(k, str) and isinstance(v, str | int | float)
                    for k, v in value.items()):
                raise self._wrong(self.path, KINDS[kind], value)
            for name, item in value.items():
                if isinstance(item, float) and not math.isfinite(item):
                    where = f"{self.path}.{name}"
                    raise ConfigError.worded(
                        where, f"{where} must be a finite number, not {item!r}")
            return dict(value)
        return self._scalar(self.path, kind, value)

    def _scalar(self, where: str, kind: str, value: object) -> object:
        if kind == "int" and _is_int(value):
            return value
        if kind == "float" and (_is_int(value) or isinstance(value, float)):
            number = float(cast(float, value))
            if not math.isfinite(number):
                raise ConfigError.worded(where, f"{where} must be a finite number, not {value!r}")
            return number
        if (kind == "str" and isinstance(value, str)) or (
                kind == "bool" and isinstance(value, bool)):
            return value
        raise self._wrong(where, KINDS[kind], value)

    def _in_range(self, where: str, value: float) -> None:
        if self.minimum is not None and value < self.minimum:
            raise ConfigError.worded(where, f"{where} = {value!r} is below "
                                            f"{_number(self.minimum)}")
        if self.maximum is not None and value > self.maximum:
            raise ConfigError.worded(where, f"{where} = {value!r} is above "
                                            f"{_number(self.maximum)}")


def read(config: ConfigSource, option: Option[T]) -> T:
    """Return the value of ``option`` in ``config``, validated; its default when absent.

    Example:
        >>> RGB = Option("board.rgb", "bool", False, "The LEDs show colours.")
        >>> read({}, RGB), read({"board.rgb": True}, RGB)
        (False, True)

    Raises:
        ConfigError: the value is not valid for the declaration.
    """
    try:
        value = config[option.path]
    except KeyError:
        return option.default_value()
    return option.validate(value)
