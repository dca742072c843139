"""bench/match.py without Scan or py-draughts: the score and Elo arithmetic against values worked
out by hand, the game loop (colours swapped on one opening, the ply cap, the end by the rules,
the referee) with scripted players, and both peer drivers against scripted stand-ins that speak
their line protocols."""

from __future__ import annotations

import doctest
import hashlib
import json
import math
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import bench.match as match
from bench.match import Game, Referee, RefereeError, Setting, play_game, run_match
from bench.players import (
    EnginePlayer,
    MoveStats,
    PeerError,
    ScanHub1Player,
    TurboPlayer,
    scan_move,
    scan_position,
)
from bench.tally import Tally
from engine import Board, Move
from engine.search import Limit
from engine.types import BLACK, WHITE


class FirstMove:
    """Plays the first legal move (in square order); remembers the colours and boards it saw."""

    def __init__(self, name: str = "first") -> None:
        self.name = name
        self.stats = MoveStats()
        self.colours: list[int] = []
        self.games = 0
        self.closed = False

    def new_game(self) -> None:
        self.games += 1

    def choose(self, board: Board) -> Move:
        self.colours.append(int(board.turn))
        return min(board.legal_moves, key=lambda m: (m.origin, m.destination, m.captures))

    def close(self) -> None:
        self.closed = True


class Illegal(FirstMove):
    """Plays a move that does not exist."""

    def choose(self, board: Board) -> Move:
        return Move(origin=0, destination=1, path=(1,))


def test_doctests() -> None:
    assert doctest.testmod(match).failed == 0


@pytest.mark.parametrize(("tally", "score", "elo", "error"), [
    # +6 =4 -2: s = 8/12; Elo = 400 log10 2 = 120.41; per-game variance (6 (1/3)^2 + 4 (1/6)^2
    # + 2 (2/3)^2) / 12 = 0.13889, se = sqrt(0.13889 / 12) = 0.10758; s +- 1.96 se = 0.87753 and
    # 0.45581, i.e. Elo 342.1 and -30.8: half the width 186.4.
    (Tally(6, 4, 2), 0.66667, 120.41, 186.44),
    (Tally(3, 0, 1), 0.75, 190.85, None),   # 400 log10 3
    (Tally(0, 10, 0), 0.5, 0.0, 0.0),       # all draws: no spread
    (Tally(1, 0, 3), 0.25, -190.85, None),
])
def test_score_and_elo(tally: Tally, score: float, elo: float, error: float | None) -> None:
    assert tally.score == pytest.approx(score, abs=1e-5)
    assert tally.elo == pytest.approx(elo, abs=0.01)
    if error is not None:
        assert tally.elo_error == pytest.approx(error, abs=0.01)


def test_an_interval_that_reaches_100_percent_is_given_by_its_bounds() -> None:
    # +3 =0 -1: se = sqrt((3 (1/4)^2 + (3/4)^2) / 4 / 4) = 0.21651; 0.75 - 1.96 se = 0.32566,
    # Elo -400 log10(1 / 0.32566 - 1) = -126.4; 0.75 + 1.96 se is above 1.
    low, high = Tally(3, 0, 1).elo_interval
    assert low == pytest.approx(-126.45, abs=0.01)
    assert high == math.inf
    assert str(Tally(3, 0, 1)).endswith("Elo +191 (95 %: -126 .. +inf)")


def test_a_clean_sweep_has_no_finite_elo() -> None:
    assert Tally(5, 0, 0).elo == math.inf
    assert Tally(0, 0, 5).elo == -math.inf
    assert str(Tally(0, 0, 5)).endswith("Elo -inf")


def test_tally_counts_points() -> None:
    tally = Tally()
    for points in (1, 0.5, 0.5, 0):
        tally.add(points)
    assert (tally.wins, tally.draws, tally.losses) == (1, 2, 1)
    with pytest.raises(ValueError, match=r"0, 0\.5 or 1"):
        tally.add(0.25)


