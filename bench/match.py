"""Benchmark: the built-in engine in matches against outside engines, every move refereed.

Peers:

- **Scan** (Fabien Letouzey's engine, built from its public source; book off, its 2-4 piece
  bitbases on) at fixed depths (``--scan-depths 4,6,8``) and, with ``--scan-equal-time``, at
  our engine's seconds a move on its own wall clock. Scan 2.0 speaks the first Hub protocol
  (``pos <51 letters>``, ``move 32-28``, ``depth <n>`` or ``time <ms>``, ``go`` -> ``move 32-28
  ...``) through a small driver here (:class:`bench.players.ScanHub1Player`), which sends the
  game as our engine sees it: the start position and every move since, so that Scan sees a
  repetition coming and the 25-move count running (``--scan-sees position``: the current
  position only, as matches were played before). Scan 3.x speaks Hub 2 and is driven by the
  project's own client (:class:`firmware_host.opponents.hub.client.HubEngine`,
  ``level depth=<n>``): ``--scan-protocol``. Scan plays international draughts only.
- **Ourselves without pondering** (``--peer ponder``): level 10 as the board runs it, in a
  process of its own behind the service's engine worker (:class:`bench.players.WorkerPlayer`),
  thinking on the opponent's time, against the same without pondering, both at ``--movetime``
  CPU seconds a move of their search thread (``--pi-factor``: also at that share of it). The
  gain pondering brings, counted as every match is; it needs a core for each engine.
- **TurboEngine** of py-draughts 1.10.1 (pure Python, like ours) at equal CPU time a move
  (``--turbo-movetime``). py-draughts shares the import name ``draughts`` with pydraughts, so it
  runs in a venv of its own (``--turbo-python``), behind ``bench/peers/turbo_driver.py`` (FEN and
  moves in, move out). TurboEngine plays international draughts only.

Our engine is :class:`engine.search.Searcher` (full strength) on the board's clock
(:class:`engine.clock.SearchClock`: the CPU time of the thread that searches, so neither other
jobs on the machine nor this bench's own refereeing change its strength, capped at twice the
move's time on the wall clock; ``--clock thread``: CPU time only, for a machine more loaded
than a Pi), ``--movetime`` CPU seconds a move (``--ours board``: level 10 as the board runs
it instead, :class:`bench.players.WorkerPlayer`, thinking on the peer's time: against Scan at
equal time that is Scan's whole think); with
``--pi-factor F`` every setting is played again at ``F`` times that time, the time a Raspberry Pi 4
would give it (0.25 for a Pi 4: issue 17 puts the Pi's cores at 3-5 times slower than the x86
development machine for this kind of Python, 4 is the middle, and the n-body program of the
Benchmarks Game runs 4.6 times slower on a 1.5 GHz Pi 4 than here; see docs/strength.md).
TurboEngine gets CPU time of its own process (its ``time.perf_counter`` is bound to
``time.process_time``); Scan at a fixed depth has no clock at all.

Games start from balanced openings (``bench/level_ladder.py``'s :func:`opening`: two random
plies a side, material level, a depth-4 search within half a man), each opening played twice with
colours swapped. Openings are unique across seeds: seed ``s`` plays only openings whose text
hashes (CRC-32) to ``s`` modulo :data:`OPENING_CLASSES`, none twice, so runs with different
seeds (below that number) never share an opening. Every move, whoever made it, is checked by a
referee: our :class:`engine.Board` (the move must be legal) and, for international draughts,
pydraughts (the whole legal move set must agree; pydraughts' known bugs are outside
international draughts). A game ends by the variant's rules (:meth:`engine.Board.outcome`:
no moves, the draw rules) or at ``--max-plies``, scored a draw.

``--out`` files hold, per game, each move's search (``"search"``: ``[depth, nodes, seconds]``
a ply after the opening, ``null`` for a move played without a search), and per file the engine's
commit as git reads it (``engine_commit``, with ``engine_dirty``: the engine's files changed
since it) and what each peer said it is (``players``: name, version, the program's SHA-256).

A setting's line reads ``+W =D -L  score %  Elo +x +- e`` from our engine's side; the Elo
difference is ``-400 log10(1/s - 1)`` and ``e`` half the width of its 95 % interval (the
per-game score's standard error, mapped through the same curve, as cutechess-cli does). When
that interval reaches 0 or 100 % the line gives its bounds instead: ``Elo -311 (95 %: -inf ..
-40)``.

Sizes: ``--games`` per setting, default from ``DRAUGHTSBOARD_SAMPLE`` (``ci``: 4, ``full``: 40).

Run, e.g.::

    nice -n 10 .venv/bin/python bench/match.py --peer scan --scan /path/to/scan \\
        --scan-depths 4,6,8 --movetime 1.0 --pi-factor 0.25
    nice -n 10 .venv/bin/python bench/match.py --peer turbo \\
        --turbo-python /path/to/py-draughts-venv/bin/python --turbo-movetime 0.5 --movetime 0.5
    nice -n 10 .venv/bin/python -m bench.match --peer ponder --movetime 0.75 --games 200 \\
        --out bench/data/ponder-level10-pi.json      # level 10 at the Pi's time, ponder or not
    nice -n 10 .venv/bin/python -m bench.match --peer scan --scan /path/to/scan \\
        --scan-depths "" --scan-equal-time --movetime 0.25 --ours board   # as the board plays

Example, the score arithmetic (+6 =4 -2):

>>> tally = Tally(wins=6, draws=4, losses=2)
>>> round(tally.score, 4), round(tally.elo, 1)
(0.6667, 120.4)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.build import engine_build
from bench.build import warning as build_warning
from bench.level_ladder import opening
from bench.players import (
    KNOWN,
    EnginePlayer,
    HubPlayer,
    PeerError,
    Player,
    ScanHub1Player,
    TurboPlayer,
    WorkerPlayer,
    pydraughts_fen,
)
from bench.tally import Tally
from engine import Board, Move
from engine.search import Limit
from engine.types import WHITE

#: Games per setting for DRAUGHTSBOARD_SAMPLE=ci and =full.
GAMES = {"ci": 4, "full": 40}
#: Seeds below this play disjoint sets of openings.
OPENING_CLASSES = 64
# ---------------------------------------------------------------------------------- referee
class RefereeError(RuntimeError):
    """A move that the referee does not accept, or referees that disagree."""


class Referee:
    """Checks every move: legal for our :class:`Board` (else :class:`RefereeError`) and, in
    international draughts, for pydraughts too when it is installed: its whole legal move set
    must equal ours, and a position where it does not is kept in :attr:`disagreements`."""

    def __init__(self, variant: str, use_pydraughts: bool = True) -> None:
        self.checked = 0
        self.by_pydraughts = 0
        #: Positions where pydraughts' legal moves differ from ours (reported, not fatal: our
        #: Board is the rule book; the peer checks its own moves as well).
        self.disagreements: list[str] = []
        self._pyboard: Callable[[str, str], object] | None = None
        if use_pydraughts and variant == "international":
            try:
                import draughts  # pydraughts 0.x, not py-draughts (same import name)
            except ImportError:
                return
            if str(getattr(draughts, "__version__", "")).startswith("0."):
                self._pyboard = draughts.Board

    def check(self, board: Board, move: Move) -> None:
        """Raise :class:`RefereeError` unless ``move`` is legal in ``board``."""
        ours = {m.key() for m in board.legal_moves}
        if move.key() not in ours:
            raise RefereeError(f"illegal move {move} in {board.fen()}")
        if self._pyboard is not None:
            theirs = set()
            game = self._pyboard("standard", pydraughts_fen(board))
            for their in game.legal_moves():  # type: ignore[attr-defined]
                steps = their.board_move
                caps = frozenset(c - 1 for c in (their.captures or []) if c is not None)
                theirs.add((steps[0][0] - 1, steps[-1][1] - 1, caps))
            if theirs != ours:
                self.disagreements.append(f"{board.fen()}: only engine.Board {ours - theirs}, "
                                          f"only pydraughts {theirs - ours}")
            elif move.key() in theirs:
                self.by_pydraughts += 1
        self.checked += 1


# ---------------------------------------------------------------------------------- games
@dataclass
class Game:
    """One finished game: the winner's colour (None: a draw), how it ended, the moves."""

    winner: int | None
    reason: str
    plies: int
    moves: list[str] = field(default_factory=list)
    #: Per move of ``moves``: the mover's ``[depth, nodes, seconds]``, None without a search.
    searches: list[list[float] | None] = field(default_factory=list)


