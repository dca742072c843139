"""Endgame databases: win/draw/loss and the distance to conversion of small endings.

A table holds, for every material *signature* (white men, white kings, black men, black kings)
up to a piece count, the game-theoretic value of each position for the side to move, built by
:mod:`engine.endgame_build` from the engine's own move generator (so the rules are the
engine's) and shipped as package data in ``engine/data/egdb_<variant>.bin``. Each value carries
the *distance to conversion*: the plies until the winner forces a capture or a promotion into a
position that is still won (or the end of the game), with the loser delaying it as long as he
can. The counting draw rules (FMJD 25 and 16 moves, ...) are not in the tables:
:mod:`engine.search` trusts a value only when the rules leave enough moves for it.

Positions are indexed per signature by the combinatorial number system over each group's
squares (men never stand on their own promotion row); a position and its colour-reversed mirror
(the board turned round, colours swapped) share one entry, so only one of the two signatures is
stored.

Example:
    >>> from engine.endgame_build import build
    >>> table = build("english", pieces=2)          # the shipped file: EndgameTable.load
    >>> gen = table.index.gen
    >>> white, black = gen.squares_to_mask([0]), gen.squares_to_mask([31])
    >>> table.probe(white, black, white | black, 0)      # a king on 1 against a king on 32
    <WDL.DRAW: 0>
    >>> white, black = gen.squares_to_mask([13]), gen.squares_to_mask([17])
    >>> table.probe_distance(white, black, white | black, 0)   # 14 takes 18 at once
    (<WDL.WIN: 1>, 1)
"""

from __future__ import annotations

import json
import lzma
from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum
from importlib import resources
from types import MappingProxyType

from engine.errors import DraughtsError
from engine.generators import generator_for
from engine.movegen import MoveGen
from engine.variant import Variant, find_variant

__all__ = [
    "SHARED",
    "SHIPPED",
    "WDL",
    "EndgameError",
    "EndgameTable",
    "Signature",
    "TableIndex",
    "decode_value",
    "encode_value",
    "table_file_name",
]

#: Material of a position: (white men, white kings, black men, black kings).
Signature = tuple[int, int, int, int]

MAGIC = b"DRAUGHTSBOARD-EGDB 1\n"
#: The largest distance a value byte can hold (wins 1..127, losses 0..127).
MAX_DISTANCE = 127
_LOSS_BASE = 128


#: The tables that ship, per variant: (pieces, pieces when some are men, whether the endings
#: of kings alone above that are only those against a lone king). docs/endgames.md gives the
#: sizes and build times behind the choice.
SHIPPED: Mapping[str, tuple[int, int, bool]] = MappingProxyType({
    "english": (4, 4, False),
    "russian": (4, 4, False),
    "brazilian": (4, 4, False),
    "pool": (4, 4, False),
    "international": (4, 4, False),
    "italian": (3, 3, False),
    "spanish": (3, 3, False),
    "czech": (3, 3, False),
    "thai": (3, 3, False),
    "turkish": (3, 3, False),
})
#: Variants whose endings are another's (same board, same rules once the men are placed).
SHARED: Mapping[str, str] = MappingProxyType({"diagonal": "russian", "portuguese": "spanish"})


class EndgameError(DraughtsError, ValueError):
    """A table file that cannot be read, or a variant the tables cannot describe."""


class WDL(IntEnum):
    """The value of a position for the side to move."""

    LOSS = -1
    DRAW = 0
    WIN = 1


def encode_value(wdl: WDL, distance: int) -> int:
    """The stored byte of a value: 0 draw, 1..127 a win, 128..255 a loss.

    >>> encode_value(WDL.WIN, 3), encode_value(WDL.LOSS, 0), encode_value(WDL.DRAW, 0)
    (3, 128, 0)

    Raises:
        EndgameError: a distance the byte cannot hold.
    """
    if wdl is WDL.DRAW:
        return 0
    low = 1 if wdl is WDL.WIN else 0
    if not low <= distance <= MAX_DISTANCE:
        raise EndgameError(f"distance {distance} of a {wdl.name} does not fit a table byte")
    return distance if wdl is WDL.WIN else _LOSS_BASE + distance


def decode_value(byte: int) -> tuple[WDL, int]:
    """``(wdl, distance)`` of a stored byte.

    >>> decode_value(3), decode_value(130)
    ((<WDL.WIN: 1>, 3), (<WDL.LOSS: -1>, 2))
    """
    if byte == 0:
        return WDL.DRAW, 0
    if byte < _LOSS_BASE:
        return WDL.WIN, byte
    return WDL.LOSS, byte - _LOSS_BASE


