"""Pairings from a pairing program's FIDE Tournament Report File (TRF16 columns), numbered in
the program's board order, and the round's results written back for it.

The samples beside this file are written by hand from the format's player section: the starting
rank in columns 5-8, the title in 11-13, the name in 15-47, the rating 49-52, the federation
54-56, the id 58-68, the points 81-84, and per round a ten-column block from column 92
(opponent's rank 92-95, colour 97, result 99). club-championship.trf has round 2 paired;
swiss-round-3.trf rounds 1 and 2 played and round 3 paired, its score groups out of starting-rank
order, with a pairing-allocated bye.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import redis

from firmware_host.cli import main
from firmware_host.tournament.pairing import pairing_key
from firmware_host.tournament.rounds import load_round
from firmware_host.tournament.trf import Entry, is_trf, read_trf, round_entries, write_results
from tests.redis_server import RedisServer

# Round 1 played (results in column 99); round 2 paired, not played: 1-3 and 2-6 play,
# 4 has the pairing-allocated bye (U), 5 wins by forfeit against 7 (+ / -).
SAMPLE = (Path(__file__).parent / "club-championship.trf").read_text(encoding="utf-8")
SWISS = (Path(__file__).parent / "swiss-round-3.trf").read_text(encoding="utf-8")


def test_the_sample_is_laid_out_in_the_formats_columns() -> None:
    line = SAMPLE.splitlines()[4]
    assert line[4:8] == "   1" and line[14:23] == "Smit, Ann" and line[80:84] == " 1.0"
    assert line[91:95] == "   4" and line[96] == "w" and line[98] == "1"
    assert line[101:105] == "   3" and line[106] == "b"


def test_a_round_gives_each_pairing_a_board_in_the_order_of_the_pairings() -> None:
    pairings, problems = read_trf(SAMPLE, 2)
    assert problems == []
    assert [(p.board, p.white, p.black, p.round, p.event) for p in pairings] == [
        ("board1", "Jansen, Cor", "Smit, Ann", "2", "Club championship 2026"),
        ("board2", "de Vries, Bob", "Mol, Fred", "2", "Club championship 2026")]
    first, _ = read_trf(SAMPLE, 1, prefix="hall-")
    assert [(p.board, p.white, p.black) for p in first] == [
        ("hall-1", "Smit, Ann", "Bos, Dirk"), ("hall-2", "Kok, Eva", "de Vries, Bob"),
        ("hall-3", "Jansen, Cor", "Mol, Fred")]
    assert first[0].headers() == {
        "White": "Smit, Ann", "Black": "Bos, Dirk", "Round": "1",
        "Event": "Club championship 2026", "Site": "Utrecht", "WhiteRating": "2210",
        "WhiteFederation": "NED", "WhiteFmjdId": "16000001", "BlackRating": "2050",
        "BlackFederation": "BEL", "BlackFmjdId": "16000004"}
    assert (first[0].white_rank, first[0].black_rank) == (1, 4)


def test_boards_follow_the_score_groups_as_the_pairing_program_prints_them() -> None:
    # Round 3: Hop (2 points) - Smit (1.5); Gras (1.5) - Mol (1.5): Mol, rank 6, is the
    # higher-placed; Jansen (0.5) - Bos (1); Kok (0) - de Vries (0); Ruiz has the bye. By the
    # first player's starting rank the boards were 1-8, 2-5, 3-4, 6-7: boards 2 and 4 swapped.
    pairings, problems = read_trf(SWISS, 3, prefix="hall-")
    assert problems == []
    assert [(p.board, p.white, p.black) for p in pairings] == [
        ("hall-1", "Hop, Hanna", "Smit, Ann"), ("hall-2", "Gras, Gus", "Mol, Fred"),
        ("hall-3", "Jansen, Cor", "Bos, Dirk"), ("hall-4", "Kok, Eva", "de Vries, Bob")]
    tags = dict(pairings[0].tags)
    assert (tags["Site"], tags["Date"], tags["BlackTitle"], tags["WhiteFederation"]) == (
        "Utrecht NED", "2026.12.16", "GMI", "SUR")


def test_a_forfeit_recorded_before_the_round_keeps_its_board_number_and_gets_no_board() -> None:
    lines = SWISS.splitlines()
    lines[8] = lines[8].ljust(118) + "+"    # Jansen, board 3: forfeit win over Bos
    lines[9] = lines[9].ljust(118) + "-"
    pairings, problems = read_trf("\n".join(lines), 3, prefix="hall-")
    assert problems == []
    assert [p.board for p in pairings] == ["hall-1", "hall-2", "hall-4"]


#: Round 3's results: Hop beat Smit, Gras and Mol drew, Bos did not come (Jansen wins by
#: forfeit), de Vries beat Kok.
RESULTS = {8: Entry(1, "w", "1"), 1: Entry(8, "b", "0"), 7: Entry(6, "w", "="),
           6: Entry(7, "b", "="), 3: Entry(4, "w", "+"), 4: Entry(3, "b", "-"),
           5: Entry(2, "w", "0"), 2: Entry(5, "b", "1")}


def test_the_results_are_written_in_the_rounds_columns_and_the_points_added() -> None:
    out = write_results(SWISS, 3, RESULTS)
    assert "\r\n" in out and not out.replace("\r\n", "").count("\n")
    lines = out.split("\r\n")
    players = {int(line[4:8]): line for line in lines if line.startswith("001 ")}
    # Columns 81-84 the points, 102-109 round 2 as it was, 112-119 round 3 written in.
    assert players[8] == ("001    8 w    Hop, Hanna                        1850 SUR    16000008 "
                          "2004/02/14  3.0    1     4 b 1     3 b 1     1 w 1")
    assert players[1][80:84] == " 1.5" and players[1][111:119] == "   8 b 0"
    assert players[7][80:84] == " 2.0" and players[7][111:119] == "   6 w ="
    assert players[3][80:84] == " 1.5" and players[3][111:119] == "   4 w +"
    assert players[4][80:84] == " 1.0" and players[4][111:119] == "   3 b -"
    assert players[2][80:84] == " 1.0" and players[2][111:119] == "   5 b 1"
    assert players[9] == SWISS.splitlines()[14]  # the bye, as the program wrote it
    assert lines[:6] == SWISS.splitlines()[:6]   # the tournament's lines kept
    assert all(len(line) <= 119 for line in lines)


def test_a_written_round_reads_back_as_it_was_written() -> None:
    out = write_results(SWISS, 3, RESULTS)
    entries = round_entries(out, 3)
    assert {rank: entries[rank] for rank in RESULTS} == RESULTS
    assert entries[9] == Entry(0, "-", "U")
    # The pairings read again are the same boards (the forfeit keeps its number, no board).
    again, problems = read_trf(out, 3, prefix="hall-")
    assert problems == []
    before, _ = read_trf(SWISS, 3, prefix="hall-")
    assert [(p.board, p.white, p.black) for p in again] == [
        (p.board, p.white, p.black) for p in before if p.board != "hall-3"]
    # Written twice (an export run again), the points are not added twice.
    assert write_results(out, 3, RESULTS) == out


def test_a_draughts_file_counting_two_points_a_win_gets_two_points_a_win() -> None:
    doubled = [line[:80] + f"{float(line[80:84]) * 2:4.1f}" + line[84:]
               if line.startswith("001 ") else line for line in SWISS.splitlines()]
    out = write_results("\n".join(doubled), 3, RESULTS)
    players = {int(line[4:8]): line for line in out.split("\r\n") if line.startswith("001 ")}
    assert players[8][80:84] == " 6.0" and players[7][80:84] == " 4.0"
    assert players[3][80:84] == " 3.0"


def test_lines_that_do_not_agree_are_named_and_nothing_else_is_lost() -> None:
    lines = SAMPLE.splitlines()
    lines[9] = lines[9][:106] + "w"  # Mol's round 2: white against de Vries, who is white too
    lines.append("001    8 m    Hop, Hans" + " " * 78 + "  99 w")  # a rank with no line
    lines.append("001   x1 m    Bad, Rank")
    pairings, problems = read_trf("\n".join(lines), 2)
    assert [p.board for p in pairings] == ["board1"]
    assert problems == [
        "line 6: round 2: de Vries, Bob plays Mol, Fred (w), but line 10 says 2 (w)",
        "line 12: round 2: opponent 99 has no player line",
        "line 13: 'x1' in columns 5-8 is not a starting rank"]


def test_a_round_nobody_is_paired_in_is_one_message() -> None:
    assert read_trf(SAMPLE, 5) == ([], ["line 1: no player (001) line is paired in round 5"])
    assert is_trf(SAMPLE) and not is_trf("board,white,black,round,event\n")


def test_round_import_of_a_trf_file_from_the_command_line(
        redis_server: RedisServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    client = redis.Redis.from_url(redis_server.url)
    client.flushdb()
    path = tmp_path / "club.trf"
    path.write_text(SAMPLE)
    assert main(["round", "import", str(path), "--store", redis_server.url]) == 2
    assert "--round N" in capsys.readouterr().err
    assert main(["round", "import", str(path), "--round", "2", "--board-prefix", "hall-",
                 "--store", redis_server.url]) == 0
    out = capsys.readouterr().out
    assert "round 2 of Club championship 2026: 2 boards" in out
    assert "hall-1: Jansen, Cor - Smit, Ann" in out and "FIDE board order" in out
    assert client.hgetall(pairing_key("hall-2")) == {
        b"White": b"de Vries, Bob", b"Black": b"Mol, Fred", b"Round": b"2",
        b"Event": b"Club championship 2026", b"Site": b"Utrecht",
        b"WhiteRating": b"2150", b"WhiteFederation": b"NED", b"WhiteFmjdId": b"16000002",
        b"BlackRating": b"1950", b"BlackFederation": b"NED", b"BlackFmjdId": b"16000006"}
    stored = load_round(client, "2")
    assert [p.board for p in stored.pairings] == ["hall-1", "hall-2"]
    assert stored.trf == SAMPLE
    csv = tmp_path / "round.csv"
    csv.write_text("board,white,black,round,event\nb1,Ann,Bob,1,\n")
    assert main(["round", "import", str(csv), "--board-prefix", "x",
                 "--store", redis_server.url]) == 2
    assert "--board-prefix is for a TRF file" in capsys.readouterr().err
    client.close()
