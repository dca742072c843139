"""The per-test timeout follows ``DRAUGHTSBOARD_SAMPLE``: CI's 300 s, an hour for every test at
full size (``tests/conftest.py``). Checked in a child pytest run on a throwaway suite that uses
the project's hook."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

CHILD_CONFTEST = "from tests.conftest import pytest_collection_modifyitems  # noqa: F401\n"

CHILD_TESTS = '''
import pytest

def _timeout(request):
    marker = request.node.get_closest_marker("timeout")
    return None if marker is None else marker.args[0]

@pytest.mark.slow
def test_heavy(request):
    print("heavy timeout", _timeout(request))

@pytest.mark.slow
@pytest.mark.timeout(7)
def test_heavy_with_its_own(request):
    print("own timeout", _timeout(request))

def test_light(request):
    print("light timeout", _timeout(request))
'''


def _child_run(tmp_path: Path, sample: str) -> str:
    (tmp_path / "conftest.py").write_text(CHILD_CONFTEST)
    (tmp_path / "test_child.py").write_text(CHILD_TESTS)
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\nmarkers =\n    slow: heavy\ntimeout = 300\n")
    env = {**os.environ, "DRAUGHTSBOARD_SAMPLE": sample,
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", str(tmp_path)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.parametrize(("sample", "bound"), [("full", "3600"), ("ci", "None")])
def test_tests_get_the_long_timeout_only_at_full_size(
        tmp_path: Path, sample: str, bound: str) -> None:
    out = _child_run(tmp_path, sample)
    assert f"heavy timeout {bound}" in out
    assert f"light timeout {bound}" in out
    assert "own timeout 7" in out
