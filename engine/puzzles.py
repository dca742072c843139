"""Puzzles: positions where exactly one move wins, with the line that shows it.

A position is a puzzle when the side to move (the *solver*) has exactly one move that wins at
least a man or the game, and every other move wins nothing, both shown by a search of
**material alone** to a stated depth in plies (every capture still due at that depth played
out, since captures are compulsory): a man counts 1, a king :func:`king_value` (3 with flying
kings, 2 with short ones, so a crowning is itself a gain), a side without a move has lost. That
claim is what a puzzle says and what ``tests/engine/test_puzzles.py`` checks with a search of
its own. On top of it the builder asks that the engine's own search (its evaluation, not just
material) chooses the same move, that the win needs more than one move of the solver (taking a
man left hanging is no puzzle), and, where the endgame tables hold the position, that the move
wins the game, not only a man.

Each puzzle carries its line (the solution and the forcing play after it, up to where the gain
is made and no capture is due), a difficulty from 1 to 5 (the solver's moves in the line and
how many of them are quiet) and the motifs that can be told from the line: ``shot`` (the
solver gives material before winning more), ``breakthrough`` (a man of the solver's is
crowned), ``coup-turc`` (a capture of the defender is stopped by a piece it has already
jumped, which stays on the board until the capture ends), ``opposition`` (an ending of a few
men, no kings, won by quiet moves: the defender runs out of safe ones), ``ending`` (the endgame
tables know the solution wins the game).

Collections are PDN files: one game per puzzle, its position in the FEN tag, the line as the
moves, the claim in tags (``Depth``, ``Gain``, ``Difficulty``, ``Motif``); the shipped ones
are ``engine/data/puzzles_<variant>.pdn``, made by ``draughtsboard puzzles build``.

Example (the two-for-one of tests/engine/test_analysis.py, White to find it):
    >>> board = Board("international", fen="W:W29,31-33,35,36,38-50:B1-10,12-15,18,19,21,22,25")
    >>> puzzle = find(board)
    >>> board.move_notation(puzzle.solution), puzzle.gain, puzzle.motifs
    ('31-27', 100, ('shot',))
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from importlib import resources
from typing import Final

from engine.board import Board
from engine.compiled import pure_module
from engine.endgame import WDL, EndgameTable
from engine.generators import generator_for, routed
from engine.movegen import MoveGen, make_move
from engine.ordering import unique
from engine.pdn import read_games, write_game
from engine.search import Limit, Searcher
from engine.types import Move, RawMove
from engine.variant import Variant, find_variant

__all__ = [
    "DEPTH",
    "MAN",
    "WIN",
    "Progress",
    "Puzzle",
    "Verdict",
    "collect",
    "collection_file",
    "find",
    "king_value",
    "load",
    "mistakes",
    "read_collection",
    "reply",
    "select",
    "verdict",
    "write_collection",
]

#: A man, in the material search's units (hundredths of a man, as the engine's scores).
MAN: Final = 100
#: The value of a side to move that has no move: it has lost (less the plies to get there).
WIN: Final = 100_000
#: The depth a puzzle is verified to, in plies, unless the builder is told otherwise.
DEPTH: Final = 7
#: How far from level a puzzle's position may be, in men (a position already won by far
#: teaches little).
MAX_BALANCE: Final = 3
#: The engine's own search that must agree on the solution.
SCREEN: Final = Limit(depth=6)
#: The motifs a puzzle may carry, in the order they are written.
MOTIFS: Final = ("shot", "breakthrough", "coup-turc", "opposition", "ending")


def king_value(variant: Variant) -> int:
    """A king in the material search: 3 men with flying kings, 2 with short ones.

    >>> king_value(find_variant("russian")), king_value(find_variant("english"))
    (300, 200)
    """
    return 3 * MAN if variant.flying_kings else 2 * MAN


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: the position (``fen``, side to move the solver), the ``line`` (its first
    move the solution), the depth it was verified to, the ``gain`` in hundredths of a man
    (:data:`WIN` or more: the game), the difficulty 1-5, the motifs and where it came from."""

    variant: Variant
    fen: str
    line: tuple[Move, ...]
    depth: int
    gain: int
    difficulty: int
    motifs: tuple[str, ...] = ()
    source: str = ""
    number: str = field(default="", compare=False)

    @property
    def solution(self) -> Move:
        """The one move that wins."""
        return self.line[0]

    def board(self) -> Board:
        """A board at the puzzle's position."""
        return Board(self.variant, fen=self.fen)

    def headers(self) -> dict[str, str]:
        """The PDN tags that carry the puzzle's claim."""
        headers = {"Event": "draughtsboard puzzles", "Depth": str(self.depth),
                   "Gain": "game" if self.gain >= WIN // 2 else f"{self.gain / MAN:g}",
                   "Difficulty": str(self.difficulty), "Motif": ",".join(self.motifs)}
        if self.number:
            headers["Puzzle"] = self.number
        if self.source:
            headers["Source"] = self.source
        return headers


