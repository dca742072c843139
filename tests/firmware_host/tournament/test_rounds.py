"""Rounds kept per event and merged import by import, as an arbiter imports them from a shell
(``draughtsboard round import``): a one-row list for a spare board, another group's round of
the same number, a re-imported round with a corrected name, ``--dry-run``, Excel's files."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from firmware_host.cli import main
from firmware_host.store import RedisStore
from firmware_host.store.keys import AUDIT
from firmware_host.store.pdnrender import render_game
from firmware_host.tournament.pairing import pairing_key
from tests.firmware_host.session_harness import Rig, hall_board
from tests.redis_server import RedisServer

HEADER = "board,white,black,round,event\n"
ROUND_2 = (HEADER + "hall-1,Ann Smit,Bob de Vries,2,Group A\n"
           "hall-2,Cor Jansen,Dirk Bos,2,Group A\n")


@pytest.fixture
def client(redis_server: RedisServer) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_server.url)
    client.flushdb()
    yield client
    client.close()


class Hall:
    """The arbiter's shell (``round`` commands on files) and the hall's boards, one Redis."""

    def __init__(self, server: RedisServer, client: redis.Redis, tmp: Path,
                 capsys: pytest.CaptureFixture[str]) -> None:
        self.url, self.client, self.tmp, self.capsys = server.url, client, tmp, capsys
        self.boards: dict[str, Rig] = {}

    def run(self, *args: str) -> tuple[int, str, str]:
        status = main(["round", *args, "--store", self.url])
        out = self.capsys.readouterr()
        return status, out.out, out.err

    def file(self, name: str, text: str | bytes) -> str:
        path = self.tmp / name
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return str(path)

    def import_list(self, text: str | bytes, *args: str) -> tuple[int, str, str]:
        return self.run("import", self.file("list.csv", text), *args)

    def board(self, board_id: str) -> Rig:
        """A board at the start position (its service reading its pairing)."""
        rig = hall_board(self.client, board_id)
        self.boards[board_id] = rig
        return rig

    def results(self, number: str, *args: str) -> list[dict[str, str]]:
        path = self.tmp / f"r{number}.csv"
        status, _, err = self.run("export", "--round", number, "--results", str(path),
                                  "--pdn", str(self.tmp / "r.pdn"),
                                  "--decisions", str(self.tmp / "d.csv"), *args)
        assert status == 0, err
        return list(csv.DictReader(io.StringIO(path.read_text())))


@pytest.fixture
def hall(redis_server: RedisServer, client: redis.Redis, tmp_path: Path,
         capsys: pytest.CaptureFixture[str]) -> Hall:
    return Hall(redis_server, client, tmp_path, capsys)


def test_a_one_row_list_for_a_spare_board_keeps_the_other_boards(hall: Hall) -> None:
    # The bug: the one-row list replaced the round, and the game in progress on hall-1
    # vanished from it (and from its export and Start round).
    assert hall.import_list(ROUND_2)[0] == 0
    hall.board("hall-1").play("32-28")
    status, out, _ = hall.import_list(HEADER + "hall-9,Eva Kok,Fred Mol,2,Group A\n")
    assert status == 0
    assert "round 2 of Group A: 3 boards, 1 of them in this list" in out
    assert "hall-1: Ann Smit - Bob de Vries  (kept (not in this list))" in out
    rows = hall.results("2")
    assert [(r["board"], r["white"], r["plies"]) for r in rows] == [
        ("hall-1", "Ann Smit", "1"), ("hall-2", "Cor Jansen", "0"), ("hall-9", "Eva Kok", "0")]
    assert hall.client.hget(pairing_key("hall-9"), "White") == b"Eva Kok"


def test_a_round_of_one_board_is_said_in_the_singular(hall: Hall) -> None:
    status, out, _ = hall.import_list(HEADER + "hall-9,Eva Kok,Fred Mol,5,Group C\n")
    assert status == 0 and out.startswith("round 5 of Group C: 1 board, 1 of them in this "
                                          "list (")


def test_two_groups_round_2_are_two_rounds(hall: Hall) -> None:
    assert hall.import_list(ROUND_2)[0] == 0
    group_b = HEADER + "hall-3,Gus Gras,Hans Hop,2,Group B\nhall-4,Ida Bal,Jan Dam,2,Group B\n"
    assert hall.import_list(group_b)[0] == 0
    assert [r["board"] for r in hall.results("2", "--event", "Group A")] == ["hall-1", "hall-2"]
    assert [r["board"] for r in hall.results("2", "--event", "Group B")] == ["hall-3", "hall-4"]
    status, _, err = hall.run("export", "--round", "2")
    assert status == 2 and "round 2 is a round of several events: say which, --event " \
        "'Group A' or --event 'Group B'" in err
    assert hall.client.hget(pairing_key("hall-1"), "Event") == b"Group A"


def test_a_player_or_a_board_twice_is_refused_across_imports(hall: Hall) -> None:
    assert hall.import_list(ROUND_2)[0] == 0
    status, _, err = hall.import_list(HEADER + "hall-5,Ann Smit,Eva Kok,2,Group A\n")
    assert status == 2
    assert "hall-5: Ann Smit already plays on hall-1 (round 2 of Group A, imported before)" \
        in err and "nothing imported" in err
    status, _, err = hall.import_list(HEADER + "hall-2,Gus Gras,Hans Hop,2,Group B\n")
    assert status == 2 and "hall-2: a board of round 2 of Group A already" in err
    assert hall.client.exists(pairing_key("hall-5")) == 0
    assert hall.client.hget(pairing_key("hall-2"), "White") == b"Cor Jansen"


def test_a_reimported_played_round_corrects_the_names_and_arms_no_board_that_played(
        hall: Hall) -> None:
    # The bug: the re-import to fix a name dropped the played game from the export and armed
    # the board again (its next game would have been named as round 2's).
    assert hall.import_list(ROUND_2)[0] == 0
    one, two = hall.board("hall-1"), hall.board("hall-2")
    one.play("32-28")
    one.command("resign", side="black")        # Ann Smit won
    two.play("33-29")                          # going on
    fixed = ROUND_2.replace("Bob de Vries", "Bob de Vries-Kok").replace("Dirk Bos", "Dirk Bosch")
    status, out, _ = hall.import_list(fixed)
    assert status == 0
    assert ("hall-1: Ann Smit - Bob de Vries-Kok  (has its game: names corrected in its record;"
            " was Ann Smit - Bob de Vries)") in out
    assert hall.client.exists(pairing_key("hall-1")) == 0  # not armed again
    assert hall.client.exists(pairing_key("hall-2")) == 0
    rows = hall.results("2")
    assert [(r["board"], r["black"], r["result"], r["plies"]) for r in rows] == [
        ("hall-1", "Bob de Vries-Kok", "2-0", "1"), ("hall-2", "Dirk Bosch", "*", "1")]
    game = RedisStore(hall.client, "hall-1", name="t").load_game(one.session.game_id or "")
    assert (game.headers["White"], game.headers["Black"]) == ("Ann Smit", "Bob de Vries-Kok")
    assert '[Black "Bob de Vries-Kok"]' in render_game(game)
    renames = [entry["detail"] for entry in map(json.loads, hall.client.lrange(AUDIT, 0, -1))
               if entry["action"] == "rename"]
    assert [(r["game_id"], r["before"]["Black"], r["after"]) for r in renames] == [
        (one.session.game_id, "Bob de Vries", {"Black": "Bob de Vries-Kok"}),
        (two.session.game_id, "Dirk Bos", {"Black": "Dirk Bosch"})]
    # The next game on hall-1 is nobody's: the round's pairing is not taken again.
    one.set(one.session.game.initial)
    one.wait(one.config.newgame_ms + 10)
    one.play("32-28")
    assert "White" not in one.game().headers
    # Imported once more, the same list changes nothing.
    status, out, _ = hall.import_list(fixed)
    assert status == 0 and "hall-1: Ann Smit - Bob de Vries-Kok  (has its game: not armed" in out


def test_a_played_games_colours_are_not_swapped_by_an_import(hall: Hall) -> None:
    assert hall.import_list(ROUND_2)[0] == 0
    hall.board("hall-1").play("32-28")
    status, _, err = hall.import_list(ROUND_2.replace("Ann Smit,Bob de Vries",
                                                      "Bob de Vries,Ann Smit"))
    assert status == 2 and "hall-1: Ann Smit played White against Bob de Vries" in err


def test_a_dry_run_says_the_boards_and_names_and_imports_nothing(hall: Hall) -> None:
    status, out, _ = hall.import_list(ROUND_2, "--dry-run")
    assert status == 0
    assert out.splitlines() == [
        "round 2 of Group A: 2 boards, 2 of them in this list (the next game on each board "
        "added or replaced would be named)",
        "  hall-1: Ann Smit - Bob de Vries  (added)  (no game recorded yet: is its board.id "
        "right?)",
        "  hall-2: Cor Jansen - Dirk Bos  (added)  (no game recorded yet: is its board.id "
        "right?)",
        "dry run: nothing imported"]
    assert hall.client.keys("*") == []


def test_a_trf_says_how_its_boards_are_numbered_before_importing(hall: Hall) -> None:
    trf = (Path(__file__).parent / "swiss-round-3.trf").read_text()
    status, out, _ = hall.run("import", hall.file("club.trf", trf), "--round", "3",
                              "--board-prefix", "hall-", "--dry-run")
    assert status == 0
    lines = out.splitlines()
    assert lines[1] == ("  (boards numbered as the pairing program prints them (FIDE board "
                        "order): the higher-placed player's score, then both players' scores, "
                        "then the higher-placed player's starting rank)")
    assert lines[2].startswith("  hall-1: Hop, Hanna - Smit, Ann  (added)")
    assert lines[3].startswith("  hall-2: Gras, Gus - Mol, Fred  (added)")


def test_excel_lists_are_read_or_refused_with_the_line(hall: Hall) -> None:
    dutch = "board;white;black;round;event\r\nhall-1;Ann Smit;Bob de Vries;2;Groep A\r\n"
    assert hall.import_list(dutch.encode("utf-8-sig"))[0] == 0
    assert hall.client.hget(pairing_key("hall-1"), "Black") == b"Bob de Vries"
    french = "board;white;black;round;event\r\nhall-2;Hélène Dupré;Zoë Ñúñez;2;Groep A\r\n"
    status, _, err = hall.import_list(french.encode("cp1252"))
    assert status == 2
    assert ("line 2, column 9: byte 0xE9 is not UTF-8 (in Windows-1252: 'hall-2;Hélène "
            "Dupré;Zoë Ñúñez;2;Groep A'): save the file as UTF-8") in err
    assert hall.import_list(french.encode("cp1252"), "--encoding", "cp1252")[0] == 0
    assert hall.client.hget(pairing_key("hall-2"), "White").decode() == "Hélène Dupré"
    status, _, err = hall.import_list(b"PK\x03\x04 a workbook")
    assert status == 2 and "a spreadsheet (.xlsx), not a text file" in err


def test_the_decisions_of_the_round_go_with_its_export(hall: Hall, tmp_path: Path) -> None:
    assert hall.import_list(ROUND_2)[0] == 0
    hall.board("hall-1").play("32-28")
    hall.import_list(ROUND_2.replace("Bob de Vries", "Bob de Vries-Kok"))
    hall.results("2")
    rows = list(csv.DictReader(io.StringIO((tmp_path / "d.csv").read_text())))
    assert [(r["action"], r["board"], r["what"]) for r in rows] == [
        ("import", "*", "round 2 Group A imported"),
        ("rename", "hall-1", "hall-1: names corrected to Bob de Vries-Kok"),
        ("import", "*", "round 2 Group A imported")]
    assert rows[0]["who"].startswith("round import by ")
