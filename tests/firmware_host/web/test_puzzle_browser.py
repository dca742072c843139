"""The puzzle of the day in a real browser (chromium) at a phone's size (390x844), its scripts
switched off: reached from the hall's link, the whole diagram in sight, nothing scrolls
sideways, the solution hidden until "Show the solution" is tapped, then shown. The screenshot
goes to docs/ with ``DRAUGHTSBOARD_SCREENSHOTS=docs`` (docs/coach.md shows it)."""

from __future__ import annotations

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.firmware_host.web import test_web_browser as shared
from tests.firmware_host.web.harness import WebServer
from tests.firmware_host.web.test_coach_browser import _box
from tests.firmware_host.web.test_web_browser import PHONE, WAIT, _overflow, _screen
from tests.firmware_host.web.test_web_phone import _save_whole_page

pytestmark = pytest.mark.redis
browser = shared.browser


def test_the_puzzle_of_the_day_on_a_phone_without_scripts(web: WebServer,
                                                          browser: webdriver.Chrome) -> None:
    _screen(browser, PHONE)
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    browser.get(web.base + "/")
    browser.find_element(By.CSS_SELECTOR, "a.daily").click()
    WebDriverWait(browser, WAIT).until(lambda b: b.current_url.endswith("/puzzle"))
    diagram = _box(browser, ".puzzle svg.diagram")
    assert diagram["width"] >= 0.85 * PHONE[0] and diagram["top"] + diagram["height"] <= PHONE[1]
    assert _overflow(browser) <= 0
    line = browser.find_element(By.CSS_SELECTOR, ".solution .line")
    assert not line.is_displayed()
    assert browser.find_element(By.CSS_SELECTOR, ".to-play").text.endswith(" to play and win.")
    browser.find_element(By.CSS_SELECTOR, ".solution summary").click()
    WebDriverWait(browser, WAIT).until(lambda b: line.is_displayed())
    assert line.text.startswith("1.")
    assert _overflow(browser) <= 0
    _save_whole_page(browser, "web-puzzle-of-the-day-phone.png")
