"""The Hub client against a scripted mock engine (tests/firmware_host/mock_hub_engine.py).

Positions and moves in the dialogues are written out by hand here (square numbers as on the
international board), not produced by the code under test.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine import Board
from engine.search import Limit, StopToken
from firmware_host.opponents.hub.client import (
    HubEngine,
    HubEngineDied,
    HubEngineError,
    HubTimeout,
    limit_to_level,
    search_budget,
)
from firmware_host.opponents.hub.config import HubEngineConfig, config_from_settings
from firmware_host.opponents.hub.process import HubProcess
from firmware_host.opponents.hub.protocol import Level, SearchInfo
from firmware_host.opponents.opponent import BuiltinOpponent, HubOpponent, Opponent

MOCK = str(Path(__file__).resolve().parents[2] / "mock_hub_engine.py")
START = "W" + "b" * 20 + "e" * 10 + "w" * 20

HANDSHAKE: list[list[Any]] = [
    ["expect", "hub"],
    ["send", 'id name=Mock version=1.0 author="Test Author" country=Nowhere'],
    ["send", 'param name=variant value=normal type=enum values="normal killer bt frisian losing"'],
    ["send", "param name=book value=true type=bool"],
    ["send", "param name=threads value=1 type=int min=1 max=16"],
    ["send", "wait"],
]
SET_BOOK = [["expect", "set-param name=book value=false"]]
INIT = [["expect", "init"], ["send", "loading tables"], ["send", "ready"]]


def pos_ok(position: str = START, moves: str | None = None) -> list[list[Any]]:
    line = f"pos pos={position}" + (f' moves="{moves}"' if moves else "")
    return [["expect", line], ["expect", "ping"], ["send", "pong"]]


def hub_position(white: dict[int, bool], black: dict[int, bool], turn: str = "W") -> str:
    """A Hub position from square numbers (1..50) -> is king."""
    chars = ["e"] * 50
    for squares, man, king in ((white, "w", "W"), (black, "b", "B")):
        for number, is_king in squares.items():
            chars[number - 1] = king if is_king else man
    return turn + "".join(chars)


Factory = Callable[..., tuple[HubEngine, Callable[[], list[str]]]]


@pytest.fixture
def scripted(tmp_path: Path) -> Any:
    """Make a HubEngine whose program is the mock playing ``runs``; yields (engine, transcript)."""
    engines: list[HubEngine] = []

    def make(runs: list[list[list[Any]]], **overrides: Any) -> tuple[HubEngine,
                                                                     Callable[[], list[str]]]:
        script = tmp_path / f"script{len(engines)}.json"
        transcript = tmp_path / f"transcript{len(engines)}.txt"
        script.write_text(json.dumps({"runs": runs}))
        settings: dict[str, Any] = {
            "command": (sys.executable, MOCK, str(script), str(transcript)),
            "params": {"book": "false"},
            "handshake_timeout": 10.0, "init_timeout": 10.0, "reply_timeout": 10.0,
            "search_timeout": 10.0, "search_margin": 0.0, "stop_timeout": 10.0,
            "quit_timeout": 10.0,
        }
        settings.update(overrides)
        engine = HubEngine(HubEngineConfig(**settings))
        engines.append(engine)
        return engine, lambda: transcript.read_text().splitlines()

    yield make
    for engine in engines:
        engine.close()


def test_plays_a_move_after_the_handshake(scripted: Factory) -> None:
    run = [*HANDSHAKE, *SET_BOOK, *INIT, *pos_ok(),
           ["expect", "level move-time=0.5"], ["expect", "go think"],
           ["send", 'info depth=12 mean-depth=11.5 score=0.25 nodes=4000 time=0.4 nps=0.01 '
                    'pv="32-28 19-23"'],
           ["send", "done move=32-28 ponder=19-23"]]
    engine, transcript = scripted([run])
    result = engine.play(Board("international"), Limit(movetime=0.5))
    assert result.move.key() == (31, 27, frozenset())
    assert result.ponder == "19-23"
    assert result.info == SearchInfo(12, 11.5, 0.25, 4000, 0.4, 0.01, ("32-28", "19-23"))
    assert not result.stopped
    assert engine.engine_id["author"] == "Test Author"
    assert set(engine.params) == {"variant", "book", "threads"}
    engine.close()
    assert transcript() == [
        "0 start", "0< hub", "0< set-param name=book value=false", "0< init",
        f"0< pos pos={START}", "0< ping", "0< level move-time=0.5", "0< go think", "0< quit",
    ]


def test_capture_from_the_engine(scripted: Factory) -> None:
    position = hub_position({28: False, 46: True}, {23: False, 5: True})
    run = [*HANDSHAKE, *SET_BOOK, *INIT, *pos_ok(position), ["expect", "level depth=6"],
           ["expect", "go think"], ["send", "done move=28x19x23"]]
    engine, _ = scripted([run])
    result = engine.play(Board("international", fen="W:WK46,28:B23,K5"), Limit(depth=6))
    assert result.move.key() == (27, 18, frozenset({22}))
    assert result.ponder is None and result.info == SearchInfo()


def test_pos_sends_the_moves_the_draw_rules_count(scripted: Factory) -> None:
    # 50-45 (a man's move: no repetition crosses it, but the 5- and 16-move counts would), then
    # king moves 4-9 46-41 9-13; no capture yet, so the game from its start.
    start = hub_position({46: True, 50: False}, {4: True, 1: False}, turn="W")
    run = [*HANDSHAKE, *SET_BOOK, *INIT, *pos_ok(start, "50-45 4-9 46-41 9-13"),
           ["expect", "level depth=2"], ["expect", "go think"], ["send", "done move=45-40"]]
    engine, _ = scripted([run])
    board = Board("international", fen="W:WK46,50:BK4,1")
    for origin, destination in ((50, 45), (4, 9), (46, 41), (9, 13)):
        board.push(board.find_move(origin - 1, destination - 1))
    result = engine.play(board, Limit(depth=2))
    assert result.move.key() == (44, 39, frozenset())


def test_malformed_and_unknown_engine_lines_are_skipped(scripted: Factory) -> None:
    run = [*HANDSHAKE, *SET_BOOK, *INIT, *pos_ok(),
           ["expect", "level depth=2"], ["expect", "go think"],
           ["send", 'info pv="32-28'], ["send", "=oops"], ["send", ""], ["send", "\x01\x02"],
           ["send", "bogus x=1"], ["send", "info depth=x score=0.1"],
           ["send", "error message=\"something odd\""],
           ["send", "done move=32-28"]]
    engine, _ = scripted([run])
    result = engine.play(Board(), Limit(depth=2))
    assert result.move.key() == (31, 27, frozenset())
    assert result.info.score == 0.1 and result.info.depth is None


def test_handshake_timeout_kills_and_next_call_restarts(scripted: Factory) -> None:
    silent = [["expect", "hub"], ["hang"]]
    good = [*HANDSHAKE, *SET_BOOK, *INIT, ["expect", "ping"], ["send", "pong"]]
    engine, transcript = scripted([silent, good], handshake_timeout=0.3)
    with pytest.raises(HubTimeout):
        engine.ping()
    engine.ping()
    assert engine.starts == 2
    assert transcript()[:4] == ["0 start", "0< hub", "1 start", "1< hub"]


def test_a_crash_during_the_search_restarts_it_and_searches_the_move_again(
        scripted: Factory, caplog: pytest.LogCaptureFixture) -> None:
    crash = [*HANDSHAKE, *SET_BOOK, *INIT, *pos_ok(), ["expect", "level depth=3"],
             ["expect", "go think"], ["exit", 1]]
    good = [*HANDSHAKE, *SET_BOOK, *INIT, *pos_ok(), ["expect", "level depth=3"],
            ["expect", "go think"], ["send", "done move=34-29"]]
    engine, transcript = scripted([crash, good])
    with caplog.at_level(logging.WARNING, logger="firmware_host.opponents.hub"):
        result = engine.play(Board(), Limit(depth=3))  # the game does not lose its move
    assert result.move.key() == (33, 28, frozenset())
    assert engine.starts == 2
    assert "1< set-param name=book value=false" in transcript()
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and "exit code 1" in said[0] and "searching the move again" in said[0]


def test_an_engine_that_dies_in_every_search_is_an_error(scripted: Factory) -> None:
    crash = [*HANDSHAKE, *SET_BOOK, *INIT, *pos_ok(), ["expect", "level depth=3"],
             ["expect", "go think"], ["exit", 1]]
    engine, _ = scripted([crash])
    with pytest.raises(HubEngineDied, match="exit code 1"):
        engine.play(Board(), Limit(depth=3))
    assert engine.starts == 2  # searched once more, not for ever


def test_an_engine_found_dead_before_the_search_is_restarted_for_the_same_move(
        scripted: Factory) -> None:
    # It dies between two moves, unseen: the next request finds out at "pos"/"ping" and asks a
    # new process for the same move (the game must not lose a move to it).
    died = [*HANDSHAKE, *SET_BOOK, *INIT, ["expect", f"pos pos={START}"], ["exit", 1]]
    good = [*HANDSHAKE, *SET_BOOK, *INIT, *pos_ok(), ["expect", "level depth=3"],
            ["expect", "go think"], ["send", "done move=35-30"]]
    engine, transcript = scripted([died, good])
    result = engine.play(Board(), Limit(depth=3))
    assert result.move.key() == (34, 29, frozenset())
    assert engine.starts == 2
    assert transcript().count("1< set-param name=book value=false") == 1


def test_an_engine_that_dies_before_every_search_is_an_error(scripted: Factory) -> None:
    died = [*HANDSHAKE, *SET_BOOK, *INIT, ["expect", f"pos pos={START}"], ["exit", 1]]
    engine, _ = scripted([died])
    with pytest.raises(HubEngineDied, match="exit code 1"):
        engine.play(Board(), Limit(depth=3))
    assert engine.starts == 2  # tried once more, not for ever


def test_why_the_engine_quit_is_in_the_error(scripted: Factory) -> None:
    run = [*HANDSHAKE, *SET_BOOK, ["expect", "init"], ["send", "init eval"],
           ["stderr", 'unable to open file "data/eval"'], ["exit", 1]]
    engine, _ = scripted([run])
    with pytest.raises(HubEngineDied, match=r'exit code 1.*unable to open file "data/eval"'):
        engine.ping()


def test_writing_to_an_engine_that_has_exited_says_how_it_ended() -> None:
    # The race behind an intermittent failure: the engine exits between two lines, the
    # client's next write meets a closed pipe before its reader sees the end of the output.
    # The error must still carry the exit code and the last words, not "Broken pipe".
    program = "import sys; print('out of memory', file=sys.stderr); sys.exit(3)"
    process = HubProcess([sys.executable, "-c", program])
    try:
        assert process._popen.wait(timeout=30) == 3  # exited before the write, every time
        with pytest.raises(HubEngineDied, match=r"exited \(exit code 3\): out of memory"):
            process.send("pos pos=" + START)
    finally:
        process.close()


def test_no_move_even_after_stop_is_a_timeout(scripted: Factory) -> None:
    stuck = [*HANDSHAKE, *SET_BOOK, *INIT, *pos_ok(), ["expect", "level depth=20"],
             ["expect", "go think"], ["hang"]]
    good = [*HANDSHAKE, *SET_BOOK, *INIT, ["expect", "ping"], ["send", "pong"]]
    engine, transcript = scripted([stuck, good], search_timeout=0.2, stop_timeout=0.2)
    with pytest.raises(HubTimeout, match="after stop"):
        engine.play(Board(), Limit(depth=20))
    assert "0< stop" in transcript()
    engine.ping()  # the stuck process was killed; a new one answers
    assert engine.starts == 2


def test_time_limit_sends_stop_and_returns_the_move(scripted: Factory) -> None:
    run = [*HANDSHAKE, *SET_BOOK, *INIT, *pos_ok(), ["expect", "level move-time=0.05"],
           ["expect", "go think"], ["until", "stop"], ["send", "done move=31-26"]]
    engine, _ = scripted([run], search_margin=0.05)
    result = engine.play(Board(), Limit(movetime=0.05))
    assert result.stopped and result.move.key() == (30, 25, frozenset())


def test_stop_token_interrupts_the_search(scripted: Factory) -> None:
    run = [*HANDSHAKE, *SET_BOOK, *INIT, *pos_ok(), ["expect", "level depth=30"],
           ["expect", "go think"], ["send", "info depth=1 score=0"], ["until", "stop"],
           ["send", "done move=33-29"]]
    engine, _ = scripted([run])
    token = StopToken()
    result = engine.play(Board(), Limit(depth=30), stop=token, on_info=lambda _: token.stop())
    assert result.stopped and result.move.key() == (32, 28, frozenset())


def test_rejected_position_is_an_error(scripted: Factory) -> None:
    run = [*HANDSHAKE, *SET_BOOK, *INIT, ["expect", f"pos pos={START}"],
           ["send", 'error message="bad position"'], ["expect", "ping"], ["send", "pong"]]
    engine, _ = scripted([run])
    with pytest.raises(HubEngineError, match=r"rejected the position.*bad position"):
        engine.play(Board(), Limit(depth=3))


def test_illegal_move_from_the_engine_is_refused(scripted: Factory) -> None:
    run = [*HANDSHAKE, *SET_BOOK, *INIT, *pos_ok(), ["expect", "level depth=3"],
           ["expect", "go think"], ["send", "done move=32-26"]]
    engine, _ = scripted([run])
    with pytest.raises(HubEngineError, match="'32-26', not legal"):
        engine.play(Board(), Limit(depth=3))


def test_engine_without_the_variant_is_refused(scripted: Factory) -> None:
    engine, transcript = scripted([[*HANDSHAKE, ["hang"]]])
    with pytest.raises(HubEngineError, match="does not play russian"):
        engine.play(Board("russian"), Limit(depth=3))
    assert not any("set-param" in line or "init" in line for line in transcript())


def test_variant_change_restarts_with_the_variant_parameter(scripted: Factory) -> None:
    first = [*HANDSHAKE, *SET_BOOK, *INIT, *pos_ok(), ["expect", "level depth=1"],
             ["expect", "go think"], ["send", "done move=32-28"]]
    losing = [*HANDSHAKE, ["expect", "set-param name=variant value=losing"], *SET_BOOK, *INIT,
              *pos_ok(), ["expect", "level depth=1"], ["expect", "go think"],
              ["send", "done move=32-28"]]
    engine, transcript = scripted([first, losing])
    engine.play(Board("international"), Limit(depth=1))
    result = engine.play(Board("international-giveaway"), Limit(depth=1))
    assert result.move.key() == (31, 27, frozenset())
    assert engine.starts == 2 and "0< quit" in transcript()


def test_configured_parameters_are_checked_against_the_declaration(scripted: Factory) -> None:
    engine, _ = scripted([[*HANDSHAKE, ["hang"]]], params={"hash": "64"})
    with pytest.raises(HubEngineError, match="no parameter 'hash'; it has: book, threads"):
        engine.ping()
    engine, _ = scripted([[*HANDSHAKE, ["hang"]]], params={"book": "yes"})
    with pytest.raises(HubEngineError, match="book='yes': must be true or false"):
        engine.ping()
    engine, _ = scripted([[*HANDSHAKE, ["hang"]]], params={"threads": "99"})
    with pytest.raises(HubEngineError, match=r"threads='99': must be an integer in \[1, 16\]"):
        engine.ping()


def test_missing_program_is_a_clear_error(tmp_path: Path) -> None:
    engine = HubEngine(HubEngineConfig(command=(str(tmp_path / "no-such-scan"), "hub")))
    with pytest.raises(HubEngineError, match="cannot start hub engine"):
        engine.ping()
    engine.close()
    engine.close()


def test_config_is_validated() -> None:
    with pytest.raises(ValueError, match="argv"):
        HubEngineConfig(command=())
    with pytest.raises(ValueError, match="reply_timeout"):
        HubEngineConfig(command=("scan",), reply_timeout=0)
    with pytest.raises(ValueError, match="variant"):
        HubEngine(HubEngineConfig(command=("scan",), params={"variant": "normal"}))


def test_every_line_is_logged_at_debug(scripted: Factory, caplog: pytest.LogCaptureFixture) -> None:
    engine, _ = scripted([[*HANDSHAKE, *SET_BOOK, *INIT, ["expect", "ping"], ["send", "pong"]]])
    with caplog.at_level(logging.DEBUG, logger="firmware_host"):
        engine.ping()
    lines = [r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG]
    assert any(m.endswith("<< hub") for m in lines)
    assert any(m.endswith(">> wait") for m in lines)
    assert any(m.endswith("<< set-param name=book value=false") for m in lines)
    assert any(m.endswith(">> pong") for m in lines)


@pytest.mark.parametrize(("limit", "level"), [
    (Limit(depth=8), Level(depth=8)),
    (Limit(nodes=5000), Level(nodes=5000)),
    (Limit(movetime=2.5), Level(move_time=2.5)),
    (Limit(time_left=60.0, increment=2.0), Level(time=58.0, inc=2.0)),
    (Limit(time_left=1.0, increment=2.0), Level(time=0.0, inc=2.0)),
    (Limit(time_left=30.0), Level(time=30.0)),
    (Limit(), Level(move_time=1.0)),
])
def test_limit_to_level(limit: Limit, level: Level) -> None:
    assert limit_to_level(limit, default_movetime=1.0) == level


def test_hub_opponent_reports_like_the_builtin_one(scripted: Factory) -> None:
    run = [*HANDSHAKE, *SET_BOOK, *INIT, *pos_ok(), ["expect", "level depth=4"],
           ["expect", "go think"],
           ["send", 'info depth=4 score=-0.37 nodes=999 pv="32-28 19-23 28x19x23"'],
           ["send", "done move=32-28 ponder=19-23"]]
    engine, _ = scripted([run])
    with HubOpponent(engine) as opponent:
        assert isinstance(opponent, Opponent)
        result = opponent.best_move(Board(), Limit(depth=4))
        assert opponent.name == "Mock 1.0"
    assert (result.score, result.depth, result.nodes) == (-37, 4, 999)
    assert [m.key() for m in result.pv] == [(31, 27, frozenset()), (18, 22, frozenset()),
                                            (27, 18, frozenset({22}))]


def test_builtin_opponent_plays_legal_moves() -> None:
    with BuiltinOpponent(seed=3) as opponent:
        assert isinstance(opponent, Opponent) and opponent.name == "draughtsboard"
        board = Board("russian")
        result = opponent.best_move(board, Limit(depth=2))
        assert result.move in board.legal_moves
        over = Board("international", fen="W:W:B1")
        assert opponent.best_move(over, Limit(depth=2)).move is None


def test_close_from_another_thread_ends_a_running_search(scripted: Factory) -> None:
    run = [*HANDSHAKE, *SET_BOOK, *INIT, *pos_ok(), ["expect", "level depth=30"],
           ["expect", "go think"], ["send", "info depth=1"], ["hang"]]
    engine, _ = scripted([run])
    closer = threading.Thread(target=engine.close, name="closer")
    with pytest.raises(HubEngineDied):
        engine.play(Board(), Limit(depth=30), on_info=lambda _: closer.start())
    closer.join()
    with pytest.raises(HubEngineError, match="closed"):
        engine.play(Board(), Limit(depth=30))


def test_config_from_settings(tmp_path: Path) -> None:
    program = tmp_path / "scan"
    config = config_from_settings({
        "hub_command": [str(program), "hub"], "hub_cwd": "", "hub_params": {
            "book": True, "threads": 2}, "hub_timeout_s": 3, "hub_init_timeout_s": 60.0,
        "level": 5})
    assert config.command == (str(program), "hub") and config.cwd == str(tmp_path)
    assert dict(config.params) == {"book": "true", "threads": "2"}
    assert (config.reply_timeout, config.init_timeout) == (3.0, 60.0)
    assert config.search_timeout == HubEngineConfig(command=("x",)).search_timeout
    assert config_from_settings({"hub_command": ["scan", "hub"]}).cwd is None
    for bad, error in (({}, "hub_command must be a list"),
                       ({"hub_command": "scan hub"}, "hub_command must be a list"),
                       ({"hub_command": ["scan"], "hub_params": ["book"]}, "hub_params"),
                       ({"hub_command": ["scan"], "hub_timeout_s": "soon"}, "reply_timeout"),
                       ({"hub_command": ["scan"], "hub_stop_timeout_s": 0}, "stop_timeout")):
        with pytest.raises(ValueError, match=error):
            config_from_settings(bad)


def test_config_keys_are_the_schemas_and_so_are_the_defaults() -> None:
    from dataclasses import fields

    from firmware_host.config.schema import options_by_path
    from firmware_host.opponents.hub.config import CONFIG_KEYS

    schema = options_by_path()
    defaults = {f.name: f.default for f in fields(HubEngineConfig)}
    for key, name in CONFIG_KEYS.items():
        option = schema[f"engine.{key}"]
        if option.kind == "float":
            assert defaults[name] == option.default, key


def test_client_drives_our_own_hub_server_in_several_variants() -> None:
    command = (sys.executable, "-m", "firmware_host.cli", "engine", "--hub")
    config = HubEngineConfig(command=command, params={"level": "10", "tt-size": "4"})
    with HubOpponent(HubEngine(config)) as opponent, BuiltinOpponent() as builtin:
        for variant in ("international", "russian", "english", "international-giveaway"):
            board = Board(variant)
            while not board.is_game_over() and len(board.move_stack) < 30:
                player = opponent if len(board.move_stack) % 2 == 0 else builtin
                result = player.best_move(board, Limit(depth=2))
                assert result.move in board.legal_moves
                board.push(result.move)
        assert opponent.engine.starts == 4  # one start per variant
        assert opponent.name.startswith("draughtsboard ")


# -- thinking on the opponent's time ----------------------------------------------------------

#: The start position after 32-28 19-23, written out by hand.
REPLY = [*HANDSHAKE, *SET_BOOK, *INIT, *pos_ok(), ["expect", "level move-time=0.5"],
         ["expect", "go think"], ["send", "done move=32-28 ponder=19-23"]]
PONDER = [*pos_ok(START, "32-28 19-23"), ["expect", "level move-time=0.5"],
          ["expect", "go ponder"], ["send", 'info depth=9 nodes=5000 pv="28x19x23"']]


def game(*moves: str) -> Board:
    board = Board()
    for text in moves:
        board.push(board.parse_move(text))
    return board


def test_a_ponder_hit_answers_from_the_search_under_way(scripted: Factory) -> None:
    run = [*REPLY, *PONDER, ["expect", "ponder-hit"],
           ["send", 'info depth=10 nodes=9000 pv="28x19x23"'], ["send", "done move=28x19x23"]]
    engine, transcript = scripted([run])
    first = engine.play(Board(), Limit(movetime=0.5))
    assert first.ponder == "19-23" and not first.hit
    assert engine.ponder(game("32-28", "19-23"), Limit(movetime=0.5))
    assert engine.pondering
    result = engine.play(game("32-28", "19-23"), Limit(movetime=0.5))
    assert result.hit and result.move.key() == (27, 18, frozenset({22}))
    assert result.info.depth == 10 and not engine.pondering
    lines = transcript()
    assert lines[lines.index("0< go ponder") + 1] == "0< ponder-hit"  # no new pos, no new go


def test_a_ponder_miss_stops_it_and_searches_the_position_played(scripted: Factory) -> None:
    run = [*REPLY, *PONDER, ["expect", "stop"], ["send", "done move=28x19x23"],
           *pos_ok(START, "32-28 18-22"), ["expect", "level move-time=0.5"], ["expect", "go think"],
           ["send", "done move=33-29"]]
    engine, transcript = scripted([run])
    engine.play(Board(), Limit(movetime=0.5))
    assert engine.ponder(game("32-28", "19-23"), Limit(movetime=0.5))
    result = engine.play(game("32-28", "18-22"), Limit(movetime=0.5))
    assert not result.hit and result.move.key() == (32, 28, frozenset())
    assert "0< stop" in transcript()


def test_a_new_limit_is_a_miss_too(scripted: Factory) -> None:
    run = [*REPLY, *PONDER, ["expect", "stop"], ["send", "done move=28x19x23"],
           *pos_ok(START, "32-28 19-23"), ["expect", "level depth=3"], ["expect", "go think"],
           ["send", "done move=28x19x23"]]
    engine, _ = scripted([run])
    engine.play(Board(), Limit(movetime=0.5))
    assert engine.ponder(game("32-28", "19-23"), Limit(movetime=0.5))
    assert not engine.play(game("32-28", "19-23"), Limit(depth=3)).hit


def test_an_engine_that_died_while_pondering_is_started_again_for_the_move(
        scripted: Factory) -> None:
    died = [*REPLY, *PONDER, ["exit", 1]]
    good = [*HANDSHAKE, *SET_BOOK, *INIT, *pos_ok(START, "32-28 19-23"),
            ["expect", "level move-time=0.5"], ["expect", "go think"],
            ["send", "done move=28x19x23"]]
    engine, _ = scripted([died, good])
    engine.play(Board(), Limit(movetime=0.5))
    assert engine.ponder(game("32-28", "19-23"), Limit(movetime=0.5))
    result = engine.play(game("32-28", "19-23"), Limit(movetime=0.5))
    assert result.move.key() == (27, 18, frozenset({22})) and engine.starts == 2


def test_nothing_is_pondered_before_the_engine_runs(scripted: Factory) -> None:
    engine, _ = scripted([[*HANDSHAKE, *SET_BOOK, *INIT]])
    assert not engine.ponder(game("32-28", "19-23"), Limit(movetime=0.5))
    assert engine.starts == 0


def test_a_parameter_set_meanwhile_goes_before_the_next_search(scripted: Factory) -> None:
    run = [*HANDSHAKE, *SET_BOOK, *INIT, ["expect", "set-param name=threads value=2"],
           *pos_ok(), ["expect", "level depth=3"], ["expect", "go think"],
           ["send", "done move=34-29"]]
    engine, _ = scripted([run])
    engine.start("international")
    engine.configure({"threads": "2"})  # never blocks: a search may be running
    assert engine.play(Board(), Limit(depth=3)).move.key() == (33, 28, frozenset())
    with pytest.raises(ValueError, match="variant"):
        engine.configure({"variant": "russian"})


def test_a_parameter_set_meanwhile_is_sent_at_every_start(scripted: Factory) -> None:
    with_threads = [*HANDSHAKE, *SET_BOOK, ["expect", "set-param name=threads value=2"], *INIT,
                    *pos_ok(), ["expect", "level depth=3"], ["expect", "go think"]]
    engine, _ = scripted([[*with_threads, ["exit", 1]],
                          [*with_threads, ["send", "done move=34-30"]]])
    engine.configure({"threads": "2"})
    assert engine.play(Board(), Limit(depth=3)).move.key() == (33, 29, frozenset())
    assert engine.starts == 2


def test_the_builtin_engines_process_is_sent_its_whole_limit(scripted: Factory) -> None:
    run = [*HANDSHAKE, *SET_BOOK, *INIT, *pos_ok(), ["expect", "level depth=5 move-time=0.6"],
           ["expect", "go think"], ["send", "done move=31-26"]]
    engine, _ = scripted([run], builtin=True)
    assert engine.play(Board(), Limit(depth=5, movetime=0.6)).move.key() == (30, 25, frozenset())


def test_the_builtin_engines_cpu_seconds_are_waited_for_twice_on_the_wall() -> None:
    # Its time a move is CPU time, which takes up to twice as long on the wall when the
    # machine is busy: stop is sent only after that (a Hub engine's is its own wall time).
    hub = HubEngineConfig(command=("scan", "hub"), search_margin=0.5)
    builtin = HubEngineConfig(command=("draughtsboard",), search_margin=0.5, builtin=True)
    limit = Limit(movetime=0.6)
    assert search_budget(limit, Level(move_time=0.6), hub) == pytest.approx(1.1)
    assert search_budget(limit, Level(move_time=0.6), builtin) == pytest.approx(1.7)
