"""The simulated board: pieces, sensors, fault injection, LED recorder, buttons, scripts."""

from __future__ import annotations

import itertools

import pytest

from board_io.clock import MonotonicClock, VirtualClock
from board_io.errors import BoardIOError, DeviceClosed, LinkTimeout, ScriptError
from board_io.events import ButtonPressed, OccupancyChanged
from board_io.geometry import CellMap, dark_squares
from board_io.scanner import Scanner
from board_io.sim import (
    LedRecorder,
    ScriptPlayer,
    SimFaults,
    SimulatedBoard,
    parse_script,
    read_script,
    render,
)
from board_io.types import YELLOW, Led, Pattern, Reading, Sensing

GREEN = (0, 255, 0)
RED = (255, 0, 0)

E, X = Reading.EMPTY, Reading.OCCUPIED
INTERNATIONAL = dark_squares(10)
INITIAL = frozenset(range(20)) | frozenset(range(30, 50))


def board8(**kwargs: object) -> SimulatedBoard:
    return SimulatedBoard(dark_squares(8), clock=VirtualClock(), **kwargs)  # type: ignore[arg-type]


# -- the board ---------------------------------------------------------------------------------

def test_lift_place_move() -> None:
    board = board8(occupied={8, 9})
    assert board.lift(8) is X
    board.place(12)
    board.move(9, 13)
    assert board.occupied == {12, 13}
    with pytest.raises(BoardIOError, match="cannot lift from 1: the square is empty"):
        board.lift(0)
    with pytest.raises(BoardIOError, match="cannot place on 13: the square is occupied"):
        board.place(12)
    with pytest.raises(ValueError):
        board.place(0, Reading.EMPTY)


def test_frame_follows_the_cell_map() -> None:
    layout = dark_squares(8)
    board = SimulatedBoard(layout, occupied={layout.parse("29")}, clock=VirtualClock(),
                           cell_map=CellMap.compact(layout))
    frame = board.frame()
    assert len(frame) == 32 and frame[0] is X and frame.count(X) == 1
    assert board.sensor_matrix.rows == 8 and board.sensor_matrix.cols == 4


def test_presence_hides_colours_colour_shows_them() -> None:
    pieces = {0: Reading.BLACK, 31: Reading.WHITE_KING}
    presence = board8(occupied=pieces)
    assert {presence.frame()[i] for i in (57, 6)} == {X}
    colour = board8(occupied=pieces, sensing=Sensing.COLOUR)
    assert colour.frame()[57] is Reading.BLACK and colour.frame()[6] is Reading.WHITE_KING
    assert colour.sensor_matrix.sensing is Sensing.COLOUR
    colour.move(31, 27)
    assert colour.pieces[27] is Reading.WHITE_KING  # place() puts back the piece in hand


def test_bad_starting_square_and_fault_cells() -> None:
    with pytest.raises(ValueError, match="off the board"):
        board8(occupied={32})
    with pytest.raises(ValueError, match="outside the 8x8"):
        board8(faults=SimFaults(stuck={(8, 0): X}))
    with pytest.raises(ValueError, match="dead row 9"):
        board8(faults=SimFaults(dead_rows=frozenset({9})))
    with pytest.raises(ValueError, match="glitch_rate"):
        SimFaults(glitch_rate=1.5)


def test_disconnect_raises_link_timeout() -> None:
    board = board8()
    board.disconnect()
    with pytest.raises(LinkTimeout):
        board.sensor_matrix.read()
    board.reconnect()
    assert len(board.sensor_matrix.read()) == 64


def test_sensor_matrix_close() -> None:
    board = board8()
    with board.sensor_matrix as sensors:
        sensors.read()
    sensors.close()  # idempotent
    with pytest.raises(DeviceClosed):
        sensors.read()


# -- fault injection ---------------------------------------------------------------------------

def _samples(board: SimulatedBoard, index: int, until: float, step: float = 0.0005
             ) -> list[Reading]:
    clock = board.clock
    assert isinstance(clock, VirtualClock)
    out = []
    while clock.monotonic() < until:
        out.append(board.frame()[index])
        clock.advance(step)
    return out


def test_bounce_toggles_within_the_window_and_ends_on_the_new_value() -> None:
    board = board8(faults=SimFaults(bounce_ms=10, bounce_toggles=6, seed=3))
    board.place(0)  # cell (7, 1) = index 57
    seen = _samples(board, 57, 0.010)
    changes = sum(1 for a, b in itertools.pairwise(seen) if a is not b)
    assert E in seen and X in seen
    assert changes >= 3
    assert _samples(board, 57, 0.050) [-1] is X
    assert set(_samples(board, 57, 0.100)) == {X}


