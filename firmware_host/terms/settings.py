"""The settings a player changes from the phone (and the command line), each said once.

A :class:`PhoneSetting` is a configuration key's :class:`~board_io.options.Option` (its path,
type, default, choices or range, doc) with the label the board page shows and the placeholder
and help the command line shows. Every room reads them from :func:`phone_settings` (by name,
in the page's order):

- the web's control form (:mod:`firmware_host.web.control`) offers :meth:`PhoneSetting.offered`
  and sends only what :meth:`PhoneSetting.parse` reads;
- the board's command reader (:mod:`firmware_host.remote.reader`) lets their names through;
- the session keeps them for its next game and refuses what :meth:`PhoneSetting.problem`
  refuses (:mod:`firmware_host.game.settings`);
- the settings a game started with are kept and laid over the configuration by their option
  at the next start (:mod:`firmware_host.remote.saved`);
- the command line's ``--variant``, ``--mode``, ``--level``, ``--ponder``, ``--touch-move``
  and ``--time-control`` are made from them (:mod:`firmware_host.cli.options`);
- the configuration schema composes their options (:mod:`firmware_host.config.schema`).

A value is checked in one place, :meth:`PhoneSetting.parse`: the option's own check (choices,
range, a time control's notation) plus what only a setting knows (a variant's name).

>>> level = setting("level")
>>> level.option.path, level.offered()[0], level.offered()[-1], level.flag
('engine.level', '1', '10', '--level')
>>> level.parse(" 7 "), level.problem("11")
(7, "level: '11' is not a whole number 1..10")
>>> setting("mode").parse("teach"), setting("time_control").parse("")
('teach', 'off')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import Any

from board_io.errors import ConfigProblem
from board_io.options import Option
from firmware_host.digits import is_whole_number
from firmware_host.i18n import N_
from firmware_host.terms.timecontrol import control_of

__all__ = ["CLOCK_TIME_CONTROL", "ENGINE_LEVEL", "ENGINE_PONDER", "GAME_MODE", "GAME_TOUCH_MOVE",
           "GAME_VARIANT", "MODES", "PONDER", "SETTINGS", "TOUCH_MOVE", "Mode", "PhoneSetting",
           "phone_settings", "setting"]

_SERVICE = ("service",)


class Mode(Enum):
    """What the session is for."""

    PLAY = "play"
    RECORD = "record"
    TEACH = "teach"
    #: The board mirrors another game move by move (``run --follow``, ``follow.source``):
    #: every move comes from it and the hand carries it out (firmware_host/follow/).
    FOLLOW = "follow"
    #: The last game reviewed on the board, its mistakes lit (firmware_host/coach/review.py):
    #: chosen, it starts a review at once; new-game leaves it for a game in play mode.
    REVIEW = "review"


#: ``game.mode``'s values (following is chosen with its source, ``follow.source``).
MODES = tuple(mode.value for mode in Mode if mode is not Mode.FOLLOW)
#: ``game.touch_move``'s values.
TOUCH_MOVE = ("strict", "off", "auto")
#: ``engine.ponder``'s values.
PONDER = ("auto", "on", "off")


def _time_control_problem(text: str) -> str | None:
    try:
        control_of(text)
    except ValueError as exc:
        reason = str(exc).split(": ", 1)[-1]
        return f"= {text!r}: {reason} (e.g. 3+2: minutes+seconds a move; 40/90+30:30+30)"
    return None


GAME_VARIANT: Option[str] = Option(
    "game.variant", "str", "international",
    "Rules to play: a variant name or alias (see `draughtsboard moves --help`).",
    readers=_SERVICE)
GAME_MODE: Option[str] = Option(
    "game.mode", "str", "play",
    "play: you against the computer; record: two humans, every move logged; teach: play "
    "with LED help; review: the last game stepped through on the board, its mistakes lit "
    "(docs/coach.md).", choices=MODES, readers=_SERVICE)
GAME_TOUCH_MOVE: Option[str] = Option(
    "game.touch_move", "str", "auto",
    "strict: a touched playable piece must be moved; off: casual; auto: strict in record "
    "mode, off in play and teach.", choices=TOUCH_MOVE, readers=_SERVICE)
ENGINE_LEVEL: Option[int] = Option(
    "engine.level", "int", 5,
    "Strength of the built-in engine, 1 (beginner) to 10. A Hub engine has its own: "
    "hub_depth, hub_nodes, hub_movetime_s.", minimum=1, maximum=10, readers=_SERVICE)
ENGINE_PONDER: Option[str] = Option(
    "engine.ponder", "str", "auto",
    "The computer thinks on your time, on the position after the reply it expects (a hit "
    "answers sooner or sees deeper): on; off; auto: on where the machine has a core free for "
    "it. Never in teach mode, whose hints need the engine. docs/levels.md.",
    choices=PONDER, readers=_SERVICE)
CLOCK_TIME_CONTROL: Option[str] = Option(
    "clock.time_control", "str", "",
    "The game clock of new games: minutes+seconds added a move (3+2, 90+30; 80+1m for 80 "
    "minutes and one minute a move), or N/minutes for N moves (40/90+30:30+30); empty or "
    "off: no clock. docs/tournament.md.", readers=_SERVICE, check=_time_control_problem)


def _variant(text: str) -> str:
    """A variant's name from its name or alias (the engine's registry, read when asked)."""
    from engine.variant import find_variant

    return find_variant(text).name


def _variant_names() -> tuple[str, ...]:
    from engine.variant import VARIANTS

    return tuple(variant.name for variant in VARIANTS)


def _clock(text: str) -> str:
    return text or "off"


@dataclass(frozen=True)
class PhoneSetting:
    """One setting of the phone: its configuration key and how people see it.

    ``read`` turns a value that passed the option's type into the one kept (a variant's alias
    into its name; raises ``ValueError``); ``names``: the values offered when the option
    declares no choices (every variant).
    """

    option: Option[Any]
    #: The board page's label of its form (None: no form there; the time control, free text,
    #: comes from scripts and the command line).
    label: str | None
    #: The command line's help and placeholder (None: the choices are listed).
    help: str
    metavar: str | None = None
    read: Callable[[str], Any] | None = None
    names: Callable[[], tuple[str, ...]] | None = None

    @property
    def name(self) -> str:
        """The command's name, the form's and the saved hash's field: the option's key."""
        return self.option.key

    @property
    def flag(self) -> str:
        """The command line's option: ``--touch-move``."""
        return "--" + self.name.replace("_", "-")

    def offered(self) -> tuple[str, ...] | None:
        """The values a form offers, as text (None: free text, such as a time control)."""
        option = self.option
        if option.choices is not None:
            return tuple(str(choice) for choice in option.choices)
        if option.kind == "int" and option.minimum is not None and option.maximum is not None:
            return tuple(str(n) for n in range(int(option.minimum), int(option.maximum) + 1))
        return None if self.names is None else self.names()

    def parse(self, text: str) -> Any:
        """The value ``text`` sets (stripped), typed as the option's.

        Raises:
            ValueError: not a value of this setting; the message names the setting.
        """
        text = text.strip()
        option = self.option
        value: object = text
        if option.kind == "int":
            low, high = int(option.minimum or 0), int(option.maximum or 0)
            if not is_whole_number(text, low, high):
                raise ValueError(f"{self.name}: {text!r} is not a whole number {low}..{high}")
            value = int(text)
        try:
            checked = option.validate(value)
            return checked if self.read is None else self.read(checked)
        except ConfigProblem as exc:
            raise ValueError(f"{self.name}: {exc.text.removeprefix(option.path).lstrip()}"
                             ) from None
        except ValueError as exc:
            raise ValueError(f"{self.name}: {exc}") from None

    def problem(self, text: str) -> str | None:
        """What is wrong with ``text`` as this setting's value (None: nothing)."""
        try:
            self.parse(text)
        except ValueError as exc:
            return str(exc)
        return None

    def text(self, value: object) -> str:
        """A value as a command and the saved settings carry it."""
        return str(value)


