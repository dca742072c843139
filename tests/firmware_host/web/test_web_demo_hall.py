"""``draughtsboard demo --hall 3``: three simulated boards playing into a private store and the
web app on it; the test watches the hall's feed until each board has moved."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from firmware_host.errors import ExitCode
from tests.firmware_host.web.sse import SseClient
from tests.redis_server import free_port

pytestmark = pytest.mark.redis  # it starts a redis-server of its own


def _until(process: subprocess.Popen[str], end: str) -> list[str]:
    """The lines the process prints up to the one holding ``end``."""
    assert process.stdout is not None
    lines = []
    for line in process.stdout:
        lines.append(line)
        if end in line:
            return lines
    raise AssertionError(f"no {end!r} in:\n{''.join(lines)}")


def test_demo_hall_serves_three_live_boards() -> None:
    port = free_port()
    binary = str(Path(sys.executable).parent / "draughtsboard")
    process = subprocess.Popen([binary, "demo", "--hall", "3", "--listen", f"127.0.0.1:{port}"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        banner = "".join(_until(process, "Ctrl-C stops"))
        assert f"\n  the hall: http://127.0.0.1:{port}/\n" in banner
        assert "\n  pairing code: " in banner
        assert max(len(line) for line in banner.splitlines()) <= 80  # short lines
        store = banner.split("private store: redis://127.0.0.1:", 1)[1].split("/", 1)[0]
        base = f"http://127.0.0.1:{port}"
        feed = SseClient(base, "/feed", timeout=60)
        moved: set[str] = set()

        def every_board_moved(data: dict[str, Any]) -> bool:
            if data.get("moves"):
                moved.add(data["board"])
            return moved == {"table1", "table2", "table3"}

        try:
            feed.wait_for(every_board_moved)
        finally:
            feed.close()
        import urllib.request

        with urllib.request.urlopen(base + "/", timeout=10) as reply:
            hall = reply.read().decode()
        for board in ("table1", "table2", "table3"):
            card = hall.split(f'id="board-{board}"', 1)[1].split("</article>", 1)[0]
            assert '<span class="alive on">online</span>' in card
        for variant in ("international", "russian", "english"):
            assert f'<dd class="variant" data-variant="{variant}">' in hall
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert "Traceback" not in err
    with socket.socket() as probe:  # the private store went with it
        assert probe.connect_ex(("127.0.0.1", int(store))) != 0


def test_a_taken_port_says_how_to_choose_another() -> None:
    binary = str(Path(sys.executable).parent / "draughtsboard")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([binary, "demo", "--hall", "1", "--listen", f"127.0.0.1:{port}"],
                              capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == ExitCode.UNAVAILABLE
    assert done.stderr.strip().splitlines() == [
        f"draughtsboard demo: cannot listen on 127.0.0.1:{port}: address already in use "
        "(another program has that port: choose another with --listen 127.0.0.1:PORT)"]
    assert done.stdout == ""
