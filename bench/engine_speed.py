"""Benchmark: the engine pure Python beside the same source compiled with mypyc, in one run.

For international, Russian and English draughts (the initial position and the middle-game
positions of bench/search.py) the built-in searcher gets ``--seconds`` of CPU time (default 1 s)
and we print the depth of its last finished iteration and its nodes/s; then perft leaves/s at a
fixed depth (counts checked against the published ones). Each build runs in its own
subprocess: the pure one on this checkout's sources, the compiled one in a venv holding a wheel
built from them with ``DRAUGHTSBOARD_COMPILE=require`` (setup.py), or in the Python given by
``--compiled-python`` (e.g. the Pi's /opt/draughtsboard/venv/bin/python). The wheel is built
once per state of the sources, from a copy of them, under ``--build-dir`` (build/ by default,
never beside the sources). Times are CPU seconds of the worker (``time.process_time``), so
that other jobs on a shared machine change the figures less than wall-clock time would.
Each worker reports which build it really ran (engine.compiled.build()).

``--depth D`` searches to a fixed depth instead (the same tree in every build of the same search),
and ``--baseline-python PY`` puts another install's engine in the left column instead of the
checkout's pure one: an earlier commit's compiled wheel against this one, node for node.

Run: ``.venv/bin/python bench/engine_speed.py [--seconds S] [--quick] [--compiled-python PY]
[--depth D] [--baseline-python PY]``
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

#: A worker's figures, as its JSON line decodes.
Figures = dict[str, Any]

ROOT = Path(__file__).resolve().parents[1]

#: (variant, label, FEN or None for the initial position): those of bench/search.py.
POSITIONS: tuple[tuple[str, str, str | None], ...] = (
    ("international", "initial", None),
    ("international", "middle game", "W:W32-36,40,42,45-50:B1-6,8,13,14,16,18,21,24"),
    ("russian", "initial", None),
    ("russian", "middle game", "W:Wa1,a3,b4,c1,e1,e3,f2,g3,h2:Ba7,b8,c5,d6,e5,f8,h4,h6,h8"),
    ("english", "initial", None),
    ("english", "middle game", "B:W13,19,21-24,27,29-31:B1,3,4,6,9-12,14,20"),
)
#: variant: (perft depth, published leaf counts by depth: the sources of tests/engine/test_perft.py)
PERFT = {
    "international": (6, {5: 27117, 6: 167140}),
    "russian": (7, {6: 37986, 7: 190146}),
    "english": (7, {6: 36768, 7: 179740}),
}


def worker(seconds: float, quick: bool, depth: int | None = None) -> Figures:
    """Measure this interpreter's engine; returns the figures (printed as JSON).

    ``depth``: search each position to this depth instead of for ``seconds``: the same tree in
    every build of the same search, so two builds compare node for node.
    """
    import engine
    from engine import Board
    from engine.compiled import build
    from engine.perft import perft
    from engine.search import Limit, Searcher

    searches = []
    for variant, label, fen in POSITIONS:
        searcher = Searcher(variant, clock=time.process_time)
        limit = Limit(depth=depth) if depth else Limit(movetime=seconds)
        start = time.process_time()
        result = searcher.search(Board(variant, fen), limit)
        cpu = time.process_time() - start
        searches.append({"variant": variant, "label": label, "depth": result.depth,
                         "nodes": result.nodes, "cpu": cpu})
    perfts = []
    for variant, (depth, published) in PERFT.items():
        depth -= quick
        start = time.process_time()
        leaves = perft(Board(variant), depth)
        cpu = time.process_time() - start
        if leaves != published[depth]:
            raise SystemExit(f"perft {variant} {depth}: {leaves}, published {published[depth]}")
        perfts.append({"variant": variant, "depth": depth, "leaves": leaves, "cpu": cpu})
    return {"build": build(), "engine": str(Path(engine.__file__).parent),
            "search": searches, "perft": perfts}


def _sources_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted([ROOT / "setup.py", ROOT / "pyproject.toml",
                        *(ROOT / "engine").rglob("*.py")]):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def compiled_python(build_dir: Path) -> Path:
    """A Python whose engine is compiled from this checkout's sources (built when missing).

    Raises:
        RuntimeError: the wheel did not build (no compiler, no network for mypy, ...).
    """
    home = build_dir / _sources_digest()
    python = home / "venv" / "bin" / "python"
    if python.exists():
        return python
    shutil.rmtree(home, ignore_errors=True)
    src = home / "src"
    ignore = shutil.ignore_patterns(".git", ".venv", "build", "*.egg-info", "__pycache__",
                                    ".mypy_cache", ".pytest_cache", ".hypothesis", "*.so")
    for name in ("engine", "board_io", "firmware_host"):
        shutil.copytree(ROOT / name, src / name, ignore=ignore)
    for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE"):  # license-files
        shutil.copy2(ROOT / name, src / name)
    print(f"building the compiled engine in {home} (once per state of the sources) ...",
          file=sys.stderr, flush=True)
    env = {**os.environ, "DRAUGHTSBOARD_COMPILE": "require"}
    steps = [
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(home / "wheel"),
         str(src)],
        [sys.executable, "-m", "venv", str(home / "venv")],
    ]
    for step in steps:
        done = subprocess.run(step, env=env, capture_output=True, text=True, check=False)
        if done.returncode:
            raise RuntimeError(f"{' '.join(step[:4])} failed: {done.stderr.strip()[-600:]}")
    wheel = next((home / "wheel").glob("*.whl"))
    done = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)],
                          capture_output=True, text=True, check=False)
    if done.returncode:
        shutil.rmtree(home / "venv", ignore_errors=True)
        raise RuntimeError(f"installing the wheel failed: {done.stderr.strip()[-600:]}")
    return python


def run_worker(python: Path | str, pure: bool, seconds: float, quick: bool,
               depth: int | None = None) -> Figures:
    """Run this script's worker under ``python``; the pure one reads the checkout's sources."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if pure:
        env["PYTHONPATH"] = str(ROOT)  # ahead of any installed (maybe compiled) engine
    command = [str(python), str(Path(__file__).resolve()), "--worker", "--seconds", str(seconds),
               *(["--depth", str(depth)] if depth else [])]
    done = subprocess.run([*command, *(["--quick"] if quick else [])], env=env, cwd=ROOT / "bench",
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"worker under {python} failed: {done.stderr.strip()[-600:]}")
    result: Figures = json.loads(done.stdout)
    return result


