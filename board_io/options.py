"""Reading typed options from a flat configuration (dotted keys), with errors naming the key.

The configuration is anything indexable by dotted path that raises ``KeyError`` for a missing
key: a ``dict`` or ``firmware_host.config.Config``. A missing key takes the default given here.

Example:
    >>> config = {"timing.debounce_ms": 30, "board.rgb": "yes"}
    >>> int_option(config, "timing.debounce_ms", 20, minimum=0)
    30
    >>> int_option(config, "timing.stuck_ms", 3000)
    3000
    >>> bool_option(config, "board.rgb", False)
    Traceback (most recent call last):
    ...
    board_io.errors.ConfigError: board.rgb: expected true or false, got 'yes'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from board_io.errors import ConfigError


class ConfigSource(Protocol):
    """A flat configuration: ``config["section.key"]``, ``KeyError`` when absent."""

    def __getitem__(self, key: str, /) -> Any: ...


def option(config: ConfigSource, key: str, default: Any) -> Any:
    """Return ``config[key]``, or ``default`` when the key is absent."""
    try:
        return config[key]
    except KeyError:
        return default


def _range(key: str, value: float, minimum: float | None, maximum: float | None) -> None:
    if minimum is not None and value < minimum:
        raise ConfigError(key, f"{value} is below the minimum {minimum}")
    if maximum is not None and value > maximum:
        raise ConfigError(key, f"{value} is above the maximum {maximum}")


def int_option(config: ConfigSource, key: str, default: int, *, minimum: int | None = None,
               maximum: int | None = None) -> int:
    """Return an integer option.

    Raises:
        ConfigError: not an integer, or out of range.
    """
    value = option(config, key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(key, f"expected a whole number, got {value!r}")
    _range(key, value, minimum, maximum)
    return value


def float_option(config: ConfigSource, key: str, default: float, *,
                 minimum: float | None = None, maximum: float | None = None) -> float:
    """Return a number option (integers accepted).

    Raises:
        ConfigError: not a number, or out of range.
    """
    value = option(config, key, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(key, f"expected a number, got {value!r}")
    _range(key, value, minimum, maximum)
    return float(value)


def bool_option(config: ConfigSource, key: str, default: bool) -> bool:
    """Return a boolean option.

    Raises:
        ConfigError: not ``true``/``false``.
    """
    value = option(config, key, default)
    if not isinstance(value, bool):
        raise ConfigError(key, f"expected true or false, got {value!r}")
    return value


def str_option(config: ConfigSource, key: str, default: str, *,
               choices: Sequence[str] | None = None) -> str:
    """Return a string option, optionally one of ``choices``.

    Raises:
        ConfigError: not a string, or not one of the choices (the message lists them).
    """
    value = option(config, key, default)
    if not isinstance(value, str):
        raise ConfigError(key, f"expected a string, got {value!r}")
    if choices is not None and value not in choices:
        raise ConfigError(key, f"{value!r} is not one of: {', '.join(choices)}")
    return value


def int_list_option(config: ConfigSource, key: str, default: Sequence[int], *,
                    minimum: int | None = None, maximum: int | None = None) -> list[int]:
    """Return a list-of-integers option.

    Raises:
        ConfigError: not a list of whole numbers, or an entry out of range (named by index).
    """
    value = option(config, key, default)
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise ConfigError(key, f"expected a list of whole numbers, got {value!r}")
    result = []
    for i, item in enumerate(value):
        result.append(int_option({f"{key}[{i}]": item}, f"{key}[{i}]", 0, minimum=minimum,
                                 maximum=maximum))
    return result
