"""The service process: bad configs, sd_notify READY/WATCHDOG, clean stop on SIGTERM."""

from __future__ import annotations

import logging
import signal
import socket
import subprocess
import sys
import threading
from contextlib import ExitStack
from pathlib import Path

import pytest

from engine import Board
from firmware_host.app.notify import Notifier
from firmware_host.app.service import Wiring, build_service
from firmware_host.config.loader import Config

DRAUGHTSBOARD = str(Path(sys.executable).parent / "draughtsboard")


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([DRAUGHTSBOARD, *args], capture_output=True, text=True, timeout=60,
                          env=env, check=False)


@pytest.mark.parametrize(
    ("toml", "expected"),
    [
        ("[game]\nmode = 'blitz'\n", "game.mode = 'blitz' is not one of: play, record, teach"),
        ("[timing]\nsettle_ms = 'slow'\n", "timing.settle_ms must be an integer"),
        ("[board]\nsensorz = 'sim'\n", "unknown option board.sensorz"),
        ("[game]\nvariant = 'chess'\n", "game.variant"),
        ("[board]\nsensors = 'gpio-matrix'\nbuttons = 'gpio'\n[gpio_matrix]\nrow_pins = [5]\n"
         "column_pins = [6]\n[buttons]\nhint_pin = 5\n", "GPIO pin 5 is used twice"),
    ],
)
def test_bad_config_gives_one_clear_line(tmp_path: Path, toml: str, expected: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(toml)
    result = run_cli("run", "--config", str(path), "--store", "memory",
                     "--games-dir", str(tmp_path))
    assert result.returncode != 0
    assert expected in result.stderr
    assert str(path) in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_missing_config_file(tmp_path: Path) -> None:
    result = run_cli("run", "--config", str(tmp_path / "none.toml"))
    assert result.returncode == 2
    assert result.stderr.strip() == f"draughtsboard: {tmp_path / 'none.toml'}: no such " \
                                    "configuration file"


def test_ready_watchdog_and_sigterm(tmp_path: Path) -> None:
    sock_path = str(tmp_path / "notify.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(sock_path)
    listener.settimeout(20)
    env = {"NOTIFY_SOCKET": sock_path, "WATCHDOG_USEC": "400000", "PATH": "/usr/bin:/bin"}
    process = subprocess.Popen(
        [DRAUGHTSBOARD, "run", "--board", "sim", "--store", "memory",
         "--games-dir", str(tmp_path / "games")],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert listener.recv(256).startswith(b"READY=1")
        assert [listener.recv(64) for _ in range(3)] == [b"WATCHDOG=1"] * 3
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=5)  # stops on SIGTERM (how fast: bench/service.py)
        messages = []
        while (message := listener.recv(64)) != b"STOPPING=1":
            messages.append(message)
        assert set(messages) <= {b"WATCHDOG=1"}
    finally:
        process.kill()
        listener.close()
    assert process.returncode == 0
    out = process.stderr.read() if process.stderr else ""  # logs go to stderr, never stdout
    # A pipe outside systemd: plain words (prefixes only on the journal's own stream).
    assert "\ndraughtsboard: running\n" in f"\n{out}"
    assert "\ndraughtsboard: stopping\n" in f"\n{out}"
    assert list((tmp_path / "games").glob("*.pdn")) == []  # no move made: no empty file


def test_stop_turns_leds_off_and_flushes(tmp_path: Path) -> None:
    config = Config.from_mapping({
        "game": {"mode": "record"},
        "store": {"url": "memory", "games_dir": str(tmp_path)},
        "board": {"leds": "sim"},
    })
    stop = threading.Event()
    with ExitStack() as stack:
        service = build_service(config, stack, Wiring(notifier=Notifier({})))
        leds = service.leds
        shown: list[dict[int, object]] = []
        original = leds.show

        def spy(frame: dict[int, object]) -> None:
            shown.append(dict(frame))
            original(frame)

        leds.show = spy  # type: ignore[method-assign]
        stop.set()
        service.serve(stop)
    assert service.controller.started
    assert shown[-1] == {}
    assert list(tmp_path.glob("*.pdn")) == []  # no move was made: no empty file (issue 39)


def test_a_turned_board_is_named_at_start(caplog: pytest.LogCaptureFixture, tmp_path: Path) -> None:
    # The orientation check runs when the service starts: a board put down the wrong way round
    # (here: an asymmetric position, turned 180 degrees) gets one warning naming the fix.
    config = Config.from_mapping({"game": {"variant": "english", "mode": "record"},
                                  "store": {"url": "memory", "games_dir": str(tmp_path)}})
    turned = frozenset(31 - sq for sq in Board("english", fen="B:W32:B5").occupied_squares())
    with ExitStack() as stack, caplog.at_level(logging.WARNING, logger="draughtsboard"):
        service = build_service(config, stack, Wiring(fen="B:W32:B5", occupied=turned,
                                                      notifier=Notifier({})))
        service.start()
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING
                and r.name == "draughtsboard"]
    assert any("rotate180" in text for text in warnings), warnings
