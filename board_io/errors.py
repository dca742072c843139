"""The exceptions of :mod:`board_io`: one small tree rooted at :class:`BoardIOError`.

Example:
    >>> try:
    ...     raise LinkTimeout("no frame for 3.0 s")
    ... except TimeoutError as exc:
    ...     print(type(exc).__name__, exc)
    LinkTimeout no frame for 3.0 s
"""

from __future__ import annotations

from typing import Self


class BoardIOError(Exception):
    """Base of every error raised by :mod:`board_io`."""


class LinkTimeout(BoardIOError, TimeoutError):
    """The link to the board (e.g. the serial microcontroller) went silent."""


class DeviceClosed(BoardIOError):
    """A sensor matrix, LED sink or button set was used after ``close()``."""


class ConfigProblem(ValueError):
    """A configuration value is missing or wrong, said with its key and its file: what
    board_io's :class:`ConfigError` and the service's share (the service has its own, under its
    own root).

    ``ConfigProblem(key, message)`` reads ``"key: message"``; ``ConfigProblem(message)`` carries
    no key (a file that cannot be read). :meth:`worded` takes a sentence that already names the
    key where it reads best. :meth:`in_file` adds the file (``source``) in front, once.
    ``key`` names the option (dotted path, ``[i]`` for a list entry), ``source`` the file.

    Example:
        >>> print(ConfigError("timing.stuck_ms", "must be 100..600000").in_file("board.toml"))
        board.toml: timing.stuck_ms: must be 100..600000
        >>> error = ConfigError.worded("leds.brightness", "leds.brightness = 2.0 is above 1")
        >>> error.key, str(error)
        ('leds.brightness', 'leds.brightness = 2.0 is above 1')
    """

    def __init__(self, key_or_message: str, message: str | None = None, *,
                 source: str | None = None) -> None:
        if message is None:
            self.key: str | None = None
            self.text = key_or_message
        else:
            self.key = key_or_message
            self.text = f"{key_or_message}: {message}"
        self.source = source
        super().__init__(self.text if source is None else f"{source}: {self.text}")

    @classmethod
    def worded(cls, key: str | None, text: str, *, source: str | None = None) -> Self:
        """An error about ``key`` whose ``text`` names the key itself."""
        error = cls(text, source=source)
        error.key = key
        return error

    def in_file(self, source: str) -> Self:
        """This error with ``source`` (the file, or ``command line``) in front; unchanged if it
        already names one."""
        if self.source is not None:
            return self
        return type(self).worded(self.key, self.text, source=source)


class ConfigError(BoardIOError, ConfigProblem):
    """A value of a key board_io reads is missing or wrong (see :class:`ConfigProblem`)."""


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
