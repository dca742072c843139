"""Benchmark: per-frame cost of the scan path (sensor read -> debouncer -> cell map -> events).

Measures frames/s of :class:`board_io.scanner.Scanner` on 8x8 and 10x10 sensor grids for three
frame streams, and compares with a peer measured in the same run: a straightforward debouncer
that visits every cell on every frame (the usual per-cell counter design). The scan rate needed
on a real board is 100 frames/s; the "x100Hz" column is the headroom over it.

Streams:
  idle    the board at rest (what a scanner sees >95 % of the time)
  moves   a lift or place every 50 frames, with 4 ms contact bounce sampled at 1 ms
  noisy   a random single-scan glitch on every frame (worst case)

Run: ``.venv/bin/python bench/board_io_scan.py [--frames N]``
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence

from board_io.geometry import CellMap, Layout, dark_squares
from board_io.scanner import Scanner
from board_io.sensors.base import SensorMatrix
from board_io.types import Frame, Reading

E, X = Reading.EMPTY, Reading.OCCUPIED


class Replay(SensorMatrix):
    """Returns pre-built frames in a loop, so the benchmark measures only the scan path."""

    def __init__(self, size: int, frames: Sequence[Frame]) -> None:
        super().__init__(size, size)
        self.frames = frames
        self.k = -1

    def _read(self) -> Frame:
        self.k += 1
        return self.frames[self.k % len(self.frames)]


def initial(layout: Layout) -> list[Reading]:
    values = [E] * (layout.rows * layout.cols)
    n = layout.num_squares
    for sq in [*range(n * 2 // 5), *range(n - n * 2 // 5, n)]:
        r, c = layout.coords[sq]
        values[r * layout.cols + c] = X
    return values


def stream(layout: Layout, kind: str, count: int, rng: random.Random) -> list[Frame]:
    values = initial(layout)
    cells = [r * layout.cols + c for r, c in layout.coords]
    frames: list[Frame] = []
    for k in range(count):
        if kind == "moves" and k % 50 == 0:
            cell = rng.choice(cells)
            values[cell] = E if values[cell] is X else X
        frame = list(values)
        if kind == "moves" and k % 50 in (1, 3):
            frame[cell] = E if frame[cell] is X else X  # bounce
        if kind == "noisy":
            cell = rng.randrange(len(frame))
            frame[cell] = E if frame[cell] is X else X
        frames.append(tuple(frame))
    return frames


class NaiveDebouncer:
    """The peer: a counter per cell, every cell visited on every frame."""

    def __init__(self, cell_map: CellMap, debounce_scans: int) -> None:
        self.n = debounce_scans
        self.index = cell_map.flat_indices()
        cells = cell_map.sensor_rows * cell_map.sensor_cols
        self.stable: list[Reading | None] = [None] * cells
        self.count = [0] * cells
        self.last: list[Reading | None] = [None] * cells
        self.occupied: frozenset[int] | None = None

    def feed(self, frame: Frame) -> list[frozenset[int]]:
        changed = False
        for i, value in enumerate(frame):
            if value is self.last[i]:
                self.count[i] += 1
            else:
                self.last[i], self.count[i] = value, 1
            if self.count[i] > self.n and self.stable[i] is not value:
                self.stable[i] = value
                changed = True
        if not changed:
            return []
        occupied = frozenset(sq for sq, i in enumerate(self.index)
                             if self.stable[i] not in (None, E))
        if occupied == self.occupied:
            return []
        self.occupied = occupied
        return [occupied]


def rate(run: Callable[[int], object], frames: int) -> float:
    best = 0.0
    for _ in range(3):
        start = time.perf_counter()
        for k in range(frames):
            run(k)
        best = max(best, frames / (time.perf_counter() - start))
    return best


def measure(size: int, kind: str, frames: int) -> tuple[float, float]:
    layout = dark_squares(size)
    cmap = CellMap.identity(layout)
    data = stream(layout, kind, frames, random.Random(size))
    period = 0.001 if kind == "moves" else 0.01
    sensors = Replay(size, data)
    scanner = Scanner(sensors, cmap, debounce_ms=20)
    ours = _ours(scanner, period, frames)
    peer = NaiveDebouncer(cmap, debounce_scans=int(0.02 / period))
    theirs = rate(lambda k: peer.feed(data[k]), frames)
    return ours, theirs


def _ours(scanner: Scanner, period: float, frames: int) -> float:
    clock = [0.0]

    def step(_: int) -> None:
        clock[0] += period
        scanner.poll(clock[0])

    return rate(step, frames)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=20_000)
    args = parser.parse_args()
    print(f"{'board':>6} {'stream':>7} {'scanner f/s':>12} {'peer f/s':>10} "
          f"{'ours/peer':>9} {'x100Hz':>8}")
    for size in (8, 10):
        for kind in ("idle", "moves", "noisy"):
            ours, peer = measure(size, kind, args.frames)
            board = f"{size}x{size}"
            print(f"{board:>6} {kind:>7} {ours:12,.0f} {peer:10,.0f} {ours / peer:9.1f} "
                  f"{ours / 100:8,.0f}")


if __name__ == "__main__":
    main()
