"""Hub protocol messages (version 2, the protocol of the Scan draughts engine): parse and format.

The Hub protocol is line based. Every line is ``<command> <arg>=<val> <arg>=<val> ...``; a value
is double-quoted when it holds a blank, ``=`` or nothing at all, and an argument without ``=<val>``
is a flag. This module only turns lines into values and back; the process client and the server
live in ``firmware_host``.

    >>> msg = parse_line('param name=variant value=normal type=enum values="normal killer"')
    >>> msg.command, msg.get("values")
    ('param', 'normal killer')
    >>> message("level", move_time=1.5).format()
    'level move-time=1.5'

Squares on the wire are numbered ``1 .. n`` (the PDN numbers of the numeric variants; for the
other variants the engine's own square order): square ``k`` is index ``k - 1``. Positions are one
character for the side to move (``W``/``B``) then one per square: ``w``/``b`` men, ``W``/``B``
kings, ``e`` empty.
Moves are ``from-to`` or ``fromxto`` followed by ``x<captured>`` for every captured piece.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from engine import WHITE, Board, Move, Variant, find_variant
from engine.search import WIN, WIN_BOUND

__all__ = [
    "HUB_VARIANTS",
    "HubMessage",
    "HubMove",
    "HubProtocolError",
    "Level",
    "ParamSpec",
    "SearchInfo",
    "board_from_hub",
    "board_from_pos",
    "board_to_hub",
    "format_line",
    "hub_variant_name",
    "message",
    "move_from_hub",
    "move_to_hub",
    "parse_hub_move",
    "parse_line",
    "pos_message",
    "score_from_hub",
    "score_to_hub",
    "variant_from_hub",
]

#: Hub variant names (those Scan declares) -> our variant name, or ``None`` when we lack the rules.
HUB_VARIANTS: Mapping[str, str | None] = MappingProxyType(
    {
        "normal": "international",
        "killer": "killer",
        "bt": None,  # breakthrough: the first king wins
        "frisian": "frisian",
        "losing": "international-giveaway",
    }
)

_BLANKS = frozenset(" \t\n\v\f\r")
_SIDES = "WB"
_PIECE_CHARS = "wbWB"  # indexed by 2 * king + colour


class HubProtocolError(ValueError):
    """A Hub line, position or move that does not follow the protocol.

    Example: ``parse_line('pos pos="Wbb')`` raises it (missing closing quote).
    """


def _is_id(char: str) -> bool:
    # A name character as Scan reads it: printable, not blank, not '=' nor '"'.
    return not (ord(char) < 32 or ord(char) == 127 or char in _BLANKS or char in '="')


def _is_name(text: str) -> bool:
    return bool(text) and all(_is_id(c) for c in text)


@dataclass(frozen=True)
class HubMessage:
    """One Hub line: a command and its arguments in order (``None`` marks a flag without value).

    Example::

        HubMessage("done", (("move", "32-28"), ("ponder", "17-22"))).format()
        # 'done move=32-28 ponder=17-22'
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

    Example: ``message("go", "think").format() == "go think"``.
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

    Example: ``format_line("id", [("author", "F. L.")]) == 'id author="F. L."'``.

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

    Example: ``parse_line("go think") == HubMessage("go", (("think", None),))``.

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
        return kind(text)
    except ValueError:
        raise HubProtocolError(f"{name}={text!r} is not a number: {msg.format()!r}") from None


