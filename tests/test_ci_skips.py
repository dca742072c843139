"""In CI a test that skips fails: a skip there means a dependency is missing (tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent

SKIPPING = """
import pytest

def test_needs_a_tool() -> None:
    pytest.skip("espeak-ng is not installed")

@pytest.mark.xfail(reason="known")
def test_known_failure() -> None:
    assert False
"""


@pytest.mark.parametrize(("ci", "outcomes"), [
    ("true", {"failed": 1, "xfailed": 1}),
    ("", {"skipped": 1, "xfailed": 1}),
])
def test_a_skip_fails_in_ci_only(ci: str, outcomes: dict[str, int], pytester: pytest.Pytester,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", ci)
    pytester.makeconftest((ROOT / "conftest.py").read_text())
    pytester.makepyfile(test_skipping=SKIPPING)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(**outcomes)
    if ci:
        result.stdout.fnmatch_lines(["*skipped in CI*espeak-ng is not installed*"])
