"""``draughtsboard firmware``: the reference firmware for a Raspberry Pi Pico (RP2040).

``install`` copies the MicroPython firmware shipped in ``board_io/firmware/pico`` to a Pico
that runs MicroPython, with MicroPython's own tool ``mpremote`` (``pip install
'draughtsboard[pico]'``), then resets the board so that it starts. ``path`` prints where the
files are, for copying them by hand (Thonny, ...).

Example::

    $ draughtsboard firmware install --port /dev/ttyACM0 --settings my_settings.py
    copying 9 files to /dev/ttyACM0 with mpremote ...
    done: the Pico restarts into the draughtsboard firmware
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from firmware_host.errors import ExitCode

__all__ = ["add_parser", "install", "mpremote_command", "run"]

Runner = Callable[[Sequence[str]], "subprocess.CompletedProcess[str]"]

_STUCK_HINT = ("if the draughtsboard firmware already runs on the Pico, mpremote cannot stop it: "
               "stop the service, unplug the Pico, hold button 0 (adjust) while plugging it in "
               "again, and retry")


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``firmware`` with its ``install`` and ``path`` actions."""
    parser = subparsers.add_parser(
        "firmware", help="install the reference firmware on a Raspberry Pi Pico",
        description="The MicroPython firmware for a Raspberry Pi Pico that scans the board, "
                    "drives the LEDs and reads the buttons (board.sensors = \"serial\"). "
                    "Wiring: docs/hardware.md.")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    install_parser = actions.add_parser(
        "install", help="copy the firmware to a Pico with mpremote",
        description="Copies the firmware to a Pico running MicroPython and resets it. Needs "
                    "mpremote: pip install 'draughtsboard[pico]'.")
    install_parser.add_argument("--port", metavar="PORT",
                                help="the Pico's serial port (default: the first one found)")
    install_parser.add_argument("--settings", metavar="FILE",
                                help="your settings.py (pins, board size) instead of the "
                                     "shipped one")
    install_parser.set_defaults(run=run)
    path_parser = actions.add_parser("path", help="print the firmware's directory")
    path_parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``firmware install`` or ``firmware path``."""
    from board_io.firmware import PICO_DIR

    if args.action == "path":
        print(PICO_DIR)
        return 0
    return install(port=args.port, settings=args.settings)


def mpremote_command(which: Callable[[str], str | None] = shutil.which,
                     has_module: Callable[[str], bool] | None = None) -> list[str] | None:
    """The command that runs mpremote: on PATH, else this Python's module; None if neither.

    Example:
        >>> mpremote_command(which=lambda name: "/usr/bin/" + name)
        ['/usr/bin/mpremote']
    """
    found = which("mpremote")
    if found:
        return [found]
    if has_module is None:
        has_module = _has_module
    if has_module("mpremote"):
        return [sys.executable, "-m", "mpremote"]
    return None


def _has_module(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


def _run_process(argv: Sequence[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(argv), capture_output=True, text=True, check=False)


def install(*, port: str | None, settings: str | None, runner: Runner = _run_process,
            command: list[str] | None = None) -> int:
    """Copy the firmware with mpremote; return the exit status (0 done, 1 failed, 2 bad input).

    Every path goes to mpremote as its own argument, never through a shell.
    """
    from board_io.firmware import SETTINGS_FILE, pico_files

    mpremote = command if command is not None else mpremote_command()
    if mpremote is None:
        print("draughtsboard: mpremote is not installed: pip install 'draughtsboard[pico]'",
              file=sys.stderr)
        return ExitCode.UNAVAILABLE
    files = pico_files()
    if settings is not None:
        problem = _check_settings(Path(settings))
        if problem:
            print(f"draughtsboard: --settings {settings}: {problem}", file=sys.stderr)
            return 2
    argv = list(mpremote)
    if port:
        argv += ["connect", port]
    # Settings first (under their on-board name), main.py last: a half copy never boots.
    copies: list[tuple[str, str]] = []
    if settings is not None:
        copies.append((str(Path(settings)), f":{SETTINGS_FILE}"))
    copies += [(str(f), f":{f.name}") for f in files
               if not (settings is not None and f.name == SETTINGS_FILE)]
    for source, target in copies:
        argv += ["fs", "cp", source, target, "+"]
    argv += ["reset"]
    print(f"copying {len(copies)} files to {port or 'the first Pico found'} with mpremote ...")
    try:
        result = runner(argv)
    except OSError as exc:
        print(f"draughtsboard: cannot run mpremote: {exc}", file=sys.stderr)
        return ExitCode.UNAVAILABLE
    if result.returncode != 0:
        last = (result.stderr or result.stdout or "").strip().splitlines()
        why = last[-1] if last else f"exit status {result.returncode}"
        print(f"draughtsboard: mpremote failed: {why}; {_STUCK_HINT}", file=sys.stderr)
        return ExitCode.UNAVAILABLE  # no Pico found, or one that does not answer
    print("done: the Pico restarts into the draughtsboard firmware")
    return 0


def _check_settings(path: Path) -> str:
    """Return what is wrong with a settings file (empty if nothing)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        return exc.strerror or str(exc)
    except UnicodeDecodeError:
        return "not a text file"
    try:
        compile(text, str(path), "exec")
    except SyntaxError as exc:
        return f"line {exc.lineno}: {exc.msg}"
    return ""
