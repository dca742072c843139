"""The ``draughtsboard`` command line: parses arguments and calls one function per subcommand.

Each module of this package but :mod:`~firmware_host.cli.options` (the options several
subcommands share) is a subcommand with ``add_parser(subparsers)`` (which sets ``run`` as the
parser's default) and ``run(args) -> int``. Modules keep their heavy imports inside ``run`` so
that ``draughtsboard --help`` and start-up stay fast.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

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
    from board_io.errors import BoardIOError, ConfigError

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except (ConfigError, BoardIOError) as exc:
        print(f"draughtsboard: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        # A store that cannot be used is one line too. Only a command that opened the store can
        # raise it: look the type up without importing the store (and redis) for the others.
        errors = sys.modules.get("firmware_host.store.errors")
        if errors is None or not isinstance(exc, errors.StoreError):
            raise
        print(f"draughtsboard: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `draughtsboard games export | head`: the reader went away; nothing to report.
        sys.stderr.close()
        return 0

