"""Random legal games, carried out by sloppy hands through the whole pipeline, in virtual time.

Simulated board -> scanner (debounce) -> controller -> session -> store. Hands are untidy but
honest: bounce on lifts and places, captured pieces removed in random order and at random
moments, the capturing piece put down on some landing squares or none, flying kings sliding,
occasional adjusts. Every game recorded must be exactly the game played.

Since issue 14 the hands are also quick (the settle model, firmware_host/game/release.py): a
move begun right after a j'adoube inside the adjust window, a quiet move's piece set down for a
moment on another square it could go to before it is let go, and fast replies, the next move
begun while the last one's piece has not yet held for settle_ms (the opponent's touch releases
it).
"""

from __future__ import annotations

import random

import pytest

from engine import Board
from engine.pdn import read_games
from engine.search import SearchResult
from engine.variant import VARIANTS
from firmware_host.store.pdnrender import render_game
from tests.conftest import sample_size
from tests.firmware_host.session_harness import SimRig
from tests.firmware_host.sloppy_hands import Hands, sloppy_events

#: Games per variant = CHUNKS x GAMES_PER_CHUNK (200 in a full run); chunks keep each test short.
CHUNKS = sample_size(ci=1, full=20)
GAMES_PER_CHUNK = sample_size(ci=2, full=10)
MAX_PLIES = sample_size(ci=40, full=120)
HANDS = Hands(adjust=0.08, quick_adjust=0.5, hover=0.1, think_ms=(150, 900),
              pause_ms=(60, 500))
#: A fast reply: the next move begins before the last one has held for settle_ms.
FAST_HANDS = Hands(adjust=0.0, hover=0.1, think_ms=(20, 120), pause_ms=(60, 500))
FAST = 0.15


def play_random_game(variant: str, seed: int) -> tuple[SimRig, Board]:
    """Play one random game on a fresh rig; return the rig and the game as actually played."""
    rng = random.Random(f"{variant}-{seed}")
    rig = SimRig(variant)
    rig.run_for(100)  # first full scan: the session starts and syncs
    game = Board(variant)
    fast = False
    for _ in range(MAX_PLIES):
        if game.is_game_over():
            break
        move = rng.choice(list(game.generate_moves(paths=True)))
        rig.hands(sloppy_events(game, move, rng, FAST_HANDS if fast else HANDS))
        fast = rng.random() < FAST
        if not fast:
            rig.run_for(rig.config.settle_ms + 60)
        game.push(move)
    rig.run_for(500)
    return rig, game


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("variant", [v.name for v in VARIANTS])
def test_random_games_are_recorded_exactly(variant: str, chunk: int) -> None:
    for seed in range(chunk * GAMES_PER_CHUNK, (chunk + 1) * GAMES_PER_CHUNK):
        rig, game = play_random_game(variant, seed)
        session = rig.session
        record = rig.store.load_game(session.game_id)
        # The move the hands made, as the sensors can know it (docs/design.md): its origin,
        # destination and captured pieces. Two capture paths with the same three (a circular
        # king capture taken the other way round) are the same board result.
        name = game.variant.square_name
        expected = [(name(m.origin), name(m.destination), sorted(name(c) for c in m.captures))
                    for m in game.move_stack]
        recorded = [(m.origin, m.destination, sorted(m.captures)) for m in record.moves]
        assert recorded == expected, f"seed {seed}"
        assert session.board.fen() == game.fen(), f"seed {seed}"
        outcome = game.outcome()
        if outcome is not None:
            assert record.result == outcome.result(), f"seed {seed}"
            assert session.state.value == "game_over"
        else:
            assert session.state.value == "human_to_move", f"seed {seed}"
        (pdn,) = read_games(render_game(record))
        assert [m.key() for m in pdn.moves] == [m.key() for m in game.move_stack]
        refused = [e for e in rig.events if e["event"] == "refused"]
        assert refused == [], f"seed {seed}: an honest move was refused: {refused[:1]}"


class RandomOpponent:
    """Plays a random legal move (with every capture path possible), reproducibly."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def best_move(self, board: Board, limit: object, stop: object = None) -> SearchResult:
        return SearchResult(self.rng.choice(list(board.generate_moves(paths=True))), 0, 1, 1, 0.0)


PLAY_GAMES = sample_size(ci=1, full=20)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["english", "international", "russian", "turkish"])
def test_random_games_against_the_computer(variant: str) -> None:
    from engine.types import Color
    from firmware_host.terms.settings import Mode

    for seed in range(PLAY_GAMES):
        rng = random.Random(f"play-{variant}-{seed}")
        human = Color.WHITE if seed % 2 else Color.BLACK
        rig = SimRig(variant, mode=Mode.PLAY, opponent=RandomOpponent(rng), human_side=human)
        rig.run_for(100)
        game = Board(variant)
        for _ in range(MAX_PLIES):
            if game.is_game_over():
                break
            if game.turn == human:
                move = rng.choice(list(game.generate_moves(paths=True)))
            else:
                assert rig.session.state.value == "computer_move_pending", f"seed {seed}"
                move = rig.session.pending
            rig.hands(sloppy_events(game, move, rng, Hands(think_ms=(150, 900))))
            rig.run_for(rig.config.settle_ms + 60)
            game.push(move)
        rig.run_for(500)
        record = rig.store.load_game(rig.session.game_id)
        assert [m.fen_after for m in record.moves] == [
            _fen_after(game, ply) for ply in range(len(game.move_stack))], f"seed {seed}"
        assert [m.by for m in record.moves] == [
            "human" if _turn(game, ply) == human else "computer"
            for ply in range(len(game.move_stack))]


def _replayed(game: Board, ply: int) -> Board:
    board = Board(game.variant.name)
    for move in game.move_stack[: ply + 1]:
        board.push(move)
    return board


def _fen_after(game: Board, ply: int) -> str:
    return _replayed(game, ply).fen()


def _turn(game: Board, ply: int) -> int:
    board = Board(game.variant.name)
    for move in game.move_stack[:ply]:
        board.push(move)
    return board.turn
