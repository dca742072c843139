"""The orientation check at service start: is the board turned 180° on its sensors?

:func:`check_at_start` takes the cell map in use, the first stable occupancy read through it and
the position the game is in (:func:`position_readings`), and says whether the board stands as
the map says, is turned round (then with the map that reads it right, the ``board.transform``
that stores that map when one can, and a message for the user), or cannot tell. The service
calls it once, after the first stable scan has started the game.

It can only help when the position tells its two halves apart: a resumed game, or any
position on colour sensors. Presence-only sensors cannot tell a symmetric position (every
standard initial position) from its half turn: that is ``AMBIGUOUS``, and nothing is said.

>>> from board_io.geometry import CellMap
>>> from firmware_host.recognition.layout import layout_for
>>> cell_map = CellMap.identity(layout_for("international"))
>>> advice = check_at_start(cell_map, {0, 1}, {49, 48})        # two pieces, seen turned round
>>> advice.orientation, advice.transform
(<Orientation.TURNED: 'turned'>, 'rotate180')
>>> print(advice.message)
the board seems turned 180°: set board.transform = "rotate180" in the configuration, or turn the board round
>>> check_at_start(cell_map, {0, 1}, {0, 1}).message is None   # as the map says: nothing to say
True
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from board_io.geometry import CellMap, Occupancy, Orientation, check_orientation
from board_io.types import Reading, Square
from engine import WHITE, Board

__all__ = ["HALF_TURN", "OrientationAdvice", "check_at_start", "position_readings"]

#: The transform that turns the map of each transform by a half turn of the sensor matrix
#: (the transforms form a group: mirroring and turning commute and undo themselves).
HALF_TURN: Mapping[str, str] = MappingProxyType({
    "identity": "rotate180",
    "rotate180": "identity",
    "mirror": "mirror-rotate180",
    "mirror-rotate180": "mirror",
})

#: A king's reading -> its man's (crowns are not compared).
_UNCROWNED = MappingProxyType({Reading.WHITE_KING: Reading.WHITE,
                               Reading.BLACK_KING: Reading.BLACK})

#: The colour-sensor reading of a piece: (white, king) -> reading.
_READING = MappingProxyType({
    (True, False): Reading.WHITE, (False, False): Reading.BLACK,
    (True, True): Reading.WHITE_KING, (False, True): Reading.BLACK_KING,
})


@dataclass(frozen=True)
class OrientationAdvice:
    """What :func:`check_at_start` found.

    ``orientation``: ``AS_IS``, ``TURNED``, ``AMBIGUOUS`` (a symmetric position cannot tell) or
    ``MISMATCH`` (matches neither way: the board is not set up, or is a move away).
    ``cell_map``: the map to read the board with from now on (the flipped one when ``TURNED``,
    else the map given). ``transform``: the ``board.transform`` value that stores the flipped
    map (None when only a recalibration can, or when nothing is turned). ``message``: what to
    tell the user, None when there is nothing to say.
    """

    orientation: Orientation
    cell_map: CellMap
    transform: str | None = None
    message: str | None = None

    @property
    def turned(self) -> bool:
        """The board stands turned 180° on its sensors."""
        return self.orientation is Orientation.TURNED


def check_at_start(cell_map: CellMap, occupied: Occupancy, expected: Occupancy, *,
                   transform: str = "identity") -> OrientationAdvice:
    """Compare the first stable occupancy with the position the game is in.

    ``occupied``: the first stable occupancy, read through ``cell_map`` (the squares, or square
    -> :class:`~board_io.types.Reading` on colour sensors); ``expected``: the game's position
    (:func:`position_readings`, or its occupied squares); colours are compared only when both
    carry them, crowns never (not every colour sensor sees them). ``transform``: the
    configured ``board.transform`` (already applied to ``cell_map``), from which the transform
    that fixes a turned board is worked out.

    >>> from board_io.geometry import CellMap
    >>> from firmware_host.recognition.layout import layout_for
    >>> layout = layout_for("english")
    >>> start = Board("english")
    >>> check_at_start(CellMap.identity(layout), start.occupied_squares(),
    ...                position_readings(start)).orientation     # presence alone cannot tell
    <Orientation.AMBIGUOUS: 'ambiguous'>

    Raises:
        ValueError: ``transform`` is not a ``board.transform`` value.
        board_io.errors.BoardIOError: the layout cannot be turned 180°.
    """
    if transform not in HALF_TURN:
        raise ValueError(f"unknown board.transform {transform!r}")
    check = check_orientation(cell_map, _uncrowned(occupied), _uncrowned(expected))
    if check.orientation is not Orientation.TURNED:
        return OrientationAdvice(check.orientation, cell_map)
    # A transform turns the sensor matrix; that equals turning the board only when the map
    # is symmetric (every standard wiring is; a calibrated one may not be).
    if cell_map.sensor_rotated180() == check.cell_map:
        fix = HALF_TURN[transform]
        return OrientationAdvice(
            check.orientation, check.cell_map, fix,
            f"the board seems turned 180°: set board.transform = \"{fix}\" in the "
            "configuration, or turn the board round")
    return OrientationAdvice(
        check.orientation, check.cell_map, None,
        "the board seems turned 180°: turn the board round, or run `draughtsboard calibrate "
        "--write` with the board as it stands")


def position_readings(board: Board) -> dict[Square, Reading]:
    """What colour sensors would read on ``board``: square -> reading (kings as kings).

    >>> position_readings(Board("english", "W:W32:BK1"))
    {0: <Reading.BLACK_KING: 5>, 31: <Reading.WHITE: 2>}
    """
    return {sq: _READING[piece.color is WHITE, piece.king]
            for sq, piece in sorted(board.pieces().items())}


def _uncrowned(occupancy: Occupancy) -> Occupancy:
    if not isinstance(occupancy, Mapping):
        return occupancy
    return {sq: _UNCROWNED.get(Reading(r), Reading(r)) for sq, r in occupancy.items()}
