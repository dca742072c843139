"""Every control command from the web app reaches the board and changes what it does."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
import redis

from engine.levels import level
from firmware_host.remote.reader import commands_key
from firmware_host.store.keys import BoardKeys
from tests.firmware_host.web.harness import TOKEN, BoardRig, WebServer
from tests.security.test_web_powers import _pair

pytestmark = pytest.mark.redis

BoardMaker = Callable[..., BoardRig]


def send(web: WebServer, rig: BoardRig, command: str, **fields: str) -> list[dict[str, Any]]:
    """Send a command from the web app, wait until the board has it, let the board handle it;
    return the events the board published meanwhile."""
    reader = rig.service.remote
    assert reader is not None
    before, count = len(rig.events), reader.posted
    reply = web.command(rig.board_id, command, **fields)
    assert reply["ok"], reply
    assert reader.wait_posted(count + 1, 10), "the board did not get the command"
    rig.run(0.5)
    return rig.events[before:]


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [str(e["event"]) for e in events]


def set_up_initial(rig: BoardRig) -> None:
    """Put every piece back on the initial position, as players do for a new game."""
    initial = rig.session.game.initial
    for square in list(rig.sim.occupied - initial):
        rig.sim.lift(square)
    for square in initial - rig.sim.occupied:
        rig.sim.place(square)
    rig.run(3.0)


def test_newgame_with_a_new_variant_and_names(web: WebServer, make_board: BoardMaker) -> None:
    rig = make_board("ctl1")
    rig.play("c3-d4")
    first = rig.session.game_id
    events = send(web, rig, "variant", value="brazilian")
    assert events[-1]["event"] == "settings" and events[-1]["pending"] == {"variant": "brazilian"}
    assert rig.session.variant.name == "russian"  # from the next game on
    assert kinds(send(web, rig, "newgame"))[:2] == ["state", "newgame_requested"]
    set_up_initial(rig)
    new_games = [e for e in rig.events if e["event"] == "new_game"]
    assert new_games[-1]["variant"] == "brazilian" and new_games[-1]["game_id"] != first
    assert rig.session.variant.name == "brazilian"
    events = send(web, rig, "white", value="Ann Smith")
    assert events[-1] == {**events[-1], "event": "header", "tag": "White", "value": "Ann Smith"}
    send(web, rig, "black", value="Bob")
    game = rig.service.store.load_game(rig.session.game_id)
    assert game.headers["White"] == "Ann Smith" and game.headers["Black"] == "Bob"
    assert game.variant == "brazilian"


def test_a_variant_of_another_board_is_refused(web: WebServer, make_board: BoardMaker) -> None:
    rig = make_board("ctl2")
    events = send(web, rig, "variant", value="international")
    assert events[-1]["event"] == "command_refused" and events[-1]["reason"] == "board_size"
    events = send(web, rig, "mode", value="play")  # a record board has no engine
    assert events[-1]["reason"] == "no_engine"
    status, body = web.post("/board/ctl2/command", {"command": "variant", "value": "chess"},
                            {"Authorization": "Bearer test-token-0123456789abcdef"})
    assert status == 400 and "chess" in body


def test_hint_takeback_mode_level_and_touch_move(web: WebServer, make_board: BoardMaker) -> None:
    rig = make_board("ctl3", mode="play")
    assert kinds(send(web, rig, "hint"))[-2:] == ["hint", "leds"]
    rig.play("c3-d4")
    rig.play_computer_move()
    assert "takeback" in kinds(send(web, rig, "takeback"))
    assert rig.session.board.ply == 0
    send(web, rig, "mode", value="teach")
    send(web, rig, "level", value="7")
    events = send(web, rig, "touch_move", value="strict")
    assert events[-1]["pending"] == {"mode": "teach", "level": "7", "touch_move": "strict"}
    assert rig.session.touch.strict is False  # play mode: off until the next game
    assert rig.session.settings.level_hook is not None
    send(web, rig, "newgame")
    set_up_initial(rig)
    new_game = [e for e in rig.events if e["event"] == "new_game"][-1]
    assert new_game["mode"] == "teach"
    assert rig.session.config.mode.value == "teach" and rig.session.touch.strict is True
    engine = rig.service.worker  # (the engine across the board: firmware_host/app/across.py)
    assert engine.opponent.options == level(7).options
    assert "settings_applied" in kinds(rig.events)


def test_a_board_with_control_off_reads_no_command(make_board: BoardMaker) -> None:
    rig = make_board("ctl7", extra={"web": {"control": False}})
    assert rig.service.remote is None
    assert rig.session.settings.level_hook is None  # record mode: no engine either


def test_resign_draw_and_adjust(web: WebServer, make_board: BoardMaker) -> None:
    rig = make_board("ctl4")
    rig.play("c3-d4")
    events = send(web, rig, "adjust")
    assert [e["state"] for e in events if e["event"] == "adjust"] == [True]
    events = send(web, rig, "done")
    assert [e["state"] for e in events if e["event"] == "adjust"] == [False]
    refused = send(web, rig, "draw")              # the phone's draw names no side: whose?
    assert [e["reason"] for e in refused if e["event"] == "command_refused"] == ["which_side"]
    offered = send(web, rig, "draw:white")        # White, who has just moved, offers ...
    assert [e["side"] for e in offered if e["event"] == "draw_offer"] == ["white"]
    events = send(web, rig, "draw:black")         # ... and Black accepts
    assert [(e["result"], e["note"]) for e in events if e["event"] == "result"] == [
        ("1/2-1/2", "draw offered by White, accepted by Black")]
    play = make_board("ctl5", mode="play")
    assert "draw_declined" in kinds(send(web, play, "draw"))
    refused = send(web, play, "resign:black")     # the engine's side: nobody resigns for it
    assert [e["reason"] for e in refused if e["event"] == "command_refused"] == ["not_your_side"]
    events = send(web, play, "resign")
    assert [e["result"] for e in events if e["event"] == "result"] == ["0-1"]
    assert play.service.store.load_game(play.session.game_id).result == "0-1"


def test_a_recorded_games_phone_buttons_say_whose_they_are_and_what_they_do(
        web: WebServer, make_board: BoardMaker) -> None:
    """Issue 38: the phone's "Black offers a draw" was also how Black accepted White's offer,
    and every resign button asked only "Resign the game?", whichever side it was for."""
    make_board("ctl8")
    cookie, _ = _pair(web)
    status, _, html = web.get("/board/ctl8", {"Cookie": f"draughtsboard_pair={cookie}"})
    buttons = re.findall(r'id="cmd-((?:draw|resign)-\w+)" data-confirm="([^"]*)">([^<]*)<', html)
    assert status == 200 and buttons == [
        ("draw-white", "White offers a draw (or accepts Black&#39;s offer)?",
         "White offers or accepts a draw"),
        ("draw-black", "Black offers a draw (or accepts White&#39;s offer)?",
         "Black offers or accepts a draw"),
        ("resign-white", "White resigns: Black wins the game?", "White resigns"),
        ("resign-black", "Black resigns: White wins the game?", "Black resigns")]


def test_the_board_checks_every_field_itself(redis_url: str, make_board: BoardMaker,
                                             caplog: pytest.LogCaptureFixture) -> None:
    rig = make_board("ctl6")
    reader = rig.service.remote
    assert reader is not None
    client = redis.Redis.from_url(redis_url)
    key = commands_key("ctl6")
    bad = [{"name": "format"}, {"name": "resign", "side": "purple"},
           {"name": "header", "tag": "Password", "value": "x"},
           {"name": "hint", "time": str(time.time() - 3600)},
           {"name": "header", "tag": "White", "value": "x" * 500}]
    for fields in bad:
        client.xadd(key, fields)
    client.xadd(key, {"name": "resign", "side": "white", "time": str(time.time())})
    assert reader.wait_posted(1, 10)
    rig.run(0.5)
    assert reader.posted == 1
    assert [e["result"] for e in rig.events if e["event"] == "result"] == ["0-1"]
    assert caplog.text.count("remote command refused") == len(bad)


def test_settings_chosen_at_the_web_app_outlive_a_restart(web: WebServer, redis_url: str,
                                                        make_board: BoardMaker,
                                                        caplog: pytest.LogCaptureFixture
                                                        ) -> None:
    rig = make_board("ctl8", mode="play")
    for name, value in (("variant", "brazilian"), ("mode", "teach"), ("level", "4"),
                        ("touch_move", "strict")):
        send(web, rig, name, value=value)
    send(web, rig, "newgame")
    set_up_initial(rig)
    assert rig.session.variant.name == "brazilian"
    rig.close()
    again = make_board("ctl8", mode="play")  # the configuration file still says russian, play
    assert again.session.variant.name == "brazilian"
    assert again.session.config.mode.value == "teach"
    assert again.session.config.touch_move == "strict"
    assert again.service.worker.opponent.options == level(4).options
    again.close()
    redis.Redis.from_url(redis_url).hset(BoardKeys("ctl8").settings, "variant",
                                         "international")
    third = make_board("ctl8", mode="play")
    assert third.session.variant.name == "russian"  # another board's variant: ignored
    assert "saved settings ignored" in caplog.text and "variant international" in caplog.text


def test_the_forms_start_from_the_game_in_play(web: WebServer, make_board: BoardMaker) -> None:
    """The page's forms show the game's own variant, mode and names; a setting the page cannot
    know (level, touch-move) asks for a choice instead of showing one that may be wrong."""
    rig = make_board("ctl9", mode="play")
    send(web, rig, "white", value="Ann <Smith>")
    status, _, html = web.get("/board/ctl9", {"Authorization": f"Bearer {TOKEN}"})
    assert status == 200

    def select(name: str) -> str:
        return html.split(f'name="command" value="{name}"', 1)[1].split("</form>", 1)[0]

    assert '<option value="russian" selected>Russian draughts</option>' in select("variant")
    assert '<option value="play" selected>play</option>' in select("mode")  # the value, in words
    for unknown in ("level", "touch_move"):
        assert '<option value="" selected disabled>' in select(unknown)
        assert "<option selected>" not in select(unknown)
    assert 'value="Ann &lt;Smith&gt;"' in select("white")  # escaped, not markup
    _, _, russian = web.get("/board/ctl9?lang=ru", {"Authorization": f"Bearer {TOKEN}"})
    mode = russian.split('name="command" value="mode"', 1)[1].split("</form>", 1)[0]
    assert '<option value="play" selected>игра</option>' in mode  # sent as play
    # Touch-move's rules in the viewer's words too ("strict", "off", "auto" on a Russian page).
    touch = russian.split('name="command" value="touch_move"', 1)[1].split("</form>", 1)[0]
    for value, words in (("strict", "строго"), ("off", "выключено"),
                         ("auto", "авто: строго при записи")):
        assert f'<option value="{value}">{words}</option>' in touch
    assert '<option value="auto">auto: strict when recording</option>' in select("touch_move")
    assert '<option value="7">7</option>' in select("level")
    assert 'value="draughtsboard"' in select("black")  # the computer plays Black


def test_a_phone_sets_a_position_up_by_the_lights(web: WebServer, make_board: BoardMaker
                                                  ) -> None:
    rig = make_board("ctl9", mode="play")
    page = web.get("/board/ctl9", {"Authorization": f"Bearer {TOKEN}"})[2]
    assert 'name="command" value="setup"' in page and "Set up this position" in page
    events = send(web, rig, "setup", value="W:WKc3,e3:Bf6,Kd4\r\n")  # a textarea's line end
    assert [e for e in events if e["event"] == "new_game"][-1]["fen"] == "W:WKc3,e3:BKd4,f6"
    said = [e for e in events if e["event"] == "setup"][-1]
    assert said["white_kings"] == [] and said["remove"]  # c3 holds White's man: off first
    frame = [e for e in events if e["event"] == "leds"][-1]["frame"]
    assert frame["d4"] == ["fast", "set_black_king"] and frame["c3"] == ["fast", "extra"]
    for square in list(rig.sim.occupied):
        rig.sim.lift(square)
    rig.run(0.5)
    for name in ("c3", "e3", "f6", "d4"):
        rig.sim.place(rig.session.variant.parse_square(name))
    rig.run(1.0)
    assert [e for e in rig.events if e["event"] == "position_set"][-1]["side"] == "white"
    events = send(web, rig, "setup", value="W:Wz9:B")
    assert events[-1]["event"] == "command_refused" and events[-1]["reason"] == "bad_value"
