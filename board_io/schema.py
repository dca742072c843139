"""The configuration keys board_io reads, each declared once (:class:`~board_io.options.Option`).

Backends read their keys with :func:`~board_io.options.read` and these declarations, so a
default or a range is written in one place; ``firmware_host.config.schema`` adds the service's
keys to these and derives validation, the example file and the docs table from the whole. The
backend names (``board.sensors`` / ``leds`` / ``buttons``) are declared beside their tables in
:mod:`board_io.registry`.

``readers`` name the backend as ``<kind>:<name>`` (``sensors:gpio-matrix``); a new backend's
keys go into a section of their own here, with its name in ``readers``.

Example:
    >>> from board_io.options import read
    >>> read({}, LED_BRIGHTNESS), read({"leds.brightness": 1}, LED_BRIGHTNESS)
    (0.5, 1.0)
    >>> [option.key for option in SIM][:2]
    ['wiring', 'sensing']
"""

from __future__ import annotations

from typing import Any

from board_io.options import Option

__all__ = [
    "BOARD", "BUTTONS", "DISPLAY", "GPIO_MATRIX", "LEDS", "OPTIONS", "SERIAL",
    "SHIFT_REGISTER", "SIM", "TIMING", "button_pin",
]

_SERIAL = ("sensors:serial", "leds:serial", "buttons:serial")
_SIM = ("sensors:sim", "buttons:sim")
_SPI_LEDS = ("leds:ws2812-spi", "leds:max7219")

#: How the sensor matrix can be turned relative to the board (``board.transform``).
TRANSFORMS = ("identity", "rotate180", "mirror", "mirror-rotate180")
#: How a ws2812 strip runs under the board (``leds.wiring``).
LED_WIRINGS = ("grid", "grid-serpentine", "squares")
#: Colour orders of ws2812 LEDs (``leds.order``).
LED_ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")
#: How the simulated board's sensors are wired (``sim.wiring``).
SIM_WIRINGS = ("grid", "compact", "chain")

# -- [timing] ---------------------------------------------------------------------------------
SCAN_HZ = Option(
    "timing.scan_hz", "int", 100, "Sensor scans per second.", minimum=10, maximum=1000,
    readers=("service", *_SERIAL))
DEBOUNCE_MS = Option(
    "timing.debounce_ms", "int", 20,
    "A square's change counts once it has read the same for this long.", minimum=0,
    maximum=1000, readers=("scanner",))
STUCK_MS = Option(
    "timing.stuck_ms", "int", 3000,
    "A cell that keeps flapping this long is reported as a fault.", minimum=100,
    maximum=600_000, readers=("scanner",))
TIMING = (SCAN_HZ, DEBOUNCE_MS, STUCK_MS)

# -- [board] ----------------------------------------------------------------------------------
TRANSFORM = Option(
    "board.transform", "str", "identity",
    "How the sensor matrix is turned relative to the board.", choices=TRANSFORMS,
    readers=("scanner",))
CELL_MAP: Option[list[int]] = Option(
    "board.cell_map", "list[int]", [],
    "Calibrated map (written by `draughtsboard calibrate`): for each square index, the sensor "
    "cell row*cols+col. Empty: the standard map.", minimum=0, readers=("scanner",))
RGB = Option(
    "board.rgb", "bool", False, "The LEDs can show colours (else patterns only).",
    readers=("leds:sim", "leds:ws2812-spi"))
BOARD = (TRANSFORM, CELL_MAP, RGB)

# -- [gpio_matrix] ----------------------------------------------------------------------------
_MATRIX = ("sensors:gpio-matrix",)
MATRIX_ROW_PINS: Option[list[int]] = Option(
    "gpio_matrix.row_pins", "list[int]", [],
    "GPIO (BCM) pins driving the matrix rows, in row order.", minimum=0, maximum=53,
    readers=_MATRIX, pin=True)
MATRIX_COLUMN_PINS: Option[list[int]] = Option(
    "gpio_matrix.column_pins", "list[int]", [],
    "GPIO (BCM) pins reading the matrix columns, in column order.", minimum=0, maximum=53,
    readers=_MATRIX, pin=True)
