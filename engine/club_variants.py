"""The club variants beyond the federation main line: Czech, Portuguese, Frisian, Frysk!, Killer,
breakthrough and Thai, each as data on top of the classes of :mod:`engine.rulesets`.

They join :data:`engine.variant.VARIANTS` (the one registry :func:`engine.variant.find_variant`
reads); docs/rules.md gives each rule with its source.

Example:
    >>> from engine.variant import find_variant
    >>> [find_variant(n).pdn_gametype for n in ("czech", "portuguese", "frisian")]
    [29, 28, 40]
    >>> find_variant("frysk!").starting_fen
    'W:W46-50:B1-5'
"""

from __future__ import annotations

from typing import ClassVar

from engine.rulesets import CaptureRule, International, PromotionInCapture, Spanish, Variant
from engine.types import BLACK

__all__ = [
    "CLUB_VARIANTS", "Breakthrough", "Czech", "Frisian", "Frysk", "Killer", "Portuguese", "Thai",
]


class Czech(Variant):
    """Czech draughts (dáma), PDN GameType 29 (``29,W,8,8,A0,0``: squares ``a1``..``h8``).

    Men move and capture forwards only, kings fly; a capture with a king comes before one with a
    man, otherwise the player chooses freely among the captures (and plays the chosen one to its
    end). A man cannot capture backwards, so one that reaches the last row is crowned there and
    the move ends.
    """

    name = "czech"
    aliases: ClassVar[tuple[str, ...]] = ("dama-czech", "czech-draughts", "ceska-dama")
    pdn_gametype = 29
    rows = cols = 8
    start_rows = 3
    numeric_notation = False
    men_capture_backwards = False
    capture_rule = CaptureRule.KING_FIRST
    promotion_in_capture = PromotionInCapture.ENDS_MOVE


class Portuguese(Spanish):
    """Portuguese draughts (damas), PDN GameType 28 (``28,W,8,8,N1,1``).

    The board of Spanish draughts (the corner at each player's left is light, numbered 1-32 from
    White's right-hand corner), flying kings, men capture forwards only, the most pieces then the
    most kings must be taken (Federação Portuguesa de Damas).
    """

    name = "portuguese"
    aliases: ClassVar[tuple[str, ...]] = ("damas-portuguesas", "portuguese-draughts")
    pdn_gametype = 28


class Frisian(International):
    """Frisian draughts, PDN GameType 40 (``40,W,10,10,N2,0``), rules of the KNDB/FDB.

    Men and kings capture diagonally and also along rows and columns (jumping the next playing
    square on the same row or column), kings fly; the most valuable capture must be taken, a king
    counting more than one man and less than two (199 against 100, as lidraughts scores it), and
    at equal value a king must capture. While a side still has men the same king may not make
    more than three quiet moves in a row.
    """

    name = "frisian"
    aliases: ClassVar[tuple[str, ...]] = ("frisian-draughts", "fries-dammen")
    pdn_gametype = 40
    orthogonal_captures = True
    capture_rule = CaptureRule.VALUE
    same_king_move_limit = 3


class Frysk(Frisian):
    """Frysk! (lidraughts): Frisian rules from five men each on the back rank (no GameType)."""

    name = "frysk"
    aliases: ClassVar[tuple[str, ...]] = ("frysk!",)
    start_rows = 1


class Killer(International):
    """Killer draughts: international rules plus the killer rule (no GameType: 20).

    A king's capture whose last captured piece is a king must end on the square directly behind
    that king (Scan 3's move generator; the Killer draughts rules of killerdraughts.org).
    """

    name = "killer"
    aliases: ClassVar[tuple[str, ...]] = ("killer-draughts",)
    killer_rule = True


class Breakthrough(International):
    """Breakthrough: international rules, the first side to crown a king wins (no GameType: 20).

    Played on the international board, as on lidraughts and by Scan (``variant=bt``); the move
    that crowns a man ends the game.
    """

    name = "breakthrough"
    aliases: ClassVar[tuple[str, ...]] = ("bt", "breakthrough-draughts")
    crown_wins = True


class Thai(Variant):
    """Thai draughts (mak-hot), PDN GameType 31 (``31,B,8,8,N2,0``).

    Eight men each on the two rows nearest their player; Black moves first (the GameType's start
    colour). Men move and capture forwards only, a man reaching the last row in a capture is
    crowned and the move ends; kings fly but land on the square directly behind each piece they
    take and go on from there, in any direction; captured pieces leave the board as they are
    jumped; free choice among captures. Squares are numbered 1-32 from the first mover's top
    left (``N2``), that is from White's right-hand corner: g1 = 1, a1 = 4, h2 = 5, ... h8 = 32;
    captures are written with ``-`` as PDN 3.0 lists for GameType 31.
    """

    name = "thai"
    aliases: ClassVar[tuple[str, ...]] = ("makhos", "mak-hot", "thai-draughts")
    pdn_gametype = 31
    rows = cols = 8
    start_rows = 2
    first_mover = BLACK
    numbered_from_white = True
    men_capture_backwards = False
    capture_rule = CaptureRule.FREE
    promotion_in_capture = PromotionInCapture.ENDS_MOVE
    remove_captured_immediately = True
    king_halts_behind = True
    capture_separator = "-"


#: In registry order.
CLUB_VARIANTS: tuple[type[Variant], ...] = (
    Portuguese, Czech, Thai, Frisian, Frysk, Killer, Breakthrough,
)
