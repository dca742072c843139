"""A pairing list checked row by row (CSV, separated by , or ;), kept in Redis, taken by each
board's next game; a round's games and results exported in board order."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import fakeredis
import pytest

from engine.pdn import read_games
from firmware_host.cli import main
from firmware_host.store import RedisStore
from firmware_host.tournament.export import results_csv, round_games, round_pdn
from firmware_host.tournament.pairing import PairingSource, pairing_key, read_pairings
from firmware_host.tournament.rounds import import_round, load_round
from tests.firmware_host.session_harness import Rig
from tests.redis_server import RedisServer, free_port

HEADER = "board,white,black,round,event\n"
ROUND_1 = HEADER + "hall-1,Ann Smit,Bob de Vries,1,Club night\nhall-2,Cor,Dirk,1,Club night\n"


def test_a_good_list_reads_in_its_order_whatever_the_column_order() -> None:
    text = "\ufeffRound, Event,White,Black,Board\n3,Open,Ann,Bob,b2\n3,Open,Cor,Dirk,b1\n"
    pairings, problems = read_pairings(text)
    assert problems == []
    assert [(p.board, p.white, p.black, p.round, p.event) for p in pairings] == [
        ("b2", "Ann", "Bob", "3", "Open"), ("b1", "Cor", "Dirk", "3", "Open")]


def test_every_bad_row_gets_one_message_naming_its_line() -> None:
    text = (HEADER
            + "b1,Ann,Bob,1,Club\n"       # good
            + "b 2,Cor,Dirk,1,Club\n"     # line 3: bad board id
            + "b1,Eva,Fred,1,Club\n"      # line 4: board again
            + "b4,Ann,Gus,1,Club\n"       # line 5: Ann plays twice
            + "b5,Hans,,1,Club\n"         # line 6: no Black
            + "b6,Ida,Jan,2,Club\n"       # line 7: another round
            + "b7,Kees,Lot,one,Club\n"    # line 8: not a round
            + "b8,Max,Nel\n"              # line 9: columns missing
            + '"b9","Olga ""O""",Piet,1,\n'  # line 10: a quote in a name
            + "\n"
            + "b10,Rob,Rob,1,\n")         # line 12: both sides
    pairings, problems = read_pairings(text)
    assert [p.board for p in pairings] == ["b1"]
    lines = [int(p.split(":")[0].removeprefix("line ")) for p in problems]
    assert lines == [3, 4, 5, 6, 7, 8, 9, 10, 12]
    assert "not a board id" in problems[0]
    assert "board b1 is already on line 2" in problems[1]
    assert "Ann already plays on line 2" in problems[2]
    assert "black is empty" in problems[3]
    assert "a list is one round" in problems[4]
    assert "not a round number" in problems[5]
    assert "expected 5 columns" in problems[6]
    assert "not a PDN tag value" in problems[7]
    assert "Rob plays both sides" in problems[8]


def test_a_round_in_other_digits_than_ascii_is_refused() -> None:
    # "\d" takes the Arabic-Indic three: it would be the PDN Round tag.
    pairings, problems = read_pairings(HEADER + "b1,Ann,Bob,\u0663,Club\n")
    assert pairings == [] and "is not a round number" in problems[0]


@pytest.mark.parametrize(("text", "words"), [
    ("board,white,black\nb1,Ann,Bob\n", "missing: round, event"),
    ("", "missing: board"),
    (HEADER, "the list has no pairing"),
])
def test_a_list_without_its_columns_or_rows_is_one_message(text: str, words: str) -> None:
    pairings, problems = read_pairings(text)
    assert pairings == [] and len(problems) == 1 and words in problems[0]


def clocked_rig(client: Any, board: str) -> Rig:
    store = RedisStore(client, board, name="test")
    rig = Rig("international", store=store, start=False)
    rig.session.game.pairing = PairingSource(client, board)
    return rig


def start(rig: Rig) -> None:
    rig.occupied = set(rig.session.game.initial)
    rig.session.start(frozenset(rig.occupied), rig.now)


