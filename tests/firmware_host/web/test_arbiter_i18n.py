"""The arbiter console in the viewer's language (``?lang=``, else Accept-Language), like every
other page: its words, its questions (``data-ask``), the script's words (``data-words``), the
replies of its decisions, translated where they are built, and its list of the decisions so far;
the audit log itself stays as it was written (a record, not a page: data, English reasons)."""

from __future__ import annotations

import html
import json
import re
from typing import Any

from aiohttp.test_utils import TestClient

from firmware_host.web.auth import PAIR_FAILURES_PER_ADDRESS
from tests.firmware_host.arbiter_hall import Hall
from tests.firmware_host.tournament.test_arbiter import KEYS, run
from tests.firmware_host.tournament.test_arbiter_start_round import BEARER, boards_of_the_evening

HTML = {"Accept": "text/html"}


async def _paired(http: TestClient[Any, Any]) -> None:
    reply = await http.post("/arbiter/pair", data={"code": KEYS.code}, headers=HTML,
                            allow_redirects=False)
    assert reply.status == 303


def _read(page: str) -> str:
    """What a viewer reads: the page without its tags, the script's words and its scripts."""
    page = re.sub(r' data-words="[^"]*"', "", page)
    return " ".join(re.sub(r"<[^>]*>", " ", page).split())


def _words(page: str) -> dict[str, str]:
    attribute = page.split('<body data-words="', 1)[1].split('"', 1)[0]
    words: dict[str, str] = json.loads(html.unescape(attribute))
    return words


def test_the_console_speaks_japanese_and_russian() -> None:
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
        hall.board("hall-1").play("32-28")
        form = await (await http.get("/arbiter", headers={**HTML,
                                                          "Accept-Language": "ja"})).text()
        assert '<html lang="ja">' in form and "<h1>審判コンソール</h1>" in form
        assert "審判コード" in form and "コンソールを開く" in form
        wrong = await http.post("/arbiter/pair?lang=ru", data={"code": "1234567890"},
                                headers=HTML)
        assert wrong.status == 403 and "Это не код судьи." in await wrong.text()
        await _paired(http)

        page = await (await http.get("/arbiter", headers={**HTML,
                                                          "Accept-Language": "ja,en;q=0.5"})).text()
        assert '<html lang="ja">' in page and "<h1>審判コンソール</h1>" in page
        assert ">全時計を一時停止</button>" in page and "これまでの裁定" in page
        assert 'data-ask="全盤の時計を一時停止しますか？{reason}"' in page
        card = page.split('id="arb-hall-1"', 1)[1].split("</article>", 1)[0]
        assert "hall-1 の裁定" in card and ">時間を追加</legend>" in card
        assert '<option value="black">黒</option>' in card
        assert '<option value="draw">引き分け</option>' in card
        assert '<dd class="result">対局中</dd>' in card
        words = _words(page)  # the script's own: the status line, the round note, "Reason:"
        assert words["sending…"] == "送信中…" and words["Reason: {reason}."] == "理由：{reason}。"
        assert words["Not done: {error}"] == "実行できません：{error}"

        page = await (await http.get("/arbiter?lang=ru", headers={**HTML,
                                                                  "Accept-Language": "ja"})).text()
        assert '<html lang="ru">' in page and "<h1>Пульт судьи</h1>" in page
        assert "<h2 id=\"arb-round-h\">Начать тур</h2>" in page
        assert "Остановить все часы" in page and "Присудить результат партии" in page
        assert ('data-ask="Завершить партию на доске {board}: {result}?{reason}"' in page)
        read = _read(page)
        for english in ("Reason", "Adjudicate", "clock", "Round", "Start", "Pause", "Decisions",
                        "Cancel", "none yet", "Times are UTC", "The board says"):
            assert english not in read, english

    run(scenario)


