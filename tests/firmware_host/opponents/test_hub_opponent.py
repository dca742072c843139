"""A Hub engine as the computer: its own strength settings (never engine.level), one `level`
form a search, its name in the PDN, and analyse, demo and hints through it, all against the
scripted engine (tests/firmware_host/mock_hub_engine.py).

Every expected line and move is written out by hand (square numbers of the international
board), not produced by the code under test.
"""

from __future__ import annotations

import io
import json
import shlex
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from board_io.clock import VirtualClock
from engine import Board
from engine.pdn import read_games
from engine.search import Limit
from firmware_host.app.notify import Notifier
from firmware_host.app.service import Wiring, build_service
from firmware_host.cli import main
from firmware_host.config.loader import Config
from firmware_host.errors import ConfigError
from firmware_host.opponents.build import build_opponent, hub_limit
from firmware_host.opponents.hub.client import limit_to_level
from firmware_host.opponents.opponent import HubOpponent
from firmware_host.opponents.worker import SyncEngineWorker
from firmware_host.terms.jobs import EngineJob, Purpose, Reason
from firmware_host.tools.demo import Demo, DemoOptions, Display, run_demo

MOCK = str(Path(__file__).resolve().parents[1] / "mock_hub_engine.py")
START = "W" + "b" * 20 + "e" * 10 + "w" * 20

HANDSHAKE: list[list[Any]] = [
    ["expect", "hub"],
    ["send", "id name=Mock version=2.5 author=Test"],
    ["send", 'param name=variant value=normal type=enum values="normal losing"'],
    ["send", "param name=book value=true type=bool"],
    ["send", "wait"],
]
INIT: list[list[Any]] = [["expect", "init"], ["send", "ready"]]


def search(level: str, move: str, position: str = START, info: str = "info depth=1"
           ) -> list[list[Any]]:
    """One search: the position (ping checked), exactly ``level``, go, and the answer."""
    return [["expect", f"pos pos={position}"], ["expect", "ping"], ["send", "pong"],
            ["expect", level], ["expect", "go think"], ["send", info],
            ["send", f"done move={move}"]]


class Mock:
    """A scripted engine: its command line and what it received."""

    def __init__(self, tmp_path: Path, runs: list[list[list[Any]]], name: str = "mock") -> None:
        script = tmp_path / f"{name}.json"
        self.transcript_path = tmp_path / f"{name}.txt"
        script.write_text(json.dumps({"runs": runs}))
        self.argv = [sys.executable, MOCK, str(script), str(self.transcript_path)]

    def received(self) -> list[str]:
        """The lines received, without the run numbers and the starts."""
        lines = self.transcript_path.read_text().splitlines()
        assert not any(line.startswith("MISMATCH") for line in lines), lines
        return [line.split("< ", 1)[1] for line in lines if "< " in line]

    def levels(self) -> list[str]:
        return [line for line in self.received() if line.startswith("level")]


def hub_config(mock: Mock, tmp_path: Path, **engine: Any) -> Config:
    return Config.from_mapping({
        "engine": {"kind": "hub", "hub_command": mock.argv, **engine},
        "store": {"url": "memory", "games_dir": str(tmp_path / "games")},
    }, source="test.toml")


# -- the level sent -----------------------------------------------------------------------------

@pytest.mark.parametrize(("engine", "level"), [
    ({}, "level move-time=1.0"),  # engine.level = 5 by default: it used to send depth=5 as well
    ({"level": 2}, "level move-time=1.0"),
    ({"level": 9, "hub_movetime_s": 2.5}, "level move-time=2.5"),
    ({"level": 1, "hub_depth": 14}, "level depth=14"),
    ({"hub_nodes": 250000}, "level nodes=250000"),
])
def test_the_hub_engine_searches_at_its_own_settings_never_the_level(
        tmp_path: Path, engine: dict[str, Any], level: str) -> None:
    mock = Mock(tmp_path, [[*HANDSHAKE, *INIT, *search(level, "32-28")]])
    opponent, limit = build_opponent(hub_config(mock, tmp_path, **engine), Board().variant)
    with opponent:
        result = opponent.best_move(Board(), limit)
    assert result.move is not None and result.move.key() == (31, 27, frozenset())
    assert mock.levels() == [level]


