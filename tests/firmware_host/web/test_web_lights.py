"""The board page's key to its lights: every kind of light has a ring colour and words, the
page script draws the same colours (the page carries them), and the key names the kinds lit,
in the viewer's language."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable

import pytest

from firmware_host.feedback.roles import Role, ring_colours
from firmware_host.i18n import translator
from firmware_host.web import lights
from tests.firmware_host.web.harness import BoardRig, WebServer

BoardMaker = Callable[..., BoardRig]


def test_every_kind_of_light_has_a_colour_and_words() -> None:
    kinds = {role.value for role in Role}
    assert set(ring_colours()) == kinds  # a fault or a low clock is not drawn white
    assert set(lights.light_words()) == kinds
    assert ring_colours()["fault"] != ring_colours()["result"]


@pytest.mark.redis
def test_the_page_script_draws_the_same_colours(web: WebServer) -> None:
    _, _, page = web.get("/")
    rings = re.search(r'<body[^>]*data-rings="([^"]*)"', page)
    assert rings is not None
    assert json.loads(html.unescape(rings.group(1))) == ring_colours()


@pytest.mark.parametrize("language", ["fr", "ja", "ko", "nl", "pt_BR", "ru"])
def test_the_key_speaks_every_language(language: str) -> None:
    tr = translator(language)
    for words in ("The lights", *lights.light_words().values()):
        assert tr.gettext(words) != words, (language, words)


@pytest.mark.redis
def test_the_board_page_names_the_lights_lit(web: WebServer, make_board: BoardMaker) -> None:
    rig = make_board("key1")
    _, _, quiet = web.get("/board/key1")
    assert '<ul class="lights"' in quiet and '<ul class="lights" data-lights' in quiet
    assert re.search(r'<ul class="lights"[^>]*hidden>', quiet)  # nothing lit: no key
    variant = rig.session.board.variant
    rig.sim.lift(variant.parse_square("c3"))  # a white man off the board, out of turn order
    rig.sim.place(variant.parse_square("b4"))
    rig.sim.lift(variant.parse_square("b6"))  # and a black one
    rig.run(3.0)
    frame = rig.session.frame
    shown = {role.value for role in frame.values()}
    assert shown, "the board lights nothing for a wrong position"
    _, _, page = web.get("/board/key1")
    key = re.search(r'<ul class="lights"[^>]*>(.*?)</ul>', page, re.S)
    assert key is not None and "hidden" not in key.group(0).split(">", 1)[0]
    named = re.findall(r'data-role="(\w+)"', key.group(1))
    assert set(named) == shown and len(named) == len(shown)
    assert named == sorted(named, key=list(lights.light_words()).index)  # the key's order
    _, _, russian = web.get("/board/key1?lang=ru")
    assert "Подсветка" in russian  # issue 39: one word for the lights, not «огоньки»
