"""The reader's edge: every value the web app reads from Redis is checked here first.

Whoever can write to the boards' Redis can write anything there, so the web app trusts nothing
it reads: ids follow the configuration's rule for ``board.id`` (so no ``:`` or newline reaches a
key, a link, a header or the live feed), text is UTF-8, numbers are finite and in range, the
variant is one the engine knows, a FEN is one its board reads, header names are PDN tags and
their values one printable line. What fails a check is a :class:`BadRecord`; the reader skips
that record and tells :class:`Rejects`, which counts it and logs it once with its key and
entry id, so one corrupt record costs one line in the log and nothing else.

>>> board_id(b"board1"), game_id("20261129-183005-3fa2")
('board1', '20261129-183005-3fa2')
>>> board_id("a:b")
Traceback (most recent call last):
...
firmware_host.web.edge.BadRecord: 'a:b' is not an id (letters, digits, - and _, at most 63)
>>> number("1e308", 0, MAX_TIME)
Traceback (most recent call last):
...
firmware_host.web.edge.BadRecord: 1e+308 is not a number from 0 to 100000000000
"""

from __future__ import annotations

import json
import logging
import math
import re
import time
from collections.abc import Callable, Mapping

from engine import Board
from engine.errors import DraughtsError
from engine.outcome import RESULTS
from engine.variant import find_variant
from firmware_host.errors import DraughtsboardError
from firmware_host.store.keys import board_id_problem

__all__ = ["MAX_EVENT_BYTES", "BadRecord", "Rejects", "board_id", "check_op", "fen_text",
           "game_id", "led_frame", "load_json", "number", "square", "text"]

log = logging.getLogger(__name__)

#: The configuration's rule for ``board.id`` (config/schema.py), also used for game ids.
ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,62}")
#: PDN 3.0 tag names: a capital, then letters, digits and ``_``.
TAG_NAME = re.compile(r"[A-Z][A-Za-z0-9_]{0,39}")
#: Unix times from 1970 to year 5138: ``time.gmtime`` and the PDN Date take them all.
MAX_TIME = 1e11
#: A header value, a move's text, a short field: at most this many characters.
MAX_TEXT = 255
MAX_PLY = 100_000
#: A live event larger than this is not an event the board wrote (an LED frame is ~2 KB).
MAX_EVENT_BYTES = 64 * 1024
#: A square's name: a PDN number, or a letter and a number (``c3``).
SQUARE = re.compile(r"[0-9]{1,3}|[A-Za-z][0-9]{1,2}")
MOVE_TEXT = re.compile(rf"(?:{SQUARE.pattern})(?:[-x:×](?:{SQUARE.pattern})){{1,40}}")


#: The most squares a FEN names (a 12x12 board has 72): more is no position.
MAX_FEN_SQUARES = 144
_FEN_ITEM = re.compile(r"(K?)([0-9]{1,3}|[A-Za-z][0-9]{1,2})(?:-([0-9]{1,3}))?")


def fen_text(value: object) -> str:
    """A FEN as the live feed passes it to the page's script, which draws it: the shape of a
    PDN FEN (``W:W31-50,K12:B1-20``), at most :data:`MAX_FEN_SQUARES` squares once its ranges
    are counted out (``W1-300000000`` is no position: a browser expanding it stops).

    >>> fen_text("W:W31-50:B1-20"), fen_text("B:Wa1,c3:Bh8.")
    ('W:W31-50:B1-20', 'B:Wa1,c3:Bh8.')
    >>> fen_text("W:W1-300000000:B1")
    Traceback (most recent call last):
    ...
    firmware_host.web.edge.BadRecord: 'W:W1-300000000:B1' is not a FEN of at most 144 squares
    """
    fen = text(value, 1000)
    turn, *sides = fen.removesuffix(".").split(":")
    count = 0
    shaped = turn in ("W", "B") and len(sides) <= 2
    for side in sides if shaped else ():
        if side[:1] not in ("W", "B"):
            shaped = False
            break
        for item in filter(None, side[1:].split(",")):
            found = _FEN_ITEM.fullmatch(item)
            if found is None or (found[3] is not None and not found[2].isdigit()):
                shaped = False
                break
            first = int(found[2]) if found[2].isdigit() else 0
            count += 1 if found[3] is None else max(0, int(found[3]) - first + 1)
    if not shaped or count > MAX_FEN_SQUARES:
        raise BadRecord(f"{fen[:60]!r} is not a FEN of at most {MAX_FEN_SQUARES} squares")
    return fen


def square(value: object) -> str:
    """A square's name (``32``, ``c3``).

    >>> square("c3"), square(32)
    ('c3', '32')
    """
    name = str(value) if isinstance(value, int) and not isinstance(value, bool) else text(value)
    if not SQUARE.fullmatch(name):
        raise BadRecord(f"{name[:20]!r} is not a square")
    return name


class BadRecord(DraughtsboardError, ValueError):
    """A value read from Redis fails the edge's checks."""


