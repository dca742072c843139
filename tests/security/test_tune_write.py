"""Issue 25 §10: ``tune forget --variant russian --write README.md`` overwrote the README with a
generated weights module and exited 0. ``--write`` now rewrites only a weights module."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import engine
from firmware_host.cli import main

WEIGHTS = Path(engine.__file__).with_name("weights.py")


@pytest.mark.parametrize("name, text", [
    ("README.md", "# draughtsboard\n"), ("notes.py", "print('mine')\n"),
    ("empty.py", ""), ("missing.txt", None)])
@pytest.mark.parametrize("action", ["forget", "fit", "patterns"])
def test_write_refuses_anything_but_a_weights_module(tmp_path: Path, name: str,
                                                     text: str | None, action: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / name
    if text is not None:
        target.write_text(text)
    argv = ["tune", action, "--variant", "russian", "--write", str(target)]
    if action != "forget":
        argv[3:3] = [str(tmp_path / "positions.gz")]  # never read: refused before the fit
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--write" in err[0], err
    assert (target.read_text() if text is not None else None) == text
    assert not (text is None and target.exists())


def test_write_rewrites_a_weights_module(tmp_path: Path) -> None:
    copy = tmp_path / "weights.py"
    shutil.copy(WEIGHTS, copy)
    assert main(["tune", "forget", "--variant", "english", "--write", str(copy)]) == 0
    assert copy.read_text().startswith('"""Evaluation weights')
