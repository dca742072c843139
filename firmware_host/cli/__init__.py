"""The ``draughtsboard`` command line: parses arguments and calls one function per subcommand.

Each module of this package but :mod:`~firmware_host.cli.options` (the options several
subcommands share) is a subcommand with ``add_parser(subparsers)`` (which sets ``run`` as the
parser's default) and ``run(args) -> int``. Modules keep their heavy imports inside ``run`` so
that ``draughtsboard --help`` and start-up stay fast. An error of the project's that a command
lets through is one line on stderr and the exit code of the one table,
:data:`firmware_host.errors.EXIT_CODES`; anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from firmware_host.errors import ExitCode, exit_code, say

#: The modules of the command line that are no subcommand.
NOT_SUBCOMMANDS = frozenset({"options", "__main__"})


def command_names() -> tuple[str, ...]:
    """The subcommand modules, in alphabetical order."""
    return tuple(sorted(m.name for m in pkgutil.iter_modules(__path__)
                        if m.name not in NOT_SUBCOMMANDS))


def version() -> str:
    """The installed package's version (``unknown`` when run from a tree never installed)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("draughtsboard")
    except PackageNotFoundError:
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser with every available subcommand."""
    parser = argparse.ArgumentParser(
        prog="draughtsboard",
        description="A smart draughts board: play the computer, record games, teach.")
    parser.add_argument("--version", action="version", version=f"draughtsboard {version()}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in command_names():
        module = importlib.import_module(f"{__name__}.{name}")
        module.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``draughtsboard`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)  # a usage error exits 2 (ExitCode.BAD_INPUT)
    try:
        return int(args.run(args))
    except BrokenPipeError:
        # `draughtsboard games export | head`: the reader went away; nothing to report.
        sys.stderr.close()
        return ExitCode.OK
    except BaseException as exc:
        if exit_code(exc) is None:  # SystemExit, or a bug: as Python says it
            raise
        return say(exc)

