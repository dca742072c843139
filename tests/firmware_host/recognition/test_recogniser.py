"""Table tests of the recogniser: (variant, FEN, what the hands did) -> expected resolution.

Every expected move is written by hand as PDN text, read off the position's diagram; the
occupancy is described as the squares lifted and placed relative to the position. Expected
moves are matched by their squares (origin, landings in order, destination) and, where a FEN
allows several captured sets, by the captured squares, without going through the engine's
parser or the code under test.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from board_io.types import Reading
from engine import Board, Move
from firmware_host.recognition.recogniser import (
    Complete,
    Illegal,
    InProgress,
    InSync,
    MoveIndex,
    PendingIndex,
    RefusalReason,
    resolve,
    resolve_after,
)


@dataclass(frozen=True)
class Row:
    """One table row. Square lists are space-separated PDN names."""

    id: str
    variant: str
    fen: str | None
    lift: str = ""
    place: str = ""
    kind: str = "complete"  # sync | complete | progress | illegal
    moves: str = ""  # expected move(s) as PDN text, space-separated
    captures: str = ""  # captured squares of the expected move, when the FEN allows several sets
    settle: bool = False
    remove: str = ""  # InProgress.to_remove
    land: str = ""  # InProgress.to_land
    reason: str = ""  # Illegal reason value
    missing: str = ""
    extra: str = ""
    obliged: str = ""


def sq(board: Board, names: str) -> frozenset[int]:
    """Indices of space-separated square names."""
    return frozenset(board.variant.parse_square(n) for n in names.split())


def matches(board: Board, move: Move, text: str, captures: str = "") -> bool:
    """Does ``move`` have the squares written in PDN ``text`` (and the captured ``captures``)?"""
    names = re.split(r"[-x:]", text)
    squares = [board.variant.parse_square(n) for n in names]
    if (move.origin, move.destination) != (squares[0], squares[-1]):
        return False
    it = iter(move.path[:-1])
    if not all(any(s == p for p in it) for s in squares[1:-1]):
        return False
    return not captures or frozenset(move.captures) == sq(board, captures)


INTERNATIONAL_CAPTURE = "W:W32,33:B28"  # 32x23 or 33x22
INTERNATIONAL_MAJORITY = "W:W32,37:B28,18,31"  # only 32x23x12 (2) beats 37x26 (1)
INTERNATIONAL_KING = "W:WK46:B1"  # a free long diagonal 46 .. 5
INTERNATIONAL_KING_CAPTURE = "W:WK46:B28"  # 46x23, 46x19, 46x14, 46x10, 46x5
# The king on 37 takes 32, 22, 21, 31 around the diamond 28-17-26 and comes back to 37, or runs
# on past 37 to 42/48 (or the other way round, past 37 to 41/46): five moves, one key each.
INTERNATIONAL_CIRCLE = "W:WK37:B21,22,31,32"
CIRCLE = "21 22 31 32"
BRAZILIAN_MAJORITY = "W:Wc3,h2:Bd4,f6,g3"  # only c3xe5xg7 (2) beats h2xf4 (1)

ROWS = [
    # -- international -------------------------------------------------------------------------
    Row("int-sync", "international", None, kind="sync"),
    Row("int-quiet", "international", None, "32", "28", moves="32-28"),
    Row("int-quiet-edge", "international", None, "31", "26", moves="31-26"),
    Row("int-lifted", "international", None, "32", kind="progress", moves="32-27 32-28",
        land="27 28"),
    Row("int-no-such-move", "international", None, "32", "29", kind="illegal",
        reason="not_a_move", missing="32", extra="29"),
    Row("int-two-lifted", "international", None, "32 33", kind="illegal", reason="not_a_move",
        missing="32 33"),
    Row("int-opponent-lifted", "international", None, "19", kind="illegal",
        reason="not_side_to_move", missing="19"),
    Row("int-opponent-moved", "international", None, "19", "24", kind="illegal",
        reason="not_side_to_move", missing="19", extra="24"),
    Row("int-extra-piece", "international", None, "", "25", kind="illegal",
        reason="unknown_piece", extra="25"),
    Row("int-capture", "international", INTERNATIONAL_CAPTURE, "32 28", "23", moves="32x23"),
    Row("int-capture-other", "international", INTERNATIONAL_CAPTURE, "33 28", "22",
        moves="33x22"),
    Row("int-capture-landed-first", "international", INTERNATIONAL_CAPTURE, "32", "23",
        kind="progress", moves="32x23", remove="28"),
    Row("int-captured-removed-first", "international", INTERNATIONAL_CAPTURE, "28",
        kind="progress", moves="32x23 33x22", land="23 22"),
    Row("int-capture-in-hand", "international", INTERNATIONAL_CAPTURE, "32 28",
        kind="progress", moves="32x23", land="23"),
    Row("int-quiet-instead-of-capture", "international", INTERNATIONAL_CAPTURE, "32", "27",
        kind="illegal", reason="capture_compulsory", moves="32x23 33x22", missing="32",
        extra="27"),
    Row("int-wrong-piece-taken", "international", "W:W32,33:B28,16", "32 16", "23",
        kind="illegal", reason="not_a_move", missing="16", extra="28"),
    Row("int-majority", "international", INTERNATIONAL_MAJORITY, "32 28 18", "12",
        moves="32x12"),
    Row("int-majority-via-landing", "international", INTERNATIONAL_MAJORITY, "32 28 18", "12",
        moves="32x23x12"),
    Row("int-majority-stopped-midway", "international", INTERNATIONAL_MAJORITY, "32 28", "23",
        kind="progress", moves="32x12", remove="18", land="12"),
    Row("int-majority-second-removed-first", "international", INTERNATIONAL_MAJORITY, "32 18",
        kind="progress", moves="32x12", remove="28", land="12"),
    Row("int-majority-short-capture", "international", INTERNATIONAL_MAJORITY, "37 31", "26",
        kind="illegal", reason="max_capture", moves="32x12", missing="37 31", extra="26"),
    Row("int-majority-unplayable-piece", "international", INTERNATIONAL_MAJORITY, "37",
        kind="illegal", reason="capture_compulsory", moves="32x12", missing="37"),
    Row("int-king-slides-on", "international", INTERNATIONAL_KING, "46", "28",
        moves="46-28", settle=True),
    Row("int-king-first-step", "international", INTERNATIONAL_KING, "46", "41",
        moves="46-41", settle=True),
    Row("int-king-to-the-end", "international", INTERNATIONAL_KING, "46", "5", moves="46-5"),
    Row("int-king-capture-near", "international", INTERNATIONAL_KING_CAPTURE, "46 28", "23",
        moves="46x23", settle=True),
    Row("int-king-capture-far", "international", INTERNATIONAL_KING_CAPTURE, "46 28", "5",
        moves="46x5"),
    Row("int-king-capture-sliding", "international", INTERNATIONAL_KING_CAPTURE, "46", "37",
        kind="progress", moves="46x23 46x19 46x14 46x10 46x5", remove="28",
        land="23 19 14 10 5"),
    Row("int-circle-all-removed", "international", INTERNATIONAL_CIRCLE, CIRCLE,
        moves="37x37", captures=CIRCLE, settle=True),
    Row("int-circle-run-on", "international", INTERNATIONAL_CIRCLE, "37 " + CIRCLE, "48",
        moves="37x48", captures=CIRCLE),
    Row("int-circle-run-on-near", "international", INTERNATIONAL_CIRCLE, "37 " + CIRCLE, "42",
        moves="37x42", captures=CIRCLE, settle=True),
    Row("int-circle-first-landing", "international", INTERNATIONAL_CIRCLE, "37 32", "28",
        kind="progress", moves="37x37 37x42 37x48 37x41 37x46", remove="21 22 31",
        land="37 42 48 41 46"),
    Row("int-touched-piece", "international", None, "31", "27", obliged="32", kind="illegal",
        reason="touch_move", missing="31", extra="27"),
    Row("int-touched-piece-moved", "international", None, "32", "27", obliged="32",
        moves="32-27"),
    Row("int-touched-other-lifted", "international", None, "32 33", obliged="32",
        kind="illegal", reason="touch_move", missing="32 33"),
    # -- brazilian (international rules on 8x8) ------------------------------------------------
    Row("bra-quiet", "brazilian", None, "c3", "d4", moves="c3-d4"),
    Row("bra-majority", "brazilian", BRAZILIAN_MAJORITY, "c3 d4 f6", "g7", moves="c3xe5xg7"),
    Row("bra-majority-short", "brazilian", BRAZILIAN_MAJORITY, "h2 g3", "f4",
        kind="illegal", reason="max_capture", moves="c3xg7", missing="h2 g3", extra="f4"),
    Row("bra-man-back-capture", "brazilian", "W:Wd4:Bc3", "d4 c3", "b2", moves="d4xb2"),
    Row("bra-numbers-accepted", "brazilian", "W:W18:B22", "18 22", "25", moves="18x25"),
    # -- canadian (12x12) ----------------------------------------------------------------------
    Row("can-quiet", "canadian", None, "44", "38", moves="44-38"),
    Row("can-lifted", "canadian", None, "43", kind="progress", moves="43-37", land="37"),
    Row("can-king-slides", "canadian", "W:WK67:B6", "67", "34", moves="67-34", settle=True),
    # -- russian -------------------------------------------------------------------------------
    Row("rus-quiet", "russian", None, "c3", "d4", moves="c3-d4"),
    Row("rus-man-back-capture", "russian", "W:Wd4:Bc3,h8", "d4 c3", "b2", moves="d4:b2"),
    Row("rus-king-slides-on", "russian", "W:WKa1:Bh8", "a1", "d4", moves="a1-d4", settle=True),
    Row("rus-king-stops", "russian", "W:WKa1:Bh8", "a1", "g7", moves="a1-g7"),
    Row("rus-crowned-mid-capture", "russian", "W:Wf6:Be7,b6", "f6 e7 b6", "a5",
        moves="f6:d8:a5"),
    Row("rus-crowned-mid-capture-halfway", "russian", "W:Wf6:Be7,b6", "f6 e7", "d8",
        kind="progress", moves="f6:a5", remove="b6", land="a5"),
    Row("rus-quiet-instead-of-capture", "russian", "W:Wd4,h2:Bc3,h8", "h2", "g3",
        kind="illegal", reason="capture_compulsory", moves="d4:b2", missing="h2", extra="g3"),
    # -- english -------------------------------------------------------------------------------
    Row("eng-quiet", "english", None, "11", "15", moves="11-15"),
    Row("eng-lifted", "english", None, "9", kind="progress", moves="9-13 9-14", land="13 14"),
    Row("eng-jump", "english", "B:W18:B14", "14 18", "23", moves="14x23"),
    Row("eng-quiet-instead-of-jump", "english", "B:W18:B14", "14", "17", kind="illegal",
        reason="capture_compulsory", moves="14x23", missing="14", extra="17"),
    Row("eng-double-jump", "english", "B:W9,18:B5", "5 9 18", "23", moves="5x14x23"),
    Row("eng-double-jump-put-down-midway", "english", "B:W9,18:B5", "5 9", "14",
        kind="progress", moves="5x23", remove="18", land="23"),
    Row("eng-crowning", "english", "B:W6:B27", "27", "32", moves="27-32"),
    Row("eng-short-king", "english", "B:W6:BK14", "14", "10", moves="14-10"),
    Row("eng-short-king-too-far", "english", "B:W6:BK14", "14", "5", kind="illegal",
        reason="not_a_move", missing="14", extra="5"),
    # -- pool ----------------------------------------------------------------------------------
    Row("pool-quiet", "pool", None, "9", "14", moves="9-14"),
    Row("pool-man-back-capture", "pool", "B:W14:B18", "18 14", "9", moves="18x9"),
    Row("pool-king-slides-on", "pool", "B:W32:BK1", "1", "15", moves="1-15", settle=True),
    # -- italian -------------------------------------------------------------------------------
    Row("ita-quiet", "italian", None, "22", "18", moves="22-18"),
    Row("ita-capture", "italian", "W:W22:B18", "22 18", "13", moves="22x13"),
    Row("ita-man-cannot-take-king", "italian", "W:W22:BK18", "22", "19", moves="22-19"),
    Row("ita-man-takes-king-refused", "italian", "W:W22:BK18", "22 18", "13", kind="illegal",
        reason="not_a_move", missing="22 18", extra="13"),
    Row("ita-king-first", "italian", "W:W23,K22:B18,19", "23 19", "14", kind="illegal",
        reason="king_priority", moves="22x13 22x15", missing="23 19", extra="14"),
    # -- spanish -------------------------------------------------------------------------------
    Row("spa-quiet", "spanish", None, "9", "13", moves="9-13"),
    Row("spa-most-kings", "spanish", "W:W10:B14,K13", "10 13", "17", moves="10x17"),
    Row("spa-man-instead-of-king", "spanish", "W:W10:B14,K13", "10 14", "19", kind="illegal",
        reason="capture_precedence", moves="10x17", missing="10 14", extra="19"),
    # -- turkish -------------------------------------------------------------------------------
    Row("tur-quiet", "turkish", None, "a3", "a4", moves="a3-a4"),
    Row("tur-lifted", "turkish", None, "a3", kind="progress", moves="a3-a4", land="a4"),
    Row("tur-capture", "turkish", "W:Wd4:Bd5", "d4 d5", "d6", moves="d4xd6"),
    Row("tur-majority", "turkish", "W:Wd4:Bd5,d7,e4", "d4 d5 d7", "d8", moves="d4xd6xd8"),
    Row("tur-majority-halfway", "turkish", "W:Wd4:Bd5,d7,e4", "d4 d5", "d6", kind="progress",
        moves="d4xd8", remove="d7", land="d8"),
    Row("tur-majority-short", "turkish", "W:Wd4:Bd5,d7,e4", "d4 e4", "f4", kind="illegal",
        reason="max_capture", moves="d4xd8", missing="d4 e4", extra="f4"),
    Row("tur-king-slides-on", "turkish", "W:WKa1:Bh8", "a1", "a4", moves="a1-a4", settle=True),
    Row("tur-king-to-the-end", "turkish", "W:WKa1:Bh8", "a1", "a8", moves="a1-a8"),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.id)
def test_table(row: Row) -> None:
    board = Board(row.variant, row.fen)
    occ = board.occupied_squares() - sq(board, row.lift) | sq(board, row.place)
    obliged = next(iter(sq(board, row.obliged))) if row.obliged else None
    result = resolve(board, occ, obliged=obliged)
    expected = row.moves.split()
    if row.kind == "sync":
        assert result == InSync()
    elif row.kind == "complete":
        assert isinstance(result, Complete), result
        assert matches(board, result.move, expected[0], row.captures), result.move
        assert result.needs_settle is row.settle
    elif row.kind == "progress":
        assert isinstance(result, InProgress), result
        assert len(result.candidates) == len(expected)
        for text in expected:
            assert sum(matches(board, m, text) for m in result.candidates) == 1, text
        assert result.single is (len(expected) == 1)
        assert result.to_remove == sq(board, row.remove)
        assert result.to_land == sq(board, row.land)
    else:
        assert isinstance(result, Illegal), result
        assert result.reason.value == row.reason
        assert result.missing == sq(board, row.missing)
        assert result.extra == sq(board, row.extra)
        if expected:
            got = result.detail["moves"]
            assert len(got) == len(expected)
            assert all(any(matches(board, m, t) for m in got) for t in expected)


def test_promotion_is_reported_for_the_crown_led() -> None:
    board = Board("english", "B:W6:B27")
    result = resolve(board, board.occupied_squares() - sq(board, "27") | sq(board, "32"))
    assert isinstance(result, Complete)
    assert result.move.promotes and {result.move.destination} == sq(board, "32")
    quiet = resolve(Board("english"), Board("english").occupied_squares() - {10} | {14})
    assert isinstance(quiet, Complete) and not quiet.move.promotes


def test_russian_crowned_mid_capture_promotes() -> None:
    board = Board("russian", "W:Wf6:Be7,b6")
    result = resolve(board, board.occupied_squares() - sq(board, "f6 e7 b6") | sq(board, "a5"))
    assert isinstance(result, Complete) and result.move.promotes
    assert {result.move.destination} == sq(board, "a5")


def test_wrong_piece_taken_is_guided_towards_the_capture() -> None:
    board = Board("international", "W:W32,33:B28,16")
    result = resolve(board, board.occupied_squares() - sq(board, "32 16") | sq(board, "23"))
    assert isinstance(result, Illegal)
    assert matches(board, result.detail["toward"], "32x23")


def test_max_capture_detail_counts_pieces() -> None:
    board = Board("international", INTERNATIONAL_MAJORITY)
    result = resolve(board, board.occupied_squares() - sq(board, "37 31") | sq(board, "26"))
    assert isinstance(result, Illegal)
    assert result.detail["count"] == 2


def test_capture_compulsory_detail_names_the_captures() -> None:
    board = Board("english", "B:W18:B14")
    result = resolve(board, board.occupied_squares() - sq(board, "14") | sq(board, "17"))
    assert isinstance(result, Illegal)
    assert result.detail["pdn"] == ("14x23",)
    assert result.detail["capture"] == "14x23"


def test_touch_refusal_names_the_piece_and_its_destinations() -> None:
    board = Board("international")
    (obliged,) = sq(board, "32")
    result = resolve(board, board.occupied_squares() - sq(board, "33"), obliged=obliged)
    assert isinstance(result, Illegal)
    assert result.reason is RefusalReason.TOUCHED_PIECE_MUST_MOVE
    assert result.detail["square"] == "32"
    assert result.detail["destinations"] == sq(board, "27 28")


def test_obliged_piece_lifted_shows_only_its_moves() -> None:
    board = Board("international", INTERNATIONAL_CAPTURE)
    occ = board.occupied_squares() - sq(board, "28")  # captured piece first: both captures fit
    assert len(resolve(board, occ).candidates) == 2  # type: ignore[union-attr]
    (obliged,) = sq(board, "33")
    result = resolve(board, occ, obliged=obliged)
    assert isinstance(result, InProgress) and result.single
    assert matches(board, result.candidates[0], "33x22")


def test_put_back_with_obligation_is_in_sync() -> None:
    board = Board("international")
    assert resolve(board, board.occupied_squares(), obliged=31) == InSync()


# -- colour-aware sensing ----------------------------------------------------------------------


def readings(board: Board, occ: frozenset[int], moved: dict[int, Reading]) -> dict[int, Reading]:
    """Correct colour readings of ``occ`` (from the position), overridden by ``moved``."""
    colour = {0: Reading.WHITE, 1: Reading.BLACK}
    king = {0: Reading.WHITE_KING, 1: Reading.BLACK_KING}
    out = {}
    for s in occ:
        piece = board.piece_at(s)
        if piece is not None:
            out[s] = (king if piece.king else colour)[int(piece.color)]
    out.update(moved)
    return out


def test_colours_agree_with_a_move() -> None:
    board = Board("international")
    occ = board.occupied_squares() - {31} | {27}
    result = resolve(board, occ, colours=readings(board, occ, {27: Reading.WHITE}))
    assert isinstance(result, Complete)


def test_colours_catch_a_wrong_piece_placed() -> None:
    board = Board("international")
    occ = board.occupied_squares() - {31} | {27}
    result = resolve(board, occ, colours=readings(board, occ, {27: Reading.BLACK}))
    assert isinstance(result, Illegal) and result.reason is RefusalReason.WRONG_COLOUR
    assert result.extra == {27}


def test_colours_catch_swapped_pieces_in_sync() -> None:
    board = Board("international")
    occ = board.occupied_squares()
    result = resolve(board, occ, colours=readings(board, occ, {18: Reading.WHITE}))
    assert isinstance(result, Illegal) and result.reason is RefusalReason.WRONG_COLOUR
    assert result.detail["squares"] == ("19",)


def test_colours_an_unknown_crown_is_wrong_a_missing_one_tolerated() -> None:
    board = Board("international", "W:WK46,32:B1")
    occ = board.occupied_squares()
    crowned_man = resolve(board, occ, colours=readings(board, occ, {31: Reading.WHITE_KING}))
    assert isinstance(crowned_man, Illegal) and crowned_man.extra == {31}
    uncrowned_king = readings(board, occ, {45: Reading.WHITE})
    assert resolve(board, occ, colours=uncrowned_king) == InSync()


def test_presence_readings_are_not_colours() -> None:
    board = Board("international")
    occ = board.occupied_squares() - {31} | {27}
    result = resolve(board, occ, colours=dict.fromkeys(occ, Reading.OCCUPIED))
    assert isinstance(result, Complete)


# -- the pending computer move -----------------------------------------------------------------


@pytest.fixture
def pending() -> tuple[Board, PendingIndex]:
    board = Board("international")
    mc = next(m for m in board.legal_moves if matches(board, m, "32-28"))
    return board, PendingIndex(board, mc)


def test_pending_not_started_is_in_sync(pending: tuple[Board, PendingIndex]) -> None:
    board, idx = pending
    assert idx.resolve(board.occupied_squares()) == InSync()


def test_pending_in_progress(pending: tuple[Board, PendingIndex]) -> None:
    board, idx = pending
    result = idx.resolve(board.occupied_squares() - sq(board, "32"))
    assert isinstance(result, InProgress) and result.single
    assert result.to_land == sq(board, "28")


def test_pending_carried_out(pending: tuple[Board, PendingIndex]) -> None:
    board, idx = pending
    result = idx.resolve(board.occupied_squares() - sq(board, "32") | sq(board, "28"))
    assert isinstance(result, Complete) and result.move == idx.move


def test_pending_with_human_reply_on_top(pending: tuple[Board, PendingIndex]) -> None:
    board, idx = pending
    occ = board.occupied_squares() - sq(board, "32 18") | sq(board, "28 23")
    result = idx.resolve(occ)
    assert isinstance(result, Complete) and result.move == idx.move
    after = board.copy()
    after.push(idx.move)
    reply = resolve(after, occ)  # what the session does after committing the pending move
    assert isinstance(reply, Complete) and matches(after, reply.move, "18-23")


def test_pending_done_and_reply_begun_commits_the_pending(
    pending: tuple[Board, PendingIndex],
) -> None:
    board, idx = pending
    result = idx.resolve(board.occupied_squares() - sq(board, "32 18") | sq(board, "28"))
    assert isinstance(result, Complete) and result.move == idx.move


def test_pending_alternative_move_is_refused_with_the_move(
    pending: tuple[Board, PendingIndex],
) -> None:
    board, idx = pending
    result = idx.resolve(board.occupied_squares() - sq(board, "31") | sq(board, "26"))
    assert isinstance(result, Illegal)
    assert result.reason is RefusalReason.PENDING_MOVE_EXPECTED
    assert matches(board, result.detail["alternative"], "31-26")
    # guided back to the position (nearer than the computer's result), where the LEDs show it
    assert result.missing == sq(board, "31") and result.extra == sq(board, "26")


def test_pending_guidance_towards_the_nearer_pending_result(
    pending: tuple[Board, PendingIndex],
) -> None:
    board, idx = pending
    result = idx.resolve(board.occupied_squares() - sq(board, "32") | sq(board, "27"))
    assert isinstance(result, Illegal) and result.detail["alternative"] is not None
    tie = idx.resolve(board.occupied_squares() - sq(board, "32") | sq(board, "22"))
    assert isinstance(tie, Illegal) and tie.detail["alternative"] is None
    assert tie.missing == sq(board, "28") and tie.extra == sq(board, "22")


def test_resolve_after_matches_the_index(pending: tuple[Board, PendingIndex]) -> None:
    board, idx = pending
    occ = board.occupied_squares() - sq(board, "32") | sq(board, "28")
    assert resolve_after(board, idx.move, occ) == idx.resolve(occ)


def test_pending_circular_capture_carried_out() -> None:
    board = Board("international", INTERNATIONAL_CIRCLE)
    mc = next(m for m in board.legal_moves if m.origin == m.destination)
    result = PendingIndex(board, mc).resolve(board.occupied_squares() - sq(board, CIRCLE))
    assert isinstance(result, Complete) and result.move == mc


def test_pending_must_be_legal() -> None:
    board = Board("international")
    with pytest.raises(ValueError):
        PendingIndex(board, Move(31, 20, (20,)))  # 32-21: no such move


# -- the index and bad input -------------------------------------------------------------------


def test_index_reports_playable_pieces_and_results() -> None:
    board = Board("international", INTERNATIONAL_CAPTURE + ",1")
    index = MoveIndex(board)
    assert index.playable == sq(board, "32 33")
    (move,) = index.moves_from(31)
    assert index.resolve(sq(board, "23 33 1")) == Complete(move)
    assert index.occupancy == board.occupied_squares()


def test_index_reused_across_changes_gives_the_same_answers() -> None:
    board = Board("international", INTERNATIONAL_MAJORITY)
    index = MoveIndex(board)
    for lift, place in [("32", ""), ("32 28", "23"), ("32 28 18", "12"), ("37 31", "26")]:
        occ = board.occupied_squares() - sq(board, lift) | sq(board, place)
        assert resolve(board, occ, index=index) == resolve(board, occ)


def test_square_off_the_board_is_an_error() -> None:
    board = Board("english")
    with pytest.raises(ValueError, match="outside"):
        resolve(board, board.occupied_squares() | {32})


def test_position_without_moves_accepts_nothing() -> None:
    board = Board("english", "B:W9,14:B5")  # black 5 is blocked and cannot jump
    index = MoveIndex(board)
    assert index.playable == frozenset()
    result = resolve(board, board.occupied_squares() - sq(board, "5"), index=index)
    assert isinstance(result, Illegal) and result.reason is RefusalReason.NO_SUCH_MOVE
    assert result.missing == sq(board, "5")
