"""``draughtsboard engine --hub``: the built-in engine behind the Hub protocol.

In-process tests drive :class:`HubServer` line by line; the game test runs the real command as a
subprocess driven by pydraughts' Hub client, and checks every move with our rules and theirs.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import draughts
import draughts.engine
import pytest

from engine import Board, Move
from engine.clock import SearchClock
from engine.draw import DRAW_RULES, RepetitionRule
from engine.search import Limit
from firmware_host.opponents.hub.notation import move_from_hub, move_to_hub
from firmware_host.opponents.hub.protocol import Level, SearchInfo, parse_line
from firmware_host.opponents.hub.server import HubServer, level_to_limit
from tests.conftest import sample_size

COMMAND = [sys.executable, "-m", "firmware_host.cli", "engine", "--hub"]
#: pydraughts resolves the first word's symlinks, which would leave the virtualenv's python for
#: the interpreter it links to (without our dependencies): start it through env instead.
PYDRAUGHTS_COMMAND = ["/usr/bin/env", *COMMAND]
START = "W" + "b" * 20 + "e" * 10 + "w" * 20


class Recorder:
    """Collects the server's lines; lets a test wait for a command without sleeping."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._changed = threading.Condition()

    def __call__(self, line: str) -> None:
        with self._changed:
            self.lines.append(line)
            self._changed.notify_all()

    def wait_for(self, command: str, timeout: float = 30.0) -> str:
        with self._changed:
            found = self._changed.wait_for(
                lambda: any(parse_line(line).command == command for line in self.lines), timeout)
            assert found, f"no {command!r} in {self.lines}"
            return next(line for line in self.lines if parse_line(line).command == command)

    def wait_for_count(self, command: str, after: int, timeout: float = 30.0,
                       depth: int | None = None) -> None:
        """Wait for a ``command`` line past the first ``after`` lines (an ``info`` of at least
        ``depth``)."""
        def seen() -> bool:
            for line in self.lines[after:]:
                msg = parse_line(line)
                if msg.command == command and (depth is None or int(msg.get("depth") or 0)
                                               >= depth):
                    return True
            return False

        with self._changed:
            assert self._changed.wait_for(seen, timeout), f"no {command!r} in {self.lines}"

    def take(self) -> list[str]:
        with self._changed:
            lines, self.lines = self.lines, []
            return lines


@pytest.fixture
def server() -> Iterator[tuple[HubServer, Recorder]]:
    out = Recorder()
    hub = HubServer(out)
    yield hub, out
    hub.close()


def test_handshake_declares_what_we_support(server: tuple[HubServer, Recorder]) -> None:
    hub, out = server
    assert hub.handle("hub")
    lines = [parse_line(line) for line in out.take()]
    assert lines[0].command == "id" and lines[0].get("name") == "draughtsboard"
    assert lines[-1].command == "wait"
    params = {m.get("name"): m for m in lines if m.command == "param"}
    variants = (params["variant"].get("values") or "").split()
    assert params["variant"].get("value") == "normal"
    assert {"normal", "losing", "russian", "english", "brazilian"} <= set(variants)
    assert {"bt", "frisian", "killer", "frysk", "czech", "portuguese"} <= set(variants)
    assert not {"international", "breakthrough"} & set(variants)  # under Scan's names
    assert params["level"].get("max") == "10"
    hub.handle("init")
    assert out.take() == ["ready"]


@pytest.mark.parametrize(("line", "error"), [
    ("bogus x=1", "unknown command 'bogus'"),
    ('pos pos="Wbb', "missing closing quote"),
    ("set-param name=variant value=spantsiretti", "'spantsiretti' is not supported"),
    ("set-param name=level value=11", "bad value '11' for level"),
    ("set-param name=level value=strong", "bad value 'strong' for level"),
    ("set-param name=hash value=64", "unknown parameter 'hash'"),
    ("pos pos=Wbbb", "bad position: Hub position for international needs 51"),
    (f'pos pos={START} moves="32-28 32-28"', "bad position: no legal move"),
    ("level depth=0", "bad level"),
    ("level move-time=soon", "bad level"),
])
def test_bad_input_gets_an_error_line(server: tuple[HubServer, Recorder], line: str,
                                      error: str) -> None:
    hub, out = server
    assert hub.handle(line)
    (reply,) = out.take()
    msg = parse_line(reply)
    assert msg.command == "error" and error in (msg.get("message") or "")
    hub.handle("ping")
    assert out.take() == ["pong"]


