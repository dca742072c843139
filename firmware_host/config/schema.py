"""The one configuration schema: the service's keys plus the keys board_io declares.

Every key is one :class:`~board_io.options.Option` (type, default, allowed values, doc, secret,
who reads it). The keys board_io reads are declared in board_io (:mod:`board_io.schema`, the
backend names in :mod:`board_io.registry`); this module adds the service's own and puts them all
in :data:`OPTIONS`, section by section. From that one tuple come the validation
(:mod:`~firmware_host.config.loader`), the example file ``systemd/draughtsboard.toml``
(:mod:`~firmware_host.config.example`) and the table in ``docs/configuration.md``
(:mod:`~firmware_host.config.docs`); tests check both files are up to date.

Example:
    >>> by_path = options_by_path()
    >>> by_path["timing.stuck_ms"].allowed(), by_path["timing.crown_ms"].default
    ('100..600000', 1500)
    >>> board_id_from_hostname("Club-Pi.local"), board_id_from_hostname("")
    ('club-pi-local', 'board1')
"""

from __future__ import annotations

import re
import socket
from collections.abc import Callable, Mapping
from typing import Protocol, TypeVar

from board_io import registry
from board_io.options import Option
from board_io.schema import TRANSFORMS
from firmware_host.config import buttons, places
from firmware_host.follow.address import problem as follow_source_problem
from firmware_host.store.keys import BOARD_ID as _BOARD_ID
from firmware_host.store.keys import SHARED
from firmware_host.store.urls import store_url_problem
from firmware_host.terms.commands import SIDES
from firmware_host.terms.settings import (
    CLOCK_TIME_CONTROL,
    ENGINE_LEVEL,
    ENGINE_PONDER,
    GAME_MODE,
    GAME_TOUCH_MOVE,
    GAME_VARIANT,
)
from firmware_host.terms.timecontrol import duration_of

__all__ = [
    "BUTTON_BACKENDS", "ENGINE_KINDS", "LED_BACKENDS", "LOG_LEVELS", "OPTIONS",
    "SECTIONS", "SENSOR_BACKENDS", "SERVICE_OPTIONS", "TRANSFORMS",
    "Settings", "board_id_from_hostname", "default_board_id", "options_by_path",
]

ENGINE_KINDS = ("builtin", "hub")
LOG_LEVELS = ("debug", "info", "warning", "error")
SENSOR_BACKENDS = tuple(registry.SENSOR_BACKENDS)
LED_BACKENDS = tuple(registry.LED_BACKENDS)
BUTTON_BACKENDS = tuple(registry.BUTTON_BACKENDS)

#: The tables of the configuration file, in the order the example and the docs show them.
SECTIONS = ("game", "follow", "remote", "engine", "timing", "clock", "board", "gpio_matrix",
            "shift_register", "serial", "leds", "buttons", "sim", "store", "coach", "web", "voice",
            "log")

T = TypeVar("T")


class Settings(Protocol):
    """What a part that reads the configuration needs: ``config[OPTION]``, the option's value
    (validated, or its default) typed by the option. :class:`~firmware_host.config.Config` is
    one."""

    def __getitem__(self, option: Option[T], /) -> T: ...


_SERVICE = ("service",)


def board_id_from_hostname(hostname: str) -> str:
    """A board id made from a host name: lower case, runs of anything but ``a-z0-9`` as one
    ``-``, at most 63 characters; ``board1`` when nothing is left.

    Example:
        >>> board_id_from_hostname("Pi 4 (hall)"), board_id_from_hostname("--")
        ('pi-4-hall', 'board1')
    """
    cleaned = re.sub(r"[^a-z0-9]+", "-", hostname.lower()).strip("-")[:63].rstrip("-")
    return cleaned if cleaned and cleaned not in SHARED else f"{cleaned[:55]}-board1".lstrip("-")


def default_board_id() -> str:
    """``board.id`` when the file does not set it: this machine's host name, as an id."""
    return board_id_from_hostname(socket.gethostname())


def _follow_source_problem(text: str) -> str | None:
    problem = follow_source_problem(text)
    return None if problem is None else f"= {problem}"