def test_a_decision_is_answered_in_french_and_logged_as_it_was() -> None:
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
        rig = hall.board("hall-7")
        rig.play("32-28")
        french = {**BEARER, "Accept-Language": "fr-CH, fr;q=0.9"}
        given = await http.post("/arbiter/add-time", headers=french, data={
            "board": "hall-7", "side": "black", "seconds": "60", "reason": "un spectateur"})
        assert (await given.json())["message"] == "hall-7 : +60 s pour les Noirs : fait"
        no_reason = await http.post("/arbiter/add-time?lang=fr", headers=BEARER, data={
            "board": "hall-7", "side": "black", "seconds": "60"})
        assert no_reason.status == 400
        assert (await no_reason.json())["error"] == \
            "dites pourquoi (un motif est gardé avec la décision)"
        nowhere = await http.post("/arbiter/add-time?lang=fr", headers=BEARER, data={
            "board": "hall-9", "side": "black", "seconds": "60", "reason": "x"})
        assert (await nowhere.json())["error"] == "pas de damier 'hall-9'"
        paused = await http.post("/arbiter/pause-all?lang=fr", headers=BEARER, data={})
        assert (await paused.json())["message"] == \
            "toutes les pendules arrêtées : fait sur hall-7"
        state = await (await http.get("/arbiter/state.json?lang=fr", headers=BEARER)).json()
        assert [e["text"] for e in state["audit"]] == [
            "toutes les pendules arrêtées : fait sur hall-7",
            "hall-7 : +60 s pour les Noirs : fait"]
        log = await (await http.get("/arbiter/audit.json?lang=fr", headers=BEARER)).json()
        assert [(e["action"], e["detail"], e["reason"]) for e in log["audit"]] == [
            ("pause_all", {"boards": ["hall-7"]}, ""),
            ("add_time", {"side": "black", "seconds": 60.0, "game_id": rig.session.game_id},
             "un spectateur")]
        english = await http.post("/arbiter/resume-all", headers=BEARER, data={})
        assert (await english.json())["message"] == "every clock resumed: done on hall-7"
        decided = await http.post("/arbiter/adjudicate?lang=fr", headers=BEARER, data={
            "board": "hall-7", "result": "white", "reason": "absent"})
        assert (await decided.json())["message"] == \
            "hall-7 : décision de l’arbitre, Les Blancs ont gagné : fait"
        page = await (await http.get("/arbiter?lang=fr", headers={**HTML, **BEARER})).text()
        assert ('<dd class="result">Les Blancs ont gagné (décision de l’arbitre)</dd>'
                in page)

    run(scenario)


def test_the_round_start_names_in_russian_why_a_board_did_not_start() -> None:
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
        boards_of_the_evening(hall)
        reply = await http.post("/arbiter/start-round?lang=ru", headers=BEARER,
                                data={"round": "3"})
        answer = await reply.json()
        assert answer["message"] == (
            "Тур 3 начат на 2 досках: hall-1, hall-2; не начат: hall-3 (идёт партия); "
            "hall-4 (не в сети); hall-5 (партий не записано: верен ли её board.id?); "
            "hall-6 (её последняя партия окончена: расставьте начальную позицию)")
        assert answer["not_started"]["hall-4"] == "(offline)"  # the log's words: English
        entry, imported = (await (await http.get("/arbiter/audit.json", headers=BEARER)).json()
                           )["audit"]
        assert entry["detail"]["not_started"]["hall-3"] == "(a game is going on)"
        assert imported["action"] == "import"
        state = await (await http.get("/arbiter/state.json", headers={
            **BEARER, "Accept-Language": "ru"})).json()  # the console's list: in Russian
        assert state["audit"][0]["text"].startswith(
            "тур 3 начат на досках hall-1, hall-2; не начат: hall-3 (идёт партия); "
            "hall-4 (не в сети)")
        again = await http.post("/arbiter/start-round", data={"round": "3"},
                                headers={**BEARER, "Accept-Language": "ru"})
        assert (await again.json())["error"].startswith(
            "тур 3 не может начаться ни на одной доске: hall-1 (уже начат); hall-2 (уже начат)")

    run(scenario)


def test_a_locked_out_browser_is_told_in_its_language_and_when_to_come_back() -> None:
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
        for _ in range(PAIR_FAILURES_PER_ADDRESS):
            wrong = await http.post("/arbiter/pair?lang=ru", data={"code": "1234567890"},
                                    headers=HTML)
            assert wrong.status == 403
        locked = await http.post("/arbiter/pair?lang=ru", data={"code": KEYS.code},
                                 headers=HTML)
        page = await locked.text()
        assert locked.status == 429 and '<html lang="ru">' in page
        assert "слишком много неверных кодов с этого адреса: подождите 15 мин" in page
        assert locked.headers["Retry-After"] == "900"
        assert "too many" not in _read(page)
        script = await http.post("/arbiter/pair", data={"code": KEYS.code})
        assert script.status == 429
        assert (await script.json())["error"].startswith("too many wrong codes from this address")

    run(scenario)


def test_with_no_round_waiting_the_start_button_says_what_it_does() -> None:
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
        await _paired(http)
        page = await (await http.get("/arbiter?lang=ru", headers=HTML)).text()
        button = page.split('id="arb-start-round">', 1)[1].split("</button>", 1)[0]
        assert '<span class="round-some" hidden>' in button
        assert '<span class="round-none">Начать тур</span>' in button

    run(scenario)
