"""The clock the players see: a board with a display shows both times, the side to move, a
flag fall and a pause, as the service decides them (firmware_host/feedback/clockface.py); the
pictures of the docs are those the code draws (luma's emulator)."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from board_io.clock import VirtualClock
from board_io.display.base import Half, SimDisplay
from firmware_host.app.notify import Notifier
from firmware_host.app.service import Service, Wiring, build_service
from firmware_host.config.loader import Config
from firmware_host.terms.commands import Command
from firmware_host.tools.clock_pictures import DISPLAYS, STATES, draw

DOCS = Path(__file__).resolve().parents[3] / "docs"


def test_the_pictures_in_the_docs_are_the_ones_the_code_draws(tmp_path: Path) -> None:
    drawn = draw(tmp_path)
    assert len(drawn) == len(DISPLAYS) * len(STATES)
    for path in drawn:
        shipped = DOCS / path.name
        assert shipped.exists(), "run: python -m firmware_host.tools.clock_pictures docs"
        difference = ImageChops.difference(Image.open(path).convert("RGB"),
                                           Image.open(shipped).convert("RGB"))
        assert difference.getbbox() is None, f"{path.name} differs: regenerate the pictures"


def _board(tmp_path: Path, clock: VirtualClock, **clock_options: object) -> Service:
    config = Config.from_mapping({
        "game": {"mode": "record", "variant": "international"},
        "clock": {"time_control": "5+3", "display": "sim", **clock_options},
        "store": {"url": "memory", "games_dir": str(tmp_path)}})
    stack = ExitStack()
    service = build_service(config, stack, Wiring(clock=clock, virtual_time=True,
                                                  notifier=Notifier(environ={})))
    service.start = lambda: None  # type: ignore[method-assign]
    return service


def _run(service: Service, clock: VirtualClock, seconds: float) -> None:
    end = clock.monotonic() + seconds
    while clock.monotonic() < end - 1e-9:
        clock.set(min(end, clock.monotonic() + service.scan_period))
        service.controller.step(clock.monotonic())
        service.upkeep()


def _play(service: Service, clock: VirtualClock, text: str) -> None:
    move = service.session.board.parse_move(text)
    assert service.sim is not None
    service.sim.lift(move.origin)
    for square in move.captures:
        service.sim.lift(square)
    service.sim.place(move.destination)
    _run(service, clock, 1.0)


@pytest.mark.parametrize("white", ["left", "right"])
def test_a_board_with_a_display_shows_both_times_and_whose_time_runs(tmp_path: Path,
                                                                     white: str) -> None:
    clock = VirtualClock()
    service = _board(tmp_path, clock, display_white=white)
    display = service.display.display if service.display else None
    assert isinstance(display, SimDisplay)
    _run(service, clock, 10.2)                       # White's clock runs from the start
    face = display.faces[-1]
    white_half, black_half = (Half.LEFT, Half.RIGHT) if white == "left" else (
        Half.RIGHT, Half.LEFT)
    texts = {Half.LEFT: face.left, Half.RIGHT: face.right}
    assert (texts[white_half], texts[black_half]) == ("4:49", "5:00")
    assert any(f.mark is white_half for f in display.faces[-20:])   # it blinks ...
    assert any(f.mark is None for f in display.faces[-20:])         # ... once a second
    assert not any(f.mark is black_half for f in display.faces)
    _play(service, clock, "32-28")
    assert any(f.mark is black_half for f in display.faces[-10:])
    service.controller.post(Command("hall", clock.monotonic(), value="pause"))
    _run(service, clock, 1.0)
    assert display.faces[-1].banner == "PAUSE"


def test_a_fallen_flag_says_so_on_the_side_whose_time_is_up(tmp_path: Path) -> None:
    clock = VirtualClock()
    service = _board(tmp_path, clock)
    display = service.display.display if service.display else None
    assert isinstance(display, SimDisplay)
    _play(service, clock, "32-28")
    _run(service, clock, 301.0)                      # Black never moves: 5 min
    assert service.session.outcome is not None
    face = display.faces[-1]
    # White's 5 minutes, less its move's second or so, plus the 3 s increment.
    assert face.left in ("5:02", "5:03") and (face.right, face.mark) == ("FLAG", None)
