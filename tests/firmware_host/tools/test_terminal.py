"""``draughtsboard play``: typed commands drive the simulated board through the whole pipeline."""

from __future__ import annotations

import io
import subprocess
import sys

from firmware_host.config.loader import Config
from firmware_host.tools.terminal import PlayOptions, play


def run_play(lines: str, **settings: object) -> str:
    game: dict[str, object] = {"variant": "english", "mode": "play", "human_side": "black"}
    game.update({k: v for k, v in settings.items() if k in ("variant", "mode", "human_side")})
    config = Config.from_mapping({"game": game, "store": {"url": "memory"}})
    out = io.StringIO()
    fen = settings.get("fen")
    options = PlayOptions(config=config, auto_execute=bool(settings.get("auto", True)),
                          colour=False, virtual_time=True,
                          fen=fen if isinstance(fen, str) else None,
                          set_up=bool(settings.get("set_up", False)))
    assert play(options, stdin=io.StringIO(lines), out=out) == 0
    return out.getvalue()


def last_board(text: str) -> str:
    """The squares of the last board drawn (the number key beside it left out)."""
    lines = text.splitlines()
    tops = [i for i, line in enumerate(lines) if line.lstrip().startswith("+---")]
    top, bottom = tops[-2], tops[-1]
    width = lines[top].index("+", lines[top].index("+") + 1) + 1
    return "\n".join(line[:width] for line in lines[top + 1:bottom])


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
    assert "the man on 11 can go to 15 or 16, not to 19" in text
    assert "'banana' is neither a move nor a command (type help)" in text
    assert "1. 11-15" in text


def test_record_mode_takes_both_sides() -> None:
    text = run_play("11-15\n23-19\nresign black\nquit\n", mode="record")
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
    last = last_board(text)
    assert "?" in last
    assert last.count("●") == 12 and last.count("○") == 12
    text = run_play("lift 22\nplace 18\nboard\nquit\n", mode="record")
    last = last_board(text)
    assert "?" not in last and last.count("○") == 12


def test_correction_lights_are_drawn_when_they_come_on() -> None:
    # A blinking light is drawn lit (a still picture cannot blink): the extra piece on 18 shows.
    text = run_play("place 18\nquit\n", mode="record")
    last = last_board(text)
    assert "E?E" in last  # the letter of the light's kind: extra
    assert "lights: E take this piece away" in text


def test_after_the_game_buttons_say_the_game_is_over() -> None:
    # Issue 24: a hint after the game was refused with "not_your_turn".
    text = run_play("resign\nhint\nresign\ndraw\ndone\nquit\n", mode="play")
    after = text.split("game over:", 1)[1]
    assert "the game is over: no hints (newgame starts another)" in after
    assert "a hint is for your own turn" not in after
    assert "resign: the game is over" in after and "draw: the game is over" in after
    assert "done: no adjust window is open (adjust opens one)" in after


def test_a_takeback_counts_in_words() -> None:
    text = run_play("11-15\ntakeback\nquit\n")
    assert "took back 2 moves, black to move" in text
    assert "(s)" not in text


def test_a_typed_move_while_the_reply_is_pending_is_refused() -> None:
    # Issue 24: "c3-d4" typed while the computer's reply waited was carried out on the board.
    text = run_play("c3-d4\nboard\ne3-f4\nboard\nquit\n", variant="russian", human_side="white",
                    auto=False)
    pending = text.split("the computer plays ", 1)[1].split(":", 1)[0]
    assert f"first carry out the computer's move {pending}, or type `takeback`" in text
    boards = [last_board(part) for part in text.split("first carry out")]
    assert boards[0] == boards[1]  # the position is unchanged
    assert "put back on" not in text.split("first carry out", 1)[1]
    pdn = text.rsplit("[GameId", 1)[1]
    assert "1. c3-d4 *" in pdn


def test_the_computers_move_typed_is_carried_out() -> None:
    text = run_play("c3-d4\nquit\n", variant="russian", human_side="white", auto=False)
    pending = text.split("the computer plays ", 1)[1].split(":", 1)[0]
    text = run_play(f"c3-d4\n{pending}\nquit\n", variant="russian", human_side="white",
                    auto=False)
    assert f"1... {pending}" in text


def test_numeric_boards_take_the_squares_as_drawn() -> None:
    # Issue 24: the international board is drawn a-j / 1-10 but refused "d4-e5".
    text = run_play("d4-e5\nquit\n", variant="international", human_side="white")
    assert "1. 32-28" in text
    assert "46 " in text  # the number key beside the board
    text = run_play("b1-c2\nquit\n", variant="international", human_side="white")
    assert "b1 is a light square: pieces stand on the dark ones" in text


