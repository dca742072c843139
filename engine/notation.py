"""Move text per variant: ``32-28``, ``19x30``, Russian ``c3:e5``, full paths when needed.

Example:
    >>> from engine.board import Board
    >>> board = Board("russian")
    >>> move = parse_move(board, "c3d4")
    >>> move_notation(board, move)
    'c3-d4'
"""

from __future__ import annotations

import re

from engine.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from engine.position import Position
from engine.types import Move, Square

__all__ = ["move_notation", "parse_move"]

_MAX_TEXT = 200
_SEPARATOR = re.compile(r"\s*[-x:X×]\s*")
_NUMBER = re.compile(r"^\d{1,3}$")
_LETTER_SQUARE = re.compile(r"[a-wyzA-WYZ]\d{1,2}")
_LETTER_SQUARES = re.compile(r"^(?:[a-wyzA-WYZ]\d{1,2}){2,}$")
_ANNOTATION = re.compile(r"[!?+#*]+$")


def move_notation(board: Position, move: Move, full: bool = False) -> str:
    """PDN text of ``move`` in ``board``'s variant.

    A capture is written with every landing square only when another legal move shares its
    origin and destination (or when ``full`` is set).

    Example:
        >>> from engine.board import Board
        >>> b = Board.from_fen("W:W28:B23", "international")
        >>> [move_notation(b, m) for m in b.legal_moves]
        ['28x19']
    """
    name = board.variant.square_name
    if not move.captures:
        return f"{name(move.origin)}-{name(move.destination)}"
    sep = board.variant.capture_separator
    if not full:
        full = any(
            m.origin == move.origin and m.destination == move.destination
            and m.key() != move.key()
            for m in board.legal_moves
        )
    squares = (move.origin, *move.path) if full else (move.origin, move.destination)
    return sep.join(name(s) for s in squares)


def parse_move(board: Position, text: str) -> Move:
    """The legal move that ``text`` names.

    Takes ``32-28``, ``19x30``, ``c3:e5``, ``c3-d4``, ``a3b4``, and paths such as ``22x13x4``
    (intermediate squares may be a subset of the landings, in order). Trailing ``!``/``?``
    annotations are ignored; the separator need not match the move kind.

    Raises:
        InvalidMoveError: the text is not move text or names an unknown square.
        IllegalMoveError: no legal move matches.
        AmbiguousMoveError: several legal moves match; the message lists them with paths.
    """
    squares = _squares(board, text)
    origin, destination, middle = squares[0], squares[-1], squares[1:-1]
    candidates = [
        m for m in board.generate_moves()
        if m.origin == origin and m.destination == destination
        and _is_subsequence(middle, m.path[:-1])
    ]
    # A full path written out names its move even if shorter texts would be ambiguous.
    exact = [m for m in candidates if m.path == tuple(squares[1:])]
    matches: dict[tuple[Square, Square, frozenset[Square]], Move] = {}
    for move in exact or candidates:
        matches.setdefault(move.key(), move)
    if not matches:
        raise IllegalMoveError(f"illegal move {text!r} in {board.fen()}")
    if len(matches) > 1:
        options = ", ".join(move_notation(board, m, full=True) for m in matches.values())
        raise AmbiguousMoveError(f"move {text!r} is ambiguous in {board.fen()}: {options}")
    return next(iter(matches.values()))


def _squares(board: Position, text: str) -> list[Square]:
    if not isinstance(text, str):
        raise InvalidMoveError(f"move text must be a string, not {type(text).__name__}")
    body = _ANNOTATION.sub("", text.strip())
    if len(body) > _MAX_TEXT:
        raise InvalidMoveError(f"move text too long: {text[:40]!r}...")
    tokens = _SEPARATOR.split(body)
    if len(tokens) == 1 and _LETTER_SQUARES.match(body):
        tokens = _LETTER_SQUARE.findall(body)  # "a3b4"
    if len(tokens) < 2 or not all(
        _NUMBER.match(t) or _LETTER_SQUARE.fullmatch(t) for t in tokens
    ):
        raise InvalidMoveError(f"not a move: {text!r}")
    out = []
    for token in tokens:
        try:
            out.append(board.variant.parse_square(token))
        except ValueError:
            raise InvalidMoveError(
                f"{token!r} in move {text!r} is not a square of the {board.variant.name} board"
            ) from None
    return out


def _is_subsequence(needle: list[Square], haystack: tuple[Square, ...]) -> bool:
    it = iter(haystack)
    return all(any(x == y for y in it) for x in needle)