def test_an_import_names_the_game_waiting_at_the_start_and_not_the_one_after() -> None:
    client = fakeredis.FakeRedis()
    rig = clocked_rig(client, "hall-1")
    start(rig)                                      # a game opens before the import
    assert "White" not in rig.game().headers
    pairings, _ = read_pairings(ROUND_1)
    import_round(client, pairings, "test")
    rig.play("32-28")                              # it begins: it takes the pairing
    tags = rig.game().headers
    assert (tags["White"], tags["Black"], tags["Round"], tags["Event"]) == (
        "Ann Smit", "Bob de Vries", "1", "Club night")
    assert {e["tag"]: e["value"] for e in rig.published("header")}["White"] == "Ann Smit"
    assert client.exists(pairing_key("hall-1")) == 0
    rig.command("resign", side="black")
    rig.set(rig.session.game.initial)
    rig.wait(rig.config.newgame_ms + 10)           # the next game: not named again
    assert rig.game().headers.get("White") is None
    assert load_round(client, "1").pairings == pairings  # the round stays, for the export


def test_a_game_opened_after_the_import_has_the_tags_from_its_start() -> None:
    client = fakeredis.FakeRedis()
    import_round(client, read_pairings(ROUND_1)[0], "test")
    rig = clocked_rig(client, "hall-2")
    start(rig)
    assert (rig.game().headers["White"], rig.game().headers["Black"]) == ("Cor", "Dirk")


def test_a_resumed_game_does_not_take_the_next_rounds_pairing() -> None:
    client = fakeredis.FakeRedis()
    import_round(client, read_pairings(ROUND_1)[0], "test")
    rig = clocked_rig(client, "hall-1")
    start(rig)
    rig.play("32-28")
    import_round(client, read_pairings(HEADER + "hall-1,Eva,Fred,2,Club night\n")[0], "test")
    again = clocked_rig(client, "hall-1")          # the service restarts mid-game
    again.occupied = set(rig.session.game.position)
    again.session.start(frozenset(again.occupied), 0.0)
    again.play("19-23")
    assert again.game().headers["White"] == "Ann Smit"
    assert client.hget(pairing_key("hall-1"), "White") == b"Eva"


def test_redis_away_reads_as_no_pairing() -> None:
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    nobody = redis.Redis(port=free_port(), socket_connect_timeout=1,  # connection refused
                         retry=Retry(NoBackoff(), 0))
    now = [0.0]
    source = PairingSource(nobody, "b1", monotonic=lambda: now[0])
    assert source.peek() == {} and source.take() is None
    nobody.close()
    source._client = fakeredis.FakeRedis()
    source._client.hset(pairing_key("b1"), "White", "Ann")
    assert source.take() is None                   # not asked again so soon
    now[0] = 31.0
    assert source.take() == {"White": "Ann"}


def play_round(client: Any) -> None:
    import_round(client, read_pairings(ROUND_1)[0], "test")
    first = clocked_rig(client, "hall-1")
    start(first)
    for text in ("32-28", "19-23"):
        first.play(text)
    first.command("resign", side="black")
    second = clocked_rig(client, "hall-2")
    start(second)
    second.play("33-29")


def test_the_round_exports_in_board_order_with_its_results() -> None:
    client = fakeredis.FakeRedis()
    play_round(client)
    _, games = round_games(client, "1")
    assert [g.pairing.board for g in games] == ["hall-1", "hall-2"]
    rows = list(csv.DictReader(io.StringIO(results_csv(games))))
    assert [(r["board"], r["white"], r["result"], r["points"], r["termination"], r["plies"])
            for r in rows] == [("hall-1", "Ann Smit", "2-0", "1-0", "resignation", "2"),
                               ("hall-2", "Cor", "*", "*", "", "1")]
    read = read_games(round_pdn(games))
    assert [(g.headers["White"], g.headers["Round"], g.result) for g in read] == [
        ("Ann Smit", "1", "2-0"), ("Cor", "1", "*")]
    with pytest.raises(LookupError, match="no round 2"):
        round_games(client, "2")


