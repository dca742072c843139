"""Benchmark: the coach's analysis after the game: seconds a game, and how far its marks hold.

Plays ``--games`` seeded self-play games (:mod:`engine.selfplay`, levels 4 and 6 by default:
players who make the mistakes the coach is for), analyses each at ``--depth`` (the default of
``draughtsboard annotate``) and prints, per game and in all:

- the CPU seconds of the analysis here, and at a Raspberry Pi 4's speed: :data:`PI_FACTOR`
  times as long (a Pi 4 searches about a quarter of the nodes a second this machine does,
  docs/strength.md; run it from the compiled engine, as the Pi does);
- the marks per game;
- **the depth agreement**: of the moves marked ``?`` or ``??`` at ``--depth``, the share that
  still lose at least a mistake's worth of winning chances when the position before them is
  searched ``--deeper`` plies deeper (the best move and the played one, each from a cleared
  table); the same for ``?!`` and an inaccuracy's worth;
- with ``--scan PATH`` (Scan 2.0, international only): the share of the same moves that Scan
  at ``--scan-depth`` also finds losing a mistake's worth (its score of the position before,
  against its score after the move).

``--out FILE`` writes every figure, the command and the engine's commit as JSON
(``bench/data/coach-analysis-<variant>.json``). docs/coach.md#measured holds the results.

Run: ``python bench/analysis.py --variant international --games 4 --depth 8 --deeper 4
[--scan PATH/scan --scan-depth 16] [--out FILE]`` (a copy of ``bench/`` outside the checkout
under the compiled engine's python, as docs/levels.md says for the ladder).

Example:
    >>> holds = Judged(ply=3, mark="?", loss=0.25, deep_loss=0.21, scan_loss=None)
    >>> holds.held(), Judged(3, "??", 0.4, 0.15, None).held()
    (True, False)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.build import engine_build, warning
from bench.match import engine_provenance
from engine import Board, Move
from engine.analysis import THRESHOLDS, Judgement, analyse, winning_chances
from engine.search import Limit, Searcher
from engine.selfplay import play_games

__all__ = ["PI_FACTOR", "Judged", "deep_loss", "main"]

#: A Raspberry Pi 4 takes about this many times as long as the development machine for the
#: same search (docs/strength.md: "The Pi 4 setting").
PI_FACTOR = 4.0
#: The chances a mark stands for: a mistake's worth for ``?`` and ``??``, else an inaccuracy's.
_WORTH = {"??": THRESHOLDS[1][0], "?": THRESHOLDS[1][0], "?!": THRESHOLDS[2][0]}


@dataclass(frozen=True)
class Judged:
    """One marked move: its ply, its mark, the chances lost at the analysis depth, deeper,
    and by Scan (None: not asked)."""

    ply: int
    mark: str
    loss: float
    deep_loss: float
    scan_loss: float | None

    def held(self) -> bool:
        """Whether the deeper search still finds the move losing its mark's worth."""
        return self.deep_loss >= _WORTH[self.mark]

    def scan_held(self) -> bool | None:
        """Whether Scan finds it losing its mark's worth (None: Scan was not asked)."""
        return None if self.scan_loss is None else self.scan_loss >= _WORTH[self.mark]


def deep_loss(board: Board, move: Move, limit: Limit) -> float:
    """The winning chances ``move`` loses in ``board``, the best move and it each searched
    within ``limit`` from a cleared table."""
    variant = board.variant
    best = Searcher(variant).search(board, limit).score
    played = Searcher(variant).search(board, limit, moves=[move]).score
    return winning_chances(best) - winning_chances(played)


def _scan_loss(scan: object, board: Board, move: Move) -> float:
    before = scan.score(board)  # type: ignore[attr-defined]
    after = board.copy()
    after.push(move)
    if not after.legal_moves:
        return 0.0  # the move won the game
    return winning_chances(round(before)) - winning_chances(-round(
        scan.score(after)))  # type: ignore[attr-defined]



