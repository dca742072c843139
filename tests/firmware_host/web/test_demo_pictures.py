"""The README's picture and the web page's screenshots, made from the demo the README gives.

``draughtsboard demo --hall 3`` (the README's second command, on a free port) runs until every
board has played a few moves; then chromium takes the hall on a desktop (``web-hall.png``, the
README's picture), the hall on a phone (``web-hall-phone.png``) and a board's page
(``web-board.png``), after checking that the page shows what the command printed: its three
boards, in the variants its banner names, online, each with its moves.
``DRAUGHTSBOARD_SCREENSHOTS=docs`` writes them into docs/ (the pictures the README and
docs/web.md show); otherwise they go to a temporary folder, for a person to look at.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By

from tests.firmware_host.web import test_web_browser as shared
from tests.firmware_host.web.sse import SseClient
from tests.firmware_host.web.test_web_browser import DESKTOP, PHONE, SHOTS, _overflow, _screen
from tests.redis_server import free_port
from tests.test_readme_commands import HALL, README, readme_commands

pytestmark = pytest.mark.redis  # the hall starts a redis-server of its own
browser = shared.browser
#: Plies every board has played before the pictures are taken (a few moves on each board).
PLIES = 4


def _banner(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    lines = []
    for line in process.stdout:
        lines.append(line)
        if "Ctrl-C stops" in line:
            return "".join(lines)
    raise AssertionError("".join(lines))


def test_the_readme_picture_is_the_readme_demo(browser: webdriver.Chrome) -> None:
    assert HALL in readme_commands(README.read_text(encoding="utf-8"))
    assert "![The hall in the web app](docs/web-hall.png)" in README.read_text(encoding="utf-8")
    port = free_port()
    words = HALL.split()
    argv = [str(Path(sys.executable).parent / "draughtsboard"), *words[1:],
            "--listen", f"127.0.0.1:{port}"]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        banner = _banner(process)
        variants = re.search(r"3 simulated boards \(([^)]*)\)", banner)
        assert variants is not None, banner
        named = variants.group(1).split(", ")
        base = f"http://127.0.0.1:{port}"
        plies: dict[str, int] = {}

        def enough(data: dict[str, Any]) -> bool:
            for move in data.get("moves", []):
                plies[data["board"]] = max(plies.get(data["board"], 0), int(move["ply"]))
            return len(plies) == 3 and min(plies.values()) >= PLIES

        feed = SseClient(base, "/feed", timeout=120)
        try:
            feed.wait_for(enough)
        finally:
            feed.close()

        _screen(browser, DESKTOP)
        browser.get(base + "/")
        cards = browser.find_elements(By.CSS_SELECTOR, "article.card")
        assert [c.get_attribute("data-board") for c in cards] == ["table1", "table2", "table3"]
        shown = [c.find_element(By.CSS_SELECTOR, ".variant").get_attribute("data-variant")
                 for c in cards]
        assert shown == named  # what the banner said
        for card in cards:
            assert card.find_element(By.CSS_SELECTOR, ".alive").text == "online"
            assert card.find_element(By.CSS_SELECTOR, ".last-move").text not in ("", "–")
        assert _overflow(browser) <= 0
        browser.save_screenshot(str(SHOTS / "web-hall.png"))
        _screen(browser, PHONE)
        browser.get(base + "/")
        assert _overflow(browser) <= 0
        browser.save_screenshot(str(SHOTS / "web-hall-phone.png"))
        _screen(browser, DESKTOP)
        browser.get(base + "/board/table1")
        assert browser.find_elements(By.CSS_SELECTOR, ".moves li")
        browser.save_screenshot(str(SHOTS / "web-board.png"))
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert "Traceback" not in err
