"""The house's front: a short README without lab notes, a changelog, the measurements' pages.

The README is a product page (python-chess's is the model): at most 200 lines, no commit hashes
and no issue numbers. Measurements live in docs/levels.md, docs/strength.md and
docs/benchmarks.md, where the commit a table measured is a line under it, never a column.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MEASURED = ("docs/levels.md", "docs/strength.md", "docs/benchmarks.md")
#: A word that looks like an abbreviated commit: 7 to 40 hex digits, at least one a letter.
_COMMIT = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b")
_ISSUE = re.compile(r"\bissues? #?\d+", re.IGNORECASE)


def _text(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def test_the_readme_is_a_product_page() -> None:
    text = _text("README.md")
    assert len(text.splitlines()) <= 200
    assert _COMMIT.findall(text) == []
    assert _ISSUE.findall(text) == []


@pytest.mark.parametrize("name", MEASURED)
def test_measurement_tables_carry_no_commits_or_issues(name: str) -> None:
    text = _text(name)
    rows = [line for line in text.splitlines() if line.lstrip().startswith("|")]
    assert rows, f"{name} has no table"
    assert [row for row in rows if _COMMIT.search(row)] == []
    assert _ISSUE.findall(text) == []


@pytest.mark.parametrize("name", MEASURED)
def test_every_measurement_table_says_what_it_measured(name: str) -> None:
    lines = _text(name).splitlines()
    ends = [i for i, line in enumerate(lines) if line.startswith("|")
            and (i + 1 == len(lines) or not lines[i + 1].startswith("|"))]
    for end in ends:
        after = next((line for line in lines[end + 1:] if line.strip()), "")
        assert after.startswith("Measured on commit"), f"{name}: the table ending at {end + 1}"


def test_the_changelog_keeps_a_changelog() -> None:
    text = _text("CHANGELOG.md")
    assert "## [Unreleased]" in text
    versions = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", text, re.MULTILINE)
    project = tomllib.loads(_text("pyproject.toml"))["project"]
    assert project["version"] in [v for v, _ in versions]
    sections = set(re.findall(r"^### (\w+)$", text, re.MULTILINE))
    assert sections <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}