def _board_id_problem(board_id: str) -> str | None:
    if board_id.lower() in SHARED:
        return (f"= {board_id!r} is the name of a key every board shares in Redis "
                f"({', '.join(SHARED)}): choose another board id")
    if _BOARD_ID.fullmatch(board_id):
        return None
    return (f"= {board_id!r} is not a board id: letters, digits, - and _, starting with a "
            "letter or digit, at most 63 characters (it prefixes Redis keys)")


def _language_problem(language: str) -> str | None:
    from firmware_host.i18n import LANGUAGES, resolve_language

    if resolve_language(language) is not None:
        return None
    return f"= {language!r} is not a language of the board: {', '.join(LANGUAGES)}"


def _listen_problem(listen: str) -> str | None:
    host, sep, port = listen.rpartition(":")
    if sep and host and port.isdigit() and 0 < int(port) < 65536:
        return None
    return f"= {listen!r} is not host:port (e.g. 127.0.0.1:8080)"


def _arbiters_problem(names: list[str]) -> str | None:
    for name in names:
        if not name.strip() or len(name) > 40 or not name.isprintable():
            return f"= {name!r}: a name is 1 to 40 printable characters"
    if len(set(names)) != len(names):
        return "names an arbiter twice"
    return None


def _duration_problem(text: str) -> str | None:
    try:
        duration_of(text)
    except ValueError:
        return (f"= {text!r} is not a length of time (minutes, or with h, m, s: 30, 1h, 45m; "
                "0: none)")
    return None


def _hub_params_problem(params: Mapping[str, object]) -> str | None:
    if "variant" in params:
        return "may not set variant: the board sets it from game.variant"
    return None


def _int(path: str, default: int, doc: str, minimum: int, maximum: int) -> Option[int]:
    return Option(path, "int", default, doc, minimum=minimum, maximum=maximum, readers=_SERVICE)


def _float(path: str, default: float, doc: str, minimum: float, maximum: float
           ) -> Option[float]:
    return Option(path, "float", default, doc, minimum=minimum, maximum=maximum,
                  readers=_SERVICE)


def _str(path: str, default: str, doc: str, choices: tuple[str, ...] | None = None
         ) -> Option[str]:
    return Option(path, "str", default, doc, choices=choices, readers=_SERVICE)


def _bool(path: str, default: bool, doc: str) -> Option[bool]:
    return Option(path, "bool", default, doc, readers=_SERVICE)


#: The keys only the service reads (board_io never sees them), one constant each: a read
#: ``config[STORE_URL]`` is typed by its option. The phone's settings (``game.variant``,
#: ``game.mode``, ``game.touch_move``, ``engine.level``, ``engine.ponder``,
#: ``clock.time_control``) are declared with
#: the words the phone and the command line show them by: :mod:`firmware_host.terms.settings`.

# [game]
GAME_HUMAN_SIDE: Option[str] = _str(
    "game.human_side", "white", "The side the human plays in play and teach modes.",
    SIDES)
GAME_ALTERNATIVE_MOVE: Option[bool] = _bool(
    "game.alternative_move", False,
    "Accept a different legal move for the computer's side than the one it showed.")
GAME_TAKEBACK: Option[bool] = _bool(
    "game.takeback", True,
    "Allow takebacks in play and teach modes (never in record mode).")
GAME_BALLOT: Option[str] = _str(
    "game.ballot", "none",
    "English checkers only: each new game opens with a random tournament ballot (recorded "
    "as its first moves; the LEDs guide you to set the position up).",
    ("none", "2-move", "3-move"))
GAME_EVENT: Option[str] = _str(
    "game.event", "", "PDN Event tag of recorded games.")
GAME_SITE: Option[str] = _str(
    "game.site", "", "PDN Site tag of recorded games.")
GAME_WHITE: Option[str] = _str(
    "game.white", "", "PDN White tag (player name) in record mode.")
GAME_BLACK: Option[str] = _str(
    "game.black", "", "PDN Black tag (player name) in record mode.")
GAME_DRAW_MIN_MOVES: Option[int] = _int(
    "game.draw_min_moves", 0,
    "Record mode: a draw may be offered from the offering side's Nth move on (a club's "
    "rule; 0: from the first move). docs/tournament.md.", 0, 200)

