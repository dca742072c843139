"""Shared test settings.

Heavy suites take their sample size from one setting, ``DRAUGHTSBOARD_SAMPLE``:
``ci`` (the default, small enough for CI) or ``full`` (the size quoted before an issue is resolved).
"""

from __future__ import annotations

import os

import pytest

SAMPLE = os.environ.get("DRAUGHTSBOARD_SAMPLE", "ci")
if SAMPLE not in ("ci", "full"):
    raise pytest.UsageError(f"DRAUGHTSBOARD_SAMPLE must be 'ci' or 'full', not {SAMPLE!r}")


def sample_size(ci: int, full: int) -> int:
    """Return the sample size for the current run: ``ci`` in CI, ``full`` when asked for."""
    return full if SAMPLE == "full" else ci