@pytest.mark.parametrize(("limit", "line"), [
    (Limit(depth=5, movetime=0.6), "level depth=5"),  # what engine.level = 5 used to give
    (Limit(nodes=900, movetime=2.0), "level nodes=900"),
    (Limit(movetime=0.75), "level move-time=0.75"),
    (Limit(time_left=90.0, increment=5.0), "level time=85.0 inc=5.0"),
    (Limit(time_left=90.0), "level time=90.0"),
])
def test_one_level_form_per_search(limit: Limit, line: str) -> None:
    assert limit_to_level(limit, default_movetime=1.0).to_message().format() == line


def test_a_time_bound_not_sent_is_kept_by_stop(tmp_path: Path) -> None:
    # depth 30 is sent alone; the 0.05 s of the limit is kept by sending stop.
    run = [*HANDSHAKE, *INIT, ["expect", f"pos pos={START}"], ["expect", "ping"],
           ["send", "pong"], ["expect", "level depth=30"], ["expect", "go think"],
           ["until", "stop"], ["send", "done move=31-27"]]
    mock = Mock(tmp_path, [run])
    config = hub_config(mock, tmp_path, hub_search_margin_s=0.0)
    opponent, _ = build_opponent(config, Board().variant)
    assert isinstance(opponent, HubOpponent)
    with opponent:
        played = opponent.engine.play(Board(), Limit(depth=30, movetime=0.05))
    assert played.stopped and played.move.key() == (30, 26, frozenset())


# -- bad settings: one ConfigError each ----------------------------------------------------------

