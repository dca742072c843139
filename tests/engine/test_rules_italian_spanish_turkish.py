"""Italian, Spanish and Turkish capture rules (positions worked out by hand).

Italian: FID "Brief rules of Italian draughts" (fid.it/corsi/10regoleita.asp) and the precedence
list quoted on lidraughts' forum: most pieces; then with a king rather than a man; then most
kings; then the sequence meeting a king first. Men may not capture kings.
Spanish: "ley de la cantidad" then "ley de la calidad" (most kings), flying kings, men capture
forwards only. Turkish: Wikipedia "Turkish draughts": orthogonal, captured pieces removed at
once, no 180 degree turn, most pieces compulsory, men move and capture forwards or sideways.
"""

from __future__ import annotations

from tests.engine.helpers import keys, move, position


def test_italian_men_cannot_capture_kings() -> None:
    """d3 faces a king on e4 with f5 free: no capture; the man just moves to c4."""
    assert keys(position("italian", "W", "d3", "Ke4")) == {move("d3", "c4")}
    assert keys(position("italian", "W", "d3", "e4")) == {move("d3", "f5", "e4")}
    assert keys(position("english", "W", "c3", "Kd4")) == {move("c3", "e5", "d4")}


def test_italian_capture_with_the_king_first() -> None:
    """Man d3 can take c4 (to b5), king g2 can take f3 (to e4): one piece each, king must."""
    board = position("italian", "W", "d3,Kg2", "c4,f3")
    assert keys(board) == {move("g2", "e4", "f3")}
    # English has free choice: both.
    english = position("english", "W", "c3,Kh2", "b4,g3")
    assert keys(english) == {move("c3", "a5", "b4"), move("h2", "f4", "g3")}


def test_italian_most_kings_then_king_met_first() -> None:
    """King d3: route A over e4 then g6 (to h7), route B over c4 then c6 (to d7)."""
    # A: king then man; B: man then king -> same count, same kings: the king met first wins.
    board = position("italian", "W", "Kd3", "Ke4,g6,c4,Kc6")
    assert keys(board) == {move("d3", "h7", "e4", "g6")}
    # A: two men; B: a man and a king -> most kings wins.
    board = position("italian", "W", "Kd3", "e4,g6,c4,Kc6")
    assert keys(board) == {move("d3", "d7", "c4", "c6")}
    # Majority comes first: with a man on e6 the king can go round, d3xc4 b5xc6 d7xe6 f5xe4
    # back to d3 (or the same loop the other way): four pieces beat every other route.
    board = position("italian", "W", "Kd3", "Ke4,g6,c4,c6,e6")
    assert keys(board) == {move("d3", "d3", "c4", "c6", "e6", "e4")}


def test_spanish_quantity_then_quality() -> None:
    """Man d3 can take c4 (man) or e4 (king), one piece each: the king must be taken."""
    assert keys(position("spanish", "W", "d3", "c4,Ke4")) == {move("d3", "f5", "e4")}
    # Quantity first: two men beat one king.
    board = position("spanish", "W", "d3", "c4,c6,Ke4")
    assert keys(board) == {move("d3", "d7", "c4", "c6")}


def test_spanish_men_capture_forwards_only_kings_fly() -> None:
    assert keys(position("spanish", "W", "d3", "c2")) == {move("d3", "c4"), move("d3", "e4")}
    board = position("spanish", "W", "Kh1", "e4")
    assert keys(board) == {move("h1", s, "e4") for s in ("d5", "c6", "b7", "a8")}


def test_turkish_captured_pieces_leave_at_once() -> None:
    """King a3: over c3 (E) to e3, over e5 (N) to e6, over d6 (W) to c6, then south down the
    c-file across c3, already removed, over c2 to c1. Four pieces: the only maximum capture.
    (With the Turkish strike of the diagonal games c3 would still block the c-file.)"""
    board = position("turkish", "W", "Ka3", "c3,e5,d6,c2")
    assert keys(board) == {move("a3", "c1", "c3", "e5", "d6", "c2")}


def test_turkish_no_180_degree_turn() -> None:
    """King d4 takes f4 (to g4/h4) or b4 (to a4), but not both: that needs a half turn."""
    board = position("turkish", "W", "Kd4", "b4,f4")
    assert keys(board) == {
        move("d4", "g4", "f4"), move("d4", "h4", "f4"), move("d4", "a4", "b4"),
    }


def test_turkish_men_forward_and_sideways() -> None:
    board = position("turkish", "W", "d4", "d5,c4,d3")  # d3 behind: never captured
    assert keys(board) == {move("d4", "d6", "d5"), move("d4", "b4", "c4")}
    board = position("turkish", "W", "d4", "a8")
    assert keys(board) == {move("d4", "d5"), move("d4", "c4"), move("d4", "e4")}


def test_turkish_man_crowned_at_end_of_move() -> None:
    """c6 over c7 reaches c8 and, still a man, goes on sideways over d8 to e8: crowned there."""
    board = position("turkish", "W", "c6", "c7,d8")
    assert keys(board) == {move("c6", "e8", "c7", "d8")}
    assert all(m.promotes for m in board.legal_moves)
    # e8 two squares away: a king on c8 would fly over it to f8..h8; the man cannot, so the
    # capture ends on c8 (Wikipedia: "promoted to a king at the end of the move"; pydraughts).
    board = position("turkish", "W", "c6", "c7,e8")
    assert keys(board) == {move("c6", "c8", "c7")}
    assert all(m.promotes for m in board.legal_moves)


def test_turkish_majority_counts_kings_as_one() -> None:
    """King a2: north over the king a4 (one piece), or east over c2 then north over d4 (two).

    After c2 the king may stop on d2..h2; only d2 continues (north over d4 to d5..d8).
    """
    board = position("turkish", "W", "Ka2", "Ka4,c2,d4")
    assert keys(board) == {move("a2", s, "c2", "d4") for s in ("d5", "d6", "d7", "d8")}
