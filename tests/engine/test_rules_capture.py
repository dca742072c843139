"""Capture rules per variant, on positions worked out by hand from the rule texts.

Rule texts: FMJD Official Rules of International Draughts (seed 000, articles 4.x on capturing);
Russian rules of shashki and the rules comparison table (seed 003); Korean seed 001 (Russian,
International, Brazilian, English, Pool, Italian); FID Italian rules (fid.it, "Brief rules of
Italian draughts"); Spanish "ley de la cantidad / de la calidad"; Wikipedia "Turkish draughts".
Every expected move list below was derived by hand, step by step, in the docstrings.
"""

from __future__ import annotations

from engine import Board
from engine.perft import perft
from tests.engine.helpers import keys, move, position


def test_men_capture_backwards_in_international_not_in_english() -> None:
    """FMJD 4.2: a man captures forwards and backwards. Seed 002: English men only forwards."""
    intl = Board.from_fen("W:W28:B33", "international")  # black man right behind white's
    assert [(m.destination, m.captures) for m in intl.legal_moves] == [(38, (32,))]
    eng = position("english", "W", "d4", "c3")  # c3 is behind d4; b2 is empty
    assert keys(eng) == {move("d4", "c5"), move("d4", "e5")}


def test_men_never_move_backwards() -> None:
    """Korean seed (International): a man moves diagonally forward to an adjacent free square."""
    board = Board.from_fen("W:W28:B1", "international")
    assert sorted(m.destination + 1 for m in board.legal_moves) == [22, 23]


def test_flying_king_lands_on_any_square_beyond() -> None:
    """FMJD 3.9/4.3: the king may land on any free square behind the captured piece."""
    board = Board.from_fen("W:WK46:B28", "international")
    assert sorted(m.destination + 1 for m in board.legal_moves) == [5, 10, 14, 19, 23]


def test_short_king_lands_right_behind() -> None:
    """Seed 002: an English king jumps to the square just beyond, nothing further."""
    board = position("english", "W", "Ka1", "c3")  # not adjacent: no capture for a short king
    assert keys(board) == {move("a1", "b2")}
    board = position("english", "W", "Ka1", "b2")
    assert keys(board) == {move("a1", "c3", "b2")}
    russian = position("russian", "W", "Ka1", "c3")  # flying: from afar, any square beyond
    assert keys(russian) == {move("a1", sq, "c3") for sq in ("d4", "e5", "f6", "g7", "h8")}


STRIKE_WHITE, STRIKE_BLACK = "Ke1", "d2,f2,d4,f4,b4"


def test_turkish_strike_russian_free_choice() -> None:
    """Russian rules (seed 003, 'турецкий удар'): captured pieces stay until the move ends.

    King e1, black d2, f2, d4, f4, b4. Going round d2-d4-f4-f2 brings the king back to e1, but
    d2 is still on the board, so it cannot go on over c3 to take b4 (that would need the
    captured d2 to vanish). Also a king must land where it can continue: after d2 only c3.
    The sequences are e1:c3:e5:g3:e1 and e1:g3:e5:c3:e1 (same move), e1:c3:a5 (d2, b4),
    e1:g3:e5:c3:a5 (f2, f4, d4, b4) and e1:g3:d6:a3 (f2, f4, b4: after f4 the king may stop on
    e5 or d6, both continue). Free choice: all four are legal.
    """
    board = position("russian", "W", STRIKE_WHITE, STRIKE_BLACK)
    assert keys(board) == {
        move("e1", "e1", "d2", "d4", "f4", "f2"),
        move("e1", "a5", "d2", "b4"),
        move("e1", "a5", "f2", "f4", "d4", "b4"),
        move("e1", "a3", "f2", "f4", "b4"),
    }
    assert perft(board, 1, paths=True) == 5
    assert max(len(m.captures) for m in board.legal_moves) == 4  # never all five


def test_majority_rule_brazilian_same_position() -> None:
    """FMJD 4.13 (Brazilian plays FMJD rules): the sequence taking most pieces is compulsory."""
    board = position("brazilian", "W", STRIKE_WHITE, STRIKE_BLACK)
    assert keys(board) == {
        move("e1", "e1", "d2", "d4", "f4", "f2"),
        move("e1", "a5", "f2", "f4", "d4", "b4"),
    }


def test_free_choice_russian_vs_majority_brazilian() -> None:
    """Russian: any capture may be chosen; Brazilian/International: the majority.

    a3 takes b4 and d6 (landing c5 then e7); h2 takes g3 landing f4, and nothing more.
    """
    russian = position("russian", "W", "a3,h2", "b4,d6,g3")
    assert keys(russian) == {move("a3", "e7", "b4", "d6"), move("h2", "f4", "g3")}
    brazil = position("brazilian", "W", "a3,h2", "b4,d6,g3")
    assert keys(brazil) == {move("a3", "e7", "b4", "d6")}
    english = position("english", "W", "a3,h2", "b4,d6,g3")
    assert keys(english) == {move("a3", "e7", "b4", "d6"), move("h2", "f4", "g3")}
    pool = position("pool", "W", "a3,h2", "b4,d6,g3")
    assert keys(pool) == keys(english)


def test_capture_is_compulsory() -> None:
    """All variants: if a capture exists, quiet moves are not legal."""
    for variant in ("russian", "brazilian", "english", "pool"):
        board = position(variant, "W", "c3,g1", "d4")
        assert keys(board) == {move("c3", "e5", "d4")}, variant
    for variant in ("italian", "spanish"):  # a1 is a light square on these boards
        board = position(variant, "W", "d3,h1", "e4")
        assert keys(board) == {move("d3", "f5", "e4")}, variant


def test_a_piece_cannot_be_jumped_twice_or_own_pieces_jumped() -> None:
    """FMJD 4.5/4.11: own pieces cannot be jumped; a piece is captured once."""
    board = Board.from_fen("W:WK46,37:B28", "international")
    assert not any(m.is_capture for m in board.legal_moves)


def test_canadian_flying_king_on_the_long_diagonal() -> None:
    """Canadian plays FMJD rules on 12x12: king a1 (67) over c3 (56) lands on d4 ... l12."""
    board = Board.from_fen("W:WK67:B56", "canadian")
    v = board.variant
    assert sorted(v.square_coords(m.destination) for m in board.legal_moves) == [
        (k, k) for k in range(3, 12)
    ]


def test_capture_ending_on_its_origin_keeps_the_king() -> None:
    """The English king ringed by four men goes round and lands back on e3 (regression)."""
    board = Board.from_fen("W:WK23:B10,11,18,19", "english")
    (loop,) = board.legal_moves
    assert loop.origin == loop.destination
    board.push(loop)
    assert board.fen() == "B:WK23:B"
    board.pop()
    assert board.fen() == "W:WK23:B10,11,18,19"
    assert perft(board, 2) == 0  # Black has no piece left: no replies
    russian = position("russian", "W", "Ke1", "d2,f2,d4,f4,b4")
    russian.push(russian.find_move(russian.variant.parse_square("e1"),
                                   russian.variant.parse_square("e1")))
    assert russian.fen() == "B:WKe1:Bb4"
