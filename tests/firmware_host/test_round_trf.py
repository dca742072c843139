"""Pairings from a pairing program's FIDE Tournament Report File (TRF16 columns).

The sample (club-championship.trf, beside this file) is written by hand from the format's
player section: the starting rank in columns 5-8, the name in 15-47, and per round a
ten-column block from column 92 (opponent's rank 92-95, colour 97, result 99).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import redis

from firmware_host.cli import main
from firmware_host.tournament.pairing import load_round, pairing_key
from firmware_host.tournament.trf import is_trf, read_trf
from tests.redis_server import RedisServer

# Round 1 played (results in column 99); round 2 paired, not played: 1-3 and 2-6 play,
# 4 has the pairing-allocated bye (U), 5 wins by forfeit against 7 (+ / -).
SAMPLE = (Path(__file__).parent / "club-championship.trf").read_text(encoding="utf-8")


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
    assert first[0].headers() == {"White": "Smit, Ann", "Black": "Bos, Dirk", "Round": "1",
                                  "Event": "Club championship 2026"}


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
    assert main(["round", "import", str(path), "--store", redis_server.url]) == 1
    assert "--round N" in capsys.readouterr().err
    assert main(["round", "import", str(path), "--round", "2", "--board-prefix", "hall-",
                 "--store", redis_server.url]) == 0
    out = capsys.readouterr().out
    assert "round 2: 2 boards" in out and "hall-1: Jansen, Cor - Smit, Ann" in out
    assert client.hgetall(pairing_key("hall-2")) == {
        b"White": b"de Vries, Bob", b"Black": b"Mol, Fred", b"Round": b"2",
        b"Event": b"Club championship 2026"}
    stored = load_round(client, "2")
    assert stored is not None and [p.board for p in stored] == ["hall-1", "hall-2"]
    csv = tmp_path / "round.csv"
    csv.write_text("board,white,black,round,event\nb1,Ann,Bob,1,\n")
    assert main(["round", "import", str(csv), "--board-prefix", "x",
                 "--store", redis_server.url]) == 1
    assert "--board-prefix is for a TRF file" in capsys.readouterr().err
    client.close()
