"""journald-friendly log lines."""

from __future__ import annotations

import io
import logging

import pytest

from firmware_host.app.logsetup import configure, syslog_priority


def test_priorities() -> None:
    assert [syslog_priority(level) for level in (10, 20, 30, 40, 50)] == [7, 6, 4, 3, 2]


def _journal_stream(monkeypatch: pytest.MonkeyPatch, stream: object) -> None:
    """Say ``stream`` is the journal's, as systemd does: ``JOURNAL_STREAM=device:inode``."""
    import os

    status = os.fstat(stream.fileno())  # type: ignore[attr-defined]
    monkeypatch.setenv("JOURNAL_STREAM", f"{status.st_dev}:{status.st_ino}")


def test_one_line_per_record_with_prefix(monkeypatch: pytest.MonkeyPatch,
                                         tmp_path: object) -> None:
    import pathlib

    with open(pathlib.Path(str(tmp_path)) / "journal", "w+", encoding="utf-8") as stream:
        _journal_stream(monkeypatch, stream)
        configure("info", stream)
        log = logging.getLogger("draughtsboard.test")
        log.debug("hidden")
        log.warning("link lost\nsecond line")
        try:
            raise ValueError("boom")
        except ValueError:
            log.exception("failed")
        stream.seek(0)
        lines = stream.read().splitlines()
    configure("info", io.StringIO())
    assert lines[0] == "<4>draughtsboard.test: link lost\\nsecond line"
    assert lines[1].startswith("<3>draughtsboard.test: failed\\nTraceback")
    assert len(lines) == 2


def test_logs_go_to_stderr_never_stdout(capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JOURNAL_STREAM", raising=False)
    configure("info")
    logging.getLogger("draughtsboard.test").warning("to the log")
    out, err = capsys.readouterr()
    assert out == ""
    assert "warning: draughtsboard.test: to the log" in err  # a pipe: words, no prefix


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


def test_only_the_journals_own_stream_gets_prefixes(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 39: `run` in a desktop's terminal printed <4>/<6>: the terminal, started by
    # systemd --user, passes JOURNAL_STREAM on to every shell.
    import os

    from firmware_host.app.logsetup import for_journal

    parent, child = os.openpty()
    read_end, write_end = os.pipe()
    try:
        with open(child, "w", encoding="utf-8", closefd=False) as tty, \
                open(write_end, "w", encoding="utf-8", closefd=False) as pipe:
            status = os.fstat(write_end)
            inherited = {"JOURNAL_STREAM": f"{status.st_dev}:{status.st_ino}"}
            assert not for_journal(tty, inherited)  # a terminal: words
            assert for_journal(pipe, inherited)  # the journal's stream itself: prefixes
            assert not for_journal(pipe, {})  # a pipe outside systemd: words
            assert not for_journal(pipe, {"JOURNAL_STREAM": "garbage"})
    finally:
        for fd in (parent, child, read_end, write_end):
            os.close(fd)
