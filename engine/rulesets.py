"""Variants as data plus a few hooks: the :class:`Variant` base and the main rule sets.

A :class:`Variant` declares the board, the initial position, who moves first, how men and kings
move and capture, which capture sequences are compulsory, what happens when a man reaches the
last row in the middle of a capture, the goal, and the notation. One move generator
(:mod:`engine.movegen`) reads these attributes; a variant overrides only what differs.

Square indices: for numeric variants the index is the PDN number minus one. The 8x8 variants
written with letters (russian, brazilian, diagonal, russian-giveaway) use the same order as their
numeric cousins (index 0 is b8, index 28 is a1) so their positions can also be read in numbers.
Turkish uses all 64 squares, index ``row * 8 + col`` (a1 is 0, h8 is 63).

The club variants (:mod:`engine.club_variants`) subclass these; :mod:`engine.variant` is the
registry of them all (``VARIANTS``, ``find_variant``).

Example:
    >>> v = English()
    >>> v.name, v.pdn_gametype, v.first_mover.name
    ('english', 21, 'BLACK')
    >>> Russian().square_name(28)
    'a1'
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from types import MappingProxyType
from typing import ClassVar

from engine.errors import InvalidSquareError
from engine.fen import write_fen
from engine.types import BLACK, WHITE, Color, Square

__all__ = [
    "Brazilian", "Canadian", "CaptureRule", "Diagonal", "English", "International",
    "InternationalGiveaway", "Italian", "Pool", "PromotionInCapture", "Russian",
    "RussianGiveaway", "Spanish", "Turkish", "Variant",
]

_FILES = "abcdefghijklmnopqrstuvwxyz"


class CaptureRule(Enum):
    """Which of the available capture sequences the player may choose."""

    #: Any capture sequence played to its end (Russian, English, pool).
    FREE = "free"
    #: The sequences capturing the most pieces (international, Brazilian, Canadian, Turkish).
    MAJORITY = "majority"
    #: Most pieces, then most kings (Spanish "ley de la cantidad" then "de la calidad").
    SPANISH = "spanish"
    #: Most pieces, then capture with a king, then most kings, then a king met first (Italian).
    ITALIAN = "italian"
    #: A capture by a king comes first, otherwise free choice (Czech).
    KING_FIRST = "king_first"
    #: The most valuable capture (a king counts 199, a man 100), then with a king (Frisian).
    VALUE = "value"


class PromotionInCapture(Enum):
    """What a man does when a capture takes it over its promotion row."""

    #: It is crowned at once and goes on capturing as a king (Russian).
    CONTINUE_AS_KING = "continue_as_king"
    #: It goes on capturing as a man; crowned only if the move ends there (FMJD, pool, Turkish).
    CONTINUE_AS_MAN = "continue_as_man"
    #: The move ends there and the man is crowned (English, Italian, Spanish).
    ENDS_MOVE = "ends_move"


class Variant:
    """Base class of every variant: the rules as typed class attributes.

    Example:
        >>> v = International()
        >>> v.rows, v.num_squares, v.flying_kings, v.capture_rule.name
        (10, 50, True, 'MAJORITY')
    """

    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    pdn_gametype: ClassVar[int] = 20
    rows: ClassVar[int] = 10
    cols: ClassVar[int] = 10
    first_mover: ClassVar[Color] = WHITE
    numeric_notation: ClassVar[bool] = True
    #: Men rows of each side in the initial position (from each side's own first rank).
    start_rows: ClassVar[int] = 4
    #: Empty rows behind each side's men in the initial position (Turkish: 1).
    start_offset: ClassVar[int] = 0
    #: Pieces move and capture along rows and columns on all squares (Turkish), not diagonals.
    orthogonal: ClassVar[bool] = False
    #: The corner square at White's left (a1) is a playing square; False in Italian and Spanish.
    dark_a1: ClassVar[bool] = True
    #: Numbering runs from White's first rank, right to left (Spanish), not from the far row.
    numbered_from_white: ClassVar[bool] = False
    men_capture_backwards: ClassVar[bool] = True
    men_capture_kings: ClassVar[bool] = True
    flying_kings: ClassVar[bool] = True
    capture_rule: ClassVar[CaptureRule] = CaptureRule.MAJORITY
    promotion_in_capture: ClassVar[PromotionInCapture] = PromotionInCapture.CONTINUE_AS_MAN
    #: Captured pieces leave the board at once, so their squares are free (Turkish). Otherwise the
    #: "Turkish strike" rule holds: they stay until the move ends and may not be jumped twice.
    remove_captured_immediately: ClassVar[bool] = False
    #: A capturing piece may not turn 180 degrees between two captures (Turkish).
    no_reversal_in_capture: ClassVar[bool] = False
    #: The player who cannot move wins (giveaway / losing draughts).
    giveaway: ClassVar[bool] = False
    #: Men and kings also capture along rows and columns of the diagonal board (Frisian).
    orthogonal_captures: ClassVar[bool] = False
    #: A flying king's capture lands on the square directly behind each piece it takes (Thai).
    king_halts_behind: ClassVar[bool] = False
    #: The killer rule: a king's capture whose last captured piece is a king ends directly
    #: behind that king (Killer draughts, as Scan implements it).
    killer_rule: ClassVar[bool] = False
    #: The first side to crown a king wins (breakthrough).
    crown_wins: ClassVar[bool] = False
    #: The same king may make at most this many quiet moves in a row while its side still has
    #: men (Frisian: 3); 0 for no limit. Applied by :class:`engine.board.Board` (needs history).
    same_king_move_limit: ClassVar[int] = 0
    #: Separator written between the squares of a capture.
    capture_separator: ClassVar[str] = "x"

    def __init__(self) -> None:
        coords = self._build_coords()
        self._coords: tuple[tuple[int, int], ...] = tuple(coords)
        self._names: tuple[str, ...] = tuple(self._name_of(sq, rc) for sq, rc in enumerate(coords))
        lookup = {name: sq for sq, name in enumerate(self._names)}
        if not self.numeric_notation:
            # Letter variants also accept the numbers of their numeric cousins on input.
            lookup.update({str(sq + 1): sq for sq in range(len(coords))})
        self._lookup: Mapping[str, Square] = MappingProxyType(lookup)
        self._by_coords: Mapping[tuple[int, int], Square] = MappingProxyType(
            {rc: sq for sq, rc in enumerate(coords)}
        )

    # -- geometry ---------------------------------------------------------------------------

    def _is_playing_square(self, row: int, col: int) -> bool:
        if self.orthogonal:
            return True
        return (row + col) % 2 == (0 if self.dark_a1 else 1)

    def _build_coords(self) -> list[tuple[int, int]]:
        cells = [
            (r, c)
            for r in range(self.rows)
            for c in range(self.cols)
            if self._is_playing_square(r, c)
        ]
        if self.orthogonal:
            return cells  # a1 = 0, b1 = 1, ... h8 = 63
        if self.numbered_from_white:
            return sorted(cells, key=lambda rc: (rc[0], -rc[1]))
        return sorted(cells, key=lambda rc: (-rc[0], rc[1]))

    def _name_of(self, sq: Square, rc: tuple[int, int]) -> str:
        if self.numeric_notation:
            return str(sq + 1)
        return f"{_FILES[rc[1]]}{rc[0] + 1}"

    @property
    def num_squares(self) -> int:
        """Number of playing squares (50 on the international board)."""
        return len(self._coords)

    def square_coords(self, sq: Square) -> tuple[int, int]:
        """``(row, col)`` of a square; row 0 is White's first rank, col 0 White's left.

        Example:
            >>> International().square_coords(45)
            (0, 0)

        Raises:
            InvalidSquareError: the index is not a square of this board.
        """
        if not 0 <= sq < len(self._coords):
            raise InvalidSquareError(f"no square {sq!r} on the {self.name} board")
        return self._coords[sq]

    def square_at(self, row: int, col: int) -> Square | None:
        """The square at ``(row, col)``, or None for a non-playing or off-board cell."""
        return self._by_coords.get((row, col))

    def square_name(self, sq: Square) -> str:
        """PDN name of a square: ``"46"`` or ``"a1"``.

        Raises:
            InvalidSquareError: the index is not a square of this board.
        """
        if not 0 <= sq < len(self._names):
            raise InvalidSquareError(f"no square {sq!r} on the {self.name} board")
        return self._names[sq]

    def parse_square(self, text: str) -> Square:
        """Index of a square given by its PDN name (letter variants also take numbers).

        Example:
            >>> Russian().parse_square("C3")
            21

        Raises:
            InvalidSquareError: no such square on this board.
        """
        key = text.strip().lower()
        if key.isdigit():
            key = str(int(key))
        try:
            return self._lookup[key]
        except KeyError:
            raise InvalidSquareError(
                f"{text!r} is not a square of the {self.name} board"
            ) from None

    def promotion_row(self, color: Color) -> int:
        """The row where ``color``'s men are crowned."""
        return self.rows - 1 if color is WHITE else 0

    # -- initial position -------------------------------------------------------------------

    def initial_squares(self, color: Color) -> list[Square]:
        """Squares of ``color``'s men in the initial position (hook: diagonal overrides it)."""
        first = self.start_offset
        rows = range(first, first + self.start_rows)
        if color is BLACK:
            rows = range(self.rows - 1 - first - self.start_rows + 1, self.rows - first)
        return [sq for sq, (r, _c) in enumerate(self._coords) if r in rows]

    @property
    def starting_fen(self) -> str:
        """FEN of the initial position, e.g. ``W:W31-50:B1-20``."""
        white = dict.fromkeys(self.initial_squares(WHITE), False)
        black = dict.fromkeys(self.initial_squares(BLACK), False)
        return write_fen(self, self.first_mover, white, black)

    def __repr__(self) -> str:
        return f"<Variant {self.name!r} (GameType {self.pdn_gametype})>"


