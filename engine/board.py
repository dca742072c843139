"""The position with its move stack: push/pop, legal moves, FEN, Zobrist hash.

Example:
    >>> board = Board("international")
    >>> len(board.legal_moves)
    9
    >>> board.push(board.parse_move("32-28"))
    >>> board.fen()
    'B:W28,31,33-50:B1-20'
    >>> board.pop().destination
    27
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from engine.draw import outcome
from engine.errors import AmbiguousMoveError, IllegalMoveError, InvalidFenError
from engine.fen import parse_fen, write_fen
from engine.generators import generator_for
from engine.movegen import MoveGen, RawMove
from engine.notation import move_notation, parse_move
from engine.outcome import Outcome
from engine.types import BLACK, WHITE, Color, Move, Piece, Square
from engine.variant import Variant, find_variant

__all__ = ["Board", "LegalMoves"]


class LegalMoves:
    """The legal moves of a position, one per distinct (origin, destination, captured set).

    Supports ``len``, iteration, truth value and ``in`` (matched by :meth:`Move.key`).

    Example:
        >>> moves = Board("english").legal_moves
        >>> len(moves), bool(moves)
        (7, True)
    """

    __slots__ = ("_by_key",)

    def __init__(self, moves: Iterable[Move]) -> None:
        self._by_key: dict[tuple[Square, Square, frozenset[Square]], Move] = {}
        for move in moves:
            self._by_key.setdefault(move.key(), move)

    def __len__(self) -> int:
        return len(self._by_key)

    def __iter__(self) -> Iterator[Move]:
        return iter(self._by_key.values())

    def __bool__(self) -> bool:
        return bool(self._by_key)

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and move.key() in self._by_key

    def get(self, move: Move) -> Move | None:
        """The legal move with the same key as ``move``, or None."""
        return self._by_key.get(move.key())

    def __repr__(self) -> str:
        return f"<LegalMoves ({len(self)})>"


class Board:
    """A draughts position of one variant, with the moves played from its root.

    Args:
        variant: a :class:`Variant` or a name/alias such as ``"russian"``.
        fen: PDN FEN of the position; None for the variant's initial position.

    Example:
        >>> Board("russian").piece_at(find_variant("russian").parse_square("c3"))
        Piece(color=<Color.WHITE: 0>, king=False)

    Raises:
        UnknownVariantError: unknown variant name.
        InvalidFenError: the FEN cannot be read.
    """

    def __init__(self, variant: str | Variant = "international", fen: str | None = None) -> None:
        self.variant: Variant = find_variant(variant)
        self._gen: MoveGen = generator_for(self.variant)
        self._white = self._black = self._kings = 0
        self.turn: Color = self.variant.first_mover
        self._hash = 0
        self._stack: list[tuple[Move, tuple[int, int, int, Color, int]]] = []
        self._legal: list[Move] | None = None
        self._root: tuple[int, int, int, Color] = (0, 0, 0, WHITE)
        if fen is None:
            white, black, _ = self._gen.initial_bitboards()
            self._set(white, black, 0, self.variant.first_mover)
        else:
            self.set_fen(fen)

    # -- state ------------------------------------------------------------------------------

    def _set(self, white: int, black: int, kings: int, turn: Color) -> None:
        self._white, self._black, self._kings, self.turn = white, black, kings, turn
        self._hash = self._compute_hash()
        self._stack = []
        self._legal = None
        self._root = (white, black, kings, turn)

    def _compute_hash(self) -> int:
        z = self._gen.zobrist
        h = self._gen.zobrist_black if self.turn is BLACK else 0
        for colour, mask in ((0, self._white), (1, self._black)):
            while mask:
                low = mask & -mask
                bit = low.bit_length() - 1
                mask ^= low
                h ^= z[colour + (2 if self._kings & low else 0)][bit]
        return h

    def set_fen(self, fen: str) -> None:
        """Set the position from a FEN and clear the move stack.

        Raises:
            InvalidFenError: the FEN cannot be read; the board is left unchanged.
        """
        turn, white, black = parse_fen(fen, self.variant)
        gen = self._gen
        self._set(
            gen.squares_to_mask(white),
            gen.squares_to_mask(black),
            gen.squares_to_mask([s for s, k in {**white, **black}.items() if k]),
            turn,
        )

    @classmethod
    def from_fen(cls, fen: str, variant: str | Variant = "international") -> Board:
        """A new board from a FEN.

        Example:
            >>> len(Board.from_fen("W:W28:B23", "international").legal_moves)
            1

        Raises:
            InvalidFenError: the FEN cannot be read (or is not a string).
        """
        if not isinstance(fen, str):
            raise InvalidFenError(f"FEN must be a string, not {type(fen).__name__}")
        return cls(variant, fen)

    def fen(self) -> str:
        """The position as a PDN FEN (``W:W31-50:B1-20``)."""
        white = {s: p.king for s, p in self.pieces().items() if p.color is WHITE}
        black = {s: p.king for s, p in self.pieces().items() if p.color is BLACK}
        return write_fen(self.variant, self.turn, white, black)

    def zobrist_hash(self) -> int:
        """64-bit Zobrist hash of the position (pieces and side to move)."""
        return self._hash

    @property
    def ply(self) -> int:
        """Number of moves pushed since the root position."""
        return len(self._stack)

    @property
    def move_stack(self) -> list[Move]:
        """The moves played from the root (a copy)."""
        return [m for m, _ in self._stack]

    def bitboards(self) -> tuple[int, int, int]:
        """Raw (white, black, kings) bitboards, laid out as in :mod:`engine.movegen`."""
        return self._white, self._black, self._kings

    def piece_at(self, sq: Square) -> Piece | None:
        """The piece on a square, or None.

        Raises:
            InvalidSquareError: no such square.
        """
        self.variant.square_coords(sq)
        low = 1 << self._gen.sq2bit[sq]
        if self._white & low:
            return Piece(WHITE, bool(self._kings & low))
        if self._black & low:
            return Piece(BLACK, bool(self._kings & low))
        return None

    def pieces(self) -> dict[Square, Piece]:
        """Every piece on the board by square."""
        out: dict[Square, Piece] = {}
        gen = self._gen
        for colour, mask in ((WHITE, self._white), (BLACK, self._black)):
            for sq in gen.mask_to_squares(mask):
                out[sq] = Piece(colour, bool(self._kings & (1 << gen.sq2bit[sq])))
        return out

    def occupied_squares(self) -> frozenset[Square]:
        """Squares with a piece on them."""
        return frozenset(self._gen.mask_to_squares(self._white | self._black))

    def root(self) -> Board:
        """A new board at the root position (before the first pushed move)."""
        board = Board(self.variant)
        board._set(*self._root)
        return board

    def copy(self) -> Board:
        """An independent copy, move stack included."""
        board = Board.__new__(Board)
        board.variant, board._gen = self.variant, self._gen
        board._white, board._black, board._kings = self._white, self._black, self._kings
        board.turn, board._hash, board._root = self.turn, self._hash, self._root
        board._stack = list(self._stack)
        board._legal = self._legal
        return board

    def __copy__(self) -> Board:
        return self.copy()

    # -- moves ------------------------------------------------------------------------------

    def _to_move(self, raw: RawMove) -> Move:
        b2s = self._gen.bit2sq
        return Move(
            b2s[raw[0]], b2s[raw[1]], tuple(b2s[b] for b in raw[4]),
            tuple(b2s[b] for b in raw[5]), raw[3],
        )

    def generate_moves(self, paths: bool = True) -> Iterator[Move]:
        """Legal moves; with ``paths`` every capture path, else one per distinct key.

        Example:
            >>> sum(1 for _ in Board("english").generate_moves())
            7
        """
        if self._legal is None:
            raws = self._gen.moves(self._white, self._black, self._kings, int(self.turn))
            self._legal = [self._to_move(r) for r in raws]
            if self.variant.same_king_move_limit:
                self._legal = self._king_move_limit(self._legal)
        if paths:
            yield from self._legal
        else:
            yield from LegalMoves(self._legal)

    def _king_move_limit(self, moves: list[Move]) -> list[Move]:
        """Drop the quiet moves of a king that has made its limit of quiet moves in a row.

        Frisian: while a side still has men, the same king may not make more than three quiet
        moves in a row. Counted over this side's moves on the stack (a capture, a man's move or
        a move of another piece ends the run); nothing is known before the root.
        """
        own = self._white if self.turn is WHITE else self._black
        if not own & ~self._kings or not moves or moves[0].captures:
            return moves
        run, square = 0, None
        own_moves = self._stack[::-1][1::2]  # this side's moves, latest first
        for move, undo in own_moves:
            was_king = bool(undo[2] >> self._gen.sq2bit[move.origin] & 1)
            if move.captures or not was_king or (square is not None and move.destination != square):
                break
            if square is None and self.piece_at(move.destination) is None:
                break
            run, square = run + 1, move.origin
        if run < self.variant.same_king_move_limit:
            return moves
        tired = own_moves[0][0].destination
        return [m for m in moves if m.origin != tired]

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves, one per (origin, destination, captured set)."""
        return LegalMoves(self.generate_moves())

    def find_move(
        self, origin: Square, destination: Square, captured: Iterable[Square] | None = None
    ) -> Move:
        """The legal move from ``origin`` to ``destination`` (capturing exactly ``captured``).

        This serves the sensors: they see where a piece was lifted, where one was put down and
        which pieces were taken off.

        Raises:
            IllegalMoveError: no such legal move.
            AmbiguousMoveError: several legal moves match (give ``captured``).
        """
        want = None if captured is None else frozenset(captured)
        found = [
            m for m in self.legal_moves
            if m.origin == origin and m.destination == destination
            and (want is None or frozenset(m.captures) == want)
        ]
        v = self.variant
        if not found:
            caps = "" if want is None else f" capturing {sorted(v.square_name(s) for s in want)}"
            raise IllegalMoveError(
                f"no legal move {self._sq(origin)}->{self._sq(destination)}{caps} "
                f"in {self.fen()}"
            )
        if len(found) > 1:
            options = ", ".join(self.move_notation(m, full=True) for m in found)
            raise AmbiguousMoveError(
                f"{self._sq(origin)}->{self._sq(destination)} is ambiguous in {self.fen()}: "
                f"{options}"
            )
        return found[0]

    def _sq(self, sq: Square) -> str:
        try:
            return self.variant.square_name(sq)
        except ValueError:
            return repr(sq)

    def push(self, move: Move) -> None:
        """Play a legal move.

        Raises:
            IllegalMoveError: the move is not legal here (the board is unchanged).
        """
        legal = None
        for m in self.generate_moves():
            if m == move:
                legal = m
                break
            if legal is None and m.key() == move.key():
                legal = m
        if legal is None:
            raise IllegalMoveError(f"illegal move {move!r} in {self.fen()}")
        self._push_unchecked(legal)

    def _push_unchecked(self, move: Move) -> None:
        gen = self._gen
        s2b = gen.sq2bit
        frm, to = s2b[move.origin], s2b[move.destination]
        undo = (self._white, self._black, self._kings, self.turn, self._hash)
        cap = 0
        for sq in move.captures:
            cap |= 1 << s2b[sq]
        z = gen.zobrist
        colour = int(self.turn)
        h = self._hash ^ gen.zobrist_black
        was_king = bool(self._kings >> frm & 1)
        h ^= z[colour + (2 if was_king else 0)][frm]
        h ^= z[colour + (2 if was_king or move.promotes else 0)][to]
        for sq in move.captures:
            b = s2b[sq]
            h ^= z[(1 - colour) + (2 if self._kings >> b & 1 else 0)][b]
        moved = (1 << frm) ^ (1 << to)  # 0 when a capture ends where it began
        kings = self._kings & ~cap
        if was_king:
            kings ^= moved
        elif move.promotes:
            kings |= 1 << to
        if colour == 0:
            self._white ^= moved
            self._black &= ~cap
        else:
            self._black ^= moved
            self._white &= ~cap
        self._kings = kings
        self.turn = self.turn.opponent
        self._hash = h
        self._stack.append((move, undo))
        self._legal = None

    def pop(self) -> Move:
        """Take back the last move and return it.

        Raises:
            IndexError: no move to take back.
        """
        if not self._stack:
            raise IndexError("pop from an empty move stack")
        move, (white, black, kings, turn, h) = self._stack.pop()
        self._white, self._black, self._kings, self.turn, self._hash = white, black, kings, turn, h
        self._legal = None
        return move

    def peek(self) -> Move:
        """The last move played.

        Raises:
            IndexError: no move played yet.
        """
        return self._stack[-1][0]

    # -- notation and outcome ---------------------------------------------------------------

    def parse_move(self, text: str) -> Move:
        """The legal move written as ``text`` ("32-28", "19x30", "c3:e5", "22x13x4", "a3b4").

        Raises:
            InvalidMoveError: unreadable text. IllegalMoveError: no such legal move.
            AmbiguousMoveError: several legal moves match.
        """
        return parse_move(self, text)

    def move_notation(self, move: Move, full: bool = False) -> str:
        """PDN text of a legal move; the full path only when needed to tell moves apart."""
        return move_notation(self, move, full=full)

    def outcome(self) -> Outcome | None:
        """The result if the game is over (no moves, draw rules, repetition), else None."""
        return outcome(self)

    def is_game_over(self) -> bool:
        """True when :meth:`outcome` is not None."""
        return self.outcome() is not None

    def __repr__(self) -> str:
        return f"Board({self.variant.name!r}, {self.fen()!r})"

    def __str__(self) -> str:
        v = self.variant
        lines = []
        for row in range(v.rows - 1, -1, -1):
            cells = []
            for col in range(v.cols):
                sq = v.square_at(row, col)
                piece = None if sq is None else self.piece_at(sq)
                if piece is None:
                    cells.append("." if sq is not None else " ")
                else:
                    ch = "w" if piece.color is WHITE else "b"
                    cells.append(ch.upper() if piece.king else ch)
            lines.append(" ".join(cells))
        return "\n".join(lines)