# [follow] (firmware_host/follow/: the board mirrors another game, docs/follow.md)
FOLLOW_SOURCE: Option[str] = Option(
    "follow.source", "str", "",
    "Follow another game on this board (run --follow): a board of the hall by its id (the "
    "same store.url), or the http(s):// URL of a PDN broadcast (#N: its Nth game). Its moves "
    "light one at a time for the hand to carry out; empty: not following.",
    readers=_SERVICE, check=_follow_source_problem)
FOLLOW_POLL_S: Option[float] = _float(
    "follow.poll_s", 2.0,
    "How often the followed game is read (seconds).", 0.5, 600.0)

# [remote] (firmware_host/opponents/remote/: a friend's board as the opponent, docs/remote.md)
REMOTE_OPPONENT: Option[str] = Option(
    "remote.opponent", "str", "",
    "Play a person on another board (run --opponent remote:BOARD): that board's id. You play "
    "game.human_side; its moves light here for your hand to carry out. Empty: the engine.",
    readers=_SERVICE, check=lambda text: None if not text else _board_id_problem(text))
REMOTE_URL: Option[str] = Option(
    "remote.url", "str", "",
    "The Redis both boards reach (rediss://board-<id>:PASSWORD@HOST:6380/0?ssl_ca_certs=CA "
    "across the country); empty: store.url.", secret=True, readers=_SERVICE,
    check=lambda text: None if not text else store_url_problem(text))
REMOTE_CLAIM_AFTER_MIN: Option[int] = _int(
    "remote.claim_after_min", 5,
    "Minutes without a heartbeat from the other board, while its player is to move, after "
    "which this board's player may claim the game (a win, or a draw) as online servers let a "
    "player claim against an opponent who left (docs/remote.md).", 1, 1440)

# [engine]
ENGINE_KIND: Option[str] = _str(
    "engine.kind", "builtin",
    "builtin: the bundled engine; hub: an external engine speaking the Hub protocol.",
    ENGINE_KINDS)
ENGINE_DEPTH: Option[int] = _int(
    "engine.depth", 0,
    "Built-in engine: fixed search depth in plies; 0 lets the level decide.", 0, 64)
ENGINE_MOVETIME_MS: Option[int] = _int(
    "engine.movetime_ms", 0,
    "Built-in engine: fixed thinking time per move in ms; 0 lets the level decide.",
    0, 600_000)
ENGINE_HUB_COMMAND: Option[list[str]] = Option(
    "engine.hub_command", "list[str]", [],
    "argv of an external Hub engine, e.g. [\"/opt/scan/scan\", \"hub\"]. Run without a "
    "shell.", readers=_SERVICE)
ENGINE_HUB_TIMEOUT_S: Option[float] = _float(
    "engine.hub_timeout_s", 10.0, "Timeout for every exchange with the external engine.",
    0.1, 600)
ENGINE_HUB_CWD: Option[str] = _str(
    "engine.hub_cwd", "",
    "Working directory of the Hub engine (Scan reads scan.ini and data/ there); empty: the "
    "directory of its program.")
ENGINE_HUB_PARAMS: Option[dict[str, str | int | float]] = Option(
    "engine.hub_params", "table", {},
    "Parameters sent to the Hub engine, e.g. { book = true, threads = 2 }. Not variant: "
    "the board sets it.", readers=_SERVICE, check=_hub_params_problem)
ENGINE_HUB_HANDSHAKE_TIMEOUT_S: Option[float] = _float(
    "engine.hub_handshake_timeout_s", 10.0, "Timeout of the Hub engine's handshake.", 0.1,
    600)
ENGINE_HUB_INIT_TIMEOUT_S: Option[float] = _float(
    "engine.hub_init_timeout_s", 120.0,
    "Timeout of the Hub engine's init (Scan loads its bitbases).", 0.1, 3600)
ENGINE_HUB_SEARCH_TIMEOUT_S: Option[float] = _float(
    "engine.hub_search_timeout_s", 300.0,
    "Longest Hub search with only a depth or node limit.", 0.1, 86_400)