class International(Variant):
    """International draughts, 10x10, FMJD rules (PDN GameType 20)."""

    name = "international"
    aliases: ClassVar[tuple[str, ...]] = ("standard", "fmjd", "polish", "10x10", "draughts")


class InternationalGiveaway(International):
    """International rules with the goal reversed: the side that cannot move wins (antidraughts)."""

    name = "international-giveaway"
    aliases: ClassVar[tuple[str, ...]] = ("antidraughts", "international-losing", "losing")
    giveaway = True


class Brazilian(International):
    """Brazilian draughts: international rules on the 8x8 board (GameType 26).

    Squares are written ``a1``..``h8`` and captures with ``x`` (``c3xe5``), as PDN 3.0 lists
    GameType 26 (``26,W,8,8,A0,0``, capture separator ``x``) and Brazilian score sheets write
    them; numbers 1-32 are accepted on input, as for Russian.
    """

    name = "brazilian"
    aliases: ClassVar[tuple[str, ...]] = ("brazil",)
    pdn_gametype = 26
    rows = cols = 8
    start_rows = 3
    numeric_notation = False


class Canadian(International):
    """Canadian draughts: international rules on a 12x12 board, 30 men each (GameType 27)."""

    name = "canadian"
    aliases: ClassVar[tuple[str, ...]] = ("12x12",)
    pdn_gametype = 27
    rows = cols = 12
    start_rows = 5


