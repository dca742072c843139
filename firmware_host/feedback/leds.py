"""The builders of LED frames from game facts.

A frame maps squares to the :class:`~firmware_host.feedback.roles.Role` that lights them (the
table of roles, their patterns and colours: :mod:`firmware_host.feedback.roles`). It is built
from *layers*: a role and the squares it lights. When two layers claim one square, the role
of the lowest rank wins (:attr:`~firmware_host.feedback.roles.Light.rank`), so a correction
always shows over a hint, a capture still to remove over the path, and so on. :func:`leds`
turns a frame into board_io's patterns and colours.

>>> frame = build([(Role.FROM, [21]), (Role.TO, [17])])
>>> sorted((sq, role.name) for sq, role in frame.items())
[(17, 'TO'), (21, 'FROM')]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from board_io.types import Led
from engine.types import Move, Square
from firmware_host.feedback.roles import Light, Role

Layer = tuple[Role, Iterable[Square]]
Frame = Mapping[Square, Role]


def leds(frame: Mapping[Square, Light]) -> dict[Square, Led]:
    """The frame as board_io shows it: each square's pattern and colour.

    >>> leds({3: Role.REMOVE})
    {3: Led(pattern=<Pattern.SLOW: 'slow'>, colour=(255, 0, 0))}
    """
    return {square: role.led for square, role in frame.items()}


def build(layers: Iterable[Layer]) -> dict[Square, Role]:
    """Merge layers into one frame, the role of the lowest rank winning on each square
    (corrections matter most, the board being wrong, then what the player must do now, then
    advice).

    >>> build([(Role.HINT, [3]), (Role.MISSING, [3])])[3].name
    'MISSING'
    """
    chosen: dict[Square, Role] = {}
    for role, squares in layers:
        for square in squares:
            current = chosen.get(square)
            if current is None or role.rank < current.rank:
                chosen[square] = role
    return dict(sorted(chosen.items()))


def move_to_carry_out(move: Move, occupied: frozenset[Square]) -> list[Layer]:
    """Layers telling what is still to do to carry out ``move`` on a board showing ``occupied``.

    ``move`` is an ``engine.Move`` (origin, destination, path, captures). The origin is lit while
    the piece is still there, the path and destination until the piece has landed, and every
    captured piece still on the board blinks "remove". Used for the computer's reply and for the
    guidance of a human move that has a single candidate left.

    >>> from types import SimpleNamespace as M
    >>> m = M(origin=21, destination=12, path=(12,), captures=(16,))
    >>> sorted((r.name, list(s)) for r, s in move_to_carry_out(m, frozenset({12, 16})))
    [('REMOVE', [16])]
    """
    origin, destination = move.origin, move.destination
    landed = destination in occupied and (origin == destination or origin not in occupied)
    if origin == destination:
        # A circular capture: the piece ends where it started; only the captures tell progress.
        landed = destination in occupied and not (set(move.captures) & occupied)
    layers: list[Layer] = [(Role.REMOVE, [sq for sq in move.captures if sq in occupied])]
    if not landed:
        if origin != destination and origin in occupied:
            layers.append((Role.FROM, [origin]))
        layers.append((Role.TO, [destination]))
        layers.append((Role.PATH, [sq for sq in move.path[:-1] if sq not in (origin,)]))
    return layers


def what_is_left(to_remove: Iterable[Square], to_land: Iterable[Square]) -> list[Layer]:
    """Layers of a move in progress that can still become several moves: the captured pieces
    still to take off, and where the piece may land.

    >>> [(r.name, s) for r, s in what_is_left([20], [14, 9])]
    [('REMOVE', [20]), ('LEGAL', [9, 14])]
    """
    return [(Role.REMOVE, sorted(set(to_remove))), (Role.LEGAL, sorted(set(to_land)))]


def correction(missing: Iterable[Square], extra: Iterable[Square]) -> list[Layer]:
    """Layers of correction guidance: put a piece on ``missing``, take it off ``extra``.

    >>> [r.name for r, _ in correction([4], [9])]
    ['MISSING', 'EXTRA']
    """
    return [(Role.MISSING, list(missing)), (Role.EXTRA, list(extra))]


def legal_destinations(moves: Iterable[Move]) -> list[Layer]:
    """Layers showing where a lifted piece may go: each move's destination (and its captures).

    >>> from types import SimpleNamespace as M
    >>> [list(s) for _, s in legal_destinations([M(destination=17), M(destination=18)])]
    [[17, 18]]
    """
    return [(Role.LEGAL, sorted({m.destination for m in moves}))]


def must_capture(squares: Iterable[Square]) -> list[Layer]:
    """Layers blinking the pieces that must capture."""
    return [(Role.MUST, sorted(set(squares)))]


def hint(move: Move) -> list[Layer]:
    """Layers showing a hinted move: its origin, landing squares and destination."""
    return [(Role.HINT, [move.origin, *move.path])]


def adjust(squares: Iterable[Square]) -> list[Layer]:
    """Layers showing that an adjust window is open (on the pieces of the side to move)."""
    return [(Role.ADJUST, sorted(set(squares)))]


def crown(squares: Iterable[Square]) -> list[Layer]:
    """Layers asking the player to crown the pieces on ``squares``."""
    return [(Role.CROWN, sorted(set(squares)))]


def result(winner_squares: Sequence[Square] | None, all_squares: int) -> list[Layer]:
    """Layers of a finished game: the winner's pieces, or every square on a draw.

    >>> [list(s) for _, s in result(None, 4)]
    [[0, 1, 2, 3]]
    """
    squares = range(all_squares) if winner_squares is None else winner_squares
    return [(Role.RESULT, list(squares))]


def sensor_fault(squares: Iterable[Square]) -> list[Layer]:
    """Layers marking squares whose sensor is faulty (``recognition.health`` findings).

    Above every other role, so no correction is ever shown on such a square.

    >>> build(sensor_fault([5]) + correction([], [5]))[5].name
    'FAULT'
    """
    return [(Role.FAULT, sorted(set(squares)))]


def low_time(square: Square, others: Iterable[Layer]) -> list[Layer]:
    """The low-time corner (the side to move has under a minute): ``square`` blinking slowly,
    only when ``others`` light nothing, so it never hides or muddles a move being shown, a
    correction or a hint.

    >>> [(r.name, s) for r, s in low_time(45, [])]
    [('CLOCK', [45])]
    >>> low_time(45, [(Role.TO, [17])])
    []
    """
    if any(True for _, squares in others for _ in squares):
        return []
    return [(Role.CLOCK, [square])]


def to_data(frame: Mapping[Square, Light],
            name: Callable[[Square], object] = str) -> dict[str, list[str]]:
    """Render a frame as plain data for the event bus: square name -> [pattern, role].

    ``name`` turns a square index into its name (the variant's PDN name).

    >>> to_data({2: Role.TO}, name=lambda sq: str(sq + 1))
    {'3': ['on', 'to']}
    """
    return {str(name(square)): [light.pattern.value, light.word]
            for square, light in frame.items()}
