"""Issue 25 §11: the PDN reader is bounded in memory. A 10 MB tag value peaked at 1.7 GB (the
tag regex's backtracking, ~165 bytes per input byte); now every shape of large input peaks at
no more than 20 times its size, and a tag value beyond the limit is one clear error."""

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
}


@pytest.mark.parametrize("shape", SHAPES)
def test_the_reader_peaks_below_20_times_its_input(shape: str) -> None:
    text = SHAPES[shape](SIZE)
    errors: list[PdnError] = []
    tracemalloc.start()
    try:
        read_games(text, variant="russian", errors=errors)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak <= 20 * len(text), f"{shape}: peak {peak / len(text):.1f} x the input"


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
