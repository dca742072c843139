"""End to end in a real browser: Debian's chromium, driven by selenium through chromium-driver,
against the web app and boards on a real Redis.

The hall shows the boards and follows their moves (the page applies the feed's small JSON
messages itself); a stopped board shows "offline" within the feed's liveness period; resign and
new game ask again before they are sent; no page scrolls sideways on a phone (390x844) or a
desktop (1920x1080); the replay's icons are drawn. The hall's screenshots in docs/ come from
the README's own demo (test_demo_pictures.py); ``SHOTS`` is where the browser tests save theirs
(docs/ when ``DRAUGHTSBOARD_SCREENSHOTS=docs``, else a temporary folder, so a test run leaves
the tree as it was).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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
SHOTS = DOCS if os.environ.get("DRAUGHTSBOARD_SCREENSHOTS") == "docs" else \
    Path(tempfile.mkdtemp(prefix="draughtsboard-shots-"))
WAIT = 15.0
PHONE, DESKTOP = (390, 844), (1920, 1080)
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--force-device-scale-factor=1")


@contextmanager
def chromium() -> Iterator[webdriver.Chrome]:
    """Debian's chromium, headless, with a profile of its own (removed after)."""
    chromium = shutil.which("chromium")
    driver_path = shutil.which("chromedriver")
    assert chromium and driver_path, "apt-get install chromium chromium-driver (see .ci/test)"
    with tempfile.TemporaryDirectory(prefix="chromium-") as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = chromium
        for argument in (*FLAGS, f"--user-data-dir={profile}", "--window-size=1280,900"):
            options.add_argument(argument)
        driver = webdriver.Chrome(service=ChromeService(driver_path), options=options)
        try:
            yield driver
        finally:
            driver.quit()


@pytest.fixture
def browser() -> Iterator[webdriver.Chrome]:
    with chromium() as driver:
        yield driver


def _screen(browser: webdriver.Chrome, size: tuple[int, int]) -> None:
    """Make the page's viewport ``size`` CSS pixels, a phone's (touch, its viewport meta) when
    narrow."""
    width, height = size
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 800})


def _text_of(browser: webdriver.Chrome, selector: str) -> str:
    """The text of the element now (read in one go: the live feed replaces elements)."""
    text = browser.execute_script(
        "var e = document.querySelector(arguments[0]); return e ? e.innerText : null;", selector)
    return "" if text is None else str(text).strip()


def _overflow(browser: webdriver.Chrome) -> int:
    """How many CSS pixels the page is wider than its viewport (0: no sideways scrolling)."""
    return int(browser.execute_script(
        "return document.documentElement.scrollWidth - window.innerWidth;"))


#: The page's controls and their labels, measured by :func:`_cut_controls`.
FORM_PARTS = ("main button, main select, main input:not([type=hidden]), main textarea, "
              "main summary, main label")


