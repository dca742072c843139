"""Debouncer table tests in virtual time: bounce bursts, glitches, stuck (flapping) cells."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from board_io.debounce import Debouncer
from board_io.types import Reading

CODES = {"0": Reading.EMPTY, "1": Reading.OCCUPIED, "W": Reading.WHITE, "B": Reading.BLACK}
NAMES = {v: k for k, v in CODES.items()}


def trace(raw: str, *, debounce_ms: float = 20, stuck_ms: float = 3000,
          period_ms: int = 10) -> list[tuple[int, str]]:
    """Feed one cell's readings (one char per scan, every ``period_ms``); list what came out."""
    debouncer = Debouncer(1, debounce_ms=debounce_ms, stuck_ms=stuck_ms)
    out: list[tuple[int, str]] = []
    for k, char in enumerate(raw):
        t_ms = k * period_ms
        update = debouncer.feed((CODES[char],), t_ms / 1000)
        for _ in update.changed:
            value = debouncer.stable[0]
            assert value is not None
            out.append((t_ms, NAMES[value]))
        out.extend((t_ms, "fault") for _ in update.faulted)
        out.extend((t_ms, "recovered") for _ in update.recovered)
    return out


TABLE = [
    # name, raw scans (10 ms apart), debounce_ms, stuck_ms, expected (time_ms, output)
    ("settles after debounce", "000", 20, 3000, [(20, "0")]),
    ("clean change", "0001111", 20, 3000, [(20, "0"), (50, "1")]),
    ("single-scan glitch ignored", "0000100000", 20, 3000, [(20, "0")]),
    ("two-scan glitch ignored", "00001100000", 20, 3000, [(20, "0")]),
    ("bounce burst then settle", "0001010011111", 20, 3000, [(20, "0"), (100, "1")]),
    ("bounce back to old value", "0001010000000", 20, 3000, [(20, "0")]),
    ("debounce 0 follows raw", "0101", 0, 3000, [(0, "0"), (10, "1"), (20, "0"), (30, "1")]),
    ("longer debounce", "000000111111111", 50, 3000, [(50, "0"), (110, "1")]),
    ("too short to settle", "0001111111", 50, 3000, [(80, "1")]),
    ("colours", "WWWWBBBB", 20, 3000, [(20, "W"), (60, "B")]),
    ("lift of a colour piece", "BBB000", 20, 3000, [(20, "B"), (50, "0")]),
    ("flapping becomes a fault, then settles on the new value",
     "000" + "10" * 20 + "1111", 20, 100,
     [(20, "0"), (130, "fault"), (450, "1"), (450, "recovered")]),
    ("flapping fault, settles on the old value",
     "000" + "10" * 20 + "0000", 20, 100, [(20, "0"), (130, "fault"), (440, "recovered")]),
    ("flapping shorter than stuck_ms is a plain change",
     "000" + "10" * 4 + "1111", 20, 100, [(20, "0"), (130, "1")]),
    ("flapping from power-on is held empty and reported",
     "10" * 15 + "0000", 20, 100, [(100, "0"), (100, "fault"), (310, "recovered")]),
    ("fault reported once however long it flaps",
     "000" + "10" * 100, 20, 100, [(20, "0"), (130, "fault")]),
]


@pytest.mark.parametrize(("raw", "debounce_ms", "stuck_ms", "expected"),
                         [row[1:] for row in TABLE], ids=[row[0] for row in TABLE])
def test_table(raw: str, debounce_ms: float, stuck_ms: float,
               expected: list[tuple[int, str]]) -> None:
    assert trace(raw, debounce_ms=debounce_ms, stuck_ms=stuck_ms) == expected


def test_debounce_counts_time_not_scans() -> None:
    debouncer = Debouncer(1, debounce_ms=20)
    debouncer.feed((Reading.EMPTY,), 0.0)
    debouncer.feed((Reading.EMPTY,), 0.5)
    # One late sample after a long gap confirms nothing by itself...
    assert debouncer.feed((Reading.OCCUPIED,), 0.6).changed == ()
    # ...a second sample at least debounce_ms later does.
    assert debouncer.feed((Reading.OCCUPIED,), 0.9).changed == (0,)