def play_game(start: Board, white: Player, black: Player, max_plies: int,
              referee: Referee) -> Game:
    """Play from ``start`` (its moves are the opening) until the rules end the game or
    ``max_plies`` plies (opening included) are played: then a draw."""
    board = start.copy()
    players = {int(WHITE): white, 1 - int(WHITE): black}
    for player in (white, black):
        player.new_game()
    notes: list[str] = []
    searches: list[list[float] | None] = []
    while True:
        outcome = board.outcome()
        if outcome is not None:
            winner = None if outcome.winner is None else int(outcome.winner)
            reason = outcome.rule or outcome.termination.name.lower()
            return Game(winner, reason, board.ply, notes, searches)
        if board.ply >= max_plies:
            return Game(None, f"ply cap {max_plies}", board.ply, notes, searches)
        player = players[int(board.turn)]
        player.stats.last = None
        move = player.choose(board)
        referee.check(board, move)
        notes.append(board.move_notation(move))
        last = player.stats.last
        searches.append(None if last is None else [last[0], last[1], round(last[2], 4)])
        board.push(move)


@dataclass
class Setting:
    """One match setting: our engine's limit against one peer."""

    label: str
    ours: Callable[[], Player]
    peer: Callable[[], Player]


def run_match(variant: str, setting: Setting, games: int, seed: int, max_plies: int,
              referee: Referee, log: Callable[[str], None] = print,
              on_game: Callable[[dict[str, object]], None] | None = None,
              ) -> tuple[Tally, Player, Player]:
    """``games`` games (colours swapped on each opening); the tally from our side.

    ``on_game`` gets each finished game as a record (white, black, result, opening, moves ...).
    An interrupt (Ctrl-C, or SIGTERM in :func:`main`) ends the match early: the tally then counts
    the games finished.
    """
    tally = Tally()
    rng = random.Random(f"{seed}:{variant}")
    used: set[str] = set()
    ours, peer = setting.ours(), setting.peer()
    try:
        start = Board(variant)
        for number in range(games):
            if number % 2 == 0:
                start = seeded_opening(variant, rng, seed, used)
            ours_white = number % 2 == 0
            white, black = (ours, peer) if ours_white else (peer, ours)
            game = play_game(start, white, black, max_plies, referee)
            ours_colour = int(WHITE) if ours_white else 1 - int(WHITE)
            points = 0.5 if game.winner is None else float(game.winner == ours_colour)
            tally.add(points)
            opening_text = _opening_text(start)
            log(f"  game {number + 1}: ours {'white' if ours_white else 'black'}, "
                f"{ {1.0: 'win', 0.5: 'draw', 0.0: 'loss'}[points]} ({game.reason}, "
                f"{game.plies} plies), opening {opening_text}")
            if on_game is not None:
                result = "1/2-1/2" if game.winner is None else (
                    "1-0" if game.winner == int(WHITE) else "0-1")
                on_game({"white": white.name, "black": black.name, "result": result,
                         "reason": game.reason, "plies": game.plies, "opening": opening_text,
                         "moves": game.moves, "search": game.searches})
    except KeyboardInterrupt:
        log(f"  interrupted after {tally.games} of {games} games")
    finally:
        ours.close()
        peer.close()
    return tally, ours, peer


