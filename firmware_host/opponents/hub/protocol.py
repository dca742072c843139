"""Hub protocol messages (version 2, the protocol of the Scan draughts engine): parse and format.

The Hub protocol is line based. Every line is ``<command> <arg>=<val> <arg>=<val> ...``; a value
is double-quoted when it holds a blank, ``=`` or nothing at all, and an argument without ``=<val>``
is a flag. This module only turns lines into typed messages and back (pure: no processes, no
engine); moves, positions and scores on the wire are in
:mod:`firmware_host.opponents.hub.notation`, the process client in ``client.py``, the server in
``server.py``.

>>> msg = parse_line('param name=variant value=normal type=enum values="normal losing"')
>>> msg.command, msg.get("values")
('param', 'normal losing')
>>> message("level", move_time=1.5).format()
'level move-time=1.5'
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from firmware_host.errors import DraughtsboardError

__all__ = [
    "Done",
    "HubMessage",
    "HubProtocolError",
    "Level",
    "ParamSpec",
    "SearchInfo",
    "format_line",
    "message",
    "parse_line",
]

_BLANKS = frozenset(" \t\n\v\f\r")


class HubProtocolError(DraughtsboardError, ValueError):
    """A Hub line, position or move that does not follow the protocol.

    >>> parse_line('pos pos="Wbb')
    Traceback (most recent call last):
    ...
    firmware_host.opponents.hub.protocol.HubProtocolError: missing closing quote after column 9: 'pos pos="Wbb'
    """  # noqa: E501


def _is_id(char: str) -> bool:
    # A name character as Scan reads it: printable, not blank, not '=' nor '"'.
    return not (ord(char) < 32 or ord(char) == 127 or char in _BLANKS or char in '="')


def _is_name(text: str) -> bool:
    return bool(text) and all(_is_id(c) for c in text)


@dataclass(frozen=True)
class HubMessage:
    """One Hub line: a command and its arguments in order (``None`` marks a flag without value).

    >>> HubMessage("done", (("move", "32-28"), ("ponder", "17-22"))).format()
    'done move=32-28 ponder=17-22'
    """

    command: str
    args: tuple[tuple[str, str | None], ...] = ()

    def get(self, name: str, default: str | None = None) -> str | None:
        """Return the last value given for ``name`` (``""`` for a flag), else ``default``."""
        for key, value in reversed(self.args):
            if key == name:
                return "" if value is None else value
        return default

    def require(self, name: str) -> str:
        """Return the value of ``name``.

        Raises:
            HubProtocolError: the argument is missing.
        """
        value = self.get(name)
        if value is None:
            raise HubProtocolError(f"{self.command!r} line lacks {name}=...: {self.format()!r}")
        return value

    def __contains__(self, name: object) -> bool:
        return any(key == name for key, _ in self.args)

    def format(self) -> str:
        """Return the line (without newline), quoting values as needed.

        Raises:
            HubProtocolError: a name or value cannot be written on one Hub line.
        """
        return format_line(self.command, self.args)

    def __str__(self) -> str:
        return self.format()


def message(command: str, *flags: str, **args: object) -> HubMessage:
    """Build a message; in keywords ``_`` stands for ``-`` (``move_time`` is ``move-time``).

    Values are written as Hub text: ``True`` -> ``true``, floats without exponent. ``None`` values
    are left out, so optional arguments can be passed straight through.

    >>> message("go", "think").format()
    'go think'
    >>> message("info", depth=3, pv=None).format()
    'info depth=3'
    """
    pairs: list[tuple[str, str | None]] = [(flag, None) for flag in flags]
    pairs += [(k.replace("_", "-"), _value_text(v)) for k, v in args.items() if v is not None]
    return HubMessage(command, tuple(pairs))


def _value_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        text = f"{value:.6f}".rstrip("0")
        return text + "0" if text.endswith(".") else text
    return str(value)


def format_line(command: str, args: Iterable[tuple[str, str | None]] = ()) -> str:
    """Format a Hub line from a command and ``(name, value)`` pairs (value ``None``: a flag).

    >>> format_line("id", [("author", "F. L.")])
    'id author="F. L."'

    Raises:
        HubProtocolError: the command or a name is not a Hub name, or a value holds ``"`` or a
            control character (the protocol has no escapes).
    """
    if not _is_name(command):
        raise HubProtocolError(f"not a Hub command name: {command!r}")
    parts = [command]
    for name, value in args:
        if not _is_name(name):
            raise HubProtocolError(f"not a Hub argument name: {name!r}")
        if value is None:
            parts.append(name)
        elif _is_name(value):
            parts.append(f"{name}={value}")
        elif '"' in value or any(ord(c) < 32 and c != "\t" for c in value):
            raise HubProtocolError(f"value of {name} cannot be sent over Hub: {value!r}")
        else:
            parts.append(f'{name}="{value}"')
    return " ".join(parts)


class _Scanner:
    """Reads names and values from one line the way Scan's own reader does."""

    def __init__(self, line: str) -> None:
        self.line = line
        self.pos = 0

    def at_end(self) -> bool:
        while self.pos < len(self.line) and self.line[self.pos] in _BLANKS:
            self.pos += 1
        return self.pos >= len(self.line)

    def name(self) -> str:
        self.at_end()
        start = self.pos
        while self.pos < len(self.line) and _is_id(self.line[self.pos]):
            self.pos += 1
        if self.pos == start:
            found = self.line[self.pos] if self.pos < len(self.line) else "end of line"
            raise HubProtocolError(f"expected a name at column {self.pos + 1}, found "
                                   f"{found!r}: {self.line!r}")
        return self.line[start:self.pos]

    def value(self) -> str:
        self.at_end()
        if self.pos < len(self.line) and self.line[self.pos] == '"':
            end = self.line.find('"', self.pos + 1)
            if end < 0:
                raise HubProtocolError(f"missing closing quote after column {self.pos + 1}: "
                                       f"{self.line!r}")
            text = self.line[self.pos + 1:end]
            self.pos = end + 1
            return text
        return self.name()

    def pair(self) -> tuple[str, str | None]:
        key = self.name()
        if self.at_end() or self.line[self.pos] != "=":
            return key, None
        self.pos += 1
        return key, self.value()


