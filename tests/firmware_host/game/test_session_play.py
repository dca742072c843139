"""Play mode: the computer's reply on the LEDs, fast replies, alternative moves, hints, takeback."""

from __future__ import annotations

import pytest

from board_io.types import Pattern
from engine import Board
from engine.types import Color
from firmware_host.feedback.roles import Role
from firmware_host.terms.settings import Mode
from tests.firmware_host.session_harness import Rig


def play_rig(computer: list[str], fen: str | None = None, **settings: object) -> Rig:
    """English, the human plays Black (who moves first), the computer White."""
    settings.setdefault("human_side", Color.BLACK)
    return Rig("english", mode=Mode.PLAY, fen=fen, computer=computer, **settings)


def test_computer_reply_is_shown_and_committed_once_carried_out() -> None:
    rig = play_rig(["23-19"])
    rig.play("11-15")
    assert rig.state == "computer_move_pending"
    assert rig.leds(Role.FROM) == {"23"} and rig.leds(Role.TO) == {"19"}
    assert rig.moves() == ["11-15"]  # not before it is on the board
    rig.lift("23")
    assert rig.leds(Role.FROM) == set() and rig.leds(Role.TO) == {"19"}
    rig.place("19")
    assert rig.moves() == ["11-15", "23-19"]
    assert rig.last("move")["by"] == "computer"
    assert rig.state == "human_to_move"
    assert rig.leds(Role.TO) == set()


def test_computer_capture_shows_path_and_pieces_to_remove() -> None:
    rig = play_rig(["27x11"], fen="B:W27,31:B24,16,1,3")
    rig.play("1-5")
    assert rig.leds(Role.FROM) == {"27"}
    assert rig.leds(Role.PATH) == {"20"}
    assert rig.leds(Role.TO) == {"11"}
    assert rig.leds(Role.REMOVE) == {"24", "16"}
    remove = {led.pattern for sq, led in rig.session.frame.items() if led is Role.REMOVE}
    assert remove == {Pattern.SLOW}
    rig.lift("16")  # captured pieces removed first, in any order
    assert rig.leds(Role.REMOVE) == {"24"}
    rig.lift("27")
    rig.place("11")
    assert rig.moves() == ["1-5"]
    rig.lift("24")
    assert rig.moves() == ["1-5", "27x11"]


def test_fast_reply_on_top_of_the_computer_move_commits_both() -> None:
    rig = play_rig(["23-19"])
    rig.play("11-15")
    board = Board("english", fen=rig.session.board.fen())
    board.push(rig.session.pending)
    board.push(board.find_move(rig.sq("9"), rig.sq("14")))
    rig.set(board.occupied_squares())
    rig.wait(rig.config.settle_ms + 10)
    assert rig.moves() == ["11-15", "23-19", "9-14"]
    assert rig.state == "computer_move_pending"


def test_a_different_move_for_the_computer_is_refused() -> None:
    rig = play_rig(["23-19"])
    rig.play("11-15")
    rig.play("22-18", base=True)
    refused = rig.last("refused")
    assert (refused["reason"], refused["expected"], refused["played"]) == (
        "wrong_computer_move", "23-19", "22-18")
    assert rig.moves() == ["11-15"]
    rig.wait(rig.config.error_ms)
    assert rig.leds(Role.MISSING) == {"22"} or rig.leds(Role.FROM) == {"23"}
    rig.lift("18")
    rig.place("22")
    rig.computer_move()
    assert rig.moves() == ["11-15", "23-19"]


def test_alternative_move_accepted_when_enabled() -> None:
    rig = play_rig(["23-19"], alternative_move=True)
    rig.play("11-15")
    rig.play("22-18", base=True)
    assert rig.moves() == ["11-15", "22-18"]
    assert rig.last("move")["by"] == "human-for-computer"
    assert rig.state == "human_to_move"


def test_board_stays_responsive_while_the_engine_thinks() -> None:
    rig = play_rig([], manual=True)
    rig.play("11-15")
    assert rig.state == "engine_thinking"
    rig.place("14")  # a stray piece while the computer thinks
    rig.wait(rig.config.error_ms + 10)
    assert rig.leds(Role.EXTRA) == {"14"}
    rig.lift("14")
    rig.answer("23-19")
    assert rig.state == "computer_move_pending"
    assert rig.leds(Role.FROM) == {"23"}


def test_engine_failure_still_gives_a_legal_reply() -> None:
    rig = play_rig([], manual=True)
    rig.play("11-15")
    rig.answer(None)
    assert rig.published("engine_error")
    assert rig.state == "computer_move_pending"
    assert rig.session.pending in rig.session.board.legal_moves


def test_hint_shows_the_engines_suggestion() -> None:
    rig = play_rig(["9-13"])
    rig.press("hint")
    assert rig.last("hint")["pdn"] == "9-13"
    assert rig.leds(Role.HINT) == {"9", "13"}
    rig.play("11-15")  # the hint goes with the turn
    assert rig.leds(Role.HINT) == set()