class Russian(Variant):
    """Russian draughts (shashki), GameType 25.

    Men capture backwards, kings fly, free choice among capture sequences (played to the end;
    a king landing after a capture must pick a square from which it can go on capturing, if any),
    and a man reaching the last row during a capture is crowned at once and continues as a king.
    """

    name = "russian"
    aliases: ClassVar[tuple[str, ...]] = ("shashki", "russian-draughts")
    pdn_gametype = 25
    rows = cols = 8
    start_rows = 3
    numeric_notation = False
    capture_rule = CaptureRule.FREE
    promotion_in_capture = PromotionInCapture.CONTINUE_AS_KING
    capture_separator = ":"


class RussianGiveaway(Russian):
    """Poddavki: Russian rules with the goal reversed (the side that cannot move wins)."""

    name = "russian-giveaway"
    aliases: ClassVar[tuple[str, ...]] = ("poddavki", "russian-losing")
    giveaway = True


class Diagonal(Russian):
    """Diagonal draughts: Russian rules, the long diagonal a1-h8 empty at the start.

    Black's twelve men fill the dark squares above-left of the long diagonal and White's the ones
    below-right of it (Korean seed 001, "대각선 체커 게임 규칙"). No PDN GameType of its own: 25.
    """

    name = "diagonal"
    aliases: ClassVar[tuple[str, ...]] = ("diagonal-draughts",)

    def initial_squares(self, color: Color) -> list[Square]:
        """White: dark squares right of the a1-h8 diagonal; Black: left of it."""
        if color is WHITE:
            return [sq for sq, (r, c) in enumerate(self._coords) if r < c]
        return [sq for sq, (r, c) in enumerate(self._coords) if r > c]


