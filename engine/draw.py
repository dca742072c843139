"""Game end: no legal moves, repetition and each variant's counting draw rules.

The rules are data (:data:`DRAW_RULES`, one tuple of rules per variant name) evaluated over the
game's history: :func:`outcome` replays ``board.root()`` plus ``board.move_stack`` into a list of
:class:`PlyFacts` and :func:`evaluate` runs the counters over it. :func:`evaluate` needs no board,
so the counters are tested on synthetic histories. docs/rules.md gives the rule texts and sources.

>>> from engine.draw import Material, PlyFacts, evaluate
>>> kings = Material(0, 3, 0, 1)           # 3 white kings against 1 black king
>>> plies = [PlyFacts(i % 2, True, False, False, kings, i) for i in range(32)]
>>> evaluate("international", plies, start_material=kings).rule
'fmjd-16-moves'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import count
from types import MappingProxyType
from typing import Any, Literal

from engine.outcome import Outcome, Termination
from engine.position import Position
from engine.types import Move

__all__ = [
    "DRAW_RULES",
    "EndgameRule",
    "Material",
    "PlyFacts",
    "ProgressRule",
    "RepetitionRule",
    "counted_plies",
    "evaluate",
    "history",
    "outcome",
    "replay_history",
    "start_road",
]

WHITE_, BLACK_ = 0, 1


@dataclass(frozen=True)
class Material:
    """Piece counts: white men, white kings, black men, black kings."""

    white_men: int
    white_kings: int
    black_men: int
    black_kings: int

    def side(self, color: int) -> tuple[int, int]:
        """Return ``(men, kings)`` of ``color`` (0 white, 1 black)."""
        if color == WHITE_:
            return self.white_men, self.white_kings
        return self.black_men, self.black_kings

    @property
    def total(self) -> int:
        """All pieces on the board."""
        return self.white_men + self.white_kings + self.black_men + self.black_kings


@dataclass(frozen=True)
class PlyFacts:
    """What the draw rules need to know about one ply (half-move) and the position after it.

    ``key`` identifies the position after the ply, side to move included (equal keys = same
    position). ``lone_king_on_main_road`` is true when a side reduced to a single king has it on
    the board's long diagonal ("main road") after the ply; ``kings_on_main_road`` holds the
    colours with a king on that diagonal after the ply (the Portuguese "posse do rio").
    """

    mover: int
    king_move: bool
    capture: bool
    promotion: bool
    material: Material
    key: Hashable
    lone_king_on_main_road: bool = False
    kings_on_main_road: frozenset[int] = frozenset()


@dataclass(frozen=True)
class RepetitionRule:
    """Draw when the same position with the same side to move occurs ``times`` times."""

    times: int = 3
    name: str = "repetition"


@dataclass(frozen=True)
class ProgressRule:
    """Draw after ``moves`` moves by each side without progress.

    Progress is a capture, a promotion and, when ``man_moves_count`` is true, any move of a man
    (the FMJD "only kings have moved" rules); with it false only captures and promotions count
    (the English 40-move rule). ``progress="king-capture"`` makes only the capture of a king
    (besides man moves) progress: a king taking men does not restart the count (the Portuguese
    20-move rule). ``max_pieces`` (when not 0) counts only the moves made while a side with at
    most that many pieces, a king among them, is on the board: a move counts when that held in
    the position it was made from.
    """

    name: str
    moves: int
    man_moves_count: bool = True
    progress: Literal["capture", "king-capture"] = "capture"
    max_pieces: int = 0


@dataclass(frozen=True)
class EndgameRule:
    """Draw when a material configuration lasts ``moves`` moves.

    ``configs`` holds ``((strong_men, strong_kings), (weak_men, weak_kings))`` pairs (either colour
    may be the strong side); ``totals`` instead matches any position where both sides have a king
    and the total piece count is in the set. ``count`` is ``"each"`` (both sides have made
    ``moves`` moves since the configuration arose) or ``"strong"`` (the strong side has made
    ``moves`` moves). ``main_road``: the weak side's lone king must stand on the long diagonal;
    ``strong_on_main_road``: the strong side must have a king on it (the count restarts when
    either stops holding).
    """

    name: str
    moves: int
    configs: frozenset[tuple[tuple[int, int], tuple[int, int]]] = frozenset()
    totals: frozenset[int] = frozenset()
    count: Literal["each", "strong"] = "each"
    main_road: bool = False
    strong_on_main_road: bool = False

    def strong_side(self, material: Material) -> int | None:
        """Return the strong colour if ``material`` matches (``-1`` for ``totals`` rules)."""
        if self.totals:
            both_kings = material.white_kings > 0 and material.black_kings > 0
            return -1 if both_kings and material.total in self.totals else None
        for color in (WHITE_, BLACK_):
            if (material.side(color), material.side(1 - color)) in self.configs:
                return color
        return None


Rule = RepetitionRule | ProgressRule | EndgameRule
#: The main-road facts of a position (as :class:`PlyFacts` has them for the position after a
#: ply): whether a lone king stands on the long diagonal, and the colours with a king on it.
_Road = tuple[bool, frozenset[int]]
_NO_ROAD: _Road = (False, frozenset())


def _configs(*pairs: tuple[tuple[int, int], tuple[int, int]]) -> frozenset[Any]:
    return frozenset(pairs)


_LONE_KING = (0, 1)
# FMJD art. 6 (16 moves): 3 kings, 2 kings and a man, a king and 2 men against one king.
_THREE_VS_KING = _configs(((0, 3), _LONE_KING), ((1, 2), _LONE_KING), ((2, 1), _LONE_KING))
# FMJD art. 6 (5 moves): two kings, a king and a man, or a king against one king.
_TWO_VS_KING = _configs(((0, 2), _LONE_KING), ((1, 1), _LONE_KING), ((0, 1), _LONE_KING))

_FMJD_ENDGAMES: tuple[Rule, ...] = (
    EndgameRule("fmjd-16-moves", 16, _THREE_VS_KING),
    EndgameRule("fmjd-5-moves", 5, _TWO_VS_KING),
)
# Order: repetition, then the endgame rules (the most specific name), then the general counts.
_FMJD: tuple[Rule, ...] = (
    RepetitionRule(),
    *_FMJD_ENDGAMES,
    ProgressRule("fmjd-25-moves", 25),
)
_RUSSIAN: tuple[Rule, ...] = (
    RepetitionRule(),
    # Three or more kings against a lone king: the strong side's 15th move.
    EndgameRule(
        "russian-15-moves-3-kings",
        15,
        _configs(*(((0, kings), _LONE_KING) for kings in range(3, 13))),
        count="strong",
    ),
    EndgameRule("russian-5-moves-main-road", 5, _THREE_VS_KING, count="strong", main_road=True),
    EndgameRule("russian-5-moves-balance", 5, totals=frozenset({2, 3})),
    EndgameRule("russian-30-moves-balance", 30, totals=frozenset({4, 5})),
    EndgameRule("russian-60-moves-balance", 60, totals=frozenset({6, 7})),
    ProgressRule("russian-15-king-moves", 15),
)

# Frisian (KNDB rules as lidraughts plays them): two kings against one king, drawn after 7
# moves each; one king each, after 2 moves each.
_FRISIAN: tuple[Rule, ...] = (
    RepetitionRule(),
    EndgameRule("frisian-7-moves", 7, _configs(((0, 2), _LONE_KING))),
    EndgameRule("frisian-2-moves", 2, _configs((_LONE_KING, _LONE_KING))),
)

# Portuguese (FPD, the "leis de lances limitados" as docs/rules.md quotes them [POR-X]): "a
# forcada", three kings, one on the long diagonal 1-32 ("rio"), against a king, to be won in 12
# moves; and, with a side down to at most four pieces, a king among them, 20 moves each,
# restarted by any man move or the capture of a king.
_PORTUGUESE: tuple[Rule, ...] = (
    RepetitionRule(),
    EndgameRule(
        "portuguese-12-moves-forcada",
        12,
        _configs(((0, 3), _LONE_KING)),
        count="strong",
        strong_on_main_road=True,
    ),
    ProgressRule("portuguese-20-moves", 20, progress="king-capture", max_pieces=4),
)

DRAW_RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType({
    "international": _FMJD,
    "canadian": _FMJD,
    "brazilian": (RepetitionRule(), *_FMJD_ENDGAMES, ProgressRule("brazilian-20-moves", 20)),
    "russian": _RUSSIAN,
    "diagonal": _RUSSIAN,
    "english": (RepetitionRule(), ProgressRule("english-40-moves", 40, man_moves_count=False)),
    "pool": (
        RepetitionRule(),
        EndgameRule("pool-13-moves", 13, _configs(((0, 3), _LONE_KING)), count="strong"),
    ),
    "italian": (RepetitionRule(),),
    "spanish": (RepetitionRule(),),
    "turkish": (
        RepetitionRule(),
        EndgameRule("turkish-king-vs-king", 0, _configs(((0, 1), _LONE_KING))),
    ),
    "russian-giveaway": (RepetitionRule(), ProgressRule("russian-15-king-moves", 15)),
    "killer": _FMJD,
    "frisian": _FRISIAN,
    "frysk": _FRISIAN,
    "portuguese": _PORTUGUESE,
    # Czech and Thai: no counting rule in any rules text found (docs/rules.md): repetition only.
    "czech": (RepetitionRule(),),
    "thai": (RepetitionRule(),),
    "international-giveaway": (RepetitionRule(), ProgressRule("fmjd-25-moves", 25)),
})
"""Draw rules per variant name; a variant not listed gets threefold repetition only."""

_DEFAULT_RULES: tuple[Rule, ...] = (RepetitionRule(),)


def _repetition(rule: RepetitionRule, start_key: Hashable, plies: Sequence[PlyFacts]) -> bool:
    if not plies:
        return False
    last = plies[-1].key
    # A position after a capture or a promotion has different material from every earlier one.
    # (Man moves are not irreversible everywhere: Turkish men move sideways.)
    seen = Counter([start_key])
    for ply in plies:
        if ply.capture or ply.promotion:
            seen.clear()
        seen[ply.key] += 1
    return seen[last] >= rule.times


def _progress(rule: ProgressRule, start: Material, plies: Sequence[PlyFacts]) -> bool:
    for counted, index in enumerate(range(len(plies) - 1, -1, -1), start=1):
        ply = plies[index]
        if ply.promotion or (rule.man_moves_count and not ply.king_move):
            return False
        before = plies[index - 1].material if index else start
        if ply.capture and (rule.progress == "capture" or _king_taken(ply, before)):
            return False
        if rule.max_pieces and not _small_side_with_king(before, rule.max_pieces):
            return False
        if counted >= 2 * rule.moves:
            return True
    return False


def _king_taken(ply: PlyFacts, before: Material) -> bool:
    """Whether ``ply`` captured a king (its victim has fewer kings than before it)."""
    victim = 1 - ply.mover
    return ply.material.side(victim)[1] < before.side(victim)[1]


def _small_side_with_king(material: Material, max_pieces: int) -> bool:
    """Whether a side has at most ``max_pieces`` pieces, at least one of them a king."""
    return any(
        kings > 0 and men + kings <= max_pieces
        for men, kings in (material.side(WHITE_), material.side(BLACK_))
    )


def _endgame(
    rule: EndgameRule, start: Material, plies: Sequence[PlyFacts], start_road: _Road = _NO_ROAD
) -> bool:
    """Count the moves made since the rule's configuration arose.

    A ply counts when the configuration held in the position it was made from and still holds
    after it: the ply that brings the configuration about (a capture, a promotion, the lone
    king stepping onto the main road) is not one of the "more moves" the rule texts count. A
    game set up in the configuration counts from its first ply.
    """
    current = plies[-1].material if plies else start
    strong = rule.strong_side(current)
    if strong is None:
        return False

    def holds(material: Material, lone_on_road: bool, road_kings: frozenset[int]) -> bool:
        return (
            material == current
            and (lone_on_road or not rule.main_road)
            and (strong in road_kings or not rule.strong_on_main_road)
        )

    if plies and not holds(plies[-1].material, plies[-1].lone_king_on_main_road,
                           plies[-1].kings_on_main_road):
        return False
    if not plies and not holds(start, *start_road):
        return False
    strong_moves = each = 0
    for index in range(len(plies) - 1, -1, -1):
        if index:
            before = plies[index - 1]
            held = holds(before.material, before.lone_king_on_main_road,
                         before.kings_on_main_road)
        else:
            held = holds(start, *start_road)
        if not held:
            break
        each += 1
        strong_moves += plies[index].mover == strong
    if rule.count == "strong":
        return strong_moves >= rule.moves
    return each >= 2 * rule.moves


def evaluate(
    variant: str,
    plies: Sequence[PlyFacts],
    *,
    start_material: Material,
    start_key: Hashable = None,
    start_road: _Road = _NO_ROAD,
) -> Outcome | None:
    """Return the draw the rules of ``variant`` declare after ``plies``, else ``None``.

    ``start_material`` and ``start_key`` describe the position before the first ply, and
    ``start_road`` its main-road facts (see :func:`start_road`). Rules are
    tried in :data:`DRAW_RULES` order; the first that applies names the draw.

    >>> evaluate("english", [], start_material=Material(12, 0, 12, 0)) is None
    True
    """
    for rule in DRAW_RULES.get(variant, _DEFAULT_RULES):
        if isinstance(rule, RepetitionRule):
            if _repetition(rule, start_key, plies):
                return Outcome(Termination.REPETITION, None, rule.name)
        elif isinstance(rule, ProgressRule):
            if _progress(rule, start_material, plies):
                return Outcome(Termination.DRAW_RULE, None, rule.name)
        elif _endgame(rule, start_material, plies, start_road):
            return Outcome(Termination.DRAW_RULE, None, rule.name)
    return None


# --- the board adapter -------------------------------------------------------------------------


def _material(board: Position) -> Material:
    counts = [0, 0, 0, 0]
    for piece in board.pieces().values():
        counts[2 * int(piece.color) + int(piece.king)] += 1
    return Material(*counts)


def _main_road(board: Position) -> frozenset[int]:
    """The long diagonal ("main road", a1-h8 on the Russian board) as square indices."""
    variant = board.variant
    squares = range(variant.num_squares)
    coords = {sq: variant.square_coords(sq) for sq in squares}
    if any(row == col == 0 for row, col in coords.values()):
        return frozenset(sq for sq, (row, col) in coords.items() if row == col)
    last = variant.cols - 1
    return frozenset(sq for sq, (row, col) in coords.items() if row + col == last)


def _lone_king_on_road(board: Position, material: Material, road: frozenset[int]) -> bool:
    for color in (WHITE_, BLACK_):
        if material.side(color) == _LONE_KING:
            return any(
                int(p.color) == color and sq in road for sq, p in board.pieces().items()
            )
    return False


def _road_kings(board: Position, road: frozenset[int]) -> frozenset[int]:
    return frozenset(int(p.color) for sq, p in board.pieces().items() if p.king and sq in road)


def _key(board: Position) -> Hashable:
    return (board.zobrist_hash(), int(board.turn))


def history(board: Position) -> tuple[Material, Hashable, list[PlyFacts]]:
    """Replay ``board``'s game: the start material, start key and one :class:`PlyFacts` a ply.

    A game asked about again after more moves (a board asks after each) is replayed from where
    it was last replayed, not from its root: the replays of the last few games are kept
    (:data:`KEPT_REPLAYS`), so a game's end is checked in time linear in its length, not
    quadratic. The facts are those of a replay from the root (:func:`replay_history`).

    >>> from engine import Board
    >>> history(Board("russian"))[2]
    []
    """
    root = board.root()
    moves = board.move_stack
    start = root.fen()
    kept = _claim(board.variant.name, start, moves)
    if kept is None:
        kept = _Replay(board.variant.name, start, (), (), root, _main_road(root),
                       _material(root), _key(root))
    rest = moves[len(kept.moves):]
    plies = kept.plies + tuple(_replay(kept.end, rest, kept.road))
    _keep(_Replay(kept.variant, kept.root, kept.moves + tuple(rest), plies, kept.end, kept.road,
                  kept.start_material, kept.start_key))
    return kept.start_material, kept.start_key, list(plies)


def replay_history(board: Position) -> tuple[Material, Hashable, list[PlyFacts]]:
    """:func:`history` replayed from ``board.root()`` every time (nothing kept)."""
    replay = board.root()
    road = _main_road(replay)
    start = (_material(replay), _key(replay))
    plies = list(_replay(replay, board.move_stack, road))
    return start[0], start[1], plies


def counted_plies(board: Position) -> int:
    """How many of the game's last plies its rules still look back on.

    Every count the rules keep begins after some ply: a repetition after the last capture or
    promotion (the material changed), an endgame's moves after the ply that made its material,
    the moves without progress after the last progress (a man's move, a promotion, a capture, or
    in Portuguese only a king's capture), Frisian's run of one king's moves after that side's
    own last capture or man's move. A board set up at the position before these plies, with them
    played, ends, draws and moves as ``board`` does: what an engine that is sent the position
    and the moves since (a Hub ``pos`` line) must be given. Conditions that end a count earlier
    (the main road, a side's number of pieces) are not looked at: the plies counted may be more
    than a rule needs, never fewer.

    >>> from engine import Board
    >>> board = Board("international", fen="W:WK47,36,26:BK5")
    >>> for text in ("47-42", "5-10", "36-31", "10-5", "42-47"):
    ...     board.push(board.parse_move(text))
    >>> counted_plies(board)  # the man's move 36-31 counts: the 16-move rule looks back on it
    5
    """
    start, _key, plies = history(board)
    waiting: list[Rule | int] = list(DRAW_RULES.get(board.variant.name, _DEFAULT_RULES))
    if board.variant.same_king_move_limit:
        waiting += [WHITE_, BLACK_]  # each side's run of one king's quiet moves
    for index in range(len(plies) - 1, -1, -1):
        ply = plies[index]
        before = plies[index - 1].material if index else start
        waiting = [rule for rule in waiting if not _restarts(rule, ply, before)]
        if not waiting:
            return len(plies) - index - 1
    return len(plies)


def _restarts(rule: Rule | int, ply: PlyFacts, before: Material) -> bool:
    """Whether ``rule`` counts nothing before ``ply`` (the position after it starts afresh); a
    colour stands for that side's run of one king's quiet moves (Frisian), which only its own
    capture or man's move ends (the other side's plies, captures too, run on)."""
    if isinstance(rule, int):
        return ply.mover == rule and (ply.capture or not ply.king_move)
    if isinstance(rule, ProgressRule):
        return ply.promotion or (rule.man_moves_count and not ply.king_move) or (
            ply.capture and (rule.progress == "capture" or _king_taken(ply, before)))
    return ply.capture or ply.promotion


#: How many games' replays :func:`history` keeps (the boards of one process, a bench's games).
KEPT_REPLAYS = 8


@dataclass(frozen=True)
class _Replay:
    """A game replayed: its variant, root (FEN), moves and their facts, the position after
    them (``end``: owned by whoever holds the replay, as it is extended in place)."""

    variant: str
    root: str
    moves: tuple[Move, ...]
    plies: tuple[PlyFacts, ...]
    end: Position
    road: frozenset[int]
    start_material: Material
    start_key: Hashable


_replays: dict[int, _Replay] = {}
_numbers = count()


def _claim(variant: str, root: str, moves: Sequence[Move]) -> _Replay | None:
    """Take out the longest kept replay of this game's first moves (None: none). A replay is
    held by one caller at a time (``dict.pop`` hands it to one thread), then kept again."""
    best: tuple[int, int] | None = None
    for number, kept in list(_replays.items()):
        n = len(kept.moves)
        if kept.variant == variant and kept.root == root and n <= len(moves) and \
                (best is None or n > best[1]) and all(
                    a is b or a == b for a, b in zip(kept.moves, moves[:n], strict=True)):
            best = (number, n)
    return None if best is None else _replays.pop(best[0], None)


def _keep(replay: _Replay) -> None:
    _replays[next(_numbers)] = replay
    while len(_replays) > KEPT_REPLAYS:
        try:
            del _replays[min(_replays)]
        except (KeyError, ValueError):  # (taken meanwhile by another thread)
            break


def start_road(board: Position) -> tuple[bool, frozenset[int]]:
    """The main-road facts of the position ``board``'s game started from (``board.root()``).

    >>> from engine import Board
    >>> start_road(Board("russian", fen="W:WK29:BK1,K2,K3"))
    (True, frozenset({0}))
    """
    root = board.root()
    road = _main_road(root)
    return _lone_king_on_road(root, _material(root), road), _road_kings(root, road)


def _replay(replay: Position, moves: Sequence[Move], road: frozenset[int]) -> Iterator[PlyFacts]:
    for move in moves:
        piece = replay.piece_at(move.origin)
        mover = int(replay.turn)
        replay.push(move)
        material = _material(replay)
        yield PlyFacts(
            mover=mover,
            king_move=bool(piece is not None and piece.king),
            capture=bool(move.captures),
            promotion=bool(move.promotes),
            material=material,
            key=_key(replay),
            lone_king_on_main_road=_lone_king_on_road(replay, material, road),
            kings_on_main_road=_road_kings(replay, road),
        )


def _gametype(board: Position) -> int:
    return int(board.variant.pdn_gametype)


def _is_giveaway(board: Position) -> bool:
    return bool(board.variant.giveaway)


def outcome(board: Position, kept: bool = True) -> Outcome | None:
    """Return how the game on ``board`` has ended, or ``None`` while it goes on.

    No legal move loses (wins in the giveaway variants); otherwise the variant's draw rules
    (:data:`DRAW_RULES`) are checked over the whole game since ``board.root()``, from the kept
    replays (:func:`history`; ``kept=False``: replayed from the root, :func:`replay_history`).

    >>> from engine import Board
    >>> outcome(Board("international")) is None
    True
    """
    gametype = _gametype(board)
    if board.variant.crown_wins:
        crowned = {p.color for p in board.pieces().values() if p.king}
        if len(crowned) == 1:  # breakthrough: the side that crowned a king has won
            return Outcome(Termination.NO_MOVES, crowned.pop(), gametype=gametype)
    if not board.legal_moves:
        winner = board.turn if _is_giveaway(board) else board.turn.opponent
        return Outcome(Termination.NO_MOVES, winner, gametype=gametype)
    start_material, start_key, plies = (history if kept else replay_history)(board)
    draw = evaluate(board.variant.name, plies, start_material=start_material, start_key=start_key,
                    start_road=start_road(board))
    if draw is None:
        return None
    return Outcome(draw.termination, None, draw.rule, gametype=gametype)