def test_match_swaps_colours_on_each_opening_and_caps_the_game() -> None:
    peer = FirstMove()
    seen: list[str] = []
    setting = Setting("test", lambda: EnginePlayer("international", Limit(depth=1)),
                      lambda: peer)
    # The opening is 4 plies: a cap of 6 lets each side play one move of its own.
    tally, _ours, _peer = run_match("international", setting, games=4, seed=1, max_plies=6,
                                    referee=Referee("international"), log=seen.append)
    assert (tally.wins, tally.draws, tally.losses) == (0, 4, 0)
    assert all("ply cap 6" in line for line in seen)
    # Ours is white in games 1 and 3, so the peer moves as black there, then as white.
    assert peer.colours == [int(BLACK), int(WHITE)] * 2
    openings = [line.split("opening ")[1] for line in seen]
    assert openings[0] == openings[1] != openings[2] == openings[3]
    assert peer.closed and peer.games == 4


def test_a_game_ends_by_the_rules() -> None:
    start = Board("international", "W:W33:B28")  # white takes the last black man
    game = play_game(start, FirstMove(), FirstMove(), max_plies=100,
                     referee=Referee("international"))
    assert game == Game(winner=int(WHITE), reason="no_moves", plies=1, moves=["33x22"],
                        searches=[None])


def test_the_referee_checks_every_move_with_pydraughts_too() -> None:
    # pydraughts is in the [test] extra: without it this fails (by_pydraughts stays 0).
    referee = Referee("international")
    play_game(Board(), FirstMove(), FirstMove(), max_plies=10, referee=referee)
    assert referee.checked == 10
    assert referee.by_pydraughts == 10


def test_the_referee_stops_an_illegal_move() -> None:
    with pytest.raises(RefereeError, match="illegal move"):
        play_game(Board(), Illegal(), FirstMove(), max_plies=10, referee=Referee("international"))


FAKE_SCAN = """
import os
import sys
from engine import Board
board = None
log = os.environ.get("FAKE_SCAN_LOG")
for line in sys.stdin:
    if log:
        with open(log, "a") as out:
            out.write(line)
    words = line.split()
    if words[0] == "hub":
        print("name Fake Scan"); print("wait")
    elif words[0] == "init":
        print("ready")
    elif words[0] == "ping":
        print("pong")
    elif words[0] == "pos":
        text = words[1]
        squares = {"w": [], "b": []}
        for n, c in enumerate(text[1:], start=1):
            if c != "e":
                squares[c.lower()].append(("K" if c.isupper() else "") + str(n))
        board = Board("international", text[0].upper() + ":W" + ",".join(squares["w"])
                      + ":B" + ",".join(squares["b"]))
    elif words[0] == "move":
        parts = [int(p) - 1 for p in words[1].replace("-", "x").split("x")]
        key = (parts[0], parts[1], frozenset(parts[2:]))
        found = [m for m in board.legal_moves if m.key() == key]
        if found and not os.environ.get("FAKE_SCAN_REFUSES"):
            board.push(found[0])
        else:
            print("error illegal move")
    elif words[0] == "go":
        move = min(board.legal_moves, key=lambda m: (m.origin, m.destination))
        sep = "x" if move.captures else "-"
        caps = "".join("x" + str(c + 1) for c in move.captures)
        print(f"move {move.origin + 1}{sep}{move.destination + 1}{caps}", flush=True)
    elif words[0] == "quit":
        break
    sys.stdout.flush()
"""


def test_scan_driver_speaks_the_first_hub_protocol(tmp_path: Path) -> None:
    script = tmp_path / "fake_scan.py"
    script.write_text(textwrap.dedent(FAKE_SCAN))
    player = ScanHub1Player((sys.executable, str(script)), None, depth=3)
    try:
        assert player.engine_name == "Fake Scan"
        board = Board("international", "W:W33,K46:B28")
        move = player.choose(board)
        assert move.key() == (32, 21, frozenset({27}))  # 33x22, the forced capture
        assert player.stats.moves == 1 and player.stats.depth == 3
    finally:
        player.close()


def _game(plies: int) -> Board:
    board = Board()
    for _ in range(plies):
        board.push(min(board.legal_moves, key=lambda m: (m.destination, m.origin)))
    return board


def _lines_sent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, board: Board,
                depth: int | None = 3, history: bool = True, movetime: float | None = None,
                ) -> tuple[list[str], ScanHub1Player]:
    """The lines a driver sends the stand-in to choose one move of ``board``."""
    script, log = tmp_path / "fake_scan.py", tmp_path / "lines"
    script.write_text(textwrap.dedent(FAKE_SCAN))
    monkeypatch.setenv("FAKE_SCAN_LOG", str(log))
    player = ScanHub1Player((sys.executable, str(script)), None, depth, history=history,
                            movetime=movetime)
    try:
        assert player.choose(board) in board.legal_moves
    finally:
        player.close()
    return log.read_text().splitlines(), player


