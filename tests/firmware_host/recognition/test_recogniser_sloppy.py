"""Random legal games carried out by sloppy hands, resolved after every physical change.

For every variant, random games are played; each move (with a randomly chosen capture path) is
turned into realistic lift/place events by :mod:`tests.firmware_host.sloppy_hands`, and the
occupancy after every single event (bounces included, no debouncer in between) is resolved:

- no wrong move is ever ``Complete`` on a board that holds for ``settle_ms``: the session counts a
  move only once its piece is released (firmware_host/game/release.py), so a wrong result shown
  for less (a flying king sliding past a square it could stop on, a piece set down for a moment
  on another square before it is let go: notes to FMJD art. 16) is never recorded;
- no state of an honest move is ``Illegal`` (outside an adjust window): it is guided as in progress;
- the right move is ``Complete`` at the end.

Some games also run with colour readings, some with the touch-move obligation on the piece once
lifted, and some moves are resolved as the computer's pending move instead.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from board_io.types import Reading
from engine import Board, Move, Piece
from firmware_host.recognition.recogniser import (
    Complete,
    Illegal,
    MoveIndex,
    PendingIndex,
    Resolution,
)
from tests.conftest import sample_size
from tests.firmware_host.sloppy_hands import HandEvent, Hands, replay, sloppy_events

VARIANTS = [
    "international", "brazilian", "canadian", "russian", "english", "pool", "italian",
    "spanish", "turkish",
]
GAMES = sample_size(ci=8, full=200)
MAX_PLIES = 150
SETTLE_MS = 300
HANDS = Hands(adjust=0.08, quick_adjust=0.3, hover=0.1, settle_ms=SETTLE_MS)


def reading_of(piece: Piece) -> Reading:
    """The colour-aware reading of a piece."""
    if piece.color == 0:
        return Reading.WHITE_KING if piece.king else Reading.WHITE
    return Reading.BLACK_KING if piece.king else Reading.BLACK


def states(
    board: Board, move: Move, events: list[HandEvent]
) -> Iterator[tuple[frozenset[int], dict[int, Reading], int, bool]]:
    """``(occupancy, colour readings, dwell_ms, adjusting)`` after each event."""
    timeline = list(replay(board.occupied_squares(), events))
    colours = {sq: reading_of(p) for sq, p in board.pieces().items()}
    mover = colours[move.origin]
    last_lift: tuple[int, Reading] | None = None
    adjusting = left = False
    for i, (t, occ, ev) in enumerate(timeline):
        dwell = timeline[i + 1][0] - t if i + 1 < len(timeline) else 10**9
        if ev.action == "adjust":
            adjusting = True
        elif ev.action == "lift":
            assert ev.square is not None
            last_lift = (ev.square, colours.pop(ev.square))
        else:
            assert ev.square is not None
            bounce = last_lift is not None and last_lift[0] == ev.square
            colours[ev.square] = last_lift[1] if bounce and last_lift else mover
        yield occ, dict(colours), dwell, adjusting
        left = adjusting and (left or occ != board.occupied_squares())
        if left and occ == board.occupied_squares() and dwell >= SETTLE_MS:
            adjusting = left = False  # the window closes once the position held for settle_ms


def check_state(
    result: Resolution, key: object, dwell: int, adjusting: bool, where: str
) -> None:
    """The invariants of one intermediate board."""
    if isinstance(result, Complete) and result.move.key() != key:
        assert dwell < SETTLE_MS, f"wrong move held for settle_ms: {result} {where}"
    if not adjusting:
        assert not isinstance(result, Illegal), f"honest handling refused: {result} {where}"


def play_move(board: Board, move: Move, rng: random.Random, mode: str) -> None:
    """Carry ``move`` out with sloppy hands and check every state (``mode``: see below)."""
    events = sloppy_events(board, move, rng, HANDS)
    key = move.key()
    index = MoveIndex(board)
    pending = PendingIndex(board, move, index=index) if mode == "pending" else None
    lifted = False
    result: Resolution | None = None
    for occ, colours, dwell, adjusting in states(board, move, events):
        lifted = lifted or (move.origin not in occ and not adjusting)
        where = f"in {board.fen()} playing {board.move_notation(move, full=True)}"
        if pending is not None:
            result = pending.resolve(occ)
            if isinstance(result, Complete):
                assert result.move.key() == key, where
            continue
        obliged = move.origin if mode == "strict" and lifted else None
        shown = colours if mode == "colours" else None
        result = index.resolve(occ, colours=shown, obliged=obliged)
        check_state(result, key, dwell, adjusting, where)
    assert isinstance(result, Complete) and result.move.key() == key, (result, move)


def random_game(variant: str, seed: int) -> int:
    """Play one random game; returns the number of moves checked."""
    rng = random.Random(seed)
    board = Board(variant)
    mode = ("plain", "colours", "strict", "pending")[seed % 4]
    for _ in range(MAX_PLIES):
        moves = list(board.generate_moves(paths=True))
        if not moves:
            break
        move = rng.choice(moves)
        computer = mode == "pending" and board.ply % 2 == 1
        play_move(board, move, rng, "pending" if computer else mode.replace("pending", "plain"))
        board.push(move)
    return board.ply


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_sloppy_games(variant: str) -> None:
    checked = sum(random_game(variant, seed) for seed in range(GAMES))
    assert checked >= GAMES * 10  # the games did get played


#: King-rich positions (flying-king slides, long captures, a circular capture) for every variant
#: with flying kings, plus short kings, played on randomly from there.
KING_POSITIONS = [
    ("international", "W:WK37:B21,22,31,32"),
    ("international", "W:WK46,K50,33:BK5,K1,19,20,24"),
    ("brazilian", "W:WKa1,Kg1,c3:BKb8,Kh8,d6,f6"),
    ("canadian", "W:WK67,K72,50:BK1,K6,20,21"),
    ("russian", "W:WKa1,Kh2,c3:BKh8,Ka7,d6,f6"),
    ("pool", "B:WK29,K32,22:BK1,K4,10,11"),
    ("turkish", "W:WKa1,Kd4,c2:BKh8,e6,f6"),
    ("english", "B:WK29,K32,22:BK1,K4,10,11"),
    ("italian", "W:WK29,K32,22:BK1,K4,10,11"),
]
KING_GAMES = sample_size(ci=4, full=50)


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "fen"), KING_POSITIONS)
def test_sloppy_king_positions(variant: str, fen: str) -> None:
    for seed in range(KING_GAMES):
        rng = random.Random(seed)
        board = Board(variant, fen)
        for ply in range(40):
            moves = list(board.generate_moves(paths=True))
            if not moves:
                break
            move = rng.choice(moves)
            mode = ("plain", "colours", "strict")[(seed + ply) % 3]
            play_move(board, move, rng, mode)
            board.push(move)


@pytest.mark.parametrize(("variant", "fen"), [
    ("international", "W:WK37:B21,22,31,32"),  # around and back to the start
    # a Turkish king that takes the piece on f7 first and ends its capture on f7
    ("turkish", "W:Wa2,c3,d2,d3,e3,f4,Kf8,h2,h7:Bb6,c6,c7,d5,d6,e6,e7,f7,g3,g6,g7"),
])
def test_sloppy_hands_carry_out_the_move(variant: str, fen: str) -> None:
    rng = random.Random(7)
    board = Board(variant, fen)
    for move in board.generate_moves(paths=True):
        for _ in range(20):
            events = sloppy_events(board, move, rng, HANDS)
            *_, (_, occ, _) = replay(board.occupied_squares(), events)
            gone = {move.origin, *move.captures}
            assert occ == board.occupied_squares() - gone | {move.destination}
