"""A game between two boards kept by both: a reader of one Redis shows the White board's copy,
and the other copy whenever that one is not there or does not name it back."""

from __future__ import annotations

from firmware_host.store.copies import left_out, one_copy
from firmware_host.terms.commands import BOARD_TAGS, GAME_ID_TAGS


def tags(white_id: str = "gw", black_id: str = "gb") -> dict[str, str]:
    return {BOARD_TAGS["white"]: "a", BOARD_TAGS["black"]: "b",
            GAME_ID_TAGS["white"]: white_id, GAME_ID_TAGS["black"]: black_id}


def test_the_black_boards_copy_is_left_out_beside_the_white_boards() -> None:
    assert left_out([("a", "gw", tags()), ("b", "gb", tags())]) == {("b", "gb")}


def test_a_copy_alone_is_shown_whichever_board_keeps_it() -> None:
    assert left_out([("b", "gb", tags())]) == set()
    assert left_out([("a", "gw", tags())]) == set()


def test_a_copy_the_white_copy_does_not_name_back_is_shown() -> None:
    """A tag written on the wrong game of the Black board hides nothing: the White board's
    copy names its own twin, and only that one is left out."""
    games = [("a", "gw", tags()), ("b", "gb", tags()), ("b", "other", tags())]
    assert left_out(games) == {("b", "gb")}
    assert left_out([("a", "gw", tags(black_id="gx")), ("b", "gb", tags())]) == set()


def test_games_without_both_ids_are_all_shown() -> None:
    half = {BOARD_TAGS["white"]: "a", BOARD_TAGS["black"]: "b"}
    assert left_out([("a", "g1", half), ("b", "g2", half), ("c", "g3", {})]) == set()


def test_one_copy_keeps_the_order_and_the_placeholders() -> None:
    games = ["white", None, "black", "c"]
    what = {"white": ("a", "gw", tags()), "black": ("b", "gb", tags()), "c": ("c", "g", {})}
    assert one_copy(games, lambda g: None if g is None else what[g]) == ["white", None, "c"]