def test_go_without_a_position_still_answers_done(server: tuple[HubServer, Recorder]) -> None:
    hub, out = server
    hub.handle("go think")
    assert [parse_line(line).command for line in out.take()] == ["error", "done"]


def test_go_think_answers_a_legal_move_with_info(server: tuple[HubServer, Recorder]) -> None:
    hub, out = server
    for line in ("hub", "init", f'pos pos={START} moves="32-28 19-23"', "level depth=3",
                 "go think"):
        hub.handle(line)
    assert hub.wait(30)
    lines = [parse_line(line) for line in out.take()]
    done = lines[-1]
    infos = [SearchInfo.from_message(m) for m in lines if m.command == "info"]
    assert [i.depth for i in infos] == [1, 2, 3]
    board = Board()
    for move in ("32-28", "19-23"):
        board.push(board.parse_move(move))
    keys = {m.key() for m in board.legal_moves}
    move, ponder = done.require("move"), done.require("ponder")
    squares = [int(s) - 1 for s in move.split("x")]
    assert (squares[0], squares[1], frozenset(squares[2:])) in keys  # 28x19 is forced
    assert move == "28x19x23" and infos[-1].pv[:2] == (move, ponder)


def test_engine_is_idle_as_soon_as_done_is_out() -> None:
    # A GUI may send "pos" the instant it reads "done", while the search thread still winds down.
    busy_at_done: list[bool] = []
    out = Recorder()

    def write(line: str) -> None:
        if line.startswith("done"):
            busy_at_done.append(hub.searching)
        out(line)

    hub = HubServer(write)
    for line in ("pos start", "level depth=1", "go think"):
        hub.handle(line)
    out.wait_for("done")
    assert busy_at_done == [False]
    hub.close()


def test_stop_ends_an_infinite_search_and_ping_is_answered_meanwhile(
        server: tuple[HubServer, Recorder]) -> None:
    hub, out = server
    for line in ("init", "pos start", "level infinite", "go think"):
        hub.handle(line)
    hub.handle("ping")
    hub.handle("pos start")  # not allowed during a search
    assert hub.searching
    assert out.wait_for("pong") == "pong"
    assert "busy" in out.wait_for("error")
    hub.handle("stop")
    assert hub.wait(30)
    done = parse_line(out.wait_for("done"))
    assert done.require("move") in {"31-26", "31-27", "32-27", "32-28", "33-28", "33-29",
                                    "34-29", "34-30", "35-30"}


