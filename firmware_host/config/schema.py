"""Every configuration option as data: section, key, type, default, allowed values, documentation.

The schema is the single source for validation (:mod:`~firmware_host.config.loader`), for the
example file ``systemd/draughtsboard.toml`` (a test checks it documents every option) and for
``--help`` texts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Option:
    """One configuration option.

    ``kind`` is the TOML type: ``str``, ``int``, ``float``, ``bool``, ``list[int]``, ``list[str]``,
    or ``table`` (a table of scalar values).
    """

    section: str
    key: str
    kind: str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    secret: bool = False

    @property
    def path(self) -> str:
        """The dotted name of the option, e.g. ``timing.settle_ms``."""
        return f"{self.section}.{self.key}"


MODES = ("play", "record", "teach")
SIDES = ("white", "black")
TOUCH_MOVE = ("strict", "off", "auto")
SENSOR_BACKENDS = ("sim", "gpio-matrix", "shift-register", "serial")
LED_BACKENDS = ("sim", "none", "ws2812-spi", "max7219", "serial")
BUTTON_BACKENDS = ("sim", "none", "gpio", "serial")
ENGINE_KINDS = ("builtin", "hub")
LOG_LEVELS = ("debug", "info", "warning", "error")
TRANSFORMS = ("identity", "rotate180", "mirror", "mirror-rotate180")

OPTIONS: tuple[Option, ...] = (
    # [game]
    Option("game", "variant", "str", "international",
           "Rules to play: a variant name or alias (see `draughtsboard moves --help`)."),
    Option("game", "mode", "str", "play",
           "play: you against the computer; record: two humans, every move logged; "
           "teach: play with LED help.", choices=MODES),
    Option("game", "human_side", "str", "white",
           "The side the human plays in play and teach modes.", choices=SIDES),
    Option("game", "touch_move", "str", "auto",
           "strict: a touched playable piece must be moved; off: casual; auto: strict in record "
           "mode, off in play and teach.", choices=TOUCH_MOVE),
    Option("game", "alternative_move", "bool", False,
           "Accept a different legal move for the computer's side than the one it showed."),
    Option("game", "takeback", "bool", True,
           "Allow takebacks in play and teach modes (never in record mode)."),
    Option("game", "ballot", "str", "none",
           "English checkers only: each new game opens with a random tournament ballot "
           "(recorded as its first moves; the LEDs guide you to set the position up).",
           choices=("none", "2-move", "3-move")),
    Option("game", "event", "str", "", "PDN Event tag of recorded games."),
    Option("game", "site", "str", "", "PDN Site tag of recorded games."),
    Option("game", "white", "str", "", "PDN White tag (player name) in record mode."),
    Option("game", "black", "str", "", "PDN Black tag (player name) in record mode."),
    # [engine]
    Option("engine", "kind", "str", "builtin",
           "builtin: the bundled engine; hub: an external engine speaking the Hub protocol.",
           choices=ENGINE_KINDS),
    Option("engine", "level", "int", 5, "Strength of the built-in engine, 1 (beginner) to 10.",
           minimum=1, maximum=10),
    Option("engine", "depth", "int", 0, "Fixed search depth in plies; 0 lets the level decide.",
           minimum=0, maximum=64),
    Option("engine", "movetime_ms", "int", 0,
           "Fixed thinking time per move in ms; 0 lets the level decide.", minimum=0,
           maximum=600_000),
    Option("engine", "hub_command", "list[str]", [],
           "argv of an external Hub engine, e.g. [\"/opt/scan/scan\", \"hub\"]. "
           "Run without a shell."),
    Option("engine", "hub_timeout_s", "float", 10.0,
           "Timeout for every exchange with the external engine.", minimum=0.1, maximum=600),
    Option("engine", "hub_cwd", "str", "",
           "Working directory of the Hub engine (Scan reads scan.ini and data/ there); empty: "
           "the directory of its program."),
    Option("engine", "hub_params", "table", {},
           "Parameters sent to the Hub engine, e.g. { book = true, threads = 2 }. Not variant: "
           "the board sets it."),
    Option("engine", "hub_handshake_timeout_s", "float", 10.0,
           "Timeout of the Hub engine's handshake.", minimum=0.1, maximum=600),
    Option("engine", "hub_init_timeout_s", "float", 120.0,
           "Timeout of the Hub engine's init (Scan loads its bitbases).", minimum=0.1,
           maximum=3600),
    Option("engine", "hub_search_timeout_s", "float", 300.0,
           "Longest Hub search with only a depth or node limit.", minimum=0.1, maximum=86_400),
    Option("engine", "hub_search_margin_s", "float", 2.0,
           "Grace after a time limit before stop is sent to the Hub engine.", minimum=0.0,
           maximum=600),
    Option("engine", "hub_stop_timeout_s", "float", 5.0,
           "How long the Hub engine may take to answer stop.", minimum=0.1, maximum=600),
    Option("engine", "hub_movetime_s", "float", 1.0,
           "Hub engine's time per move when no other limit is set.", minimum=0.01,
           maximum=3600),
    Option("engine", "seed", "int", 0, "Seed of the engine's randomisation (opening variety).",
           minimum=0, maximum=2**32 - 1),
    # [timing]
    Option("timing", "scan_hz", "int", 100, "Sensor scans per second.", minimum=10, maximum=1000),
    Option("timing", "debounce_ms", "int", 20,
           "A square's change counts once it has read the same for this long.", minimum=0,
           maximum=1000),
    Option("timing", "stuck_ms", "int", 3000,
           "A cell that keeps flapping this long is reported as a fault.", minimum=100,
           maximum=600_000),
    Option("timing", "settle_ms", "int", 300,
           "Wait before accepting a move that could still be extended (a sliding flying king).",
           minimum=0, maximum=10_000),
    Option("timing", "error_ms", "int", 2000,
           "Show correction guidance after the board has been wrong this long.", minimum=0,
           maximum=60_000),
    Option("timing", "takeback_ms", "int", 1500,
           "Hold an earlier position this long to take back to it.", minimum=0, maximum=60_000),
    Option("timing", "newgame_ms", "int", 1500,
           "Hold the initial position this long to start a new game.", minimum=0,
           maximum=60_000),
    # [board]
    Option("board", "id", "str", "board1",
           "Board id: prefixes every Redis key, so many boards can share one Redis."),
    Option("board", "sensors", "str", "sim", "Sensor backend.", choices=SENSOR_BACKENDS),
    Option("board", "leds", "str", "sim", "LED backend.", choices=LED_BACKENDS),
    Option("board", "buttons", "str", "sim", "Button backend.", choices=BUTTON_BACKENDS),
    Option("board", "transform", "str", "identity",
           "How the sensor matrix is turned relative to the board.", choices=TRANSFORMS),
    Option("board", "cell_map", "list[int]", [],
           "Calibrated map (written by `draughtsboard calibrate`): for each square index, the "
           "sensor cell row*cols+col. Empty: the standard map."),
    Option("board", "rgb", "bool", False, "The LEDs can show colours (else patterns only)."),
    # [gpio_matrix]
    Option("gpio_matrix", "row_pins", "list[int]", [],
           "GPIO (BCM) pins driving the matrix rows, in row order."),
    Option("gpio_matrix", "column_pins", "list[int]", [],
           "GPIO (BCM) pins reading the matrix columns, in column order."),
    Option("gpio_matrix", "active_high", "bool", True,
           "Rows are driven high to select (columns read high when a switch is closed)."),
    Option("gpio_matrix", "settle_us", "int", 10,
           "Delay between driving a row and reading the columns.", minimum=0, maximum=10_000),
    Option("gpio_matrix", "internal_pull", "bool", True,
           "Use the Pi's internal pull resistors on the column inputs."),
    # [shift_register]
    Option("shift_register", "load_pin", "int", 25, "GPIO (BCM) pin to PL (parallel load).",
           minimum=0, maximum=53),
    Option("shift_register", "clock_pin", "int", 11, "GPIO pin to CLK (bit-banged mode).",
           minimum=0, maximum=53),
    Option("shift_register", "data_pin", "int", 9, "GPIO pin from Q7 of the last register.",
           minimum=0, maximum=53),
    Option("shift_register", "spi_bus", "int", 0, "SPI bus when spidev is available.",
           minimum=0, maximum=6),
    Option("shift_register", "spi_device", "int", 0, "SPI chip select.", minimum=0, maximum=3),
    Option("shift_register", "use_spi", "bool", True,
           "Read through spidev when present; bit-bang through gpiozero otherwise."),
    Option("shift_register", "active_low", "bool", True,
           "A closed switch reads 0 (pull-up wiring)."),
    Option("shift_register", "chips", "int", 0,
           "Number of 74HC165 chips in the chain; 0: one per 8 squares, rounded up.", minimum=0,
           maximum=32),
    Option("shift_register", "spi_hz", "int", 500_000, "SPI clock of the chain.",
           minimum=1000, maximum=32_000_000),
    # [serial]
    Option("serial", "port", "str", "/dev/serial/by-id/draughtsboard",
           "Port URL of the microcontroller (a by-id path survives re-plugging)."),
    Option("serial", "baudrate", "int", 115200, "Serial speed.", minimum=1200,
           maximum=4_000_000),
    Option("serial", "link_timeout_s", "float", 3.0,
           "No frame for this long means the link is lost.", minimum=0.5, maximum=60),
    Option("serial", "reconnect_s", "float", 1.0,
           "While the link is lost, try to reopen the port this often.", minimum=0.1,
           maximum=60),
    Option("serial", "connect_timeout_s", "float", 5.0,
           "How long to wait for the microcontroller's HELLO.", minimum=0.1, maximum=60),
    Option("serial", "debounce_ms", "int", 5, "Debounce time done on the microcontroller.",
           minimum=0, maximum=1000),
    # [leds]
    Option("leds", "brightness", "float", 0.5, "LED brightness, 0..1.", minimum=0.0,
           maximum=1.0),
    Option("leds", "spi_bus", "int", 0, "SPI bus of the ws2812/max7219 LEDs.", minimum=0,
           maximum=6),
    Option("leds", "spi_device", "int", 0, "SPI chip select of the LEDs.", minimum=0, maximum=3),
    Option("leds", "order", "str", "GRB",
           "Colour order of the ws2812 LEDs (any order of R, G, B).",
           choices=("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")),
    Option("leds", "wiring", "str", "grid",
           "How the LED strip runs: a full grid row by row, a serpentine grid, or one LED per "
           "playing square.", choices=("grid", "grid-serpentine", "squares")),
    Option("leds", "block_orientation", "int", 0, "max7219 block orientation.",
           choices=(0, 90, -90, 180)),
    # [buttons]
    Option("buttons", "adjust_pin", "int", -1, "GPIO pin of the adjust button; -1: none.",
           minimum=-1, maximum=53),
    Option("buttons", "hint_pin", "int", -1, "GPIO pin of the hint button; -1: none.",
           minimum=-1, maximum=53),
    Option("buttons", "takeback_pin", "int", -1, "GPIO pin of the takeback button; -1: none.",
           minimum=-1, maximum=53),
    Option("buttons", "newgame_pin", "int", -1, "GPIO pin of the new-game button; -1: none.",
           minimum=-1, maximum=53),
    Option("buttons", "resign_pin", "int", -1, "GPIO pin of the resign button; -1: none.",
           minimum=-1, maximum=53),
    Option("buttons", "draw_pin", "int", -1, "GPIO pin of the draw button; -1: none.",
           minimum=-1, maximum=53),
    Option("buttons", "done_pin", "int", -1, "GPIO pin of the done button; -1: none.",
           minimum=-1, maximum=53),
    Option("buttons", "pull_up", "bool", True,
           "Buttons connect the pin to ground (internal pull-up)."),
    Option("buttons", "bounce_ms", "int", 20, "Debounce time of the buttons.", minimum=0,
           maximum=1000),
    # [sim]
    Option("sim", "wiring", "str", "grid",
           "How the simulated board's sensors are wired: a full grid, only the playing squares "
           "(compact), or a shift-register chain.", choices=("grid", "compact", "chain")),
    Option("sim", "sensing", "str", "presence",
           "What the simulated sensors see: presence only, or piece colours.",
           choices=("presence", "colour")),
    Option("sim", "bounce_ms", "int", 0,
           "Fault injection: random contact bounce for this long after every lift and place.",
           minimum=0, maximum=1000),
    Option("sim", "bounce_toggles", "int", 4, "Fault injection: toggles per bounce.",
           minimum=0, maximum=100),
    Option("sim", "glitch_rate", "float", 0.0,
           "Fault injection: probability that a cell misreads for one scan.", minimum=0.0,
           maximum=1.0),
    Option("sim", "stuck_occupied", "list[int]", [],
           "Fault injection: sensor cells (row*cols+col) that always read occupied.",
           minimum=0, maximum=143),
    Option("sim", "stuck_empty", "list[int]", [],
           "Fault injection: sensor cells (row*cols+col) that always read empty.",
           minimum=0, maximum=143),
    Option("sim", "dead_rows", "list[int]", [],
           "Fault injection: sensor rows that read nothing.", minimum=0, maximum=11),
    Option("sim", "seed", "int", 0, "Seed of the fault injection.", minimum=0,
           maximum=2**32 - 1),
    # [store]
    Option("store", "url", "str", "memory",
           "memory (keeps nothing across restarts) or redis://[:password@]host:port/db.",
           secret=True),
    Option("store", "games_dir", "str", "/var/lib/draughtsboard/games",
           "Directory of the PDN files (one per game, rewritten after every move)."),
    Option("store", "spool_dir", "str", "/var/lib/draughtsboard/spool",
           "Where events wait on disk while Redis is unreachable."),
    # [log]
    Option("log", "level", "str", "info", "Log level.", choices=LOG_LEVELS),
)

#: Pins named by options, checked for use twice. Options of a backend that is not selected are
#: ignored by that check.
PIN_OPTIONS: dict[str, tuple[str, ...]] = {
    "gpio-matrix": ("gpio_matrix.row_pins", "gpio_matrix.column_pins"),
    "shift-register": ("shift_register.load_pin", "shift_register.clock_pin",
                       "shift_register.data_pin"),
    "gpio": ("buttons.adjust_pin", "buttons.hint_pin", "buttons.takeback_pin",
             "buttons.newgame_pin", "buttons.resign_pin", "buttons.draw_pin",
             "buttons.done_pin"),
}


def options_by_path() -> dict[str, Option]:
    """Return the options keyed by their dotted path."""
    return {option.path: option for option in OPTIONS}
