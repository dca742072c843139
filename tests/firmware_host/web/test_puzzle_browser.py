"""The puzzle of the day in a real browser (chromium) at a phone's size (390x844), its scripts
switched off: reached from the hall's link, the whole diagram in sight, nothing scrolls
sideways, the solution hidden until "Show the solution" is tapped, then shown. Then, in the
same browser, a player's progress reached from the hall: the rating, the puzzles and the
mistakes a game by month, in sight on a phone and on a desktop (1920x1080), nothing sideways.
The screenshots go to docs/ with ``DRAUGHTSBOARD_SCREENSHOTS=docs`` (docs/coach.md shows
them)."""

from __future__ import annotations

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from engine.puzzles import load
from firmware_host.coach.progress import GameMistakes, ProgressBook
from tests.firmware_host.web import test_web_browser as shared
from tests.firmware_host.web.harness import WebServer
from tests.firmware_host.web.test_coach_browser import _box
from tests.firmware_host.web.test_web_browser import DESKTOP, PHONE, WAIT, _overflow, _screen
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

    # the same browser (one chromium: CI's time), a pupil's progress from the hall's link
    assert web.settings.books is not None
    progress_of_a_pupil(ProgressBook(web.settings.books))
    browser.get(web.base + "/")
    assert _overflow(browser) <= 0  # the hall's heading, one link more, on a phone
    browser.find_element(By.CSS_SELECTOR, "a.progress-link").click()
    WebDriverWait(browser, WAIT).until(lambda b: b.current_url.endswith("/progress"))
    browser.find_element(By.LINK_TEXT, "Anna de Vries").click()
    WebDriverWait(browser, WAIT).until(lambda b: b.current_url.endswith("/anna-de-vries"))
    for size, name in ((PHONE, "web-progress-phone.png"), (DESKTOP, "web-progress.png")):
        _screen(browser, size)
        browser.refresh()
        rating = browser.find_element(By.CSS_SELECTOR, ".progress .rating")
        assert rating.text.isdigit() and rating.is_displayed()  # settled: no "?"
        chart = _box(browser, ".chart svg.bars")
        assert chart["width"] >= min(0.85 * size[0], 480) and chart["height"] > 60
        assert len(browser.find_elements(By.CSS_SELECTOR, "table.months tbody tr")) == 5
        assert _overflow(browser) <= 0
        _save_whole_page(browser, name)


def progress_of_a_pupil(book: ProgressBook) -> None:
    """Anna's record: forty puzzles tried (a settled rating), five months of games, fewer
    mistakes as the months go."""
    puzzles = [*load("russian"), *load("international")][:40]
    for number, puzzle in enumerate(puzzles):
        book.attempt("Anna de Vries", puzzle, solved=number % 3 != 0)
    months = {"2026-08": (4, 11, 5), "2026-09": (6, 13, 4), "2026-10": (5, 9, 2),
              "2026-11": (8, 10, 2), "2026-12": (3, 2, 0)}
    book.games("Anna de Vries", [
        GameMistakes(f"{month}-{game}", f"{month}-0{game + 1}", "", 30,
                     mistakes // games + (game < mistakes % games), 0)
        for month, (games, mistakes, _) in months.items() for game in range(games)])
    book.games("Anna de Vries", [
        GameMistakes(f"{month}-b{game}", f"{month}-1{game}", "", 30, 0, 1)
        for month, (_, _, blunders) in months.items() for game in range(blunders)])