#: The phone's settings by name, in the order the board page shows them.
SETTINGS: Mapping[str, PhoneSetting] = MappingProxyType({phone.name: phone for phone in (
    PhoneSetting(GAME_VARIANT, N_("Variant"), "rules to play (name or alias)", "NAME",
                 read=_variant, names=_variant_names),
    PhoneSetting(GAME_MODE, N_("Mode"), "play, record, teach, or review your last game"),
    PhoneSetting(ENGINE_LEVEL, N_("Engine level"), "the computer's strength, 1-10", "N"),
    PhoneSetting(ENGINE_PONDER, N_("Thinking on your time"),
                 "the computer thinks on your time (auto: where a core is free; never in teach "
                 "mode)"),
    PhoneSetting(GAME_TOUCH_MOVE, N_("Touch-move"),
                 "touch-move rule (auto: strict in record mode only)"),
    PhoneSetting(CLOCK_TIME_CONTROL, None,
                 "the game clock: minutes+seconds a move (3+2, 90+30; '80+1m' for one minute a "
                 "move; 40/90+30:30+30 for moves in a period); docs/tournament.md", "M+S",
                 read=_clock),
)})


def phone_settings() -> Mapping[str, PhoneSetting]:
    """Every phone setting by name (read when asked: a test may add one to :data:`SETTINGS`)."""
    return SETTINGS


def setting(name: str) -> PhoneSetting | None:
    """The phone setting called ``name`` (a command's name), or None."""
    return SETTINGS.get(name)
