"""The command line's conventions (issue 24 §6): one placeholder style, help everywhere.

Every option that takes a value names it with an explicit upper-case placeholder (``FILE``,
``DIR``, ``URL``, ``N``, ``NAME``...) or lists its choices; an option of the same name has the
same placeholder in every command; every positional argument and every subcommand has help.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

import pytest

from firmware_host.cli import build_parser, main

_PLACEHOLDER = re.compile(r"[A-Z][A-Z0-9_]*(?:[+:/=][A-Z0-9_]+)*")


#: Options whose value is of another kind in different commands: egdb build --out is a folder,
#: tune selfplay --out a file.
_KINDS = frozenset({"--out"})


def parsers(parser: argparse.ArgumentParser, path: str = "draughtsboard"
            ) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Every parser of the tree, with its command path."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from parsers(sub, f"{path} {name}")


def value_options() -> Iterator[tuple[str, argparse.Action]]:
    for path, parser in parsers(build_parser()):
        for action in parser._actions:
            if action.option_strings and action.nargs != 0 and not isinstance(
                    action, argparse._HelpAction | argparse._VersionAction):
                yield path, action


def test_every_value_option_has_an_upper_case_placeholder_or_choices() -> None:
    bad = []
    for path, action in value_options():
        metavar = action.metavar
        if metavar is None and action.choices is not None and not isinstance(
                action.choices, range):
            continue  # {play,teach,record}
        if not isinstance(metavar, str) or not _PLACEHOLDER.fullmatch(metavar):
            bad.append(f"{path} {action.option_strings[0]}: {metavar!r}")
    assert bad == []


def test_an_option_has_one_placeholder_in_every_command() -> None:
    seen: dict[str, dict[str, str]] = {}
    for path, action in value_options():
        metavar = action.metavar if isinstance(action.metavar, str) else "{choices}"
        seen.setdefault(action.option_strings[0], {})[path] = metavar
    mixed = {option: by_path for option, by_path in seen.items()
             if len(set(by_path.values())) > 1 and option not in _KINDS}
    assert mixed == {}


def test_every_positional_and_subcommand_has_help() -> None:
    missing = []
    for path, parser in parsers(build_parser()):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                helped = {a.dest for a in action._choices_actions if a.help}
                missing += [f"{path} {name}" for name in action.choices if name not in helped]
            elif not action.option_strings and not action.help:
                missing.append(f"{path} {action.dest}")
    assert missing == []


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"draughtsboard {version('draughtsboard')}"


def test_run_takes_a_board_id_and_names_the_sensors_backend() -> None:
    args = build_parser().parse_args(["run", "--board-id", "table7", "--sensors", "sim"])
    assert args.board_id == "table7" and args.board == "sim"
    assert build_parser().parse_args(["run", "--board", "sim"]).board == "sim"  # still taken


def test_engine_speaks_hub_without_a_flag() -> None:
    done = subprocess.run([sys.executable, "-m", "firmware_host.cli", "engine"],
                          input="hub\nquit\n", capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "wait" in done.stdout.split()  # the Hub handshake ends with "wait"
    assert build_parser().parse_args(["engine", "--hub"]).command == "engine"  # still taken


@pytest.mark.parametrize("command", [
    ["run", "--store", "memory"], ["play", "--no-save"], ["demo"], ["calibrate"],
])
def test_a_bad_variant_is_worded_as_every_bad_value(
        command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """``--variant`` and ``--time-control`` errors read alike: where the value came from, the
    key, the value, why (run said ``<mapping>: game.variant: ...``, demo ``demo: ...``)."""
    assert main([*command, "--variant", "chess"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("draughtsboard: command line: game.variant = 'chess': unknown variant "
                          "'chess'; known variants: international,"), err
    assert err.count("\n") == 1
    if command[0] == "calibrate":
        return  # calibrate has no clock
    assert main([*command, "--time-control", "soon"]) == 2
    assert capsys.readouterr().err.startswith(
        "draughtsboard: command line: clock.time_control = 'soon': 'soon' is not a time")


def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path: Path) -> None:
    """``draughtsboard demo | head -1``: the pipe closes after one line; the demo stops with
    exit 0 and no traceback (it printed a BrokenPipeError's before)."""
    demo = subprocess.Popen([sys.executable, "-m", "firmware_host.cli", "demo", "--moves", "6"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    assert demo.stdout is not None and demo.stderr is not None
    demo.stdout.readline()
    demo.stdout.close()  # as head does after its line
    errors = demo.stderr.read().decode()
    assert demo.wait() == 0, errors
    assert "Traceback" not in errors and "BrokenPipe" not in errors