def test_bounce_is_reproducible_from_the_seed() -> None:
    def run(seed: int) -> list[Reading]:
        board = board8(faults=SimFaults(bounce_ms=10, seed=seed))
        board.place(0)
        return _samples(board, 57, 0.012)
    assert run(7) == run(7)
    assert run(7) != run(8)


def test_glitch_rate() -> None:
    board = board8(faults=SimFaults(glitch_rate=0.01, seed=1))
    inverted = sum(frame.count(X) for frame in (board.frame() for _ in range(200)))
    # 12,800 cell-scans at 1 %: mean 128, standard deviation ~11.
    assert 80 < inverted < 180


def test_stuck_cell_and_dead_row() -> None:
    board = board8(occupied={8, 9, 10}, faults=SimFaults(
        stuck={(0, 0): X, (7, 1): E}, dead_rows=frozenset({5})))
    board.place(0)  # at (7, 1): stuck empty
    frame = board.frame()
    assert frame[0] is X  # stuck occupied, no piece there
    assert frame[57] is E
    assert frame[5 * 8:6 * 8] == (E,) * 8  # squares 9..12 sit on row 5: dead
    assert board.occupied == {0, 8, 9, 10}


def _scan(board: SimulatedBoard, scanner: Scanner, seconds: float) -> list[OccupancyChanged]:
    clock = board.clock
    assert isinstance(clock, VirtualClock)
    out = []
    end = clock.monotonic() + seconds
    while clock.monotonic() < end:
        out += [e for e in scanner.poll(clock.monotonic()) if isinstance(e, OccupancyChanged)]
        clock.advance(0.01)
    return out


@pytest.mark.parametrize(("debounce_ms", "clean"), [(20, True), (0, False)])
def test_bounce_is_absorbed_by_debouncing_only(debounce_ms: int, clean: bool) -> None:
    board = SimulatedBoard(INTERNATIONAL, occupied=INITIAL, clock=VirtualClock(),
                           faults=SimFaults(bounce_ms=15, bounce_toggles=8, seed=5))
    scanner = Scanner(board.sensor_matrix, board.cell_map, debounce_ms=debounce_ms)
    _scan(board, scanner, 0.1)
    changes = []
    for origin, destination in ((31, 27), (18, 22), (32, 28)):
        board.lift(origin)
        changes += _scan(board, scanner, 0.2)
        board.place(destination)
        changes += _scan(board, scanner, 0.2)
    assert (len(changes) == 6) is clean


@pytest.mark.parametrize(("debounce_ms", "clean"), [(20, True), (0, False)])
def test_glitches_are_absorbed_by_debouncing_only(debounce_ms: int, clean: bool) -> None:
    board = SimulatedBoard(INTERNATIONAL, occupied=INITIAL, clock=VirtualClock(),
                           faults=SimFaults(glitch_rate=0.002, seed=11))
    scanner = Scanner(board.sensor_matrix, board.cell_map, debounce_ms=debounce_ms)
    changes = _scan(board, scanner, 5.0)
    assert changes[0].occupied == INITIAL
    assert (len(changes) == 1) is clean


# -- LEDs and buttons --------------------------------------------------------------------------

def test_led_recorder_keeps_frames_with_times() -> None:
    clock = VirtualClock(5.0)
    leds = LedRecorder(50, clock=clock)
    leds.show({3: Led(Pattern.ON, GREEN), 7: Led(Pattern.OFF, GREEN)})
    clock.advance(1.0)
    leds.show({})
    assert [r.at for r in leds.history] == [5.0, 6.0]
    assert dict(leds.history[0].frame) == {3: Led(Pattern.ON, GREEN)}
    assert dict(leds.frame_at(5.5)) == {3: Led(Pattern.ON, GREEN)}
    assert dict(leds.frame_at(4.0)) == {} and dict(leds.frame_at(6.0)) == {}


def test_led_recorder_can_be_bounded() -> None:
    clock = VirtualClock()
    leds = LedRecorder(50, clock=clock, keep=3)
    for sq in range(5):
        leds.show({sq: Led(Pattern.ON, YELLOW)})
        clock.advance(1.0)
    assert [r.at for r in leds.history] == [2.0, 3.0, 4.0] and len(leds.writes) == 3


