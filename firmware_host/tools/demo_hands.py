"""The simulated hands of ``draughtsboard demo``: a player's physical actions on the sim board.

Two jobs, both as plain data so they are easy to check:

- :func:`human_steps`: the lifts and placements of a human carrying out their own move, a little
  untidily, as real hands do: the capturing piece sometimes put down on an intermediate landing
  square on its way, captured pieces taken off in a random order, some before the capturing
  piece has landed.
- :func:`next_led_step`: what a player does next when carrying out the computer's reply *by
  reading the LEDs only* (the roles ``from``, ``to``, ``remove``: docs/design.md#led-roles):
  lift the piece lit "from", take off a piece blinking "remove", put the lifted piece on the
  square lit "to".
  It knows nothing of the move itself, so a demo that finishes proves the LED language is
  followable.

Example:
    >>> import random
    >>> from engine import Board
    >>> board = Board("international")
    >>> [(s.action, s.square + 1) for s in human_steps(board, board.parse_move("32-28"),
    ...                                                 random.Random(1))]
    [('lift', 32), ('place', 28)]
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Literal, TypeAlias

from engine import Board, Move, Square
from firmware_host.feedback.roles import Role

__all__ = ["Action", "HandStep", "human_steps", "next_led_step"]

#: What a hand does to a square.
Action: TypeAlias = Literal["lift", "place"]


@dataclass(frozen=True)
class HandStep:
    """One physical action: ``action`` (``"lift"`` or ``"place"``) on ``square``, ``pause_ms``
    after the previous action. ``why`` is a few words for the demo's caption."""

    action: Action
    square: Square
    pause_ms: int
    why: str = ""


def human_steps(board: Board, move: Move, rng: random.Random, *,
                intermediate: float = 0.5, early_removal: float = 0.4,
                think_ms: tuple[int, int] = (1000, 4000)) -> list[HandStep]:
    """The physical steps of a human carrying out the legal ``move`` of ``board``.

    ``intermediate``: the chance of putting the piece down on each intermediate landing square;
    ``early_removal``: the chance that a captured piece is taken off before the capturing piece
    has landed (while it is in the air or resting on a landing square); ``think_ms``: the
    range of the pause before the piece is lifted.

    Raises:
        ValueError: the origin of ``move`` is empty on ``board``.
    """
    if board.piece_at(move.origin) is None:
        raise ValueError(f"no piece on the origin of {board.move_notation(move)}")
    early = [sq for sq in move.captures if rng.random() < early_removal]
    late = [sq for sq in move.captures if sq not in early]
    rng.shuffle(early)
    rng.shuffle(late)
    # A player looks at the board a while before touching a piece.
    steps = [HandStep("lift", move.origin, rng.randint(*think_ms), "lift")]

    def take_off(squares: list[Square], low: int, high: int) -> None:
        for sq in squares:
            if sq in early:
                early.remove(sq)
            if sq in late:
                late.remove(sq)
            steps.append(HandStep("lift", sq, rng.randint(low, high), "take off"))

    for landing in move.path[:-1]:
        if early and rng.random() < 0.5:
            take_off([early[-1]], 100, 300)
        if landing == move.origin or rng.random() >= intermediate:
            continue
        # Turkish: a captured piece is off before the piece lands on its square.
        take_off([sq for sq in early + late if sq == landing], 100, 300)
        # A pause on a landing square stays short: the hand is on its way.
        steps.append(HandStep("place", landing, rng.randint(80, 200), "land on"))
        steps.append(HandStep("lift", landing, rng.randint(60, 150), "lift again"))
    take_off(list(early) + [sq for sq in late if sq == move.destination], 100, 300)
    steps.append(HandStep("place", move.destination, rng.randint(80, 250), "place"))
    take_off(list(late), 150, 400)
    return steps


def next_led_step(frame: Mapping[Square, Role], occupied: Collection[Square],
                  holding: bool, rng: random.Random) -> HandStep | None:
    """The next action of a player carrying out a move shown on the LEDs, or None when the LEDs
    ask for nothing more.

    ``frame`` is the LED frame shown now, ``occupied`` the squares with a piece on them,
    ``holding`` whether the hand holds the piece lifted from the "from" square. The player
    takes off "remove" pieces in a random order, some before the moving piece has landed.

    Example:
        >>> frame = {21: Role.FROM, 17: Role.TO}
        >>> next_led_step(frame, {21}, False, random.Random(0))
        HandStep(action='lift', square=21, pause_ms=600, why='from')
    """
    lit: dict[Role, list[Square]] = {}
    for square, role in sorted(frame.items()):
        lit.setdefault(role, []).append(square)
    remove = [sq for sq in lit.get(Role.REMOVE, ()) if sq in occupied]
    free_to = [sq for sq in lit.get(Role.TO, ()) if sq not in occupied]
    if remove and (not holding or not free_to or rng.random() < 0.4):
        return HandStep("lift", rng.choice(remove), rng.randint(150, 400), "remove")
    if holding and free_to:
        return HandStep("place", free_to[0], rng.randint(150, 500), "to")
    if not holding:
        origins = [sq for sq in lit.get(Role.FROM, ()) if sq in occupied]
        # A circular capture ends where it starts: "to" is lit on the piece that moves.
        origins = origins or [sq for sq in lit.get(Role.TO, ()) if sq in occupied]
        if origins:
            return HandStep("lift", origins[0], 600, "from")
    return None