def test_refusals_name_their_reason_and_no_position_string() -> None:
    text = run_play("c5-b4\ne3-e5\nc3-a5\nb2-c3\nc7-d6\nlift c3\nplace e5\nquit\n",
                    variant="russian", human_side="white", auto=False)
    assert "there is no piece on c5" in text
    assert "the man on e3 can go to d4 or f4, not to e5" in text
    assert "the man on c3 can go to b4 or d4, not to a5" in text
    assert "the man on b2 cannot move now" in text
    assert "c7 holds a black man: it is white's turn" in text
    assert "the man on c3 can go to b4 or d4, not to e5" in text  # the same move by hand
    assert "W:W" not in text.split("[Event", 1)[0]  # no FEN in a message
    assert "that is not a legal move" not in text


def test_fix_does_what_the_correction_lights_ask() -> None:
    # A new game at the terminal: no thirty lifts and placements by hand.
    text = run_play("11-15\nnewgame\nfix\nquit\n")
    after = text.split("set up the initial position to start a new game", 1)[1]
    assert "new game (english, play mode)" in after
    pdn = text.rsplit("[GameId", 1)[1]
    assert pdn.split("\n\n", 1)[1].strip() == "*"  # the new game, not yet begun
    text = run_play("11-15\ntakeback\nfix\nfix\nquit\n", auto=False)
    after = text.split("took back", 1)[1]
    assert "board in sync with the game" in after
    assert "nothing to put right: the board matches the game" in after
    text = run_play("lift 11\nfix\nquit\n", auto=False)
    assert "no correction is lit yet" in text  # not "the board matches the game"


def test_with_a_time_control_both_clocks_show_after_each_move_and_in_status() -> None:
    config = Config.from_mapping({"game": {"variant": "international", "mode": "record"},
                                  "store": {"url": "memory"},
                                  "clock": {"time_control": "5+3"}})
    out = io.StringIO()
    options = PlayOptions(config=config, auto_execute=True, colour=False, virtual_time=True)
    assert play(options, stdin=io.StringIO("status\n32-28\nstatus\n19-23\nhelp\nquit\n"),
                out=out) == 0
    lines = [line.strip() for line in out.getvalue().splitlines()]
    # Before the first move (status): White's time runs from the start position, untouched.
    assert "[white to move]  white 0:05:00*  black 0:05:00" in lines
    # After White's move its 3 s increment is added and Black's time runs: the board's line
    # after the move and status both say so (a typed move takes White well under a second).
    after = [line for line in lines if line.endswith("black 0:05:00*")]
    assert after and all(line.startswith("[") and "white 0:05:02" in line for line in after)
    assert any("white 0:05:02  black 0:05:00*" in line and "black to move" in line
               for line in lines)
    # After Black's move White's time runs again and Black has its increment.
    assert any(line.endswith("white 0:05:02*  black 0:05:02") for line in lines)
    assert "1. 32-28 {[%clk 0:05:02]} 19-23 {[%clk 0:05:02]}" in out.getvalue()
    assert "status    whose turn it is and what the board waits for, with both clocks" in lines


def test_a_takeback_before_any_move_says_there_is_nothing_to_take_back() -> None:
    # It said "takebacks are not available in play mode", in the mode that has them.
    text = run_play("takeback\n11-15\ntakeback\ntakeback\nquit\n")
    assert "not available in play mode" not in text
    assert text.count("nothing to take back: you have not moved yet") == 2
    assert "took back 2 moves, black to move" in text


def test_a_capture_taken_back_shows_the_capturing_piece_in_its_colour() -> None:
    # After 14x23 and a takeback, 23 was drawn with a white man (the last piece the typed
    # capture lifted, 18) while the black man stood there to take away.
    text = run_play("14x23\ntakeback\nquit\n", fen="B:W18,30,31:B14,1")
    assert "take away: 23, 25" in text
    board = last_board(text).splitlines()
    assert board[5] == "3 |            E●E         |"  # 23: the black man that captured
    assert board[6] == "2 |   E○E                  |"  # 25: the white man that replied


def test_adjust_and_hint_while_the_board_is_put_right_say_so() -> None:
    # After a takeback, on the player's own turn, they said "only on your own turn".
    text = run_play("11-15\ntakeback\nadjust\nhint\nfix\nadjust\nquit\n")
    after = text.split("took back 2 moves", 1)[1]
    assert "only on your own turn" not in after and "a hint is for your own turn" not in after
    assert "adjust: first put the pieces as the lights show" in after
    assert "no hint yet: first put the pieces as the lights show" in after
    assert "adjust window open" in after  # put right (fix): adjust works again


