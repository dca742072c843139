"""bench/board_hand.py's footprint (what the emulated Pi roots run): the service and the
engine's own process through a short game, their memory read from /proc."""

from __future__ import annotations

import re

import pytest

from bench.board_hand import footprint


def test_the_footprint_reads_both_processes_memory(capsys: pytest.CaptureFixture[str]) -> None:
    footprint(1, level=2)
    printed = capsys.readouterr().out
    replies = re.search(r"level 2 pondering: (\d+) replies, median (\d+) ms", printed)
    assert replies is not None and replies[1] == "1", printed
    memory = re.search(r"RSS ([\d.]+) MB before the service, ([\d.]+) MB after the game; the "
                       r"engine's process peak ([\d.]+) MB", printed)
    assert memory is not None, printed
    before, after, engine = map(float, memory.groups())
    assert 0 < before <= after and engine > 10  # (a Python process with the engine: > 10 MB)
