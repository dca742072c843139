"""Random legal games, carried out by sloppy hands through the whole pipeline, in virtual time.

Simulated board -> scanner (debounce) -> controller -> session -> store. Hands are untidy but
honest: bounce on lifts and places, captured pieces removed in random order and at random
moments, the capturing piece put down on some landing squares or none, flying kings sliding,
occasional adjusts. Every game recorded must be exactly the game played.
"""

from __future__ import annotations

import random

import pytest

from engine import Board
from engine.pdn import read_games
from engine.variant import VARIANTS
from firmware_host.pdnrender import render_game
from tests.conftest import sample_size
from tests.firmware_host.session_harness import SimRig
from tests.firmware_host.sloppy_hands import Hands, sloppy_events

GAMES = sample_size(ci=2, full=200)
MAX_PLIES = sample_size(ci=40, full=120)
HANDS = Hands(adjust=0.05, think_ms=(150, 900), pause_ms=(60, 500))


def play_random_game(variant: str, seed: int) -> tuple[SimRig, Board]:
    """Play one random game on a fresh rig; return the rig and the game as actually played."""
    rng = random.Random(f"{variant}-{seed}")
    rig = SimRig(variant)
    rig.run_for(100)  # first full scan: the session starts and syncs
    game = Board(variant)
    for _ in range(MAX_PLIES):
        if game.is_game_over():
            break
        move = rng.choice(list(game.generate_moves(paths=True)))
        rig.hands(sloppy_events(game, move, rng, HANDS))
        rig.run_for(rig.config.settle_ms + 60)
        game.push(move)
    rig.run_for(500)
    return rig, game


@pytest.mark.slow
@pytest.mark.parametrize("variant", [v.name for v in VARIANTS])
def test_random_games_are_recorded_exactly(variant: str) -> None:
    for seed in range(GAMES):
        rig, game = play_random_game(variant, seed)
        session = rig.session
        record = rig.store.load_game(session.game_id)
        replay = Board(variant)
        expected = []
        for move in game.move_stack:
            expected.append(replay.move_notation(move))
            replay.push(move)
        assert [m.pdn for m in record.moves] == expected, f"seed {seed}"
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