MATRIX_ACTIVE_HIGH = Option(
    "gpio_matrix.active_high", "bool", True,
    "Rows are driven high to select (columns read high when a switch is closed).",
    readers=_MATRIX)
MATRIX_SETTLE_US = Option(
    "gpio_matrix.settle_us", "int", 10,
    "Delay between driving a row and reading the columns.", minimum=0, maximum=10_000,
    readers=_MATRIX)
MATRIX_INTERNAL_PULL = Option(
    "gpio_matrix.internal_pull", "bool", True,
    "Use the Pi's internal pull resistors on the column inputs.", readers=_MATRIX)
GPIO_MATRIX = (MATRIX_ROW_PINS, MATRIX_COLUMN_PINS, MATRIX_ACTIVE_HIGH, MATRIX_SETTLE_US,
               MATRIX_INTERNAL_PULL)

# -- [shift_register] -------------------------------------------------------------------------
_CHAIN = ("sensors:shift-register",)
CHAIN_LOAD_PIN = Option(
    "shift_register.load_pin", "int", 25, "GPIO (BCM) pin to PL (parallel load).", minimum=0,
    maximum=53, readers=_CHAIN, pin=True)
CHAIN_CLOCK_PIN = Option(
    "shift_register.clock_pin", "int", 11, "GPIO pin to CLK (bit-banged mode).", minimum=0,
    maximum=53, readers=_CHAIN, pin=True)
CHAIN_DATA_PIN = Option(
    "shift_register.data_pin", "int", 9, "GPIO pin from Q7 of the last register.", minimum=0,
    maximum=53, readers=_CHAIN, pin=True)
CHAIN_SPI_BUS = Option(
    "shift_register.spi_bus", "int", 0, "SPI bus when spidev is available.", minimum=0,
    maximum=6, readers=_CHAIN)
CHAIN_SPI_DEVICE = Option(
    "shift_register.spi_device", "int", 0, "SPI chip select.", minimum=0, maximum=3,
    readers=_CHAIN)
CHAIN_USE_SPI = Option(
    "shift_register.use_spi", "bool", True,
    "Read through spidev when present; bit-bang through gpiozero otherwise.", readers=_CHAIN)
CHAIN_ACTIVE_LOW = Option(
    "shift_register.active_low", "bool", True, "A closed switch reads 0 (pull-up wiring).",
    readers=_CHAIN)
CHAIN_CHIPS = Option(
    "shift_register.chips", "int", 0,
    "Number of 74HC165 chips in the chain; 0: one per 8 squares, rounded up.", minimum=0,
    maximum=32, readers=_CHAIN)
CHAIN_SPI_HZ = Option(
    "shift_register.spi_hz", "int", 500_000, "SPI clock of the chain.", minimum=1000,
    maximum=32_000_000, readers=_CHAIN)
SHIFT_REGISTER = (CHAIN_LOAD_PIN, CHAIN_CLOCK_PIN, CHAIN_DATA_PIN, CHAIN_SPI_BUS,
                  CHAIN_SPI_DEVICE, CHAIN_USE_SPI, CHAIN_ACTIVE_LOW, CHAIN_CHIPS, CHAIN_SPI_HZ)

# -- [serial] ---------------------------------------------------------------------------------
SERIAL_PORT = Option(
    "serial.port", "str", "/dev/serial/by-id/draughtsboard",
    "Port URL of the microcontroller (a by-id path survives re-plugging).", readers=_SERIAL,
    check=lambda port: "must not be empty" if not port.strip() else None)
SERIAL_BAUDRATE = Option(
    "serial.baudrate", "int", 115200, "Serial speed.", minimum=1200, maximum=4_000_000,
    readers=_SERIAL)
SERIAL_LINK_TIMEOUT_S = Option(
    "serial.link_timeout_s", "float", 3.0, "No frame for this long means the link is lost.",
    minimum=0.5, maximum=60, readers=_SERIAL)