def table_file_name(variant: str | Variant) -> str:
    """The package-data file of a variant's tables.

    >>> table_file_name("checkers"), table_file_name("diagonal")
    ('egdb_english.bin', 'egdb_russian.bin')
    """
    name = find_variant(variant).name
    return f"egdb_{SHARED.get(name, name)}.bin"


def supports(variant: Variant) -> bool:
    """Whether tables can describe ``variant``: its positions alone decide the game.

    Not for giveaway goals, breakthrough (a king ends the game) or the Frisian king-move
    limit (a rule on the history).

    >>> supports(find_variant("russian")), supports(find_variant("frisian"))
    (True, False)
    """
    return not (variant.giveaway or variant.crown_wins or variant.same_king_move_limit)


class TableIndex:
    """Position <-> index of each signature for one variant (pure arithmetic, no tables).

    Example:
        >>> index = TableIndex("english")
        >>> index.size((0, 2, 0, 1))     # C(32, 2) * 32
        15872
        >>> index.mirror_signature((1, 0, 0, 2))
        (0, 2, 1, 0)
    """

    def __init__(self, variant: str | Variant) -> None:
        self.variant = find_variant(variant)
        gen: MoveGen = generator_for(self.variant)
        self.gen = gen
        n = gen.num_squares
        self.num_squares = n
        top, bottom = gen.promo_mask
        # Per group: bit -> position in the group's domain (-1 outside it).
        self.king_pos: tuple[int, ...] = _domain(gen, 0)
        self.men_pos: tuple[tuple[int, ...], tuple[int, ...]] = (
            _domain(gen, top), _domain(gen, bottom)
        )
        self.men_domain: tuple[tuple[int, ...], tuple[int, ...]] = (
            _domain_bits(gen, top), _domain_bits(gen, bottom)
        )
        self.king_domain: tuple[int, ...] = _domain_bits(gen, 0)
        self._binom = _binomials(n + 1, 12)
        self.mirror_bit: tuple[int, ...] = _mirror_bits(self.variant, gen)

    # -- sizes ------------------------------------------------------------------------------
    def group_sizes(self, sig: Signature) -> tuple[int, int, int, int]:
        """Number of placements of each group: white men, white kings, black men, black kings."""
        c = self._binom
        wm, wk, bm, bk = sig
        return (c[len(self.men_domain[0])][wm], c[self.num_squares][wk],
                c[len(self.men_domain[1])][bm], c[self.num_squares][bk])

    def size(self, sig: Signature) -> int:
        """Entries of one side to move of ``sig`` (the table holds twice that)."""
        a, b, c, d = self.group_sizes(sig)
        return a * b * c * d

    @staticmethod
    def mirror_signature(sig: Signature) -> Signature:
        """The signature with the colours swapped."""
        return (sig[2], sig[3], sig[0], sig[1])

    @staticmethod
    def canonical(sig: Signature) -> bool:
        """Whether ``sig`` is the stored one of itself and its mirror (White not weaker)."""
        return (sig[0], sig[1]) >= (sig[2], sig[3])

    # -- positions --------------------------------------------------------------------------
    def rank(self, mask: int, pos: tuple[int, ...]) -> int:
        """Rank of the squares of ``mask`` among the combinations of their domain."""
        c = self._binom
        out = 0
        i = 1
        # Domain positions grow with bits, so a mask's bits in ascending order are sorted.
        while mask:
            low = mask & -mask
            out += c[pos[low.bit_length() - 1]][i]
            i += 1
            mask ^= low
        return out

    def index(self, sig: Signature, white: int, black: int, kings: int, colour: int) -> int:
        """Index of a position of ``sig`` in its table (colour 1 in the second half)."""
        _a, n_wk, n_bm, n_bk = self.group_sizes(sig)
        men = self.men_pos
        kp = self.king_pos
        r = self.rank(white & ~kings, men[0]) * n_wk + self.rank(white & kings, kp)
        r = (r * n_bm + self.rank(black & ~kings, men[1])) * n_bk + self.rank(black & kings, kp)
        return r + colour * self.size(sig) if colour else r

    def mirror(self, white: int, black: int, kings: int) -> tuple[int, int, int]:
        """The colour-reversed position: board turned round, White's pieces become Black's."""
        mb = self.mirror_bit

        def turn(mask: int) -> int:
            out = 0
            while mask:
                low = mask & -mask
                out |= 1 << mb[low.bit_length() - 1]
                mask ^= low
            return out

        return turn(black), turn(white), turn(kings)


