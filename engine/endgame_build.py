"""The retrograde builder and checker of :mod:`engine.endgame` tables (pure computation).

Signatures are built in order of piece count, then of men (a capture removes a piece, a
promotion turns a man into a king), so every position a capture or a promotion leads to is
already known. Inside a signature only quiet moves of men that do not promote and of kings
remain, and they are undone exactly: a king steps back along its ray, a man one square against
its direction, and the position before must have had no capture (captures are compulsory).

1. One forward pass over every position with :meth:`engine.movegen.MoveGen.moves`: no move is a
   loss in 0; a capture or promotion to a lost position is a win in 1; otherwise the quiet moves
   that stay in the signature are counted.
2. Breadth-first from those, by distance: a predecessor of a loss is a win one ply longer; a
   predecessor whose last unknown move led to a win (and with no drawn conversion) is a loss.
3. What is left is a draw.

:func:`verify` checks a finished table against the move generator alone: every win has a move
to a loss one ply shorter (or a winning conversion), every loss has all its moves to wins, and
no draw has either.

Example:
    >>> table = build("english", pieces=2)
    >>> gen = table.index.gen
    >>> kings = gen.squares_to_mask([0, 31])
    >>> table.probe(gen.squares_to_mask([0]), gen.squares_to_mask([31]), kings, 0).name
    'DRAW'
    >>> verify(table)
    []
"""

from __future__ import annotations

import itertools
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from engine.endgame import (
    WDL,
    EndgameError,
    EndgameTable,
    Signature,
    TableIndex,
    TableInfo,
    decode_value,
    encode_value,
    supports,
)
from engine.movegen import RawMove
from engine.variant import Variant, find_variant

__all__ = ["BuildStats", "build", "positions", "signatures", "verify"]

#: Called after each signature: (signature, positions of both sides to move).
Progress = Callable[[Signature, int], None]


@dataclass(frozen=True)
class BuildStats:
    """Counts of one signature: entries, real positions, wins, losses, longest distance."""

    signature: Signature
    entries: int
    positions: int
    wins: int
    losses: int
    longest: int


def signatures(
    variant: str | Variant, pieces: int, men_pieces: int, against_one: bool = False,
) -> list[Signature]:
    """The stored signatures of a table, in build order (fewer pieces, then fewer men first).

    With ``against_one`` the kings-only signatures above ``men_pieces`` are only those with a
    lone king on one side.

    >>> signatures("english", 2, 2)
    [(0, 1, 0, 1), (1, 0, 0, 1), (1, 0, 1, 0)]
    """
    index = TableIndex(variant)
    out: list[Signature] = []
    for total in range(2, pieces + 1):
        for wm, wk, bm, bk in itertools.product(range(total + 1), repeat=4):
            sig: Signature = (wm, wk, bm, bk)
            if sum(sig) != total or wm + wk == 0 or bm + bk == 0:
                continue
            if (wm or bm) and total > men_pieces:
                continue
            if against_one and total > men_pieces and min(wk, bk) > 1:
                continue
            if index.canonical(sig):
                out.append(sig)
    return sorted(out, key=lambda s: (sum(s), s[0] + s[2], s))


def _combos(domain: tuple[int, ...], k: int, index: TableIndex,
            pos: tuple[int, ...]) -> list[int]:
    """Masks of every k-subset of ``domain`` by rank."""
    masks = [sum(1 << b for b in combo) for combo in itertools.combinations(domain, k)]
    out = [0] * len(masks)
    for mask in masks:
        out[index.rank(mask, pos)] = mask
    return out


class _Groups:
    """Rank -> mask lists of a signature's four groups."""

    def __init__(self, index: TableIndex, sig: Signature) -> None:
        wm, wk, bm, bk = sig
        self.lists = (
            _combos(index.men_domain[0], wm, index, index.men_pos[0]),
            _combos(index.king_domain, wk, index, index.king_pos),
            _combos(index.men_domain[1], bm, index, index.men_pos[1]),
            _combos(index.king_domain, bk, index, index.king_pos),
        )
        self.sizes = index.group_sizes(sig)
        self.half = index.size(sig)

    def decode(self, entry: int) -> tuple[int, int, int, int] | None:
        """(white, black, kings, colour) of an entry, None where two pieces overlap."""
        colour, r = divmod(entry, self.half)
        _a, n_wk, n_bm, n_bk = self.sizes
        r, r_bk = divmod(r, n_bk)
        r, r_bm = divmod(r, n_bm)
        r_wm, r_wk = divmod(r, n_wk)
        wm, wk = self.lists[0][r_wm], self.lists[1][r_wk]
        bm, bk = self.lists[2][r_bm], self.lists[3][r_bk]
        if wm & wk or (wm | wk) & (bm | bk) or bm & bk:
            return None
        return wm | wk, bm | bk, wk | bk, colour