ENGINE_HUB_SEARCH_MARGIN_S: Option[float] = _float(
    "engine.hub_search_margin_s", 2.0,
    "Grace after a time limit before stop is sent to the Hub engine.", 0.0, 600)
ENGINE_HUB_STOP_TIMEOUT_S: Option[float] = _float(
    "engine.hub_stop_timeout_s", 5.0, "How long the Hub engine may take to answer stop.",
    0.1, 600)
ENGINE_HUB_DEPTH: Option[int] = _int(
    "engine.hub_depth", 0,
    "Hub engine: search this many plies a move (sent as level depth=N); 0: no depth "
    "limit, the time per move decides.", 0, 99)
ENGINE_HUB_NODES: Option[int] = _int(
    "engine.hub_nodes", 0,
    "Hub engine: search this many nodes a move (level nodes=N); 0: no node limit. At "
    "most one of hub_depth and hub_nodes.", 0, 10**12)
ENGINE_HUB_MOVETIME_S: Option[float] = _float(
    "engine.hub_movetime_s", 1.0,
    "Hub engine: seconds a move (level move-time=S) when hub_depth and hub_nodes are 0. "
    "engine.level never applies to it.", 0.01, 3600)
ENGINE_SEED: Option[int] = _int(
    "engine.seed", 0, "Seed of the engine's randomisation (opening variety).", 0,
    2**32 - 1)

# [timing] (scan_hz, debounce_ms and stuck_ms are board_io's)
TIMING_SETTLE_MS: Option[int] = _int(
    "timing.settle_ms", 300,
    "A piece set down counts as let go once it has stayed this long (every move; the next "
    "lift elsewhere or the opponent's touch counts sooner): docs/players.md.",
    0, 10_000)
TIMING_ERROR_MS: Option[int] = _int(
    "timing.error_ms", 2000,
    "Show correction guidance after the board has been wrong this long.", 0, 60_000)
TIMING_TAKEBACK_MS: Option[int] = _int(
    "timing.takeback_ms", 1500, "Hold an earlier position this long to take back to it.",
    0, 60_000)
TIMING_NEWGAME_MS: Option[int] = _int(
    "timing.newgame_ms", 1500, "Hold the initial position this long to start a new game.",
    0, 60_000)
TIMING_CROWN_MS: Option[int] = _int(
    "timing.crown_ms", 1500,
    "How long the LED on a promoted man says \"crown this piece\".", 0, 60_000)

# [clock]
CLOCK_DEFAULT_TIME: Option[str] = Option(
    "clock.default_time", "str", "0",
    "Default time: a player who has not made a move this long after the clock started (the "
    "round's start) loses by forfeit; minutes, or with h, m, s (30, 1h); 0: none. "
    "docs/tournament.md.", readers=_SERVICE, check=_duration_problem)

CLOCK_DISPLAY_WHITE: Option[str] = _str(
    "clock.display_white", "left",
    "The half of the clock display that shows White's time, as the players see it (the "
    "display stands at the board's side, as a chess clock does). docs/hardware.md.",
    ("left", "right"))

# [board] (the backends, the map and rgb are board_io's)
BOARD_ID: Option[str] = Option(
    "board.id", "str", "board1",
    "Board id: prefixes every Redis key, so many boards can share one Redis (letters, "
    "digits, - and _). Unset: the hostname in lower case, other characters as -, or "
    "board1 if nothing is left.", readers=_SERVICE, check=_board_id_problem,
    default_factory=default_board_id, default_doc="the hostname")
BOARD_LANGUAGE: Option[str] = Option(
    "board.language", "str", "en",
    "The language the board speaks (the terminal, the events' text, the voice): "
    "en, ru, nl, fr, pt_BR, ja or ko (docs/languages.md).", readers=("service", "web"),
    check=_language_problem)
BOARD_GUIDANCE: Option[str] = _str(
    "board.guidance", "auto",
    "The lights that guide a move (a touched piece's destinations, the pieces that must "
    "capture): auto: off in record mode while a round is played (a rated game), on "
    "otherwise; on; off. Correction, result and clock lights always show.",
    ("auto", "on", "off"))