SERIAL_RECONNECT_S = Option(
    "serial.reconnect_s", "float", 1.0,
    "While the link is lost, try to reopen the port this often.", minimum=0.1, maximum=60,
    readers=_SERIAL)
SERIAL_CONNECT_TIMEOUT_S = Option(
    "serial.connect_timeout_s", "float", 5.0,
    "How long to wait for the microcontroller's HELLO.", minimum=0.1, maximum=60,
    readers=_SERIAL)
SERIAL_DEBOUNCE_MS = Option(
    "serial.debounce_ms", "int", 5, "Debounce time done on the microcontroller.", minimum=0,
    maximum=1000, readers=_SERIAL)
SERIAL = (SERIAL_PORT, SERIAL_BAUDRATE, SERIAL_LINK_TIMEOUT_S, SERIAL_RECONNECT_S,
          SERIAL_CONNECT_TIMEOUT_S, SERIAL_DEBOUNCE_MS)

# -- [leds] -----------------------------------------------------------------------------------
LED_BRIGHTNESS = Option(
    "leds.brightness", "float", 0.5, "LED brightness, 0..1.", minimum=0.0, maximum=1.0,
    readers=("leds:sim", *_SPI_LEDS))
LED_SPI_BUS = Option(
    "leds.spi_bus", "int", 0, "SPI bus of the ws2812/max7219 LEDs.", minimum=0, maximum=6,
    readers=_SPI_LEDS)
LED_SPI_DEVICE = Option(
    "leds.spi_device", "int", 0, "SPI chip select of the LEDs.", minimum=0, maximum=3,
    readers=_SPI_LEDS)
LED_ORDER = Option(
    "leds.order", "str", "GRB", "Colour order of the ws2812 LEDs (any order of R, G, B).",
    choices=LED_ORDERS, readers=("leds:ws2812-spi",))
LED_WIRING = Option(
    "leds.wiring", "str", "grid",
    "How the LED strip runs: a full grid row by row, a serpentine grid, or one LED per playing "
    "square.", choices=LED_WIRINGS, readers=("leds:ws2812-spi",))
LED_BLOCK_ORIENTATION = Option(
    "leds.block_orientation", "int", 0, "max7219 block orientation.", choices=(0, 90, -90, 180),
    readers=("leds:max7219",))
LEDS = (LED_BRIGHTNESS, LED_SPI_BUS, LED_SPI_DEVICE, LED_ORDER, LED_WIRING,
        LED_BLOCK_ORIENTATION)

# -- [buttons] --------------------------------------------------------------------------------
_GPIO_BUTTONS = ("buttons:gpio",)


def button_pin(name: str, doc: str = "") -> Option[int]:
    """The declaration of the pin of the button called ``name``: ``buttons.<name>_pin``, -1 for
    none. The application declares one for each button it names (``doc`` says what the
    button is); the ``gpio`` backend reads it for each of the context's names.

    Example:
        >>> button_pin("left").path, button_pin("left").default
        ('buttons.left_pin', -1)
    """
    return Option(f"buttons.{name}_pin", "int", -1, doc or f"GPIO pin of the {name} button; "
                  "-1: none.", minimum=-1, maximum=53, readers=_GPIO_BUTTONS, pin=True)



BUTTON_PULL_UP = Option(
    "buttons.pull_up", "bool", True, "Buttons connect the pin to ground (internal pull-up).",
    readers=_GPIO_BUTTONS)
BUTTON_BOUNCE_MS = Option(
    "buttons.bounce_ms", "int", 20, "Debounce time of the buttons.", minimum=0, maximum=1000,
    readers=_GPIO_BUTTONS)
BUTTONS = (BUTTON_PULL_UP, BUTTON_BOUNCE_MS)

# -- [clock] (the display: the clock's times are the service's) --------------------------------
_OLED = ("display:ssd1306", "display:sh1106")
_DISPLAYS = ("display:max7219", *_OLED)
DISPLAY_BRIGHTNESS = Option(
    "clock.display_brightness", "float", 1.0, "Brightness of the clock display, 0..1.",
    minimum=0.0, maximum=1.0, readers=_DISPLAYS)
