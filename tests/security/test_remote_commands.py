"""The board's command reader is the real trust boundary (docs/security.md): every command is
checked there, carries a time the reader checks (missing, future-dated or not a number:
refused), and the reader survives a command key of the wrong type with one clear line, taking
commands again once the key is a stream."""

from __future__ import annotations

import logging
import threading
import time

import pytest
import redis

from firmware_host.game.types import SessionEvent
from firmware_host.remote.reader import MAX_SKEW, CommandReader, commands_key, parse_command
from firmware_host.terms.commands import BOARD_ONLY

pytestmark = pytest.mark.redis

NOW = 1_795_977_005.0


@pytest.mark.parametrize("sent, why", [
    (None, "no time"), (NOW + MAX_SKEW + 1, "future"), (NOW + 10**9, "future"),
    ("nan", "time"), ("inf", "time"), ("-inf", "time"), ("1e400", "time"), ("x", "time"),
    (NOW - 31, "stale"),
])
def test_a_command_without_a_good_time_is_refused(sent: object, why: str) -> None:
    fields = {b"name": b"hint"}
    if sent is not None:
        fields[b"time"] = str(sent).encode()
    with pytest.raises(ValueError, match=why):
        parse_command(fields, now=NOW)


def test_a_fresh_command_passes() -> None:
    assert parse_command({b"name": b"hint", b"time": str(NOW - 1).encode()}, now=NOW)[0] == "hint"
    assert parse_command({b"name": b"hint", b"time": str(NOW + 1).encode()}, now=NOW)[0] == "hint"


@pytest.mark.parametrize("name", sorted(BOARD_ONLY))
def test_the_command_stream_cannot_speak_for_the_other_board(name: str) -> None:
    """``followed_result`` and ``partner`` come from the board's own follower and duel: a
    phone or a console writing them (a result, a takeback "agreed" in the other board's name)
    is refused at the edge."""
    with pytest.raises(ValueError, match="comes from the board itself"):
        parse_command({b"name": name.encode(), b"tag": b"takeback_agreed", b"value": b"1:0",
                       b"time": str(NOW).encode()}, now=NOW)


def test_a_position_to_set_up_may_be_longer_than_a_name_but_not_without_end() -> None:
    fen = ("W:W" + ",".join(str(sq) for sq in range(31, 51)) + ":B"
           + ",".join(str(sq) for sq in range(1, 21))).encode()  # 120 characters
    sent = str(NOW).encode()
    assert parse_command({b"name": b"setup", b"value": fen, b"time": sent}, NOW)[2] == \
        fen.decode()
    with pytest.raises(ValueError, match="too long"):  # a name keeps its 80 characters
        parse_command({b"name": b"header", b"tag": b"White", b"value": fen, b"time": sent}, NOW)
    with pytest.raises(ValueError, match="too long"):
        parse_command({b"name": b"setup", b"value": b"W" * 2001, b"time": sent}, NOW)


def test_the_reader_survives_a_key_of_the_wrong_type(client: redis.Redis,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    key = commands_key("rc1")
    client.hset(key, "a", "b")  # HSET draughtsboard:rc1:commands a b
    posted: list[SessionEvent] = []
    warned, again = threading.Event(), threading.Event()

    class Watch(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if key in record.getMessage():
                (again if record.getMessage().endswith(" again") else warned).set()

    watch = Watch()
    logging.getLogger("firmware_host.remote.reader").addHandler(watch)
    caplog.set_level(logging.INFO, "firmware_host.remote.reader")
    try:
        with CommandReader(client, "rc1", posted.append, lambda: 0.0).start() as reader:
            assert warned.wait(10), "no line about the key"
            client.delete(key)
            assert again.wait(10), "the reader did not read the key again"
            client.xadd(key, {"name": "hint", "time": f"{time.time():.3f}"})
            assert reader.wait_posted(1, 10), "the reader stopped taking commands"
    finally:
        logging.getLogger("firmware_host.remote.reader").removeHandler(watch)
    lines = [r.getMessage() for r in caplog.records if key in r.getMessage()]
    assert lines and "WRONGTYPE" in lines[0] and "unreachable" not in lines[0], lines
    assert len([line for line in lines if "WRONGTYPE" in line]) == 1, lines


def test_junk_saved_settings_leave_the_configuration(client: redis.Redis,
                                                     redis_url: str) -> None:
    from firmware_host.config import Config
    from firmware_host.remote.saved import settings_key, with_saved_settings

    config = Config.from_mapping({"board": {"id": "rc2"}, "store": {"url": redis_url},
                                  "game": {"variant": "russian"}})
    client.hset(settings_key("rc2"), mapping={b"level": "²".encode(), b"mode": b"\xff\xfe",
                                              b"\xff": b"x" * 5000, b"variant": b"chess"})
    assert with_saved_settings(config)["engine.level"] == config["engine.level"]
    assert with_saved_settings(config)["game.mode"] == config["game.mode"]
    client.delete(settings_key("rc2"))
    client.set(settings_key("rc2"), "not a hash")
    assert with_saved_settings(config)["game.variant"] == "russian"