# [store]
STORE_URL: Option[str] = Option(
    "store.url", "str", "memory",
    "memory (keeps nothing across restarts) or redis://[user:password@]host:port/db, "
    "rediss://... (TLS), unix:///path/to/redis.sock, or through Redis Sentinel "
    "redis+sentinel://[user:password@]host:port[,host:port...]/service/db "
    "(docs/high-availability.md).", secret=True,
    readers=_SERVICE, check=store_url_problem)
def _user_path(path: str, leaf: str, doc: str, default: Callable[[], str], user: str,
               readers: tuple[str, ...] = _SERVICE) -> Option[str]:
    """A file or folder of the board: a user's own by default (:mod:`.places`), the installed
    service's under ``/var/lib/draughtsboard/<leaf>``, as ``install.sh`` writes its config."""
    service = str(places.SERVICE_DIR / leaf)
    return Option(path, "str", service, f"{doc} The installed service's config names {service}.",
                  readers=readers, default_factory=default, default_doc=user)


STORE_GAMES_DIR = _user_path(
    "store.games_dir", "games",
    "Directory of the PDN files (one per game, rewritten after every move).",
    places.games_dir, "~/.local/share/draughtsboard/games")
STORE_SPOOL_DIR = _user_path(
    "store.spool_dir", "spool", "Where events wait on disk while Redis is unreachable.",
    places.spool_dir, "~/.local/state/draughtsboard/spool")

# [coach] (firmware_host/coach: the analysis after the game, docs/coach.md)
COACH_ANALYSE: Option[str] = _str(
    "coach.analyse", "idle",
    "The analysis after the game: idle: each finished game is queued and the board analyses "
    "queued games (its own first, then the hall's) while it is idle between games; queue: "
    "queued only (the hall's workers analyse: draughtsboard coach worker); off: neither.",
    ("idle", "queue", "off"))
COACH_DEPTH: Option[int] = _int(
    "coach.depth", 8,
    "Plies every position of a game is searched to by this board's analysis (the same marks "
    "on any machine at the same depth; about a minute a game on a Raspberry Pi 4 at 8).",
    1, 20)
COACH_START: Option[str] = _str(
    "coach.start", "",
    "The coach's exercises the board starts with (as if their button were pressed; a press "
    "stops them): puzzles, drills, or empty: a game. docs/coach.md.",
    ("", "puzzles", "drills"))
COACH_PLAYER: Option[str] = _str(
    "coach.player", "",
    "The player at this board: the puzzles button offers their mistake book first and moves "
    "their puzzle rating (the phone's puzzles command may name another); empty: no one's.")

COACH_MISTAKES_DIR = _user_path(
    "coach.mistakes_dir", "mistakes",
    "Directory of the mistake books: one PDN file of puzzles a player, the wins they missed "
    "in their games (draughtsboard puzzles mistakes; play --puzzles --player offers them "
    "first), and beside them each player's progress (puzzle rating, puzzles solved, "
    "mistakes per game: draughtsboard puzzles progress, the web's /progress).",
    places.mistakes_dir, "~/.local/share/draughtsboard/mistakes", readers=(*_SERVICE, "web"))

# [web] (draughtsboard web; web.control is read by the board service too)
WEB_LISTEN: Option[str] = Option(
    "web.listen", "str", "127.0.0.1:8080",
    "host:port of draughtsboard web. Only localhost unless set: 0.0.0.0:8080 opens it to "
    "the LAN (viewing is open there; control needs the token).", readers=("web",),
    check=_listen_problem)
WEB_CONTROL: Option[bool] = Option(
    "web.control", "bool", True,
    "Control from the web app (new game, settings, hint, takeback, resign, draw, "
    "j'adoube): the board reads its command stream and the web service offers control.",
    readers=("service", "web"))
WEB_TOKEN_FILE = _user_path(
    "web.token_file", "web-token",
    "File of the control token (made on first start, mode 0600); the web service prints its "
    "pairing code.", places.token_file, "~/.local/state/draughtsboard/web-token",
    readers=("web",))
WEB_ARBITERS: Option[list[str]] = Option(
    "web.arbiters", "list[str]", [],
    "The arbiters' names: each gets an arbiter code of their own (draughtsboard web prints "
    "them) and the audit log names who decided. Empty: one arbiter code.", readers=("web",),
    check=_arbiters_problem)