def _compress(values: bytes) -> bytes:
    return lzma.compress(values, preset=9 | lzma.PRESET_EXTREME)


def _decompress(blob: bytes) -> bytes:
    try:
        return lzma.decompress(blob)
    except lzma.LZMAError as exc:
        raise EndgameError(f"damaged endgame table data: {exc}") from None


def _domain_bits(gen: MoveGen, promo_row: int) -> tuple[int, ...]:
    """The bits a group may stand on, ascending (so a mask's bits come in rank order)."""
    return tuple(sorted(b for b in gen.sq2bit if not (promo_row >> b) & 1))


def _domain(gen: MoveGen, promo_row: int) -> tuple[int, ...]:
    pos = [-1] * len(gen.bit2sq)
    for i, b in enumerate(_domain_bits(gen, promo_row)):
        pos[b] = i
    return tuple(pos)


def _binomials(n: int, k: int) -> tuple[tuple[int, ...], ...]:
    rows: list[tuple[int, ...]] = []
    for i in range(n + 1):
        row = [1] + [0] * k
        for j in range(1, k + 1):
            row[j] = rows[i - 1][j - 1] + rows[i - 1][j] if i else 0
        rows.append(tuple(row))
    return tuple(rows)


def _mirror_bits(variant: Variant, gen: MoveGen) -> tuple[int, ...]:
    out = [-1] * len(gen.bit2sq)
    for sq, bit in enumerate(gen.sq2bit):
        row, col = variant.square_coords(sq)
        other = variant.square_at(variant.rows - 1 - row, variant.cols - 1 - col)
        if other is None:
            raise EndgameError(f"the {variant.name} board is not symmetric under a half turn")
        out[bit] = gen.sq2bit[other]
    return tuple(out)


@dataclass(frozen=True)
class TableInfo:
    """What a table file covers: every signature up to ``pieces`` pieces, those with men up
    to ``men_pieces``; with ``against_one``, the kings-only ones above ``men_pieces`` only
    against a lone king (three kings against one, ...)."""

    variant: str
    pieces: int
    men_pieces: int
    against_one: bool = False