def test_blinking_is_done_by_the_sink() -> None:
    clock = VirtualClock()
    leds = LedRecorder(32, clock=clock)
    leds.show({0: Led(Pattern.SLOW, RED), 1: Led(Pattern.FAST, GREEN)})
    lit = []
    for _ in range(100):  # one second at 100 Hz
        leds.tick()
        lit.append(leds.lit(clock.monotonic()))
        clock.advance(0.01)
    assert sum(0 in s for s in lit) == 50  # 1 Hz, half on
    assert sum(1 in s for s in lit) == 52  # 4 Hz: on for 13 of every 25 scans (boundary at 0.125)
    # A write only when a pixel changes: square 1 toggles 8 times, square 0 twice, some together.
    times = [round(t, 3) for t, _ in leds.writes]
    assert times == [0.0, 0.13, 0.25, 0.38, 0.5, 0.63, 0.75, 0.88]


def test_render_marks_lit_leds_by_phase() -> None:
    layout = dark_squares(8)
    frame = {layout.parse("29"): Led(Pattern.SLOW, GREEN)}
    pieces = {layout.parse("29"): X}
    assert "[?]" in render(layout, pieces, frame, now=0.2, colour=False)
    assert "[?]" not in render(layout, pieces, frame, now=0.7, colour=False)
    coloured = render(layout, pieces, frame, now=0.2)
    assert "\x1b[48;2;0;255;0m" in coloured
    assert "\x1b[48;2;0;255;0m" not in render(layout, pieces, frame, now=0.7)
    assert render(layout, {}, None, 0.0, colour=False).splitlines()[-1].split() == list("abcdefgh")


def test_sim_buttons() -> None:
    board = SimulatedBoard(dark_squares(8), clock=VirtualClock(3.0),
                           buttons=("hint", "adjust"))
    board.press("hint")
    board.press("adjust")
    assert board.buttons.drain() == [ButtonPressed("hint", 3.0),
                                     ButtonPressed("adjust", 3.0)]
    assert board.buttons.drain() == []
    with pytest.raises(ValueError, match="no 'resign' button"):
        board.press("resign")
    posted: list[ButtonPressed] = []
    board.buttons.when_pressed = posted.append
    board.press("hint")
    assert posted == [ButtonPressed("hint", 3.0)] and board.buttons.drain() == []
    board.buttons.close()
    with pytest.raises(DeviceClosed):
        board.press("hint")


# -- scripts -----------------------------------------------------------------------------------

SCRIPT = """\
# International: 32-28 19-23 28x19 14x23
100 lift 32
150 place 28     # d4-e5
400 lift 19
450 PLACE 23
700 lift 28
720 place 19
760 lift 23      # the captured piece goes
1000 lift 14
1050 place 23

1200 press hint
"""


def test_parse_script() -> None:
    events = parse_script(SCRIPT, INTERNATIONAL, initial=INITIAL)
    assert [(e.time_ms, e.verb, e.square, e.line) for e in events[:2]] == [
        (100, "lift", 31, 2), (150, "place", 27, 3)]
    assert events[-1].verb == "press" and events[-1].button == "hint"
    assert events[-1].line == 12
    assert len(events) == 10


@pytest.mark.parametrize(("text", "line", "message"), [
    ("0 lift 32\n10 place 51\n", 2, "unknown square '51'"),
    ("0 lift 32\n10 jump 28\n", 2, "unknown verb 'jump'"),
    ("# hi\n50 lift 32\n\n40 place 28\n", 4, "time 40 ms is before the previous event's 50"),
    ("0 lift 25\n", 1, "lift 25: the square is empty"),
    ("0 place 1\n", 1, "place 1: the square is already occupied"),
    ("0 lift 32\n5 lift 32\n", 2, "lift 32: the square is empty"),
    ("0 lift\n", 1, "expected '<time_ms> lift|place|press <what>'"),
    ("0 lift 32 28\n", 1, "expected"),
    ("-5 lift 32\n", 1, "not a whole number"),
    ("1.5 lift 32\n", 1, "not a whole number"),
    ("0 press teleport\n", 1, "unknown button 'teleport'"),
])
def test_script_errors_name_the_line(text: str, line: int, message: str) -> None:
    with pytest.raises(ScriptError, match=message) as info:
        parse_script(text, INTERNATIONAL, initial=INITIAL, buttons=("hint",))
    assert info.value.line == line
    assert str(info.value).startswith(f"line {line}: ")


def test_alphanumeric_script() -> None:
    layout = dark_squares(8, "alphanumeric")
    events = parse_script("0 lift c3\n30 place D4\n", layout, initial={layout.parse("c3")})
    assert [layout.name(e.square or 0) for e in events] == ["c3", "d4"]


