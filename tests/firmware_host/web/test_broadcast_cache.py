"""A relay's poll reads again and renders again only the games whose log changed (a relay gives
up on an answer after 4 s: firmware_host/web/broadcast.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from firmware_host.store.keys import BoardKeys
from firmware_host.store.records import GameRecord, MoveRecord
from firmware_host.web import broadcast
from firmware_host.web.broadcast import Records, Renderings


class Logs:
    """Game logs as the reader sees them: each game's newest entry id, and its replay."""

    def __init__(self) -> None:
        self.newest: dict[str, str] = {}
        self.reads: list[tuple[str, str]] = []
        self.games: dict[tuple[str, str], GameRecord] = {}

    async def marks(self, keys: Sequence[str]) -> list[str]:
        return [self.newest.get(key, "0-0") for key in keys]

    async def read(self, board: str, game_id: str) -> GameRecord | None:
        self.reads.append((board, game_id))
        game = self.games.get((board, game_id))
        if game is None:
            return None
        # A fresh record each read, as the reader replays a log.
        return GameRecord(game.game_id, game.board_id, dict(game.headers), game.variant, None,
                          "record", 0.0, moves=list(game.moves))

    def play(self, board: str, game_id: str, pdn: str, fen_after: str, entry: str) -> None:
        game = self.games.setdefault((board, game_id), GameRecord(
            game_id, board, {"White": "W", "Black": "B"}, "international", None, "record", 0.0))
        game.moves.append(MoveRecord(len(game.moves) + 1, pdn, fen_after, 0.0))
        self.newest[BoardKeys(board).game(game_id)] = entry


def test_a_poll_reads_again_only_the_games_whose_log_changed() -> None:
    logs = Logs()
    logs.play("b1", "g1", "32-28", "B:W28,31-50:B1-20", "1-1")
    logs.play("b2", "g2", "31-27", "B:W27,32-50:B1-20", "1-2")
    records, renderings = Records(logs.marks, logs.read), Renderings()
    wanted = [("b1", "g1"), ("b2", "g2")]

    def poll() -> str:
        games = asyncio.run(records.games(wanted))
        return renderings.text([g for g in games if g is not None])

    first = poll()
    assert logs.reads == wanted
    assert poll() == first and logs.reads == wanted  # nothing changed: nothing read
    logs.play("b2", "g2", "19-23", "W:W27,32-50:B1-18,20,23", "1-3")
    second = poll()
    assert logs.reads == [*wanted, ("b2", "g2")] and "19-23" in second
    assert second.startswith(first.split("\n\n[")[0])  # b1's text, as before


def test_the_amendments_of_a_game_count_as_its_log() -> None:
    logs = Logs()
    logs.play("b1", "g1", "32-28", "B:W28,31-50:B1-20", "1-1")
    records = Records(logs.marks, logs.read)
    asyncio.run(records.games([("b1", "g1")]))
    logs.newest[BoardKeys("b1").amendments("g1")] = "5-1"  # the arbiter corrected the names
    asyncio.run(records.games([("b1", "g1")]))
    assert len(logs.reads) == 2


def test_a_waiting_pairing_is_rendered_with_its_tags() -> None:
    from firmware_host.tournament.pairing import Pairing

    text = Renderings().text([broadcast.waiting(Pairing("b9", "Ann", "Bob", "3", "Open"),
                                                "russian")])
    assert '[White "Ann"]' in text and '[Board "b9"]' in text and '[Round "3"]' in text
    assert '[GameType "25,' in text and '[Date "????.??.??"]' in text
