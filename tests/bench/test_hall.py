"""bench/hall.py end to end at a tiny size: it runs, reads every game back and prints every
figure the hall needs (the sizes and the pace are its options; here a few boards, fast)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.redis


def test_a_tiny_hall_prints_every_figure() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "hall.py"), "--boards", "4", "--viewers", "2",
         "--viewer-processes", "1", "--workers", "2", "--speed", "200", "--rounds", "2",
         "--plies", "6:8"], capture_output=True, text=True, timeout=240, check=False)
    out = done.stdout
    assert "Traceback" not in done.stderr, done.stderr
    assert "hall: 4 boards, 2 rounds" in out and "stored: 0 lost, 0 duplicated" in out, out
    for figure in ("move-to-feed, 2 hall viewers:", "per finished game", "per board",
                   "web app: RSS", "a 1 GB Redis holds about"):
        assert figure in out, out
