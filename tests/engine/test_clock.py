"""The engine's time (engine/clock.py): the search thread's CPU time, capped by the wall clock.

Every clock here is injected: a "CPU" and a "wall" that advance by fixed steps each time the
search reads them, so a busy machine is a wall clock that runs faster than the CPU clock. No
test reads a real clock.
"""

from __future__ import annotations

import math

import pytest

from engine import Board
from engine.clock import SearchClock
from engine.search import Limit, Searcher
from firmware_host.opponents.opponent import BuiltinOpponent


class Ticks:
    """A clock that advances by ``step`` seconds each time it is read."""

    def __init__(self, step: float, start: float = 0.0) -> None:
        self.step = step
        self.now = start

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_cpu_time_counts_while_the_search_has_a_core() -> None:
    cpu, wall = [0.0], [50.0]
    clock = SearchClock(wall_factor=2.0, cpu=lambda: cpu[0], wall=lambda: wall[0])
    clock.restart()
    cpu[0], wall[0] = 0.5, 51.0  # half a core: still above 1 / wall_factor
    assert clock() == 0.5


def test_the_wall_clock_caps_a_starved_search() -> None:
    cpu, wall = [0.0], [50.0]
    clock = SearchClock(wall_factor=2.0, cpu=lambda: cpu[0], wall=lambda: wall[0])
    clock.restart()
    cpu[0], wall[0] = 0.25, 51.0  # a quarter of a core: the wall (1 s / 2) is the time
    assert clock() == 0.5


def test_restart_forgets_the_time_between_searches() -> None:
    cpu, wall = [3.0], [10.0]
    clock = SearchClock(cpu=lambda: cpu[0], wall=lambda: wall[0])
    wall[0] = 500.0  # the opponent thought for minutes; the engine's thread slept
    clock.restart()
    assert clock() == 0.0


@pytest.mark.parametrize("factor", [0.5, 0.0, -1.0, math.nan])
def test_a_wall_factor_below_one_is_refused(factor: float) -> None:
    with pytest.raises(ValueError, match="wall_factor"):
        SearchClock(wall_factor=factor)


def _search(cpu_step: float, wall_step: float, movetime: float = 0.02) -> tuple[int, str]:
    clock = SearchClock(wall_factor=2.0, cpu=Ticks(cpu_step), wall=Ticks(wall_step, 1000.0))
    searcher = Searcher("international", seed=1, clock=clock)
    result = searcher.search(Board("international"), Limit(movetime=movetime))
    return result.nodes, str(result.move)


def test_a_level_searches_the_same_on_an_idle_and_a_busy_machine() -> None:
    """The same CPU time per read; on the busy machine the wall runs 1.6 times as fast (the
    search thread has 5/8 of a core): the same nodes, the same move."""
    idle = _search(cpu_step=0.0001, wall_step=0.0001)
    busy = _search(cpu_step=0.0001, wall_step=0.00016)
    assert busy == idle
    assert idle[0] > 0


def test_a_starved_search_ends_on_the_wall_clock() -> None:
    """A quarter of a core (below 1 / wall_factor): the wall clock ends the move at twice its
    time, with fewer nodes than the CPU time would have given."""
    idle_nodes, _ = _search(cpu_step=0.0001, wall_step=0.0001)
    starved_nodes, _ = _search(cpu_step=0.0001, wall_step=0.0004)
    assert starved_nodes < idle_nodes


def test_the_searcher_restarts_the_clock_at_every_search() -> None:
    """Two searches on one SearchClock with a long idle wall gap between: the second still gets
    its whole time (were the clock not restarted, the gap would end it at once)."""
    wall = Ticks(0.0001, 1000.0)
    clock = SearchClock(wall_factor=2.0, cpu=Ticks(0.0001), wall=wall)
    searcher = Searcher("international", seed=1, clock=clock)
    first = searcher.search(Board("international"), Limit(movetime=0.02))
    wall.now += 3600.0
    second = searcher.search(Board("international"), Limit(movetime=0.02))
    assert second.depth >= 2 and second.nodes > first.nodes // 4


def test_the_board_services_engine_runs_on_the_search_clock() -> None:
    opponent = BuiltinOpponent()
    assert isinstance(opponent.clock_for(Limit(movetime=1.0)), SearchClock)
    assert isinstance(opponent.clock_for(Limit(depth=3, movetime=1.0)), SearchClock)
    # A game clock runs on the wall: its time is the wall's.
    assert not isinstance(opponent.clock_for(Limit(time_left=60.0)), SearchClock)
    injected = Ticks(0.001)
    assert BuiltinOpponent(clock=injected).clock_for(Limit(movetime=1.0)) is injected


def test_the_board_services_engine_plays_a_level_move_on_it() -> None:
    """best_move under a movetime uses a SearchClock (read from the search's own thread)."""
    opponent = BuiltinOpponent(seed=1)
    result = opponent.best_move(Board("russian"), Limit(depth=2, movetime=30.0))
    assert result.depth == 2
    assert isinstance(opponent.searcher(Board("russian")).clock, SearchClock)


def test_the_board_services_searcher_always_has_a_clock() -> None:
    """A searcher taken straight from the opponent (the hint path) can search a level's time."""
    searcher = BuiltinOpponent(seed=1).searcher(Board("russian"))
    assert isinstance(searcher.clock, SearchClock)
    assert searcher.search(Board("russian"), Limit(depth=2, movetime=30.0)).depth == 2


def test_the_hub_servers_levels_run_on_the_search_clock() -> None:
    """Our engine over Hub: its own level's time on the search clock; a time the GUI sets, on
    the wall clock the GUI keeps."""
    from firmware_host.opponents.hub.server import HubServer

    server = HubServer(lambda line: None)
    assert isinstance(server.clock_for(Limit(movetime=1.0)), SearchClock)
    server.handle("level move-time=2")
    assert not isinstance(server.clock_for(Limit(movetime=2.0)), SearchClock)
    server.close()
