"""A round's results on the web: ``/round/<n>`` (the table, for the hall) and ``/round/<n>.csv``.

The round is the one imported (``draughtsboard round import``, firmware_host/tournament/); two
events' round 3 (two groups) are a table each, in the events' name order. Each board of a
round's pairing, in its order, with the board's game of the round as ``draughtsboard round
export`` finds it (:mod:`firmware_host.tournament.export`: the newest of the board's last games
tagged with the round and the pairing's players, or the arbiter's decision there: a forfeit, a
bye) and its result so far: the page (in the viewer's language) follows the round as it is
played, and the CSV is the export's results table (every event's boards). A round never imported
is a 404; nothing here needs a pairing or the arbiter. A match between clubs (a round imported
from a match list: firmware_host/tournament/match.py) shows its score above its table, this
hall's boards first, and each row the other club's board.
"""

from __future__ import annotations

from aiohttp import web
from redis.asyncio import Redis

from firmware_host.i18n import negotiate, translator
from firmware_host.store.records import GameRecord
from firmware_host.tournament.arbiter import ArbiterError, stored_rounds
from firmware_host.tournament.export import (
    RoundGame,
    games_of,
    match_score,
    outcome_of,
    results_csv,
)
from firmware_host.tournament.match import partner_of
from firmware_host.tournament.rounds import LOOK_BACK, StoredRound
from firmware_host.web.reader import Reader
from firmware_host.web.views import Views, result_words

__all__ = ["RoundPages"]

#: A round in a route: ``3``, ``3.1`` (as a pairing list writes it).
ROUND = r"{round:[0-9]{1,4}(?:\.[0-9]{1,4}){0,3}}"


class RoundPages:
    """The routes of a round's results, read from the boards' Redis."""

    def __init__(self, client: Redis, views: Views) -> None:
        self.client = client
        self.reader = Reader(client)
        self.views = views

    def routes(self) -> list[web.RouteDef]:
        """The routes to add to the web application (the CSV's first: both match ``3.csv``)."""
        return [web.get(f"/round/{ROUND}.csv", self.csv), web.get(f"/round/{ROUND}", self.page)]

    async def rounds(self, number: str) -> list[tuple[StoredRound, list[RoundGame]]]:
        """Every event's round ``number``, each with its boards in order and their games.

        Raises:
            web.HTTPNotFound: no such round imported (or its stored list is damaged).
        """
        try:
            found = await stored_rounds(self.client, number)
        except ArbiterError:
            found = []
        if not found:
            raise web.HTTPNotFound(text=f"no round {number}: import its pairing list first")
        out = []
        for stored in found:
            games: dict[str, list[GameRecord]] = {
                p.board: await self.reader.recent_games(p.board, LOOK_BACK)
                for p in stored.pairings}
            out.append((stored, games_of(stored, games)))
        return out

    async def page(self, request: web.Request) -> web.Response:
        """The results table of each event's round."""
        number = request.match_info["round"]
        tables = []
        for stored, games in await self.rounds(number):
            rows = []
            for g in games:
                outcome = outcome_of(g)
                decided = g.decision is not None
                rows.append({
                    "board": g.pairing.board, "white": g.pairing.white, "black": g.pairing.black,
                    "result": outcome.points if decided else (
                        "*" if g.game is None else g.game.result),
                    "words": result_words(None if g.game is None else g.game.result),
                    "decided": outcome.termination if decided else "",
                    "termination": "" if g.game is None else g.game.termination,
                    "plies": 0 if g.game is None else len(g.game.moves),
                    "game_id": None if g.game is None else g.game.game_id,
                    "opponent": (partner_of(g.pairing) or ("",))[0]})
            score = match_score(games)
            tables.append({"event": stored.event, "rows": rows, "match": None if score is None
                           else {"score": score.words(), "finished": score.finished,
                                 "boards": score.boards}})
        tr = translator(negotiate(request.query.get("lang"),
                                  request.headers.get("Accept-Language")))
        event = tables[0]["event"] if len(tables) == 1 else ""
        return web.Response(content_type="text/html", text=self.views.page(
            "round.html", tr, number=number, tables=tables, event=event))

    async def csv(self, request: web.Request) -> web.Response:
        """The round's results table as ``draughtsboard round export`` writes it (every
        event's boards)."""
        number = request.match_info["round"]
        games = [g for _, found in await self.rounds(number) for g in found]
        return web.Response(text=results_csv(games), content_type="text/csv",
                            headers={"Content-Disposition":
                                     f'attachment; filename="round-{number}.csv"'})
