"""Bitboard move generation for every variant.

Positions are three integers over a padded grid: cell ``(row, col)`` is
``row * (cols + 1) + col``; the spare column stops shifts from wrapping round the board edge.
On a checkered board every playing cell has the same parity, so its bit is the cell halved
(Scan's "ghost square" layout: 55 bits on 10x10, 36 on 8x8); orthogonal boards use the cell
itself. Compiled (mypyc), boards and keys are ``i64``: machine words, on a 32-bit machine too
(two registers there), where mypyc's ``int`` keeps only 31 bits unboxed. Canadian's 78 bits
and Turkish's 71 do not fit: :mod:`engine.generators` gives those the pure-Python copy of this
module. Geometry comes from :attr:`MoveGen.coords`,
never from the bit number.
Per variant a :class:`MoveGen` holds neighbour and ray tables built once at import.

Raw moves are tuples ``(origin_bit, dest_bit, captured_mask, promotes, path_bits, capture_bits)``;
:class:`engine.board.Board` turns them into :class:`engine.types.Move`.

Example:
    >>> from engine.variant import find_variant
    >>> gen = MoveGen(find_variant("international"))
    >>> white, black, kings = gen.initial_bitboards()
    >>> len(gen.moves(white, black, kings, 0))
    9
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TYPE_CHECKING

from engine.bits import COMPILED, bit, popcount
from engine.compiled import WORD_BITS
from engine.precedence import allowed_captures
from engine.types import BLACK, WHITE, Color, RawMove
from engine.variant import CaptureRule, PromotionInCapture, Variant

if TYPE_CHECKING:  # mypyc's 64-bit machine integer; a plain int when interpreted
    from mypy_extensions import i64

__all__ = ["MoveGen", "RawMove", "board_bits", "make_move", "routed"]

#: A finished capture sequence: (destination, promotes, landings, captured bits, captured mask)
_Seq = tuple[int, bool, tuple[int, ...], tuple[int, ...], "i64"]


def _layout(variant: Variant) -> tuple[int, tuple[int, ...]]:
    """(1 when a bit is the padded cell halved, else 0; the bit of each square)."""
    width = variant.cols + 1
    cells = [r * width + c for r, c in map(variant.square_coords, range(variant.num_squares))]
    # Halved where every playing cell (so every step) has one parity.
    half = 1 if not variant.orthogonal and len({c & 1 for c in cells}) == 1 else 0
    return half, tuple(c >> half for c in cells)


def board_bits(variant: Variant) -> int:
    """The bits a board of ``variant`` uses (the highest playing bit + 1).

    Example:
        >>> from engine.variant import find_variant
        >>> board_bits(find_variant("international")), board_bits(find_variant("canadian"))
        (55, 78)
    """
    return max(_layout(variant)[1]) + 1


def routed(variant: Variant) -> bool:
    """True when this module runs compiled and ``variant``'s boards are wider than its machine
    words (:data:`engine.compiled.WORD_BITS`): then the pure-Python copy of the hot path plays
    it (:mod:`engine.generators`). Always false in that copy, which plays every width.

    Example:
        >>> from engine.variant import find_variant
        >>> routed(find_variant("international"))
        False
    """
    return COMPILED and board_bits(variant) > WORD_BITS


class MoveGen:
    """Move generator and tables of one variant (immutable once built).

    Example:
        >>> from engine.variant import find_variant
        >>> MoveGen(find_variant("english")).num_squares
        32
    """

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        rows, width = variant.rows, variant.cols + 1
        self.width = width
        self.num_squares = variant.num_squares
        #: 1 where every playing cell and every step has one parity (the cell halved is the
        #: bit), else 0.
        self.half, self.sq2bit = _layout(variant)
        #: Number of bits a board may use (the highest playing bit + 1).
        self.size = max(self.sq2bit) + 1
        bit2sq = [-1] * self.size
        coords: list[tuple[int, int]] = [(-1, -1)] * self.size
        for sq, b in enumerate(self.sq2bit):
            bit2sq[b] = sq
            coords[b] = variant.square_coords(sq)
        self.bit2sq: tuple[int, ...] = tuple(bit2sq)
        #: (row, column) of each playing bit; (-1, -1) elsewhere.
        self.coords: tuple[tuple[int, int], ...] = tuple(coords)
        self.board_mask: i64 = sum(1 << b for b in self.sq2bit)
        self._directions(variant)
        self._rays(variant)
        top = sum(1 << b for b in self.sq2bit if coords[b][0] == rows - 1)
        bottom = sum(1 << b for b in self.sq2bit if coords[b][0] == 0)
        self.promo_mask: tuple[i64, i64] = (top, bottom)
        self.flying = variant.flying_kings
        self.rule = variant.capture_rule
        self.promo_mode = variant.promotion_in_capture
        self.immediate = variant.remove_captured_immediately
        self.no_reversal = variant.no_reversal_in_capture
        self.men_take_kings = variant.men_capture_kings
        self.halt_behind = variant.king_halts_behind
        self.killer = variant.killer_rule
        self.crown_wins = variant.crown_wins
        # Zobrist keys per bit for white man, black man, white king, black king; fixed seed so
        # hashes are stable across runs (opening books, logs).
        rng = random.Random(f"draughtsboard-zobrist-{variant.name}")
        # 62 bits: a key stays a machine-word int in compiled code.
        self.zobrist: tuple[tuple[i64, ...], ...] = tuple(
            tuple(rng.getrandbits(62) for _ in range(self.size)) for _ in range(4)
        )
        self.zobrist_black: i64 = rng.getrandbits(62)
        self._prebuilt_moves()

    def _directions(self, variant: Variant) -> None:
        # Direction k and k ^ 1 are opposite.
        steps: tuple[tuple[int, int], ...]
        if variant.orthogonal:
            steps = ((1, 0), (-1, 0), (0, 1), (0, -1))  # N, S, E, W
            forward: dict[Color, tuple[int, ...]] = {WHITE: (0, 2, 3), BLACK: (1, 2, 3)}
        else:
            steps = ((1, 1), (-1, -1), (1, -1), (-1, 1))  # NE, SW, NW, SE
            forward = {WHITE: (0, 2), BLACK: (1, 3)}
        capture_dirs: tuple[int, ...] = (0, 1, 2, 3)
        if variant.orthogonal_captures:
            # Frisian: captures also along rows and columns, where the next playing square is
            # two cells away (directions 4..7: N, S, E, W; k and k ^ 1 stay opposite).
            steps = (*steps, (2, 0), (-2, 0), (0, 2), (0, -2))
            capture_dirs = tuple(range(8))
        self.steps = steps
        self.offsets: tuple[int, ...] = tuple(
            (dr * self.width + dc) >> self.half for dr, dc in steps
        )
        self.man_dirs: tuple[tuple[int, ...], tuple[int, ...]] = (forward[WHITE], forward[BLACK])
        all_dirs = capture_dirs
        #: Directions of a king's quiet moves, and of its captures.
        self.king_dirs: tuple[int, ...] = (0, 1, 2, 3)
        self.king_cap_dirs: tuple[int, ...] = capture_dirs
        if variant.men_capture_backwards:
            self.man_capture_dirs: tuple[tuple[int, ...], tuple[int, ...]] = (all_dirs, all_dirs)
        else:
            self.man_capture_dirs = self.man_dirs

    def _rays(self, variant: Variant) -> None:
        """Per direction and bit: the ray of playing squares, the neighbour, men's jumps."""
        size = self.size
        nbrs: list[list[int]] = [[-1] * size for _ in self.steps]
        rays: list[list[tuple[int, ...]]] = [[()] * size for _ in self.steps]
        for b in self.sq2bit:
            r, c = self.coords[b]
            for k, (dr, dc) in enumerate(self.steps):
                ray = []
                rr, cc = r + dr, c + dc
                while (sq := variant.square_at(rr, cc)) is not None:
                    ray.append(self.sq2bit[sq])
                    rr, cc = rr + dr, cc + dc
                rays[k][b] = tuple(ray)
                nbrs[k][b] = ray[0] if ray else -1
        self.nbr: tuple[tuple[int, ...], ...] = tuple(tuple(n) for n in nbrs)
        # Per direction: the bits with a neighbour and a square beyond it, so that shifting a
        # mask twice by the offset can never wrap round an edge (the two-cell steps of Frisian's
        # orthogonal captures could jump the one spare column).
        self.jump_src: tuple[i64, ...] = tuple(
            sum(1 << b for b in self.sq2bit if nbrs[k][b] >= 0 and nbrs[k][nbrs[k][b]] >= 0)
            for k in range(len(self.steps))
        )
        self.ray: tuple[tuple[tuple[int, ...], ...], ...] = tuple(tuple(r) for r in rays)
        # Per colour: (direction, per bit (jumped bit, landing bit) or None) for men's captures.
        jumps = [
            tuple((m, nbrs[k][m]) if m >= 0 and nbrs[k][m] >= 0 else None for m in nbrs[k])
            for k in range(len(self.steps))
        ]
        self.man_jumps: tuple[tuple[tuple[int, tuple[tuple[int, int] | None, ...]], ...], ...] = (
            tuple((k, jumps[k]) for k in self.man_capture_dirs[0]),
            tuple((k, jumps[k]) for k in self.man_capture_dirs[1]),
        )

    def _prebuilt_moves(self) -> None:
        """Every quiet move and every man's single jump as a raw move built once, so that
        generating one allocates nothing: men's steps per colour, direction and destination
        bit; single jumps per colour, direction and origin; kings' steps per direction and
        origin, in ray order."""
        empty_step: RawMove = (0, 0, 0, False, (), ())
        men: list[tuple[tuple[RawMove, ...], ...]] = []
        for colour in (0, 1):
            promo = self.promo_mask[colour]
            per_dir: list[tuple[RawMove, ...]] = []
            for k in range(len(self.steps)):
                steps = [empty_step] * self.size
                for frm in self.sq2bit:
                    to = self.nbr[k][frm]
                    if to >= 0:
                        steps[to] = (frm, to, 0, bool(promo >> to & 1), (to,), ())
                per_dir.append(tuple(steps))
            men.append(tuple(per_dir))
        self.man_steps: tuple[tuple[tuple[RawMove, ...], ...], ...] = tuple(men)
        # A man's capture of one piece, per colour, direction and origin (None: no jump).
        singles: list[tuple[tuple[RawMove | None, ...], ...]] = []
        for colour in (0, 1):
            promo = self.promo_mask[colour]
            singles.append(tuple(
                tuple(None if jump is None else
                      (frm, jump[1], 1 << jump[0], bool(promo >> jump[1] & 1), (jump[1],),
                       (jump[0],))
                      for frm, jump in enumerate(jumps))
                for _, jumps in self.man_jumps[colour]
            ))
        self.man_singles: tuple[tuple[tuple[RawMove | None, ...], ...], ...] = tuple(singles)
        self.king_steps: tuple[tuple[tuple[RawMove, ...], ...], ...] = tuple(
            tuple(tuple((frm, to, 0, False, (to,), ()) for to in self.ray[k][frm])
                  for frm in range(self.size))
            for k in range(len(self.steps))
        )

    # -- conversions ------------------------------------------------------------------------

    def squares_to_mask(self, squares: Iterable[int]) -> int:
        """Bit mask of an iterable of square indices."""
        mask = 0
        for sq in squares:
            mask |= 1 << self.sq2bit[sq]
        return mask

    def mask_to_squares(self, mask: int) -> list[int]:
        """Square indices of the set bits of ``mask``, ascending by square."""
        out = []
        while mask:
            low = mask & -mask
            out.append(self.bit2sq[low.bit_length() - 1])
            mask ^= low
        out.sort()
        return out

    def initial_bitboards(self) -> tuple[int, int, int]:
        """(white, black, kings) of the variant's initial position."""
        v = self.variant
        return (
            self.squares_to_mask(v.initial_squares(WHITE)),
            self.squares_to_mask(v.initial_squares(BLACK)),
            0,
        )

    # -- generation -------------------------------------------------------------------------

    def moves(self, white: i64, black: i64, kings: i64, color: int) -> list[RawMove]:
        """Every legal move for ``color`` (each capture path listed separately).

        Captures are compulsory and filtered by the variant's capture rule.
        """
        own, opp = (white, black) if color == 0 else (black, white)
        if self.crown_wins and kings:
            return []  # breakthrough: the first king has ended the game
        if self.has_capture(own, opp, kings, color):
            return self.captures(own, opp, kings, color)
        return self.quiet_moves(own, opp, kings, color)

    def has_capture(self, own: i64, opp: i64, kings: i64, color: int) -> bool:
        """True when ``color`` (owning ``own``) has a capture; cheap, for bulk counting."""
        empty = self.board_mask & ~(own | opp)
        men = own & ~kings
        if men:
            target = opp if self.men_take_kings else opp & ~kings
            for k in self.man_capture_dirs[color]:
                off, src = self.offsets[k], men & self.jump_src[k]
                if off > 0:
                    if ((src << off) & target) << off & empty:
                        return True
                elif ((src >> -off) & target) >> -off & empty:
                    return True
        own_kings = own & kings
        if not own_kings:
            return False
        if not self.flying:
            for k in self.king_cap_dirs:
                off, src = self.offsets[k], own_kings & self.jump_src[k]
                if off > 0:
                    if ((src << off) & opp) << off & empty:
                        return True
                elif ((src >> -off) & opp) >> -off & empty:
                    return True
            return False
        ray = self.ray
        while own_kings:
            low = own_kings & -own_kings
            frm = popcount(low - 1)
            own_kings ^= low
            for k in self.king_cap_dirs:
                line = ray[k][frm]
                n = len(line)
                j = 0
                while j < n and (empty >> line[j]) & 1:
                    j += 1
                if j < n - 1 and (opp >> line[j]) & 1 and (empty >> line[j + 1]) & 1:
                    return True
        return False

    def count_moves(self, own: i64, opp: i64, kings: i64, color: int) -> int:
        """Number of legal moves, counting moves with the same key once (perft's last ply).

        Quiet moves of men are counted (:func:`engine.bits.popcount`) without listing them.
        """
        if self.crown_wins and kings:
            return 0
        if self.has_capture(own, opp, kings, color):
            if not own & kings and self.rule in _COUNTABLE_RULES:
                single = self._count_single_jumps(own, opp, kings, color)
                if single is not None:
                    return single
            caps = self.captures(own, opp, kings, color)
            return len({(m[0], m[1], m[2]) for m in caps})
        empty = self.board_mask & ~(own | opp)
        men = own & ~kings
        total = 0
        for k in self.man_dirs[color]:
            off = self.offsets[k]
            total += popcount((men << off if off > 0 else men >> -off) & empty)
        own_kings = own & kings
        if own_kings:
            total += len(self._king_quiet(own_kings, empty))
        return total

    def _count_single_jumps(self, own: i64, opp: i64, kings: i64, color: int) -> int | None:
        """Count men's captures when none can go on after one jump; None if some might.

        The continuation test is bit-parallel and errs on the safe side (every captured piece
        still counts as capturable), so it may send a position to full generation but never
        miscounts one. A man's second jump can never land on its own starting square (that
        would jump the first captured piece again), so only the free squares matter.
        """
        free = self.board_mask & ~(own | opp)
        target = opp if self.men_take_kings else opp & ~kings
        count = 0
        lands: i64 = 0
        dirs = self.man_capture_dirs[color]
        for k in dirs:
            off, src = self.offsets[k], own & self.jump_src[k]
            if off > 0:
                landed = ((src << off) & target) << off & free
            else:
                landed = ((src >> -off) & target) >> -off & free
            count += popcount(landed)
            lands |= landed
        if lands & self.promo_mask[color] and (
            self.promo_mode is PromotionInCapture.CONTINUE_AS_KING
        ):
            return None
        for k in dirs:
            off, src = self.offsets[k], lands & self.jump_src[k]
            if off > 0:
                if ((src << off) & target) << off & free:
                    return None
            elif ((src >> -off) & target) >> -off & free:
                return None
        return count

    def _king_quiet(self, own_kings: i64, empty: i64) -> list[RawMove]:
        out: list[RawMove] = []
        steps = self.king_steps
        while own_kings:
            low = own_kings & -own_kings
            frm = popcount(low - 1)
            own_kings ^= low
            for k in self.king_dirs:
                if self.flying:
                    for step in steps[k][frm]:
                        if not (empty >> step[1]) & 1:
                            break
                        out.append(step)
                else:
                    ray = steps[k][frm]
                    if ray and (empty >> ray[0][1]) & 1:
                        out.append(ray[0])
        return out

    def quiet_moves(self, own: i64, opp: i64, kings: i64, color: int) -> list[RawMove]:
        """Non-capturing moves of men and kings."""
        empty = self.board_mask & ~(own | opp)
        out: list[RawMove] = []
        men = own & ~kings
        man_steps = self.man_steps[color]
        for k in self.man_dirs[color]:
            off = self.offsets[k]
            steps = man_steps[k]
            targets = (men << off if off > 0 else men >> -off) & empty
            while targets:
                low = targets & -targets
                targets ^= low
                out.append(steps[popcount(low - 1)])
        own_kings = own & kings
        if own_kings:
            out += self._king_quiet(own_kings, empty)
        return out

    def captures(self, own: i64, opp: i64, kings: i64, color: int) -> list[RawMove]:
        """Every capture sequence allowed by the variant's capture rule (all paths)."""
        out: list[RawMove] = []
        free = self.board_mask & ~(own | opp)
        men = own & ~kings
        target = opp if self.men_take_kings else opp & ~kings
        # Only men with an adjacent capture can start one: find them with shifts.
        pieces = own & kings
        if men:
            for k in self.man_capture_dirs[color]:
                off, src = self.offsets[k], men & self.jump_src[k]
                if off > 0:
                    pieces |= ((free >> off) & target) >> off & src
                else:
                    pieces |= ((free << -off) & target) << -off & src
        seqs: list[_Seq] = []
        while pieces:
            low = pieces & -pieces
            frm = popcount(low - 1)
            pieces ^= low
            if not kings & low and self._add_singles(color, frm, free | low, target, out):
                continue  # the usual case: each jump of this man takes one piece, no more
            seqs.clear()
            if kings & low:
                self._king_caps(frm, free | low, opp, 0, -1, (), (), False, seqs, kings)
            else:
                self._man_caps(color, frm, free | low, target, opp, 0, -1, (), (), seqs)
            for to, promotes, path, capbits, mask in seqs:
                out.append((frm, to, mask, promotes, path, capbits))
        if out and self.rule is not CaptureRule.FREE:
            out = allowed_captures(self.rule, out, kings)
        return out

    def _add_singles(self, color: int, frm: int, empty: i64, target: i64,
                     out: list[RawMove]) -> bool:
        """Append the prebuilt single jumps of the man on ``frm`` and return True, unless one
        of its captures can take a second piece (or crown and go on as a king): then append
        nothing and return False, and the sequences are generated in full."""
        jumps_of, singles = self.man_jumps[color], self.man_singles[color]
        promo = self.promo_mask[color]
        start = len(out)
        for i in range(len(jumps_of)):
            k, jumps = jumps_of[i]
            jump = jumps[frm]
            if jump is None:
                continue
            mid, land = jump
            if not (target >> mid) & 1 or not (empty >> land) & 1:
                continue
            single = singles[i][frm]
            if single is None:  # built for every jump: never None here
                continue
            if (promo >> land) & 1:
                mode = self.promo_mode
                if mode is PromotionInCapture.ENDS_MOVE:
                    out.append(single)
                    continue
                if mode is PromotionInCapture.CONTINUE_AS_KING:
                    del out[start:]
                    return False
            taken = bit(mid)
            n_empty = empty | taken if self.immediate else empty
            n_target = target & ~taken  # a piece is jumped once
            for k2, jumps2 in jumps_of:
                if self.no_reversal and k2 == k ^ 1:
                    continue
                jump2 = jumps2[land]
                if jump2 is not None and (n_target >> jump2[0]) & 1 and (
                        n_empty >> jump2[1]) & 1:
                    del out[start:]
                    return False
            out.append(single)
        return True

    def _man_caps(
        self, color: int, cur: int, empty: i64, target: i64, opp: i64, mask: i64,
        last: int, path: tuple[int, ...], caps: tuple[int, ...], out: list[_Seq],
    ) -> bool:
        """Extend a man's capture from ``cur``; append finished sequences; True if any jump.

        ``mask`` holds the pieces captured so far: under the Turkish strike they stay on the
        board (still in ``opp``) but may not be jumped again.
        """
        found = False
        promo = self.promo_mask[color]
        for k, jumps in self.man_jumps[color]:
            jump = jumps[cur]
            if jump is None or (self.no_reversal and last == k ^ 1):
                continue
            mid, land = jump
            if not (target >> mid) & 1 or (mask >> mid) & 1 or not (empty >> land) & 1:
                continue
            found = True
            taken = bit(mid)
            n_mask = mask | taken
            if self.immediate:
                n_empty, n_target, n_opp = empty | taken, target & ~taken, opp & ~taken
            else:
                n_empty, n_target, n_opp = empty, target, opp
            n_path, n_caps = (*path, land), (*caps, mid)
            if (promo >> land) & 1:
                mode = self.promo_mode
                if mode is PromotionInCapture.ENDS_MOVE:
                    out.append((land, True, n_path, n_caps, n_mask))
                    continue
                if mode is PromotionInCapture.CONTINUE_AS_KING:
                    if not self._king_caps(land, n_empty, n_opp, n_mask, k, n_path, n_caps,
                                           True, out, 0):
                        out.append((land, True, n_path, n_caps, n_mask))
                    continue
            if not self._man_caps(color, land, n_empty, n_target, n_opp, n_mask, k, n_path,
                                  n_caps, out):
                out.append((land, bool((promo >> land) & 1), n_path, n_caps, n_mask))
        return found

    def _king_caps(
        self, cur: int, empty: i64, opp: i64, mask: i64, last: int,
        path: tuple[int, ...], caps: tuple[int, ...], promoted: bool, out: list[_Seq],
        kings: i64 = 0,
    ) -> bool:
        """Extend a king's capture from ``cur``; append finished sequences; True if any jump.

        ``kings`` is the kings bitboard, read by the killer rule (a capture whose last captured
        piece is a king ends on the square directly behind it).
        """
        found = False
        flying = self.flying
        for k in self.king_cap_dirs:
            if self.no_reversal and last == k ^ 1:
                continue
            ray = self.ray[k][cur]
            n = len(ray)
            j = 0
            if flying:
                while j < n and (empty >> ray[j]) & 1:
                    j += 1
            if j >= n - 1:
                continue
            mid = ray[j]
            if not (opp >> mid) & 1 or (mask >> mid) & 1:
                continue
            j += 1
            landings = []
            while j < n and (empty >> ray[j]) & 1:
                landings.append(ray[j])
                j += 1
                if not flying or self.halt_behind:
                    break
            if not landings:
                continue
            found = True
            taken = bit(mid)
            n_mask = mask | taken
            if self.immediate:
                n_empty, n_opp = empty | taken, opp & ~taken
            else:
                n_empty, n_opp = empty, opp
            n_caps = (*caps, mid)
            # A king must land where it can go on capturing, if such a square exists.
            going_on = False
            for land in landings:
                if self._king_caps(land, n_empty, n_opp, n_mask, k, (*path, land), n_caps,
                                   promoted, out, kings):
                    going_on = True
            if not going_on:
                if self.killer and (kings >> mid) & 1:
                    landings = landings[:1]
                for land in landings:
                    out.append((land, promoted, (*path, land), n_caps, n_mask))
        return found


