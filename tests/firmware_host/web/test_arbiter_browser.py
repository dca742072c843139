"""The arbiter's console end to end in a real browser (Debian's chromium through selenium), with
boards playing on a 3+2 clock on a real Redis.

The arbiter pairs with the arbiter code, opens the console, pauses every clock (each board
carries it out, and the console and the board page show the clocks paused), adjudicates a game,
corrects its result with a reason, and the corrected result and the reason are in
``/broadcast.pdn``. The arbiter starts round 3 of an imported pairing on every board at once
(those that can: one is offline); the cards name the players and show full clocks; pressed
again on a phone, the reply says why nothing can start. Every decision is asked again before it
is sent and its reply is said in words. A pairing program's TRF is imported from the console
(uploaded, previewed, confirmed); the cards show the pairing waiting on each board and its
position, the filters find a board, and a forfeit is recorded, on a desktop and a phone. The
console's screenshots (web-arbiter.png, web-arbiter-phone.png, web-arbiter-round.png,
web-arbiter-import.png, web-arbiter-import-phone.png) go where test_web_browser.py puts its own
(``DRAUGHTSBOARD_SCREENSHOTS=docs``: into docs/).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from firmware_host.store.keys import BOARDS, BoardKeys
from firmware_host.tournament.pairing import read_pairings
from firmware_host.tournament.rounds import import_round
from tests.firmware_host.web import test_web_browser as shared
from tests.firmware_host.web.harness import BoardRig, WebServer
from tests.firmware_host.web.test_web_browser import (
    DESKTOP,
    PHONE,
    SHOTS,
    WAIT,
    _cut_controls,
    _name_boards,
    _overflow,
    _screen,
    _text_of,
)
from tests.redis_server import RedisServer

pytestmark = pytest.mark.redis
#: The browser test's chromium (a fixture of test_web_browser.py, shared with it).
browser = shared.browser

BoardMaker = Callable[..., BoardRig]
CLOCK = {"clock": {"time_control": "3+2"}}


@pytest.fixture
def arbiter_web(redis_url: str) -> Iterator[WebServer]:
    server = WebServer(redis_url, arbiter=True).start()
    yield server
    server.stop()


def _shown(seconds: float) -> str:
    """A time as a clock face shows it: minutes and whole seconds."""
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def _last_clock(rig: BoardRig) -> dict[str, Any]:
    clocks = [e for e in rig.events if e.get("event") == "clock"]
    assert clocks, "the board published no clock event"
    return clocks[-1]


def _until(wait: WebDriverWait[webdriver.Chrome], rigs: tuple[BoardRig, ...],
           seen: Callable[[webdriver.Chrome], bool]) -> None:
    """Wait until the page shows what ``seen`` looks for, the boards running meanwhile (a
    decision waits for their answers: they read it and carry it out as they run)."""
    def running(browser: webdriver.Chrome) -> bool:
        for rig in rigs:
            rig.run(0.1)
        return seen(browser)
    wait.until(running)


def _hold_reads(browser: webdriver.Chrome) -> None:
    """Hold the console's state reads, each answered, until :func:`_release_reads` (a slow
    network: the answer reaches the page late)."""
    browser.execute_script("""
        window.heldReads = [];
        var fetched = window.fetch;
        window.fetch = function (url, options) {
          var answer = fetched(url, options);
          if (String(url).indexOf("/arbiter/state.json") < 0) { return answer; }
          return answer.then(function (r) { return r.json(); }).then(function (state) {
            return new Promise(function (resolve) {
              window.heldReads.push(function () {
                resolve({ json: function () { return Promise.resolve(state); } });
              });
            });
          });
        };""")


def _release_reads(browser: webdriver.Chrome) -> None:
    """Let the held reads reach the page (applied before the next script runs: promises only)
    and read on without holding."""
    browser.execute_script("""
        var held = window.heldReads;
        window.heldReads = { push: function (go) { go(); }, length: 0 };
        held.forEach(function (go) { go(); });""")


def _decide(browser: webdriver.Chrome, board: str, form: str, result: str, reason: str) -> str:
    """Fill a decision's form on ``board``'s card and send it; return the question asked."""
    card = browser.find_element(By.ID, f"arb-{board}")
    details = card.find_element(By.CSS_SELECTOR, "details.decide")
    if details.get_attribute("open") is None:
        card.find_element(By.CSS_SELECTOR, "summary").click()
    box = card.find_element(By.CSS_SELECTOR, f"form.{form}")
    Select(box.find_element(By.NAME, "result")).select_by_visible_text(result)
    box.find_element(By.NAME, "reason").send_keys(reason)
    box.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    ask = browser.find_element(By.ID, "arb-confirm")
    assert ask.is_displayed()
    question = ask.find_element(By.ID, "arb-confirm-text").text
    browser.find_element(By.ID, "arb-confirm-yes").click()
    return question


@dataclass
class Console:
    """The arbiter's evening, one scene for its steps: two boards on a 3+2 clock (hall-1 White
    to move after 32-28 18-23, hall-2 Black to move after 33-29), the arbiter's web app, and
    one chromium at a desktop's size."""

    web: WebServer
    one: BoardRig
    two: BoardRig
    browser: webdriver.Chrome

    @property
    def wait(self) -> WebDriverWait[webdriver.Chrome]:
        return WebDriverWait(self.browser, WAIT)


