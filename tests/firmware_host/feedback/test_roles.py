"""The LED language is said once: a kind of light added to the one table of roles
(:data:`firmware_host.feedback.roles.LIGHTS`) reaches every place that shows or names the
lights, in every language they are in (the firmware, the page script, the docs, the web page,
the terminal), and those places hold no table of their own (issue 41)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from board_io.serial import messages as msg
from board_io.types import Led, Pattern, Reading
from engine import Board
from engine.variant import find_variant
from firmware_host.feedback import leds, roles
from firmware_host.feedback.roles import (
    Colour,
    Light,
    Role,
    by_rank,
    docs_page,
    docs_table,
    ring_colours,
)
from firmware_host.tools.demo import led_legend
from firmware_host.tools.diagram import draw
from firmware_host.web import lights as web_lights
from firmware_host.web.diagram import board_svg
from firmware_host.web.views import Views
from tests.board_io.pico_sim import install_stubs

ROOT = Path(__file__).resolve().parents[3]
APP_JS = ROOT / "firmware_host" / "web" / "static" / "app.js"
PLAYERS_MD = ROOT / "docs" / "players.md"

#: The fictitious kind of light, said in one place: the table (the ``beacon`` fixture).
BEACON = Light("beacon", Pattern.FAST, Colour("cyan", (0, 200, 200), "#17becf"), 99,
               "Z beacon", "a beacon to follow", "beacon {squares}", "a fictitious light")


@pytest.fixture
def beacon(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table of lights gains the beacon, and nothing else is told of it."""
    monkeypatch.setattr(roles, "LIGHTS", (*roles.LIGHTS, BEACON))


@pytest.mark.usefixtures("beacon")
def test_a_new_light_reaches_the_firmware_with_its_colour() -> None:
    install_stubs()
    import db_leds
    import db_protocol as proto

    cells = leds.leds({0: BEACON, 1: Role.FROM})
    frame = msg.Leds(1, 2, (cells[0], cells[1]))
    kind, body = frame.wire(proto.PROTOCOL_VERSION)  # no new protocol version for it
    assert kind == proto.LEDS_RGB
    renderer = db_leds.LedRenderer(2, brightness=1.0)
    renderer.set(*reversed(proto.parse_leds_rgb(body, 1, 2)))
    assert renderer.frame(0) == [BEACON.colour.rgb, Role.FROM.colour.rgb]
    # Older firmware shows it in the nearest colour of its palette (green, code 1).
    kind, body = frame.wire(2)
    assert kind == msg.LEDS and msg.Leds.from_body(body).cells[0] == Led(Pattern.FAST,
                                                                         msg.PALETTE[1])


@pytest.mark.usefixtures("beacon")
def test_a_new_light_reaches_the_page_script() -> None:
    views = Views()
    page = views.page("base.html")
    body = re.search(r'<body[^>]*data-rings="([^"]*)"', page)
    assert body is not None
    assert json.loads(html.unescape(body.group(1)))["beacon"] == "#17becf"
    assert ["beacon", "#17becf", "a beacon to follow"] in json.loads(web_lights.words_json())
    assert "a beacon to follow" in views.live_words  # the script's words, translated
    script = APP_JS.read_text(encoding="utf-8")
    assert "document.body.dataset.rings" in script and "dataset.lights" in script
    assert not re.search(r'\bfrom: "#', script), "the script keeps a table of its own"


@pytest.mark.usefixtures("beacon")
def test_a_new_light_reaches_the_docs() -> None:
    assert "| beacon | fast | cyan | a fictitious light |" in docs_table()
    shipped = PLAYERS_MD.read_text(encoding="utf-8")
    regenerated = docs_page(shipped)
    assert "| beacon |" in regenerated and regenerated != shipped  # the page test fails


@pytest.mark.usefixtures("beacon")
def test_a_new_light_reaches_the_terminal() -> None:
    text = draw(find_variant("russian"), {21: Reading.WHITE}, {21: BEACON, 17: Role.TO},
                colour=False)
    assert "Z○Z" in text and text.splitlines()[-1] == "  lights: T to, Z beacon"
    assert led_legend({4: BEACON}, str) == "LEDs: beacon 4"


@pytest.mark.usefixtures("beacon")
def test_a_new_light_reaches_the_web_page() -> None:
    frame = {"c3": ("fast", "beacon")}
    assert [light.words for light in web_lights.lit(frame)] == ["a beacon to follow"]
    assert web_lights.light_words()["beacon"] == "a beacon to follow"
    assert ring_colours()["beacon"] == "#17becf"
    svg = board_svg(Board("russian"), leds=frame)
    assert 'class="led beacon fast"' in svg and 'stroke="#17becf"' in svg
    assert leds.to_data({2: BEACON}, name=lambda sq: str(sq + 1)) == {"3": ["fast", "beacon"]}
    assert by_rank()[-1] is BEACON and leds.build([(BEACON, [3])]) == {3: BEACON}


def test_players_md_shows_the_table_of_roles() -> None:
    page = (ROOT / "docs" / "players.md").read_text(encoding="utf-8")
    assert docs_page(page) == page, (
        "regenerate: python -m firmware_host.feedback.roles (docs/players.md)")


def test_every_role_has_its_own_rank_letter_and_words() -> None:
    roles = list(Role)
    for column in (lambda r: r.rank, lambda r: r.letter, lambda r: r.key, lambda r: r.told):
        assert len({column(role) for role in roles}) == len(roles)
    assert [role.word for role in roles] == [role.value for role in roles]
    assert by_rank()[0] is Role.FAULT and by_rank()[-1] is Role.CLOCK
    assert all("{squares}" in role.told for role in roles)