class Hand:
    """A clock the test moves by hand (seconds)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_ponder_hit_keeps_the_search_for_the_moves_time_from_the_hit() -> None:
    out, clock = Recorder(), Hand()
    hub = HubServer(out, clock=clock)
    try:
        for line in ("init", "pos start", "level move-time=0.05", "go ponder"):
            hub.handle(line)
        out.wait_for("info")
        assert hub.searching  # pondering is not bound by the move time: it waits for the hit
        hub.handle("ponder-hit")
        hub.handle("ping")
        out.wait_for("pong")
        before = len(out.lines)
        # The same search goes on after the hit (deeper iterations come), no answer yet: the
        # hand clock has not moved, so none of the move's 0.05 s has passed.
        out.wait_for_count("info", before)
        assert not any(parse_line(line).command == "done" for line in out.lines)
        clock.now += 0.05
        assert hub.wait(30)
        done = parse_line(out.wait_for("done"))
        assert done.get("move")
        depths = [SearchInfo.from_message(parse_line(line)).depth for line in out.lines
                  if parse_line(line).command == "info"]
        # One search: its iterations were not started again from depth 1 after the hit.
        assert depths[:2] == [1, 2] and depths == sorted(depths)
    finally:
        hub.close()


def test_a_finished_ponder_search_waits_for_the_hit_and_then_answers_at_once(
        server: tuple[HubServer, Recorder]) -> None:
    # It answered "done" while still pondering as soon as the level's depth was reached:
    # the protocol keeps the answer until ponder-hit (or stop).
    hub, out = server
    for line in ("init", "pos start", "level depth=2", "go ponder"):
        hub.handle(line)
    assert hub.finished(30)  # the search has returned ...
    hub.handle("ping")
    out.wait_for("pong")
    assert hub.searching  # ... and waits
    assert not any(parse_line(line).command == "done" for line in out.lines)
    hub.handle("ponder-hit")
    assert hub.wait(30)
    assert parse_line(out.wait_for("done")).get("move")


def test_stop_ends_pondering_with_its_move(server: tuple[HubServer, Recorder]) -> None:
    hub, out = server
    for line in ("init", "pos start", "level depth=2", "go ponder"):
        hub.handle(line)
    assert hub.finished(30)
    hub.handle("stop")
    assert hub.wait(30)
    assert parse_line(out.wait_for("done")).get("move")


def test_quit_ends_a_ponder_search_that_waits() -> None:
    out = Recorder()
    hub = HubServer(out)
    for line in ("init", "pos start", "level depth=1", "go ponder"):
        hub.handle(line)
    assert hub.finished(30)
    assert hub.handle("quit") is False  # it waited for a hit for ever: quit hung
    assert not hub.searching


def test_the_final_info_counts_every_node_of_the_search(
        server: tuple[HubServer, Recorder]) -> None:
    # The last info was the last finished iteration's: a search stopped mid-iteration
    # reported fewer nodes than it searched.
    hub, out = server
    for line in ("init", "pos start", "level infinite", "go think"):
        hub.handle(line)
    out.wait_for_count("info", 0, depth=4)
    hub.handle("stop")
    assert hub.wait(30)
    infos = [SearchInfo.from_message(parse_line(line)) for line in out.lines
             if parse_line(line).command == "info"]
    assert infos[-1].nodes is not None and infos[-2].nodes is not None
    assert infos[-1].nodes > infos[-2].nodes and infos[-1].depth == infos[-2].depth


def test_the_clock_parameter_counts_a_time_per_move_in_cpu_seconds(
        server: tuple[HubServer, Recorder]) -> None:
    hub, out = server
    hub.handle("hub")
    params = {m.get("name"): m for m in map(parse_line, out.take()) if m.command == "param"}
    assert params["clock"].get("values") == "wall cpu" and params["clock"].get("value") == "wall"
    hub.handle("level move-time=1")
    assert hub.clock_for(Limit(movetime=1.0)) is time.monotonic  # a GUI's time: its wall
    hub.handle("set-param name=clock value=cpu")
    assert isinstance(hub.clock_for(Limit(movetime=1.0)), SearchClock)
    assert hub.clock_for(Limit(time_left=60.0)) is time.monotonic  # a game clock: the wall
    hub.handle("set-param name=clock value=sundial")
    assert "must be one of wall, cpu" in out.take()[-1]


def test_terminal_position_answers_done_without_move(server: tuple[HubServer, Recorder]) -> None:
    hub, out = server
    hub.handle("pos pos=Wb" + "e" * 49)  # white has nothing left
    hub.handle("go think")
    assert out.take() == ["done"]


def test_quit_stops_the_search(server: tuple[HubServer, Recorder]) -> None:
    hub, _ = server
    for line in ("init", "pos start", "level infinite", "go think"):
        hub.handle(line)
    assert hub.handle("quit") is False
    assert not hub.searching


def test_variants_of_ours_play_on_their_own_board(server: tuple[HubServer, Recorder]) -> None:
    hub, out = server
    for line in ("set-param name=variant value=english", "init", "pos start", "level depth=2",
                 "go think"):
        hub.handle(line)
    assert hub.wait(30)
    move = parse_line(out.wait_for("done")).require("move")
    assert move in {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}  # black first


@pytest.mark.parametrize(("level", "limit"), [
    (Level(depth=5), Limit(depth=5)),
    (Level(nodes=100), Limit(nodes=100)),
    (Level(move_time=2.0), Limit(movetime=2.0)),
    (Level(time=60.0, inc=1.0), Limit(time_left=61.0, increment=1.0)),
    (Level(time=60.0), Limit(time_left=60.0)),
    (Level(moves=10, time=100.0), Limit(movetime=9.0, time_left=100.0)),
    (Level(infinite=True), Limit()),
])
def test_level_to_limit(level: Level, limit: Limit) -> None:
    assert level_to_limit(level) == limit


def test_level_to_limit_keeps_the_strength_depth_cap() -> None:
    assert level_to_limit(Level(depth=9), depth_cap=4) == Limit(depth=4)
    assert level_to_limit(Level(move_time=1.0), depth_cap=4) == Limit(depth=4, movetime=1.0)


def test_garbage_and_end_of_input_never_crash_the_process() -> None:
    garbage = b"hub\n\xff\xfe\x00\n=\n\"\n\npos pos=\"\nlevel depth=-3\nping\n"
    proc = subprocess.run(COMMAND, input=garbage, capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.decode().splitlines()
    assert lines[-1] == "pong"
    assert sum(line.startswith("error ") for line in lines) == 5


def test_command_line_errors() -> None:
    proc = subprocess.run([*COMMAND, "--variant", "spantsiretti"], input=b"", capture_output=True,
                          timeout=60)
    assert proc.returncode == 2 and b"'spantsiretti' is not supported" in proc.stderr
    # Hub is the only protocol: no flag needed (issue 24), and "--hub" is still taken.
    proc = subprocess.run(COMMAND[:-1], input=b"hub\nquit\n", capture_output=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.split()[-1] == b"wait", proc.stderr


def _our_move(board: Board, move: draughts.Move) -> Move:
    """Our legal move with the same origin, destination and captured pieces as pydraughts'."""
    found = move_from_hub(board, move.hub_move)  # their Hub text, read with our numbering
    assert move_to_hub(found, board.variant) == _sorted_hub(move.hub_move)
    return found


