"""The web pages in the viewer's language (issue 30): ``?lang=`` first, then Accept-Language,
English otherwise; a switch on every page."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from tests.firmware_host.web.harness import BoardRig, WebServer

pytestmark = pytest.mark.redis


def test_the_hall_answers_accept_language_ja_in_japanese(
        web: WebServer, make_board: Callable[..., BoardRig]) -> None:
    make_board("lang1")
    _, _, page = web.get("/", {"Accept-Language": "ja,en;q=0.5"})
    assert '<html lang="ja">' in page
    assert "<h1>対局場</h1>" in page
    card = page.split('id="board-lang1"', 1)[1].split("</article>", 1)[0]
    assert "対局者" in card and "最後の手" in card and "オンライン" in card


def test_lang_in_the_query_overrides_the_header(
        web: WebServer, make_board: Callable[..., BoardRig]) -> None:
    make_board("lang2")
    _, _, page = web.get("/?lang=ru", {"Accept-Language": "ja,en;q=0.5"})
    assert '<html lang="ru">' in page and "<h1>Игровой зал</h1>" in page
    assert "Последний ход" in page and "対局者" not in page
    _, _, page = web.get("/?lang=zz", {"Accept-Language": "nl-BE,nl;q=0.9"})
    assert "<h1>De speelzaal</h1>" in page  # an unknown ?lang= falls back to the header


def test_english_otherwise_and_the_switch_on_every_page(
        web: WebServer, make_board: Callable[..., BoardRig]) -> None:
    make_board("lang3")
    _, _, hall = web.get("/", {"Accept-Language": "de-DE"})
    assert '<html lang="en">' in hall and "<h1>The hall</h1>" in hall
    assert 'href="?lang=ko"' in hall and "한국어" in hall and "Русский" in hall
    _, _, archive = web.get("/games", {"Accept-Language": "fr"})
    assert ">Archives</a>" in archive and 'href="?lang=ja"' in archive


def test_the_board_page_and_its_control_speak_the_viewer_language(
        web: WebServer, make_board: Callable[..., BoardRig]) -> None:
    make_board("lang4")
    _, _, page = web.get("/board/lang4?lang=pt_BR")
    assert '<html lang="pt-BR">' in page
    page = re.sub(r' data-words="[^"]*"', "", page)  # the script's words: every live word
    assert "<h1>Tabuleiro lang4</h1>" in page and "Último lance" not in page
    assert "Os lances" in page and "O tabuleiro diz" in page
    assert "Pareie este dispositivo</a> para controlar o tabuleiro." in page
    _, _, page = web.get("/board/lang4", {"Accept-Language": "ko"})
    assert "<h1>판 lang4</h1>" in page and "기보" in page


def test_the_halls_state_words_and_turn_in_japanese(
        web: WebServer, make_board: Callable[..., BoardRig]) -> None:
    make_board("lang5")
    _, _, page = web.get("/", {"Accept-Language": "ja"})
    card = page.split('id="board-lang5"', 1)[1].split("</article>", 1)[0]
    turn = card.split('<dd class="turn">', 1)[1].split("</dd>", 1)[0]
    state = card.split('<dd class="state', 1)[1].split(">", 1)[1].split("</dd>", 1)[0]
    assert turn in ("白", "黒")
    assert state in ("盤を合わせています", "手を待っています", "思考中", "新しい対局の準備中",
                     "コンピューターの手を LED で表示中", "盤面の修正が必要")
    words = re.sub(r"<[^>]*>", " ", card)  # what the viewer reads
    assert "white" not in words and "waiting" not in words and "setting" not in words


def test_the_page_script_gets_its_words_in_a_data_attribute(
        web: WebServer, make_board: Callable[..., BoardRig]) -> None:
    import html
    import json

    make_board("lang6")
    _, _, page = web.get("/", {"Accept-Language": "ja"})
    attribute = page.split('<body data-words="', 1)[1].split('"', 1)[0]
    words = json.loads(html.unescape(attribute))
    assert words["white"] == "白" and words["offline"] == "オフライン"
    assert words["waiting for a move"] == "手を待っています"
    assert words["last seen {time}"] == "最終応答 {time}"  # issue 39: not 最終確認
    assert words["To move"] and words["Black won"]  # the feed's whole cards, translated in place
    assert "<script>" not in page  # no inline script: the CSP stays strict
    _, _, english = web.get("/", {"Accept-Language": "en"})
    assert '<body data-words="{}" data-lang="en" data-rings=' in english


def test_the_archive_pairing_and_replay_pages_speak_too(
        web: WebServer, make_board: Callable[..., BoardRig]) -> None:
    rig = make_board("lang9")
    rig.play("c3-d4")
    _, _, archive = web.get("/games", {"Accept-Language": "ja"})
    assert "<h1>対局記録</h1>" in archive and ">絞り込む</button>" in archive  # not 棋譜庫
    assert ">再生</a>" in archive and "対局中" in archive  # the result in words too
    _, _, pairing = web.get("/pair?lang=ru")
    assert "<h1>Подключите это устройство</h1>" in pairing
    assert "Код подключения" in pairing and ">Pair<" not in pairing  # one word: подключение
    status, refused = web.post("/pair?lang=fr", {"code": "0000000000", "next": "/"})
    assert status == 403 and "Ce n&#39;est pas le code d&#39;appairage." in refused
    _, _, replay = web.get(f"/game/lang9/{rig.session.game_id}?ply=1&lang=nl")
    assert "halve zet 1 van 1" in replay and "Download de PDN" in replay


def test_the_language_chosen_with_the_switch_is_kept_for_the_next_pages(
        web: WebServer, make_board: Callable[..., BoardRig]) -> None:
    """The switch's links are ``?lang=``; the site's own links and forms carry none, so the
    next page ("Архив", the pairing form's reply) fell back to the browser's language."""
    make_board("lang6")
    english = {"Accept-Language": "en-GB,en;q=0.9"}
    _, headers, page = web.get("/?lang=ru", english)
    assert "<h1>Игровой зал</h1>" in page
    cookie = headers["Set-Cookie"]
    assert cookie.startswith("draughtsboard_lang=ru;") and "Path=/" in cookie
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Max-Age=" in cookie
    kept = {**english, "Cookie": "draughtsboard_lang=ru"}
    _, headers, archive = web.get("/games", kept)
    assert '<html lang="ru">' in archive and "<h1>Архив</h1>" in archive
    assert "Set-Cookie" not in headers  # nothing new to keep
    _, _, board = web.get("/board/lang6", kept)
    assert "<h1>Доска lang6</h1>" in board
    _, headers, hall = web.get("/?lang=ja", kept)  # the switch again: the new choice is kept
    assert "<h1>対局場</h1>" in hall and headers["Set-Cookie"].startswith("draughtsboard_lang=ja;")
    for junk in ("zz", "x" * 5000, "ru\\"):  # a cookie naming no language: the header decides
        _, _, page = web.get("/games", {**english, "Cookie": f"draughtsboard_lang={junk}"})
        assert "<h1>The archive</h1>" in page


def test_unnamed_players_and_the_mode_are_in_the_viewers_words(
        web: WebServer, make_board: Callable[..., BoardRig]) -> None:
    """A game whose players are not named yet showed "White" and "Black" in English on every
    page but the board's own labels, and the board's mode as its key ("play")."""
    rig = make_board("named1", mode="play")
    rig.play("c3-d4")
    russian = {"Accept-Language": "ru"}

    def read(page: str) -> str:  # what the viewer reads: no tags, no data-words
        return re.sub(r"<[^>]*>", " ", re.sub(r' data-words="[^"]*"', "", page))

    _, _, hall = web.get("/", russian)
    card = read(hall.split('id="board-named1"', 1)[1].split("</article>", 1)[0])
    assert "Белые" in card and "White" not in card
    _, _, board = web.get("/board/named1", russian)
    assert '<dd class="white-name">Белые</dd>' in board and '<dd class="mode">игра</dd>' in board
    assert "White" not in read(board)
    _, _, archive = web.get("/games", russian)
    assert '<span class="w">Белые</span>' in archive and "White" not in read(archive)
    _, _, replay = web.get(f"/game/named1/{rig.session.game_id}", russian)
    assert "<h1>Белые – " in replay and "White" not in read(replay)
    _, _, english = web.get("/board/named1")
    assert '<dd class="white-name">White</dd>' in english
    assert '<dd class="mode">play</dd>' in english


def test_the_variant_is_named_in_the_viewers_words(
        web: WebServer, make_board: Callable[..., BoardRig]) -> None:
    """Every page showed the variant's key ("russian") whatever the language."""
    rig = make_board("named2", variant="russian", mode="play")
    rig.play("c3-d4")

    def read(page: str) -> str:  # what the viewer reads: no tags, no data-words
        return re.sub(r"<[^>]*>", " ", re.sub(r' data-words="[^"]*"', "", page))

    _, _, hall = web.get("/?lang=ru")
    card = hall.split('id="board-named2"', 1)[1].split("</article>", 1)[0]
    assert '<dd class="variant" data-variant="russian">Русские шашки</dd>' in card
    _, _, board = web.get("/board/named2?lang=ja")
    assert '<dd class="variant" data-variant="russian">ロシア式チェッカー</dd>' in board
    _, _, archive = web.get("/games?lang=ko")
    assert '<option value="russian">러시아 체커</option>' in archive  # the filter
    assert "러시아 체커" in read(archive.split("<tbody", 1)[1])  # the game's row
    _, _, replay = web.get(f"/game/named2/{rig.session.game_id}?lang=fr")
    assert "Dames russes · " in read(replay)
    _, _, english = web.get("/board/named2")
    assert '<dd class="variant" data-variant="russian">Russian draughts</dd>' in english
    assert "russian" not in read(english).split()


def test_the_pairing_page_says_where_the_code_is_printed(web: WebServer) -> None:
    """It named draughtsboard web only: a club trying the demo hall looked there in vain."""
    _, _, english = web.get("/pair")
    assert "draughtsboard web (or demo --hall) printed when it started" in english
    _, _, russian = web.get("/pair?lang=ru")
    assert "draughtsboard web (или demo --hall) вывел при запуске" in russian
