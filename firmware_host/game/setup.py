"""Any position set up by the lights: what to light, given the position wanted and the board.

Presence sensors see that a square holds a piece, never its colour or its crown. So the board
keeps what it *knows* stands on each square (the pieces of the position it showed before: the
start position, the game before a new one) and lights, square by square:

- an empty square the position wants filled: the piece to put there, by colour and crown
  (:attr:`~firmware_host.feedback.roles.Role.SET_WHITE`, ``SET_BLACK``, ``SET_WHITE_KING``,
  ``SET_BLACK_KING``);
- a piece to take off (:attr:`~firmware_host.feedback.roles.Role.EXTRA`): on a square the
  position wants empty, or a known piece of the wrong colour or crown (it comes off, and the
  square then lights the piece to put there).

A piece put on a lit square is taken to be the one its light asked for (the sensors cannot
say otherwise); a square emptied forgets what stood there. The position is set when the board
holds exactly its squares and no piece is known to be wrong. The hands may work in any order,
lift the wrong piece, put one down where nothing is wanted: the lights follow the board.

>>> from engine import Board
>>> start = Board("english")                 # Black's men on 1-12, White's on 21-32
>>> target = Board("english", fen="W:WK1,5:B20").pieces()  # a white king on 1, a man on 5
>>> setup = SetUp.towards(target, start.pieces(), start.occupied_squares())
>>> lights = setup.lights(start.occupied_squares())
>>> lights[0].name, lights[4].name, lights[19].name  # Black's men on 1 and 5 come off
('EXTRA', 'EXTRA', 'SET_BLACK')
>>> board = frozenset({0})        # every piece off, then the white king put on 1
>>> setup = setup.seen(frozenset()).seen(board)
>>> sorted((sq + 1, role.name) for sq, role in setup.lights(board).items())
[(5, 'SET_WHITE'), (20, 'SET_BLACK')]
>>> board = frozenset({0, 4, 19})
>>> setup.seen(board).done(board)
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from engine import Board
from engine.errors import DraughtsError
from engine.pdn import read_games
from engine.types import Color, Piece, Square
from engine.variant import Variant
from firmware_host.feedback.roles import Role
from firmware_host.terms.commands import MAX_POSITION_LENGTH

__all__ = ["FIELDS", "PUT", "SetUp", "position_fen", "told"]

#: The light that asks for a piece: by its colour and whether it is a king.
PUT: Mapping[tuple[Color, bool], Role] = MappingProxyType({
    (Color.WHITE, False): Role.SET_WHITE, (Color.BLACK, False): Role.SET_BLACK,
    (Color.WHITE, True): Role.SET_WHITE_KING, (Color.BLACK, True): Role.SET_BLACK_KING,
})

#: The ``setup`` event's field for each light (the squares it lights).
FIELDS: Mapping[Role, str] = MappingProxyType({
    Role.SET_WHITE: "white", Role.SET_BLACK: "black", Role.SET_WHITE_KING: "white_kings",
    Role.SET_BLACK_KING: "black_kings", Role.EXTRA: "remove",
})


def _same(a: Piece, b: Piece) -> bool:
    return a.color == b.color and a.king == b.king


@dataclass(frozen=True)
class SetUp:
    """A position being set up: ``target`` the pieces wanted, ``known`` the pieces known to
    stand on the board (on occupied squares; a square filled since it was last empty holds
    the piece its light asked for, or an unknown piece where none was asked)."""

    target: Mapping[Square, Piece]
    known: Mapping[Square, Piece]

    @classmethod
    def towards(cls, target: Mapping[Square, Piece], standing: Mapping[Square, Piece],
                occupied: frozenset[Square]) -> SetUp:
        """Begin setting up ``target`` on a board that shows ``occupied``, where the pieces
        of ``standing`` are (those on an occupied square: the others are gone)."""
        return cls(MappingProxyType(dict(target)),
                   MappingProxyType({sq: p for sq, p in standing.items() if sq in occupied}))

    def seen(self, occupied: frozenset[Square]) -> SetUp:
        """What is known once the board shows ``occupied``: an emptied square forgets its
        piece, a square filled since holds what its light asked for."""
        known = {sq: p for sq, p in self.known.items() if sq in occupied}
        for sq in occupied:
            if sq not in known and sq in self.target:
                known[sq] = self.target[sq]
        return SetUp(self.target, MappingProxyType(known))

    def wrong(self, occupied: frozenset[Square]) -> frozenset[Square]:
        """The occupied squares whose piece must come off: none wanted there, or a known
        piece of the wrong colour or crown."""
        return frozenset(
            sq for sq in occupied
            if sq not in self.target or (sq in self.known
                                          and not _same(self.known[sq], self.target[sq])))

    def lights(self, occupied: frozenset[Square]) -> dict[Square, Role]:
        """What each square lights on a board showing ``occupied`` (nothing: it is right)."""
        frame = {sq: Role.EXTRA for sq in self.wrong(occupied)}
        for sq, piece in self.target.items():
            if sq not in occupied:
                frame[sq] = PUT[(Color(piece.color), piece.king)]
        return dict(sorted(frame.items()))

    def done(self, occupied: frozenset[Square]) -> bool:
        """Whether the board, showing ``occupied``, holds the position."""
        return occupied == frozenset(self.target) and not self.wrong(occupied)


def told(lights: Mapping[Square, Role], name: Callable[[Square], object]
         ) -> dict[str, list[object]]:
    """The ``setup`` event's fields for ``lights``: each light's squares by ``name``.

    >>> told({0: Role.SET_WHITE, 3: Role.EXTRA, 5: Role.SET_WHITE}, lambda sq: sq + 1)
    {'white': [1, 6], 'black': [], 'white_kings': [], 'black_kings': [], 'remove': [4]}
    """
    return {field: [name(sq) for sq, role in sorted(lights.items()) if role is lit]
            for lit, field in FIELDS.items()}


def position_fen(variant: Variant, text: str) -> str:
    """The position ``text`` names, as a FEN of ``variant``: a FEN, or a PDN game (its
    ``FEN`` tag and moves: the position at its end, as a study or a puzzle is written).

    >>> from engine.variant import find_variant
    >>> position_fen(find_variant("english"), " W:W21:B1 ")
    'W:W21:B1'
    >>> position_fen(find_variant("english"), '[FEN "W:W21:B1"] 1. 21-17 *')
    'B:W17:B1'
    >>> position_fen(find_variant("english"), "W:W1:B5")
    Traceback (most recent call last):
    ...
    ValueError: not a position of english: white man on its promotion row at 1 ...

    Raises:
        ValueError: ``text`` is no position of the variant (one line saying why).
    """
    text = text.strip()
    if not text or len(text) > MAX_POSITION_LENGTH:
        raise ValueError("no position: give a FEN or a PDN game")
    try:
        if text.startswith("["):
            games = read_games(text, variant=variant)
            if not games:
                raise ValueError("no game in the PDN text")
            if games[0].variant.name != variant.name:
                raise ValueError(f"the game is {games[0].variant.name}")
            return games[0].board().fen()
        return Board(variant, fen=text).fen()
    except (DraughtsError, ValueError) as exc:
        raise ValueError(f"not a position of {variant.name}: {exc}") from None