def _cut_controls(browser: webdriver.Chrome, *, words: bool = True) -> list[str]:
    """The page's controls shown cut, as ``tag[name] 'text': what is wrong``: off the screen,
    outside the box of the element that holds it, over another control, a list narrower than
    its longest choice (its words cut off), a button's words cut off and, with ``words`` (a
    language that puts spaces between words), a word of a label or a button broken over two
    lines. A page wider than the screen counts too."""
    found = browser.execute_script("""
        var parts = arguments[0], words = arguments[1], out = [], vw = window.innerWidth;
        function said(e) {
          return e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
                 (e.name ? '[' + e.name + ']' : '') + ' ' +
                 JSON.stringify((e.innerText || e.value || '').trim().slice(0, 30)); }
        function box(r) {
          return Math.round(r.left) + '..' + Math.round(r.right) + ' x ' +
                 Math.round(r.top) + '..' + Math.round(r.bottom); }
        var shown = Array.from(document.querySelectorAll(parts)).filter(function (e) {
          var r = e.getBoundingClientRect();  // (a closed <details> keeps its boxes, unshown)
          return r.width > 0 && r.height > 0 && e.checkVisibility({visibilityProperty: true}); });
        shown.forEach(function (e) {
          var r = e.getBoundingClientRect(), p = e.parentElement.getBoundingClientRect();
          if (r.left < -0.5 || r.right > vw + 0.5) {
            out.push(said(e) + ': off the screen, ' + box(r));
          } else if (r.left < p.left - 0.5 || r.right > p.right + 0.5 ||
                     r.top < p.top - 0.5 || r.bottom > p.bottom + 0.5) {
            out.push(said(e) + ': ' + box(r) + ' outside its ' +
                     e.parentElement.tagName.toLowerCase() + ' ' + box(p)); }
          if (e.tagName === 'SELECT') {  // as wide as its longest choice needs, or its form
            var free = e.cloneNode(true);  // the same list beside it, free to be that wide
            free.style.cssText = 'position: absolute; visibility: hidden; width: auto;' +
                                 ' max-width: none; left: 0; top: 0;';
            e.after(free);
            var needs = free.getBoundingClientRect().width;
            free.remove();
            var form = e.closest('form') || e.parentElement, s = getComputedStyle(form);
            var room = form.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
            if (r.width < Math.min(needs, room) - 0.5) {
              out.push(said(e) + ': ' + Math.round(r.width) + ' px wide, its choices need ' +
                       Math.round(needs) + ' of ' + Math.round(room)); }
          } else if (e.tagName === 'BUTTON' || e.tagName === 'SUMMARY') {
            if (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1) {
              out.push(said(e) + ': its words cut off'); } }
          if (words && /^(LABEL|BUTTON|SUMMARY)$/.test(e.tagName)) {
            var walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT), text;
            while ((text = walk.nextNode())) {
              var word, each = /[^\\s\\-\\u2010-\\u2015\\/]+/g;
              while ((word = each.exec(text.data))) {
                var range = document.createRange();
                range.setStart(text, word.index);
                range.setEnd(text, word.index + word[0].length);
                var tops = new Set();
                Array.from(range.getClientRects()).forEach(function (b) {
                  if (b.width > 0) { tops.add(Math.round(b.top)); } });
                if (tops.size > 1) {
                  out.push(said(e) + ': the word ' + JSON.stringify(word[0]) +
                           ' broken over ' + tops.size + ' lines'); } } } }
        });
        shown.forEach(function (a, i) {  // two controls over each other (not one in another)
          shown.slice(i + 1).forEach(function (b) {
            if (a.contains(b) || b.contains(a)) { return; }
            var x = a.getBoundingClientRect(), y = b.getBoundingClientRect();
            var w = Math.min(x.right, y.right) - Math.max(x.left, y.left);
            var h = Math.min(x.bottom, y.bottom) - Math.max(x.top, y.top);
            if (w > 0.5 && h > 0.5) {
              out.push(said(a) + ' ' + box(x) + ' over ' + said(b) + ' ' + box(y)); } }); });
        var wider = document.documentElement.scrollWidth - document.documentElement.clientWidth;
        if (wider > 0) { out.push('the page: ' + wider + ' px wider than the screen'); }
        return out;""", FORM_PARTS, words)
    return [str(item) for item in found]


def _name_boards(web: WebServer, rigs: list[tuple[BoardRig, str, str]]) -> None:
    for rig, white, black in rigs:
        count = 0
        for tag, name in (("white", white), ("black", black)):
            if name:
                web.command(rig.board_id, tag, value=name)
                count += 1
        assert rig.service.remote is not None and rig.service.remote.wait_posted(count, 10)
        rig.run(0.2)