DISPLAY_SPI_BUS = Option(
    "clock.display_spi_bus", "int", 0, "SPI bus of the max7219 clock display.", minimum=0,
    maximum=6, readers=("display:max7219",))
DISPLAY_SPI_DEVICE = Option(
    "clock.display_spi_device", "int", 1,
    "SPI chip select of the max7219 clock display (CE1: the LEDs may be on CE0).", minimum=0,
    maximum=3, readers=("display:max7219",))
DISPLAY_I2C_PORT = Option(
    "clock.display_i2c_port", "int", 1, "I2C bus of the OLED clock display (/dev/i2c-N).",
    minimum=0, maximum=20, readers=_OLED)
DISPLAY_I2C_ADDRESS = Option(
    "clock.display_i2c_address", "int", 0x3C,
    "I2C address of the OLED clock display (0x3C on most modules; 0x3D).", minimum=0x03,
    maximum=0x77, readers=_OLED)
DISPLAY_ROTATE = Option(
    "clock.display_rotate", "int", 0, "Turn the OLED's picture by this many degrees.",
    choices=(0, 90, 180, 270), readers=_OLED)
DISPLAY = (DISPLAY_BRIGHTNESS, DISPLAY_SPI_BUS, DISPLAY_SPI_DEVICE, DISPLAY_I2C_PORT,
           DISPLAY_I2C_ADDRESS, DISPLAY_ROTATE)

# -- [sim] ------------------------------------------------------------------------------------
SIM_WIRING = Option(
    "sim.wiring", "str", "grid",
    "How the simulated board's sensors are wired: a full grid, only the playing squares "
    "(compact), or a shift-register chain.", choices=SIM_WIRINGS, readers=_SIM)
SIM_SENSING = Option(
    "sim.sensing", "str", "presence",
    "What the simulated sensors see: presence only, or piece colours.",
    choices=("presence", "colour"), readers=_SIM)
SIM_BOUNCE_MS = Option(
    "sim.bounce_ms", "int", 0,
    "Fault injection: random contact bounce for this long after every lift and place.",
    minimum=0, maximum=1000, readers=_SIM)
SIM_BOUNCE_TOGGLES = Option(
    "sim.bounce_toggles", "int", 4, "Fault injection: toggles per bounce.", minimum=0,
    maximum=100, readers=_SIM)
SIM_GLITCH_RATE = Option(
    "sim.glitch_rate", "float", 0.0,
    "Fault injection: probability that a cell misreads for one scan.", minimum=0.0,
    maximum=1.0, readers=_SIM)
SIM_STUCK_OCCUPIED: Option[list[int]] = Option(
    "sim.stuck_occupied", "list[int]", [],
    "Fault injection: sensor cells (row*cols+col) that always read occupied.", minimum=0,
    maximum=143, readers=_SIM)
SIM_STUCK_EMPTY: Option[list[int]] = Option(
    "sim.stuck_empty", "list[int]", [],
    "Fault injection: sensor cells (row*cols+col) that always read empty.", minimum=0,
    maximum=143, readers=_SIM)
SIM_DEAD_ROWS: Option[list[int]] = Option(
    "sim.dead_rows", "list[int]", [], "Fault injection: sensor rows that read nothing.",
    minimum=0, maximum=11, readers=_SIM)
SIM_SEED = Option(
    "sim.seed", "int", 0, "Seed of the fault injection.", minimum=0, maximum=2**32 - 1,
    readers=_SIM)
SIM = (SIM_WIRING, SIM_SENSING, SIM_BOUNCE_MS, SIM_BOUNCE_TOGGLES, SIM_GLITCH_RATE,
       SIM_STUCK_OCCUPIED, SIM_STUCK_EMPTY, SIM_DEAD_ROWS, SIM_SEED)

#: Every key above, section by section.
OPTIONS: tuple[Option[Any], ...] = (
    *TIMING, *BOARD, *GPIO_MATRIX, *SHIFT_REGISTER, *SERIAL, *LEDS, *BUTTONS, *DISPLAY, *SIM)