def test_round_import_and_export_from_the_command_line(redis_server: RedisServer,
                                                      tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    import redis

    client = redis.Redis.from_url(redis_server.url)
    client.flushdb()
    bad = tmp_path / "bad.csv"
    bad.write_text(HEADER + "hall-1,Ann,Bob,1,\nhall-1,Cor,Dirk,1,\n")
    assert main(["round", "import", str(bad), "--store", redis_server.url]) == 2
    err = capsys.readouterr().err
    assert "bad.csv: line 3: board hall-1 is already on line 2" in err
    assert "nothing imported" in err and client.exists(pairing_key("hall-1")) == 0

    good = tmp_path / "round1.csv"
    good.write_text(ROUND_1)
    assert main(["round", "import", str(good), "--store", redis_server.url]) == 0
    assert "round 1 of Club night: 2 boards, 2 of them in this list" in capsys.readouterr().out
    play_round(client)
    pdn, results = tmp_path / "r1.pdn", tmp_path / "r1.csv"
    assert main(["round", "export", "--round", "1", "--store", redis_server.url,
                 "--pdn", str(pdn), "--results", str(results),
                 "--decisions", str(tmp_path / "d.csv")]) == 0
    assert "2 of 2 games" in capsys.readouterr().out
    assert [g.headers["Black"] for g in read_games(pdn.read_text())] == ["Bob de Vries", "Dirk"]
    assert results.read_text().splitlines()[1].startswith(
        "hall-1,Ann Smit,Bob de Vries,1,Club night,2-0,1-0,1,0,resignation")
    assert main(["round", "export", "--round", "9", "--store", redis_server.url]) == 2
    assert "no round 9" in capsys.readouterr().err
    client.close()


def test_round_commands_refuse_the_memory_store(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["round", "export", "--round", "1"]) == 2
    assert "give --store redis://" in capsys.readouterr().err


class FlakySource:
    """A pairing source whose first take fails (Redis away)."""

    def __init__(self) -> None:
        self.takes = 0

    def peek(self) -> dict[str, str]:
        return {}

    def take(self) -> dict[str, str] | None:
        self.takes += 1
        return None if self.takes == 1 else {"White": "Ann", "Black": "Bob", "Round": "1"}


def test_a_pairing_not_read_at_the_first_move_is_read_at_the_next() -> None:
    rig = Rig("international", start=False)
    source = FlakySource()
    rig.session.game.pairing = source
    start(rig)
    rig.play("32-28")
    assert "White" not in rig.game().headers
    rig.play("19-23")
    assert rig.game().headers["White"] == "Ann" and source.takes == 2
    rig.play("28x19")
    assert source.takes == 2


def test_the_board_service_reads_its_pairing_from_its_redis(redis_server: RedisServer,
                                                             tmp_path: Path) -> None:
    """build_service gives the session's game the board's pairing: a game that opens after an
    import starts with the pairing's tags (a real Redis, the whole service)."""
    from contextlib import ExitStack

    import redis

    from board_io.clock import VirtualClock
    from firmware_host.app.notify import Notifier
    from firmware_host.app.service import Wiring, build_service
    from firmware_host.config.loader import Config

    client = redis.Redis.from_url(redis_server.url)
    client.flushdb()
    import_round(client, read_pairings(HEADER + "svc-1,Ann Smit,Bob de Vries,4,Club\n")[0],
                 "test")
    config = Config.from_mapping({
        "game": {"mode": "record"}, "board": {"id": "svc-1"},
        "store": {"url": redis_server.url, "games_dir": str(tmp_path / "games"),
                  "spool_dir": str(tmp_path / "spool")},
        "web": {"control": False}, "clock": {"time_control": "5+3"},
    })
    with ExitStack() as stack:
        clock = VirtualClock()
        service = build_service(config, stack, Wiring(clock=clock, virtual_time=True,
                                                      notifier=Notifier({}), resume=False))
        for _ in range(200):  # scans until the first full reading starts the session
            if service.controller.started:
                break
            clock.advance(0.02)
            service.controller.step()
        game_id = service.controller.session.game_id
        assert game_id is not None
        tags = service.store.load_game(game_id).headers
    assert (tags["White"], tags["Black"], tags["Round"], tags["TimeControl"]) == (
        "Ann Smit", "Bob de Vries", "4", "300+3")
    client.close()
