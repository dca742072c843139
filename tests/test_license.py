"""The license as the packaging tools read it: an SPDX expression, the full text shipped.

setuptools reads ``pyproject.toml`` here the way the build backend does; a license given as a
TOML table (deprecated, refused by setuptools from 2027-02-18) makes it warn.
"""

from __future__ import annotations

import os
import re
import tomllib
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _pyproject() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_license_is_an_spdx_expression_with_its_text() -> None:
    project = _pyproject()["project"]
    assert isinstance(project, dict)
    assert project["license"] == "GPL-3.0-or-later"
    assert project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "GNU GENERAL PUBLIC LICENSE" in text and "Version 3, 29 June 2007" in text
    assert "END OF TERMS AND CONDITIONS" in text  # the whole text, not a notice


def test_the_build_asks_for_a_setuptools_that_reads_license_expressions() -> None:
    system = _pyproject()["build-system"]
    assert isinstance(system, dict)
    (setuptools,) = [r for r in system["requires"] if r.startswith("setuptools")]
    minimum = re.fullmatch(r"setuptools>=(\d+)(?:\.\d+)*", setuptools)
    assert minimum is not None and int(minimum.group(1)) >= 77  # PEP 639 from 77.0


def test_setuptools_reads_the_metadata_without_a_deprecation_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from setuptools.config.pyprojecttoml import apply_configuration
    from setuptools.dist import Distribution

    monkeypatch.chdir(ROOT)  # license-files are found from the project's folder
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dist = apply_configuration(Distribution(), os.fspath(ROOT / "pyproject.toml"))
    assert [str(w.message) for w in caught] == []
    assert dist.metadata.license_expression == "GPL-3.0-or-later"
    assert dist.metadata.license_files == ["LICENSE"]