def test_read_script(tmp_path: object) -> None:
    from pathlib import Path
    path = Path(str(tmp_path)) / "game.txt"
    path.write_text(SCRIPT, encoding="utf-8")
    assert len(read_script(path, INTERNATIONAL, initial=INITIAL)) == 10
    path.write_bytes(b"\xff\xfe0 lift 32\n")
    with pytest.raises(ScriptError, match="not UTF-8"):
        read_script(path, INTERNATIONAL)


def _play(script: str, faults: SimFaults | None = None) -> list[object]:
    clock = VirtualClock()
    board = SimulatedBoard(INTERNATIONAL, occupied=INITIAL, clock=clock, faults=faults,
                           buttons=("hint",))
    scanner = Scanner(board.sensor_matrix, board.cell_map, buttons=board.buttons)
    player = ScriptPlayer(board, parse_script(script, INTERNATIONAL, initial=INITIAL),
                          scan_hz=100, tail_ms=500)
    return list(player.run(scanner))


def test_script_plays_in_virtual_time() -> None:
    events = _play(SCRIPT)
    changes = [e for e in events if isinstance(e, OccupancyChanged)]
    assert [round(e.at, 3) for e in changes] == [
        0.02, 0.12, 0.17, 0.42, 0.47, 0.72, 0.74, 0.78, 1.02, 1.07]
    assert changes[0].occupied == INITIAL
    final = (INITIAL - {31, 13}) | {22}  # 19 took on 28 and 23 took back
    assert changes[-1].occupied == final
    presses = [e for e in events if isinstance(e, ButtonPressed)]
    assert presses == [ButtonPressed("hint", 1.2)]


def test_script_with_faults_gives_the_same_occupancies() -> None:
    faults = SimFaults(bounce_ms=8, bounce_toggles=6, glitch_rate=0.001, seed=2)
    clean = [e.occupied for e in _play(SCRIPT) if isinstance(e, OccupancyChanged)]
    noisy = [e.occupied for e in _play(SCRIPT, faults) if isinstance(e, OccupancyChanged)]
    assert noisy == clean


def test_script_player_needs_virtual_time_and_reports_bad_events() -> None:
    real = SimulatedBoard(INTERNATIONAL, clock=MonotonicClock())
    with pytest.raises(ValueError, match="VirtualClock"):
        ScriptPlayer(real, [])
    board = SimulatedBoard(INTERNATIONAL, occupied=INITIAL, clock=VirtualClock())
    unchecked = parse_script("0 lift 32\n10 lift 25\n", INTERNATIONAL)  # no initial: no check
    with pytest.raises(ScriptError, match="line 2: cannot lift from 25"):
        list(ScriptPlayer(board, unchecked).ticks())


def test_ticks_cover_the_tail() -> None:
    board = SimulatedBoard(INTERNATIONAL, clock=VirtualClock(10.0))
    ticks = list(ScriptPlayer(board, [], scan_hz=50, tail_ms=100).ticks())
    assert [round(t, 3) for t in ticks] == [10.0, 10.02, 10.04, 10.06, 10.08, 10.1]


def _random_script(seed: int, events: int) -> tuple[str, list[frozenset[int]]]:
    """A random sequence of lifts and places, >= 80 ms apart, and the occupancies it passes."""
    import random
    rng = random.Random(seed)
    occupied = set(INITIAL)
    lines, truth, t = [], [frozenset(occupied)], 0
    for _ in range(events):
        t += rng.randrange(80, 400)
        if occupied and (rng.random() < 0.5 or len(occupied) == 50):
            sq = rng.choice(sorted(occupied))
            occupied.remove(sq)
            lines.append(f"{t} lift {sq + 1}")
        else:
            sq = rng.choice(sorted(set(range(50)) - occupied))
            occupied.add(sq)
            lines.append(f"{t} place {sq + 1}")
        truth.append(frozenset(occupied))
    return "\n".join(lines), truth


@pytest.mark.slow
def test_random_scripts_survive_bounce_and_glitches() -> None:
    """Property: with bounce and glitches injected, the scanner reports exactly the true
    sequence of occupancies (events 80 ms or more apart, 10 ms bounce, 20 ms debounce)."""
    from tests.conftest import sample_size
    for seed in range(sample_size(ci=12, full=400)):
        script, truth = _random_script(seed, 60)
        faults = SimFaults(bounce_ms=10, bounce_toggles=6, glitch_rate=0.002, seed=seed)
        seen = [e.occupied for e in _play(script, faults) if isinstance(e, OccupancyChanged)]
        assert seen == truth, f"seed {seed}"