def opening_class(text: str) -> int:
    """The class (0 to :data:`OPENING_CLASSES` - 1) of an opening's move text.

    >>> opening_class("32-28 19-23 28x19 14x23")
    1
    """
    return zlib.crc32(text.encode()) % OPENING_CLASSES


def seeded_opening(variant: str, rng: random.Random, seed: int, used: set[str]) -> Board:
    """A balanced opening of ``seed``'s class not in ``used`` (which it joins). English draws
    from the 156 ACF ballots, too few for classes: there only repeats within a run are avoided.
    """
    wanted = seed % OPENING_CLASSES

    def fresh(board: Board) -> bool:
        text = _opening_text(board)
        if text in used:
            return False
        return variant == "english" or opening_class(text) == wanted

    board = opening(variant, rng, accept=fresh)
    used.add(_opening_text(board))
    return board


def _opening_text(board: Board) -> str:
    replay, texts = board.root(), []
    for move in board.move_stack:
        texts.append(replay.move_notation(move))
        replay.push(move)
    return " ".join(texts)


def default_games() -> int:
    """Games per setting from ``DRAUGHTSBOARD_SAMPLE`` (``ci`` or ``full``)."""
    sample = os.environ.get("DRAUGHTSBOARD_SAMPLE", "ci")
    if sample not in GAMES:
        raise SystemExit(f"DRAUGHTSBOARD_SAMPLE must be 'ci' or 'full', not {sample!r}")
    return GAMES[sample]


