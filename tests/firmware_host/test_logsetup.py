"""journald-friendly log lines."""

from __future__ import annotations

import io
import logging

import pytest

from firmware_host.app.logsetup import configure, syslog_priority


def test_priorities() -> None:
    assert [syslog_priority(level) for level in (10, 20, 30, 40, 50)] == [7, 6, 4, 3, 2]


def test_one_line_per_record_with_prefix() -> None:
    stream = io.StringIO()
    configure("info", stream)
    log = logging.getLogger("draughtsboard.test")
    log.debug("hidden")
    log.warning("link lost\nsecond line")
    try:
        raise ValueError("boom")
    except ValueError:
        log.exception("failed")
    lines = stream.getvalue().splitlines()
    assert lines[0] == "<4>draughtsboard.test: link lost\\nsecond line"
    assert lines[1].startswith("<3>draughtsboard.test: failed\\nTraceback")
    assert len(lines) == 2


def test_logs_go_to_stderr_never_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    configure("info")
    logging.getLogger("draughtsboard.test").warning("to the journal")
    out, err = capsys.readouterr()
    assert out == ""
    assert "<4>draughtsboard.test: to the journal" in err
