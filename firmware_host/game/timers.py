"""Named one-shot timers that post events: pure, clock-free (deadlines are plain numbers).

The session starts and cancels timers by name; the controller asks which are due and posts a
:class:`~firmware_host.game.types.TimerFired` for each. A restarted timer gets a new
generation, so an event of an earlier start that was already queued is recognised as stale.

>>> timers = Timers()
>>> timers.start(TimerName.SETTLE, now=1.0, delay_ms=300)
>>> timers.due(1.2), [t.name.value for t in timers.due(1.3)]
([], ['settle'])
>>> timers.due(2.0)
[]
"""

from __future__ import annotations

from firmware_host.game.types import TimerFired, TimerName

#: Timers that run in the background (the game clock's): they do not make the session busy.
BACKGROUND = frozenset({TimerName.FLAG, TimerName.CLOCK_SAVE})


class Timers:
    """A set of named timers, each at most once."""

    def __init__(self) -> None:
        self._deadlines: dict[TimerName, tuple[float, int]] = {}
        self._generation = 0

    def start(self, name: TimerName, now: float, delay_ms: float) -> None:
        """(Re)start timer ``name`` to fire ``delay_ms`` after ``now``."""
        self._generation += 1
        self._deadlines[name] = (now + delay_ms / 1000.0, self._generation)

    def cancel(self, *names: TimerName) -> None:
        """Stop the named timers (running or not)."""
        for name in names:
            self._deadlines.pop(name, None)

    def cancel_all(self) -> None:
        """Stop every timer."""
        self._deadlines.clear()

    def running(self, name: TimerName) -> bool:
        """Whether timer ``name`` is running."""
        return name in self._deadlines

    def is_current(self, event: TimerFired) -> bool:
        """Whether ``event`` comes from the current start of its timer (and consume it)."""
        entry = self._deadlines.get(event.name)
        if entry is None or entry[1] != event.generation:
            return False
        del self._deadlines[event.name]
        return True

    def next_deadline(self, background: bool = True) -> float | None:
        """The earliest deadline, or None when no timer runs (``background``: counting the
        :data:`BACKGROUND` timers)."""
        pending = [d for name, (d, _) in self._deadlines.items()
                   if d != float("inf") and (background or name not in BACKGROUND)]
        return min(pending, default=None)

    def due(self, now: float) -> list[TimerFired]:
        """Events of the timers whose deadline is at or before ``now``, earliest first.

        A due timer stays registered until its event is handled (see :meth:`is_current`), but is
        reported once only.
        """
        fired = sorted(
            ((deadline, generation, name)
             for name, (deadline, generation) in self._deadlines.items()
             if deadline <= now + 1e-9),
            key=lambda item: (item[0], item[1]),
        )
        for _, generation, name in fired:
            # Mark as reported: keep the generation, move the deadline out of reach.
            self._deadlines[name] = (float("inf"), generation)
        return [TimerFired(name, generation, deadline) for deadline, generation, name in fired]
