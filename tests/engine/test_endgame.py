"""Endgame tables: the file format, the probe API, consistency with the move generator, theory.

Expected values come from endgame theory, not from the builder:

- English (checkers): two kings beat one king (the lone king is driven from the double corner
  and trapped), one king against one king is a draw where neither can be cornered.
- Russian: three kings cannot beat a lone king that holds the main road (a1-h8); holding the
  main road themselves, three kings win against a king off it (Petrov's triangle).
- International: two kings cannot beat one king, nor three kings a king on the main diagonal
  (46-5) — hence the FMJD 16-move rule for three pieces against one king.
"""

from __future__ import annotations

import random

import pytest

from engine import Board
from engine.endgame import (
    SHIPPED,
    WDL,
    EndgameError,
    EndgameTable,
    Signature,
    TableIndex,
    decode_value,
    encode_value,
)
from engine.endgame_build import build, expected_byte, positions, verify
from engine.search import TABLE_BOUND, WIN_BOUND, Limit, Searcher, SearchOptions
from tests.conftest import sample_size


def _probe(variant: str, fen: str) -> WDL | None:
    board = Board(variant, fen=fen)
    return EndgameTable.load(variant).probe(*board.bitboards(), int(board.turn))


# --- format and API ------------------------------------------------------------------------------


def test_value_bytes_round_trip() -> None:
    for wdl, low in ((WDL.WIN, 1), (WDL.LOSS, 0)):
        for distance in range(low, 128):
            assert decode_value(encode_value(wdl, distance)) == (wdl, distance)
    assert decode_value(encode_value(WDL.DRAW, 0)) == (WDL.DRAW, 0)
    with pytest.raises(EndgameError):
        encode_value(WDL.WIN, 128)
    with pytest.raises(EndgameError):
        encode_value(WDL.WIN, 0)


def test_bad_files_raise_one_clear_error() -> None:
    with pytest.raises(EndgameError, match="magic"):
        EndgameTable.from_bytes(b"hello")
    good = build("english", 2).to_bytes()
    with pytest.raises(EndgameError, match="truncated"):
        EndgameTable.from_bytes(good[:-5])
    with pytest.raises(EndgameError, match="header"):
        EndgameTable.from_bytes(good.replace(b'"pieces"', b'"piece"'))
    with pytest.raises(EndgameError, match="no endgame tables"):
        EndgameTable.load("frisian")
    with pytest.raises(EndgameError, match="cannot describe"):
        build("frisian", 2)


def test_file_round_trip_keeps_every_value() -> None:
    table = build("english", 3)
    again = EndgameTable.from_bytes(table.to_bytes())
    assert again.signatures == tuple(sorted(table.signatures))
    for sig in table.signatures:
        assert again.values(sig) == table.values(sig)
    assert again.to_bytes() == table.to_bytes()


def test_probe_is_none_outside_the_tables() -> None:
    table = EndgameTable.load("international")
    gen = table.index.gen
    five = gen.squares_to_mask([45, 46, 47, 48])
    lone = gen.squares_to_mask([4])
    assert table.probe(five, lone, five | lone, 0) is None           # 5 pieces
    men = gen.squares_to_mask([30, 31, 32])
    assert table.probe(men, 0, 0, 0) is None                          # one side has none
    assert table.probe(men, lone, lone, 0) is not None               # 4 pieces with men
    two = gen.squares_to_mask([45, 46])
    pair = gen.squares_to_mask([3, 4])
    assert table.probe(two, pair, two | pair, 0) is not None          # two kings v two
    # Spanish (flying kings on 8x8, as Brazilian's before its 4-piece file) holds 3 pieces.
    table = EndgameTable.load("spanish")
    gen = table.index.gen
    lone = gen.squares_to_mask([3])
    men = gen.squares_to_mask([20, 21, 22])
    assert table.probe(men, lone, lone, 0) is None                   # 4 pieces with men
    assert table.probe(gen.squares_to_mask([20, 21]), lone, lone, 0) is not None
    three = gen.squares_to_mask([28, 29, 30])
    assert table.probe(three, lone, three | lone, 0) is None          # three kings v one


@pytest.mark.parametrize("variant", sorted(SHIPPED))
def test_shipped_tables_hold_what_they_claim(variant: str) -> None:
    table = EndgameTable.load(variant)
    info = table.info
    assert (info.variant, info.pieces, info.men_pieces, info.against_one) == (variant,
                                                                             *SHIPPED[variant])
    assert table.to_bytes() == EndgameTable.from_bytes(table.to_bytes()).to_bytes()