def test_hall_live_move_offline_and_a_new_game_from_the_page(
        web: WebServer, make_board: BoardMaker, browser: webdriver.Chrome) -> None:
    hall1 = make_board("hall-1")
    hall2 = make_board("hall-2", variant="international")
    hall3 = make_board("hall-3", variant="english")
    _name_boards(web, [(hall1, "Anna", "Boris"), (hall2, "Chloé", "Daan"), (hall3, "Emma", "")])
    for text in ("c3-d4", "f6-g5", "g3-h4"):
        hall1.play(text)
    for text in ("32-28", "18-23", "37-32"):
        hall2.play(text)
    wait = WebDriverWait(browser, WAIT)

    _screen(browser, DESKTOP)
    browser.get(web.base + "/")
    cards = browser.find_elements(By.CSS_SELECTOR, "article.card")
    assert [c.get_attribute("id") for c in cards] == ["board-hall-1", "board-hall-2",
                                                     "board-hall-3"]
    assert _text_of(browser, "#board-hall-1 .players") == "Anna – Boris"
    assert _text_of(browser, "#board-hall-3 .players") == "Emma – Black"  # not "?"
    assert _text_of(browser, "#board-hall-2 .last-move") == "2. 37-32"
    assert _text_of(browser, "#board-hall-1 .result") == "In progress"
    hall1.play("b6-c5")  # made while the page is open: the page moves the piece itself
    wait.until(lambda b: _text_of(b, "#board-hall-1 .last-move") == "2... b6-c5")
    assert _text_of(browser, "#board-hall-1 .turn") == "white"
    assert browser.find_elements(By.CSS_SELECTOR, '#board-hall-1 circle.piece[data-square="c5"]')
    assert not browser.find_elements(By.CSS_SELECTOR,
                                     '#board-hall-1 circle.piece[data-square="b6"]')
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board-hall-1 rect.last")) == 2
    assert _overflow(browser) <= 0
    _screen(browser, PHONE)
    browser.get(web.base + "/")
    assert _overflow(browser) <= 0
    _screen(browser, DESKTOP)

    hall3.go_dark()  # its service stopped: the hall says so at the next liveness look
    browser.get(web.base + "/")
    hall2.go_dark()  # ... and an open page learns it from the feed
    wait.until(lambda b: _text_of(b, "#board-hall-2 .alive") == "offline")
    assert _text_of(browser, "#board-hall-3 .alive") == "offline"
    assert _text_of(browser, "#board-hall-2 .seen").startswith("last seen")
    assert _text_of(browser, "#board-hall-1 .alive") == "online"
    hall2.beat()
    wait.until(lambda b: _text_of(b, "#board-hall-2 .alive") == "online")

    browser.get(web.base + "/pair?next=/board/hall-1")
    browser.find_element(By.NAME, "code").send_keys(web.keys.pairing_code)
    browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait.until(lambda b: b.find_elements(By.ID, "cmd-newgame"))
    assert "/board/hall-1" in browser.current_url
    assert "c3-d4" in _text_of(browser, ".moves")
    assert _text_of(browser, ".moves li").split() == ["1.", "c3-d4", "f6-g5"]
    hall1.sim.lift(hall1.session.board.variant.parse_square("h4"))  # a wrong move: refused
    hall1.sim.place(hall1.session.board.variant.parse_square("g3"))
    hall1.run(3.0)
    wait.until(lambda b: "correction" in _text_of(b, ".state") or "put back" in
               _text_of(b, ".messages"))
    # The correction's LED frame reaches the page after the state that names it, and until
    # then the lifted piece's frame is drawn: wait for the correction's rings (the key names
    # the rings drawn), not for any ring.
    wait.until(lambda b: "put a piece back here" in _text_of(b, "ul.lights"))
    assert browser.find_elements(By.CSS_SELECTOR, "#panel circle.led")
    assert "take the piece off this square" in _text_of(browser, "ul.lights")
    hall1.sim.lift(hall1.session.board.variant.parse_square("g3"))
    hall1.sim.place(hall1.session.board.variant.parse_square("h4"))
    hall1.run(3.0)
    wait.until(lambda b: "put a piece back here" not in _text_of(b, "ul.lights"))  # live

    reader = hall1.service.remote
    assert reader is not None
    posted = reader.posted
    first_game = hall1.session.game_id
    confirm = browser.find_element(By.ID, "confirm")
    browser.find_element(By.ID, "cmd-resign-white").click()  # asked again, not sent
    assert confirm.is_displayed() and "White resigns: Black wins the game?" in confirm.text
    browser.find_element(By.ID, "confirm-no").click()
    assert not confirm.is_displayed()
    browser.find_element(By.ID, "cmd-newgame").click()
    assert confirm.is_displayed() and "new game" in confirm.text
    assert reader.posted == posted and _text_of(browser, "#status") == ""
    browser.find_element(By.ID, "confirm-yes").click()
    wait.until(lambda b: "sent to hall-1: newgame" in _text_of(b, "#status"))
    assert reader.wait_posted(posted + 1, 10)
    hall1.run(0.5)
    wait.until(lambda b: "setting up a new game" in _text_of(b, ".state"))
    set_up_initial(hall1)
    assert hall1.session.game_id != first_game
    wait.until(lambda b: _text_of(b, ".moves") == "")
    assert "setting the board" in _text_of(browser, ".state") or \
        "waiting for a move" in _text_of(browser, ".state")


