"""Our values on the Hub wire: moves, positions, scores and variant names (pure).

Squares on the wire are numbered ``1 .. n`` as other Hub programs number them per variant
(:func:`numbering`, docs/hub.md): the PDN numbers of the 10x10 variants and of Italian and
English; ``a1 = 1``, left to right and upwards, on the Russian board (Russian, Brazilian, Czech);
``a1 = 1 .. h8 = 64`` in Turkish. Positions are one character for the side to move (``W``/``B``)
then one per square: ``w``/``b`` men, ``W``/``B`` kings, ``e`` empty, in the square order
pydraughts' Hub client sends (for English and Turkish not the order of the moves). Moves are
``from-to`` or ``fromxto`` followed by ``x<captured>`` for every captured piece. Scores are in
men. The line syntax itself is :mod:`firmware_host.opponents.hub.protocol`.

>>> board = Board("international")
>>> board_to_hub(board)[:3], move_to_hub(board.parse_move("32-28"))
('Wbb', '32-28')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from engine import Board, Move, Variant, find_variant
from engine.draw import counted_plies
from engine.search import WIN, WIN_BOUND
from firmware_host.opponents.hub.protocol import HubMessage, HubProtocolError, message

__all__ = [
    "HUB_VARIANTS",
    "HubMove",
    "HubNumbering",
    "board_from_hub",
    "board_from_pos",
    "board_to_hub",
    "hub_variant_name",
    "move_from_hub",
    "move_to_hub",
    "numbering",
    "parse_hub_move",
    "pos_message",
    "score_from_hub",
    "score_to_hub",
    "variant_from_hub",
]

#: Hub variant names (Scan's ``variant`` values) -> our variant name. Our other variants go on
#: the wire under our own names (pydraughts sends ``russian``, ``frysk!``, ...; aliases work).
HUB_VARIANTS: Mapping[str, str] = MappingProxyType({
    "normal": "international",
    "killer": "killer",
    "bt": "breakthrough",
    "frisian": "frisian",
    "losing": "international-giveaway",
})

_SIDES = "WB"
_PIECE_CHARS = "wbWB"  # indexed by 2 * king + colour


# -- scores ------------------------------------------------------------------------------------

#: Scan's scores are in men; a win in ``n`` plies is ``100 - n / 100`` (its ``Inf`` is 10,000).
_HUB_WIN = 10_000


def score_to_hub(score: int) -> float:
    """Our score (hundredths of a man, wins ``WIN - plies``) as a Hub ``score`` (men, Scan's wins).

    >>> score_to_hub(-37), score_to_hub(WIN - 3)       # a win in 3 plies
    (-0.37, 99.97)
    """
    if abs(score) > WIN_BOUND:
        plies = WIN - abs(score)
        return (_HUB_WIN - plies) / 100 * (1 if score > 0 else -1)
    return score / 100


def score_from_hub(value: float) -> int:
    """A Hub ``score`` (men) as ours: beyond 90 men it is Scan's forced win in ``n`` plies.

    >>> score_from_hub(0.25), score_from_hub(99.97) == WIN - 3
    (25, True)
    """
    hundredths = round(value * 100)
    if abs(hundredths) > _HUB_WIN - 1_000:
        plies = max(0, _HUB_WIN - abs(hundredths))
        return (WIN - plies) * (1 if hundredths > 0 else -1)
    return hundredths


# -- square numbering --------------------------------------------------------------------------


@dataclass(frozen=True)
class HubNumbering:
    """How one variant's squares are numbered on the Hub wire.

    ``wire[sq]`` is the number (``1 .. n``) of our square index ``sq`` in moves; ``position[i]``
    is our square index of the ``i``-th square character of a position; with ``swap_colours``
    the position's side and piece letters name the colours the other way round (pydraughts'
    English, whose first mover Black is its internal "white").

    >>> numbering("russian").wire[find_variant("russian").parse_square("c3")]
    10
    """

    wire: tuple[int, ...]
    position: tuple[int, ...]
    swap_colours: bool = False

    def square(self, number: int) -> int:
        """Our square index of wire number ``number`` (``1 .. n``)."""
        return self._from_wire[number]

    @property
    def _from_wire(self) -> Mapping[int, int]:
        return MappingProxyType({n: sq for sq, n in enumerate(self.wire)})


#: The 8x8 boards with a dark a1 written with letters: on the wire ``a1 = 1``, left to right and
#: upwards (pydraughts' Russian and Brazilian); the Czech and Russian families follow them.
_A0_BOARDS = frozenset({"russian", "brazilian", "russian-giveaway", "diagonal", "czech"})


def numbering(variant: Variant | str) -> HubNumbering:
    """The Hub square numbering of a variant (docs/hub.md has the table).

    >>> numbering("international").wire[:3], numbering("english").position[:2]
    ((1, 2, 3), (31, 30))

    Raises:
        UnknownVariantError: no such variant.
    """
    var = find_variant(variant)
    n = var.num_squares
    identity = tuple(range(n))
    if var.name in _A0_BOARDS:
        wire = []
        for sq in identity:
            row, col = var.square_coords(sq)
            wire.append(row * (var.cols // 2) + col // 2 + 1)
        return HubNumbering(tuple(wire), identity)
    if var.name == "english":  # positions: the board turned round, colours named the other way
        return HubNumbering(tuple(sq + 1 for sq in identity), tuple(n - 1 - i for i in identity),
                            swap_colours=True)
    if var.name == "turkish":  # moves a1 = 1; positions from a8, rows downwards
        position = tuple((var.rows - 1 - i // var.cols) * var.cols + i % var.cols
                         for i in identity)
        return HubNumbering(tuple(sq + 1 for sq in identity), position)
    return HubNumbering(tuple(sq + 1 for sq in identity), identity)


# -- moves -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HubMove:
    """A Hub move read without a position: squares as indices (``0 .. n-1``).

    >>> parse_hub_move("28x19x23")
    HubMove(origin=27, destination=18, captures=frozenset({22}), is_capture=True)
    """

    origin: int
    destination: int
    captures: frozenset[int] = field(default_factory=frozenset)
    is_capture: bool = False


def parse_hub_move(text: str, num_squares: int = 50,
                   numbers: HubNumbering | None = None) -> HubMove:
    """Read a Hub move: ``32-28``, ``28x19x23`` (captured pieces in any order).

    ``numbers`` maps the wire numbers to our squares (default: number ``k`` is index ``k - 1``).

    >>> parse_hub_move("32-28").destination
    27

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
        squares.append(int(part) - 1 if numbers is None else numbers.square(int(part)))
    captures = frozenset(squares[2:])
    if len(captures) != len(squares) - 2:
        raise HubProtocolError(f"a piece is captured twice in Hub move {text!r}")
    return HubMove(squares[0], squares[1], captures, not quiet)


