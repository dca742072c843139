"""Property tests (hypothesis) over random games in every variant."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import VARIANTS, Board, Color

variant_names = st.sampled_from([v.name for v in VARIANTS])
choices = st.lists(st.integers(min_value=0, max_value=10_000), min_size=0, max_size=60)

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _play(name: str, picks: list[int]) -> Board:
    board = Board(name)
    for pick in picks:
        moves = list(board.generate_moves())
        if not moves:
            break
        board.push(moves[pick % len(moves)])
    return board


@SETTINGS
@given(variant_names, choices)
def test_push_pop_restores_position_and_hash(name: str, picks: list[int]) -> None:
    board = _play(name, picks)
    snapshots = []
    replay = board.root()
    for move in board.move_stack:
        snapshots.append((replay.fen(), replay.zobrist_hash()))
        replay.push(move)
    while board.move_stack:
        board.pop()
        assert (board.fen(), board.zobrist_hash()) == snapshots.pop()
    assert board.fen() == board.root().fen()


@SETTINGS
@given(variant_names, choices)
def test_fen_round_trip_and_hash_from_scratch(name: str, picks: list[int]) -> None:
    board = _play(name, picks)
    again = Board.from_fen(board.fen(), name)
    assert again.fen() == board.fen()
    assert again.pieces() == board.pieces() and again.turn is board.turn
    assert again.zobrist_hash() == board.zobrist_hash()
    assert {m.key() for m in again.legal_moves} == {m.key() for m in board.legal_moves}


@SETTINGS
@given(variant_names, choices)
def test_pieces_stay_on_playing_squares(name: str, picks: list[int]) -> None:
    board = _play(name, picks)
    v = board.variant
    for sq in board.pieces():
        row, col = v.square_coords(sq)
        assert 0 <= row < v.rows and 0 <= col < v.cols
        if not v.orthogonal:
            assert (row + col) % 2 == (0 if v.dark_a1 else 1)


@SETTINGS
@given(variant_names, choices)
def test_counts_fall_only_by_captures(name: str, picks: list[int]) -> None:
    board = Board(name)
    for pick in picks:
        moves = list(board.generate_moves())
        if not moves:
            break
        move = moves[pick % len(moves)]
        mover: Color = board.turn
        before = board.pieces()
        board.push(move)
        after = board.pieces()
        assert set(before) - set(after) == {move.origin, *move.captures} - {move.destination}
        assert set(after) - set(before) <= {move.destination}
        assert all(before[c].color is not mover for c in move.captures)
        assert after[move.destination].color is mover
        assert after[move.destination].king == (before[move.origin].king or move.promotes)
        assert board.turn is mover.opponent


@SETTINGS
@given(variant_names, choices)
def test_copy_is_independent(name: str, picks: list[int]) -> None:
    board = _play(name, picks)
    clone = board.copy()
    moves = list(clone.legal_moves)
    if moves:
        clone.push(moves[0])
        assert board.fen() != clone.fen() or board.ply != clone.ply
        assert clone.ply == board.ply + 1
    assert clone.move_stack[: board.ply] == board.move_stack


@SETTINGS
@given(variant_names, choices)
def test_move_text_round_trip(name: str, picks: list[int]) -> None:
    board = _play(name, picks)
    for move in board.legal_moves:
        text = board.move_notation(move)
        assert board.parse_move(text).key() == move.key()
        full = board.move_notation(move, full=True)
        assert board.parse_move(full).key() == move.key()


@st.composite
def placements(draw: st.DrawFn) -> Board:
    """Random positions with kings: men never on their own promotion row."""
    variant = draw(st.sampled_from(VARIANTS))
    squares = draw(st.lists(st.integers(0, variant.num_squares - 1), unique=True,
                            min_size=2, max_size=24))
    parts: dict[str, list[str]] = {"W": [], "B": []}
    for index, sq in enumerate(squares):
        colour = "W" if index % 2 == 0 else "B"
        row = variant.square_coords(sq)[0]
        promo = variant.rows - 1 if colour == "W" else 0
        king = row == promo or draw(st.booleans())
        parts[colour].append(("K" if king else "") + variant.square_name(sq))
    turn = draw(st.sampled_from("WB"))
    return Board.from_fen(f"{turn}:W{','.join(parts['W'])}:B{','.join(parts['B'])}", variant)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(placements())
def test_every_move_from_random_placements_is_consistent(board: Board) -> None:
    fen, key = board.fen(), board.zobrist_hash()
    assert Board.from_fen(fen, board.variant).fen() == fen
    for move in board.generate_moves():
        before = board.pieces()
        board.push(move)
        after = board.pieces()
        assert set(before) - set(after) == {move.origin, *move.captures} - {move.destination}
        assert len(after) == len(before) - len(move.captures)
        assert after[move.destination].color is before[move.origin].color
        assert board.zobrist_hash() == Board.from_fen(board.fen(), board.variant).zobrist_hash()
        board.pop()
        assert (board.fen(), board.zobrist_hash()) == (fen, key)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(placements())
def test_bulk_count_equals_listed_moves(board: Board) -> None:
    """perft's last-ply shortcut (popcounts, single-jump counting) agrees with the move list."""
    from engine.generators import generator_for

    gen = generator_for(board.variant)
    white, black, kings = board.bitboards()
    own, opp = (white, black) if board.turn == 0 else (black, white)
    assert gen.count_moves(own, opp, kings, int(board.turn)) == len(board.legal_moves)


@SETTINGS
@given(variant_names, choices)
def test_bulk_count_equals_listed_moves_in_games(name: str, picks: list[int]) -> None:
    from engine.generators import generator_for

    board = _play(name, picks)
    gen = generator_for(board.variant)
    white, black, kings = board.bitboards()
    own, opp = (white, black) if board.turn == 0 else (black, white)
    assert gen.count_moves(own, opp, kings, int(board.turn)) == len(board.legal_moves)