@pytest.fixture(scope="class")
def console(redis_server: RedisServer,
            tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    redis.Redis.from_url(redis_server.url).flushall()
    home = tmp_path_factory.mktemp("arbiter-console")
    with ExitStack() as stack:
        web = WebServer(redis_server.url, arbiter=True).start()
        stack.callback(web.stop)
        one = BoardRig(redis_server.url, "hall-1", home / "hall-1", variant="international",
                       extra=CLOCK)
        stack.callback(one.close)
        two = BoardRig(redis_server.url, "hall-2", home / "hall-2", variant="international",
                       extra=CLOCK)
        stack.callback(two.close)
        _name_boards(web, [(one, "Ann Smit", "Bob de Vries"), (two, "Cor Jansen", "Dirk Bos")])
        for text in ("32-28", "18-23"):
            one.play(text)
        two.play("33-29")
        browser = stack.enter_context(shared.chromium())
        _screen(browser, DESKTOP)
        yield Console(web, one, two, browser)


@pytest.mark.incremental  # each step starts where the one before left the evening
class TestTheArbitersEvening:
    """The arbiter pairs, pauses every clock, adjudicates a game and corrects its result and a
    move, on a desktop and on a phone: a test a behaviour, in the order an arbiter meets them."""

    def test_the_console_asks_for_the_arbiter_code(self, console: Console) -> None:
        browser, web = console.browser, console.web
        browser.get(web.base + "/arbiter")
        code = browser.find_element(By.NAME, "code")
        code.send_keys(web.keys.pairing_code)  # the pairing code is not the arbiter's
        code.submit()
        console.wait.until(lambda b: "not the arbiter code" in _text_of(b, ".error"))
        browser.find_element(By.NAME, "code").send_keys(web.arbiter.code + Keys.ENTER)
        console.wait.until(lambda b: b.find_elements(By.ID, "arb-hall-2"))
        assert browser.current_url == web.base + "/arbiter"

    def test_each_card_shows_the_players_the_result_and_both_clocks(
            self, console: Console) -> None:
        browser = console.browser
        assert _text_of(browser, "#arb-hall-1 .players") == "Ann Smit – Bob de Vries"
        assert _text_of(browser, "#arb-hall-2 .players") == "Cor Jansen – Dirk Bos"
        assert _text_of(browser, "#arb-hall-1 dd.result") == "In progress"
        for board in ("hall-1", "hall-2"):  # both clocks, the running one marked
            assert browser.find_element(By.CSS_SELECTOR, f"#arb-{board} .clocks").is_displayed()
        assert browser.find_elements(By.CSS_SELECTOR, "#arb-hall-1 .clock-white.running")
        assert browser.find_elements(By.CSS_SELECTOR, "#arb-hall-2 .clock-black.running")

    def test_pause_all_is_asked_and_answered_by_every_board(self, console: Console) -> None:
        """From the keyboard: the question, Enter on "Yes", the reply in words: what the boards
        answered."""
        browser = console.browser
        browser.find_element(By.ID, "arb-pause-all").send_keys(Keys.ENTER)
        console.wait.until(lambda b: b.find_element(By.ID, "arb-confirm").is_displayed())
        assert _text_of(browser, "#arb-confirm-text") == "Pause the clocks of every board?"
        assert browser.switch_to.active_element.get_attribute("id") == "arb-confirm-yes"
        browser.switch_to.active_element.send_keys(Keys.ENTER)
        _until(console.wait, (console.one, console.two), lambda b: _text_of(b, "#arb-status")
               == "every clock paused: done on hall-1, hall-2")
        for rig in (console.one, console.two):
            assert _last_clock(rig)["paused"] is True

    def test_the_paused_clocks_show_the_boards_times(self, console: Console) -> None:
        browser = console.browser
        console.wait.until(lambda b: [_text_of(b, f"#arb-{name} .clocks .held")
                                      for name in ("hall-1", "hall-2")] == ["paused", "paused"])
        paused = _last_clock(console.one)
        assert _text_of(browser, "#arb-hall-1 .clock-white .time") == \
            _shown(paused["clock_white"])
        assert _text_of(browser, "#arb-hall-1 .clock-black .time") == \
            _shown(paused["clock_black"])

    def test_an_adjudication_is_asked_with_its_reason_and_shown(self, console: Console) -> None:
        browser, wait = console.browser, console.wait
        question = _decide(browser, "hall-2", "arb-adjudicate", "White won",
                           "Black did not come back after the break")
        assert question == ("End the game on hall-2: White won? Reason: Black did not come "
                            "back after the break.")
        _until(wait, (console.two,), lambda b: _text_of(b, "#arb-status") ==
               "hall-2: adjudicated, White won: done")
        wait.until(lambda b: _text_of(b, "#arb-hall-2 dd.result") == "White won (adjudication)")
        # The game is over: its card offers a correction of the result, no adjudication.
        wait.until(lambda b: b.find_element(By.CSS_SELECTOR, "#arb-hall-2 form.arb-correct")
                   .is_displayed())
        assert not browser.find_element(By.CSS_SELECTOR,
                                        "#arb-hall-2 form.arb-adjudicate").is_displayed()

    def test_a_corrected_result_is_shown_and_audited(self, console: Console) -> None:
        browser, wait = console.browser, console.wait
        question = _decide(browser, "hall-2", "arb-correct", "Draw",
                           "the players had agreed a draw")
        assert question == ("Change the result on hall-2 to Draw? Reason: the players had "
                            "agreed a draw.")
        _until(wait, (console.two,), lambda b: _text_of(b, "#arb-status") ==
               "hall-2: result corrected to Draw: done")
        wait.until(lambda b: _text_of(b, "#arb-hall-2 dd.result") == "Draw (adjudication)")
        wait.until(lambda b: "hall-2: result corrected to Draw: done (the players had agreed a "
                   "draw)" in _text_of(b, "#arb-audit"))
        assert _overflow(browser) <= 0
        browser.save_screenshot(str(SHOTS / "web-arbiter.png"))

    def test_a_finished_games_corrected_move_says_what_becomes_of_the_result(
            self, console: Console) -> None:
        """Kept: the game stays over and no clock runs; withdrawn: play resumes, the clock held
        until released. Asked twice, sent neither time."""
        browser = console.browser
        fix = browser.find_element(By.CSS_SELECTOR, "#arb-hall-2 form.arb-correct-move")
        ply = fix.find_element(By.NAME, "ply")
        ply.clear()
        ply.send_keys("1")
        fix.find_element(By.NAME, "move").send_keys("33-28")
        fix.find_element(By.NAME, "reason").send_keys("the score sheets")
        browser.execute_script("arguments[0].scrollIntoView()", fix)
        fix.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        assert _text_of(browser, "#arb-confirm-text") == (
            "Correct ply 1 on hall-2 to 33-28? The result (Draw (adjudication)) is kept: the "
            "game stays over and no clock runs. Reason: the score sheets.")
        Select(fix.find_element(By.NAME, "result")).select_by_visible_text(
            "Withdraw it: play resumes")
        fix.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        assert "Black's clock stays held until you release it" in _text_of(
            browser, "#arb-confirm-text")
        browser.find_element(By.ID, "arb-confirm-no").click()

    def test_a_move_the_board_refuses_stays_on_the_console_until_dismissed(
            self, console: Console) -> None:
        browser = console.browser
        fix = browser.find_element(By.CSS_SELECTOR, "#arb-hall-2 form.arb-correct-move")
        fix.find_element(By.NAME, "move").clear()
        fix.find_element(By.NAME, "move").send_keys("46-1")
        fix.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        browser.find_element(By.ID, "arb-confirm-yes").click()
        refusal = ("Not done: hall-2: ply 1 corrected to 46-1, result withdrawn: refused by the "
                   "board: correct_move: that move is not legal there")
        _until(console.wait, (console.two,), lambda b: _text_of(b, "#arb-status") == refusal)
        assert _text_of(browser, "#arb-refusals li span") == refusal
        browser.find_element(By.CSS_SELECTOR, "#arb-refusals li button").click()  # Dismiss
        assert browser.find_elements(By.CSS_SELECTOR, "#arb-refusals li") == []

    def test_the_broadcast_has_the_corrected_result_and_its_reason(
            self, console: Console) -> None:
        status, _, pdn = console.web.get("/broadcast.pdn")
        assert status == 200
        text = " ".join(pdn.split())
        game = text[text.index('[White "Cor Jansen"]'):]
        assert '[Result "1-1"]' in game
        assert '{arbiter: result corrected from "2-0" (the players had agreed a draw)}' in game
        assert game.rstrip().endswith("1-1")

    def test_on_a_phone_the_console_fits_and_every_button_takes_a_thumb(
            self, console: Console) -> None:
        browser = console.browser
        _screen(browser, PHONE)
        browser.get(console.web.base + "/arbiter")
        console.wait.until(lambda b: b.find_elements(By.ID, "arb-hall-2"))
        browser.find_element(By.CSS_SELECTOR, "#arb-hall-1 summary").click()
        assert _overflow(browser) <= 0
        for form in ("arb-add-time", "arb-adjudicate", "arb-correct-move"):  # a game in play
            assert browser.find_element(By.CSS_SELECTOR,
                                        f"#arb-hall-1 form.{form}").is_displayed()
        assert not browser.find_element(By.CSS_SELECTOR,
                                        "#arb-hall-1 form.arb-correct").is_displayed()
        for button in browser.find_elements(By.CSS_SELECTOR,
                                            "#arb-hall-1 button, .arb-all button"):
            if button.is_displayed():  # big enough to hit with a thumb, and on the screen
                assert button.rect["height"] >= 44 and button.rect["x"] >= 0
                assert button.rect["x"] + button.rect["width"] <= PHONE[0]

    def test_a_cancelled_decision_sends_nothing(self, console: Console) -> None:
        """Time for Black on hall-1, asked and then cancelled; the audit log holds the
        decisions sent, and only those."""
        browser = console.browser
        form = browser.find_element(By.CSS_SELECTOR, "#arb-hall-1 form.arb-add-time")
        Select(form.find_element(By.NAME, "side")).select_by_visible_text("Black")
        form.find_element(By.NAME, "reason").send_keys("a spectator disturbed Black")
        browser.execute_script("arguments[0].scrollIntoView()", form)
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        assert _text_of(browser, "#arb-confirm-text") == \
            "Give Black 60 s on hall-1? Reason: a spectator disturbed Black."
        browser.save_screenshot(str(SHOTS / "web-arbiter-phone.png"))
        browser.find_element(By.ID, "arb-confirm-no").click()
        assert _text_of(browser, "#arb-status") == "Cancelled: nothing was sent."
        assert not browser.find_element(By.ID, "arb-confirm").is_displayed()
        status, _, body = console.web.get("/arbiter/audit.json",
                                          {"Authorization": f"Bearer {console.web.arbiter.token}"})
        assert status == 200
        assert [e["action"] for e in json.loads(body)["audit"] if e["action"] != "header"] == [
            "correct_move", "correct_result", "adjudicate", "pause_all"]  # (names: audited too)


def test_the_board_page_and_the_hall_show_both_clocks(
        web: WebServer, make_board: BoardMaker, browser: webdriver.Chrome) -> None:
    rig = make_board("clock-1", variant="international", extra=CLOCK)
    plain = make_board("plain-1", variant="international")
    rig.play("32-28")
    plain.play("32-28")
    wait = WebDriverWait(browser, WAIT)
    browser.get(web.base + "/board/clock-1")
    wait.until(lambda b: b.find_element(By.CSS_SELECTOR, "#panel .clocks").is_displayed())
    assert _text_of(browser, "#panel .clock-white .who") == "White"
    assert _text_of(browser, "#panel .clock-black .who") == "Black"
    reading = _last_clock(rig)
    assert _text_of(browser, "#panel .clock-white .time") == _shown(reading["clock_white"])
    assert browser.find_elements(By.CSS_SELECTOR, "#panel .clock-black.running")
    rig.play("18-23")  # the feed's reading: White's clock runs now
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#panel .clock-white.running"))
    assert not browser.find_elements(By.CSS_SELECTOR, "#panel .clock-black.running")
    assert _text_of(browser, "#panel .clock-black .time") == \
        _shown(_last_clock(rig)["clock_black"])

    rig.run(121.0)  # White's time (in the board's virtual time) falls under a minute: marked
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#panel .clock-white.running.low"))
    rig.run(60.0)  # ... and runs out: the flag falls, Black wins on time
    wait.until(lambda b: _text_of(b, "#panel dd.result") == "Black won (time)")
    assert _text_of(browser, "#panel .clock-white .time") == "0:00"
    assert _text_of(browser, "#panel .clock-white .flag") == "time"
    assert not browser.find_element(By.CSS_SELECTOR, "#panel .clock-black .flag").is_displayed()

    browser.get(web.base + "/")  # the hall: a card with a clock shows it, one without does not
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#board-clock-1 .clocks"))
    assert browser.find_element(By.CSS_SELECTOR, "#board-clock-1 .clocks").is_displayed()
    assert not browser.find_element(By.CSS_SELECTOR, "#board-plain-1 .clocks").is_displayed()
    browser.get(web.base + "/board/plain-1")
    assert not browser.find_element(By.CSS_SELECTOR, "#panel .clocks").is_displayed()


ROUND_3 = ("board,white,black,round,event\n"
           "hall-1,Ann Smit,Bob de Vries,3,Club night\n"
           "hall-2,Cor Jansen,Dirk Bos,3,Club night\n"
           "hall-3,Eva Kok,Fred Mol,3,Club night\n")


def _pair(browser: webdriver.Chrome, web: WebServer) -> None:
    browser.get(web.base + "/arbiter")
    browser.find_element(By.NAME, "code").send_keys(web.arbiter.code + Keys.ENTER)
    WebDriverWait(browser, WAIT).until(lambda b: b.find_elements(By.ID, "arb-boards"))


def test_the_arbiter_starts_the_round_on_every_board_at_once(
        arbiter_web: WebServer, make_board: BoardMaker, browser: webdriver.Chrome,
        redis_url: str) -> None:
    web = arbiter_web
    one = make_board("hall-1", variant="international", extra=CLOCK)
    two = make_board("hall-2", variant="international", extra=CLOCK)
    make_board("hall-3", variant="international", extra=CLOCK).close()  # its service stops
    for rig in (one, two):
        rig.run(30.0)  # the players sit down: White's time runs on both boards
    assert one.session.timekeeper.display(one.clock.monotonic()).startswith("white 0:02:29*")
    import_round(redis.Redis.from_url(redis_url), read_pairings(ROUND_3)[0], "test")  # round import
    wait = WebDriverWait(browser, WAIT)
    _screen(browser, DESKTOP)
    _pair(browser, web)
    assert browser.find_element(By.ID, "arb-round").get_attribute("value") == "3"
    assert _text_of(browser, "#arb-start-round") == "Start round 3"
    assert _text_of(browser, "#arb-rounds") == "Waiting on the boards: round 3."
    field = browser.find_element(By.ID, "arb-round")  # emptied, the button says what it does
    field.send_keys(Keys.BACKSPACE)
    assert _text_of(browser, "#arb-start-round") == "Start a round"
    field.send_keys("3")
    assert _text_of(browser, "#arb-start-round") == "Start round 3"

    # Start round 3: asked, then sent to every board of the pairing that can start it.
    browser.find_element(By.ID, "arb-start-round").click()
    wait.until(lambda b: b.find_element(By.ID, "arb-confirm").is_displayed())
    assert _text_of(browser, "#arb-confirm-text") == (
        "Start round 3 on every board of its pairing now? Each board's game gets its players, "
        "and its clock starts with the full time.")
    browser.find_element(By.ID, "arb-confirm-yes").click()
    started = "Round 3 started on 2 boards: hall-1, hall-2; not started: hall-3 (offline)"
    _until(wait, (one, two), lambda b: _text_of(b, "#arb-status") == started)
    for rig in (one, two):
        clock = _last_clock(rig)
        assert (clock["running"], clock["paused"], clock["clock_white"]) == ("white", False, 180)
    # The cards name the players (the boards' header events) and show both clocks full.
    wait.until(lambda b: _text_of(b, "#arb-hall-1 .players") == "Ann Smit – Bob de Vries")
    wait.until(lambda b: _text_of(b, "#arb-hall-2 .players") == "Cor Jansen – Dirk Bos")
    assert _text_of(browser, "#arb-hall-1 .round-n") == "3"
    assert _text_of(browser, "#arb-hall-2 .clock-black .time") == "3:00"
    wait.until(lambda b: "round 3 started on hall-1, hall-2; not on hall-3 (offline)"
               in _text_of(b, "#arb-audit"))
    wait.until(lambda b: _text_of(b, "#arb-rounds") == "Waiting on the boards: round 3.")
    assert _overflow(browser) <= 0
    browser.save_screenshot(str(SHOTS / "web-arbiter-round.png"))
    status, _, pdn = web.get("/broadcast.pdn?round=3")
    assert status == 200 and '[White "Ann Smit"]' in pdn and '[Black "Dirk Bos"]' in pdn
    one.play("32-28")
    one.session.command("resign", one.clock.monotonic(), "black")
    one.run(0.5)
    browser.get(web.base + "/")  # the hall names the players of the round: nobody typed them
    wait.until(lambda b: _text_of(b, "#board-hall-2 .players") == "Cor Jansen – Dirk Bos")
    browser.get(web.base + "/round/3")  # the round's results, for the hall
    assert _text_of(browser, "h1") == "Round 3 · Club night"
    assert [_text_of(browser, f"table.round-results tbody tr:nth-child({n}) .result")
            for n in (1, 2, 3)] == ["White won (2-0, resignation)", "In progress (*)", "–"]
    assert _overflow(browser) <= 0
    browser.save_screenshot(str(SHOTS / "web-round.png"))

    # On a phone: pressed again, nothing can start (started, or offline): one clear reply.
    _screen(browser, PHONE)
    browser.get(web.base + "/round/3")
    assert _overflow(browser) <= 0
    browser.get(web.base + "/arbiter")
    wait.until(lambda b: b.find_elements(By.ID, "arb-hall-2"))
    assert _overflow(browser) <= 0
    button = browser.find_element(By.ID, "arb-start-round")
    assert button.rect["height"] >= 44 and button.rect["x"] + button.rect["width"] <= PHONE[0]
    button.click()
    wait.until(lambda b: b.find_element(By.ID, "arb-confirm").is_displayed())
    browser.find_element(By.ID, "arb-confirm-yes").click()
    wait.until(lambda b: _text_of(b, "#arb-status") == (
        "Not done: round 3 can start on no board: hall-1 (started already); "
        "hall-2 (started already); hall-3 (offline)"))
    status, _, body = web.get("/arbiter/audit.json",
                              {"Authorization": f"Bearer {web.arbiter.token}"})
    assert [e["action"] for e in json.loads(body)["audit"]] == ["start_round", "import"]


def _seconds(shown: str) -> int:
    minutes, _, seconds = shown.partition(":")
    return int(minutes) * 60 + int(seconds)


def _times(browser: webdriver.Chrome, board: str) -> list[str]:
    return [_text_of(browser, f"#arb-{board} .clock-{side} .time") for side in ("white", "black")]


def test_the_console_in_russian_and_on_a_japanese_phone(
        arbiter_web: WebServer, make_board: BoardMaker, browser: webdriver.Chrome) -> None:
    web = arbiter_web
    one = make_board("hall-1", variant="international", extra=CLOCK)
    two = make_board("hall-2", variant="international", extra=CLOCK)
    one.play("32-28")  # Black's time runs on both boards
    two.play("33-29")
    wait = WebDriverWait(browser, WAIT)
    _screen(browser, DESKTOP)

    # Opened with ?lang=ru: the pairing form, then the console, in Russian.
    browser.get(web.base + "/arbiter?lang=ru")
    assert _text_of(browser, "h1") == "Пульт судьи"
    browser.find_element(By.NAME, "code").send_keys(web.arbiter.code + Keys.ENTER)
    wait.until(lambda b: b.find_elements(By.ID, "arb-hall-2"))
    assert _text_of(browser, "#arb-round-h") == "Начать тур"
    assert _text_of(browser, "#arb-all-h") == "Часы всех досок"
    assert _text_of(browser, "#arb-hall-1 .alive") == "в сети"
    assert _text_of(browser, "#arb-hall-1 dd.result") == "Идёт партия"
    browser.find_element(By.CSS_SELECTOR, 'form[action="/arbiter/pause-all"] input[name=reason]'
                         ).send_keys("пожарная тревога")
    browser.find_element(By.ID, "arb-pause-all").click()
    wait.until(lambda b: b.find_element(By.ID, "arb-confirm").is_displayed())
    assert _text_of(browser, "#arb-confirm-text") == \
        "Остановить часы на всех досках? Причина: пожарная тревога."
    assert _text_of(browser, "#arb-confirm-yes") == "Да, отправить"
    browser.find_element(By.ID, "arb-confirm-no").click()
    assert _text_of(browser, "#arb-status") == "Отменено: ничего не отправлено."
    browser.find_element(By.ID, "arb-pause-all").click()
    browser.find_element(By.ID, "arb-confirm-yes").click()
    _until(wait, (one, two), lambda b: _text_of(b, "#arb-status") ==
           "все часы остановлены: выполнено на hall-1, hall-2")

    # An offline board's clock stays as it was when last seen; an online one's runs on. The
    # console's read after the decision answers while hall-2 is still online and reaches the
    # page after the feed said it went dark: the older read leaves the badge "offline".
    _hold_reads(browser)
    browser.find_element(By.ID, "arb-resume-all").click()
    browser.find_element(By.ID, "arb-confirm-yes").click()
    _until(wait, (one, two), lambda b: _text_of(b, "#arb-status").startswith(
        "все часы снова пущены: выполнено"))
    wait.until(lambda b: b.execute_script("return window.heldReads.length") > 0)
    two.go_dark()
    wait.until(lambda b: _text_of(b, "#arb-hall-2 .alive") == "не в сети")
    _release_reads(browser)
    assert _text_of(browser, "#arb-hall-2 .alive") == "не в сети"
    held, running = _times(browser, "hall-2"), _times(browser, "hall-1")
    # The page's own clock jumps a minute on: hall-1's running side shows a minute less.
    browser.execute_script("var now = Date.now; Date.now = function () { return now() + 60000; };")
    wait.until(lambda b: _seconds(_times(b, "hall-1")[1]) <= _seconds(running[1]) - 59)
    assert _times(browser, "hall-2") == held

    # On a phone, in every language (Japanese last): nothing wider than the screen. Seven pages
    # in one tab: each page left closes its live feed (a page chromium keeps for "back" held
    # its connection open, and after six the decision below waited for one, never sent).
    two.beat()
    _screen(browser, PHONE)
    for lang, heading in (("ru", "Пульт судьи"), ("fr", "La console de l’arbitre"),
                          ("nl", "De console van de arbiter"), ("pt_BR", "O console do árbitro"),
                          ("ko", "심판 콘솔"), ("ja", "審判コンソール")):
        browser.get(web.base + "/arbiter?lang=" + lang)
        wait.until(lambda b: b.find_elements(By.ID, "arb-hall-2"))
        assert _text_of(browser, "h1") == heading
        browser.find_element(By.CSS_SELECTOR, "#arb-hall-1 summary").click()
        assert _overflow(browser) <= 0
        # Every field, list and button shown whole (Japanese puts no spaces between words).
        assert _cut_controls(browser, words=lang != "ja") == [], lang
        for button in browser.find_elements(By.CSS_SELECTOR,
                                            "#arb-hall-1 button, .arb-all button"):
            if button.is_displayed():  # big enough to hit with a thumb, and on the screen
                assert button.rect["height"] >= 44 and button.rect["x"] >= 0
                assert button.rect["x"] + button.rect["width"] <= PHONE[0]
    form = browser.find_element(By.CSS_SELECTOR, "#arb-hall-1 form.arb-add-time")
    Select(form.find_element(By.NAME, "side")).select_by_visible_text("黒")
    form.find_element(By.NAME, "reason").send_keys("観客の妨害")
    browser.execute_script("arguments[0].scrollIntoView()", form)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    assert _text_of(browser, "#arb-confirm-text") == \
        "hall-1 の黒に 60 秒を与えますか？ 理由：観客の妨害。"
    browser.save_screenshot(str(SHOTS / "web-arbiter-phone-ja.png"))
    browser.find_element(By.ID, "arb-confirm-yes").click()
    _until(wait, (one, two), lambda b: _text_of(b, "#arb-status") ==
           "hall-1：黒 +60 秒：実行しました")



SWISS = Path(__file__).parents[1] / "tournament" / "swiss-round-3.trf"


def test_the_console_imports_a_trf_and_finds_a_board_in_the_hall(
        arbiter_web: WebServer, make_board: BoardMaker, browser: webdriver.Chrome) -> None:
    web = arbiter_web
    rigs = [make_board(f"hall-{n}", variant="international", extra=CLOCK) for n in (1, 2, 3)]
    rigs[2].play("32-28")   # hall-3 plays a game of its own before the list comes
    wait = WebDriverWait(browser, WAIT)
    _screen(browser, DESKTOP)
    _pair(browser, web)

    # Upload, preview: the boards in the pairing program's order, nothing imported yet.
    form = browser.find_element(By.ID, "arb-import-form")
    form.find_element(By.NAME, "file").send_keys(str(SWISS))
    form.find_element(By.NAME, "round").send_keys("3")
    form.find_element(By.NAME, "prefix").send_keys("hall-")
    browser.find_element(By.ID, "arb-import-preview-button").click()
    wait.until(lambda b: b.find_element(By.ID, "arb-import-preview").is_displayed())
    assert _text_of(browser, "#arb-import-preview .round-name") == \
        "round 3 of Club championship 2026"
    rows = [li.text for li in browser.find_elements(By.CSS_SELECTOR,
                                                    "#arb-import-preview .rows li")]
    assert rows[:2] == ["hall-1: Hop, Hanna - Smit, Ann (added)",
                        "hall-2: Gras, Gus - Mol, Fred (added)"]
    assert "FIDE board order" in _text_of(browser, "#arb-import-preview .order")
    assert _text_of(browser, "#arb-status") == "Look at the boards below, then import it."
    browser.save_screenshot(str(SHOTS / "web-arbiter-import.png"))
    browser.find_element(By.ID, "arb-import-confirm").click()
    wait.until(lambda b: _text_of(b, "#arb-status") ==
               "Imported into round 3 of Club championship 2026: 4 boards")

    # The page reads the hall again: each card shows the pairing waiting on it, the board
    # playing a game of its own keeps its players; every card has its diagram.
    wait.until(lambda b: _text_of(b, "#arb-hall-1 .players") == "Hop, Hanna – Smit, Ann")
    assert _text_of(browser, "#arb-hall-1 .pairing") == "Waiting for its start"
    assert _text_of(browser, "#arb-hall-3 .players") == "White – Black"
    assert _text_of(browser, "#arb-hall-3 .last-moves") == "1. 32-28"
    assert len(browser.find_elements(By.CSS_SELECTOR, ".arb-board .arb-diagram svg")) == 3
    # Find a player; then the boards waiting to start.
    browser.find_element(By.ID, "arb-find").send_keys("mol")
    assert [c.get_attribute("id") for c in browser.find_elements(By.CSS_SELECTOR, ".arb-board")
            if c.is_displayed()] == ["arb-hall-2"]
    assert _text_of(browser, "#arb-shown") == "Showing 1 of 3 boards."
    browser.find_element(By.ID, "arb-find").clear()
    browser.find_element(By.ID, "arb-find").send_keys(Keys.BACKSPACE)
    browser.find_element(By.CSS_SELECTOR, '.filter[data-status="waiting"]').click()
    assert [c.get_attribute("id") for c in browser.find_elements(By.CSS_SELECTOR, ".arb-board")
            if c.is_displayed()] == ["arb-hall-1", "arb-hall-2"]
    assert _overflow(browser) <= 0

    # On a phone: the hall's cards one a row, the filters and every button a thumb's size;
    # Smit did not come: a forfeit, asked in words before it is sent.
    _screen(browser, PHONE)
    browser.get(web.base + "/arbiter")
    wait.until(lambda b: b.find_elements(By.ID, "arb-hall-1"))
    assert _overflow(browser) <= 0
    for button in browser.find_elements(By.CSS_SELECTOR, ".filter, .arb-all button"):
        if button.is_displayed():
            assert button.rect["height"] >= 44
            assert button.rect["x"] >= 0 and button.rect["x"] + button.rect["width"] <= PHONE[0]
    card = browser.find_element(By.ID, "arb-hall-1")
    card.find_element(By.CSS_SELECTOR, "summary").click()
    decide = card.find_element(By.CSS_SELECTOR, "form.arb-decide")
    Select(decide.find_element(By.NAME, "decision")).select_by_visible_text(
        "Black did not come: White wins by forfeit")
    decide.find_element(By.NAME, "reason").send_keys("not here at 20:30")
    browser.execute_script("arguments[0].scrollIntoView()", decide)
    decide.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    assert _text_of(browser, "#arb-confirm-text") == (
        "On hall-1: Black did not come: White wins by forfeit? No game is played there. "
        "Reason: not here at 20:30.")
    browser.save_screenshot(str(SHOTS / "web-arbiter-import-phone.png"))
    browser.find_element(By.ID, "arb-confirm-yes").click()
    # What the board did: nothing was needed (its game, set up before the import, is not
    # the round's); the pairing waiting on it is withdrawn.
    wait.until(lambda b: _text_of(b, "#arb-status") ==
               "hall-1: forfeit, Black did not come: kept with the round (no game of the "
               "round on the board to end)")
    wait.until(lambda b: _text_of(b, "#arb-hall-1 dd.result") ==
               "Black did not come: White wins by forfeit")


def test_a_hall_of_100_boards_is_found_on_a_phone_by_its_filters(
        arbiter_web: WebServer, browser: webdriver.Chrome, redis_url: str) -> None:
    """Issue 38: "filters for a hall of 100 boards on a phone": a round of 100 boards, three
    of them offline; the cards in the hall's order (hall-7 before hall-50: the numbers in a
    board id counted, not spelt), the filters say how many boards each status has and show
    those, and a player's name finds their board, the page never wider than the phone."""
    sync = redis.Redis.from_url(redis_url)
    boards = [f"hall-{n}" for n in range(1, 101)]
    rows = "".join(f"{b},White {n},Black {n},1,Open\n" for n, b in enumerate(boards, start=1))
    import_round(sync, read_pairings("board,white,black,round,event\n" + rows)[0], "test")
    sync.sadd(BOARDS, *boards)
    for board in boards:                       # every board's service runs but three
        if board not in ("hall-7", "hall-50", "hall-99"):
            sync.set(BoardKeys(board).alive, json.dumps(
                {"time": time.time(), "state": "running", "pid": 1}))
    _screen(browser, PHONE)
    _pair(browser, arbiter_web)
    assert len(browser.find_elements(By.CSS_SELECTOR, ".arb-board")) == 100
    assert [(b.text, b.rect["height"] >= 44) for b in browser.find_elements(
        By.CSS_SELECTOR, ".filter") if b.is_displayed()] == [
        ("All 100", True), ("Waiting to start 97", True), ("Offline 3", True)]
    assert _text_of(browser, "#arb-shown") == ""

    def shown() -> list[str]:
        return [c.get_attribute("id") or "" for c in browser.find_elements(
            By.CSS_SELECTOR, ".arb-board") if c.is_displayed()]

    browser.find_element(By.CSS_SELECTOR, '.filter[data-status="offline"]').click()
    assert shown() == ["arb-hall-7", "arb-hall-50", "arb-hall-99"]
    assert _text_of(browser, "#arb-shown") == "Showing 3 of 100 boards."
    browser.find_element(By.CSS_SELECTOR, '.filter[data-status=""]').click()
    browser.find_element(By.ID, "arb-find").send_keys("black 57")
    assert shown() == ["arb-hall-57"]
    assert _text_of(browser, "#arb-hall-57 .players") == "White 57 – Black 57"
    assert _text_of(browser, "#arb-shown") == "Showing 1 of 100 boards."
    assert _overflow(browser) <= 0
