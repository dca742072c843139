"""The arbiter's carry: the game of a board that failed goes on on a spare board.

The command ``carry`` (:data:`~firmware_host.terms.commands.CommandName.CARRY`) reaches the spare
board with ``value`` ``"<board>/<game id>"`` (the board that failed and its game) and ``tag``
the arbiter's reason. The spare board checks it: its own game must not have begun (no move, no
result: a board set up and waiting), the game must be readable from the boards' Redis, in the
spare board's variant, and not finished. Then

1. the spare board opens a game of its own that carries the game on: its tags (the players'
   names, the round), its start and every move as recorded there, with their clock fields, and
   the note ``arbiter: carried on from hall-3 (game ..., ply 41; the reason)``, a comment of
   its PDN after the last move (:meth:`~firmware_host.game.game.Game.adopt`);
2. its clock is the game's as the failed board last saved it (its session, saved with every
   move and every 5 seconds while the clock runs), else each side's time after its last move;
   the clock is held (:meth:`~firmware_host.game.timekeeper.Timekeeper.carried`): the arbiter
   resumes it once the position stands;
3. the players are guided to set the position up, square by square (the ``syncing`` state and
   its *missing* and *extra* lights, as after a takeback); the game goes on from there.

The audit log has the decision (web/arbiter.py), and the round's pairing moves to the spare
board, so the round's export finds the game there. A command that does not fit is refused
(``command_refused`` with ``reason`` ``in_game``, ``bad_value``, ``no_game``, ``variant`` or
``game_over``); nothing changes. :func:`plan_carry` checks and returns the :class:`Carry`; the
session carries it out (``Session.carry``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass

from firmware_host.game.game import Game
from firmware_host.game.types import Refused
from firmware_host.store.errors import StoreError
from firmware_host.store.records import GameRecord
from firmware_host.terms.commands import Command

__all__ = ["Carry", "adopt_refused", "plan_carry"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Carry:
    """A checked carry: ``record`` (the failed board's game) goes on here with ``note`` in its
    record; ``clock``: its clock as that board last saved it (None: as its last move left it,
    or none)."""

    record: GameRecord
    note: str
    clock: Mapping[str, object] | None


def _refused(reason: str, detail: str) -> Refused:
    log.info("carry refused (%s): %s", reason, detail)
    return Refused(reason, command="carry")


def plan_carry(game: Game, event: Command) -> Carry:
    """The carry ``event`` asks of this board's ``game`` (module docstring); the session
    carries it out (:meth:`~firmware_host.game.game.Game.adopt` refuses a game that does not
    replay: ``no_game``, nothing changed).

    Raises:
        Refused: the command does not fit (nothing changes).
    """
    if game.game_id is None or game.started:
        raise _refused("in_game", "this board's game has begun: the spare board must be free")
    source, _, game_id = (event.value or "").partition("/")
    if not source or not game_id:
        raise _refused("bad_value", f"{event.value!r}: expected <board>/<game id>")
    try:
        record, saved = game.load_other(source, game_id)
    except (StoreError, ValueError) as exc:
        raise _refused("no_game", f"game {game_id} of {source}: {exc}") from None
    if record.variant != game.variant.name:
        raise _refused("variant", f"the game is {record.variant}, this board plays "
                       f"{game.variant.name}")
    if record.finished:
        raise _refused("game_over", f"game {game_id} of {source} is over ({record.result})")
    reason = (event.tag or "").strip()
    note = (f"arbiter: carried on from {source} (game {game_id}, ply {len(record.moves)}"
            + (f"; {reason}" if reason else "") + ")")
    session = saved if saved and saved.get("game_id") == game_id else None
    raw = None if session is None else session.get("clock")
    return Carry(record, note, raw if isinstance(raw, dict) else None)


def adopt_refused(carry: Carry, exc: ValueError) -> Refused:
    """The refusal of a carried game that does not replay here."""
    return _refused("no_game", f"{carry.note}: the game does not replay: {exc}")
