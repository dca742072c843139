"""The web app on a phone (390x844) in a real browser: every control is a finger's target (44
px each way: pairing, the board's controls, the archive's filters and tick boxes, the replay's
steps, the menus) and is shown whole (on the screen, in its box, a list as wide as its
choices, no word broken; on a 360x740 phone too, in the languages of the longest words), the
board image fits the screen, and a board's sentences are in the viewer's language on the board
page (an English board, seen in Russian, Japanese and Korean), as drawn and as the live feed
adds them."""

from __future__ import annotations

import re

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.firmware_host.web import test_web_browser as shared
from tests.firmware_host.web.harness import WebServer
from tests.firmware_host.web.test_web_browser import (
    PHONE,
    SHOTS,
    WAIT,
    BoardMaker,
    _cut_controls,
    _overflow,
    _screen,
)

pytestmark = pytest.mark.redis
#: The browser test's chromium (a fixture of test_web_browser.py, shared with it).
browser = shared.browser

#: What a finger taps: the page's controls (a tick box through the label around it).
CONTROLS = ("button, select, input:not([type=hidden]):not([type=checkbox]), summary, "
            ".steps a, .top nav a, label.hit")
TARGET = 44


def _small_controls(browser: webdriver.Chrome) -> list[str]:
    """The visible controls smaller than a finger's target, as ``tag.class 'text' WxH``."""
    found = browser.execute_script(
        "var out = [], target = arguments[1];"  # in the callback, arguments are its own
        "document.querySelectorAll(arguments[0]).forEach(function (e) {"
        "  var r = e.getBoundingClientRect();"
        "  if (r.width === 0 || r.height === 0) { return; }"  # not shown (a hidden menu)
        "  if (r.width < target - 0.5 || r.height < target - 0.5) {"
        "    out.push(e.tagName.toLowerCase() + '.' + e.className + ' ' +"
        "             JSON.stringify((e.innerText || e.name || '').trim().slice(0, 20)) + ' ' +"
        "             Math.round(r.width) + 'x' + Math.round(r.height)); } });"
        "return out;", CONTROLS, TARGET)
    return [str(item) for item in found]


def _save_whole_page(browser: webdriver.Chrome, name: str) -> None:
    """A screenshot of the whole page (below the screen too), for a person to look at."""
    import base64

    shot = browser.execute_cdp_cmd("Page.captureScreenshot",
                                   {"format": "png", "captureBeyondViewport": True})
    (SHOTS / name).write_bytes(base64.b64decode(shot["data"]))


def _pair(browser: webdriver.Chrome, web: WebServer) -> None:
    browser.get(web.base + "/pair")
    browser.find_element(By.NAME, "code").send_keys(web.keys.pairing_code)
    browser.find_element(By.CSS_SELECTOR, "form.pair button[type=submit]").click()
    WebDriverWait(browser, WAIT).until(lambda b: b.find_elements(By.CSS_SELECTOR, ".paired"))


#: A small phone, where a long word or a long choice meets the screen's edge first.
SMALL_PHONE = (360, 740)


def _bold_fields(browser: webdriver.Chrome) -> list[str]:
    """The page's text fields whose typed text is not in the lists' weight (400)."""
    found = browser.execute_script("""
        return Array.from(document.querySelectorAll(
            'input:not([type=hidden]):not([type=checkbox]):not([type=radio]), textarea'))
          .filter(e => e.offsetParent !== null && getComputedStyle(e).fontWeight !== '400')
          .map(e => (e.name || e.id) + ' ' + getComputedStyle(e).fontWeight);""")
    return [str(field) for field in found]