def positions(
    index: TableIndex, sig: Signature, every: int = 1, start: int = 0,
) -> Iterator[tuple[int, int, int, int, int]]:
    """The real positions of ``sig``: (entry, white, black, kings, colour), every ``every``-th
    entry from ``start``."""
    groups = _Groups(index, sig)
    for entry in range(start, 2 * groups.half, every):
        found = groups.decode(entry)
        if found is not None:
            yield (entry, *found)


def _child(raw: RawMove, white: int, black: int, kings: int,
           colour: int) -> tuple[int, int, int]:
    frm, to, cap, promotes = raw[0], raw[1], raw[2], raw[3]
    fb, tb = 1 << frm, 1 << to
    if kings & fb or promotes:
        kings = (kings & ~cap & ~fb) | tb
    else:
        kings &= ~cap
    if colour == 0:
        return (white & ~fb) | tb, black & ~cap, kings
    return white & ~cap, (black & ~fb) | tb, kings


def _exit_byte(table: EndgameTable, white: int, black: int, kings: int, colour: int) -> int:
    """Value byte of a position after a conversion (``colour`` to move)."""
    if not (black if colour else white):
        return encode_value(WDL.LOSS, 0)  # the last piece is gone: no move
    byte = table.probe_byte(white, black, kings, colour)
    if byte < 0:
        raise EndgameError("a conversion left the tables: signatures built out of order")
    return byte


class _Builder:
    """The retrograde analysis of one signature against the signatures built before it."""

    def __init__(self, table: EndgameTable, sig: Signature) -> None:
        self.table = table
        self.index = table.index
        self.gen = table.index.gen
        self.sig = sig
        self.groups = _Groups(self.index, sig)
        n = 2 * self.groups.half
        self.values = bytearray(n)
        self.known = bytearray(n)
        self.count = array("H", bytes(2 * n))
        self.noloss = bytearray(n)
        self._queue: list[int] = []

    def run(self) -> BuildStats:
        """Solve the signature; the values are then in :attr:`values`."""
        level0: list[int] = []
        level1: list[int] = []
        real = 0
        for entry, white, black, kings, colour in positions(self.index, self.sig):
            real += 1
            self._forward(entry, white, black, kings, colour, level0, level1)
        queue = self._queue = level0 + level1
        head = 0
        while head < len(queue):  # the queue grows while it is read, by distance
            self._retro(queue[head])
            head += 1
        values = self.values
        wins = sum(1 for e in queue if values[e] < 128)
        longest = max((decode_value(values[e])[1] for e in queue), default=0)
        return BuildStats(self.sig, len(values), real, wins, len(queue) - wins, longest)

    def _forward(self, entry: int, white: int, black: int, kings: int, colour: int,
                 level0: list[int], level1: list[int]) -> None:
        gen = self.gen
        own, opp = (white, black) if colour == 0 else (black, white)
        if not own & ~kings and not gen.has_capture(own, opp, kings, colour):
            # Kings alone, no capture: every move stays in the signature; count them only.
            quiet = gen.count_moves(own, opp, kings, colour)
            if quiet:
                self.count[entry] = quiet
            else:
                self._set(entry, WDL.LOSS, 0)
                level0.append(entry)
            return
        moves = gen.moves(white, black, kings, colour)
        if not moves:
            self._set(entry, WDL.LOSS, 0)
            level0.append(entry)
            return
        inside = 0
        draw_exit = False
        seen: set[tuple[int, int, int]] = set()
        for raw in moves:
            if raw[2] or raw[3]:
                if (raw[0], raw[1], raw[2]) in seen:
                    continue
                seen.add((raw[0], raw[1], raw[2]))
                w2, b2, k2 = _child(raw, white, black, kings, colour)
                wdl, _d = decode_value(_exit_byte(self.table, w2, b2, k2, 1 - colour))
                if wdl is WDL.LOSS:
                    self._set(entry, WDL.WIN, 1)
                    level1.append(entry)
                    return
                draw_exit = draw_exit or wdl is WDL.DRAW
            else:
                inside += 1
        if draw_exit:
            self.noloss[entry] = 1
        elif not inside:
            self._set(entry, WDL.LOSS, 1)  # every move converts into a lost position
            level1.append(entry)
            return
        self.count[entry] = inside

    def _set(self, entry: int, wdl: WDL, distance: int) -> None:
        self.values[entry] = encode_value(wdl, distance)
        self.known[entry] = 1

    def _retro(self, entry: int) -> None:
        wdl, distance = decode_value(self.values[entry])
        found = self.groups.decode(entry)
        if found is None:  # pieces overlap: no position, so no predecessor either
            return
        for pred in self._predecessors(*found):
            if self.known[pred]:
                continue
            if wdl is WDL.LOSS:
                self._set(pred, WDL.WIN, distance + 1)
                self._queue.append(pred)
            else:
                left = self.count[pred] - 1
                self.count[pred] = left
                if not left and not self.noloss[pred]:
                    self._set(pred, WDL.LOSS, distance + 1)
                    self._queue.append(pred)

    def _predecessors(self, white: int, black: int, kings: int, colour: int) -> Iterator[int]:
        """Entries of the positions one quiet, non-promoting move before this one."""
        gen, index, sig = self.gen, self.index, self.sig
        mover = 1 - colour
        own, opp = (white, black) if mover == 0 else (black, white)
        occupied = white | black
        pieces = own
        while pieces:
            low = pieces & -pieces
            s = low.bit_length() - 1
            pieces ^= low
            origins: list[int] = []
            if kings & low:
                for k in gen.king_dirs:
                    for t in gen.ray[k][s]:
                        if (occupied >> t) & 1:
                            break
                        origins.append(t)
                        if not gen.flying:
                            break
            else:
                for k in gen.man_dirs[mover]:
                    t = gen.nbr[k ^ 1][s]
                    if t >= 0 and not (occupied >> t) & 1:
                        origins.append(t)
            for t in origins:
                swap = low | (1 << t)
                own2 = own ^ swap
                kings2 = kings ^ swap if kings & low else kings
                if gen.has_capture(own2, opp, kings2, mover):
                    continue
                w2, b2 = (own2, opp) if mover == 0 else (opp, own2)
                yield index.index(sig, w2, b2, kings2, mover)



