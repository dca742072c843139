"""The session's own vocabulary: its states, its config, its timers and the events it handles.

Kept apart from :mod:`firmware_host.game.session` so the controller and the tests can name
states and events without the state machine itself. The words other rooms share with the
session (its modes, the commands, the engine's jobs) are :mod:`firmware_host.terms`'s.

>>> SessionConfig(mode=Mode.RECORD).touch_strict
True
>>> SessionConfig(mode=Mode.PLAY).touch_strict
False
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import Protocol, TypeAlias

from board_io.events import (
    ButtonPressed,
    LinkLost,
    LinkRestored,
    OccupancyChanged,
    SensorFault,
    SensorRecovered,
)
from engine.types import Color
from firmware_host.config.schema import (
    BOARD_GUIDANCE,
    BOARD_ID,
    BOARD_LANGUAGE,
    CLOCK_DEFAULT_TIME,
    FOLLOW_SOURCE,
    GAME_ALTERNATIVE_MOVE,
    GAME_BLACK,
    GAME_DRAW_MIN_MOVES,
    GAME_EVENT,
    GAME_HUMAN_SIDE,
    GAME_SITE,
    GAME_TAKEBACK,
    GAME_WHITE,
    REMOTE_OPPONENT,
    TIMING_CROWN_MS,
    TIMING_ERROR_MS,
    TIMING_NEWGAME_MS,
    TIMING_SETTLE_MS,
    TIMING_TAKEBACK_MS,
    Settings,
)
from firmware_host.errors import DraughtsboardError
from firmware_host.store.records import GameRecord, MoveRecord
from firmware_host.terms.commands import BOARD_TAGS, Command
from firmware_host.terms.jobs import EngineResult
from firmware_host.terms.settings import (
    CLOCK_TIME_CONTROL,
    ENGINE_PONDER,
    GAME_MODE,
    GAME_TOUCH_MOVE,
    Mode,
)
from firmware_host.terms.timecontrol import duration_of


class SessionError(DraughtsboardError, RuntimeError):
    """The session was asked what its state cannot do (a bug: the controller re-syncs)."""


class State(Enum):
    """Every state of the session, declared in one place."""

    #: The board must be brought to the game position (start, resume, after a takeback).
    SYNCING = "syncing"
    #: A human's turn and the board shows the position.
    HUMAN_TO_MOVE = "human_to_move"
    #: A human's turn and the board differs: a move being made, or an error.
    MOVE_IN_PROGRESS = "move_in_progress"
    #: A j'adoube window is open: lifts and placements neither move nor oblige.
    ADJUSTING = "adjusting"
    #: The computer is searching its reply (off the scan thread).
    ENGINE_THINKING = "engine_thinking"
    #: The computer's reply is on the LEDs, waiting to be carried out on the board.
    COMPUTER_MOVE_PENDING = "computer_move_pending"
    #: The game has ended; the result is on the LEDs.
    GAME_OVER = "game_over"
    #: A new game was asked for: waiting for the initial position to be set up.
    SETTING_UP = "setting_up"
    #: A human's turn while the clock is held (the hall's pause, the arbiter's hold of this
    #: board, a corrected position waiting to be set up): no move counts, and a piece out of
    #: place lights at once (firmware_host/game/timekeeper.py: ``Hold``).
    PAUSED = "paused"


#: The states of a human's turn (touch-move, adjust, hints apply).
HUMAN_STATES = frozenset({State.HUMAN_TO_MOVE, State.MOVE_IN_PROGRESS, State.ADJUSTING})


#: Default touch-move rule per mode: strict for tournament records only
#: (docs/design.md#touch-move-and-jadoube).
DEFAULT_TOUCH_STRICT: Mapping[Mode, bool] = MappingProxyType(
    {Mode.PLAY: False, Mode.RECORD: True, Mode.TEACH: False, Mode.FOLLOW: False}
)


@dataclass(frozen=True)
class SessionConfig:
    """The session's settings; every timing in milliseconds (0 allowed).

    ``touch_move`` is ``"strict"``, ``"off"`` or ``"auto"`` (strict in record mode only). The
    defaults are the config schema's (:mod:`firmware_host.config.schema`), not written again here.

    >>> SessionConfig().settle_ms, SessionConfig().touch_move
    (300, 'auto')
    """

    mode: Mode = Mode.PLAY
    human_side: Color = Color.WHITE
    touch_move: str = GAME_TOUCH_MOVE.default
    alternative_move: bool = GAME_ALTERNATIVE_MOVE.default
    takeback: bool = GAME_TAKEBACK.default
    settle_ms: int = TIMING_SETTLE_MS.default
    error_ms: int = TIMING_ERROR_MS.default
    takeback_ms: int = TIMING_TAKEBACK_MS.default
    newgame_ms: int = TIMING_NEWGAME_MS.default
    crown_ms: int = TIMING_CROWN_MS.default
    headers: Mapping[str, str] = field(default_factory=dict)
    #: The time control of new games ('': no clock): firmware_host/terms/timecontrol.py.
    time_control: str = ""
    #: The board has a clock button (``buttons.clock_pin``, or a serial board's button 7): the
    #: player who just moved presses it to switch the clock; without one a move let go does.
    clock_button: bool = False
    #: The board's language (``board.language``): the events' ``text``, firmware_host/i18n.
    language: str = "en"
    #: ``board.guidance``: ``auto`` (off in record mode while a round is played), ``on`` or
    #: ``off``: the lights that guide a move (a touched piece's destinations, the pieces that
    #: must capture). Correction, result, clock and arbiter lights show whatever it says.
    guidance: str = BOARD_GUIDANCE.default
    #: ``game.draw_min_moves``: a draw may be offered from the offering side's Nth move on.
    draw_min_moves: int = GAME_DRAW_MIN_MOVES.default
    #: ``clock.default_time`` in seconds (0: none): the side to move that has not moved that
    #: long after the game's clock started (a round's start) loses by forfeit.
    default_time_s: float = 0.0
    #: The other side is a person on another board (``remote.opponent``): its moves, its clock
    #: and its end of the game come from that board (firmware_host/opponents/remote/).
    remote: bool = False
    #: The id of that board (the game's names are its until the players are named).
    partner: str = ""
    #: This board's id (``board.id``).
    board: str = ""
    #: ``engine.ponder``: ``auto`` (where a core is free), ``on`` or ``off``: the engine thinks
    #: on the human's time after each reply (play mode only: :attr:`pondering`).
    ponder: str = ENGINE_PONDER.default
    #: The machine has a core for the engine besides the service's (``auto`` ponders there);
    #: the service that wires the session knows it.
    spare_core: bool = True

    @property
    def touch_strict(self) -> bool:
        """Whether touch-move is enforced."""
        if self.touch_move == "auto":
            return DEFAULT_TOUCH_STRICT[self.mode]
        return self.touch_move == "strict"

    @property
    def takebacks_allowed(self) -> bool:
        """Takebacks exist in play and teach modes when enabled; never in record mode, nor
        on a board that follows another game (its moves are the other game's), nor against
        a person on another board (not by one side alone)."""
        return self.takeback and self.mode in (Mode.PLAY, Mode.TEACH) and not self.remote

    @property
    def pondering(self) -> bool:
        """Whether the engine thinks on the human's time: in play mode only (teach mode's
        hints need the engine), when ``ponder`` is on, or auto with a spare core.

        >>> SessionConfig(ponder="auto", spare_core=False).pondering
        False
        >>> SessionConfig(mode=Mode.TEACH, ponder="on").pondering
        False
        """
        if self.mode is not Mode.PLAY or self.remote:
            return False
        return self.ponder == "on" or (self.ponder == "auto" and self.spare_core)

    @property
    def hints_allowed(self) -> bool:
        """Hints exist in play and teach modes against the engine; never in record or follow
        mode, nor against a person."""
        return self.mode in (Mode.PLAY, Mode.TEACH) and not self.remote

    @classmethod
    def from_config(cls, config: Settings) -> SessionConfig:
        """Build the settings from a validated :class:`firmware_host.config.Config`.

        Every key has its default in the config schema, so nothing is defaulted here.

        >>> from firmware_host.config import Config
        >>> config = Config.from_mapping({"game": {"mode": "teach"}, "timing": {"error_ms": 500}})
        >>> SessionConfig.from_config(config).error_ms
        500

        Raises:
            ValueError: a value is not one of the allowed ones.
        """
        headers = {"Event": config[GAME_EVENT], "Site": config[GAME_SITE],
                   "White": config[GAME_WHITE], "Black": config[GAME_BLACK]}
        if config[REMOTE_OPPONENT]:  # until the players are named: the two boards
            boards = (config[BOARD_ID], config[REMOTE_OPPONENT])
            white, black = boards if config[GAME_HUMAN_SIDE] == "white" else boards[::-1]
            headers["White"] = headers["White"] or white
            headers["Black"] = headers["Black"] or black
            headers.update({BOARD_TAGS["white"]: white, BOARD_TAGS["black"]: black})
        # Following another game (follow.source): every move is that game's, carried out by
        # the hand; no human side, no clock of its own, no move taken for it.
        following = bool(config[FOLLOW_SOURCE])
        # A person on another board: a game of play mode, the other side's moves from there.
        remote = bool(config[REMOTE_OPPONENT]) and not following
        return cls(
            remote=remote,
            partner=config[REMOTE_OPPONENT] if remote else "",
            board=config[BOARD_ID],
            mode=Mode.FOLLOW if following else Mode.PLAY if remote else Mode(config[GAME_MODE]),
            human_side=Color.WHITE if config[GAME_HUMAN_SIDE] == "white" else Color.BLACK,
            touch_move=config[GAME_TOUCH_MOVE],
            alternative_move=config[GAME_ALTERNATIVE_MOVE] and not following and not remote,
            takeback=config[GAME_TAKEBACK],
            settle_ms=config[TIMING_SETTLE_MS],
            error_ms=config[TIMING_ERROR_MS],
            takeback_ms=config[TIMING_TAKEBACK_MS],
            newgame_ms=config[TIMING_NEWGAME_MS],
            crown_ms=config[TIMING_CROWN_MS],
            headers={k: v for k, v in headers.items() if v},
            time_control="" if following else config[CLOCK_TIME_CONTROL],
            language=config[BOARD_LANGUAGE],
            guidance=config[BOARD_GUIDANCE],
            draw_min_moves=config[GAME_DRAW_MIN_MOVES],
            default_time_s=0.0 if following else float(duration_of(config[CLOCK_DEFAULT_TIME])),
            ponder=config[ENGINE_PONDER],
        )


# -- events the session handles, besides board_io.events ------------------------------------


class TimerName(Enum):
    """The session's timers."""

    #: A move that could still be extended has held: accept it (or refuse what is left).
    SETTLE = "settle"
    #: The board has been wrong for ``error_ms``: show the correction.
    ERROR = "error"
    #: An earlier position has held for ``takeback_ms``: take back to it.
    TAKEBACK = "takeback"
    #: The initial position has held for ``newgame_ms``: start a new game.
    NEWGAME = "newgame"
    #: The adjust window's settle time ran out.
    ADJUST = "adjust"
    #: The crown reminder has shown for ``crown_ms``.
    CROWN = "crown"
    #: Look at the sensors' health again (a stuck switch shows only as time passes).
    HEALTH = "health"
    #: The running side's time may be up (a background timer: firmware_host/game/timekeeper.py).
    FLAG = "flag"
    #: Save the running clock in the session snapshot (a background timer).
    CLOCK_SAVE = "clock_save"