def test_takeback_button_undoes_to_the_humans_previous_turn() -> None:
    rig = play_rig(["23-19"])
    initial = set(rig.occupied)
    rig.play("11-15")
    rig.computer_move()
    rig.press("takeback")
    taken = rig.last("takeback")
    assert (taken["plies"], taken["ply"]) == (2, 0)
    assert rig.moves() == []
    assert rig.state == "syncing"
    assert rig.leds(Role.MISSING) == {"11", "23"} and rig.leds(Role.EXTRA) == {"15", "19"}
    rig.set(initial)
    assert rig.state == "human_to_move"
    rig.play("10-14")
    assert rig.moves() == ["10-14"]


def test_takeback_by_restoring_the_position_held_takeback_ms() -> None:
    rig = play_rig(["23-19"])
    initial = set(rig.occupied)
    rig.play("11-15")
    rig.computer_move()
    rig.set(initial)
    rig.wait(rig.config.takeback_ms - 200)
    assert rig.published("takeback") == []
    rig.wait(300)
    assert rig.last("takeback")["plies"] == 2
    assert rig.moves() == []
    assert rig.state == "human_to_move"


def test_takeback_while_the_reply_is_pending_undoes_the_human_move() -> None:
    rig = play_rig(["23-19", "22-18"])
    initial = set(rig.occupied)
    rig.play("11-15")
    assert rig.state == "computer_move_pending"
    rig.set(initial)
    rig.wait(rig.config.takeback_ms + 10)
    assert rig.last("takeback")["plies"] == 1
    assert rig.session.pending is None
    assert rig.state == "human_to_move"
    assert rig.leds(Role.FROM) == set()


def test_takebacks_can_be_disabled() -> None:
    rig = play_rig(["23-19"], takeback=False)
    initial = set(rig.occupied)
    rig.play("11-15")
    rig.computer_move()
    rig.press("takeback")
    assert rig.published("takeback_refused")
    rig.set(initial)
    rig.wait(rig.config.takeback_ms + 10)
    assert rig.published("takeback") == []
    assert rig.moves() == ["11-15", "23-19"]


def test_computer_moves_first_when_it_has_the_first_move() -> None:
    rig = Rig("english", mode=Mode.PLAY, computer=["11-15"], human_side=Color.WHITE)
    assert rig.state == "computer_move_pending"
    rig.computer_move()
    assert rig.state == "human_to_move"
    assert rig.moves() == ["11-15"]


def test_promotion_shows_the_crown_reminder_briefly() -> None:
    rig = play_rig(["6-2"], fen="B:W6,32:B9,3")
    rig.play("9-13")
    rig.computer_move(settle=False)
    assert rig.leds(Role.CROWN) == {"2"}
    rig.wait(rig.config.crown_ms + 10)
    assert rig.leds(Role.CROWN) == set()


def test_human_resigns_and_draw_offers_are_declined() -> None:
    rig = play_rig([])
    rig.press("draw")
    assert rig.published("draw_declined")
    assert rig.state == "human_to_move"
    rig.press("resign")
    # The human (black) resigned: White wins, "0-1" as English results are scored from Black,
    # the first mover (PDN 2.0/3.0, GameType "21,B,...").
    assert rig.last("result")["result"] == "0-1"


def restarted(rig: Rig, occupied: set[int], computer: list[str] | None = None) -> Rig:
    """The same store after a restart of the service, the board showing ``occupied``."""
    again = Rig("english", mode=Mode.PLAY, store=rig.store, computer=computer or [],
                occupied=occupied, human_side=Color.BLACK)
    return again


def test_resume_with_the_computer_move_still_to_carry_out() -> None:
    rig = play_rig(["23-19"])
    rig.play("11-15")
    again = restarted(rig, set(rig.occupied))
    assert again.state == "computer_move_pending"
    assert again.leds(Role.FROM) == {"23"} and again.leds(Role.TO) == {"19"}
    assert again.opponent.searches == 0  # the saved reply is shown, not searched again
    again.computer_move()
    assert again.moves() == ["11-15", "23-19"]


def test_resume_when_the_computer_move_was_carried_out_meanwhile() -> None:
    rig = play_rig(["23-19"])
    rig.play("11-15")
    board = Board("english", fen=rig.session.board.fen())
    board.push(rig.session.pending)
    again = restarted(rig, set(board.occupied_squares()))
    assert again.moves() == ["11-15", "23-19"]
    assert again.state == "human_to_move"


def test_resume_of_a_finished_game_keeps_its_result() -> None:
    rig = play_rig([])
    rig.press("resign")
    again = restarted(rig, set(rig.occupied))
    assert again.state == "game_over"
    assert again.session.outcome is not None and again.session.outcome.winner == 0


@pytest.mark.logs_errors
def test_a_corrupt_saved_session_starts_a_new_game() -> None:
    rig = play_rig(["23-19"])
    rig.play("11-15")
    rig.store.save_session({"variant": "english", "mode": "play", "game_id": "x",
                            "start_fen": "nonsense", "moves": [[1, 2, [], [2]]]})
    again = restarted(rig, set(Board("english").occupied_squares()))
    assert again.published("resume_failed")
    assert again.session.game_id != "x"
    assert again.state == "human_to_move"
