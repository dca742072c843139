"""End to end in a real browser: Debian's chromium, driven by selenium through chromium-driver,
against the web app and boards on a real Redis.

The hall shows the boards; a move made on a simulated board appears on the open page (the
test waits for it; how fast is bench/web.py's business); a command from the board page starts a
new game on the board. The screenshots in docs/ (web-hall.png, web-board.png) are made here.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service as ChromeService
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.firmware_host.web.harness import BoardRig, WebServer
from tests.firmware_host.web.test_web_control import set_up_initial
from tests.redis_server import RedisServer

pytestmark = pytest.mark.redis

BoardMaker = Callable[..., BoardRig]
DOCS = Path(__file__).resolve().parents[3] / "docs"
WAIT = 15.0


@pytest.fixture
def browser() -> Iterator[webdriver.Chrome]:
    chromium = shutil.which("chromium")
    driver_path = shutil.which("chromedriver")
    assert chromium and driver_path, "apt-get install chromium chromium-driver (see .ci/test)"
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     "--window-size=1280,900", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=ChromeService(driver_path), options=options)
    yield driver
    driver.quit()


def _text_of(browser: webdriver.Chrome, selector: str) -> str:
    """The text of the element now (read in one go: the live feed replaces elements)."""
    text = browser.execute_script(
        "var e = document.querySelector(arguments[0]); return e ? e.innerText : null;", selector)
    return "" if text is None else str(text).strip()


def test_hall_live_move_and_a_new_game_from_the_page(web: WebServer, make_board: BoardMaker,
                                                     browser: webdriver.Chrome) -> None:
    hall1 = make_board("hall-1")
    hall2 = make_board("hall-2", variant="international")
    hall3 = make_board("hall-3", variant="international", mode="play")
    for board_id, white, black in (("hall-1", "Anna", "Boris"), ("hall-2", "Chloé", "Daan"),
                                   ("hall-3", "Emma", "")):
        web.command(board_id, "white", value=white)
        if black:
            web.command(board_id, "black", value=black)
    for rig, count in ((hall1, 2), (hall2, 2), (hall3, 1)):
        assert rig.service.remote is not None and rig.service.remote.wait_posted(count, 10)
        rig.run(0.2)
    for text in ("c3-d4", "f6-g5", "g3-h4"):
        hall1.play(text)
    for text in ("32-28", "18-23", "37-32"):
        hall2.play(text)
    hall3.play("33-28")
    wait = WebDriverWait(browser, WAIT)

    browser.get(web.base + "/")
    cards = browser.find_elements(By.CSS_SELECTOR, "article.card")
    assert [c.get_attribute("id") for c in cards] == ["board-hall-1", "board-hall-2",
                                                     "board-hall-3"]
    assert "Anna – Boris" in _text_of(browser, "#board-hall-1 .players")
    assert _text_of(browser, "#board-hall-2 .last-move") == "3. 37-32"
    hall1.play("b6-c5")  # made while the page is open
    wait.until(lambda b: _text_of(b, "#board-hall-1 .last-move") == "4. b6-c5")
    assert _text_of(browser, "#board-hall-1 .turn") == "white"
    browser.save_screenshot(str(DOCS / "web-hall.png"))

    browser.get(web.base + "/pair?next=/board/hall-1")
    browser.find_element(By.NAME, "code").send_keys(web.keys.pairing_code)
    browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait.until(lambda b: b.find_elements(By.ID, "cmd-newgame"))
    assert "/board/hall-1" in browser.current_url
    assert "c3-d4" in _text_of(browser, ".moves")
    hall1.sim.lift(hall1.session.board.variant.parse_square("h4"))  # a wrong move: refused
    hall1.sim.place(hall1.session.board.variant.parse_square("g3"))
    hall1.run(3.0)
    wait.until(lambda b: "correction" in _text_of(b, ".state") or "put back" in
               _text_of(b, ".messages"))
    browser.save_screenshot(str(DOCS / "web-board.png"))
    hall1.sim.lift(hall1.session.board.variant.parse_square("g3"))
    hall1.sim.place(hall1.session.board.variant.parse_square("h4"))
    hall1.run(3.0)

    reader = hall1.service.remote
    assert reader is not None
    posted = reader.posted
    first_game = hall1.session.game_id
    browser.find_element(By.ID, "cmd-newgame").click()
    wait.until(lambda b: "sent to hall-1: newgame" in _text_of(b, "#status"))
    assert reader.wait_posted(posted + 1, 10)
    hall1.run(0.5)
    wait.until(lambda b: "setting up a new game" in _text_of(b, ".state"))
    set_up_initial(hall1)
    assert hall1.session.game_id != first_game
    wait.until(lambda b: _text_of(b, ".moves") == "")
    assert "setting the board" in _text_of(browser, ".state") or \
        "waiting for a move" in _text_of(browser, ".state")


@pytest.mark.logs_errors  # the board's store reports the outage
def test_an_open_page_outlives_a_redis_outage(own_redis_server: RedisServer, tmp_path: Path,
                                              browser: webdriver.Chrome) -> None:
    rig = BoardRig(own_redis_server.url, "away-1", tmp_path / "away-1")
    web = WebServer(own_redis_server.url).start()
    try:
        rig.play("c3-d4")
        browser.get(web.base + "/board/away-1")
        wait = WebDriverWait(browser, WAIT)
        own_redis_server.stop()
        wait.until(lambda b: b.execute_script(  # the feed ended and was answered 503
            "return window.draughtsboardFeed.readyState") != 1)
        rig.play("f6-g5")  # into the board's spool
        own_redis_server.start()
        rig.service.store.flush()
        rig.play("g3-h4")
        wait.until(lambda b: "g3-h4" in _text_of(b, ".moves"))
        assert "f6-g5" in _text_of(browser, ".moves")
    finally:
        web.stop()
        rig.close()
