"""Fuzzing the PDN reader: random and mutated text gives games or a PdnError, nothing else."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Board
from engine.pdn import PdnError, PdnGame, read_games, write_board
from tests.conftest import sample_size

EXAMPLES = sample_size(ci=250, full=5000)
FUZZ = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

ALPHABET = st.sampled_from(list('[]{}()";%\\.-x:X×*!?$+=# \t\r\n\ufeff0123456789abchkKWB½é'))
FRAGMENTS = st.sampled_from([
    '[Event "x"]', '[GameType "20"]', '[GameType "25,W,8,8,A0,0"]', '[GameType "21"]',
    '[GameType "99"]', '[FEN "W:W31-50:B1-20"]', '[FEN "B:WK3:B"]', '[Variant "poddavki"]',
    "1.", "1...", "12.", "...", "32-28", "19-23", "28x19", "14x23", "c3-d4", "f6-e5", "d4:f6",
    "11-15", "23-19", "a3b4", "22x13x4", "{c}", "{", "}", "(", ")", ";c\n", "2-0", "0-2",
    "1-1", "1/2-1/2", "*", "$3", "!?", "??", "\n", "\r\n", " ", "%esc\n", "\ufeff",
])


def _seeds() -> list[str]:
    """Valid PDN of several variants, to be mutated."""
    rng = random.Random(5)
    texts = []
    for variant in ("international", "russian", "english", "turkish", "italian", "canadian"):
        board = Board(variant)
        for _ in range(40):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        texts.append(write_board(board, {"Event": variant}, comments={3: ["a comment"]}))
    return texts


SEEDS = _seeds()


def _check(text: str) -> None:
    try:
        games = read_games(text)
    except PdnError as exc:
        lines = text.replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1
        assert 1 <= exc.line <= lines
        assert exc.column >= 1
    else:
        assert all(isinstance(g, PdnGame) for g in games)
    errors: list[PdnError] = []
    games = read_games(text, errors=errors)  # collecting errors never raises
    assert all(isinstance(e, PdnError) for e in errors)
    for game in games:  # every game read is playable as read
        assert game.board().ply == len(game.moves)


@FUZZ
@given(st.text(alphabet=ALPHABET, max_size=300))
def test_random_characters(text: str) -> None:
    _check(text)


@FUZZ
@given(st.lists(FRAGMENTS, max_size=60))
def test_random_fragments(fragments: list[str]) -> None:
    _check(" ".join(fragments))
    _check("".join(fragments))


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 6))):
        where = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "delete", "replace", "duplicate"]))
        if kind == "insert":
            text = text[:where] + draw(st.text(ALPHABET, min_size=1, max_size=4)) + text[where:]
        elif kind == "delete":
            text = text[:where] + text[where + draw(st.integers(1, 8)) :]
        elif kind == "replace" and where < len(text):
            text = text[:where] + draw(ALPHABET) + text[where + 1 :]
        else:
            span = text[where : where + draw(st.integers(1, 30))]
            text = text[:where] + span + text[where:]
    return text


@FUZZ
@given(mutated())
def test_mutated_games(text: str) -> None:
    _check(text)


def test_unmutated_seeds_read_cleanly() -> None:
    """The fuzz seeds themselves are valid, so the mutations start from real games."""
    for text in SEEDS:
        [game] = read_games(text)
        assert len(game.moves) > 0
