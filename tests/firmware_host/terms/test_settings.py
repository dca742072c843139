"""The phone's settings are said once (firmware_host/terms/settings.py) and every room reads
them there: a setting added to that one table is offered by the web form and the board page,
let through by the board's command reader, kept by the session for its next game, laid over the
configuration when it was kept, taken on the command line and shown in the docs' table; the
page script holds no copy of them."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

import pytest
import redis

from engine.levels import LEVELS
from firmware_host.cli import build_parser
from firmware_host.cli.run import options_from_args
from firmware_host.config import docs
from firmware_host.config.schema import BOARD_GUIDANCE
from firmware_host.remote.reader import parse_command
from firmware_host.remote.saved import overrides
from firmware_host.terms import settings
from firmware_host.terms.commands import Command
from firmware_host.terms.settings import ENGINE_LEVEL, PhoneSetting, phone_settings
from firmware_host.web import control
from tests.firmware_host.session_harness import Rig
from tests.firmware_host.web.harness import TOKEN, BoardRig, WebServer
from tests.redis_server import RedisServer

ROOT = Path(__file__).resolve().parents[3]

#: A setting the phone does not have: which lights guide a move (``board.guidance``).
GUIDANCE = PhoneSetting(BOARD_GUIDANCE, "Guidance", "the lights that guide a move")


@pytest.fixture
def guidance(monkeypatch: pytest.MonkeyPatch) -> None:
    """The phone gains the guidance setting, in the one table of settings."""
    monkeypatch.setattr(settings, "SETTINGS",
                        MappingProxyType({**settings.SETTINGS, GUIDANCE.name: GUIDANCE}))


@pytest.mark.usefixtures("guidance")
def test_the_web_form_offers_a_new_setting_and_checks_it() -> None:
    assert ("guidance", "Guidance", ("auto", "on", "off")) in control.setting_forms()
    assert control.command_fields({"command": "guidance", "value": "off"}) == {
        "name": "guidance", "value": "off"}
    with pytest.raises(ValueError, match="guidance"):
        control.command_fields({"command": "guidance", "value": "dim"})


@pytest.mark.redis
@pytest.mark.usefixtures("guidance")
def test_the_board_page_offers_a_new_setting(redis_server: RedisServer, tmp_path: Path) -> None:
    redis.Redis.from_url(redis_server.url).flushall()
    board = BoardRig(redis_server.url, "set1", tmp_path / "set1")
    server = WebServer(redis_server.url).start()
    try:
        status, _, page = server.get("/board/set1", {"Authorization": f"Bearer {TOKEN}"})
    finally:
        server.stop()
        board.close()
    assert status == 200
    form = page.split('name="command" value="guidance"', 1)[1].split("</form>", 1)[0]
    assert "<label>Guidance <select" in form
    assert all(f'<option value="{value}">' in form for value in ("auto", "on", "off"))


@pytest.mark.usefixtures("guidance")
def test_the_docs_show_a_new_setting() -> None:
    page = docs.render()
    assert "| `guidance` | [`board.guidance`](#board) | one of: auto, on, off | `--guidance` |" \
        in page
    assert page != (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")


def test_the_page_script_holds_no_setting_of_its_own() -> None:
    """The board page's settings forms are the server's: the script has nothing to update."""
    script = (ROOT / "firmware_host" / "web" / "static" / "app.js").read_text(encoding="utf-8")
    for name in (*phone_settings(), GUIDANCE.name):
        assert f'"{name}"' not in script and f"'{name}'" not in script, name
    for phone in phone_settings().values():
        for value in phone.offered() or ():
            assert f'value="{value}"' not in script, (phone.name, value)


@pytest.mark.usefixtures("guidance")
def test_the_command_reader_lets_a_new_setting_through() -> None:
    entry = {b"name": b"guidance", b"value": b"off", b"time": b"100"}
    assert parse_command(entry, now=100.0) == ("guidance", None, "off", None)


@pytest.mark.usefixtures("guidance")
def test_the_session_keeps_a_new_setting_for_its_next_game() -> None:
    rig = Rig("international")
    rig.session.handle(Command("guidance", rig.now, value="dim"))
    assert rig.last("command_refused")["reason"] == "bad_value"
    rig.session.handle(Command("guidance", rig.now, value="off"))
    assert rig.last("settings")["pending"] == {"guidance": "off"}
    assert rig.session.config.guidance == "auto"  # from the next game on
    rig.play("32-28")
    rig.command("newgame")
    rig.set(rig.session.game.initial)
    rig.wait(rig.config.newgame_ms + 10)
    assert rig.last("settings_applied")["applied"] == {"guidance": "off"}
    assert rig.session.config.guidance == "off"


@pytest.mark.usefixtures("guidance")
def test_a_kept_new_setting_is_laid_over_the_configuration() -> None:
    assert overrides({"guidance": "on", "mode": "teach"}, "international") == {
        "game.mode": "teach", "board.guidance": "on"}
    assert overrides({"guidance": "dim"}, "international") == {}


@pytest.mark.usefixtures("guidance")
def test_the_command_line_takes_a_new_setting() -> None:
    args = build_parser().parse_args(["run", "--guidance", "off", "--store", "memory"])
    assert options_from_args(args).config[BOARD_GUIDANCE] == "off"
    assert build_parser().parse_args(["play", "--guidance", "on"]).guidance == "on"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["run", "--guidance", "dim"])


def test_the_level_range_is_the_engines() -> None:
    level = phone_settings()["level"]
    assert (ENGINE_LEVEL.minimum, ENGINE_LEVEL.maximum) == (1, len(LEVELS))
    assert level.offered() == tuple(str(n) for n in range(1, len(LEVELS) + 1))
    assert level.problem("0") is not None and level.problem("x") is not None


def test_each_setting_is_named_by_its_option() -> None:
    for name, phone in phone_settings().items():
        assert name == phone.option.path.partition(".")[2] == phone.name
        assert phone.flag == "--" + name.replace("_", "-")
