"""Backends by name from config; lazy imports; unknown names; missing libraries."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from board_io import registry
from board_io.buttons.base import NoButtons
from board_io.clock import VirtualClock
from board_io.errors import BoardIOError, ConfigError, MissingExtraError
from board_io.geometry import CellMap, dark_squares
from board_io.leds.base import NoLeds
from board_io.registry import (
    BackendContext,
    create_buttons,
    create_leds,
    create_scanner,
    create_sensors,
)
from board_io.sim import LedRecorder, SimulatedBoard
from board_io.sim.backends import sim_board
from board_io.types import Reading

LAYOUT = dark_squares(10)
INITIAL = frozenset(range(20))


def context() -> BackendContext:
    return BackendContext(LAYOUT, VirtualClock(), initial=INITIAL, buttons=("hint", "adjust"))


def test_sim_backends_share_one_board() -> None:
    config = {"board.sensors": "sim", "board.leds": "sim", "board.buttons": "sim",
              "board.rgb": True}
    with context() as ctx:
        sensors = create_sensors(config, ctx)
        leds = create_leds(config, ctx)
        buttons = create_buttons(config, ctx)
        board = sim_board(config, ctx)
        assert isinstance(board, SimulatedBoard) and board.occupied == INITIAL
        assert sensors is board.sensor_matrix and buttons is board.buttons
        assert isinstance(leds, LedRecorder) and leds.rgb and leds.brightness == 0.5
        board.press("hint")
        assert [e.button for e in buttons.drain()] == ["hint"]


def test_defaults_are_sim() -> None:
    with context() as ctx:
        assert (create_sensors({}, ctx).rows, create_sensors({}, ctx).cols) == (10, 10)


def test_none_backends() -> None:
    with context() as ctx:
        assert isinstance(create_leds({"board.leds": "none"}, ctx), NoLeds)
        buttons = create_buttons({"board.buttons": "none"}, ctx)
        assert isinstance(buttons, NoButtons) and buttons.available == frozenset()


@pytest.mark.parametrize(("create", "key"), [
    (create_sensors, "board.sensors"), (create_leds, "board.leds"),
    (create_buttons, "board.buttons")])
def test_unknown_name_lists_the_known_ones(create: Any, key: str) -> None:
    with context() as ctx, pytest.raises(ConfigError, match=r"is not one of: sim, ") as info:
        create({key: "telepathy"}, ctx)
    assert info.value.key == key and "'telepathy'" in str(info.value)


def test_backend_names_are_the_table_rows() -> None:
    for option, table in ((registry.SENSOR_BACKEND, registry.SENSOR_BACKENDS),
                          (registry.LED_BACKEND, registry.LED_BACKENDS),
                          (registry.BUTTON_BACKEND, registry.BUTTON_BACKENDS)):
        assert option.choices == tuple(table)


def test_name_must_be_a_string() -> None:
    with context() as ctx, pytest.raises(ConfigError, match=r"board\.sensors must be a string"):
        create_sensors({"board.sensors": 3}, ctx)


def test_sim_options_and_their_errors() -> None:
    config = {"sim.wiring": "chain", "sim.stuck_occupied": [3], "sim.dead_rows": [0],
              "sim.bounce_ms": 5, "sim.seed": 9}
    with context() as ctx:
        sensors = create_sensors(config, ctx)
        assert (sensors.rows, sensors.cols) == (1, 50)
        assert sensors.read() == (Reading.EMPTY,) * 50  # the only row is dead
    for bad, key in (({"sim.wiring": "spiral"}, "sim.wiring"),
                     ({"sim.glitch_rate": 2}, "sim.glitch_rate"),
                     ({"sim.dead_rows": [10]}, "sim.dead_rows[0]"),
                     ({"sim.stuck_occupied": [1], "sim.stuck_empty": [1]}, "sim.stuck_empty"),
                     ({"sim.stuck_empty": "1"}, "sim.stuck_empty")):
        with context() as ctx, pytest.raises(ConfigError) as info:
            create_sensors(bad, ctx)
        assert info.value.key == key


_NAME_OPTIONS = {"SENSOR_BACKENDS": "SENSOR_BACKEND", "LED_BACKENDS": "LED_BACKEND",
                 "BUTTON_BACKENDS": "BUTTON_BACKEND"}


def _with_row(monkeypatch: pytest.MonkeyPatch, table: str, name: str, target: str) -> None:
    rows = dict(getattr(registry, table))
    rows[name] = target
    monkeypatch.setattr(registry, table, rows)
    option = getattr(registry, _NAME_OPTIONS[table])
    monkeypatch.setattr(registry, _NAME_OPTIONS[table],
                        dataclasses.replace(option, choices=tuple(rows)))


def test_missing_third_party_library_names_the_extra(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Any) -> None:
    module = tmp_path / "fancy_backend_mod.py"
    module.write_text("import no_such_pi_library_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    _with_row(monkeypatch, "LED_BACKENDS", "fancy", "fancy_backend_mod:Fancy")
    with context() as ctx, pytest.raises(MissingExtraError) as info:
        create_leds({"board.leds": "fancy"}, ctx)
    assert "no_such_pi_library_xyz" in str(info.value)
    assert "pip install 'draughtsboard[pi]'" in str(info.value)


def test_missing_backend_module_of_ours(monkeypatch: pytest.MonkeyPatch) -> None:
    _with_row(monkeypatch, "SENSOR_BACKENDS", "ghost", "board_io.sensors.ghost:Ghost")
    with context() as ctx, pytest.raises(BoardIOError, match="'ghost' is not available"):
        create_sensors({"board.sensors": "ghost"}, ctx)


def test_backend_class_with_from_config(monkeypatch: pytest.MonkeyPatch) -> None:
    _with_row(monkeypatch, "LED_BACKENDS", "plain", "tests.board_io.test_registry:PlainLeds")
    with context() as ctx:
        leds = create_leds({"board.leds": "plain", "leds.brightness": 0.25}, ctx)
    assert isinstance(leds, PlainLeds) and leds.brightness == 0.25


def test_backend_of_the_wrong_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    _with_row(monkeypatch, "SENSOR_BACKENDS", "leds", "tests.board_io.test_registry:PlainLeds")
    with context() as ctx, pytest.raises(TypeError, match="not a SensorMatrix"):
        create_sensors({"board.sensors": "leds", "leds.brightness": 1.0}, ctx)


class PlainLeds(NoLeds):
    """A backend class built through ``from_config``."""

    @classmethod
    def from_config(cls, config: Any, context: BackendContext) -> PlainLeds:
        return cls(context.layout.num_squares, clock=context.clock,
                   brightness=config["leds.brightness"])


def test_context_closes_shared_resources_once() -> None:
    closed: list[str] = []

    class Resource:
        def __init__(self, name: str) -> None:
            self.name = name

        def close(self) -> None:
            closed.append(self.name)

    ctx = context()
    first = ctx.shared_resource("a", lambda: Resource("a"))
    assert ctx.shared_resource("a", lambda: Resource("other")) is first
    ctx.shared_resource("b", lambda: Resource("b"))
    ctx.shared_resource("plain", lambda: 42)
    ctx.close()
    ctx.close()
    assert closed == ["b", "a"]


def test_create_scanner_reads_timing_and_map() -> None:
    with context() as ctx:
        sensors = create_sensors({}, ctx)
        scanner = create_scanner({"timing.debounce_ms": 40, "board.transform": "rotate180"},
                                 LAYOUT, sensors)
        assert scanner.debouncer.debounce == pytest.approx(0.04)
        assert scanner.debouncer.stuck == pytest.approx(3.0)
        assert scanner.cell_map == CellMap.identity(LAYOUT).sensor_rotated180()
        for bad in (0, 50, 3_600_000):  # the service's range, 100..600000, holds here too
            with pytest.raises(ConfigError) as info:
                create_scanner({"timing.stuck_ms": bad}, LAYOUT, sensors)
            assert info.value.key == "timing.stuck_ms"


@pytest.mark.parametrize("table", ["SENSOR_BACKENDS", "LED_BACKENDS", "BUTTON_BACKENDS"])
def test_every_registered_row_resolves_without_hardware_libraries(table: str) -> None:
    """Every row names a module that imports on any machine and a factory or from_config."""
    import importlib
    for name, target in getattr(registry, table).items():
        module_name, _, attribute = target.partition(":")
        built = getattr(importlib.import_module(module_name), attribute, None)
        assert built is not None, f"{name}: {target} does not exist"
        assert callable(getattr(built, "from_config", built)), name