def move_to_hub(move: Move, variant: Variant | str = "international") -> str:
    """Return the Hub text of a move; captured squares in ascending order, as Scan writes them.

    >>> board = Board("international", "W:W28:B23,14")
    >>> move_to_hub(board.parse_move("28x10"))          # 28 to 10, taking 14 and 23
    '28x10x14x23'
    >>> move_to_hub(Board("russian").parse_move("c3-d4"), "russian")
    '10-14'
    """
    wire = numbering(variant).wire
    if not move.captures:
        return f"{wire[move.origin]}-{wire[move.destination]}"
    captured = sorted(wire[sq] for sq in move.captures)
    return "x".join(str(n) for n in (wire[move.origin], wire[move.destination], *captured))


def move_from_hub(board: Board, text: str) -> Move:
    """Return the legal move of ``board`` that the Hub text names.

    A capture that lists no captured pieces (``28x19``) is accepted when only one capture joins
    those squares.

    >>> board = Board("international")
    >>> move_from_hub(board, "32-28") == board.parse_move("32-28")
    True

    Raises:
        HubProtocolError: the text is not a Hub move, or names a capture that is not one.
        IllegalMoveError: no legal move matches (both are ``ValueError``).
        AmbiguousMoveError: several legal moves match.
    """
    hub = parse_hub_move(text, board.variant.num_squares, numbering(board.variant))
    captured = hub.captures if hub.captures else None
    move = board.find_move(hub.origin, hub.destination, captured=captured)
    if move.is_capture != hub.is_capture:
        kind = "a capture" if move.is_capture else "not a capture"
        raise HubProtocolError(f"Hub move {text!r} is {kind} in {board.fen()}")
    return move