def _git(*args: str, checkout: str | None = None, strip: bool = True) -> str | None:
    cwd = checkout if checkout is not None else str(Path(__file__).resolve().parent)
    try:
        out = subprocess.run(["git", *args], capture_output=True, text=True, cwd=cwd, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return out.stdout.strip() if strip else out.stdout


def _git_commit(checkout: str | None = None) -> str:
    return _git("rev-parse", "--short", "HEAD", checkout=checkout) or "unknown"


def engine_provenance(checkout: str | None = None) -> dict[str, object]:
    """The engine's commit as git reads it in ``checkout`` (default: this script's), and its
    files changed since (``engine/``)."""
    commit = _git("rev-parse", "HEAD", checkout=checkout)
    # Each entry is "XY path" (X or Y may be a space: " M engine/x.py"); NUL-separated, unquoted,
    # not stripped (stripping took the first entry's leading space, and with it a letter).
    dirty = _git("status", "--porcelain", "-z", "--", "engine", checkout=checkout, strip=False)
    return {"engine_commit": commit or "unknown", "engine_dirty": dirty_paths(dirty or "")}


def dirty_paths(porcelain_z: str) -> list[str]:
    """The paths of ``git status --porcelain -z`` output, sorted; a rename's source (the entry
    after it) is left out.

    >>> dirty_paths(" M engine/search.py\\0?? engine/new.py\\0R  engine/b.py\\0engine/a.py\\0")
    ['engine/b.py', 'engine/new.py', 'engine/search.py']
    """
    entries = porcelain_z.split("\0")
    paths: list[str] = []
    i = 0
    while i < len(entries):
        entry = entries[i]
        i += 1
        if len(entry) < 4:
            continue
        paths.append(entry[3:])
        if entry[0] in "RC":
            i += 1
    return sorted(paths)


def _settings(args: argparse.Namespace, peer: str) -> list[Setting]:
    """The settings of one peer: each of our times against each of its strengths."""
    times = [args.movetime] + ([args.movetime * args.pi_factor] if args.pi_factor else [])
    settings: list[Setting] = []
    if peer == "ponder":
        for ours_time in times:
            def pondering(t: float = ours_time) -> Player:
                return WorkerPlayer(args.variant, t, ponder=True, seed=args.seed,
                                    name=f"draughtsboard level 10 pondering {t:g} s")

            def steady(t: float = ours_time) -> Player:
                return WorkerPlayer(args.variant, t, ponder=False, seed=args.seed,
                                    name=f"level 10 without pondering {t:g} s")

            settings.append(Setting(f"level 10 pondering v not, {ours_time:g} s CPU",
                                    pondering, steady))
        return settings
    for ours_time in times:
        def ours(t: float = ours_time) -> Player:
            if args.ours == "board":  # as the board runs it: its own process, pondering
                return WorkerPlayer(args.variant, t, ponder=True, seed=args.seed,
                                    name=f"draughtsboard level 10 pondering {t:g} s")
            clock = None if args.clock == "engine" else time.thread_time
            return EnginePlayer(args.variant, Limit(movetime=t), name=f"draughtsboard {t:g} s",
                                clock=clock)

        if peer == "scan":
            scan = str(Path(args.scan).resolve())
            cwd = args.scan_cwd or str(Path(scan).parent)
            for depth in (int(d) for d in args.scan_depths.split(",") if d):
                def scan_peer(d: int = depth, program: str = scan, cwd: str = cwd) -> Player:
                    if args.scan_protocol == 1:
                        return ScanHub1Player((program, "hub"), cwd, d, args.stderr_log,
                                              history=args.scan_sees == "game")
                    return HubPlayer((program, "hub"), cwd, d)

                settings.append(Setting(f"ours {ours_time:g} s CPU v Scan depth {depth}",
                                        ours, scan_peer))
            if args.scan_equal_time:
                def timed_peer(t: float = ours_time, program: str = scan,
                               cwd: str = cwd) -> Player:
                    return ScanHub1Player((program, "hub"), cwd, None,
                                          args.stderr_log, history=args.scan_sees == "game",
                                          movetime=t)

                settings.append(Setting(f"ours {ours_time:g} s CPU v Scan {ours_time:g} s",
                                        ours, timed_peer))
        else:
            turbo_time = args.turbo_movetime if args.turbo_movetime else ours_time

            def turbo(t: float = turbo_time, python: str = args.turbo_python) -> Player:
                return TurboPlayer(python, t, args.stderr_log)

            settings.append(Setting(f"ours {ours_time:g} s CPU v TurboEngine {turbo_time:g} s CPU",
                                    ours, turbo))
    return settings


def tally_games(games: Sequence[dict[str, object]], ours_prefix: str = "draughtsboard",
                ) -> dict[tuple[str, str], Tally]:
    """Tallies from our side by (our player, peer) of ``--out`` game records.

    >>> games = [{"white": "draughtsboard 1 s", "black": "Scan depth 8", "result": "0-1"},
    ...          {"white": "Scan depth 8", "black": "draughtsboard 1 s", "result": "1/2-1/2"}]
    >>> tally_games(games)
    {('draughtsboard 1 s', 'Scan depth 8'): Tally(wins=0, draws=1, losses=1)}
    """
    tallies: dict[tuple[str, str], Tally] = {}
    for game in games:
        white, black, result = str(game["white"]), str(game["black"]), str(game["result"])
        ours_white = white.startswith(ours_prefix)
        ours, peer = (white, black) if ours_white else (black, white)
        white_points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
        tallies.setdefault((ours, peer), Tally()).add(
            white_points if ours_white else 1.0 - white_points)
    return tallies


def search_figures(games: Sequence[dict[str, object]], ours_prefix: str = "draughtsboard",
                   ) -> dict[str, float] | None:
    """Our engine's searches in ``--out`` game records: ``moves`` searched, ``nodes`` a move
    (mean), ``depth`` (mean, over the moves not searched to the last depth: ``known``, a
    result known from a table or a forced end) and ``depth_median`` over every searched move,
    and over the moves
    that ran their full time (``full``, ``full_depth_median``: the seconds of our player's name,
    ``draughtsboard 0.25 s``; a move ended sooner by a forced end or a table hit is not one);
    None when the records have no search figures.

    >>> games = [{"white": "draughtsboard 0.25 s", "black": "Scan depth 8", "opening": "",
    ...           "search": [[9, 800, 0.25], [8, 0, 0.01], [20, 100, 0.01], None]}]
    >>> figures = search_figures(games)
    >>> figures["moves"], figures["nodes"], figures["depth_median"], figures["full_depth_median"]
    (2, 450.0, 14.5, 9)
    """
    depths: list[int] = []
    nodes: list[int] = []
    full: list[int] = []
    for game in games:
        searches = game.get("search")
        if not isinstance(searches, list):
            continue
        white, black = str(game["white"]), str(game["black"])
        ours = white if white.startswith(ours_prefix) else black
        seconds = float(ours.split()[-2]) if ours.endswith(" s") else None
        # The recorded moves start after the opening; White moves first from the start.
        first = len(str(game.get("opening", "")).split()) % 2
        ours_parity = 0 if ours == white else 1
        for index, entry in enumerate(searches):
            if entry is None or (first + index) % 2 != ours_parity:
                continue
            depth, count, spent = int(entry[0]), int(entry[1]), float(entry[2])
            depths.append(depth)
            nodes.append(count)
            if seconds is not None and spent >= 0.99 * seconds:
                full.append(depth)
    if not depths:
        return None
    searched = [d for d in depths if d < KNOWN]
    return {"moves": len(depths), "nodes": sum(nodes) / len(nodes),
            "depth": sum(searched) / len(searched) if searched else 0.0,
            "known": len(depths) - len(searched), "depth_median": statistics.median(depths),
            "full": len(full), "full_depth_median": statistics.median(full) if full else 0}


def _print_tallies(paths: Sequence[str]) -> int:
    games: list[dict[str, object]] = []
    for path in paths:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            games += list(data["games"])
            print(f"{path}: {len(data['games'])} games, commit {data.get('commit')}, "
                  f"engine.search {data.get('engine_build')}")
            figures = search_figures(list(data["games"]))
            if figures is not None:
                print(f"  ours: {figures['nodes']:,.0f} nodes a move over {figures['moves']} "
                      f"searched moves, depth {figures['depth']:.1f} (median "
                      f"{figures['depth_median']:g}; {figures['known']:g} to the last depth, "
                      f"a known result, left out of the mean); {figures['full']} ran their "
                      "full time, "
                      f"depth median {figures['full_depth_median']:g} there")
        except (OSError, ValueError, KeyError, TypeError) as exc:
            print(f"{path}: not a games file of bench/match.py ({exc!r})", file=sys.stderr)
            return 2
    for (ours, peer), tally in sorted(tally_games(games).items()):
        print(f"  {ours} v {peer}: {tally}  ({tally.games} games)")
    return 0


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--peer", choices=("scan", "turbo", "ponder", "all"), default="all",
                        help="the opponent (default: every one that is installed, Scan and "
                             "TurboEngine); ponder: level 10 as the board runs it, pondering "
                             "against not")
    parser.add_argument("--variant", default="international")
    parser.add_argument("--games", type=int, default=None,
                        help="games per setting (default: 4, or 40 with DRAUGHTSBOARD_SAMPLE=full)")
    parser.add_argument("--clock", choices=("engine", "thread"), default="engine",
                        help="our engine's clock: engine (the board's: CPU time capped at twice "
                             "the move's time on the wall clock, default) or thread (CPU time "
                             "only: on a machine more loaded than a Pi)")
    parser.add_argument("--ours", choices=("search", "board"), default="search",
                        help="our side against Scan and TurboEngine: the search in this "
                             "process (default), or level 10 as the board runs it (the engine "
                             "worker and its own process, pondering on the peer's time)")
    parser.add_argument("--movetime", type=float, default=1.0,
                        help="our engine's CPU seconds a move (default 1.0)")
    parser.add_argument("--pi-factor", type=float, default=None,
                        help="also play every setting at this share of --movetime (Pi 4: 0.25)")
    parser.add_argument("--scan", default=os.environ.get("DRAUGHTSBOARD_SCAN"),
                        help="the Scan program, run from its own directory "
                             "(default: $DRAUGHTSBOARD_SCAN)")
    parser.add_argument("--scan-cwd", default=None,
                        help="Scan's directory, where its scan.ini and data/ are (default: "
                             "its program's)")
    parser.add_argument("--scan-protocol", type=int, choices=(1, 2), default=1,
                        help="1: Scan 2.0's first Hub protocol; 2: Hub 2 (Scan 3.x)")
    parser.add_argument("--scan-depths", default="4,6,8",
                        help="Scan's fixed depths, one setting each ('' for none)")
    parser.add_argument("--scan-equal-time", action="store_true",
                        help="also play Scan 2.0 at our seconds a move (its wall clock; it "
                             "searches at least 12 plies whatever the time)")
    parser.add_argument("--scan-sees", choices=("game", "position"), default="game",
                        help="Scan 2.0 is sent the game's start and moves (game, default: it "
                             "sees repetitions and the 25-move count) or the position only")
    parser.add_argument("--turbo-python", default=os.environ.get("DRAUGHTSBOARD_PY_DRAUGHTS"),
                        help="python of the venv that has py-draughts 1.10.1 "
                             "(default: $DRAUGHTSBOARD_PY_DRAUGHTS)")
    parser.add_argument("--turbo-movetime", type=float, default=None,
                        help="TurboEngine's CPU seconds a move (default: equal to ours)")
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-pydraughts", action="store_true",
                        help="referee with engine.Board only")
    parser.add_argument("--stderr-log", default=None, help="file for the peers' stderr")
    parser.add_argument("--out", default=None,
                        help="write every game as JSON (the format bench/rating.py reads)")
    parser.add_argument("--tally", nargs="+", metavar="FILE",
                        help="print the tallies of --out files (several runs pool) and exit")
    parser.add_argument("--checkout", default=None,
                        help="the git checkout the engine was built from (default: this "
                             "script's; give it when running a copy against a compiled wheel)")
    parser.add_argument("--commit", default=None,
                        help="the commit to print (default: git rev-parse HEAD of the checkout)")
    args = parser.parse_args(argv)
    if args.tally:
        return _print_tallies(args.tally)
    games = args.games if args.games is not None else default_games()
    if games < 1 or args.movetime <= 0 or args.max_plies < 1:
        parser.error("--games, --movetime and --max-plies must be positive")
    if args.scan_equal_time and args.scan_protocol != 1:
        parser.error("--scan-equal-time drives Scan 2.0 (--scan-protocol 1)")
    if args.ours == "board" and args.clock != "engine":
        parser.error("--ours board plays on the engine process's own clock: no --clock")
    peers = ["scan", "turbo"] if args.peer == "all" else [args.peer]
    settings: list[Setting] = []
    for peer in peers:
        if peer == "ponder":
            settings += _settings(args, peer)
            continue
        missing = {"scan": (args.scan, "--scan PATH or $DRAUGHTSBOARD_SCAN"),
                   "turbo": (args.turbo_python,
                             "--turbo-python PATH or $DRAUGHTSBOARD_PY_DRAUGHTS")}[peer]
        if args.variant != "international":
            print(f"{peer}: skipped, it plays international draughts only")
        elif not missing[0]:
            print(f"{peer}: skipped, not installed here (give {missing[1]})")
        else:
            settings += _settings(args, peer)

    build = engine_build()
    commit = args.commit or _git_commit(args.checkout)
    print(f"match bench, commit {commit}, engine.search {build}, "
          f"{args.variant}, {games} games a setting, openings swapped, draw at {args.max_plies} "
          f"plies, seed {args.seed}", flush=True)
    if (hidden := build_warning()) is not None:
        print(hidden, flush=True)
    ours_clock = ("capped at twice that on the wall clock (engine.clock.SearchClock)"
                  if args.clock == "engine" else "not capped (time.thread_time)")
    ours_side = ("level 10 as the board runs it (its own process, pondering on the peer's "
                 "time): " if args.ours == "board" else "")
    print(f"time control: ours {ours_side}CPU seconds a move of the search thread, "
          f"{ours_clock}; Scan: fixed depth, no clock (or --scan-equal-time: our seconds on its "
          "wall clock); "
          "TurboEngine: CPU seconds a move of its own process (time.process_time)", flush=True)
    if "scan" in peers and args.scan_protocol == 1:
        sees = "the game (start and moves)" if args.scan_sees == "game" else "the position only"
        print(f"Scan sees {sees}", flush=True)
    players: dict[str, object] = {}
    record: dict[str, object] = {
        "variant": args.variant, "commit": commit, **engine_provenance(args.checkout),
        "engine_build": build,
        "seed": args.seed, "cores": os.cpu_count(),
        "load_at_start": round(os.getloadavg()[0], 2),
        "command": " ".join(sys.argv if argv is None else ["bench/match.py", *argv]),
        "games": [], "players": players}
    played: list[dict[str, object]] = []

    def keep(game: dict[str, object]) -> None:
        game["load"] = round(os.getloadavg()[0], 2)  # (the machine's, as the game ended)
        played.append(game)
        if args.out:
            record["games"] = played
            Path(args.out).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")

    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        results = _play_settings(args, settings, games, keep, players)
    finally:
        signal.signal(signal.SIGTERM, previous)
        if args.out and played:  # with the players of the last setting too
            record["games"] = played
            Path(args.out).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    if results is None:
        return 1
    print("summary:")
    for label, tally in results:
        print(f"  {label:<50} {tally}  ({tally.games} games)")
    return 0


