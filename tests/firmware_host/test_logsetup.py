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


def test_a_terminal_gets_words_not_syslog_prefixes(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 24: "<6>" prefixes were printed on a terminal.
    import os

    monkeypatch.delenv("JOURNAL_STREAM", raising=False)
    parent, child = os.openpty()
    with open(child, "w", encoding="utf-8", closefd=True) as tty, \
            open(parent, "rb", buffering=0, closefd=True) as reader:
        configure("info", tty)
        logging.getLogger("draughtsboard.test").warning("link lost")
        logging.getLogger("draughtsboard.test").info("started")
        try:
            raise ValueError("no clock")
        except ValueError:
            logging.getLogger("draughtsboard.test").exception("search failed")
        tty.flush()
        seen = b""
        while seen.count(b"\n") < 3:
            seen += reader.read(1024)
    assert seen.decode().splitlines() == [
        "warning: draughtsboard.test: link lost", "draughtsboard.test: started",
        "error: draughtsboard.test: search failed (ValueError: no clock)"]  # no traceback
    configure("info", io.StringIO())


def test_under_journald_a_terminal_still_gets_prefixes() -> None:
    from firmware_host.app.logsetup import for_journal

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert not for_journal(Tty(), {})
    assert for_journal(Tty(), {"JOURNAL_STREAM": "8:1234"})
