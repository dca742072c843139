# draughtsboard reference firmware: scanning the switch matrix and debouncing it.
#
# Rows are driven one at a time, columns are read. Idle rows float (inputs without pull), so
# a matrix without diodes shows its "ghost" closures the way the hardware really would. The
# diode check drives the columns backwards: through a diode nothing flows, so a row that
# reads the column's level has a switch without a (working) diode.
#
# Pins are passed in (machine.Pin objects on the Pico, stand-ins in the tests): they need
# init(mode, pull) and value([v]). ``pin_cls`` gives the IN / OUT / PULL_UP / PULL_DOWN
# constants.


class Matrix:
    """A rows x cols switch matrix; ``read()`` returns one byte per cell: 1 closed, 0 open."""

    def __init__(self, row_pins, col_pins, pin_cls, active_high=True, settle=None):
        self.rows = len(row_pins)
        self.cols = len(col_pins)
        self._row_pins = row_pins
        self._col_pins = col_pins
        self._pin = pin_cls
        self._on = 1 if active_high else 0
        self._pull = pin_cls.PULL_DOWN if active_high else pin_cls.PULL_UP
        self._settle = settle  # a function waiting a few microseconds, or None
        self.cells = bytearray(self.rows * self.cols)
        for row in row_pins:
            row.init(pin_cls.IN, None)
        for col in col_pins:
            col.init(pin_cls.IN, self._pull)

    def read(self):
        """Scan every row once; return the cells (row-major), reused between calls."""
        on, pin, cells = self._on, self._pin, self.cells
        index = 0
        for row in self._row_pins:
            row.init(pin.OUT)
            row.value(on)
            if self._settle is not None:
                self._settle()
            for col in self._col_pins:
                cells[index] = 1 if col.value() == on else 0
                index += 1
            row.init(pin.IN, None)
        return cells

    def backwards(self):
        """Return the cells whose switch conducts from column to row (no diode): a list."""
        on, pin = self._on, self._pin
        for row in self._row_pins:
            row.init(pin.IN, self._pull)
        found = []
        for c, col in enumerate(self._col_pins):
            col.init(pin.OUT)
            col.value(on)
            if self._settle is not None:
                self._settle()
            for r, row in enumerate(self._row_pins):
                if row.value() == on:
                    found.append(r * self.cols + c)
            col.init(pin.IN, self._pull)
        for row in self._row_pins:
            row.init(pin.IN, None)
        return found


class Debouncer:
    """A cell's change counts once it has read the same for ``debounce_ms``."""

    def __init__(self, count, ticks_diff):
        self.stable = bytearray(count)
        self._candidate = bytearray(count)
        self._since = [0] * count
        self._ticks_diff = ticks_diff
        self._first = True

    def feed(self, raw, now, debounce_ms):
        """Take one scan; return True if the stable cells changed (always on the first)."""
        if self._first:
            self._first = False
            self.stable[:] = raw
            self._candidate[:] = raw
            return True
        changed = False
        stable, candidate, since, diff = self.stable, self._candidate, self._since, self._ticks_diff
        for i in range(len(raw)):
            value = raw[i]
            if value != candidate[i]:
                candidate[i] = value
                since[i] = now
            if value != stable[i] and diff(now, since[i]) >= debounce_ms:
                stable[i] = value
                changed = True
        return changed