@dataclass(frozen=True)
class ParamSpec:
    """An engine parameter as declared by ``param`` (``type``: bool, int, real, string or enum).

    Example: ``ParamSpec.from_message(parse_line("param name=book value=true type=bool")).value``
    is ``"true"``.
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

    def to_message(self) -> HubMessage:
        """Return the ``param`` line that declares this parameter."""
        values = " ".join(self.values) if self.values else None
        return message("param", name=self.name, value=self.value, type=self.type,
                       min=self.min, max=self.max, values=values)


@dataclass(frozen=True)
class Level:
    """A search limit as sent by ``level`` (seconds; ``time`` is the time left on the clock).

    Example: ``Level.from_message(parse_line("level move-time=2")).move_time == 2.0``.
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
class SearchInfo:
    """Progress reported by ``info`` (score in men, time in seconds, nps in millions as Scan sends).

    Fields the engine left out, or wrote unreadably, are ``None``: ``info`` is advisory only.

    Example: ``SearchInfo.from_message(parse_line("info depth=3 score=0.5")).depth == 3``.
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


# -- scores ------------------------------------------------------------------------------------

#: Scan's scores are in men; a win in ``n`` plies is ``100 - n / 100`` (its ``Inf`` is 10,000).
_HUB_WIN = 10_000


def score_to_hub(score: int) -> float:
    """Our score (hundredths of a man, wins ``WIN - plies``) as a Hub ``score`` (men, Scan's wins).

    Example: ``score_to_hub(-37) == -0.37``; a win in 3 plies gives ``99.97``.
    """
    if abs(score) > WIN_BOUND:
        plies = WIN - abs(score)
        return (_HUB_WIN - plies) / 100 * (1 if score > 0 else -1)
    return score / 100


def score_from_hub(value: float) -> int:
    """A Hub ``score`` (men) as ours: beyond 90 men it is Scan's forced win in ``n`` plies.

    Example: ``score_from_hub(0.25) == 25`` and ``score_from_hub(99.97) == WIN - 3``.
    """
    hundredths = round(value * 100)
    if abs(hundredths) > _HUB_WIN - 1_000:
        plies = max(0, _HUB_WIN - abs(hundredths))
        return (WIN - plies) * (1 if hundredths > 0 else -1)
    return hundredths


# -- moves -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HubMove:
    """A Hub move read without a position: squares as indices (``0 .. n-1``).

    Example: ``parse_hub_move("28x19x23") == HubMove(27, 18, frozenset({22}), True)``.
    """

    origin: int
    destination: int
    captures: frozenset[int] = field(default_factory=frozenset)
    is_capture: bool = False


def parse_hub_move(text: str, num_squares: int = 50) -> HubMove:
    """Read a Hub move: ``32-28``, ``28x19x23`` (captured pieces in any order).

    Raises:
        HubProtocolError: not a Hub move, a square outside ``1 .. num_squares``, or a quiet move
            (``-``) that lists captured pieces.
    """
    quiet = "-" in text
    parts = text.split("-" if quiet else "x")
    if len(parts) < 2 or (quiet and len(parts) != 2):
        raise HubProtocolError(f"not a Hub move: {text!r}")
    squares: list[int] = []
    for part in parts:
        if not part.isdigit() or not part.isascii() or not 1 <= int(part) <= num_squares:
            raise HubProtocolError(f"bad square {part!r} in Hub move {text!r} "
                                   f"(squares are 1..{num_squares})")
        squares.append(int(part) - 1)
    captures = frozenset(squares[2:])
    if len(captures) != len(squares) - 2:
        raise HubProtocolError(f"a piece is captured twice in Hub move {text!r}")
    return HubMove(squares[0], squares[1], captures, not quiet)


def move_to_hub(move: Move) -> str:
    """Return the Hub text of a move; captured squares in ascending order, as Scan writes them.

    Example: ``move_to_hub(board.parse_move("32-28")) == "32-28"``.
    """
    if not move.captures:
        return f"{move.origin + 1}-{move.destination + 1}"
    squares = [move.origin, move.destination, *sorted(move.captures)]
    return "x".join(str(sq + 1) for sq in squares)


def move_from_hub(board: Board, text: str) -> Move:
    """Return the legal move of ``board`` that the Hub text names.

    A capture that lists no captured pieces (``28x19``) is accepted when only one capture joins
    those squares.

    Example: ``move_from_hub(Board("international"), "32-28")``.

    Raises:
        HubProtocolError: the text is not a Hub move, or names a capture that is not one.
        IllegalMoveError: no legal move matches (both are ``ValueError``).
        AmbiguousMoveError: several legal moves match.
    """
    hub = parse_hub_move(text, board.variant.num_squares)
    captured = hub.captures if hub.captures else None
    move = board.find_move(hub.origin, hub.destination, captured=captured)
    if move.is_capture != hub.is_capture:
        kind = "a capture" if move.is_capture else "not a capture"
        raise HubProtocolError(f"Hub move {text!r} is {kind} in {board.fen()}")
    return move


# -- positions ---------------------------------------------------------------------------------


def board_to_hub(board: Board) -> str:
    """Return the Hub position of ``board``: side to move, then one character per square.

    Example: ``board_to_hub(Board("international")) == "W" + "b" * 20 + "e" * 10 + "w" * 20``.
    """
    chars = ["W" if board.turn == WHITE else "B"]
    for sq in range(board.variant.num_squares):
        piece = board.piece_at(sq)
        chars.append("e" if piece is None else _PIECE_CHARS[2 * piece.king + int(piece.color)])
    return "".join(chars)


def board_from_hub(text: str, variant: Variant | str = "international") -> Board:
    """Return a board (empty move stack) set up from a Hub position.

    Example: ``board_from_hub("W" + "b" * 20 + "e" * 10 + "w" * 20).fen()``.

    Raises:
        HubProtocolError: wrong length, an unknown character, or a position the rules reject.
    """
    var = find_variant(variant) if isinstance(variant, str) else variant
    if len(text) != var.num_squares + 1:
        raise HubProtocolError(f"Hub position for {var.name} needs {var.num_squares + 1} "
                               f"characters, got {len(text)}: {text!r}")
    if text[0] not in _SIDES:
        raise HubProtocolError(f"Hub position must start with W or B: {text!r}")
    lists: dict[str, list[str]] = {"W": [], "B": []}
    for sq, char in enumerate(text[1:]):
        if char == "e":
            continue
        if char not in _PIECE_CHARS:
            raise HubProtocolError(f"bad character {char!r} for square {sq + 1} in {text!r}")
        side = "W" if char in "wW" else "B"
        lists[side].append(("K" if char.isupper() else "") + var.square_name(sq))
    fen = f"{text[0]}:W{','.join(lists['W'])}:B{','.join(lists['B'])}"
    try:
        return Board(var.name, fen=fen)
    except ValueError as exc:
        raise HubProtocolError(f"Hub position {text!r} rejected: {exc}") from exc


def pos_message(board: Board) -> HubMessage:
    """Return the ``pos`` line for ``board``: the position after its last irreversible move plus the
    reversible king moves since, so the engine can see repetitions (what the Hub GUI sends).

    Example: ``pos_message(Board()).format()`` is ``"pos pos=Wbbb...www"``.
    """
    root = board.copy()
    moves: list[Move] = []
    while root.move_stack:
        last = root.move_stack[-1]
        piece = root.piece_at(last.destination)
        if last.captures or last.promotes or piece is None or not piece.king:
            break
        moves.append(root.pop())
    moves.reverse()
    text = " ".join(move_to_hub(m) for m in moves) or None
    return message("pos", pos=board_to_hub(root), moves=text)


def board_from_pos(msg: HubMessage, variant: Variant | str = "international") -> Board:
    """Return the board a ``pos`` line describes, with its ``moves`` played.

    ``pos start`` (or no ``pos=`` at all) is the variant's initial position.

    Raises:
        HubProtocolError: a bad position or move text.
        IllegalMoveError / AmbiguousMoveError: a listed move is not legal (``ValueError``).
    """
    var = find_variant(variant) if isinstance(variant, str) else variant
    text = msg.get("pos")
    board = Board(var.name) if text is None else board_from_hub(text, var)
    for move_text in (msg.get("moves") or "").split():
        board.push(move_from_hub(board, move_text))
    return board


# -- variants ----------------------------------------------------------------------------------


def variant_from_hub(name: str) -> Variant:
    """Return our variant for a Hub ``variant`` value; a name of ours is accepted too.

    Example: ``variant_from_hub("normal").name == "international"``.

    Raises:
        HubProtocolError: a Hub variant we have no rules for (``bt``), or an unknown name.
    """
    if name in HUB_VARIANTS:
        ours = HUB_VARIANTS[name]
        if ours is None:
            raise HubProtocolError(f"Hub variant {name!r} is not supported by this engine")
    else:
        ours = name
    try:
        return find_variant(ours)
    except ValueError as exc:
        raise HubProtocolError(f"Hub variant {name!r} is not supported: {exc}") from None


def hub_variant_name(variant: Variant | str) -> str:
    """Return the Hub name of our variant: Scan's name where it has one, else our own name.

    Example: ``hub_variant_name("international") == "normal"``.
    """
    var = find_variant(variant) if isinstance(variant, str) else variant
    for hub_name, ours in HUB_VARIANTS.items():
        if ours is not None and ours in (var.name, *var.aliases):
            return hub_name
    return var.name
