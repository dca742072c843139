"""Sensor faults in the running service are named as such, never blamed on the player.

Issue 13: a stuck-closed d4 used to keep the game from ever starting, with d4 blinking "extra"
(nothing at all with ``leds = "none"``). Now, once the sensors' patience runs out, a
``sensor_fault`` names d4 and the likely cause, the square lights with the ``fault`` role, the
game starts and every move is recorded as played.
"""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

from board_io.clock import VirtualClock
from board_io.sim import ScriptPlayer, parse_script
from engine import Board
from firmware_host.app.notify import Notifier
from firmware_host.app.service import Wiring, build_service
from firmware_host.config import Config
from firmware_host.feedback.roles import Role
from firmware_host.game.controller import run_script
from firmware_host.game.types import EventData
from firmware_host.recognition.layout import layout_for


def test_a_stuck_closed_square_is_a_sensor_fault_and_the_game_goes_on(tmp_path: Path) -> None:
    layout = layout_for("russian")
    d4 = layout.parse("d4")
    row, col = layout.coords[d4]
    config = Config.from_mapping({
        "game": {"variant": "russian", "mode": "record"},
        "store": {"url": "memory", "games_dir": str(tmp_path)},
        "sim": {"stuck_occupied": [row * layout.cols + col]},
    })
    events: list[EventData] = []
    script = parse_script("12000 lift c3\n12200 place b4\n13000 lift f6\n13200 place g5\n",
                          layout, initial=Board("russian").occupied_squares())
    clock = VirtualClock()
    with ExitStack() as stack:
        service = build_service(config, stack, Wiring(
            clock=clock, notifier=Notifier({}), listeners=[events.append], virtual_time=True))
        assert service.sim is not None
        run_script(service.controller, ScriptPlayer(service.sim, script).ticks(),
                   period=service.scan_period)
        faults = [e for e in events if e["event"] == "sensor_fault"]
        assert [(e["square"], e["cause"]) for e in faults] == [("d4", "stuck_closed")]
        assert "d4" in str(faults[0]["text"])
        assert [e["pdn"] for e in events if e["event"] == "move"] == ["c3-b4", "f6-g5"]
        assert not [e for e in events if e["event"] in ("refused", "correction")
                    and "d4" in (e.get("missing", []) or []) + (e.get("extra", []) or [])]
        assert service.session.frame[d4] is Role.FAULT


def _ghost_of(layout_cells: tuple[tuple[int, int], ...], occupied: frozenset[int],
              placed: int) -> int | None:
    """An empty square that a diode-less matrix reads closed once ``placed`` closes: the
    fourth corner of a rectangle whose three other corners are closed."""
    at = {cell: sq for sq, cell in enumerate(layout_cells)}
    row, col = layout_cells[placed]
    for (r, c), sq in sorted(at.items()):
        if sq in occupied or r == row or c == col:
            continue
        if at.get((row, c)) in occupied and at.get((r, col)) in occupied:
            return sq
    return None


def test_a_ghost_on_a_matrix_without_diodes_is_named_and_never_played() -> None:
    # Issue 13: on a reed matrix without diodes, the first move used to give "a piece appeared
    # on b4, d4, f4, h4". Now the ghost is a sensor_fault (missing diode), and while it stands
    # no move is committed and no correction asks for pieces that are not there.
    from board_io.events import OccupancyChanged
    from board_io.geometry import CellMap
    from firmware_host.game.session import Session
    from firmware_host.game.types import SessionConfig
    from firmware_host.recognition.health import HealthTracker
    from firmware_host.recognition.health import Wiring as SensorLayout
    from firmware_host.store import open_store
    from firmware_host.terms.settings import Mode

    layout = layout_for("russian")
    cells = CellMap.identity(layout)
    wiring = SensorLayout.from_cell_map(cells)
    # The first position of a short game where a quiet move closes a rectangle's third corner.
    board = Board("russian")
    found = None
    while found is None:
        found = next(((m, g) for m in sorted(board.legal_moves, key=board.move_notation)
                      if not m.is_capture
                      and (g := _ghost_of(wiring.cells, board.occupied_squares()
                                          - {m.origin} | {m.destination}, m.destination))
                      is not None), None)
        if found is None:
            board.push(min(board.legal_moves, key=board.move_notation))
    move, ghost = found
    start = board.occupied_squares()
    tracker = HealthTracker(wiring, expected=start, at=0.0)
    session = Session("russian", open_store("memory", "ghosts"), SessionConfig(mode=Mode.RECORD),
                      health=tracker, fen=board.fen())
    events: list[EventData] = []
    session.subscribe(events.append)
    session.start(start, at=0.0)
    lifted = start - {move.origin}
    session.handle(OccupancyChanged(lifted, None, 1.0))
    session.handle(OccupancyChanged(lifted | {move.destination, ghost}, None, 1.2))
    for at in (1.5, 2.0, 4.0, 8.0):  # whatever the timers do meanwhile
        for timer in session.due_timers(at):
            session.handle(timer)
    faults = [e for e in events if e["event"] == "sensor_fault"]
    assert {e["cause"] for e in faults} == {"missing_diode"}
    assert layout.name(ghost) in {e["square"] for e in faults}
    assert not [e for e in events if e["event"] in ("move", "refused", "correction")]
    assert session.frame[ghost] is Role.FAULT
    # The ghost goes with the piece that made it: lift the piece, put it down again.
    session.handle(OccupancyChanged(lifted, None, 9.0))
    session.handle(OccupancyChanged(lifted | {move.destination}, None, 9.5))
    for timer in session.due_timers(10.5):
        session.handle(timer)
    assert [e["pdn"] for e in events if e["event"] == "move"] == [board.move_notation(move)]


def test_the_microcontrollers_diode_check_reaches_the_sensor_watch(tmp_path: Path) -> None:
    # A serial board's firmware reports a cell whose diode conducts backwards (ERROR 4): the
    # service passes it on, and the session names the square.
    layout = layout_for("english")
    config = Config.from_mapping({"game": {"variant": "english", "mode": "record"},
                                  "store": {"url": "memory", "games_dir": str(tmp_path)}})
    events: list[EventData] = []
    with ExitStack() as stack:
        service = build_service(config, stack, Wiring(
            clock=VirtualClock(), notifier=Notifier({}), listeners=[events.append],
            virtual_time=True))
        square = layout.parse("15")
        row, col = service.scanner.cell_map.cell(square)

        class Reporting:
            reported_faults = frozenset({row * service.scanner.cell_map.sensor_cols + col})

        service.scanner.sensors = Reporting()  # type: ignore[assignment]
        service.upkeep()
        assert service.session.sensors is not None
        service.session.sensors.check(at=1.0)
    assert [(e["square"], e["cause"]) for e in events if e["event"] == "sensor_fault"] == [
        (15, "diode_check")]