def test_no_page_scrolls_sideways_and_the_icons_are_drawn(
        web: WebServer, make_board: BoardMaker, browser: webdriver.Chrome) -> None:
    rig = make_board("a-board-with-a-rather-long-name-for-a-phone", variant="international")
    _name_boards(web, [(rig, "Maximiliane Oberhausen-Wittgenstein",
                        "Bartholomew Featherstonehaugh")])
    for text in ("32-28", "18-23", "37-32", "12-18"):
        rig.play(text)
    game_id = rig.session.game_id
    pages = ["/", f"/board/{rig.board_id}", "/games", f"/game/{rig.board_id}/{game_id}?ply=2"]
    for size in (PHONE, DESKTOP):
        _screen(browser, size)
        for path in pages:
            browser.get(web.base + path)
            assert _overflow(browser) <= 0, (size, path)
    browser.get(web.base + f"/game/{rig.board_id}/{game_id}?ply=2")
    for rel in ("first", "prev", "next", "last"):  # drawn shapes, not a font's empty boxes
        box = browser.execute_script(
            "var p = document.querySelector('#steps a[rel=' + arguments[0] + '] svg path');"
            "var b = p.getBBox(); var r = p.closest('svg').getBoundingClientRect();"
            "return [b.width, b.height, r.width, r.height];", rel)
        assert all(v > 0 for v in box), (rel, box)
    _screen(browser, PHONE)
    browser.get(web.base + "/games")
    row = browser.find_element(By.CSS_SELECTOR, "table.games tbody tr")
    for link in row.find_elements(By.CSS_SELECTOR, "a"):  # replay and PDN on screen
        assert link.rect["x"] >= 0 and link.rect["x"] + link.rect["width"] <= PHONE[0]
    assert _text_of(browser, "table.games td.result") == "In progress"
    badge = browser.find_elements(By.CSS_SELECTOR, ".paired")
    assert not badge  # not paired here; the badge's own test is below


def test_the_control_badge_stays_on_one_line(web: WebServer, make_board: BoardMaker,
                                             browser: webdriver.Chrome) -> None:
    make_board("badge-1")
    _screen(browser, PHONE)
    browser.get(web.base + "/pair")
    browser.find_element(By.NAME, "code").send_keys(web.keys.pairing_code)
    browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    WebDriverWait(browser, WAIT).until(lambda b: b.find_elements(By.CSS_SELECTOR, ".paired"))
    height = browser.execute_script(
        "var e = document.querySelector('.paired'); return e.getClientRects().length;")
    assert height == 1  # one box: the words did not wrap


