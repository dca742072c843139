"""The exceptions of :mod:`board_io`: one small tree rooted at :class:`BoardIOError`.

Example:
    >>> try:
    ...     raise LinkTimeout("no frame for 3.0 s")
    ... except TimeoutError as exc:
    ...     print(type(exc).__name__, exc)
    LinkTimeout no frame for 3.0 s
"""

from __future__ import annotations


class BoardIOError(Exception):
    """Base of every error raised by :mod:`board_io`."""


class LinkTimeout(BoardIOError, TimeoutError):
    """The link to the board (e.g. the serial microcontroller) went silent."""


class DeviceClosed(BoardIOError):
    """A sensor matrix, LED sink or button set was used after ``close()``."""


class ConfigError(BoardIOError, ValueError):
    """A configuration value is missing or wrong; ``key`` names the option (dotted path)."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key


class UnknownSquareError(BoardIOError, ValueError):
    """A square name that the layout does not have."""


class ScriptError(BoardIOError, ValueError):
    """A simulated-board script line is wrong; ``line`` is its 1-based number."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


class MissingExtraError(BoardIOError):
    """A hardware backend needs a library that is not installed.

    Example:
        >>> print(MissingExtraError("ws2812-spi", "spidev"))
        the 'ws2812-spi' backend needs the 'spidev' package: pip install 'draughtsboard[pi]'
    """

    def __init__(self, backend: str, package: str, extra: str = "pi") -> None:
        super().__init__(
            f"the {backend!r} backend needs the {package!r} package: "
            f"pip install 'draughtsboard[{extra}]'"
        )
        self.backend = backend
        self.package = package
        self.extra = extra