def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="international")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--levels", default="4,6")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--deeper", type=int, default=4)
    parser.add_argument("--scan", help="Scan 2.0's program (international only)")
    parser.add_argument("--scan-depth", type=int, default=16)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    note = warning()
    if note:
        print(note, file=sys.stderr)
    levels = (int(args.levels.split(",")[0]), int(args.levels.split(",")[1]))
    scan = None
    if args.scan:
        from bench.players import scan_hub1

        scan = scan_hub1(args.scan, args.scan_depth)
    limit, deep = Limit(depth=args.depth), Limit(depth=args.depth + args.deeper)
    print(f"{args.variant}: {args.games} games, levels {args.levels}, depth {args.depth}, "
          f"deeper {deep.depth}, {engine_build()} engine")
    games: list[dict[str, object]] = []
    judged: list[Judged] = []
    for board in play_games(args.variant, args.games, args.seed, levels):
        started = time.process_time()
        analysis = analyse(board, Searcher(args.variant), limit)
        seconds = time.process_time() - started
        positions = board.root()
        marks = []
        for move_analysis in analysis.moves:
            mark = move_analysis.judgement
            if mark is not None and mark is not Judgement.ONLY_MOVE:
                loss_scan = None if scan is None else _scan_loss(scan, positions,
                                                                 move_analysis.move)
                marks.append(Judged(move_analysis.ply, mark.sign, move_analysis.loss,
                                    deep_loss(positions, move_analysis.move, deep), loss_scan))
            positions.push(move_analysis.move)
        judged += marks
        games.append({"plies": board.ply, "seconds": round(seconds, 2),
                      "pi_seconds": round(seconds * PI_FACTOR, 1),
                      "marks": [asdict(m) for m in marks],
                      "only_moves": sum(1 for m in analysis.moves
                                        if m.judgement is Judgement.ONLY_MOVE)})
        print(f"  game of {board.ply} plies: {seconds:.1f} s CPU here, "
              f"{seconds * PI_FACTOR:.0f} s on a Pi 4; marks "
              f"{' '.join(m.mark for m in marks) or '-'}; held deeper "
              f"{sum(m.held() for m in marks)}/{len(marks)}", flush=True)
    if scan is not None:
        scan.close()  # type: ignore[attr-defined]
    summary = _summary(games, judged)
    for line in summary["lines"]:  # type: ignore[union-attr]
        print(line)
    if args.out is not None:
        record = {"command": "python bench/analysis.py " + " ".join(
                      a if not a.startswith("/") else "PATH/" + Path(a).name
                      for a in (argv if argv is not None else sys.argv[1:])),
                  **engine_provenance(), "engine_build": engine_build(),
                  "variant": args.variant, "levels": args.levels, "depth": args.depth,
                  "deeper": deep.depth, "scan_depth": args.scan_depth if scan else None,
                  "games": games, "summary": {k: v for k, v in summary.items() if k != "lines"}}
        args.out.write_text(json.dumps(record, indent=1) + "\n")
    return 0


def _summary(games: list[dict[str, object]], judged: list[Judged]) -> dict[str, object]:
    seconds = [float(g["seconds"]) for g in games]  # type: ignore[arg-type]
    plies = sum(int(g["plies"]) for g in games)  # type: ignore[call-overload]
    mistakes = [m for m in judged if m.mark in ("?", "??")]
    dubious = [m for m in judged if m.mark == "?!"]
    mean = sum(seconds) / len(seconds) if seconds else 0.0
    out: dict[str, object] = {
        "games": len(games), "plies": plies, "seconds_per_game": round(mean, 2),
        "pi_seconds_per_game": round(mean * PI_FACTOR, 1),
        "seconds_per_position": round(sum(seconds) / max(1, plies + len(games)), 3),
        "marks_per_game": round(len(judged) / max(1, len(games)), 1),
        "mistakes": len(mistakes), "mistakes_held": sum(m.held() for m in mistakes),
        "inaccuracies": len(dubious), "inaccuracies_held": sum(m.held() for m in dubious),
    }
    scanned = [m for m in mistakes if m.scan_loss is not None]
    if scanned:
        out["mistakes_scan_agrees"] = sum(bool(m.scan_held()) for m in scanned)
    lines = [f"per game: {mean:.1f} s CPU here, {mean * PI_FACTOR:.0f} s on a Pi 4 "
             f"({out['seconds_per_position']} s a position here), "
             f"{out['marks_per_game']} marks",
             f"? and ?? still a mistake deeper: {out['mistakes_held']}/{len(mistakes)}; "
             f"?! still an inaccuracy: {out['inaccuracies_held']}/{len(dubious)}"]
    if scanned:
        lines.append(f"? and ?? a mistake for Scan too: {out['mistakes_scan_agrees']}/"
                     f"{len(scanned)}")
    out["lines"] = lines
    return out


if __name__ == "__main__":
    sys.exit(main())