def build(
    variant: str | Variant, pieces: int, men_pieces: int | None = None,
    progress: Callable[[BuildStats], None] | None = None, against_one: bool = False,
) -> EndgameTable:
    """Build the tables of ``variant``: every signature up to ``pieces`` pieces, those with
    men up to ``men_pieces`` (default: ``pieces``), and with ``against_one`` the kings-only
    ones above that only against a lone king.

    Raises:
        EndgameError: a variant the tables cannot describe, or counts out of range.
    """
    v = find_variant(variant)
    if not supports(v):
        raise EndgameError(f"endgame tables cannot describe {v.name}: its positions alone "
                           "do not decide the game")
    men = pieces if men_pieces is None else men_pieces
    if not 2 <= pieces <= 6 or not 2 <= men <= pieces:
        raise EndgameError(f"pieces must be 2..6 and men pieces 2..pieces, not {pieces}, {men}")
    info = TableInfo(v.name, pieces, men, against_one and men < pieces)
    values: dict[Signature, bytes] = {}
    table = EndgameTable.from_values(info, values)
    for sig in signatures(v, pieces, men, info.against_one):
        builder = _Builder(table, sig)
        stats = builder.run()
        table.add(sig, bytes(builder.values))
        if progress is not None:
            progress(stats)
    return table


# -- checking ---------------------------------------------------------------------------------


def expected_byte(table: EndgameTable, white: int, black: int, kings: int, colour: int) -> int:
    """The value byte a position must have given its children's stored values.

    One ply of minimax over the move generator's moves, read from the table itself (and, past
    a conversion, from the smaller signatures): the fixed point the table must be.
    """
    gen = table.index.gen
    moves = gen.moves(white, black, kings, colour)
    if not moves:
        return encode_value(WDL.LOSS, 0)
    win: int | None = None
    loss = 0
    drawn = False
    for raw in moves:
        w2, b2, k2 = _child(raw, white, black, kings, colour)
        convert = bool(raw[2] or raw[3])
        byte = _exit_byte(table, w2, b2, k2, 1 - colour)
        wdl, d = decode_value(byte)
        plies = 1 if convert else d + 1
        if wdl is WDL.LOSS:
            win = plies if win is None else min(win, plies)
        elif wdl is WDL.WIN:
            loss = max(loss, plies)
        else:
            drawn = True
    if win is not None:
        return encode_value(WDL.WIN, win)
    if drawn:
        return 0
    return encode_value(WDL.LOSS, loss)


def verify(table: EndgameTable, every: int = 1) -> list[str]:
    """Problems found by checking every ``every``-th position of each signature (none: ``[]``).

    A draw is only a fixed point too: a table that called some won positions drawn would pass
    this check only if the wins went round in a cycle, which retrograde analysis never builds.
    """
    problems: list[str] = []
    index = table.index
    for sig in table.signatures:
        values = table.values(sig)
        for entry, white, black, kings, colour in positions(index, sig, every):
            want = expected_byte(table, white, black, kings, colour)
            if values[entry] != want:
                got = decode_value(values[entry])
                need = decode_value(want)
                problems.append(f"{sig} entry {entry}: stored {got[0].name} {got[1]}, "
                                f"the moves give {need[0].name} {need[1]}")
                if len(problems) >= 20:
                    return problems
    return problems