WEB_RATE_PER_MINUTE: Option[int] = Option(
    "web.rate_per_minute", "int", 60,
    "Control requests accepted per minute from one address (more are refused: 429).",
    minimum=1, maximum=10_000, readers=("web",))

# [voice] (firmware_host/voice: espeak-ng through the audio out)
VOICE_ENABLED: Option[bool] = _bool(
    "voice.enabled", False,
    "Speak the computer's moves, refusals and the result aloud (espeak-ng, in "
    "board.language).")
VOICE_COMMAND: Option[str] = _str(
    "voice.command", "espeak-ng",
    "The speech program (espeak-ng's options: -v LANGUAGE and the sentence).")

# [log]
LOG_LEVEL: Option[str] = _str(
    "log.level", "info", "Log level.", LOG_LEVELS)

#: The keys only the service reads, in the order the example and the docs show them.
SERVICE_OPTIONS: tuple[Option[object], ...] = (
    GAME_VARIANT, GAME_MODE, GAME_HUMAN_SIDE, GAME_TOUCH_MOVE, GAME_ALTERNATIVE_MOVE,
    GAME_TAKEBACK, GAME_BALLOT, GAME_EVENT, GAME_SITE, GAME_WHITE, GAME_BLACK,
    GAME_DRAW_MIN_MOVES, FOLLOW_SOURCE, FOLLOW_POLL_S, REMOTE_OPPONENT, REMOTE_URL,
    REMOTE_CLAIM_AFTER_MIN, ENGINE_KIND,
    ENGINE_LEVEL, ENGINE_PONDER, ENGINE_DEPTH, ENGINE_MOVETIME_MS, ENGINE_HUB_COMMAND,
    ENGINE_HUB_TIMEOUT_S,
    ENGINE_HUB_CWD, ENGINE_HUB_PARAMS, ENGINE_HUB_HANDSHAKE_TIMEOUT_S, ENGINE_HUB_INIT_TIMEOUT_S,
    ENGINE_HUB_SEARCH_TIMEOUT_S, ENGINE_HUB_SEARCH_MARGIN_S, ENGINE_HUB_STOP_TIMEOUT_S,
    ENGINE_HUB_DEPTH, ENGINE_HUB_NODES, ENGINE_HUB_MOVETIME_S, ENGINE_SEED, TIMING_SETTLE_MS,
    TIMING_ERROR_MS, TIMING_TAKEBACK_MS, TIMING_NEWGAME_MS, TIMING_CROWN_MS, CLOCK_TIME_CONTROL,
    CLOCK_DEFAULT_TIME, CLOCK_DISPLAY_WHITE, BOARD_ID, BOARD_LANGUAGE, BOARD_GUIDANCE,
    STORE_URL, STORE_GAMES_DIR, STORE_SPOOL_DIR, COACH_ANALYSE, COACH_DEPTH,
    COACH_START, COACH_PLAYER, COACH_MISTAKES_DIR, WEB_LISTEN,
    WEB_CONTROL, WEB_TOKEN_FILE,
    WEB_ARBITERS, WEB_RATE_PER_MINUTE, VOICE_ENABLED, VOICE_COMMAND, LOG_LEVEL,
)


def _by_section(options: tuple[Option[object], ...]) -> tuple[Option[object], ...]:
    order = {section: i for i, section in enumerate(SECTIONS)}
    unknown = {option.section for option in options} - set(order)
    if unknown:
        raise AssertionError(f"sections missing from SECTIONS: {sorted(unknown)}")
    return tuple(sorted(options, key=lambda option: order[option.section]))


#: Every key, section by section (within a section: the service's keys, then board_io's). The
#: buttons' pins are declared from the service's buttons (config/buttons.py): the names are the
#: service's, board_io's ``gpio`` backend reads them.
OPTIONS: tuple[Option[object], ...] = _by_section((*SERVICE_OPTIONS, *buttons.PINS.values(),
                                                   *registry.OPTIONS))


def options_by_path() -> dict[str, Option[object]]:
    """Return the options keyed by their dotted path."""
    return {option.path: option for option in OPTIONS}