@dataclass(frozen=True)
class TimerFired:
    """A session timer ran out; stale generations are ignored."""

    name: TimerName
    generation: int
    at: float


class Refused(DraughtsboardError):
    """A command that does not apply now: raised by its handler, published by
    :class:`~firmware_host.game.commands.Commands` as the event ``kind`` with ``fields``
    (``command_refused`` with its ``reason``, ``hint_refused``, ...) and answered so.

    >>> Refused("game_over", command="resign").fields
    {'command': 'resign', 'reason': 'game_over'}
    """

    def __init__(self, reason: str, kind: str = "command_refused", **fields: object) -> None:
        super().__init__(reason)
        self.reason = reason
        self.kind = kind
        self.fields: dict[str, object] = {**fields, "reason": reason}


@dataclass(frozen=True)
class Reevaluate:
    """Raised internally: look at the board again (after a commit, a takeback, a state change)."""

    at: float


#: Every event the session handles; each type has exactly one handler.
SessionEvent: TypeAlias = (OccupancyChanged | ButtonPressed | Command | EngineResult | TimerFired
                           | Reevaluate | SensorFault | SensorRecovered | LinkLost | LinkRestored)

#: A published event: plain JSON-ready data with ``event`` and ``at``.
EventData: TypeAlias = dict[str, object]