def test_the_board_flips(web: WebServer, make_board: BoardMaker,
                         browser: webdriver.Chrome) -> None:
    rig = make_board("flip-1")
    rig.play("c3-d4")
    browser.get(web.base + "/board/flip-1")

    def top_of(square: str) -> float:
        return float(browser.execute_script(
            "return document.querySelector('#panel rect[data-sq=' + arguments[0] + ']')"
            ".getBoundingClientRect().top;", square))

    assert top_of("a1") > top_of("h8")  # White at the bottom
    browser.find_element(By.CSS_SELECTOR, "button.flip").click()
    assert top_of("a1") < top_of("h8")  # Black at the bottom
    labels = browser.execute_script(
        "return Array.from(document.querySelectorAll('#panel .lab'))"
        ".map(function (g) { return getComputedStyle(g).display; });")
    assert labels == ["none", "inline"]
    browser.refresh()  # remembered
    assert top_of("a1") < top_of("h8")


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
        rig.beat()
        rig.play("g3-h4")
        wait.until(lambda b: "g3-h4" in _text_of(b, ".moves"))
        assert "f6-g5" in _text_of(browser, ".moves")
    finally:
        web.stop()
        rig.close()


def test_the_page_script_writes_the_viewers_language(
        web: WebServer, make_board: BoardMaker, browser: webdriver.Chrome) -> None:
    rig = make_board("ja-1", variant="international")
    rig.play("32-28")
    wait = WebDriverWait(browser, WAIT)
    _screen(browser, DESKTOP)
    browser.get(web.base + "/?lang=ja")
    wait.until(lambda b: _text_of(b, "#board-ja-1 .turn") == "黒")
    rig.play("18-23")  # live: the script writes whose turn it is, in Japanese
    wait.until(lambda b: _text_of(b, "#board-ja-1 .last-move") == "1... 18-23")
    wait.until(lambda b: _text_of(b, "#board-ja-1 .turn") == "白")
    rig.go_dark()
    wait.until(lambda b: _text_of(b, "#board-ja-1 .alive") == "オフライン")
    wait.until(lambda b: _text_of(b, "#board-ja-1 .seen").startswith("最終応答 "))


def test_a_phone_chooses_its_language_from_one_button(
        web: WebServer, make_board: BoardMaker, browser: webdriver.Chrome) -> None:
    make_board("menu-1")
    wait = WebDriverWait(browser, WAIT)
    _screen(browser, PHONE)
    browser.get(web.base + "/?lang=ja")
    inline = browser.find_element(By.CSS_SELECTOR, ".top nav.languages")
    menu = browser.find_element(By.CSS_SELECTOR, ".top details.language-menu")
    assert not inline.is_displayed() and menu.is_displayed()
    summary = menu.find_element(By.TAG_NAME, "summary")
    assert summary.text.startswith("日本語")
    header = browser.find_element(By.CSS_SELECTOR, "header.top").size["height"]
    assert header <= 2 * 48  # the name and the menu, then the pages: two lines, not four
    summary.click()
    menu.find_element(By.LINK_TEXT, "Русский").click()
    wait.until(lambda b: b.find_element(By.TAG_NAME, "h1").text == "Игровой зал")
    _screen(browser, DESKTOP)
    browser.get(web.base + "/?lang=ja")
    assert browser.find_element(By.CSS_SELECTOR, ".top nav.languages").is_displayed()
    assert not browser.find_element(By.CSS_SELECTOR, ".top details.language-menu").is_displayed()