# --- the material search ------------------------------------------------------------------


class _Prover:
    """Material-only alpha-beta on the move generator's raw moves, captures played out."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.gen: MoveGen = generator_for(variant)
        self.make = pure_module("engine.movegen").make_move if routed(variant) else make_move
        self.king = king_value(variant)

    def material(self, white: int, black: int, kings: int, colour: int) -> int:
        """The side to move's material minus the other's."""
        king = self.king
        value = ((white & ~kings).bit_count() - (black & ~kings).bit_count()) * MAN + (
            (white & kings).bit_count() - (black & kings).bit_count()) * king
        return value if colour == 0 else -value

    def _children(self, white: int, black: int, kings: int,
                  colour: int) -> list[tuple[RawMove, tuple[int, int, int]]]:
        gen = self.gen
        out = []
        for raw in unique(gen.moves(white, black, kings, colour)):
            w2, b2, k2, _ = self.make(gen.zobrist, gen.zobrist_black, raw, white, black, kings,
                                      colour, 0)
            out.append((raw, (w2, b2, k2)))
        # The biggest captures first: the likeliest refutations, the smallest trees.
        out.sort(key=lambda child: -len(child[0][5]))
        return out

    def value(self, white: int, black: int, kings: int, colour: int, depth: int,
              alpha: int, beta: int, ply: int = 0) -> int:
        """The side to move's material after ``depth`` plies and the captures due then."""
        children = self._children(white, black, kings, colour)
        if not children:
            return -(WIN - ply)
        if depth <= 0 and not children[0][0][2]:
            return self.material(white, black, kings, colour)
        best = -WIN - 1
        for _raw, (w2, b2, k2) in children:
            score = -self.value(w2, b2, k2, 1 - colour, depth - 1, -beta, -max(alpha, best),
                                ply + 1)
            if score > best:
                best = score
                if best >= beta:
                    break
        return best

    def line(self, white: int, black: int, kings: int, colour: int,
             depth: int, ply: int = 0) -> tuple[int, list[RawMove]]:
        """The value and the line of best play (full window)."""
        children = self._children(white, black, kings, colour)
        if not children:
            return -(WIN - ply), []
        if depth <= 0 and not children[0][0][2]:
            return self.material(white, black, kings, colour), []
        best, best_line = -WIN - 1, []
        for raw, (w2, b2, k2) in children:
            score = -self.value(w2, b2, k2, 1 - colour, depth - 1, -WIN - 1, -best, ply + 1)
            if score > best:
                best = score
                rest = self.line(w2, b2, k2, 1 - colour, depth - 1, ply + 1)[1]
                best_line = [raw, *rest]
        return best, best_line


# --- finding one ----------------------------------------------------------------------------


