"""A round's results on the web: ``/round/<n>`` (the table, for the hall) and ``/round/<n>.csv``.

The round is the one imported (``draughtsboard round import``, firmware_host/tournament/); each
board of its pairing list, in its order, with the board's game of the round as
``draughtsboard round export`` finds it (:mod:`firmware_host.tournament.export`: the newest of
the board's last games tagged with the round and the pairing's players) and its result so far:
the page (in the viewer's language) follows the round as it is played, and the CSV is the
export's results table. A round never imported is a 404; nothing here needs a pairing or the
arbiter.
"""

from __future__ import annotations

from aiohttp import web
from redis.asyncio import Redis

from firmware_host.i18n import negotiate, translator
from firmware_host.tournament.export import LOOK_BACK, RoundGame, is_the_game, results_csv
from firmware_host.tournament.pairing import parse_round, round_key
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

    async def games(self, number: str) -> list[RoundGame]:
        """The round's boards in order, each with its game (None: not found yet).

        Raises:
            web.HTTPNotFound: no such round imported (or its stored list is damaged).
        """
        try:
            pairings = parse_round(await self.client.get(round_key(number)), number)
        except ValueError:
            pairings = None
        if not pairings:
            raise web.HTTPNotFound(text=f"no round {number}: import its pairing list first")
        found = []
        for pairing in pairings:
            started = await self.reader.games_started(pairing.board)
            chosen = None
            for game_id, _ in reversed(started[-LOOK_BACK:]):
                game = await self.reader.game(pairing.board, game_id)
                if game is not None and is_the_game(game, pairing):
                    chosen = game
                    break
            found.append(RoundGame(pairing, chosen))
        return found

    async def page(self, request: web.Request) -> web.Response:
        """The results table of the round."""
        number = request.match_info["round"]
        games = await self.games(number)
        rows = [{"board": g.pairing.board, "white": g.pairing.white, "black": g.pairing.black,
                 "result": "*" if g.game is None else g.game.result,
                 "words": result_words(None if g.game is None else g.game.result),
                 "termination": "" if g.game is None else g.game.termination,
                 "moves": 0 if g.game is None else len(g.game.moves),
                 "game_id": None if g.game is None else g.game.game_id} for g in games]
        event = next((g.pairing.event for g in games if g.pairing.event), "")
        tr = translator(negotiate(request.query.get("lang"),
                                  request.headers.get("Accept-Language")))
        return web.Response(content_type="text/html", text=self.views.page(
            "round.html", tr, number=number, rows=rows, event=event))

    async def csv(self, request: web.Request) -> web.Response:
        """The round's results table as ``draughtsboard round export`` writes it."""
        number = request.match_info["round"]
        return web.Response(text=results_csv(await self.games(number)), content_type="text/csv",
                            headers={"Content-Disposition":
                                     f'attachment; filename="round-{number}.csv"'})