def test_the_chosen_language_stays_through_the_sites_links_and_forms(
        web: WebServer, make_board: BoardMaker, browser: webdriver.Chrome) -> None:
    """Русский from the switch, then the Archive link, a board's card and the pairing form:
    each page stays in Russian (it fell back to the browser's English at the first link)."""
    make_board("keep-1")
    wait = WebDriverWait(browser, WAIT)
    _screen(browser, DESKTOP)
    browser.get(web.base + "/")
    assert browser.find_element(By.TAG_NAME, "h1").text == "The hall"
    browser.find_element(By.CSS_SELECTOR, ".top nav.languages").find_element(
        By.LINK_TEXT, "Русский").click()
    wait.until(lambda b: b.find_element(By.TAG_NAME, "h1").text == "Игровой зал")
    browser.find_element(By.LINK_TEXT, "Архив").click()
    wait.until(lambda b: b.find_element(By.TAG_NAME, "h1").text == "Архив")
    browser.find_element(By.LINK_TEXT, "Зал").click()
    wait.until(lambda b: b.find_element(By.TAG_NAME, "h1").text == "Игровой зал")
    browser.find_element(By.CSS_SELECTOR, "#board-keep-1 a.card-link").click()
    wait.until(lambda b: b.find_element(By.TAG_NAME, "h1").text == "Доска keep-1")
    browser.find_element(By.LINK_TEXT, "Подключить").click()
    wait.until(lambda b: b.find_element(By.TAG_NAME, "h1").text == "Подключите это устройство")
    browser.find_element(By.CSS_SELECTOR, "input[name=code]").send_keys("1")
    browser.find_element(By.CSS_SELECTOR, "form button").click()
    wait.until(lambda b: "Это не код подключения." in b.page_source)


def test_the_paired_devices_page_fits_a_phone(web: WebServer, make_board: BoardMaker,
                                              browser: webdriver.Chrome) -> None:
    """On a phone the devices table broke "Revoke" into syllables ("Re/vo/ke", in Russian
    "От/озв/ать") and each id over three lines; each device is now a small card."""
    make_board("devices-1")
    _screen(browser, PHONE)
    for _ in range(2):  # two devices (one browser, paired twice), one of them "this one"
        browser.delete_all_cookies()
        browser.get(web.base + "/pair")
        browser.find_element(By.NAME, "code").send_keys(web.keys.pairing_code)
        browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        WebDriverWait(browser, WAIT).until(lambda b: b.find_elements(By.CSS_SELECTOR, ".paired"))
    for lang in ("en", "ru"):
        browser.get(web.base + f"/devices?lang={lang}")
        assert _overflow(browser) <= 0
        rows = browser.find_elements(By.CSS_SELECTOR, "table.devices tbody tr")
        assert len(rows) == 2
        for row in rows:
            for cell in ("td.id code", "td.revoke button"):
                lines = browser.execute_script(
                    "var e = arguments[0].querySelector(arguments[1]);"
                    "var r = document.createRange(); r.selectNodeContents(e);"
                    "var tops = new Set(); for (var b of r.getClientRects()) {"
                    " tops.add(Math.round(b.top)); } return tops.size;", row, cell)
                assert lines == 1, (lang, cell)  # its words on one line
            button = row.find_element(By.CSS_SELECTOR, "td.revoke button").rect
            assert button["x"] >= 0 and button["x"] + button["width"] <= PHONE[0], lang
            assert button["height"] >= 44  # a finger's target


def test_the_archive_filters_line_up(web: WebServer, make_board: BoardMaker,
                                     browser: webdriver.Chrome) -> None:
    """On a desktop the archive's filter labels stood at different heights: a date field is
    taller than a list, and the fields were lined up by their bottoms."""
    make_board("filters-1")
    _screen(browser, DESKTOP)
    browser.get(web.base + "/games?lang=ja")
    boxes = browser.execute_script(
        "return Array.from(document.querySelectorAll('.filters input, .filters select,"
        " .filters button')).map(function (e) { var r = e.getBoundingClientRect();"
        " return [r.top, r.height]; });")
    assert len(boxes) == 8  # board, from, to, player, event, variant, result, the button
    assert len({round(top) for top, _ in boxes}) == 1, boxes
    assert len({round(height) for _, height in boxes}) == 1, boxes
