"""Outcome as data: result tokens per PDN GameType, parsing results, validation."""

from __future__ import annotations

import dataclasses

import pytest

import engine
from engine.outcome import RESULTS, Outcome, Termination, result_style
from engine.types import BLACK, WHITE, Color

# (GameType, winner, expected token). FMJD scores 2/1/0 and its PDN files write "2-0"
# (PDN 3.0 result tokens); English, Italian, Russian, Turkish ... write "1-0". The first number is
# the first mover's: Black in 21 (English), 23 (American pool) and 31 (Thai), whose PDN 3.0 tags
# start "21,B", "23,B", "31,B"; the PDN 2.0 text for English (kept in the standard's repository,
# doc/pdn2.txt): '[Result "1-0"] indicating Black (Red) won the game'.
RESULT_TABLE = [
    (20, WHITE, "2-0"),
    (20, BLACK, "0-2"),
    (20, None, "1-1"),
    (27, WHITE, "2-0"),
    (27, None, "1-1"),
    (40, WHITE, "1-0"),  # Frisian: PDN 3.0 "Default" result type
    (21, WHITE, "0-1"),
    (21, BLACK, "1-0"),
    (21, None, "1/2-1/2"),
    (22, None, "1/2-1/2"),
    (23, BLACK, "1-0"),
    ("23,W,8,8,A0,0", BLACK, "0-1"),  # unified pool: White first
    (28, WHITE, "1-0"),
    (29, BLACK, "0-1"),
    (31, BLACK, "1-0"),
    (24, WHITE, "1-0"),
    (25, BLACK, "0-1"),
    (25, None, "1/2-1/2"),
    (26, WHITE, "1-0"),
    (30, None, "1/2-1/2"),
    (None, WHITE, "1-0"),
]


@pytest.mark.parametrize(("gametype", "winner", "token"), RESULT_TABLE)
def test_result_token_per_gametype(gametype: int | str | None, winner: Color | None,
                                   token: str) -> None:
    outcome = Outcome(Termination.NO_MOVES if winner is not None else Termination.REPETITION,
                      winner, gametype=gametype)
    assert outcome.result() == token
    # The same outcome asked for another style.
    assert Outcome(Termination.RESIGNATION, winner).result(gametype) == token
    # And read back under the same GameType.
    again = Outcome.from_result(token, gametype=gametype)
    assert again is not None and again.winner == winner


def test_result_style_accepts_the_full_gametype_tag() -> None:
    assert result_style("20,W,10,10,N2,0") == ("2-0", "1-1", "0-2")
    assert result_style("21,B,8,8,N1,0") == ("1-0", "1/2-1/2", "0-1")
    assert result_style(" 27 ") == ("2-0", "1-1", "0-2")


@pytest.mark.parametrize("bad", ["", "W,20", "twenty", ",20"])
def test_result_style_rejects_garbage(bad: str) -> None:
    with pytest.raises(ValueError, match="GameType"):
        result_style(bad)


def test_explicit_gametype_overrides_the_stored_one() -> None:
    outcome = Outcome(Termination.NO_MOVES, WHITE, gametype=21)
    assert outcome.result() == "0-1"  # White is English's second mover
    assert outcome.result(20) == "2-0"


@pytest.mark.parametrize(
    ("token", "winner"),
    [("2-0", WHITE), ("1-0", WHITE), ("0-2", BLACK), ("0-1", BLACK), ("1-1", None),
     ("1/2-1/2", None)],
)
def test_from_result(token: str, winner: Color | None) -> None:
    outcome = Outcome.from_result(f" {token} ")
    assert outcome is not None
    assert outcome.winner == winner
    assert outcome.termination is Termination.UNKNOWN
    assert outcome.is_draw is (winner is None)


def test_from_result_keeps_the_style_of_a_two_point_result() -> None:
    outcome = Outcome.from_result("0-2", Termination.RESIGNATION)
    assert outcome is not None
    assert outcome.result() == "0-2"
    assert outcome.termination is Termination.RESIGNATION


@pytest.mark.parametrize("token", ["*", "0-0"])
def test_from_result_without_a_winner_or_draw(token: str) -> None:
    assert token in RESULTS
    assert Outcome.from_result(token) is None


@pytest.mark.parametrize("bad", ["", "1:0", "3-0", "draw", "1/2"])
def test_from_result_rejects_garbage(bad: str) -> None:
    with pytest.raises(ValueError, match="not a PDN result"):
        Outcome.from_result(bad)


def test_winner_is_a_colour_and_validated() -> None:
    outcome = Outcome(Termination.NO_MOVES, 1)  # type: ignore[arg-type]
    assert outcome.winner is Color.BLACK
    with pytest.raises(ValueError, match="winner"):
        Outcome(Termination.NO_MOVES, 2)  # type: ignore[arg-type]


def test_equality_ignores_the_result_style_and_outcome_is_frozen() -> None:
    a = Outcome(Termination.DRAW_RULE, None, "fmjd-25-moves", gametype=20)
    b = Outcome(Termination.DRAW_RULE, None, "fmjd-25-moves")
    assert a == b
    assert hash(a) == hash(b)
    assert a != Outcome(Termination.DRAW_RULE, None, "fmjd-16-moves")
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.rule = "other"  # type: ignore[misc]


def test_engine_exports_the_outcome_types() -> None:
    assert engine.Outcome is Outcome
    assert engine.Termination is Termination
    names = {t.name for t in Termination}
    assert {"NO_MOVES", "REPETITION", "DRAW_RULE", "RESIGNATION", "DRAW_AGREED"} <= names