@pytest.mark.parametrize(("engine", "words"), [
    ({"hub_depth": -1}, "engine.hub_depth = -1 is below 0"),
    ({"hub_depth": 100}, "engine.hub_depth = 100 is above 99"),
    ({"hub_nodes": 1.5}, "engine.hub_nodes"),
    ({"hub_movetime_s": 0}, "engine.hub_movetime_s = 0.0 is below 0.01"),
    ({"hub_depth": "deep"}, "engine.hub_depth"),
])
def test_bad_values_are_refused_when_read(tmp_path: Path, engine: dict[str, Any],
                                          words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        Config.from_mapping({"engine": {"kind": "hub", "hub_command": ["scan"], **engine}})


@pytest.mark.parametrize(("engine", "words"), [
    ({"hub_depth": 8, "hub_nodes": 1000},
     r"engine.hub_depth = 8 and engine.hub_nodes = 1000: set only one"),
    ({"hub_depth": 8, "hub_movetime_s": 2.0},
     r"engine.hub_depth = 8 and engine.hub_movetime_s = 2.0: set only one"),
    ({"depth": 6}, r"engine.depth is the built-in engine's; .* set engine.hub_depth instead"),
    ({"movetime_ms": 500}, r"engine.movetime_ms is the built-in engine's"),
])
def test_settings_that_do_not_fit_a_hub_engine(engine: dict[str, Any], words: str) -> None:
    config = Config.from_mapping({"engine": {"kind": "hub", "hub_command": ["scan"], **engine}},
                                 source="board.toml")
    with pytest.raises(ConfigError, match=words) as caught:
        hub_limit(config)
    assert str(caught.value).startswith("board.toml: ")


def test_the_example_files_defaults_do_not_count_as_a_second_bound() -> None:
    # The installed file sets every key, at its default: hub_movetime_s = 1.0, depth = 0.
    config = Config.from_mapping({"engine": {
        "kind": "hub", "hub_command": ["scan"], "hub_depth": 10, "hub_movetime_s": 1.0,
        "depth": 0, "movetime_ms": 0, "level": 5}})
    assert hub_limit(config) == Limit(depth=10)


def test_no_command_and_a_command_that_does_not_start(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r'engine.hub_command is empty: engine.kind = "hub"'):
        build_opponent(Config.from_mapping({"engine": {"kind": "hub"}}), Board().variant)
    missing = Config.from_mapping({"engine": {"kind": "hub",
                                              "hub_command": [str(tmp_path / "scan"), "hub"]}})
    with pytest.raises(ConfigError, match=r"engine\.hub_command: the Hub engine did not start: "
                                          r"cannot start hub engine"):
        build_opponent(missing, Board().variant)


def test_the_service_says_a_bad_hub_setting_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "board.toml"
    path.write_text('[engine]\nkind = "hub"\nhub_command = ["scan", "hub"]\nhub_depth = 6\n'
                    "hub_nodes = 10\n[store]\nurl = \"memory\"\n"
                    f'games_dir = "{tmp_path}"\n')
    proc = subprocess.run([sys.executable, "-m", "firmware_host.cli", "run", "--config",
                           str(path), "--board", "sim"], capture_output=True, text=True,
                          timeout=60, check=False)
    assert proc.returncode == 2
    said = [line for line in proc.stderr.splitlines() if line.startswith("draughtsboard: ")]
    assert said == [f"draughtsboard: {path}: engine.hub_depth = 6 and engine.hub_nodes = 10: "
                    "set only one (the Hub protocol's level is one of depth, nodes or "
                    "move-time)"]
    assert "Traceback" not in proc.stderr


# -- the PDN names the engine --------------------------------------------------------------------

def test_the_pdn_names_the_hub_engine_from_its_id(tmp_path: Path) -> None:
    mock = Mock(tmp_path, [[*HANDSHAKE, *INIT, ["hang"]]])
    config = hub_config(mock, tmp_path, hub_depth=3)
    with ExitStack() as stack:
        clock = VirtualClock()
        service = build_service(config, stack, Wiring(clock=clock, virtual_time=True,
                                                      notifier=Notifier(environ={})))
        while not service.controller.started:  # the game opens at the first full scan
            service.controller.step()
            clock.advance(service.scan_period)
        game_id = service.session.game_id
        assert game_id is not None
        headers = service.store.load_game(game_id).headers
    assert headers["Black"] == "Mock 2.5"  # the human plays white by default
    assert mock.received()[:2] == ["hub", "init"]  # started before the first game


def test_an_engine_without_an_id_is_named_by_its_program(tmp_path: Path) -> None:
    mock = Mock(tmp_path, [[["expect", "hub"], ["send", "wait"], *INIT, ["hang"]]])
    opponent, _ = build_opponent(hub_config(mock, tmp_path), Board().variant)
    with opponent:
        assert opponent.name == Path(sys.executable).name  # the program: python runs the mock


def test_demo_plays_a_hub_engine_and_names_it(tmp_path: Path) -> None:
    # The simulated human (white) moves first, unknown to the script: the start and any first
    # move of white; 19-23 is legal after every one.
    reply = [["match", "pos pos=W[bwe]{50} moves=[0-9]+-[0-9]+"], ["expect", "ping"],
             ["send", "pong"],
             ["expect", "level depth=9"], ["expect", "go think"],
             ["send", "info depth=9 score=0.1"], ["send", "done move=19-23"]]
    mock = Mock(tmp_path, [[*HANDSHAKE, *INIT, *reply]])
    path = tmp_path / "board.toml"
    path.write_text(f'[engine]\nkind = "hub"\nhub_command = {json.dumps(mock.argv)}\n'
                    "hub_depth = 9\n")
    out = tmp_path / "out.txt"
    games = tmp_path / "games"
    with out.open("w") as stream:
        assert run_demo(DemoOptions(plies=2, fast=True, games_dir=str(games),
                                    hub=Config.load(path)), stream) == 0
    text = out.read_text()
    assert "the simulated player (white) against Mock 2.5" in text
    pdn = Path(text.strip().splitlines()[-1].removeprefix("done: PDN written to "))
    [game] = read_games(pdn.read_text(encoding="utf-8"))
    assert game.headers["Black"] == "Mock 2.5"
    assert len(game.moves) == 2
    assert game.moves[1].key() == (18, 22, frozenset())  # 19-23
    assert mock.levels() == ["level depth=9"]


def test_demo_command_line_takes_a_hub_engine(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    reply = [["match", "pos pos=W[bwe]{50} moves=[0-9]+-[0-9]+"], ["expect", "ping"],
             ["send", "pong"],
             ["expect", "level move-time=1.0"], ["expect", "go think"],
             ["send", "done move=19-23"]]
    mock = Mock(tmp_path, [[*HANDSHAKE, *INIT, *reply]])
    assert main(["demo", "--fast", "--moves", "2", "--games-dir", str(tmp_path / "g"),
                 "--hub", shlex.join(mock.argv)]) == 0
    assert "against Mock 2.5" in capsys.readouterr().out


# -- analyse -------------------------------------------------------------------------------------

def test_analyse_through_a_hub_engine(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    info = 'info depth=7 score=0.42 nodes=12345 pv="33-28 18-23"'
    mock = Mock(tmp_path, [[*HANDSHAKE, ["expect", "set-param name=book value=false"], *INIT,
                            *search("level depth=7", "33-28", info=info)]])
    assert main(["analyse", "--variant", "international", "--depth", "7", "--json",
                 "--hub", shlex.join(mock.argv), "--hub-param", "book=false"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("best move 33-28  score +0.42  depth 7  nodes 12345")
    assert lines[1] == "line 33-28 18-23" and lines[2] == "engine Mock 2.5"
    summary = json.loads(lines[-1])
    assert (summary["move"], summary["engine"], summary["depth"]) == ("33-28", "Mock 2.5", 7)
    assert mock.levels() == ["level depth=7"]


def test_analyse_takes_the_hub_engine_from_a_config_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mock = Mock(tmp_path, [[*HANDSHAKE, *INIT, *search("level nodes=5000", "34-30")]])
    path = tmp_path / "board.toml"
    path.write_text(f'[engine]\nkind = "hub"\nhub_command = {json.dumps(mock.argv)}\n'
                    "level = 1\nhub_nodes = 5000\n")
    assert main(["analyse", "--variant", "international", "--config", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["move"] == "34-30"
    assert mock.levels() == ["level nodes=5000"]


@pytest.mark.parametrize(("extra", "words"), [
    (["--level", "3"], "--level is the built-in engine's"),
    (["--hub-param", "book"], "'book' is not NAME=VALUE"),
    (["--depth", "0"], "--depth and --nodes must be 1 or more"),
])
def test_analyse_hub_mistakes_are_one_line(tmp_path: Path, extra: list[str], words: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    mock = Mock(tmp_path, [[*HANDSHAKE, *INIT, ["hang"]]])
    assert main(["analyse", "--variant", "international", "--hub", shlex.join(mock.argv),
                 *extra]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("draughtsboard analyse: ") and words in err[0]


def test_analyse_with_an_engine_that_dies_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = [*HANDSHAKE, *INIT, ["expect", f"pos pos={START}"], ["expect", "ping"],
           ["send", "pong"], ["expect", "level depth=4"], ["expect", "go think"], ["exit", 1]]
    mock = Mock(tmp_path, [run])
    assert main(["analyse", "--variant", "international", "--depth", "4",
                 "--hub", shlex.join(mock.argv)]) == 69  # the engine is unavailable
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "exit code 1" in err[0]


# -- hints ---------------------------------------------------------------------------------------

def test_a_hint_from_the_hub_engine_comes_with_the_reasons_its_line_shows(
        tmp_path: Path) -> None:
    # W:W33,48:B28,17,5 - the only move is 33x11, taking 28 and 17: two men up at once.
    position = "W" + "".join("b" if n in (5, 17, 28) else "w" if n in (33, 48) else "e"
                             for n in range(1, 51))
    mock = Mock(tmp_path, [[*HANDSHAKE, *INIT,
                            *search("level depth=6", "33x11x28x17", position)]])
    opponent, _ = build_opponent(hub_config(mock, tmp_path), Board().variant)
    results: list[Any] = []
    worker = SyncEngineWorker(opponent, Limit(depth=6), VirtualClock())
    worker.post = results.append
    with opponent:
        worker.submit(EngineJob(1, Purpose.HINT, Board("international",
                                                       fen="W:W33,48:B28,17,5")))
    (result,) = results
    assert result.move.key() == (32, 10, frozenset({27, 16}))
    assert result.reasons == (Reason("only_move", 0, 0), Reason("captures", 2, 0),
                              Reason("wins_material", 2, 1))


def test_teach_mode_hints_come_from_the_hub_engine(tmp_path: Path) -> None:
    mock = Mock(tmp_path, [[*HANDSHAKE, *INIT, *search("level depth=5", "35-30")]])
    config = Config.from_mapping({
        "game": {"mode": "teach"},
        "engine": {"kind": "hub", "hub_command": mock.argv, "level": 3, "hub_depth": 5},
        "store": {"url": "memory", "games_dir": str(tmp_path)},
    })
    events: list[dict[str, Any]] = []
    clock = VirtualClock()
    with ExitStack() as stack:
        service = build_service(config, stack, Wiring(clock=clock, virtual_time=True,
                                                      listeners=[events.append],
                                                      notifier=Notifier(environ={})))
        controller = service.controller
        while not controller.started:
            controller.step()
            clock.advance(service.scan_period)
        service.session.command("hint", at=clock.monotonic())
        controller.step()  # the engine answers in place (virtual time): the next event
    [hint] = [e for e in events if e["event"] == "hint"]
    assert hint["pdn"] == "35-30"
    assert mock.levels() == ["level depth=5"]


def test_demo_still_runs_the_builtin_engine_without_hub_options(tmp_path: Path) -> None:
    with ExitStack() as stack:
        demo = Demo(DemoOptions(fast=True, games_dir=str(tmp_path)), stack,
                    Display(io.StringIO(), fast=True), str(tmp_path))
        assert demo.computer == "level 3"
