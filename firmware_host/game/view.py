"""What the LEDs should show: explicit facts in, one frame out.

The session keeps the facts of the turn that matter for the LEDs in a :class:`TurnView` (a
hint, a correction, the lifted piece, ...) and hands :func:`frame_for` a :class:`LedFacts` made
of them and of the game; which layers of the LED language (:mod:`firmware_host.feedback.leds`)
each state shows is the table :data:`LAYERS`.

>>> facts = LedFacts(state=State.GAME_OVER, view=TurnView(), over=True, num_squares=32)
>>> len(frame_for(facts))  # a draw lights every square
32
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from types import MappingProxyType

from engine import Board
from engine.outcome import Outcome
from engine.types import Move, Square
from firmware_host.feedback import leds
from firmware_host.feedback.roles import Role
from firmware_host.game.types import State
from firmware_host.recognition.recogniser import MoveIndex
from firmware_host.recognition.resolution import InProgress
from firmware_host.terms.settings import Mode

Diff = tuple[frozenset[Square], frozenset[Square]]


@dataclass
class TurnView:
    """The facts behind the LEDs; reset at every new turn except the crown reminder."""

    #: (missing, extra) of the board against the current target, while it is wrong.
    error: Diff | None = None
    #: The correction shown (after ``error_ms``); follows the board once shown.
    correction: Diff | None = None
    #: (missing, extra) towards the position to set up (re-sync, new game): shown at once.
    sync: Diff | None = None
    #: A position set up by the lights (firmware_host/game/setup.py): each square's light,
    #: the piece to put there by colour and crown or the piece to take off; shown at once.
    placing: Mapping[Square, Role] | None = None
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
    #: A move in progress that can still become several moves (what is left lights once it
    #: has held for ``error_ms``: ``stuck_shown``).
    stuck: InProgress | None = None
    stuck_shown: bool = False

    def reset(self) -> None:
        """Forget everything (a new game, a recovery): the crown reminder too."""
        for item in fields(self):
            setattr(self, item.name, item.default)

    def new_turn(self) -> None:
        """Forget everything that belonged to the previous turn."""
        crown = self.crown
        for item in fields(self):
            setattr(self, item.name, item.default)
        self.crown = crown


@dataclass(frozen=True)
class LedFacts:
    """Everything a frame is made of, in one value."""

    state: State
    view: TurnView
    #: The stable occupancy of the board.
    occupied: frozenset[Square] = frozenset()
    #: Legal moves of the piece whose destinations are shown (touched, or lifted in teach).
    destinations: Sequence[Move] = ()
    #: The computer's move to carry out.
    pending: Move | None = None
    #: The pieces of the side to move (the adjust window lights them).
    own_pieces: Sequence[Square] = ()
    #: The game is over (its result shows).
    over: bool = False
    #: The winner's pieces; None on a draw (every square lights).
    winner_squares: Sequence[Square] | None = None
    num_squares: int = 0
    #: Squares whose sensor is faulty (``fault`` role, above everything else).
    faults: frozenset[Square] = frozenset()
    #: The side to move has under a minute: this corner of its home row blinks (``clock``
    #: role) when nothing else is lit. None: no clock, or time enough.
    low_time: Square | None = None
    #: The lights that guide a move show (a touched piece's destinations, the pieces that must
    #: capture, the rest of a move being made, a hint); off in a rated game (``board.guidance``).
    guidance: bool = True


def _correction(facts: LedFacts) -> list[leds.Layer]:
    correction = facts.view.correction
    return leds.correction(*correction) if correction is not None else []


def _sync(facts: LedFacts) -> list[leds.Layer]:
    placing = facts.view.placing
    if placing is not None:
        return [(role, [square]) for square, role in placing.items()]
    sync = facts.view.sync
    return leds.correction(*sync) if sync is not None else []


def _human(facts: LedFacts) -> list[leds.Layer]:
    view = facts.view
    layers = _correction(facts)
    if not facts.guidance:
        return layers
    if view.guide is not None:
        layers += leds.move_to_carry_out(view.guide, facts.occupied)
    elif view.stuck is not None and view.stuck_shown:
        layers += leds.what_is_left(view.stuck.to_remove, view.stuck.to_land)
    if facts.destinations:
        layers += leds.legal_destinations(facts.destinations)
    if view.must:
        layers += leds.must_capture(view.must)
    if view.hint is not None:
        layers += leds.hint(view.hint)
    return layers


def _adjusting(facts: LedFacts) -> list[leds.Layer]:
    return _correction(facts) + leds.adjust(facts.own_pieces)


def _pending(facts: LedFacts) -> list[leds.Layer]:
    layers = _correction(facts)
    if facts.pending is not None:
        layers += leds.move_to_carry_out(facts.pending, facts.occupied)
    return layers


def _over(facts: LedFacts) -> list[leds.Layer]:
    if not facts.over:
        return []
    winner = None if facts.winner_squares is None else sorted(facts.winner_squares)
    return leds.result(winner, facts.num_squares)


#: The layers each state shows (the crown reminder is added in every state).
LAYERS: Mapping[State, Callable[[LedFacts], list[leds.Layer]]] = MappingProxyType({
    State.SYNCING: _sync,
    State.SETTING_UP: _sync,
    State.HUMAN_TO_MOVE: _human,
    State.MOVE_IN_PROGRESS: _human,
    State.ADJUSTING: _adjusting,
    State.ENGINE_THINKING: _correction,
    State.COMPUTER_MOVE_PENDING: _pending,
    State.GAME_OVER: _over,
    State.PAUSED: _sync,
})


def led_facts(*, state: State, view: TurnView, mode: Mode, board: Board, index: MoveIndex,
              occupied: frozenset[Square], obligation: Square | None, pending: Move | None,
              outcome: Outcome | None, faults: frozenset[Square] = frozenset(),
              low_time: Square | None = None, guidance: bool = True) -> LedFacts:
    """The facts of a session's turn that its LEDs show: the touched (or, in teach mode,
    lifted) piece's moves, the pieces of the side to move, the winner's pieces."""
    piece = obligation
    if piece is None and mode is Mode.TEACH:
        piece = view.lifted
    winner: list[Square] | None = None
    if outcome is not None and outcome.winner is not None:
        winner = [sq for sq, p in board.pieces().items() if int(p.color) == outcome.winner]
    return LedFacts(
        state=state, view=view, occupied=occupied,
        destinations=() if piece is None else index.moves_from(piece),
        pending=pending,
        own_pieces=[sq for sq, p in board.pieces().items() if p.color == board.turn]
        if state is State.ADJUSTING else (),
        over=outcome is not None, winner_squares=winner,
        num_squares=board.variant.num_squares, faults=faults,
        low_time=None if outcome is not None else low_time, guidance=guidance,
    )


def frame_for(facts: LedFacts) -> dict[Square, Role]:
    """The LED frame the facts call for."""
    layers = LAYERS[facts.state](facts)
    layers += leds.crown(facts.view.crown)
    if facts.faults:
        layers += leds.sensor_fault(facts.faults)
    if facts.low_time is not None:
        layers += leds.low_time(facts.low_time, layers)
    return leds.build(layers)
