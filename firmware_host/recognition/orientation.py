"""The orientation check at service start: is the board turned 180° on its sensors?

When the position read from the sensors matches the expected one only with the board turned
round, the user is told so, with the fix: the ``board.transform`` that turns the map (when a
transform can express it) or a recalibration, or turning the board. Presence-only sensors cannot
tell a symmetric position (every standard initial position) from its half turn: then nothing
is said.

Example:
    >>> from board_io.geometry import CellMap
    >>> from firmware_host.recognition.layout import layout_for
    >>> layout = layout_for("international")
    >>> print(check_start_orientation(layout, CellMap.identity(layout), {0, 1}, {49, 48}))
    the board seems turned 180°: set board.transform = "rotate180" in the configuration, or turn the board round
    >>> check_start_orientation(layout, CellMap.identity(layout), {0, 1}, {0, 1}) is None
    True
"""  # noqa: E501

from __future__ import annotations

from dataclasses import dataclass

from board_io.geometry import (
    CellMap,
    Layout,
    Occupancy,
    Orientation,
    check_orientation,
)

#: The transform that turns the map of each transform by a half turn of the sensor matrix
#: (the transforms form a group: mirroring and turning commute and undo themselves).
HALF_TURN = {
    "identity": "rotate180",
    "rotate180": "identity",
    "mirror": "mirror-rotate180",
    "mirror-rotate180": "mirror",
}


@dataclass(frozen=True)
class OrientationAdvice:
    """What the start check found: ``message`` for the user (None: nothing to say),
    ``cell_map`` the map to use if the user accepts the flip, ``transform`` the
    ``board.transform`` value that stores it (None: only a recalibration can)."""

    orientation: Orientation
    message: str | None
    cell_map: CellMap
    transform: str | None = None


def orientation_advice(layout: Layout, cell_map: CellMap, occupied: Occupancy,
                       expected: Occupancy, *, transform: str = "identity") -> OrientationAdvice:
    """Compare the stable occupancy with the expected position (see the module docs).

    ``transform`` is the configured ``board.transform`` (already applied to ``cell_map``).

    Raises:
        ValueError: ``cell_map`` is for another layout, or ``transform`` is unknown.
        board_io.errors.BoardIOError: the layout cannot be turned 180°.
    """
    if cell_map.layout != layout:
        raise ValueError("the cell map is for another layout")
    if transform not in HALF_TURN:
        raise ValueError(f"unknown board.transform {transform!r}")
    check = check_orientation(cell_map, occupied, expected)
    if check.orientation is not Orientation.TURNED:
        return OrientationAdvice(check.orientation, None, cell_map)
    # A transform turns the sensor matrix; that equals turning the board only when the map
    # is symmetric (every standard wiring is; a calibrated one may not be).
    if cell_map.sensor_rotated180() == check.cell_map:
        fix = HALF_TURN[transform]
        return OrientationAdvice(
            check.orientation,
            f"the board seems turned 180°: set board.transform = \"{fix}\" in the "
            "configuration, or turn the board round", check.cell_map, fix)
    return OrientationAdvice(
        check.orientation,
        "the board seems turned 180°: turn the board round, or run `draughtsboard calibrate "
        "--write` with the board as it stands", check.cell_map)


def check_start_orientation(layout: Layout, cell_map: CellMap, occupied: Occupancy,
                            expected: Occupancy, *, transform: str = "identity") -> str | None:
    """Return the message for the user when the board is turned 180°, else None.

    ``occupied``: the stable occupancy read through ``cell_map`` at start; ``expected``: the
    position the game is in (sets of squares, or square -> reading on colour boards).

    Raises:
        ValueError: ``cell_map`` is for another layout, or ``transform`` is unknown.
    """
    return orientation_advice(layout, cell_map, occupied, expected,
                              transform=transform).message