class English(Variant):
    """English draughts / American checkers (GameType 21).

    Short kings, men capture forwards only, free choice of capture, and a man reaching the
    king row ends the move there. Black (squares 1-12) moves first.
    """

    name = "english"
    aliases: ClassVar[tuple[str, ...]] = (
        "checkers", "american", "american-checkers", "english-draughts",
    )
    pdn_gametype = 21
    rows = cols = 8
    start_rows = 3
    first_mover = BLACK
    men_capture_backwards = False
    flying_kings = False
    capture_rule = CaptureRule.FREE
    promotion_in_capture = PromotionInCapture.ENDS_MOVE


class Pool(Variant):
    """American pool checkers (GameType 23).

    Flying kings, men capture backwards, free choice of capture; a man passing the king row in a
    capture goes on as a man and is crowned only if the move ends there.

    First mover: Black. The seeds disagree: the Korean page (001) says White starts, the Russian
    comparison table (003) says Black. We follow the American Pool Checkers Association rules,
    the Russian table and the PDN 3.0 standard, whose pool FEN starts ``B:``; Black sits on
    squares 1-12 as in English checkers, so the two 8x8 American games share one layout.
    """

    name = "pool"
    aliases: ClassVar[tuple[str, ...]] = ("pool-checkers", "american-pool")
    pdn_gametype = 23
    rows = cols = 8
    start_rows = 3
    first_mover = BLACK
    capture_rule = CaptureRule.FREE


class Italian(Variant):
    """Italian draughts (GameType 22).

    The board is turned so that the corner at each player's right is dark; squares are numbered
    from 1 at Black's right-hand corner to 32 at White's (FID). Short kings, men capture forwards
    only and may not capture kings, and the precedence: most pieces, then with a king, then most
    kings, then the sequence meeting a king first. A man reaching the last row ends the move.
    """

    name = "italian"
    aliases: ClassVar[tuple[str, ...]] = ("dama-italiana",)
    pdn_gametype = 22
    rows = cols = 8
    start_rows = 3
    dark_a1 = False
    men_capture_backwards = False
    men_capture_kings = False
    flying_kings = False
    capture_rule = CaptureRule.ITALIAN
    promotion_in_capture = PromotionInCapture.ENDS_MOVE


class Spanish(Variant):
    """Spanish draughts (GameType 24).

    Same board orientation as Italian, numbered from 1 at White's right-hand corner, right to
    left and upwards (White on 1-12). Flying kings, men capture forwards only, most pieces then
    most kings must be taken.
    """

    name = "spanish"
    aliases: ClassVar[tuple[str, ...]] = ("damas", "spanish-draughts")
    pdn_gametype = 24
    rows = cols = 8
    start_rows = 3
    dark_a1 = False
    numbered_from_white = True
    men_capture_backwards = False
    capture_rule = CaptureRule.SPANISH
    promotion_in_capture = PromotionInCapture.ENDS_MOVE


class Turkish(Variant):
    """Turkish draughts (dama), GameType 30.

    All 64 squares; men move and capture one square forwards or sideways, kings fly along rows
    and columns. Captured pieces leave the board at once (so a square may be crossed again), no
    180 degree turn between two captures, most pieces must be taken (kings count as one). A man
    reaching the last row during a capture is crowned when the move ends (Wikipedia, pydraughts).
    """

    name = "turkish"
    aliases: ClassVar[tuple[str, ...]] = ("dama", "turkish-draughts")
    pdn_gametype = 30
    rows = cols = 8
    start_rows = 2
    start_offset = 1
    orthogonal = True
    numeric_notation = False
    men_capture_backwards = False
    remove_captured_immediately = True
    no_reversal_in_capture = True