def test_every_control_is_a_fingers_target_on_a_phone(
        web: WebServer, make_board: BoardMaker, browser: webdriver.Chrome) -> None:
    # Issue 39: the pairing input was 177x21 px and its button 40x21, the board's selects
    # 21 px and its buttons 36 px (the console's own rule is 44 px). On the board page the
    # pairing form's "You play" list showed "Whit" ("Бе" in Russian, its label "Вы играет/е"),
    # the settings' lists were cut ("Международные шашк"); on the archive a game's tick box
    # stood out of its column, and in French its variant list made the page scroll sideways.
    rig = make_board("touch-1")
    rig.play("c3-d4")
    rig.play("f6-g5")
    _screen(browser, PHONE)
    browser.get(web.base + "/pair")
    pages = {"pair": _small_controls(browser)}
    cut = {"pair": _cut_controls(browser)}
    bold = {"pair": _bold_fields(browser)}
    browser.save_screenshot(str(SHOTS / "phone-pair.png"))
    _pair(browser, web)
    game = rig.session.game_id
    for name, path in (("hall", "/"), ("board", "/board/touch-1"),
                       ("archive", "/games"), ("replay", f"/game/touch-1/{game}?ply=1"),
                       ("devices", "/devices"), ("board-ru", "/board/touch-1?lang=ru"),
                       ("hall-ru", "/?lang=ru")):
        browser.get(web.base + path)
        assert _overflow(browser) <= 0, name
        pages[name] = _small_controls(browser)
        cut[name] = _cut_controls(browser)
        bold[name] = _bold_fields(browser)
        _save_whole_page(browser, f"phone-{name}.png")
        if name == "archive":  # a game's tick box, through its label
            assert browser.find_elements(By.CSS_SELECTOR, "label.hit input[type=checkbox]")
    # The longest words (Russian) and choices (French) on a smaller phone.
    _screen(browser, SMALL_PHONE)
    for lang in ("ru", "fr"):
        for name, path in (("board", "/board/touch-1"), ("archive", "/games"), ("hall", "/")):
            browser.get(web.base + f"{path}?lang={lang}")
            cut[f"{name}-{lang}-360"] = _cut_controls(browser)
            _save_whole_page(browser, f"phone-360-{name}-{lang}.png")
    assert all(small == [] for small in pages.values()), pages
    assert all(shown == [] for shown in cut.values()), cut
    # What is typed into a field reads as a list's choice does (the labels' bold stopped
    # at the field: it was inherited by every field of the board's and the pairing forms).
    assert all(fields == [] for fields in bold.values()), bold


def test_the_board_image_fits_a_phone(web: WebServer, make_board: BoardMaker,
                                      browser: webdriver.Chrome) -> None:
    # Issue 39: /board/<id>.svg was 480 px wide on a 390 px screen (a phone's browser, or a
    # window that narrow: both must show it whole, without scrolling sideways).
    rig = make_board("image-1")
    rig.play("c3-d4")
    for mobile in (False, True):
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 1, "mobile": mobile})
        browser.get(web.base + "/board/image-1.svg")
        width, height, scale = browser.execute_script(
            "var r = document.documentElement.getBoundingClientRect();"
            "return [r.width, r.height, window.visualViewport.scale];")
        assert 0 < width * scale <= PHONE[0] and 0 < height * scale <= PHONE[1], mobile
        assert _overflow(browser) <= 0
    browser.save_screenshot(str(SHOTS / "phone-board-image.png"))
    _screen(browser, (1280, 900))
    browser.get(web.base + "/board/image-1.svg?size=200")  # ?size=: its width where it fits
    width = browser.execute_script("return document.documentElement.getBoundingClientRect()"
                                   ".width;")
    assert 200 <= round(width) <= 240  # the board's 200 px and its labels' margin


#: A word of each language that an English sentence never holds (its script).
SCRIPTS = {"ru": re.compile("[а-яё]"), "ja": re.compile("[\u3040-\u30ff\u4e00-\u9fff]"),
           "ko": re.compile("[\uac00-\ud7a3]")}


def test_the_board_page_says_the_boards_sentences_in_the_viewers_language(
        web: WebServer, make_board: BoardMaker, browser: webdriver.Chrome) -> None:
    # Issue 39: the heading "Доска говорит" / "盤からのメッセージ" over "the computer plays
    # g5-h4: carry it out on the board".
    rig = make_board("says-1", mode="play")
    rig.play("c3-d4")  # the computer answers: "the computer plays ...: carry it out"
    rig.run(2.0)
    assert "computer_move" in rig.kinds()
    _screen(browser, PHONE)
    for lang, script in SCRIPTS.items():
        browser.get(web.base + f"/board/says-1?lang={lang}")
        said = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".messages li")]
        assert said and all(script.search(text) for text in said), (lang, said)
        assert not any("the computer plays" in text for text in said)
        _save_whole_page(browser, f"phone-board-says-{lang}.png")
    # A sentence the live feed brings while the page is open: in the page's language too.
    rig.play_computer_move()
    before = len(browser.find_elements(By.CSS_SELECTOR, ".messages li"))
    board = rig.session.board
    rig.play(board.move_notation(min(board.legal_moves, key=lambda m: m.key())))
    rig.run(2.0)  # the computer's next move: said on the open page
    WebDriverWait(browser, WAIT).until(
        lambda b: len(b.find_elements(By.CSS_SELECTOR, ".messages li")) > before)
    said = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".messages li")]
    assert all(SCRIPTS["ko"].search(text) for text in said), said