def _play_saving(lines: str, games: object) -> str:
    """``run_play`` with the games written as PDN files into ``games``."""
    config = Config.from_mapping({"game": {"variant": "english", "human_side": "black"},
                                  "store": {"url": "memory"}})
    out = io.StringIO()
    options = PlayOptions(config=config, auto_execute=True, colour=False, virtual_time=True,
                          games_dir=str(games))
    assert play(options, stdin=io.StringIO(lines), out=out) == 0
    return out.getvalue()


def test_a_game_left_at_once_leaves_no_empty_file(tmp_path: object) -> None:
    # Issue 39: `play` then `quit` saved an empty game file every time.
    from pathlib import Path

    games = Path(str(tmp_path)) / "games"
    text = _play_saving("quit\n", games)
    assert list(games.glob("*.pdn")) == []
    assert f"saved: nothing yet, in {games}" in text
    _play_saving("11-15\nquit\n", games)
    assert len(list(games.glob("*.pdn"))) == 1


def test_games_lists_the_local_games_and_says_where(tmp_path: object) -> None:
    # Issue 39: `draughtsboard games` printed nothing after three `play` games.
    from pathlib import Path

    home = Path(str(tmp_path))
    games = home / ".local/share/draughtsboard/games"
    for _ in range(3):
        _play_saving("11-15\nquit\n", games)
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "firmware_host.cli", "games"], env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr == f"draughtsboard games: 3 PDN files in {games} (--store URL lists a " \
                          "hall's Redis)\n"
    lines = done.stdout.splitlines()
    assert len(lines) == 3 and all("english" in line and "(2 plies)" in line for line in lines)
    exported = subprocess.run([sys.executable, "-m", "firmware_host.cli", "games", "export"],
                              env=env, capture_output=True, text=True, timeout=60, check=False)
    from engine.pdn import read_games

    assert len(read_games(exported.stdout)) == 3


def test_after_a_takeback_the_refusals_name_fix() -> None:
    # Issue 39: after `takeback` every move was refused, and only `fix` got out; neither the
    # refusal nor the README named it.
    text = run_play("11-15\ntakeback\n11-15\nquit\n", auto=False)
    assert "the lights show how to put the pieces back: type fix to do it" in text
    assert "first make the board match the game: type fix to put the pieces as the lights " \
           "show" in text


def test_a_typo_gets_the_same_answer_whatever_the_board_waits_for() -> None:
    # Issue 39: while the computer's move was pending, `helo` and `e3-i9` got "first carry
    # out the computer's move" instead of "not a move or command" / "not a square".
    typos = "helo\ne3-i9\n"
    at_your_turn = run_play(typos + "quit\n", auto=False)
    pending = run_play("11-15\n" + typos + "quit\n", auto=False)
    over = run_play("resign\n" + typos + "quit\n", auto=False)
    for text in (at_your_turn, pending, over):
        assert "'helo' is neither a move nor a command (type help)" in text
        assert "'i9' is not a square of this board" in text
    assert "first carry out the computer's move" not in pending.split("helo", 1)[-1]


def test_characters_after_a_move_are_refused_with_what_was_meant() -> None:
    # Issue 39: `g3-h4x` was played as g3-h4 without a word.
    text = run_play("11-15x\nquit\n", auto=False)
    assert "'11-15x' is not a move: did you mean 11-15?" in text
    assert "1... 11-15" not in text and "1. 11-15" not in text


def test_play_fen_sets_the_position_up_by_the_lights_from_the_start() -> None:
    # White's king on 1 and man on 5 stand where Black's men do: off first, then put on.
    text = run_play("11-15\nfix\nboard\n22-17\nquit\n", fen="W:WK1,5,22:B20,K30",
                    set_up=True, human_side="white")
    before, after = text.split("the position is set: white to move", 1)
    assert "set up the position: black men on 20; take off 1, 2, 3" in before
    assert "lights: E take this piece away, D put a black man" in before
    assert "first make the board match the game" in before  # no move before it is set
    board = last_board(after)
    assert board.count("○") == 2 and board.count("◎") == 1  # two white men, a white king
    assert board.count("●") == 1 and board.count("◉") == 1  # a black man, a black king
    assert "1. 22-17" in after and "[FEN \"W:WK1,5,22:B20,K30\"]" in after


def test_a_review_on_the_terminal_says_nothing_analyses_its_games() -> None:
    """The terminal's board analyses no game (whatever ``coach.analyse`` says): its review of
    a game not analysed says so, and what does analyse, never that the board will."""
    text = run_play("11-15\nresign\nreview\nquit\n", mode="play")
    after = text.split("game over:", 1)[1]
    assert "nothing analyses the games played here" in after, after
    assert "draughtsboard annotate" in after and "while it is idle" not in after
