"""``draughtsboard egdb``: build, check and describe the endgame tables (writes the files).

The retrograde analysis is :mod:`engine.endgame_build` (pure); this tool chooses what to build,
reports progress and writes ``egdb_<variant>.bin`` files, by default the ones
:data:`engine.endgame.SHIPPED` lists, into a folder (the package's ``engine/data`` when the
shipped files are rebuilt).

Example:
    >>> import io, tempfile, pathlib
    >>> out = io.StringIO()
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     report = build_files(["english"], pathlib.Path(folder), out=out, pieces=2)
    ...     sorted(p.name for p in pathlib.Path(folder).iterdir())
    ['egdb_english.bin']
    >>> report[0].variant, report[0].positions, report[0].problems
    ('english', 5240, 0)
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from engine.endgame import SHIPPED, EndgameTable, table_file_name
from engine.endgame_build import BuildStats, build, verify
from engine.variant import find_variant

__all__ = ["FileReport", "build_files", "describe", "shipped_folder", "verify_file"]


@dataclass(frozen=True)
class FileReport:
    """One written file: what it holds, its size and the CPU seconds it took."""

    variant: str
    pieces: int
    men_pieces: int
    against_one: bool
    positions: int
    entries: int
    wins: int
    losses: int
    longest: int
    file_bytes: int
    build_seconds: float
    problems: int


def shipped_folder() -> Path:
    """The package's data folder, where the shipped tables live."""
    import engine

    return Path(engine.__file__).resolve().parent / "data"


def _variants(names: list[str]) -> list[str]:
    """Canonical variant names; ``all`` (or none) means every shipped one.

    Raises:
        UnknownVariantError: a name that is no variant.
        ValueError: a variant without a shipped table and no piece count given.
    """
    if not names or names == ["all"]:
        return list(SHIPPED)
    return [find_variant(name).name for name in names]


def build_files(
    names: list[str], folder: Path, *, out: TextIO | None = None,
    pieces: int | None = None, men_pieces: int | None = None, check: bool = True,
    against_one: bool = False,
) -> list[FileReport]:
    """Build the tables of ``names`` into ``folder``; the shipped piece counts by default.

    With ``check`` every position is verified against the move generator afterwards. Given
    counts take ``against_one`` as given; the shipped counts bring their own.

    Raises:
        ValueError: a variant with no shipped counts and none given, or a bad count.
        EndgameError: a variant the tables cannot describe.
    """
    out = sys.stdout if out is None else out
    reports = []
    folder.mkdir(parents=True, exist_ok=True)
    for name in _variants(names):
        if pieces is None and name not in SHIPPED:
            raise ValueError(f"no shipped piece count for {name}: give --pieces")
        n, m, one = SHIPPED.get(name, (0, 0, False))
        if pieces is not None:
            n, m, one = pieces, pieces, against_one
        m = min(men_pieces if men_pieces is not None else m, n)
        stats: list[BuildStats] = []
        started = time.process_time()

        def progress(s: BuildStats, name: str = name, started: float = started,
                     stats: list[BuildStats] = stats) -> None:
            stats.append(s)
            print(f"{name} {s.signature}: {s.positions} positions, {s.wins} won, "
                  f"{s.losses} lost, longest {s.longest} plies "
                  f"({time.process_time() - started:.1f} s)", file=out, flush=True)

        table = build(name, n, m, progress=progress, against_one=one)
        seconds = time.process_time() - started
        problems = verify(table) if check else []
        for problem in problems:
            print(f"{name}: {problem}", file=out)
        data = table.to_bytes()
        path = folder / table_file_name(name)
        path.write_bytes(data)
        report = FileReport(
            name, n, m, table.info.against_one, sum(s.positions for s in stats),
            sum(s.entries for s in stats),
            sum(s.wins for s in stats), sum(s.losses for s in stats),
            max((s.longest for s in stats), default=0), len(data), round(seconds, 1),
            len(problems))
        print(f"{path.name}: {report.positions} positions ({report.entries} entries), "
              f"{report.file_bytes} bytes, built in {report.build_seconds} s CPU"
              + (f", {len(problems)} problems" if problems else ""), file=out, flush=True)
        reports.append(report)
    return reports


def verify_file(path: Path, every: int = 1) -> list[str]:
    """Check a table file against the move generator (see :func:`engine.endgame_build.verify`).

    Raises:
        OSError: the file cannot be read.
        EndgameError: not a table file.
    """
    return verify(EndgameTable.from_bytes(path.read_bytes()), every=every)


def describe(path: Path) -> list[str]:
    """One line per signature of a table file: counts of wins, losses and draws.

    Raises:
        OSError: the file cannot be read.
        EndgameError: not a table file.
    """
    from engine.endgame_build import positions

    table = EndgameTable.from_bytes(path.read_bytes())
    info = table.info
    lines = [f"{path.name}: {info.variant}, up to {info.pieces} pieces "
             f"({info.men_pieces} with men"
             + (", kings only above that against one king" if info.against_one else "")
             + f"), {len(table.signatures)} signatures"]
    for sig in sorted(table.signatures, key=lambda s: (sum(s), s)):
        values = table.values(sig)
        counts = [0, 0, 0]
        for entry, *_rest in positions(table.index, sig):
            byte = values[entry]
            counts[0 if byte == 0 else 1 if byte < 128 else 2] += 1
        lines.append(f"  {sig}: {counts[1]} won, {counts[2]} lost, {counts[0]} drawn")
    return lines
