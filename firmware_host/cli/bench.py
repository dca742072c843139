"""``draughtsboard bench``: run the benchmarks of ``bench/`` (from a source checkout)."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parents[2] / "bench"


def available() -> list[str]:
    """Names of the benchmark scripts in the checkout (``bench/<name>.py``)."""
    if not BENCH_DIR.is_dir():
        return []
    return sorted(p.stem for p in BENCH_DIR.glob("*.py") if not p.name.startswith("_"))


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``bench``."""
    parser = subparsers.add_parser(
        "bench", help="run the benchmarks (speed, memory, start-up)",
        description="Run benchmark scripts from bench/; each prints its figures and ratios "
                    "against a peer measured in the same run.")
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help="benchmarks to run (default: all); --list shows them")
    parser.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the chosen benchmarks one after the other; exit non-zero if one fails."""
    names = available()
    if not names:
        print(f"draughtsboard bench: no bench/ directory at {BENCH_DIR} (run from a source "
              "checkout)", file=sys.stderr)
        return 2
    if args.list:
        print("\n".join(names))
        return 0
    unknown = [n for n in args.names if n not in names]
    if unknown:
        print(f"draughtsboard bench: unknown benchmark {', '.join(unknown)}; "
              f"available: {', '.join(names)}", file=sys.stderr)
        return 2
    status = 0
    for name in args.names or names:
        print(f"== bench/{name}.py", flush=True)
        result = subprocess.run([sys.executable, str(BENCH_DIR / f"{name}.py")], check=False)
        status = status or result.returncode
    return status