def parse_line(line: str) -> HubMessage:
    """Parse one Hub line (a trailing newline is fine).

    >>> parse_line("go think")
    HubMessage(command='go', args=(('think', None),))

    Raises:
        HubProtocolError: empty line, a missing name, or an unterminated quoted value.
    """
    scanner = _Scanner(line)
    if scanner.at_end():
        raise HubProtocolError("empty Hub line")
    command = scanner.name()
    args: list[tuple[str, str | None]] = []
    while not scanner.at_end():
        args.append(scanner.pair())
    return HubMessage(command, tuple(args))


def _number(msg: HubMessage, name: str, kind: type[int] | type[float]) -> int | float | None:
    text = msg.get(name)
    if text is None:
        return None
    try:
        value = kind(text)
    except ValueError:
        raise HubProtocolError(f"{name}={text!r} is not a number: {msg.format()!r}") from None
    if not math.isfinite(value):  # nan, inf, 1e999: no search ends on them
        raise HubProtocolError(f"{name}={text!r} is not a finite number: {msg.format()!r}")
    return value


@dataclass(frozen=True)
class ParamSpec:
    """An engine parameter as declared by ``param`` (``type``: bool, int, real, string or enum).

    >>> ParamSpec.from_message(parse_line("param name=book value=true type=bool")).value
    'true'
    """

    name: str
    value: str = ""
    type: str = "string"
    min: str | None = None
    max: str | None = None
    values: tuple[str, ...] = ()

    @classmethod
    def from_message(cls, msg: HubMessage) -> ParamSpec:
        """Read a ``param`` line.

        Raises:
            HubProtocolError: no ``name``.
        """
        values = tuple((msg.get("values") or "").split())
        return cls(msg.require("name"), msg.get("value") or "", msg.get("type") or "string",
                   msg.get("min"), msg.get("max"), values)

    def problem(self, value: str) -> str | None:
        """What ``value`` must be to fit the declared type, or None when it fits.

        >>> spec = ParamSpec("threads", "1", "int", "1", "16")
        >>> spec.problem("4") is None, spec.problem("99")
        (True, 'an integer in [1, 16]')
        """
        if self.type == "enum" and self.values and value not in self.values:
            return f"one of {', '.join(self.values)}"
        if self.type == "bool" and value not in ("true", "false"):
            return "true or false"
        if self.type not in ("int", "real"):
            return None
        try:
            number = int(value) if self.type == "int" else float(value)
            low = float(self.min) if self.min is not None else None
            high = float(self.max) if self.max is not None else None
        except ValueError:
            number, low, high = None, None, None
        if number is None or (low is not None and number < low) or (
                high is not None and number > high):
            kind = "an integer" if self.type == "int" else "a number"
            return f"{kind} in [{self.min}, {self.max}]"
        return None

    def to_message(self) -> HubMessage:
        """Return the ``param`` line that declares this parameter."""
        values = " ".join(self.values) if self.values else None
        return message("param", name=self.name, value=self.value, type=self.type,
                       min=self.min, max=self.max, values=values)


