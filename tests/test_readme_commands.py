"""The README's commands work as a new user would type them.

Every fenced ``sh`` command of README.md is listed here, either with the way this test runs it
or with the reason it cannot run here (root, hardware, a compiler, the whole suite); a command
added to the README without a line here fails the first test. The commands table is checked
against the command line itself: every command and option it names exists.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tomllib
import urllib.request
from pathlib import Path

import pytest

from engine.pdn import read_games
from firmware_host.cli import build_parser, command_names

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BIN = Path(sys.executable).parent
#: A hang guard for the commands that should end (or print their URL) within seconds.
GUARD_S = 120

QUICK_START = ("python3 -m venv .venv && .venv/bin/pip install -q '.[web]' && "
               ".venv/bin/draughtsboard demo")
HALL = ".venv/bin/draughtsboard demo --hall 3"
PLAY = ".venv/bin/draughtsboard play --variant russian"

#: The README commands this machine cannot run, and why.
NOT_HERE = {
    "sudo apt-get install -y git": "root",
    "git clone <this repository> draughtsboard && cd draughtsboard": "the network",
    "sudo -u draughtsboard /opt/draughtsboard/venv/bin/draughtsboard doctor":
        "a Pi set up by systemd/install.sh (tests/systemd and the emulated install run it)",
    "sudo systemctl stop draughtsboard": "the installed service",
    "sudo /opt/draughtsboard/venv/bin/draughtsboard calibrate --write "
    "--config /etc/draughtsboard/draughtsboard.toml": "a board",
    "sudo /opt/draughtsboard/venv/bin/draughtsboard selftest "
    "--config /etc/draughtsboard/draughtsboard.toml": "a board",
    "sudo systemctl start draughtsboard && journalctl -u draughtsboard -f": "the installed service",
    "bash .ci/test": "the whole suite: it is what CI runs",
    "python3 -m venv ~/draughtsboard-compiled": "a compiler (.ci/compiled builds it)",
    "~/draughtsboard-compiled/bin/pip install .": "a compiler (.ci/compiled builds it)",
}
RUN_HERE = {QUICK_START, HALL, PLAY}


def readme_commands(text: str) -> list[str]:
    """The command lines of the ``sh`` blocks of a Markdown text (comments and ``\\`` joined).

    Example:
        >>> readme_commands("x\\n```sh\\na --b \\\\\\n  c   # note\\n\\nd\\n```\\n")
        ['a --b c', 'd']
    """
    commands: list[str] = []
    block: list[str] | None = None
    for line in text.splitlines():
        fence = line.strip()
        if block is None:
            if fence.startswith("```sh"):
                block = []
            continue
        if fence.startswith("```"):
            joined = "\n".join(block).replace("\\\n", " ")
            for command in joined.splitlines():
                command = re.sub(r"\s+#.*$", "", command).strip()
                if command:
                    commands.append(re.sub(r"\s+", " ", command))
            block = None
            continue
        block.append(line.strip())
    return commands


def _argv(command: str) -> list[str]:
    """The command's last ``&&`` step as argv, its ``.venv/bin/`` this test's environment."""
    words = shlex.split(command.split("&&")[-1])
    if words[0].startswith(".venv/bin/"):
        words[0] = str(BIN / words[0].removeprefix(".venv/bin/"))
    return words


def _env(tmp_path: Path) -> dict[str, str]:
    """A new user's environment: a home and a temporary directory of their own."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}  # none set
    return {**inherited, "HOME": str(home), "TMPDIR": str(tmp_path), "NO_COLOR": "1"}


