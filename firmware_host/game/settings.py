"""Settings changed at the board's remote (the web app): they apply from the next new game.

A ``variant``, ``mode``, ``level``, ``touch_move`` or ``time_control`` command is checked and
kept; the next new game (the new-game button, or the initial position set up after a result)
starts with it. Each accepted setting is published as ``settings`` (``pending``: every setting
waiting for the next game); a refused one as ``command_refused`` with its reason;
``settings_applied`` when a new game starts with them. A ``header`` command sets
a PDN tag (players' names, the event, the round) of the game in play at once.

Once applied, the settings are kept (``on_applied``: firmware_host/remote/saved.py) and laid over
the configuration file at the next start.

>>> from firmware_host.game.settings import check_variant
>>> from engine.variant import find_variant
>>> check_variant(find_variant("russian"), "international")
'board_size'
>>> check_variant(find_variant("russian"), "brazilian") is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from types import MappingProxyType

from engine.errors import UnknownVariantError
from engine.variant import Variant, find_variant
from firmware_host.digits import is_whole_number
from firmware_host.game.clock import TimeControlError, control_of
from firmware_host.game.game import Game, Publish
from firmware_host.game.types import Command, Mode, Refused, SessionConfig
from firmware_host.recognition.layout import layout_for

__all__ = ["HEADER_TAGS", "TOUCH_MOVE_VALUES", "Settings", "check_variant"]

#: The PDN tags a ``header`` command may set, and the longest value accepted.
HEADER_TAGS = frozenset({"White", "Black", "Event", "Site", "Round"})
MAX_HEADER_LENGTH = 80
TOUCH_MOVE_VALUES = ("strict", "off", "auto")
#: Applies a new engine level (1-10) to the engine; set by the service that owns the engine.
LevelHook = Callable[[int], None]


def check_variant(current: Variant, name: str) -> str | None:
    """Why ``name`` cannot follow ``current`` on the same board, or None when it can.

    ``unknown_variant``; ``board_size`` (another number of squares: another board);
    ``board_layout`` (the same size, but its squares lie elsewhere on the board).
    """
    try:
        variant = find_variant(name)
    except (UnknownVariantError, ValueError):
        return "unknown_variant"
    here, there = layout_for(current), layout_for(variant)
    if (here.rows, here.cols) != (there.rows, there.cols):
        return "board_size"
    if here.coords != there.coords:
        return "board_layout"
    return None


def _check_time_control(value: str) -> str | None:
    try:
        control_of(value)
    except TimeControlError:
        return "bad_value"
    return None


class Settings:
    """The settings waiting for the next new game of one session.

    Args:
        game: the session's game (its variant, its headers; reconfigured for a new game).
        publish: publishes a live event.
        adopt: called with the session's new config once a new game starts with the settings.
        engine: whether the session has an engine (play and teach modes need one).
        level_hook: applies an engine level; None: the level cannot be changed here.
    """

    def __init__(self, game: Game, publish: Publish, adopt: Callable[[SessionConfig], None],
                 *, engine: bool, level_hook: LevelHook | None = None) -> None:
        self._game = game
        self._publish = publish
        self._adopt = adopt
        self._engine = engine
        self.level_hook = level_hook
        #: Told the settings a new game started with (to keep them: firmware_host/remote).
        self.on_applied: Callable[[Mapping[str, str]], None] | None = None
        self.pending: dict[str, str] = {}
        self._checks: Mapping[str, Callable[[str], str | None]] = MappingProxyType({
            "variant": lambda value: check_variant(self._game.variant, value),
            "mode": self._check_mode,
            "level": self._check_level,
            "touch_move": lambda value: None if value in TOUCH_MOVE_VALUES else "bad_value",
            "time_control": _check_time_control,
        })

    def _check_mode(self, value: str) -> str | None:
        try:
            mode = Mode(value)
        except ValueError:
            return "bad_value"
        return "no_engine" if mode is not Mode.RECORD and not self._engine else None

    def _check_level(self, value: str) -> str | None:
        if not is_whole_number(value, 1, 10):
            return "bad_value"
        return "no_engine" if self.level_hook is None else None

    def set(self, event: Command) -> None:
        """Check and keep the setting ``event.name`` = ``event.value``; publish the outcome."""
        value = (event.value or "").strip()
        reason = self._checks[event.name](value)
        if reason is not None:
            raise Refused(reason, command=event.name, value=value)
        self.pending[event.name] = value
        self._publish("settings", pending=dict(self.pending), applies="next_game")

    def header(self, event: Command) -> None:
        """Set a PDN tag of the game in play."""
        game, publish = self._game, self._publish
        tag, value = event.tag or "", (event.value or "").strip()
        if tag not in HEADER_TAGS or len(value) > MAX_HEADER_LENGTH or not value.isprintable():
            raise Refused("bad_value", command="header", tag=tag)
        if game.game_id is None:
            raise Refused("no_game", command="header", tag=tag)
        game.set_header(tag, value)
        publish("header", tag=tag, value=value, game_id=game.game_id)

    def apply(self, config: SessionConfig) -> None:
        """Start using the pending settings over ``config`` (called as a new game opens): the
        game is reconfigured and the session adopts the new config."""
        if not self.pending:
            return
        pending = self.pending
        self.pending = {}
        variant = find_variant(pending["variant"]) if "variant" in pending else self._game.variant
        mode = Mode(pending["mode"]) if "mode" in pending else config.mode
        config = replace(config, mode=mode,
                         touch_move=pending.get("touch_move", config.touch_move),
                         time_control=pending.get("time_control", config.time_control))
        self._game.reconfigure(variant, mode)
        self._adopt(config)
        if "level" in pending and self.level_hook is not None:
            self.level_hook(int(pending["level"]))
        self._publish("settings_applied", applied=pending, variant=variant.name,
                      mode=mode.value, touch_move=config.touch_move)
        if self.on_applied is not None:
            self.on_applied(pending)