@dataclass(frozen=True)
class Level:
    """A search limit as sent by ``level`` (seconds; ``time`` is the time left on the clock).

    >>> Level.from_message(parse_line("level move-time=2")).move_time
    2.0
    """

    depth: int | None = None
    nodes: int | None = None
    move_time: float | None = None
    moves: int | None = None
    time: float | None = None
    inc: float | None = None
    infinite: bool = False

    @classmethod
    def from_message(cls, msg: HubMessage) -> Level:
        """Read a ``level`` line.

        Raises:
            HubProtocolError: a value is not a number or is negative.
        """
        level = cls(
            depth=_int_or_none(_number(msg, "depth", int)),
            nodes=_int_or_none(_number(msg, "nodes", int)),
            move_time=_float_or_none(_number(msg, "move-time", float)),
            moves=_int_or_none(_number(msg, "moves", int)),
            time=_float_or_none(_number(msg, "time", float)),
            inc=_float_or_none(_number(msg, "inc", float)),
            infinite="infinite" in msg,
        )
        numbers = (level.depth, level.nodes, level.move_time, level.moves, level.time, level.inc)
        if any(n is not None and n < 0 for n in numbers):
            raise HubProtocolError(f"negative level: {msg.format()!r}")
        return level

    def to_message(self) -> HubMessage:
        """Return the ``level`` line."""
        flags = ("infinite",) if self.infinite else ()
        return message("level", *flags, depth=self.depth, nodes=self.nodes,
                       move_time=self.move_time, moves=self.moves, time=self.time, inc=self.inc)


def _int_or_none(value: int | float | None) -> int | None:
    return None if value is None else int(value)


def _float_or_none(value: int | float | None) -> float | None:
    return None if value is None else float(value)


@dataclass(frozen=True)
class Done:
    """The answer to ``go``: the move (Hub text; None when there is none) and the expected reply.

    >>> Done.from_message(parse_line("done move=32-28 ponder=17-22"))
    Done(move='32-28', ponder='17-22')
    >>> Done().to_message().format()                  # no position, or no legal move
    'done'
    """

    move: str | None = None
    ponder: str | None = None

    @classmethod
    def from_message(cls, msg: HubMessage) -> Done:
        """Read a ``done`` line (an empty ``move=`` is no move)."""
        return cls(msg.get("move") or None, msg.get("ponder") or None)

    def to_message(self) -> HubMessage:
        """Return the ``done`` line."""
        return message("done", move=self.move, ponder=self.ponder)


@dataclass(frozen=True)
class SearchInfo:
    """Progress reported by ``info`` (score in men, time in seconds, nps in millions as Scan sends).

    Fields the engine left out, or wrote unreadably, are ``None``: ``info`` is advisory only.

    >>> SearchInfo.from_message(parse_line("info depth=3 score=0.5")).depth
    3
    """

    depth: int | None = None
    mean_depth: float | None = None
    score: float | None = None
    nodes: int | None = None
    time: float | None = None
    nps: float | None = None
    pv: tuple[str, ...] = ()

    @classmethod
    def from_message(cls, msg: HubMessage) -> SearchInfo:
        """Read an ``info`` line; never raises."""

        def number(name: str, kind: type[int] | type[float]) -> int | float | None:
            try:
                return _number(msg, name, kind)
            except HubProtocolError:
                return None

        return cls(
            depth=_int_or_none(number("depth", int)),
            mean_depth=_float_or_none(number("mean-depth", float)),
            score=_float_or_none(number("score", float)),
            nodes=_int_or_none(number("nodes", int)),
            time=_float_or_none(number("time", float)),
            nps=_float_or_none(number("nps", float)),
            pv=tuple((msg.get("pv") or "").split()),
        )

    def to_message(self) -> HubMessage:
        """Return the ``info`` line."""
        return message("info", depth=self.depth, mean_depth=self.mean_depth, score=self.score,
                       nodes=self.nodes, time=self.time, nps=self.nps,
                       pv=" ".join(self.pv) if self.pv else None)