#: Capture rules under which a man's single jumps can be counted without listing them.
_COUNTABLE_RULES = frozenset({
    CaptureRule.FREE, CaptureRule.MAJORITY, CaptureRule.ITALIAN, CaptureRule.KING_FIRST,
})


def make_move(
    z: tuple[tuple[i64, ...], ...], z_black: i64, raw: RawMove,
    white: i64, black: i64, kings: i64, colour: int, key: i64,
) -> tuple[i64, i64, i64, i64]:
    """The position after ``raw``: new (white, black, kings, zobrist key).

    A king may end a capture on the square it started from, so origin and destination are
    cleared and set rather than toggled.
    """
    frm, to, cap, promotes, _path, capbits = raw
    fb, tb = bit(frm), bit(to)
    key ^= z_black
    if cap:
        opp = 1 - colour
        men_keys, king_keys = z[opp], z[opp + 2]
        for b in capbits:
            key ^= king_keys[b] if kings >> b & 1 else men_keys[b]
    if kings & fb:
        king_keys = z[colour + 2]
        key ^= king_keys[frm] ^ king_keys[to]
        kings = (kings & ~cap & ~fb) | tb
    elif promotes:
        key ^= z[colour][frm] ^ z[colour + 2][to]
        kings = (kings & ~cap) | tb
    else:
        men_keys = z[colour]
        key ^= men_keys[frm] ^ men_keys[to]
        kings &= ~cap
    if colour == 0:
        return (white & ~fb) | tb, black & ~cap, kings, key
    return white & ~cap, (black & ~fb) | tb, kings, key
