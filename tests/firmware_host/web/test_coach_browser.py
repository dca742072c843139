"""The coach's analysis in a real browser (chromium, a real Redis), at a phone's size (390x844)
and a desktop's (1920x1080): a board's game analysed by the hall's worker; the replay shows the
evaluation graph under the diagram, the two blunders marked in the move list; a click on the
better line's move shows it on the diagram; a click on the graph goes to that ply; no page
scrolls sideways. The screenshots go to docs/ with ``DRAUGHTSBOARD_SCREENSHOTS=docs``
(docs/coach.md shows them)."""

from __future__ import annotations

import pytest
import redis
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from engine.search import StopToken
from firmware_host.coach.analyst import Analyst, Outcome
from firmware_host.coach.jobs import AnalysisQueue
from tests.engine.test_analysis import DEPTH, DROPPED_SHOT, MISS
from tests.firmware_host.web import test_web_browser as shared
from tests.firmware_host.web.harness import WebServer
from tests.firmware_host.web.test_web_browser import (
    DESKTOP,
    PHONE,
    WAIT,
    BoardMaker,
    _overflow,
    _screen,
)
from tests.firmware_host.web.test_web_phone import _save_whole_page

pytestmark = pytest.mark.redis
browser = shared.browser


def _box(browser: webdriver.Chrome, selector: str) -> dict[str, float]:
    found = browser.execute_script(
        "var e = document.querySelector(arguments[0]); if (!e) { return null; }"
        "var r = e.getBoundingClientRect();"
        "return {left: r.left, right: r.right, top: r.top, width: r.width, height: r.height};",
        selector)
    assert found is not None, selector
    return {k: float(v) for k, v in found.items()}


@pytest.mark.parametrize(("size", "shot"), [(DESKTOP, "web-replay-analysis.png"),
                                             (PHONE, "web-replay-analysis-phone.png")])
def test_the_replay_of_an_analysed_game(web: WebServer, make_board: BoardMaker,
                                        browser: webdriver.Chrome, redis_url: str,
                                        size: tuple[int, int], shot: str) -> None:
    rig = make_board("club-1", variant="international")
    for move in DROPPED_SHOT:
        rig.play(move)
    game = rig.session.game_id
    rig.session.command("resign", rig.clock.monotonic(), "black")
    rig.run(1.0)
    worker = redis.Redis.from_url(redis_url)
    queue = AnalysisQueue(worker, "worker-host")
    queue.submit(rig.service.store.load_game(game))
    assert Analyst(queue, DEPTH).work(StopToken(), block_ms=0) is Outcome.DONE
    wait = WebDriverWait(browser, WAIT)

    _screen(browser, size)
    browser.get(f"{web.base}/game/club-1/{game}?ply={MISS + 1}")
    graph, diagram = _box(browser, ".evalgraph"), _box(browser, ".diagram-large svg")
    assert graph["width"] >= 0.9 * diagram["width"] and graph["height"] > 60
    assert graph["top"] >= diagram["top"] + diagram["height"] - 1  # under the diagram
    assert graph["right"] <= size[0] and _overflow(browser) <= 0
    marked = browser.find_elements(By.CSS_SELECTOR, "ol.moves .mk.blunder")
    assert [m.text for m in marked] == ["16-21??", "39-34??"]
    assert len(browser.find_elements(By.CSS_SELECTOR, ".evalgraph circle.mark.blunder")) == 2

    line = browser.find_elements(By.CSS_SELECTOR, ".better .line a")
    assert [a.text for a in line[:3]] == ["5. 31-27", "5... 22x31", "6. 36x16"]
    line[2].click()                                   # the shot, on the diagram
    wait.until(lambda b: "line=3" in b.current_url)
    assert browser.find_element(By.CSS_SELECTOR, ".where .better-now").text == "6. 36x16"
    assert browser.find_elements(By.CSS_SELECTOR, '.diagram-large circle.white[data-square="16"]')
    assert not browser.find_elements(By.CSS_SELECTOR, '.diagram-large [data-square="36"]')
    assert _overflow(browser) <= 0
    assert _box(browser, ".diagram-large svg")["top"] < size[1] / 2  # in sight, at the top
    _save_whole_page(browser, shot)

    columns = browser.find_elements(By.CSS_SELECTOR, ".evalgraph a")
    assert len(columns) == len(DROPPED_SHOT) + 1
    columns[4].find_element(By.CSS_SELECTOR, "rect").click()  # a finger on ply 4's column
    wait.until(lambda b: b.current_url.endswith("?ply=4"))
    assert browser.find_element(By.CSS_SELECTOR, ".where .now").text == "2... 11x22"

    browser.get(f"{web.base}/games")
    assert browser.find_element(By.CSS_SELECTOR, "td .analysed").text == "analysed"
    assert _overflow(browser) <= 0
