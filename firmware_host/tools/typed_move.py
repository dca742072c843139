"""A typed move in ``draughtsboard play``: the squares it names and, when refused, why.

The terminal draws every board with files and ranks (``a``.. and ``1``..); numeric variants
(International, English, ...) also have square numbers. A typed square is read in either form
wherever the two cannot be confused: ``e3`` on the international board is the square drawn at
e3 (``38``). Every refusal is one sentence with its reason (the empty square, the other side's
piece, where the piece can go), never a position string.

>>> from engine import Board
>>> board = Board("international")
>>> [board.move_notation(parse_typed(board, text)) for text in ("d4-e5", "32-28")]
['32-28', '32-28']
>>> parse_typed(Board("russian"), "c5-b4")
Traceback (most recent call last):
...
firmware_host.tools.typed_move.TypedMoveError: there is no piece on c5
"""

from __future__ import annotations

import re

from engine import Board, Piece
from engine.errors import AmbiguousMoveError, DraughtsError, IllegalMoveError
from engine.types import Color, Move, Square
from engine.variant import Variant
from firmware_host.errors import DraughtsboardError
from firmware_host.i18n import ENGLISH, N_, Translator

__all__ = ["TypedMoveError", "example", "explain_move", "parse_typed", "piece_words",
           "square_from_text"]

_SEPARATOR = re.compile(r"\s*[-x:×]\s*")
#: The longest well-formed move at the start of a text that goes on (for "did you mean").
_MEANT = re.compile(r"(?:\d{1,3}|[a-z]\d{1,2})(?:\s*[-x:×]\s*(?:\d{1,3}|[a-z]\d{1,2}))+")
_ALGEBRAIC = re.compile(r"^([a-z])(\d{1,2})$")
_FILES = "abcdefghijklmnopqrstuvwxyz"


class TypedMoveError(DraughtsboardError, ValueError):
    """A typed move or square that cannot be played; the message says why (one sentence).

    ``squares``: the squares of a well-formed move that no legal move follows (else empty).
    """

    def __init__(self, text: str, squares: tuple[Square, ...] = ()) -> None:
        super().__init__(text)
        self.squares = squares


def side_word(color: int) -> str:
    """``"white"`` or ``"black"``."""
    return "white" if color == Color.WHITE else "black"


#: A piece in words, by (white, king).
_PIECE_WORDS = {(True, False): N_("a white man"), (False, False): N_("a black man"),
                (True, True): N_("a white king"), (False, True): N_("a black king")}


def piece_words(piece: Piece, tr: Translator = ENGLISH) -> str:
    """``"a white man"``, ``"a black king"`` (in ``tr``'s language)."""
    return tr.gettext(_PIECE_WORDS[piece.color == Color.WHITE, bool(piece.king)])


def _either(names: list[str], tr: Translator) -> str:
    """``"15, 16 or 17"`` in ``tr``'s language."""
    if len(names) == 1:
        return names[0]
    return tr.gettext("{some} or {last}").format(some=", ".join(names[:-1]), last=names[-1])


def square_from_text(variant: Variant, text: str, tr: Translator = ENGLISH) -> Square:
    """The square ``text`` names: the variant's own name, else the drawn file and rank.

    >>> from engine.variant import find_variant
    >>> v = find_variant("international")
    >>> square_from_text(v, "46"), square_from_text(v, "a1"), square_from_text(v, "J10")
    (45, 45, 4)
    >>> square_from_text(v, "b1")
    Traceback (most recent call last):
    ...
    firmware_host.tools.typed_move.TypedMoveError: b1 is a light square: pieces stand on the ...

    Raises:
        TypedMoveError: no such square (the message says which names the board has).
    """
    key = text.strip().lower()
    try:
        return variant.parse_square(key)
    except ValueError:
        pass
    found = _ALGEBRAIC.match(key)
    if found is not None:
        col, row = _FILES.index(found.group(1)), int(found.group(2)) - 1
        if 0 <= col < variant.cols and 0 <= row < variant.rows:
            square = variant.square_at(row, col)
            if square is not None:
                return square
            raise TypedMoveError(tr.gettext(
                "{square} is a light square: pieces stand on the dark ones").format(square=key))
    raise TypedMoveError(tr.gettext("{text} is not a square of this board ({squares})").format(
        text=repr(text.strip()), squares=names(variant, tr)))


def names(variant: Variant, tr: Translator = ENGLISH) -> str:
    """How the squares of ``variant`` may be typed, for a message (in ``tr``'s language).

    >>> from engine.variant import find_variant
    >>> names(find_variant("international")), names(find_variant("russian"))
    ('1 to 50, or a1 to j10 as drawn', 'a1 to h8, or 1 to 32')
    """
    last = f"{_FILES[variant.cols - 1]}{variant.rows}"
    if variant.numeric_notation:
        return tr.gettext("1 to {count}, or a1 to {last} as drawn").format(
            count=variant.num_squares, last=last)
    return tr.gettext("a1 to {last}, or 1 to {count}").format(count=variant.num_squares,
                                                              last=last)


def example(variant: Variant, tr: Translator = ENGLISH) -> str:
    """A first move of ``variant`` as it may be typed, for the help text (in ``tr``'s
    language).

    >>> from engine.variant import find_variant
    >>> example(find_variant("international")), example(find_variant("russian"))
    ('31-26 (or b4-a5, as drawn)', 'a3-b4')
    """
    board = Board(variant.name)
    move = min(board.legal_moves, key=lambda m: (m.origin, m.destination))
    text = board.move_notation(move)
    if not variant.numeric_notation:
        return text
    drawn = "-".join(_drawn(variant, sq) for sq in (move.origin, move.destination))
    return tr.gettext("{move} (or {drawn}, as drawn)").format(move=text, drawn=drawn)


