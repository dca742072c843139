"""Debouncing: raw sensor frames in, stable per-cell changes out. Pure and clock-driven.

Rules, per cell (times from the ``now`` passed with each frame):

* A cell's value becomes stable once its raw reading has stayed the same for ``debounce_ms``.
  A bounce burst or a single-scan glitch shorter than that never changes the stable value.
* Before its first steady period a cell has no stable value (``None``); :attr:`Debouncer.ready`
  is true once every cell has one.
* A cell is *unsettled* from the first raw reading that differs from its stable value until it
  reads steadily again. If it stays unsettled for ``stuck_ms`` (it keeps flapping) it is
  reported once as faulty and held at its last stable value (``EMPTY`` if it never had one,
  so that one bad cell cannot keep the board from being ready); when it is steady again it is
  reported recovered, and its new value (if different) is a change like any other.

Example:
    >>> from board_io.types import Reading as R
    >>> d = Debouncer(2, debounce_ms=20)
    >>> d.feed((R.EMPTY, R.EMPTY), 0.00).changed, d.feed((R.EMPTY, R.EMPTY), 0.02).changed
    ((), (0, 1))
    >>> d.feed((R.OCCUPIED, R.EMPTY), 0.03).changed, d.feed((R.OCCUPIED, R.EMPTY), 0.05).changed
    ((), (0,))
"""

from __future__ import annotations

from dataclasses import dataclass

from board_io.types import Frame, Reading

# Float sums of scan periods (0.01 + 0.01 ...) must not miss a boundary by 1e-17.
_EPSILON = 1e-9


@dataclass(frozen=True, slots=True)
class DebounceUpdate:
    """What one frame changed: cell indices (row-major) that became stable with a new value,
    that turned faulty, and that recovered."""

    changed: tuple[int, ...] = ()
    faulted: tuple[int, ...] = ()
    recovered: tuple[int, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.changed or self.faulted or self.recovered)


_NOTHING = DebounceUpdate()


class Debouncer:
    """Turns raw frames into stable readings (see the module docs for the exact rules).

    Example:
        >>> d = Debouncer(1, debounce_ms=0)
        >>> d.feed((Reading.OCCUPIED,), 0.0).changed, d.stable
        ((0,), (<Reading.OCCUPIED: 1>,))

    Raises:
        ValueError: negative times, fewer than one cell, or (from :meth:`feed`) a frame of the
            wrong length or time going backwards.
    """

    def __init__(self, cells: int, *, debounce_ms: float = 20, stuck_ms: float = 3000) -> None:
        if cells < 1:
            raise ValueError(f"a debouncer needs at least one cell, not {cells}")
        if debounce_ms < 0 or stuck_ms < 0:
            raise ValueError("debounce_ms and stuck_ms must be >= 0")
        self.cells = cells
        self.debounce = debounce_ms / 1000.0
        self.stuck = stuck_ms / 1000.0
        self.reset()

    def reset(self) -> None:
        """Forget everything: every cell unknown again (after a reconnect, say)."""
        n = self.cells
        self._stable: list[Reading | None] = [None] * n
        self._raw: tuple[Reading, ...] | None = None
        self._steady_since = [0.0] * n
        self._unsettled_since: dict[int, float] = {}  # also: cells still to settle
        self._faulty: set[int] = set()
        self._unknown = n
        self._last_now = float("-inf")

    @property
    def ready(self) -> bool:
        """True once every cell has a stable value."""
        return self._unknown == 0

    @property
    def stable(self) -> tuple[Reading | None, ...]:
        """The stable value of every cell (None: not settled yet)."""
        return tuple(self._stable)

    @property
    def idle(self) -> bool:
        """True when no cell is waiting to settle: an unchanged frame would change nothing."""
        return not self._unsettled_since

    @property
    def faulty(self) -> frozenset[int]:
        """Cells currently reported faulty."""
        return frozenset(self._faulty)

    def feed(self, frame: Frame, now: float) -> DebounceUpdate:
        """Take one raw frame scanned at time ``now`` (seconds); return what became stable."""
        if len(frame) != self.cells:
            raise ValueError(f"frame has {len(frame)} cells, expected {self.cells}")
        if now < self._last_now:
            raise ValueError(f"time went backwards ({self._last_now} -> {now})")
        self._last_now = now
        previous = self._raw
        self._raw = frame
        if previous is None:
            for i in range(self.cells):
                self._steady_since[i] = now
                self._unsettled_since[i] = now
        elif frame != previous:
            for i, (old, new) in enumerate(zip(previous, frame, strict=True)):
                if old != new:  # == not `is`: a backend may hand in plain ints
                    self._steady_since[i] = now
                    self._unsettled_since.setdefault(i, now)
        if not self._unsettled_since:
            return _NOTHING
        return self._settle(frame, now)

    def _settle(self, frame: Frame, now: float) -> DebounceUpdate:
        changed: list[int] = []
        faulted: list[int] = []
        recovered: list[int] = []
        for i, since in list(self._unsettled_since.items()):
            if now - self._steady_since[i] + _EPSILON >= self.debounce:
                del self._unsettled_since[i]
                value = frame[i]
                old = self._stable[i]
                if value != old:
                    if old is None:
                        self._unknown -= 1
                    self._stable[i] = value
                    changed.append(i)
                if i in self._faulty:
                    self._faulty.discard(i)
                    recovered.append(i)
            elif i not in self._faulty and now - since + _EPSILON >= self.stuck:
                self._faulty.add(i)
                faulted.append(i)
                if self._stable[i] is None:
                    # Flapping since power-on: hold it empty (a bad contact is not a piece),
                    # so that one bad cell does not keep the whole board from being ready.
                    self._stable[i] = Reading.EMPTY
                    self._unknown -= 1
                    changed.append(i)
        if not (changed or faulted or recovered):
            return _NOTHING
        changed.sort()
        return DebounceUpdate(tuple(changed), tuple(faulted), tuple(recovered))
