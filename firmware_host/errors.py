"""The service's exceptions, one tree rooted at :class:`DraughtsboardError`, and the one exit-code
policy of every command.

As gpiozero's ``exc.py``: every error the service raises is a :class:`DraughtsboardError`, each
also a builtin where one fits (a :class:`ConfigError` is a ``ValueError``). The engine's root is
``engine.errors.DraughtsError``, board_io's ``board_io.errors.BoardIOError``. The command line
turns any of them into one line on stderr and the exit code of :data:`EXIT_CODES`
(:func:`exit_code`), the same from every command and from ``run``; anything else is a bug and
keeps its traceback. This module imports nothing heavy: the command line reads it before it
knows which command runs.

Example:
    >>> exit_code(ConfigError("store.url", "not a URL"))
    <ExitCode.BAD_INPUT: 2>
    >>> exit_code(UnavailableError("Redis at redis://127.0.0.1:6379/0 unreachable"))
    <ExitCode.UNAVAILABLE: 69>
    >>> exit_code(KeyError("a bug")) is None
    True
"""

from __future__ import annotations

import sys
from enum import IntEnum
from typing import TextIO

from board_io.errors import BoardIOError, ConfigProblem, MissingExtraError
from engine.errors import DraughtsError

__all__ = ["EXIT_CODES", "ConfigError", "DraughtsboardError", "ExitCode", "InputError",
           "UnavailableError",
           "exit_code", "exit_codes_table", "say"]


class DraughtsboardError(Exception):
    """Base of every error the service (``firmware_host``) raises."""


class ConfigError(DraughtsboardError, ConfigProblem):
    """The service's configuration or command line holds a wrong value: the message names the
    key and the file (see :class:`board_io.errors.ConfigProblem`).

    Example:
        >>> print(ConfigError("game.mode", "unknown mode 'blitz'").in_file("board.toml"))
        board.toml: game.mode: unknown mode 'blitz'
    """

    @classmethod
    def from_problem(cls, problem: ConfigProblem) -> ConfigError:
        """The service's error for ``problem`` (board_io's, from a declaration it validated)."""
        return cls.worded(problem.key, problem.text, source=problem.source) \
            if problem.key is not None else cls(problem.text, source=problem.source)


class InputError(DraughtsboardError, ValueError):
    """A file or value the command was given cannot be used (it names which, and why)."""


class UnavailableError(DraughtsboardError):
    """Something the command needs is not there: Redis unreachable with nothing to hold the
    write, an external engine that does not start or answer."""


class ExitCode(IntEnum):
    """The exit codes of every command (the BSD ``sysexits.h`` value where one fits)."""

    OK = 0
    FAILURE = 1
    BAD_INPUT = 2
    UNAVAILABLE = 69
    INTERRUPTED = 130


#: The documented table (docs/architecture.md#errors-and-exit-codes): each code and when a
#: command gives it.
EXIT_CODES: tuple[tuple[ExitCode, str], ...] = (
    (ExitCode.OK, "done"),
    (ExitCode.FAILURE, "the command ran and found a problem (a check that failed, a table "
                       "with errors, a board id another live board holds, a file it could "
                       "not write)"),
    (ExitCode.BAD_INPUT, "bad input: an option, a configuration value, a position, a move, a "
                         "file or a record that is not valid (argparse's usage errors too)"),
    (ExitCode.UNAVAILABLE, "a dependency is unavailable: Redis down with nothing to hold the "
                           "write, a device or serial link that does not answer, an external "
                           "engine that does not start, a library that is not installed"),
    (ExitCode.INTERRUPTED, "stopped with Ctrl-C"),
)


def exit_code(exc: BaseException) -> ExitCode | None:
    """The exit code of ``exc`` by the table, or None for an exception that is no error of the
    project's (a bug: it keeps its traceback)."""
    match exc:
        case KeyboardInterrupt():
            return ExitCode.INTERRUPTED
        case ConfigProblem() | DraughtsError():
            return ExitCode.BAD_INPUT
        case UnavailableError() | MissingExtraError():
            return ExitCode.UNAVAILABLE
        case BoardIOError():  # bad input (a script, a square) or a device that does not answer
            return ExitCode.BAD_INPUT if isinstance(exc, ValueError) else ExitCode.UNAVAILABLE
        case DraughtsboardError():
            return ExitCode.BAD_INPUT if isinstance(exc, ValueError) else ExitCode.FAILURE
    return None


def say(exc: BaseException, who: str = "draughtsboard", out: TextIO | None = None) -> ExitCode:
    """Say ``exc`` in one line on stderr (``who: message``) and return its exit code.

    Raises:
        BaseException: ``exc`` itself when it is no error of the project's (a bug).
    """
    code = exit_code(exc)
    if code is None:
        raise exc
    if code is not ExitCode.INTERRUPTED:
        print(f"{who}: {exc}", file=out if out is not None else sys.stderr)
    return code


def exit_codes_table() -> str:
    """The table of docs/architecture.md#errors-and-exit-codes, from :data:`EXIT_CODES`.

    Example:
        >>> [row.split(" | ")[0] for row in exit_codes_table().splitlines()[2:]]
        ['| 0', '| 1', '| 2', '| 69', '| 130']
    """
    rows = ["| exit | when |", "|---|---|"]
    rows += [f"| {int(code)} | {when} |" for code, when in EXIT_CODES]
    return "\n".join(rows) + "\n"
