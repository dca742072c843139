"""docs/tournament.md's commands run as written: every ``sh`` block's line, in the page's order,
against a real redis-server (the page's ``redis://club-pi:6379/0`` is the test's), with the
files the page names: the pairing list of its first step, the pairing program's TRFs."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import redis

from firmware_host.cli import main
from firmware_host.remote.reader import parse_command
from firmware_host.store.keys import BoardKeys
from tests.firmware_host.tournament.test_club_evening import pair_round_2
from tests.redis_server import RedisServer

pytestmark = pytest.mark.redis

ROOT = Path(__file__).resolve().parents[3]
PAGE = (ROOT / "docs" / "tournament.md").read_text(encoding="utf-8")
HERE = Path(__file__).parent
#: The page's store.
CLUB = "redis://club-pi:6379/0"


def blocks(kind: str) -> list[list[str]]:
    """The page's fenced blocks of ``kind``, each its lines (indentation removed)."""
    found = re.findall(rf"^( *)```{kind}\n(.*?)^\1```", PAGE, flags=re.M | re.S)
    return [[line.strip() for line in text.splitlines() if line.strip()]
            for _, text in found]


def test_every_command_of_the_tournament_page_runs_as_written(
        redis_server: RedisServer, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    client = redis.Redis.from_url(redis_server.url)
    client.flushdb()
    monkeypatch.chdir(tmp_path)
    (tmp_path / "round3.csv").write_text("\n".join(blocks("csv")[0]) + "\n")
    shutil.copy(HERE / "swiss-round-3.trf", tmp_path / "club.trf")
    shutil.copy(HERE / "club-evening.trf", tmp_path / "club-evening.trf")
    redis_cli = shutil.which("redis-cli")
    assert redis_cli is not None, "redis-cli is not installed: apt-get install redis-tools"
    ran = []
    for line in (line for block in blocks("sh") for line in block):
        if line.startswith("redis-cli "):
            words = shlex.split(line.replace('"$(date +%s)"', str(int(time.time()))))
            done = subprocess.run([redis_cli, "-p", str(redis_server.port), *words[1:]],
                                  capture_output=True, text=True, check=False, timeout=30)
            assert done.returncode == 0 and re.fullmatch(r"\d+-\d+\n", done.stdout), line
            ran.append(words[2])
            continue
        words = shlex.split(line.replace(CLUB, redis_server.url))
        assert words[0] == ".venv/bin/draughtsboard", line
        if "club-evening-round-2.trf" in words:   # the pairing program pairs round 2
            (tmp_path / "club-evening-round-2.trf").write_text(pair_round_2(
                (tmp_path / "round-1.trf").read_text()))
        assert main(words[1:]) == 0, (line, capsys.readouterr())
        ran.append(" ".join(words[1:4]))
    capsys.readouterr()
    # The commands written into a board's stream are ones the board takes.
    fields = [f for _, f in client.xrange(BoardKeys("hall-2").commands)]
    assert [parse_command(f, now=time.time())[0] for f in fields] == [
        "pause", "add_time", "resume", "start_round", "correct_move"]
    assert ran == [
        "round import round3.csv", "round export --round", "round import club.trf",
        *[BoardKeys("hall-2").commands] * 5,
        "round import club-evening.trf", "round import club-evening.trf",
        "round export --round", "round import club-evening-round-2.trf",
        "round export --round"]
    assert {p.name for p in tmp_path.glob("round-*")} == {
        f"round-{n}{kind}" for n in (1, 2, 3)
        for kind in (".pdn", ".csv", "-decisions.csv")} | {"round-1.trf", "round-2.trf"}
    client.close()
