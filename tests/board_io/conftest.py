"""Fixtures of the board_io tests: a fake microcontroller on a pty, unplugged after each test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.board_io.fake_mcu import FakeMcu


@pytest.fixture
def port(tmp_path: Path) -> Path:
    """Where a fake microcontroller's port appears (a by-id style name)."""
    return tmp_path / "usb-draughtsboard-if00"


@pytest.fixture
def mcus() -> Iterator[list[FakeMcu]]:
    """The fake microcontrollers a test plugged in; each is unplugged afterwards."""
    made: list[FakeMcu] = []
    yield made
    for mcu in made:
        mcu.unplug()


def plug(mcus: list[FakeMcu], port: Path, **kwargs: object) -> FakeMcu:
    """Plug a fake microcontroller in at ``port`` (unplugged when the test ends)."""
    mcu = FakeMcu(port, **kwargs)  # type: ignore[arg-type]
    mcus.append(mcu)
    return mcu
