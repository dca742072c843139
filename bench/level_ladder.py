"""Benchmark: the strength ladder. Each level plays its neighbours and a few distant levels.

Every pair of ``--pairs`` (default: each level against the next, then 5-10, 1-4, 4-7 and 7-10,
the long pairs that tie the ladder together for the rating fit) plays ``--games`` games (default
from ``DRAUGHTSBOARD_SAMPLE``: 4 in CI, 100 with ``full``) in pairs from the same opening with
colours swapped. English games start from ballots of the ACF three-move deck; the other variants
from two random plies per side, kept only when material is level and a depth-4 search rates the
position within half a man of equal. Each level keeps its own depth cap and noise and thinks for
its own default time multiplied by ``--time-scale``, on the clock the board's engine uses
(``--clock engine``, the default: the search thread's CPU time capped at twice the move's time on
the wall clock, :class:`engine.clock.SearchClock`), or on pure CPU time (``thread``,
``process``), so other jobs on the machine do not change the result. A game that
reaches ``--max-plies`` is scored a draw.

With ``--as-board`` each level plays as the board runs it: the service's engine worker and
the built-in engine in a process of its own (``draughtsboard engine``, kept for the game), on
that process's clock, thinking on the opponent's time as the board does in ``play`` mode
(``--no-ponder``: not). Each game then needs a core for each side: ``--jobs 1`` on two cores.

The line for a pair reads ``L3-L2: +W =D -L  score%`` from the stronger level's side. Targets:
every level scores above 50 % against the one below, and level 10 loses no game to level 5.
``--out FILE`` writes every game (players, colours, opening, moves, result, depth reached, CPU
time) with the command and the commit that produced them; ``bench/rating.py FILE`` fits the
ratings of all levels from all of those games at once and prints the table of docs/levels.md.
The end of the run prints that fit too.

Run: ``.venv/bin/python bench/level_ladder.py [--variant international] [--games 30]
[--time-scale 0.05] [--jobs 2] [--out bench/data/ladder-international.json]``
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Protocol

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import rating
from bench.build import engine_build, warning
from bench.ladder_load import parse_load, start_load
from bench.tally import Tally
from engine import Board, Move
from engine.book import ballot_board, random_ballot
from engine.clock import SearchClock
from engine.levels import LEVELS, level, searcher_for_level
from engine.search import Limit, Searcher

NEIGHBOURS = ",".join(f"{n}-{n + 1}" for n in range(1, 10))
LONG_PAIRS = "5-10,1-4,4-7,7-10"
SCAN_PAIRS = "4:1,6:2,8:3,10:4"
#: The clocks by name: each player gets its own (a SearchClock is restarted by every search).
CLOCKS: dict[str, Callable[[], Callable[[], float]]] = {
    "engine": SearchClock,
    "thread": lambda: time.thread_time,
    "process": lambda: time.process_time,
}
RESULTS = {0: "1-0", 1: "0-1", None: "1/2-1/2"}


@dataclass
class Side:
    """What one side did in one game: moves searched, depth reached, nodes, seconds on its
    clock and on the wall clock."""

    moves: int = 0
    depth: int = 0
    nodes: int = 0
    seconds: float = 0.0
    wall: float = 0.0
    #: Moves answered after a ponder hit (``--as-board`` with pondering).
    hits: int = 0


@dataclass
class GameRecord:
    """One game as the ladder file keeps it (``white`` moves first)."""

    white: str
    black: str
    result: str
    termination: str
    plies: int
    opening: str
    moves: str
    sides: dict[str, Side] = field(default_factory=dict)


def opening(variant: str, rng: random.Random,
            accept: Callable[[Board], bool] | None = None) -> Board:
    """A varied, balanced start: an ACF ballot for English, else two random plies per side
    that keep material level and that a short search rates within half a man of equal.
    ``accept`` (when given) must also take the opening; it is asked before the search."""
    if variant == "english":
        while True:
            ballot = ballot_board(random_ballot(rng))
            if accept is None or accept(ballot):
                return ballot
    judge = Searcher(variant)
    while True:
        board = Board(variant)
        for _ in range(4):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        white, black, _ = board.bitboards()
        if white.bit_count() != black.bit_count():
            continue
        if accept is not None and not accept(board):
            continue
        if abs(judge.search(board, Limit(depth=4)).score) <= 50:
            return board


class Player(Protocol):
    """One side of a game (:class:`LevelPlayer`, or Scan through bench/match.py)."""

    name: str

    def new_game(self) -> None: ...

    def choose(self, board: Board) -> Move: ...

    def close(self) -> None: ...


class LevelPlayer:
    """A strength level on a CPU-time clock: its own depth cap and its time times ``scale``."""

    def __init__(self, variant: str, number: int, scale: float, seed: int, clock: str) -> None:
        chosen = level(number)
        self.name = f"L{number}"
        self.searcher = searcher_for_level(variant, number, seed=seed, clock=CLOCKS[clock](),
                                           tt_mb=4)
        self.limit = Limit(depth=chosen.depth, movetime=chosen.movetime * scale)
        self.side = Side()

    def new_game(self) -> None:
        self.searcher.new_game()

    def choose(self, board: Board) -> Move:
        started = time.monotonic()
        result = self.searcher.search(board, self.limit)
        self.side.wall += time.monotonic() - started
        if result.move is None:
            raise RuntimeError(f"{self.name} found no move in {board.fen()}")
        self.side.moves += 1
        self.side.depth += result.depth
        self.side.nodes += result.nodes
        self.side.seconds += result.seconds
        return result.move

    def close(self) -> None:
        pass


class BoardLevelPlayer:
    """A strength level as the board runs it (``--as-board``): the service's engine worker and
    the engine's own process (:class:`bench.players.WorkerPlayer`), at the level's time times
    ``scale`` on that process's clock, pondering on the opponent's time if ``ponder``."""

    def __init__(self, variant: str, number: int, scale: float, seed: int, ponder: bool
                 ) -> None:
        from bench.players import WorkerPlayer

        self.name = f"L{number}"
        self.worker = WorkerPlayer(variant, level(number).movetime * scale, ponder=ponder,
                                   level=number, seed=seed, name=self.name)
        self.side = Side()

    def new_game(self) -> None:
        self.worker.new_game()

    def choose(self, board: Board) -> Move:
        started = time.monotonic()
        self.worker.stats.last = None
        move = self.worker.choose(board)
        self.side.wall += time.monotonic() - started
        self.side.hits = self.worker.hits
        searched = self.worker.stats.last  # (None: a forced move, played without a search)
        if searched is not None:
            depth, nodes, seconds = searched
            self.side.moves += 1
            self.side.depth += depth
            self.side.nodes += nodes
            self.side.seconds += seconds
        return move

    def close(self) -> None:
        self.worker.close()


def play(start: Board, players: dict[int, Player], max_plies: int,
         record: list[str] | None = None) -> tuple[int | None, str]:
    """Play a game out: the winner's colour (None for a draw) and how it ended.

    ``record`` gets the moves. Every move must be legal in ``engine.Board`` (the referee).
    """
    board = start.copy()
    for player in players.values():
        player.new_game()
    for ply in range(max_plies):
        # The draw rules replay the whole game, so they are checked every few plies only (a
        # draw is seen at most 7 plies late); the end by lack of moves is seen at once.
        if ply % 8 == 0 or not board.legal_moves:
            outcome = board.outcome()
            if outcome is not None:
                return (None if outcome.winner is None else int(outcome.winner),
                        str(outcome.termination.name).lower())
        move = players[int(board.turn)].choose(board)
        if move not in board.legal_moves:
            raise RuntimeError(f"illegal move {move} in {board.fen()}")
        if record is not None:
            record.append(board.move_notation(move))
        board.push(move)
    outcome = board.outcome()
    if outcome is None:
        return None, "max_plies"
    return (None if outcome.winner is None else int(outcome.winner),
            str(outcome.termination.name).lower())


@dataclass(frozen=True)
class Task:
    """One game of a pair: everything a worker process needs to play it alone.

    ``first`` and ``second`` are player names, ``L<n>`` or ``scan-d<depth>``; ``first`` has
    White in even games.
    """

    variant: str
    first: str
    second: str
    game: int
    scale: float
    max_plies: int
    seed: int
    clock: str
    scan: str | None = None
    load: str = "none"
    #: Played as the board runs it (:class:`BoardLevelPlayer`), and pondering there.
    as_board: bool = False
    ponder: bool = True


def _opening_for(task: Task) -> Board:
    """The opening of the colour-swapped couple this game belongs to (same for both games)."""
    rng = random.Random(f"{task.seed}:{task.variant}:{task.first}:{task.second}:{task.game // 2}")
    return opening(task.variant, rng)


def _player(task: Task, name: str) -> Player:
    if name.startswith("scan-d"):
        from bench.players import ScanHub1Player  # only where Scan is installed

        if task.scan is None:
            raise ValueError("a Scan game needs --scan PATH")
        program = str(Path(task.scan).resolve())
        return ScanHub1Player((program, "hub"), str(Path(program).parent), int(name[6:]))
    if task.as_board:
        return BoardLevelPlayer(task.variant, int(name[1:]), task.scale,
                                task.seed * 1000 + task.game, task.ponder)
    return LevelPlayer(task.variant, int(name[1:]), task.scale,
                       task.seed * 1000 + task.game, task.clock)


def play_task(task: Task) -> GameRecord:
    """Play one game of a pair."""
    start = _opening_for(task)
    first_colour = task.game % 2
    players = {first_colour: _player(task, task.first),
               1 - first_colour: _player(task, task.second)}
    moves: list[str] = []
    try:
        load = start_load(task.load, task.variant)
        try:
            winner, termination = play(start, players, task.max_plies, moves)
        finally:
            load.close()
    finally:
        for player in players.values():
            player.close()
    levels = (LevelPlayer, BoardLevelPlayer)
    names = {c: p.name if isinstance(p, levels) else task.first if c == first_colour
             else task.second for c, p in players.items()}
    return GameRecord(
        white=names[0], black=names[1], result=RESULTS[winner], termination=termination,
        plies=len(moves), opening=start.fen(), moves=" ".join(moves),
        sides={p.name: p.side for p in players.values() if isinstance(p, levels)})


def match(variant: str, strong: int, weak: int, games: int, scale: float, max_plies: int,
          seed: int, show_losses: bool = False, clock: str = "engine") -> Tally:
    """``games`` games between two levels, in colour-swapped pairs from the same opening."""
    tally = Tally()
    for game in range(games):
        record = play_task(Task(variant, f"L{strong}", f"L{weak}", game, scale, max_plies,
                                seed, clock))
        _count(tally, record, f"L{strong}", show_losses)
    return tally


def _count(tally: Tally, record: GameRecord, strong: str, show_losses: bool) -> None:
    if record.result == "1/2-1/2":
        tally.draws += 1
    elif (record.result == "1-0") == (record.white == strong):
        tally.wins += 1
    else:
        tally.losses += 1
        if show_losses:
            side = "white" if record.white == strong else "black"
            print(f"  {strong} ({side}) lost from [FEN \"{record.opening}\"]: {record.moves}")


def parse_pairs(text: str) -> list[tuple[str, str]]:
    """``"1-2,5-10"`` -> ``[("L2", "L1"), ("L10", "L5")]``: (stronger, weaker) players.

    Raises:
        ValueError: a pair that is not two different levels 1-10.
    """
    pairs = []
    for item in (p.strip() for p in text.split(",") if p.strip()):
        try:
            a, b = (int(x) for x in item.split("-"))
            level(a), level(b)
        except ValueError:
            raise ValueError(f"a pair is two levels 1-10 like 4-5, not {item!r}") from None
        if a == b:
            raise ValueError(f"a level does not play itself: {item!r}")
        pairs.append((f"L{max(a, b)}", f"L{min(a, b)}"))
    return pairs


def parse_scan_pairs(text: str) -> list[tuple[str, str]]:
    """``"4:1,8:3"`` -> ``[("L4", "scan-d1"), ("L8", "scan-d3")]``: a level v Scan at a depth.

    Raises:
        ValueError: not a level 1-10 and a depth 1-30.
    """
    pairs = []
    for item in (p.strip() for p in text.split(",") if p.strip()):
        try:
            a, d = (int(x) for x in item.split(":"))
            level(a)
            if not 1 <= d <= 30:
                raise ValueError
        except ValueError:
            raise ValueError(f"a Scan pair is level:depth like 6:2, not {item!r}") from None
        pairs.append((f"L{a}", f"scan-d{d}"))
    return pairs


def _git(*args: str) -> str:
    root = Path(__file__).resolve().parent.parent
    try:
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                              check=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def default_games() -> int:
    return 100 if os.environ.get("DRAUGHTSBOARD_SAMPLE") == "full" else 4


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="english")
    parser.add_argument("--games", type=int, default=default_games(),
                        help="games per pair (default 4; 100 with DRAUGHTSBOARD_SAMPLE=full)")
    parser.add_argument("--time-scale", type=float, default=0.05,
                        help="share of each level's own time per move (default 0.05)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="engine",
                        help="the searchers' clock: engine (the board's: CPU time capped by the "
                             "wall clock, default), thread or process (CPU time)")
    parser.add_argument("--load", default="none",
                        help="what runs beside the search in each game's process: none "
                             "(default), service (the board service on the simulated board), "
                             "threads:N or processes:N (CPU-burning); comma-separated")
    parser.add_argument("--as-board", action="store_true",
                        help="each level as the board runs it: the engine worker and the "
                             "engine's own process, pondering (--clock does not apply)")
    parser.add_argument("--no-ponder", action="store_true",
                        help="with --as-board: no thinking on the opponent's time")
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--pairs", default=f"{NEIGHBOURS},{LONG_PAIRS}",
                        help="comma-separated pairs of levels (default: neighbours, "
                             f"then {LONG_PAIRS}); '' for none")
    parser.add_argument("--scan", default=os.environ.get("DRAUGHTSBOARD_SCAN"),
                        help="Scan 2.0 for the anchors (default: $DRAUGHTSBOARD_SCAN; "
                             "international only)")
    parser.add_argument("--scan-pairs", default=None,
                        help=f"level:depth pairs against Scan (default with --scan: {SCAN_PAIRS})")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    parser.add_argument("--out", type=Path, help="write every game here (JSON) for bench/rating.py")
    parser.add_argument("--commit", help="the commit measured (default: this checkout's HEAD)")
    parser.add_argument("--show-losses", action="store_true",
                        help="print the moves of every game the stronger level lost")
    args = parser.parse_args(argv)
    try:
        pairs = parse_pairs(args.pairs)
        if args.scan_pairs and not args.scan:
            raise ValueError("--scan-pairs needs Scan: --scan PATH or $DRAUGHTSBOARD_SCAN")
        if args.scan and args.variant == "international":
            pairs += parse_scan_pairs(args.scan_pairs or SCAN_PAIRS)
        Board(args.variant)
        parse_load(args.load)
    except ValueError as exc:
        parser.error(str(exc))
    if args.games < 1 or args.time_scale <= 0 or args.jobs < 1 or args.max_plies < 1:
        parser.error("--games, --time-scale, --jobs and --max-plies must be positive")
    if not pairs:
        parser.error("no pairs to play")
    if args.no_ponder and not args.as_board:
        parser.error("--no-ponder is for --as-board (the in-process levels never ponder)")
    if args.as_board and args.clock != "engine":
        parser.error("--as-board plays on the engine process's own clock: no --clock")
    played = ("as the board runs it, " + ("not pondering" if args.no_ponder else "pondering")
              if args.as_board else f"{args.clock} clock")
    print(f"{args.variant}: {args.games} games per pair ({len(pairs)} pairs), "
          f"time x{args.time_scale} ({played}, load {args.load}), "
          f"draw after {args.max_plies} plies")
    if (hidden := warning()) is not None:
        print(hidden, flush=True)
    started = time.perf_counter()
    tasks = [Task(args.variant, first, second, game, args.time_scale, args.max_plies, args.seed,
                  args.clock, args.scan, args.load, args.as_board, not args.no_ponder)
             for first, second in pairs for game in range(args.games)]

    def keep(games: list[GameRecord], complete: bool) -> None:
        if args.out is not None:
            _write(args, argv, games, time.perf_counter() - started, complete)

    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        games = _run(tasks, args.jobs, args.games, args.show_losses, keep)
    finally:
        signal.signal(signal.SIGTERM, previous)
    print(f"wall time {time.perf_counter() - started:.0f} s")
    if not games:
        return 1
    ladder = rating.Ladder(args.variant, tuple(
        rating.Game(g.white, g.black, rating.RESULT_SCORES[g.result]) for g in games),
        _players(games), ())
    names = rating.order_players({g.white for g in games} | {g.black for g in games})
    try:
        print(rating.text_table(ladder, rating.fit(ladder.games, anchor=names[0], players=names)))
    except ValueError as exc:
        print(f"no rating fit: {exc}")
    return 0


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _run(tasks: list[Task], jobs: int, per_pair: int, show_losses: bool,
         keep: Callable[[list[GameRecord], bool], None]) -> list[GameRecord]:
    """Play the tasks (in ``jobs`` processes), print each pair's tally when it is complete and
    ``keep`` the games so far; stopped (Ctrl-C, SIGTERM), keep what was played."""
    games: list[GameRecord] = []
    pool = ProcessPoolExecutor(max_workers=jobs) if jobs > 1 else None
    try:
        results = map(play_task, tasks) if pool is None else pool.map(play_task, tasks)
        tally = Tally()
        for n, (task, record) in enumerate(zip(tasks, results, strict=False), start=1):
            games.append(record)
            _count(tally, record, task.first, show_losses)
            if n % per_pair == 0:
                final = (task.first, task.second) == ("L10", "L5")
                extra = f"   level 10 lost {tally.losses}" if final else ""
                print(f"{task.first:<3}-{task.second:<7} {tally}{extra}", flush=True)
                tally = Tally()
                keep(games, n == len(tasks))
    except KeyboardInterrupt:
        print(f"stopped after {len(games)} of {len(tasks)} games", flush=True)
        keep(games, False)
    finally:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
    return games


def _players(games: list[GameRecord]) -> dict[str, dict[str, object]]:
    """Each level's settings, and the depth and CPU time it reached over these games."""
    out: dict[str, dict[str, object]] = {}
    for lv in LEVELS:
        name = f"L{lv.number}"
        sides = [g.sides[name] for g in games if name in g.sides]
        if not sides:
            continue
        moves = sum(s.moves for s in sides)
        out[name] = {"level": lv.number, "depth": lv.depth, "movetime": lv.movetime,
                     "noise": lv.options.noise, "quiescence": lv.options.quiescence,
                     "description": lv.description,
                     "mean_depth": round(sum(s.depth for s in sides) / max(moves, 1), 2),
                     "mean_nodes": round(sum(s.nodes for s in sides) / max(moves, 1)),
                     "mean_seconds": round(sum(s.seconds for s in sides) / max(moves, 1), 5),
                     "mean_wall": round(sum(s.wall for s in sides) / max(moves, 1), 5),
                     "ponder_hits": sum(s.hits for s in sides)}
    scans = {n for g in games for n in (g.white, g.black) if n.startswith("scan-d")}
    for name in sorted(scans, key=lambda n: int(n[6:])):
        out[name] = {"depth": int(name[6:]),
                     "description": f"Scan 2.0 at depth {name[6:]}, book off (anchor)"}
    return out