def _sorted_hub(text: str) -> str:
    squares = text.split("x")
    return text if len(squares) < 3 else "x".join(squares[:2] + sorted(squares[2:], key=int))


#: (our variant, pydraughts' variant, the Hub name pydraughts' client sets): every variant
#: both implement.
SHARED = [
    ("international", "standard", "normal"), ("russian", "russian", "russian"),
    ("english", "english", "english"), ("brazilian", "brazilian", "brazilian"),
    ("italian", "italian", "italian"), ("turkish", "turkish", "turkish"),
    ("frisian", "frisian", "frisian"), ("frysk", "frysk!", "frysk!"),
    ("breakthrough", "breakthrough", "bt"), ("international-giveaway", "antidraughts", "losing"),
]


def _play_game(level: int, seed: int, variant: tuple[str, str, str] = SHARED[0]) -> None:
    ours_name, their_name, hub_name = variant
    engine = draughts.engine.HubEngine(PYDRAUGHTS_COMMAND)
    try:
        assert "normal" in engine.variants and engine.id["name"] == "draughtsboard"
        engine.configure({"variant": hub_name, "level": str(level), "seed": str(seed)})
        engine.init()
        theirs, ours = draughts.Board(variant=their_name), Board(ours_name)
        limit = draughts.engine.Limit(depth=3)
        while not ours.is_game_over() and len(ours.move_stack) < 400:
            move = engine.play(theirs, limit, ponder=False).move  # raises if illegal for them
            ours.push(_our_move(ours, move))
            theirs.push(move)
            engine.ping()
        outcome = ours.outcome()
        if outcome is None:
            # Only where the rules have no move count (Italian): kings may then avoid a third
            # repetition for ever, and a search under a clock plays different games on a loaded
            # machine (a full run met W:WK6:BK13,K19 in Italian after 400 plies).
            counts = [r for r in DRAW_RULES.get(ours_name, ()) if not isinstance(r, RepetitionRule)]
            assert not counts, f"no result after 400 plies: {ours.fen()}"
            return
        if outcome.winner is not None:  # no moves left: both rule sets must see the end
            assert theirs.is_over()
            assert theirs.winner() == (draughts.WHITE if outcome.winner.name == "WHITE"
                                       else draughts.BLACK)
    finally:
        engine.quit()
        engine.p.communicate(timeout=30)