def _play_settings(args: argparse.Namespace, settings: Sequence[Setting], games: int,
                   keep: Callable[[dict[str, object]], None], players: dict[str, object],
                   ) -> list[tuple[str, Tally]] | None:
    """Play the settings in turn, printing each; None if a peer failed. ``players`` gets what
    each player is (a peer's own name, version and program hash)."""
    results: list[tuple[str, Tally]] = []
    for setting in settings:
        referee = Referee(args.variant, use_pydraughts=not args.no_pydraughts)
        print(f"{setting.label}:", flush=True)
        try:
            tally, ours_player, peer_player = run_match(
                args.variant, setting, games, args.seed, args.max_plies, referee,
                log=lambda line: print(line, flush=True), on_game=keep)
        except (PeerError, RefereeError, OSError) as exc:
            print(f"{setting.label}: stopped: {exc}", flush=True)
            return None
        results.append((setting.label, tally))
        players[ours_player.name] = getattr(ours_player, "identity", None) or {
            "engine": "draughtsboard", "clock": args.clock}
        players[peer_player.name] = getattr(peer_player, "identity", {})
        name = getattr(peer_player, "engine_name", peer_player.name)
        print(f"  ours: {ours_player.stats}", flush=True)
        if isinstance(ours_player, WorkerPlayer) and ours_player.ponder:
            print(f"  ours: {ours_player.hits} moves answered after a ponder hit", flush=True)
        print(f"  {name}: {peer_player.stats}", flush=True)
        print(f"  referee: {referee.checked} moves checked, {referee.by_pydraughts} also by "
              f"pydraughts, {len(referee.disagreements)} disagreements", flush=True)
        for text in referee.disagreements[:10]:
            print(f"    pydraughts disagrees: {text}", flush=True)
        print(f"{setting.label}: {tally}", flush=True)
        if tally.games < games:
            break
    return results


if __name__ == "__main__":
    sys.exit(main())
