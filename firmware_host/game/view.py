"""What the LEDs should show, as a function of the session's state: facts in, one frame out.

The session keeps the facts that matter for the LEDs in a :class:`SessionView` (a hint, a
correction, the lifted piece, ...); :func:`frame_for` turns them and the state into layers of the
LED language (:mod:`firmware_host.feedback.leds`). Which layers each state shows is the table
:data:`LAYERS`.

>>> SessionView().correction is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

from board_io.types import Led
from engine.types import Move
from firmware_host.feedback import leds
from firmware_host.game.types import Mode, State

Square = int
Diff = tuple[frozenset[Square], frozenset[Square]]


@dataclass
class SessionView:
    """The facts behind the LEDs; reset at every new turn except the crown reminder."""

    #: (missing, extra) of the board against the current target, while it is wrong.
    error: Diff | None = None
    #: The correction shown (after ``error_ms``); follows the board once shown.
    correction: Diff | None = None
    #: (missing, extra) towards the position to set up (re-sync, new game): shown at once.
    sync: Diff | None = None
    #: The single legal move a human move in progress can still become.
    guide: Move | None = None
    #: The own piece lifted off the board (teach mode shows where it may go).
    lifted: Square | None = None
    #: Pieces that must capture (teach: start of turn; any mode: after a refused quiet move).
    must: frozenset[Square] = frozenset()
    #: The engine's suggestion.
    hint: Move | None = None
    #: Promoted pieces to crown (presence sensors cannot see crowns).
    crown: frozenset[Square] = frozenset()
    #: The occupancy last refused, so a refusal is published once.
    refused_at: frozenset[Square] | None = field(default=None)

    def new_turn(self) -> None:
        """Forget everything that belonged to the previous turn."""
        crown = self.crown
        for item in fields(self):
            setattr(self, item.name, item.default)
        self.crown = crown


def _correction(session: Any) -> list[leds.Layer]:
    view: SessionView = session._view
    layers: list[leds.Layer] = []
    if view.correction is not None:
        layers += leds.correction(*view.correction)
    return layers


def _sync(session: Any) -> list[leds.Layer]:
    view: SessionView = session._view
    return leds.correction(*view.sync) if view.sync is not None else []


def _human(session: Any) -> list[leds.Layer]:
    view: SessionView = session._view
    layers = _correction(session)
    if view.guide is not None:
        layers += leds.move_to_carry_out(view.guide, session.occupied)
    piece = session.obligation if session.obligation is not None else None
    if piece is None and session.config.mode is Mode.TEACH:
        piece = view.lifted
    if piece is not None:
        layers += leds.legal_destinations(session._index.moves_from(piece))
    if view.must:
        layers += leds.must_capture(view.must)
    if view.hint is not None:
        layers += leds.hint(view.hint)
    return layers


def _adjusting(session: Any) -> list[leds.Layer]:
    own = [sq for sq, p in session.board.pieces().items() if p.color == session.board.turn]
    return _correction(session) + leds.adjust(own)


def _pending(session: Any) -> list[leds.Layer]:
    layers = _correction(session)
    if session.pending is not None:
        layers += leds.move_to_carry_out(session.pending, session.occupied)
    return layers


def _over(session: Any) -> list[leds.Layer]:
    outcome = session.outcome
    if outcome is None:
        return []
    winner = None
    if outcome.winner is not None:
        winner = sorted(sq for sq, p in session.board.pieces().items()
                        if int(p.color) == outcome.winner)
    return leds.result(winner, session.variant.num_squares)


#: The layers each state shows (the crown reminder is added in every state).
LAYERS: Mapping[State, Callable[[Any], list[leds.Layer]]] = MappingProxyType({
    State.SYNCING: _sync,
    State.SETTING_UP: _sync,
    State.HUMAN_TO_MOVE: _human,
    State.MOVE_IN_PROGRESS: _human,
    State.ADJUSTING: _adjusting,
    State.ENGINE_THINKING: _correction,
    State.COMPUTER_MOVE_PENDING: _pending,
    State.GAME_OVER: _over,
})


def frame_for(session: Any) -> dict[Square, Led]:
    """The LED frame of ``session`` now."""
    layers = LAYERS[session.state](session)
    layers += leds.crown(session._view.crown)
    return leds.build(layers)