def test_ready_only_when_every_cell_settled() -> None:
    debouncer = Debouncer(3, debounce_ms=20)
    e, o = Reading.EMPTY, Reading.OCCUPIED
    debouncer.feed((e, o, e), 0.00)
    debouncer.feed((e, o, o), 0.01)  # cell 2 restarts
    update = debouncer.feed((e, o, o), 0.02)
    assert update.changed == (0, 1) and not debouncer.ready
    assert debouncer.stable == (e, o, None)
    update = debouncer.feed((e, o, o), 0.03)
    assert update.changed == (2,) and debouncer.ready


def test_idle_frames_return_nothing() -> None:
    debouncer = Debouncer(2, debounce_ms=20)
    frame = (Reading.EMPTY, Reading.OCCUPIED)
    for k in range(3):
        debouncer.feed(frame, k / 100)
    assert not debouncer.feed(frame, 0.05)


def test_reset_forgets_everything() -> None:
    debouncer = Debouncer(1, debounce_ms=20)
    debouncer.feed((Reading.OCCUPIED,), 0.0)
    debouncer.feed((Reading.OCCUPIED,), 0.02)
    assert debouncer.ready
    debouncer.reset()
    assert not debouncer.ready and debouncer.stable == (None,)
    debouncer.feed((Reading.OCCUPIED,), 1.0)
    assert debouncer.feed((Reading.OCCUPIED,), 1.02).changed == (0,)


def test_faulty_cells_listed_until_recovered() -> None:
    debouncer = Debouncer(1, debounce_ms=20, stuck_ms=50)
    for k, char in enumerate("000" + "10" * 10):
        debouncer.feed((CODES[char],), k / 100)
    assert debouncer.faulty == {0}
    for k in range(23, 27):
        debouncer.feed((Reading.EMPTY,), k / 100)
    assert debouncer.faulty == frozenset()


@pytest.mark.parametrize(("frame", "now", "message"), [
    ((Reading.EMPTY,), 0.0, "frame has 1 cells, expected 2"),
    ((Reading.EMPTY, Reading.EMPTY), -1.0, "time went backwards"),
])
def test_bad_input(frame: tuple[Reading, ...], now: float, message: str) -> None:
    debouncer = Debouncer(2)
    debouncer.feed((Reading.EMPTY, Reading.EMPTY), 0.0)
    with pytest.raises(ValueError, match=message):
        debouncer.feed(frame, now)


def test_bad_settings() -> None:
    with pytest.raises(ValueError):
        Debouncer(0)
    with pytest.raises(ValueError):
        Debouncer(4, debounce_ms=-1)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from("01"), min_size=1, max_size=80), st.sampled_from([0, 10, 20, 30]))
def test_stable_value_was_read_throughout_the_debounce_window(raw: list[str],
                                                              debounce_ms: int) -> None:
    """Property: every accepted value was read at every scan of the last debounce_ms."""
    debouncer = Debouncer(1, debounce_ms=debounce_ms, stuck_ms=10_000)
    before = None
    for k, char in enumerate(raw):
        if debouncer.feed((CODES[char],), k / 100).changed:
            assert k >= debounce_ms // 10
            assert set(raw[k - debounce_ms // 10:k + 1]) == {char}
            assert debouncer.stable[0] is not before
        before = debouncer.stable[0]


def test_idle_means_nothing_waits_to_settle() -> None:
    debouncer = Debouncer(1, debounce_ms=20)
    assert debouncer.idle  # nothing fed yet: nothing pending either
    debouncer.feed((Reading.EMPTY,), 0.0)
    assert not debouncer.idle
    debouncer.feed((Reading.EMPTY,), 0.02)
    assert debouncer.idle
    debouncer.feed((Reading.OCCUPIED,), 0.03)
    assert not debouncer.idle