def find(board: Board, depth: int = DEPTH, screen: Searcher | None = None,
         source: str = "") -> Puzzle | None:
    """The puzzle in ``board``'s position for its side to move, or None if it is none.

    ``screen`` is the engine search that must choose the solution too (one is made when none
    is given; pass one to reuse its tables across positions).

    Raises:
        ValueError: a giveaway variant (there, winning material is losing), or a searcher of
            another variant.
    """
    variant = board.variant
    if variant.giveaway:
        raise ValueError(f"{variant.name} is a giveaway variant: it has no puzzles here")
    moves = list(board.legal_moves)
    if len(moves) < 2:
        return None
    prover = _Prover(variant)
    white, black, kings = board.bitboards()
    colour = int(board.turn)
    now = prover.material(white, black, kings, colour)
    if abs(now) > MAX_BALANCE * MAN:
        return None
    winners: list[Move] = []
    for move in moves:
        child = board.copy()
        child.push(move)
        w2, b2, k2 = child.bitboards()
        # Refuted: the defender holds the solver to no gain (its value at least -now).
        if prover.value(w2, b2, k2, 1 - colour, depth - 1, -now - 1, -now, 1) >= -now:
            continue
        # Anything above no gain must be a win of at least a man, else the move is neither.
        target = now + MAN
        if -prover.value(w2, b2, k2, 1 - colour, depth - 1, -target, -target + 1, 1) < target:
            return None
        winners.append(move)
        if len(winners) > 1:
            return None
    if len(winners) != 1:
        return None
    solution = winners[0]
    searcher = screen if screen is not None else Searcher(variant, tt_mb=2)
    if searcher.search(board, SCREEN).move != solution:
        return None
    child = board.copy()
    child.push(solution)
    score, raws = prover.line(*child.bitboards(), 1 - colour, depth - 1, 1)
    gain = -score - now
    line = _settled((solution, *_moves(child, raws)), board, prover, now)
    if len(line[0::2]) < 2:
        return None  # one move of the solver: a man left hanging, taken
    ending = _ending(board, solution)
    if ending is False:
        return None  # the tables: a man won, the game not
    motifs = _motifs(board, line, prover, now, ending is True)
    return Puzzle(variant, board.fen(), line, depth, gain, _difficulty(line), motifs, source)


def _moves(board: Board, raws: Sequence[RawMove]) -> tuple[Move, ...]:
    """Raw moves from ``board`` as its :class:`Move` objects (the line stops if one is not
    legal there: a history rule of the root, never inside)."""
    probe = board.copy()
    b2s = generator_for(board.variant).bit2sq
    out: list[Move] = []
    for raw in raws:
        key = (b2s[raw[0]], b2s[raw[1]], frozenset(b2s[b] for b in raw[5]))
        move = next((m for m in probe.legal_moves if m.key() == key), None)
        if move is None:
            break
        out.append(move)
        probe.push(move)
    return tuple(out)


def _settled(line: tuple[Move, ...], board: Board, prover: _Prover, now: int) -> tuple[Move, ...]:
    """The line up to where the solver is a man up with no capture due, or the game ends."""
    probe = board.copy()
    solver = int(board.turn)
    for index, move in enumerate(line):
        probe.push(move)
        moves = list(probe.legal_moves)
        gained = prover.material(*probe.bitboards(), solver) - now >= MAN
        if not moves or (gained and not moves[0].is_capture):
            return line[: index + 1]
    return line


def _ending(board: Board, solution: Move) -> bool | None:
    """Whether the tables say the solution wins the game (and no other move does); None where
    the tables do not hold the position."""
    variant = board.variant
    if not EndgameTable.available(variant):
        return None
    table = _table(variant)
    if not table.covers(*board.bitboards()):
        return None
    wins = []
    for move in board.legal_moves:
        child = board.copy()
        child.push(move)
        if not child.legal_moves:
            wins.append(move)
            continue
        value = table.probe(*child.bitboards(), int(child.turn))
        if value is WDL.LOSS:
            wins.append(move)
    return wins == [solution]


_TABLES: dict[str, EndgameTable] = {}


def _table(variant: Variant) -> EndgameTable:
    """The variant's tables, loaded once (a module cache of read-only data)."""
    table = _TABLES.get(variant.name)
    if table is None:
        table = _TABLES[variant.name] = EndgameTable.load(variant)
    return table


