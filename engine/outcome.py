"""How a game ended, as data: :class:`Termination`, :class:`Outcome` and PDN result strings.

An :class:`Outcome` says why the game ended, who won (``None`` for a draw) and, for a draw by a
counting rule, which rule. Its :meth:`Outcome.result` gives the PDN result token in the style of
the game's PDN GameType: ``"2-0" / "1-1" / "0-2"`` where the governing federation scores a game
2/1/0 (FMJD international draughts and the 10x10 / 12x12 family), ``"1-0" / "1/2-1/2" / "0-1"``
elsewhere. The first number is the score of the side that moves first: White in most GameTypes,
Black in English (21), American pool (23) and Thai (31), whose PDN 3.0 GameType starts with
``B`` (the PDN standard's repository keeps the PDN 2.0 text for English checkers: ``1-0``
"indicating Black (Red) won the game").

>>> from engine.outcome import Outcome, Termination
>>> from engine.types import WHITE
>>> Outcome(Termination.NO_MOVES, winner=WHITE, gametype=20).result()
'2-0'
>>> Outcome(Termination.DRAW_RULE, None, rule="english-40-moves", gametype=21).result()
'1/2-1/2'
>>> from engine.types import BLACK
>>> Outcome(Termination.NO_MOVES, winner=BLACK, gametype=21).result()   # Black moved first
'1-0'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from engine.types import Color

__all__ = [
    "DECIMAL",
    "FMJD",
    "RESULTS",
    "Outcome",
    "Termination",
    "first_mover",
    "result_style",
]

# Result styles: (white wins, draw, black wins).
FMJD = ("2-0", "1-1", "0-2")
DECIMAL = ("1-0", "1/2-1/2", "0-1")

# PDN 3.0 GameTypes with the "International" result type (2-0 / 1-1 / 0-2); the others use
# the "Default" type (1-0 / 1/2-1/2 / 0-1).
_FMJD_STYLE_GAMETYPES = frozenset({20, 27})

# PDN 3.0 GameTypes whose first mover (the second field of the full tag) is Black.
_BLACK_FIRST_GAMETYPES = frozenset({21, 23, 31})

# Every result token a PDN reader must accept ("0-0": both players lost, e.g. double forfeit).
RESULTS = frozenset({"2-0", "1-1", "0-2", "0-0", "1-0", "0-1", "1/2-1/2", "*"})


class Termination(enum.Enum):
    """Why a game ended."""

    NO_MOVES = "no_moves"
    """The side to move has no legal move (no pieces left, or all blocked)."""
    REPETITION = "repetition"
    """The same position with the same side to move occurred for the third time."""
    DRAW_RULE = "draw_rule"
    """A counting rule of the variant (see :attr:`Outcome.rule`)."""
    RESIGNATION = "resignation"
    DRAW_AGREED = "draw_agreed"
    TIME_FORFEIT = "time"
    """The side to move's time ran out (``Termination("time_forfeit")``, the name records
    written before 2026-12 carry, reads as this too)."""
    FORFEIT = "forfeit"
    ADJUDICATION = "adjudication"
    ABANDONED = "abandoned"
    UNKNOWN = "unknown"
    """The result is known (e.g. from a PDN file) but not why."""

    @classmethod
    def _missing_(cls, value: object) -> Termination | None:
        """The older spelling of a termination.

        >>> Termination("time_forfeit") is Termination.TIME_FORFEIT
        True
        """
        return cls.TIME_FORFEIT if value == "time_forfeit" else None


def result_style(gametype: int | str | None) -> tuple[str, str, str]:
    """Return the (white wins, draw, black wins) tokens used by a PDN GameType.

    ``gametype`` may be the number, the full tag value (``"20,W,10,10,N2,0"``) or ``None``
    (decimal style).

    >>> result_style("20,W,10,10,N2,0")
    ('2-0', '1-1', '0-2')

    Raises:
        ValueError: ``gametype`` is a string that does not start with a number.
    """
    if gametype is None:
        return DECIMAL
    if isinstance(gametype, str):
        head = gametype.split(",", 1)[0].strip()
        if not head.isdigit():
            raise ValueError(f"not a PDN GameType: {gametype!r}")
        gametype = int(head)
    return FMJD if gametype in _FMJD_STYLE_GAMETYPES else DECIMAL


def first_mover(gametype: int | str | None) -> Color:
    """The colour that moves first under a PDN GameType: its ``B``/``W`` field, else PDN 3.0's
    table (Black in 21, 23 and 31). The result tokens are scored from that side.

    >>> first_mover(21).name, first_mover("23,W,8,8,A0,0").name, first_mover(None).name
    ('BLACK', 'WHITE', 'WHITE')
    """
    if gametype is None:
        return Color.WHITE
    if isinstance(gametype, str):
        fields = [f.strip().upper() for f in gametype.split(",")]
        if len(fields) > 1 and fields[1] in ("W", "B"):
            return Color.WHITE if fields[1] == "W" else Color.BLACK
        if not fields[0].isdigit():
            return Color.WHITE
        gametype = int(fields[0])
    return Color.BLACK if gametype in _BLACK_FIRST_GAMETYPES else Color.WHITE


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winner`` is the winning :class:`Color` (``None`` for a draw).

    ``rule`` names the draw rule for :attr:`Termination.DRAW_RULE` (e.g. ``"fmjd-25-moves"``).
    ``gametype`` (the PDN GameType number) only chooses the result style; it takes no part in
    equality.

    >>> Outcome(Termination.RESIGNATION, winner=Color.BLACK).result()
    '0-1'
    """

    termination: Termination
    winner: Color | None
    rule: str | None = None
    gametype: int | str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.winner is not None:
            if self.winner not in (0, 1):
                raise ValueError(f"winner must be WHITE, BLACK or None, not {self.winner!r}")
            object.__setattr__(self, "winner", Color(self.winner))

    @property
    def is_draw(self) -> bool:
        """True when nobody won."""
        return self.winner is None

    def result(self, gametype: int | str | None = None) -> str:
        """Return the PDN result token, in the style of ``gametype`` (else the stored one).

        >>> Outcome(Termination.REPETITION, None, gametype=25).result()
        '1/2-1/2'
        """
        chosen = gametype if gametype is not None else self.gametype
        first, draw, second = result_style(chosen)
        if self.winner is None:
            return draw
        return first if self.winner == first_mover(chosen) else second

    @classmethod
    def from_result(
        cls, text: str, termination: Termination = Termination.UNKNOWN,
        gametype: int | str | None = None,
    ) -> Outcome | None:
        """Parse a PDN result token; ``None`` for ``"*"`` (game not finished) and ``"0-0"``.

        The first number is the score of the GameType's first mover (White unless ``gametype``
        says Black, as English's 21 does).

        >>> Outcome.from_result("0-2").winner
        <Color.BLACK: 1>
        >>> Outcome.from_result("1-0", gametype=21).winner
        <Color.BLACK: 1>

        Raises:
            ValueError: ``text`` is not a PDN result token.
        """
        text = text.strip()
        if text not in RESULTS:
            raise ValueError(f"not a PDN result: {text!r} (expected one of {sorted(RESULTS)})")
        if text in ("*", "0-0"):
            return None
        if text in ("1-1", "1/2-1/2"):
            return cls(termination, None)
        first = first_mover(gametype)
        winner = first if text in ("2-0", "1-0") else first.opponent
        style: int | str | None = 20 if text in ("2-0", "0-2") else gametype
        return cls(termination, winner, gametype=style)
