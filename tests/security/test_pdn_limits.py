"""Issue 25 §11: the PDN reader is bounded in memory. A 10 MB tag value peaked at 1.7 GB (the
tag regex's backtracking, ~165 bytes per input byte); now every shape of large input peaks at
no more than 40 times its size plus about a kilobyte for each game it holds (issue 40: a file of
games of one byte each, ``* * * ...``, is 270 times its size, all of it games: the bound of
docs/security.md says so), and a tag value beyond the limit is one clear error."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable

import pytest

from engine.pdn import PdnError, read_games
from engine.pdn_lexer import MAX_TAG_VALUE
from tests.conftest import sample_size

SIZE = sample_size(300_000, 10_000_000)  # bytes of input

SHAPES: dict[str, Callable[[int], str]] = {
    "one long tag value": lambda n: '[Event "' + "x" * n + '"]\n1. c3-d4 *\n',
    "a long escaped tag value": lambda n: '[Event "' + "\\\\" * (n // 2) + '"]\n*\n',
    "an unclosed tag value": lambda n: '[Event "' + "x" * n + "\n",
    "blank lines": lambda n: "\n" * n + "1. c3-d4 *\n",
    "one long comment": lambda n: "{" + "y" * n + "} 1. c3-d4 *\n",
    "many tags": lambda n: '[Event "e"]\n' * (n // 12) + "1. c3-d4 *\n",
    "one game of many moves": lambda n: "1. c3-d4 f6-g5 " * (n // 16) + "*\n",
    "moves with NAGs": lambda n: "1. c3-d4 $1 " * (n // 12) + "*\n",
    # (a twentieth of the size: a game's cost is per game, and thousands show it)
    "many games": lambda n: "1. c3-d4 *\n\n" * (n // 240),
    "games of one result each": lambda n: "* " * (n // 40),
    "games with tags": lambda n: '[Event "e"]\n1. c3-d4 *\n\n' * (n // 480),
    "games from a FEN": lambda n: '[FEN "W:W31-50:B1-20"]\n[GameType "20"]\n*\n\n' * (n // 800),
    "variations": lambda n: "1. c3-d4 (1. c3-b4) " * (n // 20) + "*\n",
}
#: The reader's documented bound (docs/security.md): bytes of memory at its peak for each byte
#: of input, and for each game it reads.
PER_BYTE, PER_GAME = 40, 1200


@pytest.mark.parametrize("shape", SHAPES)
def test_the_reader_peaks_within_its_documented_bound(shape: str) -> None:
    text = SHAPES[shape](SIZE)
    errors: list[PdnError] = []
    tracemalloc.start()
    try:
        games = read_games(text, variant="russian", errors=errors)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    read = len(games) + len(errors)
    assert peak <= PER_BYTE * len(text) + PER_GAME * read, (
        f"{shape}: peak {peak / len(text):.1f} x the input, {read} games")


def test_a_tag_value_beyond_the_limit_is_one_clear_error() -> None:
    text = '[Event "' + "x" * (MAX_TAG_VALUE + 1) + '"]\n1. c3-d4 *\n\n[Event "ok"]\n1. c3-d4 *\n'
    errors: list[PdnError] = []
    games = read_games(text, variant="russian", errors=errors)
    assert [g.headers["Event"] for g in games] == ["ok"]
    assert len(errors) == 1 and "longer than 4096" in str(errors[0]) and errors[0].line == 1
    with pytest.raises(PdnError, match="longer than"):
        read_games(text, variant="russian")


def test_tags_still_read_as_before() -> None:
    text = '[Event  "a \\"b\\" \\\\ c"]  \n[Round "1"]\n1. c3-d4 *'
    game = read_games(text, variant="russian")[0]
    assert game.headers == {"Event": 'a "b" \\ c', "Round": "1"}
    for bad in ('[Event "x]\n*', '[Event"x"]\n*', '[ "x"]\n*', '[Event "x" \n*'):
        with pytest.raises(PdnError):
            read_games(bad, variant="russian")
