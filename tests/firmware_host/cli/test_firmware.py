"""``draughtsboard firmware install`` against a fake mpremote on PATH (argv recorded)."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from board_io.firmware import PICO_DIR, pico_files
from firmware_host.cli import firmware, main
from firmware_host.errors import ExitCode


def _fake_mpremote(tmp_path: Path, status: int = 0, say: str = "") -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "argv.json"
    script = bin_dir / "mpremote"
    script.write_text(
        f"#!{sys.executable}\n"
        "import json, sys\n"
        f"open({str(log)!r}, 'w').write(json.dumps(sys.argv[1:]))\n"
        f"print({say!r}, file=sys.stderr)\n"
        f"sys.exit({status})\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return bin_dir


def _on_path(monkeypatch: pytest.MonkeyPatch, bin_dir: Path) -> None:
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")


def _copies(argv: list[str]) -> list[tuple[str, str]]:
    return [(argv[i + 2], argv[i + 3]) for i, word in enumerate(argv)
            if word == "fs" and argv[i + 1] == "cp"]


def test_install_copies_every_file_then_resets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    _on_path(monkeypatch, _fake_mpremote(tmp_path))
    assert main(["firmware", "install", "--port", "/dev/ttyACM7"]) == 0
    argv = json.loads((tmp_path / "argv.json").read_text())
    assert argv[:2] == ["connect", "/dev/ttyACM7"] and argv[-1] == "reset"
    copies = _copies(argv)
    assert copies == [(str(f), ":" + f.name) for f in pico_files()]
    assert copies[-1][1] == ":main.py"
    out = capsys.readouterr().out
    assert f"copying {len(pico_files())} files to /dev/ttyACM7" in out and "done" in out


def test_the_commands_example_says_what_it_copies() -> None:
    # Issue 26: the module's example said 8 files while install copied 9.
    said = re.search(r"copying (\d+) files", firmware.__doc__ or "")
    assert said is not None and int(said.group(1)) == len(pico_files())


def test_own_settings_go_through_untouched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _on_path(monkeypatch, _fake_mpremote(tmp_path))
    odd = tmp_path / "my board; rm -rf ~ $(x).py"  # a shell would run this; argv does not
    odd.write_text("ROW_PINS = (2, 3)\n")
    assert main(["firmware", "install", "--settings", str(odd)]) == 0
    argv = json.loads((tmp_path / "argv.json").read_text())
    assert "connect" not in argv
    copies = _copies(argv)
    assert copies[0] == (str(odd), ":settings.py")
    assert sum(target == ":settings.py" for _, target in copies) == 1


@pytest.mark.parametrize(("content", "words"), [
    (None, "No such file"),
    ("ROW_PINS = (2, 3\n", "line"),
])
def test_bad_settings_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   content: str | None, words: str) -> None:
    path = tmp_path / "settings.py"
    if content is not None:
        path.write_text(content)
    status = firmware.install(port=None, settings=str(path), command=["never-run"],
                              runner=_never)
    err = capsys.readouterr().err
    assert status == 2 and words in err and len(err.strip().splitlines()) == 1


def _never(argv: Sequence[str]) -> subprocess.CompletedProcess[str]:
    raise AssertionError("mpremote must not run")


def test_missing_mpremote_names_the_extra(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(firmware, "mpremote_command", lambda: None)
    assert main(["firmware", "install"]) == ExitCode.UNAVAILABLE  # a library not installed
    err = capsys.readouterr().err
    assert "draughtsboard[pico]" in err and len(err.strip().splitlines()) == 1


def test_mpremote_failure_is_explained(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    _on_path(monkeypatch, _fake_mpremote(tmp_path, status=1, say="mpremote: no device found"))
    assert main(["firmware", "install"]) == ExitCode.UNAVAILABLE  # no Pico answers
    err = capsys.readouterr().err.strip()
    assert "no device found" in err and "hold button 0" in err
    assert len(err.splitlines()) == 1


def test_mpremote_is_found_as_a_module_too() -> None:
    assert firmware.mpremote_command(which=lambda name: None, has_module=lambda name: True) == [
        sys.executable, "-m", "mpremote"]
    assert firmware.mpremote_command(which=lambda name: None,
                                     has_module=lambda name: False) is None


def test_path_prints_the_directory(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["firmware", "path"]) == 0
    assert capsys.readouterr().out.strip() == str(PICO_DIR)
