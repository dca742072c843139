"""The arbiter's correction of a move on the board: the game taken back to before the ply, the
right move played, the reason in the record and the PDN, the position to set up on the LEDs."""

from __future__ import annotations

from engine.pdn import read_games
from firmware_host.feedback.roles import Role
from firmware_host.store.pdnrender import render_game
from firmware_host.terms.commands import Command
from tests.firmware_host.session_harness import Rig


def correct(rig: Rig, value: str, reason: str = "the board misread it") -> None:
    rig.wait(100)
    rig.session.handle(Command("correct_move", rig.now, value=value, tag=reason))


def played(*moves: str, **settings: object) -> Rig:
    rig = Rig("international", **settings)  # type: ignore[arg-type]
    for text in moves:
        rig.play(text)
    return rig


def test_a_corrected_move_replaces_the_wrong_one_and_the_record_says_why() -> None:
    rig = played("32-28", "18-23", "37-32")
    correct(rig, "3 33-29", "White played 33-29")
    assert rig.moves() == ["32-28", "18-23", "33-29"]
    takeback, move = rig.last("takeback"), rig.last("move")
    assert (takeback["ply"], takeback["plies"]) == (2, 1)
    assert (move["ply"], move["by"]) == (3, "arbiter")
    note = "arbiter: 37-32 corrected to 33-29 (ply 3; White played 33-29)"
    assert rig.game().notes == [(2, note)]
    text = render_game(rig.game())
    assert "{" + note + "}" in text.replace("\n", " ")
    assert len(read_games(text)[0].moves) == 3 and "2. 33-29" in text


def test_the_board_then_shows_the_position_to_set_up_and_goes_on_once_it_stands() -> None:
    rig = played("32-28", "18-23", "37-32")
    correct(rig, "3 33-29")
    assert rig.state == "syncing"
    # The board holds the game as played: the man of 37 on 32, 33 where it was.
    assert rig.leds(Role.MISSING) == {"29", "37"} and rig.leds(Role.EXTRA) == {"32", "33"}
    rig.lift("32", "33")
    rig.place("29", "37")
    rig.wait(1_000)
    assert rig.state == "human_to_move" and rig.session.board.turn == 1  # Black to move
    rig.play("23x32")  # the game goes on from the corrected position
    assert rig.moves() == ["32-28", "18-23", "33-29", "23x32"]


def test_an_earlier_ply_takes_back_the_moves_after_it() -> None:
    rig = played("32-28", "18-23", "37-32", "12-18")
    correct(rig, "1 31-27", "first move misread")
    assert rig.moves() == ["31-27"]
    assert rig.last("takeback")["plies"] == 4
    assert rig.game().notes == [(0, "arbiter: 32-28 corrected to 31-27 (ply 1; first move "
                                    "misread)")]


def test_bad_corrections_are_refused_and_the_game_is_untouched() -> None:
    rig = played("32-28", "19-23")
    for value, reason in (("2", "bad_value"), ("x 19-23", "bad_value"), ("0 32-28", "bad_ply"),
                          ("3 28x19", "bad_ply"), ("2 32-28", "not_a_move"),
                          ("2 banana", "not_a_move"), ("2 19-23", "same_move")):
        correct(rig, value)
        refused = rig.last("command_refused")
        assert (refused["command"], refused["reason"]) == ("correct_move", reason), value
    assert rig.moves() == ["32-28", "19-23"] and rig.game().notes == []
    assert rig.state == "human_to_move"


def test_a_finished_game_keeps_its_result_unless_the_arbiter_withdraws_it() -> None:
    rig = played("32-28", "19-23")
    rig.command("resign", side="white")
    assert rig.game().result == "0-2"
    correct(rig, "2 18-23", "Black played 18-23")          # the result is not said: kept
    game = rig.game()
    assert (game.result, game.termination) == ("0-2", "resignation")
    assert [m.pdn for m in game.moves] == ["32-28", "18-23"]
    assert game.notes[-1] == (1, "arbiter: 19-23 corrected to 18-23 (ply 2; Black played "
                                 "18-23), result 0-2 kept")
    assert rig.state == "game_over"
    correct(rig, "2 17-22 withdraw", "Black played 17-22; the resignation was a mistake")
    game = rig.game()
    assert game.result == "*" and [m.pdn for m in game.moves] == ["32-28", "17-22"]
    assert game.notes[-1] == (1, "arbiter: 18-23 corrected to 17-22 (ply 2; Black played "
                                 "17-22; the resignation was a mistake), result 0-2 withdrawn: "
                                 "play resumes")
    assert rig.session.outcome is None and rig.state == "syncing"


