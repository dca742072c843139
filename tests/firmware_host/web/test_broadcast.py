"""The broadcast PDN (web/broadcast.py) stays readable by the readers a relay uses."""

from __future__ import annotations

from draughts.PDN import PDNReader

from engine.pdn import read_games
from firmware_host.web.broadcast import render_games
from tests.firmware_host.game.test_correction import played


def test_a_game_without_a_move_does_not_hide_the_games_after_it() -> None:
    """Issue 38: a board waiting for its first move put a game without moves into
    /broadcast.pdn, after which pydraughts 0.6.7 read nothing more: such games come last."""
    first, waiting, last = played("32-28", "19-23"), played(), played("31-27")
    waiting.session.game.save(None)  # (tagged apart from the others)
    waiting.store.set_headers(waiting.session.game_id, {"White": "Eva Kok"})
    text = render_games([first.game(), waiting.game(), last.game()])
    theirs = PDNReader(pdn_text=text).games   # every game with a move, then the first without
    assert [(g.moves, g.tags["White"]) for g in theirs] == [
        (["32-28", "19-23"], "?"), (["31-27"], "?"), ([], "Eva Kok")]
    ours = read_games(text)                  # every game, the waiting one last
    assert [g.move_texts for g in ours] == [["32-28", "19-23"], ["31-27"], []]
    assert read_games(render_games([waiting.game()]))[0].headers["White"] == "Eva Kok"
