"""Every state of the session is reachable, and the state machine's edges behave."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.types import Color
from firmware_host.game.types import State
from firmware_host.terms.settings import Mode
from tests.firmware_host.session_harness import Rig


def _recipe(step: Callable[[Rig], object] = lambda rig: None, **setup: Any
            ) -> Callable[[], Rig]:
    """A recipe of a state: an English rig set up with ``setup``, then ``step`` done on it."""
    def reach() -> Rig:
        rig = Rig("english", **setup)
        step(rig)
        return rig
    return reach


_computer_move_pending = _recipe(lambda rig: rig.play("11-15"), mode=Mode.PLAY,
                                 human_side=Color.BLACK, computer=["23-19"])

RECIPES: dict[State, Callable[[], Rig]] = {
    State.SYNCING: _recipe(occupied=set()),
    State.HUMAN_TO_MOVE: _recipe(),
    State.MOVE_IN_PROGRESS: _recipe(lambda rig: rig.lift("11")),
    State.ADJUSTING: _recipe(lambda rig: rig.press("adjust")),
    State.ENGINE_THINKING: _recipe(lambda rig: rig.play("11-15"), mode=Mode.PLAY,
                                   human_side=Color.BLACK, manual=True),
    State.COMPUTER_MOVE_PENDING: _computer_move_pending,
    State.GAME_OVER: _recipe(lambda rig: rig.press("resign_black")),
    State.SETTING_UP: _recipe(lambda rig: rig.press("newgame")),
    State.PAUSED: _recipe(lambda rig: rig.command("pause"), time_control="3+2"),
}


def test_every_state_has_a_recipe() -> None:
    assert set(RECIPES) == set(State)


@pytest.mark.parametrize("state", list(State), ids=lambda s: s.value)
def test_state_is_reachable(state: State) -> None:
    rig = RECIPES[state]()
    assert rig.session.state is state
    if state is not State.SYNCING:
        assert rig.last("state")["state"] == state.value


def test_unknown_commands_and_events_are_refused_not_fatal() -> None:
    rig = Rig("english")
    rig.command("castle")
    assert rig.last("command_refused")["command"] == "castle"
    rig.session.handle(object())  # type: ignore[arg-type]  # a foreign object, on purpose
    assert rig.state == "human_to_move"


def test_setting_up_again_returns_to_the_game() -> None:
    rig = Rig("english")
    rig.play("11-15")
    rig.press("newgame")
    rig.press("newgame")
    assert rig.state == "human_to_move"
    rig.play("22-18")
    assert rig.moves() == ["11-15", "22-18"]


def test_adjust_is_refused_on_the_computers_turn() -> None:
    rig = _computer_move_pending()
    rig.press("adjust")
    assert rig.last("command_refused")["command"] == "adjust"
    assert rig.state == "computer_move_pending"