def _difficulty(line: Sequence[Move]) -> int:
    """1-5: the solver's moves in the line, and one more for each quiet one past the first."""
    solver = line[0::2]
    quiet = sum(1 for move in solver if not move.is_capture)
    return max(1, min(5, len(solver) + quiet - 1))


def _motifs(board: Board, line: Sequence[Move], prover: _Prover, now: int,
            ending: bool) -> tuple[str, ...]:
    found: set[str] = set()
    probe = board.copy()
    solver = int(board.turn)
    white, black, kings = board.bitboards()
    ending_of_men = not kings and (white | black).bit_count() <= board.variant.num_squares // 5
    for index, move in enumerate(line):
        solver_move = index % 2 == 0
        if not solver_move and move.is_capture and _stopped_by_its_own_capture(probe, move):
            found.add("coup-turc")
        probe.push(move)
        if solver_move and move.promotes:
            found.add("breakthrough")
        white, black, kings = probe.bitboards()
        if prover.material(white, black, kings, solver) < now:
            found.add("shot")
    first = line[0]
    if (ending_of_men and "shot" not in found and not first.is_capture and len(line) > 1
            and not line[1].is_capture):
        found.add("opposition")
    if ending:
        found.add("ending")
    return tuple(m for m in MOTIFS if m in found)


def _stopped_by_its_own_capture(board: Board, move: Move) -> bool:
    """Whether ``move`` (a capture, played from ``board``) was cut short by a piece it had
    already jumped (the coup turc): once the jumped pieces are off the board, the capturing
    piece could capture again from where it stopped, so during the move only a jumped piece,
    still standing, barred its way."""
    variant = board.variant
    if variant.remove_captured_immediately or move.promotes:
        return False
    after = board.copy()
    after.push(move)
    fen = after.fen()
    again = Board(variant, fen=("B" if fen[0] == "W" else "W") + fen[1:])
    return any(m.is_capture and m.origin == move.destination for m in again.legal_moves)


# --- solving one ----------------------------------------------------------------------------


class Progress(Enum):
    """Where a solver stands after a move of theirs."""

    GOING = "going"
    SOLVED = "solved"
    WRONG = "wrong"


@dataclass(frozen=True)
class Verdict:
    """A solver's move judged: ``progress``; for a wrong one, the defender's ``refutation``
    (the line that shows the move wins nothing, from the position after it)."""

    progress: Progress
    refutation: tuple[Move, ...] = ()


def _played(puzzle: Puzzle, moves: Sequence[Move]) -> Board:
    board = puzzle.board()
    for move in moves:
        board.push(move)
    return board


