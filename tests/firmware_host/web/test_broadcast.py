"""The broadcast PDN (web/broadcast.py) stays readable by the readers a relay uses."""

from __future__ import annotations

from draughts.PDN import PDNReader

from engine.pdn import read_games
from firmware_host.web.broadcast import render_games
from tests.firmware_host.test_correct_move import played


def test_a_game_without_a_move_does_not_hide_the_games_after_it() -> None:
    """Issue 38: a board waiting for its first move put a game without moves into
    /broadcast.pdn, after which pydraughts 0.6.7 read nothing more."""
    first, waiting, last = played("32-28", "19-23"), played(), played("31-27")
    text = render_games([first.game(), waiting.game(), last.game()])
    assert [g.moves for g in PDNReader(pdn_text=text).games] == [["32-28", "19-23"],
                                                                 ["31-27"]]
    assert [g.move_texts for g in read_games(text)] == [["32-28", "19-23"], ["31-27"]]
    assert render_games([waiting.game()]) == ""