class Rejects:
    """The bad records a reader skipped: counted, and said in the log at most once a minute a
    key (the first bad record of a key, then, a minute later, how many more there were), and
    at most :data:`LINES` lines a minute in all: a key of a million bad entries costs a line,
    not a million.

    >>> now = [0.0]
    >>> rejects = Rejects(clock=lambda: now[0])
    >>> [rejects.skip("k", f"{n}-0", "bad") for n in range(3)], rejects.count
    ([True, False, False], 3)
    >>> now[0] = 61.0
    >>> rejects.skip("k", "9-0", "bad"), rejects.count
    (True, 4)
    """

    #: Seconds between two lines about one key.
    EVERY_S = 60.0
    #: Lines a minute at most, whatever the number of keys.
    LINES = 20
    #: Keys remembered (then the memory starts again).
    LIMIT = 10_000

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.count = 0
        self._clock = clock
        #: key -> (when it was last said, bad records since)
        self._said: dict[str, tuple[float, int]] = {}
        self._minute = (-math.inf, 0)  # (when the minute began, lines in it)

    def skip(self, key: str, entry: str, why: object) -> bool:
        """Count the bad record ``entry`` of ``key``; True when it was said in the log."""
        self.count += 1
        now = self._clock()
        last, since = self._said.get(key, (-math.inf, 0))
        began, lines = self._minute
        if now - began >= self.EVERY_S:
            began, lines = now, 0
        if now - last < self.EVERY_S or lines >= self.LINES:
            self._said[key] = (last, since + 1)
            return False
        if len(self._said) >= self.LIMIT:
            self._said.clear()
        self._said[key] = (now, 0)
        self._minute = (began, lines + 1)
        more = f" ({since} more bad records in this key since the last line)" if since else ""
        log.warning("web: skipped a bad record: key %r entry %r: %.200s%s", key[:200],
                    entry[:100], str(why).replace("\n", " "), more)
        return True


def text(value: object, limit: int | None = None) -> str:
    """``value`` (bytes from Redis, or a str) as text: UTF-8, at most ``limit`` characters,
    printable when ``limit`` is given (one line)."""
    if isinstance(value, bytes):
        try:
            value = value.decode("utf-8")
        except UnicodeDecodeError:
            raise BadRecord(f"not UTF-8: {value[:40]!r}") from None
    if not isinstance(value, str):
        raise BadRecord(f"not text: {type(value).__name__}")
    if limit is not None and (len(value) > limit or not value.isprintable()):
        raise BadRecord(f"not one printable line of at most {limit}: {value[:40]!r}")
    return value


def game_id(value: object) -> str:
    """A game id: the configuration's rule for a board id (no ``:``, newline or space)."""
    name = text(value)
    if not ID.fullmatch(name):
        raise BadRecord(f"{name[:80]!r} is not an id (letters, digits, - and _, at most 63)")
    return name


def board_id(value: object) -> str:
    """A board id, by the configuration's rule (and not the name of a shared key)."""
    name = game_id(value)
    if board_id_problem(name) is not None:
        raise BadRecord(f"{name!r} is the name of a shared key, not a board")
    return name


def number(value: object, low: float, high: float) -> float:
    """A finite number from ``low`` to ``high``."""
    if isinstance(value, bool):
        raise BadRecord(f"{value!r} is not a number")
    try:
        result = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        raise BadRecord(f"{str(value)[:40]!r} is not a number") from None
    if not (math.isfinite(result) and low <= result <= high):
        raise BadRecord(f"{result:g} is not a number from {low:g} to {high:.0f}")
    return result