def _drawn(variant: Variant, square: Square) -> str:
    row, col = variant.square_coords(square)
    return f"{_FILES[col]}{row + 1}"


def squares_of(variant: Variant, text: str, tr: Translator = ENGLISH) -> list[Square]:
    """The squares a typed move names, in order (``22-18``, ``c3:e5``, ``e3-f4``, ``c3d4``).

    Raises:
        TypedMoveError: not move text, or a square the board has not.
    """
    body = text.strip().lower()
    tokens = _SEPARATOR.split(body)
    if len(tokens) == 1:
        tokens = re.findall(r"[a-z]\d{1,2}", body) if re.fullmatch(r"(?:[a-z]\d{1,2}){2,}",
                                                                   body) else tokens
    named = [t for t in tokens if re.fullmatch(r"\d{1,3}|[a-z]\d{1,2}", t)]
    meant = _MEANT.search(body)
    if meant is not None and meant.group(0) != body:  # "g3-h4x", "32-28!": a move and more
        raise TypedMoveError(tr.gettext(
            "{text} is not a move: did you mean {move}?").format(
            text=repr(text.strip()), move=meant.group(0)))
    if len(tokens) < 2 or named != tokens:
        raise TypedMoveError(tr.gettext(
            "{text} is neither a move nor a command (type help)").format(text=repr(text.strip())))
    return [square_from_text(variant, t, tr) for t in tokens]


def parse_typed(board: Board, text: str, tr: Translator = ENGLISH) -> Move:
    """The legal move ``text`` names on ``board``.

    Raises:
        TypedMoveError: why it cannot be played here (one sentence, squares as the variant
            names them).
    """
    squares = squares_of(board.variant, text, tr)
    move_text = "-".join(board.variant.square_name(sq) for sq in squares)
    try:
        return board.parse_move(move_text)
    except AmbiguousMoveError:
        fits = [m for m in board.legal_moves
                if m.origin == squares[0] and m.destination == squares[-1]]
        options = ", ".join(board.move_notation(m, full=True) for m in fits)
        raise TypedMoveError(tr.gettext(
            "{text} fits more than one capture ({options}): type the whole path").format(
            text=text.strip(), options=options)) from None
    except IllegalMoveError:
        raise TypedMoveError(explain_move(board, squares, tr), tuple(squares)) from None
    except DraughtsError as exc:  # pragma: no cover - squares_of checked the text
        raise TypedMoveError(str(exc)) from None


def explain_move(board: Board, squares: list[Square], tr: Translator = ENGLISH) -> str:
    """Why no legal move goes along ``squares`` on ``board`` (one sentence, in ``tr``'s
    language; a man's and a king's sentences apart, as languages with genders need).

    >>> from engine import Board
    >>> board = Board("english")
    >>> explain_move(board, [21, 17])
    "22 holds a white man: it is black's turn"
    >>> explain_move(board, [10, 18])
    'the man on 11 can go to 15 or 16, not to 19'
    >>> from firmware_host.i18n import translator
    >>> explain_move(board, [21, 17], translator("ru"))
    '22: белая шашка, а ходят чёрные'
    """
    variant = board.variant
    name = variant.square_name
    origin, destination = squares[0], squares[-1]
    piece = board.piece_at(origin)
    turn = tr.gettext(N_("white") if board.turn == Color.WHITE else N_("black"))
    if piece is None:
        return tr.gettext("there is no piece on {square}").format(square=name(origin))
    if piece.color != board.turn:
        return tr.gettext("{square} holds {piece}: it is {side}'s turn").format(
            square=name(origin), piece=piece_words(piece, tr), side=turn)
    legal = list(board.legal_moves)
    captures = [m for m in legal if m.is_capture]
    own = [m for m in legal if m.origin == origin]
    if captures and not own:
        pieces = sorted({name(m.origin) for m in captures}, key=_key)
        return tr.gettext("a capture is compulsory: take with {squares}").format(
            squares=_either(pieces, tr))
    if origin == destination:
        return tr.gettext("a move must leave {square}").format(square=name(origin))
    king = piece.king
    if not own:
        return (tr.gettext("the king on {square} cannot move now") if king else
                tr.gettext("the man on {square} cannot move now")).format(square=name(origin))
    occupant = board.piece_at(destination)
    if occupant is not None and all(m.destination != destination for m in own):
        return tr.gettext("{square} is taken: {piece} stands there").format(
            square=name(destination), piece=piece_words(occupant, tr))
    if any(m.destination == destination for m in own):
        paths = ", ".join(board.move_notation(m, full=True) for m in own
                          if m.destination == destination)
        return (tr.gettext("that path is not one this king can take: {paths}") if king else
                tr.gettext("that path is not one this man can take: {paths}")).format(
            paths=paths)
    targets = sorted({name(m.destination) for m in own}, key=_key)
    where = _either(targets, tr)
    if own[0].is_capture:
        return (tr.gettext("a capture is compulsory: the king on {square} must take, to {where}")
                if king else tr.gettext(
                    "a capture is compulsory: the man on {square} must take, to {where}")
                ).format(square=name(origin), where=where)
    return (tr.gettext("the king on {square} can go to {where}, not to {target}") if king else
            tr.gettext("the man on {square} can go to {where}, not to {target}")).format(
        square=name(origin), where=where, target=name(destination))


def _key(square_name: str) -> tuple[int, str]:
    """Sort key for square names: numbers by value, letters as text."""
    return (int(square_name) if square_name.isdigit() else 0, square_name)
