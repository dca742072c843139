"""The LED language and the message table: data, priorities, rendering."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import pytest

from board_io.types import Pattern
from firmware_host.feedback import leds
from firmware_host.feedback.roles import Role, by_rank
from firmware_host.feedback.texts import TEMPLATES, render


def test_every_role_has_a_priority() -> None:
    assert len({role.rank for role in Role}) == len(Role)  # no two roles tie on a square
    for low, high in itertools.pairwise(by_rank()):  # the lower rank shows on a square
        assert leds.build([(high, [0]), (low, [0])])[0] is low
        assert leds.build([(low, [0]), (high, [0])])[0] is low


@pytest.mark.parametrize(("role", "pattern"), [
    (Role.FROM, Pattern.ON), (Role.REMOVE, Pattern.SLOW), (Role.MISSING, Pattern.FAST),
    (Role.EXTRA, Pattern.FAST), (Role.MUST, Pattern.SLOW), (Role.CROWN, Pattern.FAST),
])
def test_patterns_follow_the_design(role: Role, pattern: Pattern) -> None:
    assert role.pattern is pattern and role.led.pattern is pattern


def test_correction_wins_over_advice_on_a_square() -> None:
    frame = leds.build([(Role.HINT, [4, 5]), (Role.EXTRA, [5]), (Role.ADJUST, [4])])
    assert frame[5] is Role.EXTRA
    assert frame[4] is Role.HINT


def test_move_guidance_tracks_what_is_left() -> None:
    move = SimpleNamespace(origin=26, destination=10, path=(19, 10), captures=(23, 15))
    start = frozenset({26, 23, 15})
    layers = dict(leds.move_to_carry_out(move, start))
    assert (set(layers[Role.FROM]), set(layers[Role.TO]), set(layers[Role.PATH])) == (
        {26}, {10}, {19})
    assert set(layers[Role.REMOVE]) == {23, 15}
    landed = dict(leds.move_to_carry_out(move, frozenset({10, 15})))
    assert set(landed) == {Role.REMOVE} and set(landed[Role.REMOVE]) == {15}


def test_circular_capture_guidance_ends_when_the_captures_are_gone() -> None:
    move = SimpleNamespace(origin=5, destination=5, path=(12, 19, 5), captures=(8, 16, 9))
    assert dict(leds.move_to_carry_out(move, frozenset({5, 9})))[Role.REMOVE] == [9]
    assert dict(leds.move_to_carry_out(move, frozenset({5}))) == {Role.REMOVE: []}


def test_frames_as_plain_data() -> None:
    frame = leds.build(leds.correction([0], [1]))
    assert leds.to_data(frame, lambda sq: f"s{sq}") == {
        "s0": ["fast", "missing"], "s1": ["fast", "extra"]}


@pytest.mark.parametrize(("event", "text"), [
    ({"event": "refused", "reason": "capture_compulsory", "capture": "22x13"},
     "a capture is compulsory: 22x13"),
    ({"event": "refused", "reason": "max_capture", "count": 3},
     "you must take the maximum: 3 pieces"),
    ({"event": "refused", "reason": "touch_move", "square": "32"},
     "touch-move: you touched 32, you must move it"),
    ({"event": "move", "ply": 3, "pdn": "32-28"}, "2. 32-28"),
    ({"event": "move", "ply": 4, "pdn": "19-23"}, "2... 19-23"),
    ({"event": "correction", "missing": [22], "extra": []},
     "put back on: 22; take away: nothing"),
    ({"event": "result", "result": "2-0", "termination": "no_moves"},
     "game over: 2-0 (no moves left)"),
    ({"event": "adjust", "state": True}, "adjust window open"),
])
def test_messages(event: dict[str, object], text: str) -> None:
    assert render(event) == text


def test_silent_events_and_missing_fields() -> None:
    assert render({"event": "leds", "frame": {}}) is None
    assert render({"event": "refused", "reason": "touch_move"}) == (
        "that move is not legal here")
    # A rule said without its move (a rated game's refusal): the reason's bare sentence.
    assert render({"event": "refused", "reason": "capture_compulsory"}) == (
        "illegal move: a capture is compulsory")
    assert render({"event": "brand_new"}) == "brand_new"
    assert all(isinstance(t, str) for t in TEMPLATES.values())


def test_computer_move_wins_over_a_crown_reminder_on_its_square() -> None:
    # The human has just crowned on 3; the computer's reply captures that king at once: the
    # player must see "remove" on 3, not the crown reminder.
    frame = leds.build([*leds.crown([3]), (Role.FROM, [9]), (Role.REMOVE, [3])])
    assert frame[3] is Role.REMOVE
    assert frame[9] is Role.FROM


def test_every_refusal_reason_has_its_own_sentence() -> None:
    from firmware_host.recognition.resolution import RefusalReason

    missing = [r.value for r in RefusalReason if f"refused.{r.value}" not in TEMPLATES]
    assert missing == []