# -- what the session needs from its collaborators ------------------------------------------


class GameClockHooks(Protocol):
    """What a :class:`~firmware_host.game.game.Game` tells its clock keeper
    (:class:`~firmware_host.game.timekeeper.Timekeeper`) as it logs the game."""

    def new_game(self) -> dict[str, str]:
        """A new game opens; return its clock's PDN tags."""
        ...

    def moved(self, mover: Color, by: str) -> dict[str, float]:
        """``mover`` moved; return the move record's clock fields."""
        ...

    def stopped(self) -> None:
        """The game is over."""
        ...

    def switch(self, side: Color) -> None:
        """A takeback: ``side`` is to move again."""
        ...

    def data(self) -> dict[str, object] | None:
        """The clock for the session snapshot (None: no clock)."""
        ...

    def restore(self, data: object) -> None:
        """Resume the clock of a saved session."""
        ...


class Store(Protocol):
    """The part of the store protocol (docs/architecture.md) the session uses."""

    def new_game(
        self, headers: dict[str, str], variant: str, start_fen: str | None, mode: str, *,
        session: dict[str, object] | None = None
    ) -> str:
        """Open a game and return its id (with ``session``, the snapshot saved with it, its
        game id set by the store: one durable write)."""
        ...

    def append_move(self, game_id: str, record: MoveRecord, *, result: str | None = None,
                    termination: str = "", session: dict[str, object] | None = None) -> None:
        """Record a move (with the result it brings and the session after it: one durable
        write); returns once durable (write-ahead)."""
        ...

    def truncate(self, game_id: str, ply: int, *,
                 session: dict[str, object] | None = None, note: str = "") -> None:
        """Keep the first ``ply`` moves (a takeback; with the session after it); ``note``:
        why (an arbiter's correction)."""
        ...

    def finish(self, game_id: str, result: str, termination: str, *,
               session: dict[str, object] | None = None, note: str = "") -> None:
        """Record the result (with the session after it: one durable write); ``note``: why."""
        ...

    def save_session(self, state: dict[str, object]) -> None:
        """Keep the live session so a restart resumes it."""
        ...

    def load_session(self, board_id: str | None = None) -> dict[str, object] | None:
        """The saved live session (of another board: ``board_id``), or None."""
        ...

    def note(self, game_id: str, ply: int, text: str) -> None:
        """Keep ``text`` in the game's record after its ``ply``-th move (a PDN comment)."""
        ...

    def set_headers(self, game_id: str, headers: dict[str, str]) -> None:
        """Add or change PDN tags of a game (a ``headers`` entry of its log)."""
        ...

    def load_game(self, game_id: str, board_id: str | None = None) -> GameRecord:
        """The logged game (raises KeyError when unknown, ValueError when unreadable)."""
        ...

    def publish(self, event: EventData) -> None:
        """Publish a live event."""
        ...
