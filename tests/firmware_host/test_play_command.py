"""``draughtsboard play``: typed commands drive the simulated board through the whole pipeline."""

from __future__ import annotations

import io
import subprocess
import sys

from firmware_host.config.loader import Config
from firmware_host.tools.terminal import PlayOptions, play


def run_play(lines: str, **settings: object) -> str:
    game = {"variant": "english", "mode": "play", "human_side": "black"}
    game.update({k: v for k, v in settings.items() if k in ("variant", "mode", "human_side")})
    config = Config.from_mapping({"game": game, "store": {"url": "memory"}})
    out = io.StringIO()
    fen = settings.get("fen")
    options = PlayOptions(config=config, auto_execute=bool(settings.get("auto", True)),
                          colour=False, virtual_time=True,
                          fen=fen if isinstance(fen, str) else None)
    assert play(options, stdin=io.StringIO(lines), out=out) == 0
    return out.getvalue()


def test_typed_moves_are_played_and_the_reply_carried_out() -> None:
    text = run_play("11-15\nquit\n")
    assert "1. 11-15" in text
    assert "the computer plays" in text
    pdn = text.rsplit("[GameId", 1)[1]
    assert "1. 11-15 " in pdn and pdn.strip().endswith("*")


def test_lift_and_place_by_hand() -> None:
    text = run_play("lift 11\nplace 15\nquit\n", auto=False)
    assert "1. 11-15" in text
    assert "carry it out on the board" in text


def test_bad_input_is_explained_and_the_game_goes_on() -> None:
    text = run_play("11-19\nlift 5\nplace 5\nbanana\n11-15\nquit\n")
    assert "illegal move" in text.lower() or "not a move" in text.lower()
    assert "1. 11-15" in text


def test_record_mode_takes_both_sides() -> None:
    text = run_play("11-15\n23-19\nresign\nquit\n", mode="record")
    assert "1... 23-19" in text
    assert "game over: 0-1 (resignation)" in text  # White won: 0-1 where Black moves first


def test_command_line_entry() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "firmware_host.cli", "play", "--variant", "russian",
         "--side", "white", "--virtual-time", "--no-colour"],
        input="c3-d4\nquit\n", capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "1. c3-d4" in done.stdout


def test_a_bad_fen_gives_one_clear_error() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "firmware_host.cli", "play", "--fen", "nonsense",
         "--virtual-time"], input="quit\n", capture_output=True, text=True, timeout=60,
        check=False)
    assert done.returncode == 2
    assert "FEN" in done.stderr and "Traceback" not in done.stderr


def test_a_typed_illegal_move_is_explained_as_the_hand_path_explains_it() -> None:
    # Issue 14 (7): the same sentence as the refusal of the same move made by hand.
    text = run_play("c3-d2\nlift c3\nplace b4\nquit\n", variant="russian", human_side="white",
                    auto=False, fen="W:Wc3,e1:Bd4,h8")
    assert "illegal move 'c3-d2'" not in text
    assert text.count("a capture is compulsory: c3:e5") == 2


def test_after_a_takeback_the_terminal_says_what_to_put_back() -> None:
    text = run_play("11-15\ntakeback\nquit\n")
    after = text.split("took back", 1)[1]
    assert "put back on: 11" in after and "take away: 15" in after


def test_a_piece_of_unknown_colour_is_not_drawn_as_black() -> None:
    # A piece from nowhere is drawn as unknown ("?"), never as Black's; a piece the hand moves
    # keeps the colour of the piece it lifted.
    text = run_play("place 18\nboard\nquit\n", mode="record")
    last = text.rsplit("+---", 2)[1]
    assert "?" in last
    assert last.count("●") == 12 and last.count("○") == 12
    text = run_play("lift 22\nplace 18\nboard\nquit\n", mode="record")
    last = text.rsplit("+---", 2)[1]
    assert "?" not in last and last.count("○") == 12


def test_correction_lights_are_drawn_when_they_come_on() -> None:
    # A blinking light is drawn lit (a still picture cannot blink): the extra piece on 18 shows.
    text = run_play("place 18\nquit\n", mode="record")
    last = text.rsplit("+---", 2)[1]
    assert "[?]" in last
