"""The LED language is said once: a kind of light added to the table of roles reaches every
place that shows the lights, and those places hold no table of their own (issue 41)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from board_io.serial import messages as msg
from board_io.types import Led, Pattern, Reading
from engine import Board
from engine.variant import find_variant
from firmware_host.feedback import leds
from firmware_host.feedback.roles import (
    Colour,
    Light,
    Role,
    by_rank,
    docs_page,
    docs_table,
    rings_json,
)
from firmware_host.tools.demo import led_legend
from firmware_host.tools.diagram import draw
from firmware_host.web import lights
from firmware_host.web.diagram import board_svg
from firmware_host.web.views import Views
from tests.board_io.pico_sim import install_stubs

ROOT = Path(__file__).resolve().parents[3]
APP_JS = ROOT / "firmware_host" / "web" / "static" / "app.js"

#: The one place the fictitious kind of light is said.
BEACON = Light("beacon", Pattern.FAST, Colour("cyan", (0, 200, 200), "#17becf"), 14,
               "Z beacon", "a beacon to follow", "beacon {squares}", "a fictitious light")
TABLE = (*Role, BEACON)


def test_a_new_light_reaches_the_firmware_with_its_colour() -> None:
    install_stubs()
    import db_leds
    import db_protocol as proto

    frame = msg.Leds(1, 2, (BEACON.led, Role.FROM.led))
    kind, body = frame.wire(proto.PROTOCOL_VERSION)  # no new protocol version for it
    assert kind == proto.LEDS_RGB
    renderer = db_leds.LedRenderer(2, brightness=1.0)
    renderer.set(*reversed(proto.parse_leds_rgb(body, 1, 2)))
    assert renderer.frame(0) == [BEACON.colour.rgb, Role.FROM.colour.rgb]
    # Older firmware shows it in the nearest colour of its palette (green, code 1).
    kind, body = frame.wire(2)
    assert kind == msg.LEDS and msg.Leds.from_body(body).cells[0] == Led(Pattern.FAST,
                                                                         msg.PALETTE[1])


def test_a_new_light_reaches_the_page_script() -> None:
    page = Views().page("base.html", rings=rings_json(TABLE))
    body = re.search(r'<body[^>]*data-rings="([^"]*)"', page)
    assert body is not None
    assert json.loads(html.unescape(body.group(1)))["beacon"] == "#17becf"
    script = APP_JS.read_text(encoding="utf-8")
    assert "document.body.dataset.rings" in script
    assert not re.search(r'\bfrom: "#', script), "the script keeps a table of its own"


def test_a_new_light_reaches_the_docs() -> None:
    assert "| beacon | fast | cyan | a fictitious light |" in docs_table(TABLE)
    page = (ROOT / "docs" / "players.md").read_text(encoding="utf-8")
    assert "| beacon |" in docs_page(page, TABLE)


def test_a_new_light_reaches_the_terminal_legend() -> None:
    text = draw(find_variant("russian"), {21: Reading.WHITE}, {21: BEACON, 17: Role.TO},
                colour=False)
    assert "Z○Z" in text and text.splitlines()[-1] == "  lights: T to, Z beacon"
    assert led_legend({4: BEACON}, str) == "LEDs: beacon 4"


def test_a_new_light_reaches_the_web() -> None:
    frame = {"c3": ("fast", "beacon")}
    assert [light.words for light in lights.lit(frame, TABLE)] == ["a beacon to follow"]
    assert '"beacon","#17becf","a beacon to follow"' in lights.words_json(TABLE)
    svg = board_svg(Board("russian"), leds=frame, rings=json.loads(rings_json(TABLE)))
    assert 'class="led beacon fast"' in svg and 'stroke="#17becf"' in svg
    assert leds.to_data({2: BEACON}, name=lambda sq: str(sq + 1)) == {"3": ["fast", "beacon"]}


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