# -- positions ---------------------------------------------------------------------------------


def board_to_hub(board: Board) -> str:
    """Return the Hub position of ``board``: side to move, then one character per square.

    >>> board_to_hub(Board("international")) == "W" + "b" * 20 + "e" * 10 + "w" * 20
    True
    >>> board_to_hub(Board("english", "B:W32:BK1"))   # pydraughts' English: turned, renamed
    'WbeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeW'
    """
    numbers = numbering(board.variant)
    swap = int(numbers.swap_colours)
    chars = [_SIDES[int(board.turn) ^ swap]]
    for sq in numbers.position:
        piece = board.piece_at(sq)
        chars.append("e" if piece is None
                     else _PIECE_CHARS[2 * piece.king + (int(piece.color) ^ swap)])
    return "".join(chars)


def board_from_hub(text: str, variant: Variant | str = "international") -> Board:
    """Return a board (empty move stack) set up from a Hub position.

    >>> board_from_hub("W" + "b" * 20 + "e" * 10 + "w" * 20).fen()
    'W:W31-50:B1-20'

    Raises:
        HubProtocolError: wrong length, an unknown character, or a position the rules reject.
    """
    var = find_variant(variant) if isinstance(variant, str) else variant
    if len(text) != var.num_squares + 1:
        raise HubProtocolError(f"Hub position for {var.name} needs {var.num_squares + 1} "
                               f"characters, got {len(text)}: {text!r}")
    if text[0] not in _SIDES:
        raise HubProtocolError(f"Hub position must start with W or B: {text!r}")
    numbers = numbering(var)
    swap = int(numbers.swap_colours)
    lists: dict[str, list[str]] = {"W": [], "B": []}
    for i, char in enumerate(text[1:]):
        if char == "e":
            continue
        if char not in _PIECE_CHARS:
            raise HubProtocolError(f"bad character {char!r} for square {i + 1} in {text!r}")
        side = _SIDES[(0 if char in "wW" else 1) ^ swap]
        lists[side].append(("K" if char.isupper() else "") + var.square_name(numbers.position[i]))
    turn = _SIDES[_SIDES.index(text[0]) ^ swap]
    fen = f"{turn}:W{','.join(lists['W'])}:B{','.join(lists['B'])}"
    try:
        return Board(var.name, fen=fen)
    except ValueError as exc:
        raise HubProtocolError(f"Hub position {text!r} rejected: {exc}") from exc


def pos_message(board: Board) -> HubMessage:
    """Return the ``pos`` line for ``board``: the position before the game's last plies its rules
    still count (:func:`engine.draw.counted_plies`) and those plies as its ``moves``, so the
    engine sees what the arbiter counts: repetitions, and the draw rules' moves since a count
    began (a man's move inside the FMJD 16-move count, a king's capture of a man inside the
    Portuguese 20 moves). After a capture, nothing before it.

    >>> pos_message(Board()).format() == "pos pos=W" + "b" * 20 + "e" * 10 + "w" * 20
    True
    """
    root = board.copy()
    moves = [root.pop() for _ in range(counted_plies(board))]
    moves.reverse()
    text = " ".join(move_to_hub(m, board.variant) for m in moves) or None
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

    >>> variant_from_hub("normal").name, variant_from_hub("russian").name
    ('international', 'russian')

    Raises:
        HubProtocolError: a Hub variant we have no rules for (``killer``, ``bt``, ``frisian``),
            or an unknown name.
    """
    try:
        return find_variant(HUB_VARIANTS.get(name, name))
    except ValueError as exc:
        raise HubProtocolError(f"Hub variant {name!r} is not supported: {exc}") from None


def hub_variant_name(variant: Variant | str) -> str:
    """Return the Hub name of our variant: Scan's name where it has one, else our own name.

    >>> hub_variant_name("international"), hub_variant_name("antidraughts")
    ('normal', 'losing')
    >>> hub_variant_name("russian")
    'russian'
    """
    var = find_variant(variant) if isinstance(variant, str) else variant
    for hub_name, ours in HUB_VARIANTS.items():
        if ours in (var.name, *var.aliases):
            return hub_name
    return var.name