def _help(*words: str) -> str:
    """``draughtsboard WORDS --help`` as it prints, run in this process."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as ended:
        build_parser().parse_args([*words, "--help"])
    assert ended.value.code == 0
    return out.getvalue()


def test_every_readme_command_is_run_here_or_says_why_not() -> None:
    commands = readme_commands(README.read_text(encoding="utf-8"))
    assert commands, "README.md has no sh block"
    unlisted = [c for c in commands if c not in RUN_HERE and c not in NOT_HERE]
    assert not unlisted, f"README commands this test does not know: {unlisted}"
    assert set(commands) >= RUN_HERE, f"no longer in the README: {RUN_HERE - set(commands)}"


def test_the_quick_start_installs_an_extra_that_exists() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = re.findall(r"\.\[([\w,]+)\]", QUICK_START)
    assert extras and all(e in project["optional-dependencies"]
                          for group in extras for e in group.split(","))
    assert project["scripts"]["draughtsboard"] == "firmware_host.cli:main"


def test_the_quick_start_demo_plays_and_writes_its_game(tmp_path: Path) -> None:
    done = subprocess.run(_argv(QUICK_START), capture_output=True, text=True, cwd=tmp_path,
                          env=_env(tmp_path), timeout=GUARD_S, check=False)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    named = [Path(p) for p in re.findall(r"(/\S+\.pdn)\b", done.stdout)]  # where it says
    assert named, done.stdout[-2000:]
    assert named[0].is_file() and named[0].is_relative_to(tmp_path)
    (game,) = read_games(named[0].read_text(encoding="utf-8"))
    assert len(game.moves) == 20  # the demo's documented default: --moves 20


def test_play_takes_a_typed_move_and_quits(tmp_path: Path) -> None:
    done = subprocess.run(_argv(PLAY), input="c3-d4\nquit\n", capture_output=True, text=True,
                          cwd=tmp_path, env=_env(tmp_path), timeout=GUARD_S, check=False)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "c3-d4" in done.stdout


def _read_until(process: subprocess.Popen[str], pattern: re.Pattern[str]) -> re.Match[str]:
    """Read the process's stdout until a line matches (or it ends; pytest's timeout guards)."""
    assert process.stdout is not None
    seen: list[str] = []
    for line in process.stdout:
        seen.append(line)
        if match := pattern.search(line):
            return match
    raise AssertionError(f"no line matched {pattern.pattern}; output:\n{''.join(seen)}")


def _boards_on_the_hall_feed(url: str, wanted: int) -> int:
    """How many boards the hall's live feed (``/feed``, Server-Sent Events) has shown, read
    until ``wanted`` have (or the feed ends)."""
    boards: set[str] = set()
    with urllib.request.urlopen(url.rstrip("/") + "/feed", timeout=GUARD_S) as feed:
        for raw in feed:
            line = raw.decode("utf-8").rstrip("\n")
            if line.startswith("data:"):
                with contextlib.suppress(ValueError):
                    data = json.loads(line.removeprefix("data:"))
                    if isinstance(data, dict) and isinstance(data.get("board"), str):
                        boards.add(data["board"])
            if len(boards) >= wanted:
                break
    return len(boards)


def test_demo_hall_serves_three_boards(tmp_path: Path) -> None:
    if "--hall" not in _help("demo"):
        pytest.skip("draughtsboard demo --hall is not built yet")
    process = subprocess.Popen(_argv(HALL), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, cwd=tmp_path, env=_env(tmp_path))
    try:
        url = _read_until(process, re.compile(r"https?://[^\s'\"]+")).group(0)
        with urllib.request.urlopen(url, timeout=GUARD_S) as answer:
            assert answer.status == 200
            assert "<html" in answer.read().decode("utf-8").lower()
        assert _boards_on_the_hall_feed(url, 3) == 3
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=GUARD_S)
    assert process.returncode in (0, 130), err
    assert "Traceback" not in err


def test_version_prints_the_project_version(tmp_path: Path) -> None:
    if "--version" not in _help():
        pytest.skip("draughtsboard --version is not built yet")
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["version"]
    done = subprocess.run([str(BIN / "draughtsboard"), "--version"], capture_output=True,
                          text=True, env=_env(tmp_path), timeout=GUARD_S, check=False)
    assert done.returncode == 0
    assert version in done.stdout
    assert "draughtsboard --version" in README.read_text(encoding="utf-8")


def _table_rows() -> list[tuple[list[list[str]], str]]:
    """The Commands table: each row's commands (as words) and its description."""
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## Commands\n", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or not cells[0].startswith("`draughtsboard"):
            continue
        names = re.findall(r"`([^`]+)`", cells[0])
        first = names[0].split()[1:]
        commands = [first]
        for other in names[1:]:
            words = other.split()
            # `selftest` and `games export` stand alone; `verify` is `egdb verify`.
            commands.append(words if words[0] in command_names() else first[:-1] + words)
        rows.append((commands, cells[1]))
    return rows


def test_the_commands_table_names_commands_and_options_that_exist() -> None:
    rows = _table_rows()
    assert len(rows) >= 10
    listed = set()
    for commands, description in rows:
        helps = ""
        for words in commands:
            names = [w for w in words if not w.startswith("-")]
            helps += _help(*names)
            listed.add(names[0])
            for option in (w for w in words if w.startswith("-")):
                assert option in helps, f"draughtsboard {' '.join(words)}"
        for option in re.findall(r"`(--[\w-]+)", description):
            assert option in helps, f"{option} of {commands}"
    missing = set(command_names()) - listed
    assert not missing, f"commands the README table leaves out: {sorted(missing)}"


def test_the_block_reader_example_holds() -> None:
    import doctest

    runner = doctest.DocTestRunner()
    for test in doctest.DocTestFinder().find(readme_commands, "readme_commands",
                                             globs={"readme_commands": readme_commands}):
        runner.run(test)
    assert runner.summarize(verbose=False) == (0, 1)


def test_the_commands_it_cannot_run_name_options_that_exist() -> None:
    checked = 0
    for command in NOT_HERE:
        for step in command.split("&&"):
            words = shlex.split(step)
            found = [i for i, w in enumerate(words) if Path(w).name == "draughtsboard"]
            if not found:
                continue
            rest = words[found[0] + 1:]
            names = [w for w in rest if not w.startswith("-") and w in command_names()][:1]
            helps = _help(*names)
            missing = [w for w in rest if w.startswith("--") and w not in helps]
            assert not missing, f"{step}: {missing}"
            checked += 1
    assert checked >= 3  # doctor, calibrate, selftest


#: How the README's set-up runs the command: its quick start's venv, or the Pi's install.
AS_SET_UP = re.compile(r"^(\$ )?(sudo (-u \S+ )?)?(\.venv/bin/|/opt/draughtsboard/venv/bin/)"
                       r"draughtsboard\b")
#: A line of a code block that runs draughtsboard (not its output: "draughtsboard round: ...").
RUNS = re.compile(r"^(\$ )?(sudo (-u \S+ )?)?(\S*/)?draughtsboard(\s+(?!(\S+\s+){0,2}\S*:\s)|$)")


def test_every_doc_command_is_written_as_the_readme_sets_it_up() -> None:
    # Issue 39: docs used a bare `draughtsboard` where the README's set-up needs `.venv/bin/`.
    wrong = []
    for path in [README, *sorted((ROOT / "docs").glob("*.md"))]:
        inside = False
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            text = line.strip()
            if text.startswith("```"):
                inside = not inside
                continue
            if inside and RUNS.match(text) and not AS_SET_UP.match(text):
                wrong.append(f"{path.name}:{number}: {text[:60]}")
    assert wrong == []