class EndgameTable:
    """The endgame tables of one variant, decompressed per signature on first use.

    Build one with :func:`engine.endgame_build.build` or read the shipped file with
    :meth:`load`. Positions are the raw bitboards of :mod:`engine.movegen`.

    Example:
        >>> from engine.endgame_build import build
        >>> build("russian", pieces=2).info.pieces
        2
    """

    def __init__(self, info: TableInfo, blobs: dict[Signature, bytes]) -> None:
        self.info = info
        self.index = TableIndex(info.variant)
        self._blobs = blobs
        self._values: dict[Signature, bytes] = {}

    @property
    def variant(self) -> Variant:
        """The variant the tables are for."""
        return self.index.variant

    @property
    def signatures(self) -> tuple[Signature, ...]:
        """The stored signatures (one of each colour-mirrored pair)."""
        return tuple(self._blobs)

    @classmethod
    def from_values(cls, info: TableInfo, values: dict[Signature, bytes]) -> EndgameTable:
        """A table from uncompressed value bytes per signature (the builder's output)."""
        table = cls(info, {})
        table._values = dict(values)
        table._blobs = {sig: b"" for sig in values}
        return table

    def add(self, sig: Signature, values: bytes) -> None:
        """Add (or replace) the uncompressed values of one signature (for the builder)."""
        if len(values) != 2 * self.index.size(sig):
            raise EndgameError(f"{sig} needs {2 * self.index.size(sig)} values, "
                               f"not {len(values)}")
        self._values[sig] = values
        self._blobs[sig] = b""

    def covers(self, white: int, black: int, kings: int) -> bool:
        """Whether the table holds this material (both sides with pieces, within the count)."""
        total = (white | black).bit_count()
        if not white or not black or total > self.info.pieces:
            return False
        if total <= self.info.men_pieces:
            return True
        if (white | black) & ~kings:
            return False
        return not self.info.against_one or white.bit_count() == 1 or black.bit_count() == 1

    def probe(self, white: int, black: int, kings: int, colour: int) -> WDL | None:
        """The value for the side to move (``colour`` 0 White), or None outside the tables.

        The position must be one the side to move faces with no capture pending or not:
        captures are in the table as every other move.
        """
        found = self.probe_distance(white, black, kings, colour)
        return None if found is None else found[0]

    def probe_distance(
        self, white: int, black: int, kings: int, colour: int
    ) -> tuple[WDL, int] | None:
        """``(wdl, plies to conversion)`` for the side to move, or None outside the tables."""
        byte = self.probe_byte(white, black, kings, colour)
        return None if byte < 0 else decode_value(byte)

    def probe_byte(self, white: int, black: int, kings: int, colour: int) -> int:
        """The stored value byte (see :func:`decode_value`), or -1 outside the tables."""
        if not self.covers(white, black, kings):
            return -1
        sig: Signature = ((white & ~kings).bit_count(), (white & kings).bit_count(),
                          (black & ~kings).bit_count(), (black & kings).bit_count())
        index = self.index
        if not index.canonical(sig):
            white, black, kings = index.mirror(white, black, kings)
            sig = index.mirror_signature(sig)
            colour = 1 - colour
        values = self._values.get(sig)
        if values is None:
            blob = self._blobs.get(sig)
            if blob is None:
                return -1
            values = _decompress(blob)
            self._values[sig] = values
        return values[index.index(sig, white, black, kings, colour)]

    def values(self, sig: Signature) -> bytes:
        """The uncompressed value bytes of a stored signature."""
        if sig not in self._values:
            self._values[sig] = _decompress(self._blobs[sig])
        return self._values[sig]

    # -- the file ---------------------------------------------------------------------------
    def to_bytes(self) -> bytes:
        """The table file: a header line of JSON, then one xz stream per signature.

        The same tables give the same bytes (signatures in order, fixed xz preset); a table read
        from a file keeps its streams, so writing it back compresses nothing again.
        """
        blobs = [(sig, self._blobs.get(sig) or _compress(self.values(sig)))
                 for sig in sorted(self.signatures)]
        entries = []
        offset = 0
        for sig, blob in blobs:
            entries.append([*sig, offset, len(blob)])
            offset += len(blob)
        header = {"variant": self.info.variant, "pieces": self.info.pieces,
                  "men_pieces": self.info.men_pieces, "against_one": self.info.against_one,
                  "signatures": entries}
        line = json.dumps(header, sort_keys=True, separators=(",", ":")).encode("ascii")
        return MAGIC + line + b"\n" + b"".join(blob for _sig, blob in blobs)

    @classmethod
    def from_bytes(cls, data: bytes) -> EndgameTable:
        """Read a table file written by :meth:`to_bytes`.

        Raises:
            EndgameError: not a table file, or a damaged one.
        """
        if not data.startswith(MAGIC):
            raise EndgameError("not an endgame table file (bad magic)")
        end = data.find(b"\n", len(MAGIC))
        try:
            header = json.loads(data[len(MAGIC):end].decode("ascii"))
            info = TableInfo(str(header["variant"]), int(header["pieces"]),
                             int(header["men_pieces"]), bool(header["against_one"]))
            base = end + 1
            blobs: dict[Signature, bytes] = {}
            for wm, wk, bm, bk, offset, length in header["signatures"]:
                blob = data[base + int(offset): base + int(offset) + int(length)]
                if len(blob) != int(length):
                    raise EndgameError("endgame table file is truncated")
                blobs[(int(wm), int(wk), int(bm), int(bk))] = blob
        except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
            if isinstance(exc, EndgameError):
                raise
            raise EndgameError(f"damaged endgame table header: {exc}") from None
        return cls(info, blobs)

    @classmethod
    def load(cls, variant: str | Variant) -> EndgameTable:
        """The shipped tables of ``variant`` (keep the instance: each call reads the file).

        Raises:
            EndgameError: no tables ship for this variant.
        """
        name = table_file_name(variant)
        path = resources.files("engine").joinpath("data", name)
        if not path.is_file():
            raise EndgameError(f"no endgame tables ship for {find_variant(variant).name}")
        return cls.from_bytes(path.read_bytes())

    @staticmethod
    def available(variant: str | Variant) -> bool:
        """Whether tables ship for ``variant``.

        >>> EndgameTable.available("frisian")
        False
        """
        name = table_file_name(variant)
        return resources.files("engine").joinpath("data", name).is_file()