def _write(args: argparse.Namespace, argv: Sequence[str] | None, games: list[GameRecord],
           wall: float, complete: bool) -> None:
    build = engine_build()
    shown = list(sys.argv[1:] if argv is None else argv)
    if "--commit" in shown:  # the commit is recorded on its own, not as part of the command
        i = shown.index("--commit")
        del shown[i:i + 2]
    commit = args.commit or _git("rev-parse", "HEAD")
    dirty = bool(_git("status", "--porcelain", "--", "engine")) if not args.commit else False
    data = {
        "format": 1, "variant": args.variant,
        "command": " ".join(["bench/level_ladder.py", *shown]),
        "commit": commit, "dirty": dirty, "games_per_pair": args.games,
        "time_scale": args.time_scale, "clock": args.clock, "load": args.load,
        "as_board": args.as_board, "ponder": args.as_board and not args.no_ponder,
        "max_plies": args.max_plies,
        "seed": args.seed, "wall_seconds": round(wall), "python": sys.version.split()[0],
        "engine_build": build, "complete": complete,
        "players": _players(games), "games": [asdict(g) for g in games],
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    partial = args.out.with_name(args.out.name + ".part")
    partial.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    partial.replace(args.out)
    if complete:
        print(f"wrote {len(games)} games to {args.out}")


if __name__ == "__main__":
    sys.exit(main())
