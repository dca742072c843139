"""A board wired exactly as docs/hardware.md says plays a game: shift-register chain and GPIO
matrix, every board size.

The wiring is read from the "Wiring order" tables of docs/hardware.md (square names per matrix
row and column, chain inputs per chip and pin), so the docs and the standard cell map cannot
disagree. The chain is the 74HC165 model of test_shift_register, the matrix the switch model
of test_gpio_matrix, both on gpiozero's MockFactory.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from board_io.clock import VirtualClock
from board_io.events import OccupancyChanged
from board_io.geometry import Layout
from board_io.registry import BackendContext, create_scanner, create_sensors
from board_io.scanner import Scanner
from engine import Board
from firmware_host.recognition.layout import layout_for
from tests.board_io.sensors.test_gpio_matrix import SwitchMatrix
from tests.board_io.sensors.test_shift_register import ClockPin, Hc165Chain, LoadPin

DOCS = Path(__file__).resolve().parents[2] / "docs" / "hardware.md"
FILES = "abcdefghijkl"
TABLE_OF = {"russian": "8x8", "english": "8x8", "international": "10x10", "canadian": "12x12",
            "turkish": "Turkish"}
# BCM pins for the matrix lines (docs/hardware.md suggests the first 10 + 5; more for 12x12)
ROW_PINS = [5, 6, 13, 19, 26, 12, 16, 20, 21, 23, 2, 3]
COL_PINS = [4, 17, 27, 22, 24, 25, 18, 7]


def docs_tables() -> dict[str, list[tuple[int, list[str], list[int]]]]:
    """Per table name: (matrix row, square names by column, chain inputs) for each rank."""
    text = DOCS.read_text()
    section = text.split("## Wiring order", 1)[1].split("\n## ", 1)[0]
    tables: dict[str, list[tuple[int, list[str], list[int]]]] = {}
    for block in section.split("\n**")[1:]:
        name = block.split("**", 1)[0]
        rows = []
        for line in block.splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) < 3 or not cells[0].isdigit():
                continue
            rows.append((int(cells[0]), cells[1:-1], _inputs(cells[-1])))
        tables[name] = rows
    return tables


def _inputs(text: str) -> list[int]:
    """``"5-9: chip 0 D5-D7, chip 1 D0-D1"`` -> [5, 6, 7, 8, 9], checked both ways."""
    span, pins = text.split(":")
    first, last = map(int, span.split("-"))
    inputs = []
    for chip, a, b in re.findall(r"chip (\d+) D(\d)(?:-D(\d))?", pins):
        inputs += [8 * int(chip) + d for d in range(int(a), int(b or a) + 1)]
    assert inputs == list(range(first, last + 1)), text
    return inputs


def documented_wiring(variant: str) -> tuple[Layout, dict[int, tuple[int, int]], dict[int, int]]:
    """Per square: its (matrix row, column) and its chain input, as the docs table says."""
    layout = layout_for(variant)
    at = {coords: sq for sq, coords in enumerate(layout.coords)}
    cells: dict[int, tuple[int, int]] = {}
    inputs: dict[int, int] = {}
    for row, names, chain in docs_tables()[TABLE_OF[variant]]:
        assert len(names) == len(chain)
        for col, (name, number) in enumerate(zip(names, chain, strict=True)):
            square = at[(int(name[1:]) - 1, FILES.index(name[0]))]
            cells[square] = (row, col)
            inputs[square] = number
    assert len(cells) == layout.num_squares == len(set(inputs.values()))
    return layout, cells, inputs


def a_game(variant: str, opening: tuple[str, ...] = (), plies: int = 40) -> Iterator[Board]:
    """The positions of a game: the opening, then seeded random legal moves."""
    board = Board(variant)
    rng = random.Random(13)
    yield board
    for ply in range(plies):
        if board.is_game_over():
            return
        if ply < len(opening):
            move = board.parse_move(opening[ply])
        else:
            move = rng.choice(sorted(board.legal_moves, key=lambda m: m.key()[:2]))
        board.push(move)
        yield board


def _follow(scanner: Scanner, positions: Iterator[Board], close: object) -> int:
    plies = 0
    for t, board in enumerate(positions):
        close(board.occupied_squares())  # type: ignore[operator]
        changes = [e for e in scanner.poll(float(t)) if isinstance(e, OccupancyChanged)]
        assert scanner.occupied == board.occupied_squares(), board.fen()
        assert t == 0 or changes, board.fen()
        plies = t
    return plies


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory()
    yield factory
    factory.reset()


def test_the_docs_tables_follow_one_rule() -> None:
    # rank by rank from White's side, each from White's left; chain input = row * n + column
    for variant in TABLE_OF:
        layout, cells, inputs = documented_wiring(variant)
        n = max(col for _, col in cells.values()) + 1
        for sq, (row, col) in cells.items():
            assert layout.coords[sq][0] == row
            assert inputs[sq] == row * n + col
        lefts = sorted(cells, key=lambda s: layout.coords[s])
        assert [cells[s] for s in lefts] == sorted(cells.values())


@pytest.mark.parametrize(("variant", "opening"), [
    ("russian", ("c3-d4", "f6-g5", "g3-h4")),  # the issue: g3-h4 read as h6-g5 before
    ("english", ()),
    ("international", ()),
    ("canadian", ()),
    ("turkish", ()),
])
def test_a_chain_wired_as_documented_plays_a_game(
    factory: MockFactory, monkeypatch: pytest.MonkeyPatch, variant: str,
    opening: tuple[str, ...],
) -> None:
    layout, _, inputs = documented_wiring(variant)
    monkeypatch.setattr(Device, "pin_factory", factory)
    chain = Hc165Chain(-(-layout.num_squares // 8))
    load = factory.pin(5, pin_class=LoadPin)
    clock = factory.pin(6, pin_class=ClockPin)
    load.chain = clock.chain = chain
    chain.data_pin = factory.pin(13)
    config = {"board.sensors": "shift-register", "shift_register.use_spi": False,
              "shift_register.load_pin": 5, "shift_register.clock_pin": 6,
              "shift_register.data_pin": 13, "timing.debounce_ms": 0}
    with BackendContext(layout, VirtualClock()) as context:
        sensors = create_sensors(config, context)
        scanner = create_scanner(config, layout, sensors)

        def close(occupied: frozenset[int]) -> None:
            chain.set_closed(*(inputs[sq] for sq in occupied))

        assert _follow(scanner, a_game(variant, opening), close) >= len(opening)
        sensors.close()


@pytest.mark.parametrize(("variant", "opening"), [
    ("russian", ("c3-d4", "f6-g5", "g3-h4")),
    ("international", ()),
    ("canadian", ()),
])
def test_a_matrix_wired_as_documented_plays_a_game(
    factory: MockFactory, monkeypatch: pytest.MonkeyPatch, variant: str,
    opening: tuple[str, ...],
) -> None:
    layout, cells, _ = documented_wiring(variant)
    rows = ROW_PINS[:layout.rows]
    cols = COL_PINS[:max(col for _, col in cells.values()) + 1]
    monkeypatch.setattr(Device, "pin_factory", factory)
    wiring = SwitchMatrix(factory, rows, cols)
    config = {"board.sensors": "gpio-matrix", "gpio_matrix.row_pins": rows,
              "gpio_matrix.column_pins": cols, "gpio_matrix.settle_us": 0,
              "timing.debounce_ms": 0}
    with BackendContext(layout, VirtualClock()) as context:
        sensors = create_sensors(config, context)
        scanner = create_scanner(config, layout, sensors)

        def close(occupied: frozenset[int]) -> None:
            wiring.close_switches(*(cells[sq] for sq in occupied))

        assert _follow(scanner, a_game(variant, opening), close) >= len(opening)
        sensors.close()