@pytest.mark.parametrize("variant", sorted(SHIPPED))
def test_mirrored_positions_have_the_same_value(variant: str) -> None:
    """A position and its colour-reversed mirror (the board turned round) are worth the same."""
    table = EndgameTable.load(variant)
    index = TableIndex(variant)
    rng = random.Random(variant)
    squares = list(range(index.num_squares))
    gen = index.gen
    checked = 0
    for _ in range(sample_size(ci=300, full=5000)):
        chosen = rng.sample(squares, rng.randint(2, table.info.pieces))
        split = rng.randint(1, len(chosen) - 1)
        white = gen.squares_to_mask(chosen[:split])
        black = gen.squares_to_mask(chosen[split:])
        kings = gen.squares_to_mask(sq for sq in chosen if rng.random() < 0.6)
        top, bottom = gen.promo_mask
        if (white & ~kings & top) or (black & ~kings & bottom):
            continue  # a man on its own promotion row cannot be
        colour = rng.randint(0, 1)
        here = table.probe_distance(white, black, kings, colour)
        there = table.probe_distance(*index.mirror(white, black, kings), 1 - colour)
        assert here == there
        checked += here is not None
    assert checked > 0


# --- consistency with the move generator -------------------------------------------------------


@pytest.mark.parametrize("variant", sorted(SHIPPED))
def test_every_stored_value_follows_from_its_moves(variant: str) -> None:
    """Every win has a move to a loss one ply shorter (or a winning conversion), every loss has
    all its moves to wins, no draw has either — on a sample (every position in a full run)."""
    table = EndgameTable.load(variant)
    total = sum(2 * table.index.size(sig) for sig in table.signatures)
    every = sample_size(ci=max(1, total // 1500), full=1)
    assert verify(table, every=every) == []


def test_verify_finds_a_wrong_value() -> None:
    table = build("english", 3)
    sig = (0, 2, 0, 1)
    values = bytearray(table.values(sig))
    win_in_one = encode_value(WDL.WIN, 1)
    entry = next(e for e, *_ in positions(table.index, sig) if values[e] == win_in_one)
    values[entry] = 0
    table.add(sig, bytes(values))
    problems = verify(table)
    assert problems and f"entry {entry}" in problems[0]


@pytest.mark.parametrize(("variant", "sig", "depth"), [
    ("english", (0, 2, 0, 1), 6),
    ("international", (1, 1, 1, 1), 5),   # a man and a king each
    ("international", (2, 0, 2, 0), 7),   # two men each
    ("international", (2, 1, 1, 0), 5),   # two men and a king against a man
    ("russian", (1, 1, 1, 1), 7),
    ("brazilian", (2, 0, 2, 0), 7),       # international rules on 8x8
    ("pool", (1, 1, 1, 1), 7),
])
def test_table_matches_a_plain_search_on_sample_positions(
        variant: str, sig: Signature, depth: int) -> None:
    """Where a full-width search reaches the end (a forced capture of the last piece or a
    blocked side) within its depth, its verdict is the table's: the search is independent of
    the retrograde build (it sees no tables), so the two check each other."""
    table = EndgameTable.load(variant)
    searcher = Searcher(variant, options=SearchOptions(endgame_tables=False, draw_rules=False))
    rng = random.Random(7)
    proven = 0
    candidates = [p for p in positions(table.index, sig) if rng.random() < 0.02]
    for entry, white, black, kings, colour in candidates[: sample_size(ci=40, full=400)]:
        wdl, _distance = decode_value(table.values(sig)[entry])
        board = Board(variant, fen=_fen(table, white, black, kings, colour))
        result = searcher.search(board, Limit(depth=depth))
        if result.score > WIN_BOUND:
            assert wdl is WDL.WIN, board.fen()  # a forced win the search proves
            proven += 1
        if result.score < -WIN_BOUND:
            assert wdl is WDL.LOSS, board.fen()
            proven += 1
    assert proven > 0
    assert expected_byte(table, *candidates[0][1:]) == table.values(sig)[candidates[0][0]]


def _fen(table: EndgameTable, white: int, black: int, kings: int, colour: int) -> str:
    gen = table.index.gen
    v = table.variant

    def side(mask: int) -> str:
        return ",".join(("K" if kings >> gen.sq2bit[sq] & 1 else "") + v.square_name(sq)
                        for sq in gen.mask_to_squares(mask))

    return f"{'WB'[colour]}:W{side(white)}:B{side(black)}"


# --- theory -------------------------------------------------------------------------------------


def test_english_two_kings_beat_one() -> None:
    """Two kings to move, both at least three rows or files from the lone king (so neither is
    hemmed in a corner by it): won, wherever the three stand."""
    table = EndgameTable.load("english")
    gen, variant = table.index.gen, table.variant
    sig = (0, 2, 0, 1)
    values = table.values(sig)
    checked = 0
    for entry, white, black, _kings, colour in positions(table.index, sig):
        if colour:
            continue
        (row, col), = (variant.square_coords(sq) for sq in gen.mask_to_squares(black))
        near = [max(abs(r - row), abs(c - col)) < 3
                for r, c in map(variant.square_coords, gen.mask_to_squares(white))]
        if any(near):
            continue
        assert decode_value(values[entry])[0] is WDL.WIN
        checked += 1
    assert checked > 5_000


def test_english_one_king_against_one_is_a_draw_in_the_open() -> None:
    assert _probe("english", "W:WK14:BK19") is WDL.DRAW
    assert _probe("english", "B:WK1:BK32") is WDL.DRAW
    assert _probe("english", "W:WK10:BK23") is WDL.DRAW


def _quiet_three_v_one(variant: str, every: int = 1) -> list[tuple[int, int, int, int, WDL]]:
    """Three kings v a king, no capture for either side: (white, black, kings, colour, value)."""
    table = EndgameTable.load(variant)
    gen = table.index.gen
    values = table.values((0, 3, 0, 1))
    out = []
    for entry, white, black, kings, colour in positions(table.index, (0, 3, 0, 1), every):
        if gen.has_capture(white, black, kings, 0) or gen.has_capture(black, white, kings, 1):
            continue
        out.append((white, black, kings, colour, decode_value(values[entry])[0]))
    return out


def _main_road_mask(variant: str) -> int:
    board = Board(variant)
    gen = EndgameTable.load(variant).index.gen
    return gen.squares_to_mask(sq for sq in range(board.variant.num_squares)
                               if _on_long_diagonal(board, sq))


def _on_long_diagonal(board: Board, sq: int) -> bool:
    row, col = board.variant.square_coords(sq)
    return row == col if board.variant.square_at(0, 0) is not None else (
        row + col == board.variant.cols - 1)


def test_russian_three_kings_against_the_main_road() -> None:
    """A lone king on the main road, to move, holds it: every such position is a draw. Three
    kings holding the main road against a king off it, to move, win (Petrov's triangle)."""
    road = _main_road_mask("russian")
    held = petrov = 0
    for white, black, _kings, colour, value in _quiet_three_v_one("russian"):
        if colour == 1 and black & road and not white & road:
            assert value is WDL.DRAW
            held += 1
        if colour == 0 and white & road and not black & road:
            assert value is WDL.WIN
            petrov += 1
    assert held > 5_000 and petrov > 20_000
    assert _probe("russian", "W:WKc1,Ke1,Kh2:BKd4") is WDL.DRAW
    assert _probe("russian", "W:WKa1,Kc1,Ke1:BKh2") is WDL.WIN


def test_international_two_kings_draw_and_three_cannot_beat_the_main_diagonal() -> None:
    """International: a lone king on the main diagonal 46-5, to move, draws against three
    kings; three kings against one are in general a draw (wins only in special positions —
    hence the 16-move rule), and so are two kings against one."""
    assert _probe("international", "W:WK1,K2:BK25") is WDL.DRAW
    assert _probe("international", "W:WK1,K2,K3:BK28") is WDL.DRAW     # 28 is on 46-5
    road = _main_road_mask("international")
    held = 0
    outcomes = {WDL.WIN: 0, WDL.DRAW: 0, WDL.LOSS: 0}
    every = sample_size(ci=5, full=1)
    for white, black, _kings, colour, value in _quiet_three_v_one("international", every):
        if colour == 1 and black & road and not white & road:
            assert value is WDL.DRAW
            held += 1
        if colour == 0:
            outcomes[value] += 1
    assert held > 50_000 // every
    assert outcomes[WDL.DRAW] > 4 * outcomes[WDL.WIN] and outcomes[WDL.LOSS] == 0


# --- the search -----------------------------------------------------------------------------------


def test_search_takes_the_table_over_a_shallow_misjudgement() -> None:
    """English, two kings against one in the far corners: won (theory), but the capture is far
    beyond a plain depth-6 search, which sees only two kings against one. With the tables the
    score is a table win: above every evaluation, below every forced end it could see."""
    board = Board("english", fen="W:WK1,K2:BK31")
    plain = Searcher("english", options=SearchOptions(endgame_tables=False))
    assert plain.search(board, Limit(depth=6)).score < TABLE_BOUND
    score = Searcher("english").search(board, Limit(depth=2)).score
    assert TABLE_BOUND < score <= WIN_BOUND


def test_search_with_tables_wins_two_kings_against_one() -> None:
    """Played out at depth 2 a side: the two kings take the lone king, as theory says."""
    board = Board("english", fen="W:WK1,K2:BK31")
    white = Searcher("english")
    black = Searcher("english")
    for _ in range(60):
        if board.outcome() is not None:
            break
        side = white if board.turn == 0 else black
        result = side.search(board, Limit(depth=2))
        assert result.move is not None
        board.push(result.move)
    outcome = board.outcome()
    assert outcome is not None and outcome.winner == 0
