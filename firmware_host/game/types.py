"""The session's vocabulary: its states, modes, settings and the events it handles.

Kept apart from :mod:`firmware_host.game.session` so the controller, the engine worker and the tests
can name states and events without the state machine itself.

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
from typing import Any, Protocol

from engine.types import Color, Move


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


#: The states of a human's turn (touch-move, adjust, hints apply).
HUMAN_STATES = frozenset({State.HUMAN_TO_MOVE, State.MOVE_IN_PROGRESS, State.ADJUSTING})


class Mode(Enum):
    """What the session is for."""

    PLAY = "play"
    RECORD = "record"
    TEACH = "teach"


#: Default touch-move rule per mode (DESIGN.md §3): strict for tournament records only.
DEFAULT_TOUCH_STRICT: Mapping[Mode, bool] = MappingProxyType(
    {Mode.PLAY: False, Mode.RECORD: True, Mode.TEACH: False}
)


@dataclass(frozen=True)
class SessionConfig:
    """The session's settings; every timing in milliseconds (0 allowed).

    ``touch_move`` is ``"strict"``, ``"off"`` or ``"auto"`` (strict in record mode only).

    >>> SessionConfig.from_config({"game.mode": "teach", "timing.error_ms": 500}).error_ms
    500
    """

    mode: Mode = Mode.PLAY
    human_side: Color = Color.WHITE
    touch_move: str = "auto"
    alternative_move: bool = False
    takeback: bool = True
    settle_ms: int = 300
    error_ms: int = 2000
    takeback_ms: int = 1500
    newgame_ms: int = 1500
    crown_ms: int = 1500
    board_id: str = "board1"
    headers: Mapping[str, str] = field(default_factory=dict)

    @property
    def touch_strict(self) -> bool:
        """Whether touch-move is enforced."""
        if self.touch_move == "auto":
            return DEFAULT_TOUCH_STRICT[self.mode]
        return self.touch_move == "strict"

    @property
    def takebacks_allowed(self) -> bool:
        """Takebacks exist in play and teach modes when enabled; never in record mode."""
        return self.takeback and self.mode is not Mode.RECORD

    @property
    def hints_allowed(self) -> bool:
        """Hints exist in play and teach modes; never in record mode."""
        return self.mode is not Mode.RECORD

    @classmethod
    def from_config(cls, config: Any) -> SessionConfig:
        """Build the settings from a :class:`firmware_host.config.Config` (or a path mapping).

        Keys read (defaults in brackets): ``game.mode`` [play], ``game.human_side`` [white],
        ``game.touch_move`` [auto], ``game.alternative_move`` [false], ``game.takeback`` [true],
        ``timing.settle_ms`` [300], ``timing.error_ms`` [2000], ``timing.takeback_ms`` [1500],
        ``timing.newgame_ms`` [1500], ``board.id`` [board1], ``game.event/site/white/black``.

        Raises:
            ValueError: a value is not one of the allowed ones.
        """

        def get(path: str, default: Any) -> Any:
            try:
                return config[path]
            except KeyError:
                return default

        headers = {
            tag: str(get(f"game.{tag.lower()}", ""))
            for tag in ("Event", "Site", "White", "Black")
        }
        return cls(
            mode=Mode(str(get("game.mode", "play"))),
            human_side=Color.WHITE if get("game.human_side", "white") == "white" else Color.BLACK,
            touch_move=str(get("game.touch_move", "auto")),
            alternative_move=bool(get("game.alternative_move", False)),
            takeback=bool(get("game.takeback", True)),
            settle_ms=int(get("timing.settle_ms", 300)),
            error_ms=int(get("timing.error_ms", 2000)),
            takeback_ms=int(get("timing.takeback_ms", 1500)),
            newgame_ms=int(get("timing.newgame_ms", 1500)),
            board_id=str(get("board.id", "board1")),
            headers={k: v for k, v in headers.items() if v},
        )


# -- events the session handles, besides board_io.events ------------------------------------


@dataclass(frozen=True)
class EngineResult:
    """The engine worker finished a job: ``move`` is None when it failed (``error`` says why)."""

    token: int
    purpose: str
    move: Move | None
    at: float
    error: str | None = None
    #: Why the move is good (hints): ``{"kind": ..., "pieces": n, "moves": n}`` each.
    reasons: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True)
class TimerFired:
    """A session timer ran out; stale generations are ignored."""

    name: str
    generation: int
    at: float


@dataclass(frozen=True)
class Command:
    """A request from the CLI or the web: ``resign``, ``draw``, ``adjust``, ``hint``,
    ``takeback``, ``newgame``; ``side`` names who resigns in record mode."""

    name: str
    at: float
    side: str | None = None


@dataclass(frozen=True)
class Reevaluate:
    """Raised internally: look at the board again (after a commit, a takeback, a state change)."""

    at: float


# -- what the session needs from its collaborators ------------------------------------------


@dataclass(frozen=True)
class EngineJob:
    """A search the session asks for: ``purpose`` is ``"reply"`` or ``"hint"``."""

    token: int
    purpose: str
    board: Any


class Thinker(Protocol):
    """Runs engine jobs off the scan thread and posts an :class:`EngineResult` per job."""

    def submit(self, job: EngineJob) -> None:
        """Start ``job``; the result arrives later as an event."""
        ...

    def cancel(self) -> None:
        """Stop the running job, if any; its result, if it still comes, is ignored."""
        ...


class Store(Protocol):
    """The part of the store protocol (docs/architecture.md) the session uses."""

    def new_game(
        self, headers: dict[str, str], variant: str, start_fen: str | None, mode: str
    ) -> str:
        """Open a game and return its id."""
        ...

    def append_move(self, game_id: str, record: Any) -> None:
        """Record a move; returns once durable (write-ahead)."""
        ...

    def truncate(self, game_id: str, ply: int) -> None:
        """Keep the first ``ply`` moves (a takeback)."""
        ...

    def finish(self, game_id: str, result: str, termination: str) -> None:
        """Record the result."""
        ...

    def save_session(self, state: dict[str, Any]) -> None:
        """Keep the live session so a restart resumes it."""
        ...

    def load_session(self) -> dict[str, Any] | None:
        """The saved live session, or None."""
        ...

    def publish(self, event: dict[str, Any]) -> None:
        """Publish a live event."""
        ...
