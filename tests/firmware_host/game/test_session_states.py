"""Every state of the session is reachable, and the state machine's edges behave."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.types import Color
from firmware_host.game.types import State
from firmware_host.terms.settings import Mode
from tests.firmware_host.session_harness import Rig


def _syncing() -> Rig:
    return Rig("english", occupied=set())


def _human_to_move() -> Rig:
    return Rig("english")


def _move_in_progress() -> Rig:
    rig = Rig("english")
    rig.lift("11")
    return rig


def _adjusting() -> Rig:
    rig = Rig("english")
    rig.press("adjust")
    return rig


def _engine_thinking() -> Rig:
    rig = Rig("english", mode=Mode.PLAY, human_side=Color.BLACK, manual=True)
    rig.play("11-15")
    return rig


def _computer_move_pending() -> Rig:
    rig = Rig("english", mode=Mode.PLAY, human_side=Color.BLACK, computer=["23-19"])
    rig.play("11-15")
    return rig


def _game_over() -> Rig:
    rig = Rig("english")
    rig.press("resign_black")
    return rig


def _paused() -> Rig:
    rig = Rig("english", time_control="3+2")
    rig.command("pause")
    return rig


def _setting_up() -> Rig:
    rig = Rig("english")
    rig.press("newgame")
    return rig


RECIPES: dict[State, Callable[[], Rig]] = {
    State.SYNCING: _syncing,
    State.HUMAN_TO_MOVE: _human_to_move,
    State.MOVE_IN_PROGRESS: _move_in_progress,
    State.ADJUSTING: _adjusting,
    State.ENGINE_THINKING: _engine_thinking,
    State.COMPUTER_MOVE_PENDING: _computer_move_pending,
    State.GAME_OVER: _game_over,
    State.SETTING_UP: _setting_up,
    State.PAUSED: _paused,
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
