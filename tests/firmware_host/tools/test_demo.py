"""``draughtsboard demo``: the service on the sim board, a simulated human, LEDs followed."""

from __future__ import annotations

import io
import random
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from engine import Board
from engine.pdn import read_games
from firmware_host.feedback.roles import Role
from firmware_host.tools.demo import Demo, DemoOptions, Display, led_legend, run_demo
from firmware_host.tools.demo_hands import HandStep, human_steps, next_led_step
from tests.redis_server import RedisServer


def _apply(occupied: set[int], steps: list[HandStep]) -> set[int]:
    """Replay steps on a set of squares, failing on a physically impossible step."""
    board = set(occupied)
    for step in steps:
        if step.action == "lift":
            assert step.square in board, f"lift from empty {step.square}"
            board.discard(step.square)
        else:
            assert step.square not in board, f"place on occupied {step.square}"
            board.add(step.square)
    return board


def test_cli_demo_plays_and_writes_a_pdn_of_legal_alternating_moves(tmp_path: Path) -> None:
    games = tmp_path / "games"
    proc = subprocess.run(
        [sys.executable, "-m", "firmware_host.cli", "demo", "--fast", "--moves", "6",
         "--games-dir", str(games)],
        capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "\x1b" not in proc.stdout  # not a terminal: plain text, no cursor tricks
    last = proc.stdout.strip().splitlines()[-1]
    assert last.startswith("done: PDN written to ")
    path = Path(last.removeprefix("done: PDN written to "))
    assert path.parent == games and path.is_file()
    [game] = read_games(path.read_text(encoding="utf-8"))
    assert game.variant.name == "international"
    assert len(game.moves) == 6
    board = Board("international")
    for move in game.moves:  # read_games checked legality; replay to be sure of the order
        assert move in board.legal_moves
        board.push(move)
    assert game.headers["Black"] == "draughtsboard"  # the computer plays black
    assert "the computer's 3 moves were carried out by following the LEDs" in proc.stdout


def _recorded_demo(stack: ExitStack, tmp_path: Path, **options: Any) -> tuple[Demo, list[Any]]:
    """A demo whose hand actions are logged in one sequence with the session's events."""
    demo = Demo(DemoOptions(fast=True, games_dir=str(tmp_path), **options), stack,
                Display(io.StringIO(), fast=True), str(tmp_path))
    log: list[Any] = []
    demo.session.subscribe(log.append)
    lift, place = demo.sim.lift, demo.sim.place

    def logged_lift(sq: int) -> Any:
        log.append(("lift", sq, demo.clock.monotonic()))
        return lift(sq)

    def logged_place(sq: int, piece: Any = None) -> None:
        log.append(("place", sq, demo.clock.monotonic()))
        place(sq, piece)

    demo.sim.lift = logged_lift  # type: ignore[method-assign]
    demo.sim.place = logged_place  # type: ignore[method-assign]
    return demo, log


def test_computer_moves_are_carried_out_by_following_the_leds(tmp_path: Path) -> None:
    with ExitStack() as stack:
        demo, log = _recorded_demo(stack, tmp_path, plies=20)
        result = demo.play()
        roles_used: set[Role] = set()
        in_computer_move = False
        shown: dict[int, Role] = {}  # what the hand saw when it acted: the last frame published
        for entry in log:
            if isinstance(entry, dict):
                if entry["event"] == "leds":
                    shown = {int(name) - 1: Role(role) for name, (_, role) in
                             entry["frame"].items()}
                if entry["event"] == "computer_move":
                    in_computer_move = True
                elif entry["event"] == "move" and entry["by"] == "computer":
                    in_computer_move = False
                continue
            if not in_computer_move:
                continue
            action, sq, at = entry
            assert sq in shown, f"{action} {sq} at {at}: that square was dark"
            allowed = {Role.TO} if action == "place" else {Role.FROM, Role.REMOVE, Role.TO}
            assert shown[sq] in allowed, f"{action} {sq}: lit {shown[sq]}"
            roles_used.add(shown[sq])
        assert not in_computer_move
        computer_captured = any(entry["captures"] for entry in log if isinstance(entry, dict)
                                and entry["event"] == "move" and entry["by"] == "computer")
        assert computer_captured, "the game should exercise the remove lights"
        assert roles_used == {Role.FROM, Role.TO, Role.REMOVE}
        store_game = demo.store.load_game(demo.session.game_id)
    by = [entry["by"] for entry in log if isinstance(entry, dict) and entry["event"] == "move"]
    assert by == ["human", "computer"] * 10
    assert [b for b, _, _ in result.plies] == by
    assert all(followed == (b == "computer") for b, _, followed in result.plies)
    [game] = read_games(result.pdn_path.read_text(encoding="utf-8"))
    assert game.move_texts == [text for _, text, _ in result.plies]
    assert len(store_game.moves) == 20


def test_the_human_move_steps_are_sloppy_but_end_in_the_move() -> None:
    rng = random.Random(5)
    landed_between = removed_early = 0
    for variant in ("international", "russian", "turkish", "english"):
        for seed in range(6):
            board = Board(variant)
            game_rng = random.Random(seed)
            for _ in range(40):
                moves = list(board.legal_moves)
                if not moves:
                    break
                move = game_rng.choice(moves)
                steps = human_steps(board, move, rng)
                before = set(board.occupied_squares())
                board.push(move)
                assert _apply(before, steps) == set(board.occupied_squares())
                places = [s.square for s in steps if s.action == "place"]
                landed_between += len(places) > 1
                lifts = [s.square for s in steps if s.action == "lift"]
                removed_early += any(sq in move.captures for sq in lifts[:1 + len(places)])
    assert landed_between > 0 and removed_early > 0


def _frame(**roles: list[int]) -> dict[int, Role]:
    return {sq: Role(name) for name, squares in roles.items()
            for sq in squares}


def test_following_a_capture_shown_on_the_leds() -> None:
    occupied = {20, 16, 9}  # piece on 20 jumps 16 and 9 to land on 2 via 13
    done: list[tuple[str, int]] = []
    holding = False
    for _ in range(10):
        frame: dict[int, Role] = {}
        if 20 in occupied:
            frame.update(_frame(**{"from": [20]}))
        if 2 not in occupied:
            frame.update(_frame(to=[2], path=[13]))
        frame.update(_frame(remove=[sq for sq in (16, 9) if sq in occupied]))
        step = next_led_step(frame, occupied, holding, random.Random(len(done)))
        if step is None:
            break
        done.append((step.action, step.square))
        if step.action == "lift":
            occupied.discard(step.square)
            holding = holding or step.why == "from"
        else:
            occupied.add(step.square)
            holding = False
    assert sorted(done) == [("lift", 9), ("lift", 16), ("lift", 20), ("place", 2)]
    assert occupied == {2}


def test_nothing_to_follow_when_the_leds_ask_nothing() -> None:
    assert next_led_step({}, {1, 2}, False, random.Random(0)) is None
    crown = {5: Role.CROWN}
    assert next_led_step(crown, {5}, False, random.Random(0)) is None


def test_led_legend_names_roles_in_priority_order() -> None:
    frame = _frame(remove=[17], to=[22], **{"from": [31]})
    assert led_legend(frame, lambda sq: str(sq + 1)) == "LEDs: remove 18 | to 23 | from 32"
    assert led_legend({}, str) == "LEDs: off"


def test_unknown_variant_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    from firmware_host.cli import main

    assert main(["demo", "--variant", "chess", "--fast"]) == 2
    err = capsys.readouterr().err
    assert "unknown variant 'chess'" in err and "Traceback" not in err


def test_run_demo_reports_the_game_over_or_the_ply_limit(tmp_path: Path) -> None:
    out = io.StringIO()
    assert run_demo(DemoOptions(variant="english", plies=3, fast=True,
                                games_dir=str(tmp_path)), out) == 0
    text = out.getvalue()
    moves = text.split("moves: ", 1)[1].splitlines()[0].split()
    assert len(moves) == 3
    # English: black (the computer) moves first, so two of the three plies were followed.
    assert "the computer's 2 moves were carried out by following the LEDs" in text
    assert len(list(tmp_path.glob("*.pdn"))) == 1


def test_same_seed_same_game_whatever_the_engine_thread_timing(tmp_path: Path) -> None:
    games = []
    for run in range(2):
        out = io.StringIO()
        assert run_demo(DemoOptions(plies=6, fast=True, seed=7,
                                    games_dir=str(tmp_path / str(run))), out) == 0
        games.append(out.getvalue().split("moves: ", 1)[1].splitlines()[0])
    assert games[0] == games[1]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_frames_are_redrawn_in_place_and_in_colour(tmp_path: Path) -> None:
    out = _Terminal()
    assert run_demo(DemoOptions(plies=2, fast=True, games_dir=str(tmp_path)), out) == 0
    text = out.getvalue()
    assert text.count("\x1b[H\x1b[2J") >= 3  # start, the reply shown, the reply carried out
    assert "\x1b[48;2;" in text


def test_a_games_dir_that_cannot_be_used_is_one_clear_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("x", encoding="utf-8")
    assert run_demo(DemoOptions(plies=2, fast=True, games_dir=str(not_a_dir)),
                    io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"draughtsboard demo: cannot write in {not_a_dir}: not a directory "
                          "(choose another with --games-dir DIR or store.games_dir)") and \
        err.count("\n") == 1


def test_a_russian_demo_captions_in_russian(tmp_path: Path) -> None:
    out = io.StringIO()
    assert run_demo(DemoOptions(variant="russian", plies=2, fast=True, language="ru",
                                games_dir=str(tmp_path)), out) == 0
    text = out.getvalue()
    assert "Русские шашки: имитируемый игрок (белые) против: уровень " in text
    assert "имитируемый игрок: " in text and "компьютер показывает ход " in text
    assert "1 ход компьютера сделан по подсветке" in text and "огн" not in text
    assert text.startswith("движок: ")
    assert "готово: PDN записан в " in text and "carried out" not in text


@pytest.mark.redis
def test_a_demo_on_a_store_with_an_unfinished_game_starts_a_new_one(
        tmp_path: Path, redis_server: RedisServer) -> None:
    """``demo --hall`` starts a board's next Demo on the same store and board id after one
    failed: the simulated board is set up at the start, so resuming the stored game left it
    refusing every move (each board went offline and online every few seconds, for ever)."""
    options = DemoOptions(plies=2, fast=True, seed=1001, level=2, store_url=redis_server.url,
                          board_id="demo-resume")  # this seed's first lift comes at once
    for run in range(2):
        with ExitStack() as stack:
            games = tmp_path / str(run)
            games.mkdir()
            result = Demo(options, stack, Display(io.StringIO(), fast=True), str(games)).play()
        assert [ply[0] for ply in result.plies] == ["human", "computer"]
        assert result.result is None  # the first game is left unfinished in the store


# -- issue 39: the demo as a user meets it -----------------------------------------------------

class _Interrupting(Display):
    """A display that sends this process ``signum`` at its fifth frame (a person's Ctrl-C)."""

    def __init__(self, signum: int) -> None:
        super().__init__(io.StringIO(), fast=True)
        self.signum = signum
        self.frames = 0

    def frame(self, picture: str, lines: list[str]) -> None:
        self.frames += 1
        if self.frames == 5:
            import os

            os.kill(os.getpid(), self.signum)


@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM"])
def test_a_signal_ends_the_demo_as_its_end_does(tmp_path: Path, name: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import signal

    from firmware_host.tools import demo as demo_module

    signum = getattr(signal, name)
    display = _Interrupting(signum)
    monkeypatch.setattr(demo_module, "Display", lambda out, fast: display)
    out = io.StringIO()
    display.out = out
    status = run_demo(DemoOptions(plies=200, fast=True, games_dir=str(tmp_path)), out)
    assert status == 128 + signum
    text = out.getvalue()
    assert f"stopped by {name} after " in text and "the game is unfinished (*)" in text
    path = Path(text.strip().splitlines()[-1].removeprefix("done: PDN written to "))
    assert path.is_file() and path.parent == tmp_path
    assert signal.getsignal(signum) is not display  # the handlers given back


def test_the_demo_keeps_its_game_in_the_users_games_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 39: each run left a new /tmp/draughtsboard-demo-* folder, and did not say why it
    # stopped at ply 20.
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    out = io.StringIO()
    assert run_demo(DemoOptions(plies=4, fast=True), out) == 0
    text = out.getvalue()
    games = tmp_path / "home/.local/share/draughtsboard/games"
    assert f"done: PDN written to {games}/demo_" in text
    assert "stopped after 4 plies, as --moves 4 asks: the game is unfinished (*)" in text
    assert list((tmp_path / "tmp").iterdir()) == []
    assert "the simulated player: " in text and "you: " not in text


def _cli(*argv: str) -> tuple[int, str]:
    import contextlib

    from firmware_host import cli

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = cli.main(list(argv))
    return status, err.getvalue()


@pytest.mark.parametrize(("argv", "said"), [
    (("demo", "--hall", "2", "--fast"), "--fast: the hall's players keep a person's pace"),
    (("demo", "--hall", "2", "--hub", "/bin/true"), "--hub and --config put one engine"),
    (("demo", "--hall", "2", "--variant", "russian,nosuch"), "nosuch"),
    (("demo", "--hall", "2", "--language", "xx"), "board.language = 'xx'"),
    (("demo", "--hall", "2", "--time-control", "bad"), "clock.time_control"),
    (("demo", "--hall", "2", "--games-dir", "/proc/nope"), "choose another with --games-dir"),
    (("demo", "--listen", "127.0.0.1:9"), "--listen is where --hall serves"),
    (("demo", "--variant", "russian,english"), "one variant (a list is for --hall)"),
])
def test_demo_refuses_in_one_line_what_it_cannot_take(argv: tuple[str, ...], said: str) -> None:
    # Issue 39: demo --hall silently ignored --variant, --level, --language, --moves.
    status, err = _cli(*argv)
    assert status == 2
    assert said in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_the_hall_takes_its_variants_level_language_and_clock() -> None:
    from firmware_host.cli import build_parser
    from firmware_host.tools.hall import HallOptions, banner_lines

    options = HallOptions(count=3, variants=("russian",), level=5, language="ru",
                          time_control="5+3", plies=40)
    boards = [options.board(n, "redis://x", Path("/tmp/h")) for n in (1, 2, 3)]
    assert {b.variant for b in boards} == {"russian"} and {b.level for b in boards} == {5}
    assert {b.language for b in boards} == {"ru"} and {b.time_control for b in boards} == {"5+3"}
    assert {b.plies for b in boards} == {40} and boards[1].board_id == "table2"
    lines = banner_lines("http://x/", HallOptions(3, variants=("brazilian", "pool")), "redis://y",
                         "1234567890")
    assert lines[0].endswith("(brazilian, pool, brazilian)")
    assert max(len(line) for line in lines) <= 80
    parser = build_parser()  # the CLI's default longest game is the hall's
    from firmware_host.cli.demo import HALL_PLIES
    from firmware_host.tools.hall import MAX_PLIES

    assert HALL_PLIES == MAX_PLIES and parser is not None


def test_commands_sent_between_two_games_are_taken_for_the_next(tmp_path: Path) -> None:
    # Issue 39: the hall closed a board's service between games; a command sent then (New game,
    # a level) was refused with 409. The service now runs on: the next game takes them.
    from firmware_host.terms.commands import Command

    with ExitStack() as stack:
        demo = Demo(DemoOptions(plies=4, fast=True, board_id="between"), stack,
                    Display(io.StringIO(), fast=True), str(tmp_path))
        first = demo.play()
        assert first.result is None and len(first.plies) == 4
        game = demo.session.game_id
        at = demo.clock.monotonic()
        demo.controller.post(Command("level", at, value="5"))
        demo.controller.post(Command("newgame", at))  # the organiser's New game
        demo.controller.step()
        demo.next_game()
        assert demo.session.game_id != game
        applied = [e for e in demo.events if e["event"] == "settings_applied"]
        assert applied and applied[-1]["applied"] == {"level": "5"}
        second = demo.play()  # the same service plays on
        assert len(second.plies) == 4


def test_a_demo_engine_never_thinks_on_the_players_time(tmp_path: Path) -> None:
    # A ponder search stopped by a miss leaves a table that depends on when: the demo would no
    # longer play the same game on every machine, and a hall's engines would keep every core.
    from firmware_host.config import Config
    from firmware_host.terms.settings import ENGINE_PONDER
    from firmware_host.tools.demo import demo_config

    config = demo_config(DemoOptions(games_dir=str(tmp_path)), str(tmp_path))
    assert config[ENGINE_PONDER] == "off"
    hub = Config.from_mapping({"engine": {"kind": "hub", "hub_command": ["scan", "hub"]}})
    assert demo_config(DemoOptions(games_dir=str(tmp_path), hub=hub),
                       str(tmp_path))[ENGINE_PONDER] == "off"