def test_scan_driver_sends_the_game_from_its_start(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    board = _game(6)
    sent, player = _lines_sent(tmp_path, monkeypatch, board)
    moves = [f"move {scan_move(move)}" for move in board.move_stack]
    start = sent.index(f"pos {scan_position(Board())}")
    assert sent[start:] == [f"pos {scan_position(Board())}", *moves, "ping", "depth 3", "go",
                            "quit"]
    assert player.identity["sees"] == "the game"


def test_scan_driver_sends_the_position_only_when_told(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    board = _game(6)
    sent, player = _lines_sent(tmp_path, monkeypatch, board, depth=None, history=False,
                               movetime=0.25)
    assert player.name == "Scan 0.25 s"
    assert sent[-4:] == [f"pos {scan_position(board)}", "time 250", "go", "quit"]
    assert not any(line.startswith("move ") for line in sent)


def test_a_game_scan_refuses_stops_the_match_with_its_moves(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "fake_scan.py"
    script.write_text(textwrap.dedent(FAKE_SCAN))
    monkeypatch.setenv("FAKE_SCAN_REFUSES", "1")
    board = _game(4)
    player = ScanHub1Player((sys.executable, str(script)), None, depth=3)
    try:
        with pytest.raises(PeerError, match=r"error illegal move in the game from .*: 3"):
            player.choose(board)
    finally:
        player.close()


FAKE_TURBO = """
import sys
from engine import Board
for line in sys.stdin:
    words = line.split()
    if words[0] == "quit":
        break
    board = Board("international", words[2])
    for text in words[3:]:
        head, _, caps = text.partition(":")
        o, d = (int(x) - 1 for x in head.replace("x", "-").split("-"))
        board.push(next(m for m in board.legal_moves if (m.origin, m.destination) == (o, d)))
    if board.ply == 1:
        print("nonsense", flush=True)
        continue
    move = min(board.legal_moves, key=lambda m: (m.origin, m.destination))
    caps = ",".join(str(c + 1) for c in move.captures) or "-"
    print(f"move {move.origin + 1} {move.destination + 1} {caps} 4 100 {words[1]}", flush=True)
"""


def test_turbo_driver_protocol(tmp_path: Path) -> None:
    script = tmp_path / "fake_turbo.py"
    script.write_text(textwrap.dedent(FAKE_TURBO))
    player = TurboPlayer(sys.executable, 0.25, driver=script)
    try:
        board = Board()
        move = player.choose(board)
        assert move in board.legal_moves
        assert (player.stats.moves, player.stats.depth, player.stats.seconds) == (1, 4, 0.25)
        board.push(move)
        with pytest.raises(PeerError, match="nonsense"):
            player.choose(board)  # the stand-in answers nonsense after one move
    finally:
        player.close()


def test_main_without_peers_says_what_it_skipped(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DRAUGHTSBOARD_SCAN", raising=False)
    monkeypatch.delenv("DRAUGHTSBOARD_PY_DRAUGHTS", raising=False)
    assert match.main([]) == 0
    out = capsys.readouterr().out
    assert "scan: skipped, not installed here" in out
    assert "turbo: skipped, not installed here" in out


def test_main_plays_a_scan_stand_in(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "scan"
    script.write_text(f"#!{sys.executable}\n" + textwrap.dedent(FAKE_SCAN))
    script.chmod(0o755)
    out_file = tmp_path / "games.json"
    assert match.main(["--peer", "scan", "--scan", str(script), "--scan-depths", "2",
                       "--games", "2", "--max-plies", "8", "--movetime", "0.01",
                       "--commit", "abc1234", "--out", str(out_file)]) == 0
    record = json.loads(out_file.read_text())
    assert record["commit"] == "abc1234"
    assert [(g["white"], g["black"], g["result"]) for g in record["games"]] == [
        ("draughtsboard 0.01 s", "Scan depth 2", "1/2-1/2"),
        ("Scan depth 2", "draughtsboard 0.01 s", "1/2-1/2")]
    assert all(len(g["moves"]) == 4 for g in record["games"])
    out = capsys.readouterr().out
    assert "commit abc1234" in out
    assert "ours 0.01 s CPU v Scan depth 2: +0 =2 -0   50.0 %  Elo +0 +- 0" in out
    assert "referee: 8 moves checked, 8 also by pydraughts, 0 disagreements" in out
    assert match.main(["--tally", str(out_file), str(out_file)]) == 0  # two runs pool
    assert "draughtsboard 0.01 s v Scan depth 2: +0 =4 -0" in capsys.readouterr().out


def test_each_move_records_its_search_and_a_forced_move_none() -> None:
    """The game record has the mover's [depth, nodes, seconds] a move; FirstMove searches
    nothing (None), our engine searches every move with a choice."""
    start = Board("international", "W:W31,32,33:B18,19,20")
    game = play_game(start, EnginePlayer("international", Limit(depth=2)), FirstMove(),
                     max_plies=6, referee=Referee("international"))
    assert len(game.searches) == len(game.moves) == 6
    ours, theirs = game.searches[0::2], game.searches[1::2]
    assert all(s is None for s in theirs)
    assert all(s is not None and s[0] == 2 and s[1] > 0 for s in ours if s is not None)
    assert any(s is not None for s in ours)


def test_openings_are_unique_across_seeds() -> None:
    """Two seeds' openings never meet (and none repeats within a seed); each belongs to its
    seed's class."""
    texts: dict[int, list[str]] = {}
    for seed in (0, 1):
        rng, used = random.Random(f"{seed}:international"), set[str]()
        texts[seed] = [match._opening_text(match.seeded_opening("international", rng, seed, used))
                       for _ in range(3)]
        assert len(set(texts[seed])) == 3
        assert {match.opening_class(t) for t in texts[seed]} == {seed}
    assert not set(texts[0]) & set(texts[1])


def test_the_games_file_says_which_engine_and_which_peer(tmp_path: Path) -> None:
    script = tmp_path / "scan"
    script.write_text(f"#!{sys.executable}\n" + textwrap.dedent(FAKE_SCAN))
    script.chmod(0o755)
    out_file = tmp_path / "games.json"
    assert match.main(["--peer", "scan", "--scan", str(script), "--scan-depths", "2",
                       "--games", "2", "--max-plies", "8", "--movetime", "0.01",
                       "--out", str(out_file)]) == 0
    record = json.loads(out_file.read_text())
    head = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                          cwd=Path(__file__).parent, check=True).stdout.strip()
    assert record["engine_commit"] == head
    assert isinstance(record["engine_dirty"], list)
    peer = record["players"]["Scan depth 2"]
    assert peer["engine"] == "Fake Scan" and peer["hello"] == ["name Fake Scan"]
    assert peer["program_sha256"] == hashlib.sha256(script.read_bytes()).hexdigest()
    assert record["players"]["draughtsboard 0.01 s"]["engine"] == "draughtsboard"
    for game in record["games"]:
        assert len(game["search"]) == len(game["moves"])


def test_the_engine_files_changed_are_listed_whole(tmp_path: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=tmp_path,
                       check=True, capture_output=True)

    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "search.py").write_text("a\n")
    (tmp_path / "engine" / "old.py").write_text("b\n")
    git("init", "-q")
    git("add", "engine")
    git("commit", "-q", "-m", "first")
    # A change in the work tree only: git prints " M engine/search.py", a leading space.
    (tmp_path / "engine" / "search.py").write_text("changed\n")
    (tmp_path / "engine" / "new.py").write_text("c\n")
    git("mv", "engine/old.py", "engine/renamed.py")
    record = match.engine_provenance(str(tmp_path))
    assert record["engine_dirty"] == ["engine/new.py", "engine/renamed.py", "engine/search.py"]


def test_main_plays_scan_at_our_time_as_a_row_of_its_own(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    script, log = tmp_path / "scan", tmp_path / "lines"
    script.write_text(f"#!{sys.executable}\n" + textwrap.dedent(FAKE_SCAN))
    script.chmod(0o755)
    monkeypatch.setenv("FAKE_SCAN_LOG", str(log))
    assert match.main(["--peer", "scan", "--scan", str(script), "--scan-depths", "",
                       "--scan-equal-time", "--games", "2", "--max-plies", "8",
                       "--movetime", "0.01"]) == 0
    out = capsys.readouterr().out
    assert "ours 0.01 s CPU v Scan 0.01 s: +0 =2 -0" in out
    assert "Scan sees the game (start and moves)" in out
    sent = log.read_text().splitlines()
    assert "time 10" in sent and not any(line.startswith("depth") for line in sent)
