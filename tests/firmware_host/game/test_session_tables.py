"""The state machine's tables are complete: every event type, state, timer and command has its
one handler, and every state its LED layers (handlers are found by type, never by name)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import get_args

import pytest

from board_io.events import (
    ButtonPressed,
    FaultKind,
    LinkLost,
    LinkRestored,
    OccupancyChanged,
    SensorFault,
    SensorRecovered,
)
from engine import Board
from firmware_host.game.session import Session
from firmware_host.game.types import (
    Reevaluate,
    SessionConfig,
    SessionEvent,
    State,
    TimerFired,
    TimerName,
)
from firmware_host.game.view import LAYERS
from firmware_host.store import open_store
from firmware_host.terms.buttons import BUTTONS, command_of, names
from firmware_host.terms.commands import Command, CommandName
from firmware_host.terms.jobs import EngineResult, Purpose
from firmware_host.terms.settings import Mode

#: One instance of every event type the session handles.
EXAMPLES: dict[type, Callable[[float], SessionEvent]] = {
    OccupancyChanged: lambda at: OccupancyChanged(Board("english").occupied_squares(), None, at),
    ButtonPressed: lambda at: ButtonPressed("hint", at),
    Command: lambda at: Command("hint", at),
    EngineResult: lambda at: EngineResult(99, Purpose.HINT, None, at),
    TimerFired: lambda at: TimerFired(TimerName.SETTLE, 99, at),
    Reevaluate: lambda at: Reevaluate(at),
    SensorFault: lambda at: SensorFault((0, 0), FaultKind.FLAPPING, at, 0),
    SensorRecovered: lambda at: SensorRecovered((0, 0), at, 0),
    LinkLost: lambda at: LinkLost(at),
    LinkRestored: lambda at: LinkRestored(at),
}


def _session() -> Session:
    session = Session("english", open_store("memory", "tables"), SessionConfig(mode=Mode.RECORD))
    session.start(Board("english").occupied_squares(), at=0.0)
    return session


def test_the_examples_cover_every_event_type() -> None:
    assert set(EXAMPLES) == set(get_args(SessionEvent))


@pytest.mark.parametrize("kind", list(EXAMPLES), ids=lambda k: k.__name__)
def test_every_event_type_has_a_handler(kind: type, caplog: pytest.LogCaptureFixture) -> None:
    session = _session()
    with caplog.at_level(logging.WARNING, logger="firmware_host.game.session"):
        session.handle(EXAMPLES[kind](1.0))
    assert not [r for r in caplog.records if "ignoring unknown event" in r.getMessage()]


def test_a_foreign_object_is_the_only_thing_ignored(caplog: pytest.LogCaptureFixture) -> None:
    session = _session()
    with caplog.at_level(logging.WARNING, logger="firmware_host.game.session"):
        session.handle(object())  # type: ignore[arg-type]
    assert any("ignoring unknown event" in r.getMessage() for r in caplog.records)


def test_every_state_is_judged_and_drawn() -> None:
    session = _session()
    assert set(session._judge.by_state) == set(State)
    assert set(LAYERS) == set(State)


def test_every_timer_and_command_has_a_handler() -> None:
    session = _session()
    assert set(session._timer_handlers) == set(TimerName)
    assert set(session._commands.by_name) == set(CommandName)


def test_every_button_is_a_command() -> None:
    assert {button.command for button in BUTTONS} <= set(CommandName)
    sided = {button.name for button in BUTTONS if button.side is not None}
    assert sided == {"draw_white", "draw_black", "resign_white", "resign_black"}
    assert all(command_of(name) == (button.command, button.side)
               for name, button in zip(names(), BUTTONS, strict=True))
