"""How a game ended is said in words, in the viewer's language, on the board page and the round's
results (it was the record's own key: ``(time)``, ``(no_moves)``)."""

from __future__ import annotations

import json
import re

import pytest

from firmware_host.i18n import translator
from firmware_host.store.records import GameRecord
from firmware_host.web.liveness import Liveness
from firmware_host.web.reader import BoardView
from firmware_host.web.views import Views


def _view(termination: str) -> BoardView:
    game = GameRecord(game_id="g1", board_id="b1", headers={}, variant="russian",
                      start_fen=None, mode="record", created=0.0, result="0-1",
                      termination=termination)
    return BoardView(board_id="b1", game=game, position=None)


@pytest.mark.parametrize(("termination", "language", "words"), [
    ("no_moves", "en", "no moves left"),
    ("no_moves", "ru", None),
    ("time", "ja", "時間切れ"),
    ("resignation", "fr", None),
])
def test_the_panel_says_how_the_game_ended(termination: str, language: str,
                                           words: str | None) -> None:
    tr = translator(language)
    html = Views().panel(_view(termination), Liveness(True, None), tr)
    result = re.search(r'<dd class="result">(.*?)</dd>', html)
    assert result is not None
    assert termination not in result.group(1)  # never the record's key
    expected = words if words is not None else tr.gettext(
        {"no_moves": "no moves left", "resignation": "resignation"}[termination])
    assert f"(<span>{expected}</span>)" in result.group(1)


def test_the_live_panel_s_endings_are_among_the_script_s_words() -> None:
    words = json.loads(Views().page("hall.html", translator("ko"), boards=[], cursor="",
                                    cards="", rounds=[]).split('data-words="', 1)[1]
                       .split('"', 1)[0].replace("&#34;", '"').replace("&quot;", '"'))
    assert words["no moves left"] != "no moves left" and words["time"] != "time"