def verdict(puzzle: Puzzle, moves: Sequence[Move]) -> Verdict:
    """The solver's last move judged, ``moves`` being the play from the puzzle's position
    (its length odd: the solver moved last).

    The line's move is right; another is right where it still wins what the puzzle wins within
    the depth left (a second way later in the line: the first move is the only one, by the
    puzzle's claim). Solved: the defender has no move, or a man (at least) is won and nothing
    is left to find (after each capture the defender must make, no capture of the solver's is
    due: the recapture that closes a line is the defender's), or the line's last move of the
    solver's is played (an ending won by quiet moves) with the win kept.

    >>> puzzle = load("international")[0]
    >>> verdict(puzzle, puzzle.line[:1]).progress in (Progress.GOING, Progress.SOLVED)
    True

    Raises:
        ValueError: ``moves`` ends with the defender's move.
    """
    if len(moves) % 2 == 0:
        raise ValueError("the solver has not moved: nothing to judge")
    board = _played(puzzle, moves)
    prover = _Prover(puzzle.variant)
    start = puzzle.board()
    solver = int(start.turn)
    now = prover.material(*start.bitboards(), solver)
    if _made(board, prover, solver, now + min(puzzle.gain, MAN)):
        return Verdict(Progress.SOLVED)
    # The line's last move of the solver's played (a won ending the tables know, won by quiet
    # moves: no material to count): solved.
    last = len(puzzle.line) - (1 if len(puzzle.line) % 2 == 0 else 0)
    white, black, kings = board.bitboards()
    if tuple(moves) == puzzle.line[:len(moves)]:
        return Verdict(Progress.SOLVED if len(moves) >= last else Progress.GOING)
    left = max(1, puzzle.depth - len(moves))
    target = now + (WIN // 2 if puzzle.gain >= WIN // 2 else MAN)
    if -prover.value(white, black, kings, 1 - solver, left, -target, -target + 1,
                     len(moves)) >= target:
        return Verdict(Progress.SOLVED if len(moves) >= last else Progress.GOING)
    raws = prover.line(white, black, kings, 1 - solver, left, len(moves))[1]
    line = _moves(board, raws)
    return Verdict(Progress.WRONG, _settled_for(line, board))


def _made(board: Board, prover: _Prover, solver: int, target: int) -> bool:
    """Whether the solver, having moved in ``board``, holds ``target`` (the defender has no
    move, or the material, after each capture the defender must make) with nothing left to
    find."""
    replies = list(board.legal_moves)
    if not replies:
        return True
    if not replies[0].is_capture:
        return prover.material(*board.bitboards(), solver) >= target
    for move in replies:
        probe = board.copy()
        probe.push(move)
        answers = list(probe.legal_moves)
        if answers and answers[0].is_capture:
            return False
        if prover.material(*probe.bitboards(), solver) < target:
            return False
    return True


def _settled_for(line: tuple[Move, ...], board: Board) -> tuple[Move, ...]:
    """The defender's line (from ``board``, the defender to move) up to the first of its
    moves after which the solver has no capture due: the refutation shown."""
    probe = board.copy()
    for index, move in enumerate(line):
        probe.push(move)
        moves = list(probe.legal_moves)
        if not moves or (index % 2 == 0 and not moves[0].is_capture):
            return line[: index + 1]
    return line


def reply(puzzle: Puzzle, moves: Sequence[Move]) -> Move | None:
    """The defender's reply after ``moves`` (from the puzzle's position, the solver's last):
    the line's while the solver follows it, else the best defence of the material search
    (the refutation of a wrong move, the toughest defence against another way to win); None
    when the defender has no move.
    """
    if len(moves) % 2 == 0:
        raise ValueError("the defender is not to move")
    board = _played(puzzle, moves)
    if not board.legal_moves:
        return None
    if tuple(moves) == puzzle.line[:len(moves)] and len(puzzle.line) > len(moves):
        return puzzle.line[len(moves)]
    prover = _Prover(puzzle.variant)
    left = max(1, puzzle.depth - len(moves))
    raws = prover.line(*board.bitboards(), int(board.turn), left, len(moves))[1]
    found = _moves(board, raws[:1])
    return found[0] if found else next(iter(board.legal_moves))


def mistakes(game: Board, marked: Iterable[int], depth: int = DEPTH,
             source: str = "") -> list[Puzzle]:
    """The puzzles among the positions before the moves of ``game`` (its move stack) at the
    plies ``marked`` (0: the first move; a player's ``?`` and ``??``): where exactly one move
    won and the player did not find it, the position is a puzzle for them (a missed shot).

    >>> board = Board("international")  # White's 5th move misses the two-for-one 31-27
    >>> for text in ("32-28", "17-22", "28x17", "11x22", "34-29", "20-25", "37-32", "16-21",
    ...              "39-34"):
    ...     board.push(board.parse_move(text))
    >>> [(p.board().move_notation(p.solution), p.source)
    ...  for p in mistakes(board, [7, 8], source="club night")]
    [('31-27', 'club night, ply 9')]
    """
    marked = set(marked)
    found = []
    probe = game.root()
    screen = Searcher(game.variant, tt_mb=4)
    for ply, move in enumerate(game.move_stack):
        if ply in marked:
            puzzle = find(probe, depth, screen, f"{source}, ply {ply + 1}".strip(", "))
            if puzzle is not None and puzzle.solution.key() != move.key():
                found.append(puzzle)
        probe.push(move)
    return found


# --- collections ----------------------------------------------------------------------------


def write_collection(puzzles: Iterable[Puzzle]) -> str:
    """The puzzles as PDN, one game each (``[FEN]`` the position, the moves the line).

    Raises:
        ValueError: a puzzle whose line is not legal from its position.
    """
    return "\n".join(
        write_game(p.headers(), p.line, "*", variant=p.variant, start_fen=p.fen)
        for p in puzzles)


def read_collection(text: str | bytes) -> list[Puzzle]:
    """The puzzles of a PDN collection written by :func:`write_collection`.

    Raises:
        engine.pdn.PdnError: malformed PDN or an illegal move.
        ValueError: a game without the puzzle tags.
    """
    puzzles = []
    for game in read_games(text):
        headers = game.headers
        try:
            gain_text = headers["Gain"]
            gain = WIN if gain_text == "game" else round(float(gain_text) * MAN)
            puzzle = Puzzle(
                game.variant, game.start_fen, tuple(game.moves), int(headers["Depth"]), gain,
                int(headers["Difficulty"]),
                tuple(m for m in headers.get("Motif", "").split(",") if m),
                headers.get("Source", ""), headers.get("Puzzle", ""))
        except (KeyError, ValueError) as exc:
            raise ValueError(f"game at line {game.line} is not a puzzle: {exc}") from None
        if not puzzle.line:
            raise ValueError(f"puzzle at line {game.line} has no solution")
        puzzles.append(puzzle)
    return puzzles


def select(puzzles: Sequence[Puzzle], most: int) -> list[Puzzle]:
    """At most ``most`` of ``puzzles``, spread over the difficulties: one of each difficulty in
    turn, each in the order found; the result sorted by difficulty.

    >>> easy, hard = (Puzzle(find_variant("russian"), str(n), (), 7, 100, d) for n, d in
    ...               ((1, 1), (2, 4)))
    >>> [p.difficulty for p in select([easy, easy, hard], 2)]
    [1, 4]
    """
    groups: dict[int, list[Puzzle]] = {}
    for puzzle in puzzles:
        groups.setdefault(puzzle.difficulty, []).append(puzzle)
    chosen: list[Puzzle] = []
    while len(chosen) < most and any(groups.values()):
        for difficulty in sorted(groups):
            if groups[difficulty] and len(chosen) < most:
                chosen.append(groups[difficulty].pop(0))
    return sorted(chosen, key=lambda p: p.difficulty)


def collection_file(variant: str | Variant) -> str:
    """The package data file of a variant's shipped puzzles."""
    return f"puzzles_{find_variant(variant).name}.pdn"


def load(variant: str | Variant) -> list[Puzzle]:
    """The puzzles that ship for ``variant`` (none: an empty list).

    >>> len(load("international")) > 0, load("frisian")
    (True, [])
    """
    path = resources.files("engine").joinpath("data", collection_file(variant))
    if not path.is_file():
        return []
    return read_collection(path.read_bytes())


def collect(games: Iterable[tuple[Board, str]], depth: int = DEPTH, skip: int = 4,
            spacing: int = 4) -> Iterator[Puzzle]:
    """The puzzles in games: each ``(board, source)`` is a game on ``board``'s move stack.

    Every position from ply ``skip`` on is tried; after a puzzle the next ``spacing`` plies of
    the same game are not (the same combination, one move on), and a position already found
    is not given twice. The puzzles come as found; their ``source`` names the game and ply.

    Raises:
        ValueError: as :func:`find`.
    """
    seen: set[str] = set()
    for board, source in games:
        screen = Searcher(board.variant, tt_mb=4)
        probe = board.root()
        after = -1
        for ply, move in enumerate(board.move_stack):
            if ply >= skip and ply > after and probe.fen() not in seen:
                puzzle = find(probe, depth, screen, f"{source}, ply {ply + 1}".strip(", "))
                if puzzle is not None:
                    seen.add(puzzle.fen)
                    after = ply + spacing
                    yield puzzle
            probe.push(move)
