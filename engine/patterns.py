"""Region patterns: the learned part of the evaluation (international draughts).

The 10x10 board is covered by 16 overlapping blocks of 4x4 cells (their corners at rows and
columns 0, 2, 4 and 6, counted as the PDN numbers run: from Black's side, from White's left).
Each block holds 8 playing squares, and the men on them (empty, a white man, a black man; a king
counts as empty: kings have their own terms) form one of ``3 ** 8`` patterns. A pattern's weight,
in hundredths of a man from White's side, is learned from a teacher's scores together with the
linear terms (docs/evaluation.md, ``draughtsboard tune patterns``). A block and the block the
half-turn of the board maps it onto share one table, the colours swapped and the sign turned, so
the patterns score a position and its mirror image exactly opposite: :data:`TABLES` tables of
:data:`PATTERNS` weights.

Example:
    >>> from engine import Board, find_variant
    >>> table = PatternTable(find_variant("international"), {(0, 9): 7})
    >>> blocks = block_squares(find_variant("international"))
    >>> [s + 1 for s in blocks[0]]  # the first block's squares, as PDN numbers
    [1, 2, 6, 7, 11, 12, 16, 17]
    >>> table.score(Board("international", "W:W6:B30"))  # pattern 9 = 1 * 3**2: a white man on 6
    7
    >>> table.score(Board("international", "W:W21:B45"))  # the same, turned and colours swapped
    -7
"""

from __future__ import annotations

import gzip
from collections.abc import Mapping
from importlib import resources
from typing import TYPE_CHECKING, Final

from engine import Board, Variant, find_variant
from engine.bits import COMPILED
from engine.errors import DraughtsError
from engine.generators import generator_for
from engine.types import Square

if TYPE_CHECKING:  # mypyc's 64-bit machine integer; an int when interpreted
    from mypy_extensions import i64

__all__ = ["BLOCK", "PATTERNS", "TABLES", "PatternError", "PatternTable", "block_squares",
           "indices"]

#: Squares per block, patterns per table (3 states a square) and tables (pairs of blocks).
BLOCK: Final = 8
PATTERNS: Final = 3 ** BLOCK
TABLES: Final = 8
_CORNERS = (0, 2, 4, 6)
_SWAP = (0, 2, 1)
#: Where a block's 8 squares lie above its lowest bit in the move generator's layout of the
#: 10x10 board (55 bits, rows of 5 squares and a gap bit every two rows): two neighbouring
#: squares in each of four rows. Every one of the 16 blocks (and its mirror image) has this shape.
_BLOCK_OFFSETS: Final = (0, 1, 6, 7, 11, 12, 17, 18)
#: The bits a block spans above its lowest one.
_SPAN: Final = _BLOCK_OFFSETS[-1] + 1


def _block_byte(x: i64) -> int:
    """The squares of :data:`_BLOCK_OFFSETS` in ``x`` (shifted down to the block's lowest bit),
    gathered into one byte, bit ``j`` for the ``j``-th offset.

    Example:
        >>> _block_byte(1 << 0 | 1 << 7 | 1 << 18), _block_byte(1 << 2)
        (137, 0)
    """
    return (x & 0x3) | ((x >> 4) & 0xC) | ((x >> 7) & 0x30) | ((x >> 11) & 0xC0)


def _ternary(byte: int) -> int:
    return sum(3 ** j for j in range(BLOCK) if byte >> j & 1)


#: A byte's bits read as base-3 digits (0 or 1): a block's white men plus twice its black men
#: number the pattern in its table.
_TERNARY: Final[tuple[int, ...]] = tuple(_ternary(byte) for byte in range(1 << BLOCK))


def _code(white: i64, black: i64) -> int:
    """The list index of a block with these men (bit masks above the block's lowest bit)."""
    return _TERNARY[_block_byte(white)] + 2 * _TERNARY[_block_byte(black)]


class PatternError(DraughtsError, ValueError):
    """A pattern table that does not fit the board, or a damaged pattern file."""