def test_pydraughts_plays_a_full_game_against_it() -> None:
    _play_game(level=10, seed=0)


@pytest.mark.parametrize("variant", SHARED[1:], ids=[v[0] for v in SHARED[1:]])
def test_pydraughts_plays_a_full_game_in_every_shared_variant(
        variant: tuple[str, str, str]) -> None:
    """One game in CI; at full size four, with different seeds (different games)."""
    for seed in range(1, 1 + sample_size(ci=1, full=4)):
        _play_game(level=3, seed=seed, variant=variant)


def test_pydraughts_starts_the_console_script_by_its_absolute_path() -> None:
    """docs/hub.md: what to give pydraughts' HubEngine (it resolves the first word's symlinks).

    The installed ``draughtsboard`` script names the virtualenv's python in its ``#!`` line, so
    resolving the script's own path keeps the virtualenv.
    """
    script = Path(sys.executable).parent / "draughtsboard"
    if not script.exists():
        pytest.skip(f"no console script next to {sys.executable} (package not installed)")
    engine = draughts.engine.HubEngine([str(script), "engine", "--hub"])
    try:
        assert engine.id["name"] == "draughtsboard" and "russian" in engine.variants
    finally:
        engine.quit()
        engine.p.communicate(timeout=30)


@pytest.mark.slow
def test_pydraughts_plays_games_against_a_noisy_level() -> None:
    for seed in range(1, 1 + sample_size(ci=1, full=6)):
        _play_game(level=6, seed=seed)


@pytest.mark.parametrize("name", ["killer", "bt", "frisian", "frysk!", "czech", "portuguese",
                                  "thai"])
def test_the_club_variants_are_served(server: tuple[HubServer, Recorder], name: str) -> None:
    """Scan's names (killer, bt, frisian) and ours: a legal reply from the initial position."""
    hub, out = server
    for line in ("hub", f"set-param name=variant value={name}", "init", "pos start",
                 "level depth=2", "go think"):
        hub.handle(line)
    assert hub.wait(30)
    done = [parse_line(line) for line in out.take()][-1]
    board = Board(hub.variant)
    assert move_from_hub(board, done.require("move")) in board.legal_moves


def test_the_search_reads_its_stop_flag_through_python_code(monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    # The compiled search looked at a plain attribute: in a depth-only search (pondering) it
    # never entered the interpreter, which the protocol's thread then waited for, for a whole
    # iteration, before it could read "stop" or "ponder-hit". Every look now runs Python code.
    from firmware_host.opponents.hub import server as hub_server

    looks: list[bool] = []
    flag = hub_server.ReadStop.stopped

    def counted(token: hub_server.ReadStop) -> bool:
        value = bool(flag.fget(token)) if flag.fget is not None else False
        looks.append(value)
        return value

    monkeypatch.setattr(hub_server.ReadStop, "stopped", property(counted, flag.fset))
    out = Recorder()
    hub = HubServer(out)
    for line in ("init", "pos start", "level depth=4", "go ponder"):
        hub.handle(line)
    assert hub.finished(30)
    hub.handle("stop")
    assert hub.wait(30)
    assert len(looks) > 10  # looked at every 64 nodes, each time through the property
