# draughtsboard reference firmware: push buttons, debounced.


class Buttons:
    """Buttons on pins (``value()``); ``poll(now)`` returns ``[(id, pressed), ...]`` changes."""

    def __init__(self, pins, ticks_diff, active_low=True, debounce_ms=20):
        self.count = len(pins)
        self._pins = pins
        self._down = 0 if active_low else 1
        self._diff = ticks_diff
        self._debounce = debounce_ms
        self._state = [False] * self.count
        self._candidate = [False] * self.count
        self._since = [0] * self.count

    def pressed(self, button):
        """True if the button reads pressed right now (no debouncing): the boot-time check."""
        return self._pins[button].value() == self._down

    def poll(self, now):
        changes = []
        for i in range(self.count):
            value = self._pins[i].value() == self._down
            if value != self._candidate[i]:
                self._candidate[i] = value
                self._since[i] = now
            if value != self._state[i] and self._diff(now, self._since[i]) >= self._debounce:
                self._state[i] = value
                changes.append((i, value))
        return changes