def integer(value: object, low: int, high: int) -> int:
    """An integer from ``low`` to ``high`` (a JSON int, or digits)."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise BadRecord(f"{str(value)[:40]!r} is not an integer")
    if isinstance(value, str) and not (value.isdigit() and value.isascii() and len(value) < 12):
        raise BadRecord(f"{value[:40]!r} is not an integer")
    result = int(value)
    if not low <= result <= high:
        raise BadRecord(f"{result} is not from {low} to {high}")
    return result


#: The most lit squares of an LED frame (every square of the largest board, and some).
MAX_LIT = 200


def led_frame(value: object) -> dict[str, tuple[str, str]]:
    """An LED frame (``{square: [pattern, role]}``) with what is not one left out: square
    names, a pattern and a role of at most 20 printable characters each, at most
    :data:`MAX_LIT` squares.

    >>> led_frame({"c3": ["on", "from"], "zz": ["on", "to"], "d4": ["x" * 99, "to"], "e5": 1})
    {'c3': ('on', 'from')}
    """
    if not isinstance(value, dict):
        return {}
    out: dict[str, tuple[str, str]] = {}
    for name, led in list(value.items())[:MAX_LIT]:
        try:
            if not isinstance(led, list | tuple) or len(led) != 2:
                continue
            out[square(name)] = (text(led[0], 20), text(led[1], 20))
        except BadRecord:
            continue
    return out


def _reject_constant(name: str) -> None:
    raise BadRecord(f"{name} is not JSON")


def _integer(number_text: str) -> int:
    """A JSON integer of at most 18 digits (a board writes none longer; a 400-digit one would
    reach the pages as a number no clock or time can be)."""
    if len(number_text.lstrip("-")) > 18:
        raise BadRecord(f"{number_text[:20]}... is too long an integer")
    return int(number_text)


def _finite(number_text: str) -> float:
    """A JSON number read as a float only if finite (``1e400`` overflows to infinity, which
    ``json.dumps`` writes as ``Infinity``: no browser reads that back)."""
    value = float(number_text)
    if not math.isfinite(value):
        raise BadRecord(f"{number_text[:20]} is not a finite number")
    return value


def load_json(raw: object, limit: int = MAX_EVENT_BYTES) -> object:
    """JSON read strictly: UTF-8, at most ``limit`` bytes, no NaN or Infinity (which no browser
    reads back)."""
    if isinstance(raw, bytes | str) and len(raw) > limit:
        raise BadRecord(f"{len(raw)} bytes: more than {limit}")
    source = text(raw)
    try:
        return json.loads(source, parse_constant=_reject_constant, parse_float=_finite,
                          parse_int=_integer)
    except BadRecord:
        raise
    except (ValueError, RecursionError) as exc:
        raise BadRecord(f"not JSON: {exc}") from None


def _headers(data: object) -> None:
    if not isinstance(data, dict) or len(data) > 100:
        raise BadRecord("headers: not a mapping of at most 100 tags")
    for name, value in data.items():
        if not TAG_NAME.fullmatch(name):
            raise BadRecord(f"header {name[:40]!r} is not a PDN tag name")
        if not isinstance(value, str | int | float) or isinstance(value, bool):
            raise BadRecord(f"header {name}: not a text")
        text(str(value), MAX_TEXT)


def _start(data: Mapping[str, object]) -> None:
    game_id(data.get("game_id"))
    board_id(data.get("board_id"))
    _headers(data.get("headers"))
    variant = text(data.get("variant"), 40)
    text(data.get("mode"), 40)
    number(data.get("created"), 0, MAX_TIME)
    fen = data.get("start_fen")
    try:
        find_variant(variant)
        if fen is not None:
            Board(variant, fen=text(fen, 1000))
    except (DraughtsError, ValueError) as exc:
        raise BadRecord(str(exc)) from None


def _move(data: Mapping[str, object]) -> None:
    integer(data.get("ply"), 1, MAX_PLY)
    pdn = text(data.get("pdn"), 200)
    if not MOVE_TEXT.fullmatch(pdn):
        raise BadRecord(f"{pdn[:40]!r} is not a move")
    text(data.get("fen_after"), 1000)
    number(data.get("time"), 0, MAX_TIME)
    for clock in ("clock_white", "clock_black"):
        if data.get(clock) is not None:
            number(data[clock], -1e9, 1e9)
    for key in ("origin", "destination", "by"):
        if key in data:
            text(data[key], 40)
    for key in ("path", "captures"):
        squares = data.get(key, [])
        if not isinstance(squares, list) or len(squares) > 100:
            raise BadRecord(f"{key}: not a list of squares")
        for square in squares:
            if not SQUARE.fullmatch(text(str(square), 3)):
                raise BadRecord(f"{key}: {str(square)[:10]!r} is not a square")


def check_op(fields: Mapping[str, str]) -> None:
    """Check one entry of a game's log (``op``, ``seq``, ``data``: docs/events.md) before it is
    replayed: what :func:`~firmware_host.store.records.apply_op` and the pages then read of it
    is well formed and in range.

    >>> check_op({"op": "takeback", "seq": "3", "data": '{"to_ply": "x"}'})
    Traceback (most recent call last):
    ...
    firmware_host.web.edge.BadRecord: 'x' is not an integer
    """
    integer(fields.get("seq", "0") or "0", 0, 10**9)
    op = fields.get("op")
    data = load_json(fields.get("data", ""), 1 << 20)
    if not isinstance(data, dict):
        raise BadRecord("data is not an object")
    if op == "start":
        _start(data)
    elif op == "move":
        _move(data)
    elif op == "takeback":
        integer(data.get("to_ply"), 0, MAX_PLY)
    elif op == "finish":
        if not isinstance(data.get("result"), str) or data["result"] not in RESULTS:
            raise BadRecord(f"{str(data.get('result'))[:20]!r} is not a PDN result")
        text(data.get("termination", ""), MAX_TEXT)
    elif op == "headers":
        _headers(data)
    elif op == "note":
        integer(data.get("ply", 0), 0, MAX_PLY)
        text(data.get("text", ""), MAX_TEXT)
    else:
        raise BadRecord(f"unknown operation {str(op)[:20]!r}")