def block_squares(variant: Variant) -> tuple[tuple[Square, ...], ...]:
    """The 16 blocks' squares, block ``k`` at corner ``(row 2 * (k // 4), col 2 * (k % 4))``
    in PDN order; block ``15 - k`` is block ``k`` turned by half a turn.

    Raises:
        PatternError: the board is not 10x10 with 50 squares.
    """
    rows, cols = variant.rows, variant.cols
    if (rows, cols) != (10, 10) or variant.num_squares != 50:
        raise PatternError(f"region patterns need the 10x10 board, not {variant.name}'s")
    blocks: list[tuple[Square, ...]] = []
    for top in _CORNERS:
        for left in _CORNERS:
            squares = []
            for r in range(top, top + 4):
                for c in range(left, left + 4):
                    sq = variant.square_at(rows - 1 - r, c)
                    if sq is not None:
                        squares.append(sq)
            blocks.append(tuple(squares))
    return tuple(blocks)


def _state(board: Board, sq: Square) -> int:
    piece = board.piece_at(sq)
    if piece is None or piece.king:
        return 0
    return 1 if int(piece.color) == 0 else 2


def indices(board: Board) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per table, the pattern of its block and the pattern of the mirrored block (turned by half
    a turn, colours swapped): the position scores ``sum(w[t][a[t]] - w[t][b[t]])``. For the
    tuner; the search uses :meth:`PatternTable.score_bits`.

    Example:
        >>> from engine import Board
        >>> a, b = indices(Board("international", "W:W6:B45"))
        >>> a[0], b[0]  # a white man on 6; in the mirror image a white man on 6 again
        (9, 9)
    """
    blocks = block_squares(board.variant)
    last = board.variant.num_squares - 1
    own = tuple(sum(_state(board, sq) * 3 ** j for j, sq in enumerate(blocks[t]))
                for t in range(TABLES))
    mirrored = tuple(sum(_SWAP[_state(board, last - sq)] * 3 ** j for j, sq in enumerate(blocks[t]))
                     for t in range(TABLES))
    return own, mirrored


class PatternTable:
    """Pattern weights for one 10x10 variant, laid out for the search's bitboards.

    ``weights`` maps ``(table, pattern)`` to hundredths of a man from White's side; patterns not
    in it weigh 0.

    Raises:
        PatternError: a table or pattern out of range, or a board that is not 10x10.
    """

    def __init__(self, variant: Variant, weights: Mapping[tuple[int, int], int]) -> None:
        self.variant = variant
        self.weights: dict[tuple[int, int], int] = {}
        for (t, p), w in weights.items():
            if not (0 <= t < TABLES and 0 <= p < PATTERNS):
                raise PatternError(f"no pattern {p} in table {t}")
            if w:
                self.weights[(t, p)] = int(w)
        gen = generator_for(variant)
        blocks = block_squares(variant)
        last = variant.num_squares - 1
        lows: list[int] = []
        masks: list[int] = []
        tables: list[list[int]] = []
        sparse: list[dict[int, int]] = []
        for k in range(2 * TABLES):
            t, mirror = (k, False) if k < TABLES else (2 * TABLES - 1 - k, True)
            squares = [last - sq for sq in blocks[t]] if mirror else list(blocks[t])
            bits = [gen.sq2bit[sq] for sq in squares]
            low = min(bits)
            if tuple(sorted(b - low for b in bits)) != _BLOCK_OFFSETS:
                raise PatternError(f"block {k} does not lie on the move generator's bits as "
                                   f"_block_byte reads them: {sorted(bits)}")
            # Compiled, a list indexed by the gathered squares; interpreted, fewer steps: a
            # dictionary keyed by the block's men as they lie (white bits, then black ones).
            table = [0] * (PATTERNS if COMPILED else 0)
            keyed: dict[int, int] = {}
            for (tt, p), w in self.weights.items():
                if tt != t:
                    continue
                white = black = 0
                x = p
                for j in range(BLOCK):
                    x, digit = divmod(x, 3)
                    if mirror:
                        digit = _SWAP[digit]
                    if digit == 1:
                        white |= 1 << (bits[j] - low)
                    elif digit == 2:
                        black |= 1 << (bits[j] - low)
                if COMPILED:
                    table[_code(white, black)] = -w if mirror else w
                else:
                    keyed[white | black << _SPAN] = -w if mirror else w
            lows.append(low)
            masks.append(sum(1 << b for b in bits))
            tables.append(table)
            sparse.append(keyed)
        self._lows = tuple(lows)
        self._masks = tuple(masks)
        self._tables = tuple(tables)
        self._sparse = tuple(sparse)

    def score(self, board: Board) -> int:
        """The patterns' score of ``board`` from White's side."""
        white, black, kings = board.bitboards()
        return self.score_bits(white & ~kings, black & ~kings)

    def score_bits(self, white_men: i64, black_men: i64) -> int:
        """:meth:`score` on the men's bitboards (the hot path: 16 lookups)."""
        lows = self._lows
        score = 0
        if COMPILED:
            tables, ternary = self._tables, _TERNARY
            for k in range(2 * TABLES):
                low = lows[k]
                score += tables[k][ternary[_block_byte(white_men >> low)]
                                   + 2 * ternary[_block_byte(black_men >> low)]]
        else:
            masks, sparse = self._masks, self._sparse
            for k in range(2 * TABLES):
                mask, low = masks[k], lows[k]
                score += sparse[k].get(
                    (white_men & mask) >> low | ((black_men & mask) >> low) << _SPAN, 0)
        return score

    # ------------------------------------------------------------------ the shipped file
    def to_text(self, header: Mapping[str, str]) -> str:
        """The table as the text of a pattern file: ``# key: value`` header lines, then
        ``table pattern weight`` lines.

        Example:
            >>> from engine import find_variant
            >>> t = PatternTable(find_variant("international"), {(3, 10): -4})
            >>> t.to_text({"variant": "international"}).splitlines()
            ['# variant: international', '3 10 -4']
        """
        lines = [f"# {key}: {value}" for key, value in header.items()]
        lines += [f"{t} {p} {w}" for (t, p), w in sorted(self.weights.items())]
        return "\n".join(lines)

    @classmethod
    def from_text(cls, variant: Variant, text: str) -> PatternTable:
        """Parse :meth:`to_text`'s format.

        Example:
            >>> from engine import find_variant
            >>> PatternTable.from_text(find_variant("international"), "3 x")
            Traceback (most recent call last):
            ...
            engine.patterns.PatternError: pattern file line 1: '3 x' is not 'table pattern weight'

        Raises:
            PatternError: a line that is not three integers, or one out of range.
        """
        weights: dict[tuple[int, int], int] = {}
        for number, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            words = line.split()
            try:
                t, p, w = (int(x) for x in words) if len(words) == 3 else (0, 0, None)
            except ValueError:
                w = None
            if w is None:
                raise PatternError(
                    f"pattern file line {number}: {line!r} is not 'table pattern weight'")
            weights[(t, p)] = w
        return cls(variant, weights)

    @staticmethod
    def file_name(variant: str | Variant) -> str:
        """The shipped file's name in ``engine/data``.

        >>> PatternTable.file_name("international")
        'patterns_international.txt.gz'
        """
        return f"patterns_{find_variant(variant).name}.txt.gz"

    @classmethod
    def available(cls, variant: str | Variant) -> bool:
        """Whether patterns ship for ``variant``.

        >>> PatternTable.available("international"), PatternTable.available("russian")
        (True, False)
        """
        return resources.files("engine").joinpath("data", cls.file_name(variant)).is_file()

    @classmethod
    def load(cls, variant: str | Variant) -> PatternTable:
        """The shipped patterns of ``variant``, read once per variant and then shared.

        Raises:
            PatternError: none ship for it, or the file is damaged.
        """
        var = find_variant(variant)
        cached = _LOADED.get(var.name)
        if cached is not None:
            return cached
        path = resources.files("engine").joinpath("data", cls.file_name(var))
        if not path.is_file():
            raise PatternError(f"no patterns ship for {var.name}")
        try:
            text = gzip.decompress(path.read_bytes()).decode("utf-8")
        except (OSError, EOFError, UnicodeDecodeError) as exc:
            raise PatternError(f"damaged pattern file {cls.file_name(var)}: {exc}") from None
        table = cls.from_text(var, text)
        _LOADED[var.name] = table
        return table


#: The shipped tables read so far, by variant name (immutable once built).
_LOADED: dict[str, PatternTable] = {}
