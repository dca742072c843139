# draughtsboard reference firmware: the builder's settings. Edit this file, then copy it to
# the Pico again (draughtsboard firmware install --port ...). docs/hardware.md has the wiring.
#
# Pin numbers are the Pico's GPn numbers (GP2 = 2), not physical pin numbers.

# The switch matrix: one reed switch or digital hall sensor per playing square, each in
# series with a diode, between a row line and a column line. Row r is the board's rank r
# (row 0 = White's first rank); column k is the k-th playing square of the row from White's
# left. 8x8 draughts: 8 rows x 4 columns; 10x10: 10 x 5; 12x12: 12 x 6.
ROW_PINS = (2, 3, 4, 5, 6, 7, 8, 9)  # driven, one at a time
COL_PINS = (14, 15, 16, 17)  # read
ACTIVE_HIGH = True  # the driven row goes high, columns have pull-downs (diode anode at the row)
SETTLE_US = 10  # wait after driving a row before reading the columns
CHECK_DIODES = True  # drive the columns backwards once a second: a closed switch that
                     # conducts backwards has no diode (or a shorted one): ERROR 4 (cell)

# WS2812 / SK6812 LEDs on one data pin (through a 3.3 V -> 5 V level shifter).
LED_PIN = 22
LED_CELLS = None  # None: LED i shows cell i (row-major, as the matrix); else a tuple of cells
LED_ORDER = "GRB"  # the strip's byte order
LED_DRIVER = "pio"  # "pio": the RP2040's PIO state machine 0; "neopixel": the neopixel module
RGB = True  # colour LEDs: each light in its colour; False: white at its brightness
BRIGHTNESS = 0.5  # 0..1

# Push buttons, to GND (internal pull-ups). Ids 0.. in this order: adjust, hint, takeback,
# new game, done, resign, draw. Leave a button out by shortening the tuple.
BUTTON_PINS = (20, 21, 26, 27, 28, 0, 1)
BUTTON_ACTIVE_LOW = True
BUTTON_DEBOUNCE_MS = 20
SAFE_BUTTON = 0  # hold this button (its index) while plugging the Pico in: the firmware does
                 # not start and the REPL stays free for mpremote; -1: no such button

# Defaults until the host's CONFIG arrives.
SCAN_PERIOD_MS = 10
DEBOUNCE_MS = 5
