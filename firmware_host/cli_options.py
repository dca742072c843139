"""Options several commands share, spelled once: the board's language and the game clock.

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> add_language(parser, default="en")
>>> add_time_control(parser)
>>> parser.parse_args(["--language", "ru", "--time-control", "3+2"])
Namespace(language='ru', time_control='3+2')
"""

from __future__ import annotations

import argparse

from firmware_host.i18n import LANGUAGES

__all__ = ["add_language", "add_time_control"]


def add_language(parser: argparse.ArgumentParser, *, default: str | None = None,
                 what: str = "the language the board speaks") -> None:
    """``--language LANG``: one of the languages the board has catalogs for."""
    shown = "" if default is None else f" (default {default})"
    parser.add_argument("--language", metavar="LANG", default=default,
                        help=f"{what}: {', '.join(LANGUAGES)}{shown}")


def add_time_control(parser: argparse.ArgumentParser) -> None:
    """``--time-control M+S``: the game clock (docs/tournament.md)."""
    parser.add_argument("--time-control", metavar="M+S",
                        help="the game clock: minutes+seconds a move (3+2, 90+30; '80+1m' for "
                             "one minute a move; 40/90+30:30+30 for moves in a period); "
                             "docs/tournament.md")
