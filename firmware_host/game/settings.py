"""Settings changed at the board's remote (the web app): they apply from the next new game.

A phone setting's command (:mod:`firmware_host.terms.settings`: ``variant``, ``mode``,
``level``, ``ponder``, ``touch_move``, ``time_control``) is checked and kept; the next new game (the
new-game button, or the initial position set up after a result) starts with it. Each accepted
setting is published as ``settings`` (``pending``: every setting waiting for the next game); a
refused one as ``command_refused`` with its reason; ``settings_applied`` when a new game starts
with them. A ``pair`` command pairs the board with a person's board (or ends the pairing): kept
the same way and applied by the ``pair_hook`` the service gives (it seats the other board's
duel, or the engine, across the board), at once when the game in play has not begun. A
``header`` command sets a PDN tag (players' names, the event, the round) of the
game in play at once.

A value is read by its setting (:meth:`~firmware_host.terms.settings.PhoneSetting.parse`: a
value it refuses is ``bad_value``); what only this board knows is checked here: a variant must
fit the board (:func:`~firmware_host.recognition.layout.check_variant`), play and teach modes
and a level need an engine (``no_engine``); a board that follows another game takes none
(``following``). Once applied, the settings are handed to
``on_applied`` (kept in Redis: firmware_host/remote/saved.py) and laid over the configuration
file at the next start.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields, replace

from engine.types import Color
from engine.variant import find_variant
from firmware_host.game.decisions import Decision, EnterState, Evaluate, Publish
from firmware_host.game.game import Game, Publisher
from firmware_host.game.types import Refused, SessionConfig, State
from firmware_host.recognition.layout import check_variant
from firmware_host.store.keys import board_id_problem
from firmware_host.terms.commands import (
    BOARD_TAGS,
    HEADER_TAGS,
    MAX_HEADER_LENGTH,
    SIDES,
    Command,
)
from firmware_host.terms.settings import Mode, PhoneSetting, setting

__all__ = ["LevelHook", "PairHook", "SavedHook", "Settings"]

#: Applies a new engine level (1-10) to the engine; set by the service that owns the engine.
LevelHook = Callable[[int], None]
#: Told the settings a new game started with (to keep them).
SavedHook = Callable[[Mapping[str, str]], None]
#: Seats a person's board across this one (its id, the side this board's player takes) or,
#: with ``""``, the engine again; set by the service that owns the duel.
PairHook = Callable[[str, Color], None]
#: The session's settings a phone setting of the same name replaces (the others: the variant,
#: the mode and the level have their own effects).
_CONFIG_FIELDS = frozenset(f.name for f in fields(SessionConfig)) - {"mode"}


class Settings:
    """The settings waiting for the next new game of one session.

    Args:
        game: the session's game (its variant, its headers; reconfigured for a new game).
        publish: publishes a live event (``settings_applied``).
        engine: whether the session has an engine (play and teach modes need one).
        level_hook: applies an engine level; None: the level cannot be changed here.
        on_applied: told the settings a new game started with (None: they are not kept).
    """

    def __init__(self, game: Game, publish: Publisher, *, engine: bool,
                 level_hook: LevelHook | None = None, on_applied: SavedHook | None = None,
                 following: bool = False, board_id: str = "",
                 pair_hook: PairHook | None = None) -> None:
        self._game = game
        self._publish = publish
        self._engine = engine
        #: The board follows another game: its variant and mode are that game's.
        self._following = following
        self.level_hook = level_hook
        self.on_applied = on_applied
        self.pending: dict[str, str] = {}
        #: This board's id, and who seats a partner's board across it (None: no Redis both
        #: boards reach: no pairing here).
        self.board_id = board_id
        self.pair_hook = pair_hook
        #: The pairing waiting for the next game: the partner's board ("": the engine) and the
        #: side this board's player takes.
        self.pairing: tuple[str, Color] | None = None

    def _refusal(self, phone: PhoneSetting, value: str) -> str | None:
        """Why this board refuses ``value`` for ``phone`` (None: it takes it)."""
        if phone.problem(value) is not None:
            return "bad_value"
        if self._following:
            return "following"
        if phone.name == "variant":
            return check_variant(self._game.variant, value)
        if phone.name == "mode":
            record = Mode(phone.parse(value)) is Mode.RECORD
            return None if record or self._engine else "no_engine"
        if phone.name == "level":
            return "no_engine" if self.level_hook is None else None
        return None

    def set(self, event: Command) -> list[Decision]:
        """Check and keep the setting ``event.name`` = ``event.value``; say what is pending.

        Raises:
            Refused: not a value of the setting, or not on this board.
        """
        phone = setting(event.name)
        value = (event.value or "").strip()
        if phone is None:  # (the commands' table names every setting)
            raise Refused("unknown", command=event.name)
        reason = self._refusal(phone, value)
        if reason is not None:
            raise Refused(reason, command=event.name, value=value)
        self.pending[event.name] = phone.text(phone.parse(value))
        return [Publish("settings", {"pending": dict(self.pending), "applies": "next_game"})]

    def pair(self, event: Command, begun: bool) -> list[Decision]:
        """Pair this board with the board ``event.value`` (``""``: end the pairing), its
        player taking ``event.side``: from the next game, at once when the game in play has
        not ``begun`` (the board at the start: a new game opens there).

        Raises:
            Refused: a value that is no board's id (``bad_board``, with why), this board itself
                (``self``), a side that is none, no Redis both boards reach (``no_link``), a
                board that follows another game (``following``).
        """
        partner = (event.value or "").strip()
        if self._following:
            raise Refused("following", command=event.name)
        if self.pair_hook is None:
            raise Refused("no_link", command=event.name)
        problem = board_id_problem(partner) if partner else None
        if problem is not None:
            raise Refused("bad_board", command=event.name, value=partner[:80], why=problem)
        if partner and partner == self.board_id:
            raise Refused("self", command=event.name, value=partner)
        if event.side not in (None, *SIDES):
            raise Refused("bad_value", command=event.name)
        side = Color.BLACK if event.side == "black" else Color.WHITE
        self.pairing = (partner, side)
        said: list[Decision] = [Publish("paired", {
            "partner": partner, "side": side.name.lower(), "applies": "next_game",
            **({} if partner else {"reason": "ended"})})]
        if begun:
            return said
        return [*said, EnterState(State.SETTING_UP), Evaluate(event.at)]  # (a new game now)

    def _seat(self, config: SessionConfig) -> SessionConfig:
        """The waiting pairing applied to the new game's ``config`` (its duel or the engine
        seated by the hook; the game's side and the two boards' tags)."""
        if self.pairing is None or self.pair_hook is None:
            return config
        (partner, side), self.pairing = self.pairing, None
        self.pair_hook(partner, side)
        headers = {k: v for k, v in config.headers.items()
                   if k not in ("White", "Black", *BOARD_TAGS.values())}
        if partner:
            white, black = (self.board_id, partner) if side is Color.WHITE \
                else (partner, self.board_id)
            headers.update({"White": white, "Black": black, BOARD_TAGS["white"]: white,
                            BOARD_TAGS["black"]: black})
        # (paired: a game of play mode; unpaired, a board without an engine records again)
        mode = Mode.PLAY if partner else config.mode if self._engine else Mode.RECORD
        self._game.seat(side, headers)
        self._game.reconfigure(self._game.variant, mode)
        return replace(config, remote=bool(partner), partner=partner, human_side=side,
                       mode=mode, headers=headers,
                       alternative_move=config.alternative_move and not partner)

    def header(self, event: Command) -> list[Decision]:
        """Set a PDN tag of the game in play (it is logged at once); say so.

        Raises:
            Refused: not a tag a command sets, a value too long, or no game.
        """
        game = self._game
        tag, value = event.tag or "", (event.value or "").strip()
        if tag not in HEADER_TAGS or len(value) > MAX_HEADER_LENGTH or not value.isprintable():
            raise Refused("bad_value", command="header", tag=tag)
        if game.game_id is None:
            raise Refused("no_game", command="header", tag=tag)
        game.set_header(tag, value)
        return [Publish("header", {"tag": tag, "value": value, "game_id": game.game_id})]

    def apply(self, config: SessionConfig) -> SessionConfig:
        """The session's config of the new game that opens: the pending settings laid over
        ``config`` (the game reconfigured for them, the engine's level set, the settings kept
        and ``settings_applied`` published); ``config`` itself when none is pending."""
        if not self.pending:
            return self._seat(config)
        pending = self.pending
        self.pending = {}
        values = {name: phone.parse(text) for name, text in pending.items()
                  if (phone := setting(name)) is not None}
        variant = find_variant(values["variant"]) if "variant" in values else self._game.variant
        mode = Mode(values["mode"]) if "mode" in values else config.mode
        config = replace(config, mode=mode,
                         **{name: value for name, value in values.items()
                            if name in _CONFIG_FIELDS})
        self._game.reconfigure(variant, mode)
        if "level" in values and self.level_hook is not None:
            self.level_hook(values["level"])
        self._publish("settings_applied", applied=pending, variant=variant.name,
                      mode=mode.value, touch_move=config.touch_move)
        if self.on_applied is not None:
            self.on_applied(pending)
        return self._seat(config)
