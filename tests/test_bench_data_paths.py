"""The measurements kept in bench/data name no path of the machine that made them: a command
recorded there reads as anyone would type it (``PATH/scan`` for a peer's binary)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent.parent / "bench" / "data"
MACHINE = re.compile(r"(?<![\w.])/(?:tmp|work|home|root|opt)/")


@pytest.mark.parametrize("path", sorted(str(p.relative_to(DATA)) for p in DATA.rglob("*.json")))
def test_a_measurement_names_no_machine_path(path: str) -> None:
    text = (DATA / path).read_text(encoding="utf-8")
    assert MACHINE.findall(text) == [], path
