"""bench/ladder_load.py: each load starts, runs beside the caller and stops with nothing left."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from bench.ladder_load import (
    BusyProcesses,
    BusyThreads,
    ServiceLoad,
    parse_load,
    start_load,
)
from bench.level_ladder import main


def _ours() -> set[threading.Thread]:
    return set(threading.enumerate())


def test_load_specs_are_parsed_and_bad_ones_refused() -> None:
    assert parse_load("none") == ()
    assert parse_load("service") == (("service", 1),)
    assert parse_load(" service , threads:2,processes:1 ") == (
        ("service", 1), ("threads", 2), ("processes", 1))
    for bad in ("idle", "threads", "threads:0", "threads:-1", "threads:x", "service:2",
                "processes:"):
        with pytest.raises(ValueError, match="none, service, threads:N or processes:N"):
            parse_load(bad)


def test_the_service_load_scans_the_simulated_board_and_stops_cleanly() -> None:
    before = _ours()
    load = ServiceLoad("international")
    try:
        service = load.service
        assert service.sim is not None and service.controller.started  # the board was read
        assert service.session.config.mode.value == "record"  # no engine of its own
        assert threading.enumerate() != list(before)  # its thread runs beside this one
        assert service.leds.frame  # a blinking frame is shown while the ladder searches
    finally:
        load.close()
    assert _ours() == before  # every thread it started is joined
    load.close()  # again: nothing happens
    assert _ours() == before


def test_busy_threads_and_processes_stop_and_are_joined() -> None:
    before = _ours()
    threads = BusyThreads(2)
    assert all(t.is_alive() for t in threads.threads) and len(threads.threads) == 2
    threads.close()
    assert not any(t.is_alive() for t in threads.threads) and _ours() == before
    threads.close()
    processes = BusyProcesses(1)
    assert all(p.is_alive() for p in processes.processes)
    processes.close()
    assert all(p.exitcode is not None for p in processes.processes)
    processes.close()


def test_a_combined_load_closes_everything_it_started() -> None:
    before = _ours()
    load = start_load("service,threads:1", "english")
    assert len(set(threading.enumerate()) - before) >= 2
    load.close()
    load.close()
    assert _ours() == before
    assert type(start_load("none", "english")).__name__ == "Loads"


def test_a_ladder_under_the_service_load_records_it(tmp_path: Path) -> None:
    out = tmp_path / "ladder.json"
    before = _ours()
    assert main(["--variant", "english", "--games", "2", "--pairs", "1-2", "--time-scale", "1",
                 "--max-plies", "20", "--load", "service", "--out", str(out),
                 "--commit", "f00d"]) == 0
    assert _ours() == before
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["load"] == "service" and "--load service" in data["command"]
    assert len(data["games"]) == 2
    assert data["players"]["L2"]["mean_wall"] >= 0


def test_a_bad_load_gets_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--load", "threads:0"])
    assert "processes:N, not 'threads:0'" in capsys.readouterr().err