def _table(pure: Figures, compiled: Figures | None, left: str = "pure") -> list[str]:
    def cell(depth: object, rate: float) -> str:
        return f"{depth!s:>5} {rate:>12,.0f}"

    lines = [f"{'':40}{left:>18}  {'compiled':>18}  {'ratio':>6}",
             f"{'search, CPU s each':40}{'depth':>5} {'nodes/s':>12}  {'depth':>5} "
             f"{'nodes/s':>12}  {'n/s':>6}"]
    rows_p = pure["search"]
    rows_c = compiled["search"] if compiled else [None] * len(rows_p)
    for p, c in zip(rows_p, rows_c, strict=True):
        rate = p["nodes"] / max(p["cpu"], 1e-9)
        line = f"  {p['variant']:<14}{p['label']:<24}{cell(p['depth'], rate)}"
        if c is not None:
            c_rate = c["nodes"] / max(c["cpu"], 1e-9)
            line += f"  {cell(c['depth'], c_rate)}  x{c_rate / rate:>5.2f}"
            if c["nodes"] != p["nodes"]:
                line += f"  (nodes {p['nodes']:,} and {c['nodes']:,})"
        lines.append(line)
    lines.append(f"{'perft (bulk counting)':40}{'depth':>5} {'leaves/s':>12}  {'depth':>5} "
                 f"{'leaves/s':>12}  {'l/s':>6}")
    perft_p = pure["perft"]
    perft_c = compiled["perft"] if compiled else [None] * len(perft_p)
    for p, c in zip(perft_p, perft_c, strict=True):
        rate = p["leaves"] / max(p["cpu"], 1e-9)
        line = f"  {p['variant']:<38}{cell(p['depth'], rate)}"
        if c is not None:
            c_rate = c["leaves"] / max(c["cpu"], 1e-9)
            line += f"  {cell(c['depth'], c_rate)}  x{c_rate / rate:>5.2f}"
        lines.append(line)
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per search")
    parser.add_argument("--quick", action="store_true", help="perft one ply less")
    parser.add_argument("--compiled-python", type=Path,
                        help="a Python with the compiled engine installed (else one is built)")
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build" / "engine_speed",
                        help="where the compiled venv is built and kept")
    parser.add_argument("--depth", type=int,
                        help="search each position to this depth, not for --seconds (the same "
                             "tree in every build: nodes/s compare node for node)")
    parser.add_argument("--baseline-python", type=Path,
                        help="the left column runs this Python's installed engine instead of the "
                             "checkout's pure one (e.g. an earlier commit's compiled wheel)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    if args.depth is not None and not 1 <= args.depth <= 30:
        parser.error("--depth must be 1 to 30")
    if args.worker:
        print(json.dumps(worker(args.seconds, args.quick, args.depth)))
        return 0
    compiled: Figures | None = None
    why = ""
    try:
        python = args.compiled_python or compiled_python(args.build_dir)
        compiled = run_worker(python, False, args.seconds, args.quick, args.depth)
    except (RuntimeError, OSError, StopIteration) as error:
        why = str(error)
    left = "baseline" if args.baseline_python else "pure"
    try:
        pure = run_worker(args.baseline_python or sys.executable, not args.baseline_python,
                          args.seconds, args.quick, args.depth)
    except (RuntimeError, OSError) as error:
        print(f"engine_speed.py: {error}", file=sys.stderr)
        return 1
    search = f"depth {args.depth}" if args.depth else f"{args.seconds:g} s"
    print(f"engine speed, {left} vs compiled (mypyc); CPU time, one subprocess each; "
          f"search {search} per position")
    print(f"{left + ':':<9} {pure['build']:<9} {pure['engine']}")
    if compiled is not None:
        print(f"compiled: {compiled['build']:<9} {compiled['engine']}")
        if compiled["build"] != "compiled":
            print("  (that engine is not compiled: its column is not the compiled engine's)")
    else:
        print(f"compiled: not available ({why})")
    print("\n".join(_table(pure, compiled, left)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