def test_the_clock_is_not_rewound_and_the_side_to_move_after_the_correction_runs() -> None:
    rig = played(time_control="3+2")
    rig.wait(10_000)
    rig.play("32-28")                  # White 180 - 10.5 + 2 = 171.5
    rig.wait(20_000)
    rig.play("19-23")                  # Black 180 - 20.5 + 2 = 161.5
    rig.wait(5_000)
    correct(rig, "2 18-23")            # 5.1 s of White's time pass before it
    move = rig.last("move")
    assert (move["clock_white"], move["clock_black"]) == (166.4, 161.5)
    clock = rig.last("clock")
    assert clock["running"] == "white" and clock["clock_black"] == 161.5


def test_a_finished_draw_corrected_keeps_its_draw_and_no_clock_runs() -> None:
    """Issue 38 (critical): a game drawn by agreement, its last ply corrected: the card showed
    "in progress", Black's clock ran and 4 minutes later the flag fell: "White won (time)"."""
    rig = played("32-28", "19-23", time_control="3+2")
    rig.command("draw", side="black")              # Black, who just moved, offers
    rig.command("draw", side="white")              # White accepts
    assert (rig.game().result, rig.game().termination) == ("1-1", "draw_agreed")
    correct(rig, "2 18-23", "the score sheets say 18-23")
    game = rig.game()
    assert (game.result, game.termination) == ("1-1", "draw_agreed")
    assert [m.pdn for m in game.moves] == ["32-28", "18-23"]
    assert rig.state == "game_over" and rig.session.outcome is not None
    clock = rig.last("clock")
    assert clock["running"] is None
    rig.wait(600_000)                              # nobody at the board for ten minutes
    assert (rig.game().result, rig.game().termination) == ("1-1", "draw_agreed")
    assert rig.last("clock") == clock              # not a tick: the clock is stopped


def test_the_arbiter_can_change_the_result_in_the_same_decision() -> None:
    rig = played("32-28", "19-23")
    rig.command("resign", side="black")
    correct(rig, "2 18-23 draw", "18-23 was played; the players then agreed a draw")
    game = rig.game()
    assert (game.result, game.termination) == ("1-1", "adjudication")
    assert game.notes[-1][1].endswith("result 2-0 changed to 1-1")
    assert rig.state == "game_over"


def test_a_corrected_position_holds_the_clock_until_set_up_and_released() -> None:
    """Issue 38: "57 s charged to White while the players set up the corrected position"."""
    rig = played(time_control="3+2")
    rig.play("32-28")
    rig.play("18-23")
    rig.play("37-32")
    correct(rig, "3 33-29")
    held = rig.last("clock")
    assert (held["running"], held["paused"], held["held"]) == ("black", True, ["setup"])
    rig.wait(57_000)                                # the players set up the position
    rig.lift("32", "33")
    rig.place("29", "37")
    rig.wait(1_000)
    assert rig.state == "paused"                    # set up: waiting for the release
    rig.play("23x32")                               # a move now does not count
    assert rig.moves() == ["32-28", "18-23", "33-29"]
    assert rig.last("refused")["reason"] == "paused"
    rig.lift("32")
    rig.place("23", "28")                           # put back
    rig.wait(1_000)
    rig.session.handle(Command("resume", rig.now, id="1-0"))
    assert rig.last("answer") == {**rig.last("answer"), "id": "1-0", "answer": "done"}
    assert rig.last("clock")["clock_black"] == held["clock_black"]   # nothing charged
    assert rig.state == "human_to_move"
    rig.play("23x32")
    assert rig.moves()[-1] == "23x32"


def test_a_release_before_the_position_stands_is_refused_and_the_clock_button_releases_it(
        ) -> None:
    rig = played("32-28", "18-23", "37-32", time_control="3+2", clock_button=True)
    correct(rig, "3 33-29")
    rig.session.handle(Command("resume", rig.now, id="2-0"))
    assert rig.last("answer")["answer"] == "refused"
    assert rig.last("answer")["reason"] == "not_ready"
    rig.press("clock")
    assert rig.last("command_refused")["reason"] == "not_ready"
    rig.lift("32", "33")
    rig.place("29", "37")
    rig.wait(1_000)
    assert rig.last("clock")["paused"] is True
    rig.press("clock")                              # a player starts the clock
    assert rig.last("clock")["paused"] is False and rig.state == "human_to_move"
