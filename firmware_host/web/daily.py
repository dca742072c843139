"""The puzzle of the day: ``/puzzle`` (international draughts) and ``/puzzle/<variant>``.

One puzzle a day and variant, the same for every viewer and every machine of a hall: chosen
from the collection that ships for the variant (:func:`engine.puzzles.load`) by a hash of the
date (UTC, the service's clock) and the variant's name (:func:`of_the_day`), so it changes at
midnight UTC and every hall shows the same one. The page shows the diagram from the solver's
side (the class ``flipped``, as on a flipped board page: the stylesheet turns it, no script
needed), who is to play and how hard it is, and the solution behind a ``<details>`` that opens
without a script; every word in the viewer's language. The hall links to it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime

from aiohttp import web

from engine.pdn import line_text
from engine.puzzles import Puzzle, load
from engine.types import BLACK
from engine.variant import VARIANTS
from firmware_host.game.fields import side_name
from firmware_host.i18n import N_
from firmware_host.web.diagram import board_svg
from firmware_host.web.views import Views, viewer

__all__ = ["DailyPuzzles", "of_the_day"]

#: Who is to play (the side's name in the viewer's language).
TO_PLAY = N_("{side} to play and win.")
#: How hard the puzzle is (engine/puzzles.py: 1 to 5).
DIFFICULTY = N_("Difficulty {difficulty} of 5")
#: The variant ``/puzzle`` shows.
DEFAULT = "international"


def of_the_day(puzzles: Sequence[Puzzle], variant: str, day: date) -> Puzzle:
    """The puzzle of ``day`` among ``puzzles`` (``variant``'s collection): the same for a given
    day and variant everywhere.

    >>> from datetime import date
    >>> from engine.puzzles import load
    >>> day = date(2026, 12, 6)
    >>> of_the_day(load("russian"), "russian", day) == of_the_day(load("russian"), "russian", day)
    True

    Raises:
        ValueError: no puzzles.
    """
    if not puzzles:
        raise ValueError(f"no puzzles for {variant}")
    digest = hashlib.sha256(f"{day.isoformat()} {variant}".encode()).digest()
    return puzzles[int.from_bytes(digest[:8], "big") % len(puzzles)]


class DailyPuzzles:
    """The routes of the puzzle of the day; ``clock`` is the Unix time (a test's own)."""

    def __init__(self, views: Views, clock: Callable[[], float]) -> None:
        self.views = views
        self.clock = clock
        #: Each variant's shipped puzzles, read at the first request (None: not yet).
        self._collections: dict[str, tuple[Puzzle, ...]] | None = None

    def collections(self) -> dict[str, tuple[Puzzle, ...]]:
        """The variants a collection ships for (in the variants' order), with their puzzles.

        >>> from firmware_host.web.views import Views
        >>> list(DailyPuzzles(Views(), lambda: 0.0).collections())
        ['international', 'english', 'russian']
        """
        if self._collections is None:
            found = {v.name: tuple(load(v)) for v in VARIANTS if not v.giveaway}
            self._collections = {name: puzzles for name, puzzles in found.items() if puzzles}
        return self._collections

    def routes(self) -> list[web.RouteDef]:
        """The routes to add to the web application."""
        return [web.get("/puzzle", self.page), web.get("/puzzle/{variant}", self.page)]

    async def page(self, request: web.Request) -> web.Response:
        """Today's puzzle of the variant in the route (international without one).

        Raises:
            web.HTTPNotFound: a variant no collection ships for.
        """
        variant = request.match_info.get("variant", DEFAULT)
        collections = self.collections()
        if variant not in collections:
            raise web.HTTPNotFound(text=f"no puzzles for {variant[:40]}")
        day = datetime.fromtimestamp(self.clock(), UTC).date()
        puzzle = of_the_day(collections[variant], variant, day)
        board = puzzle.board()
        tr = viewer(request)
        to_play = tr.gettext(TO_PLAY).format(side=tr.gettext(side_name(board.turn).capitalize()))
        return web.Response(content_type="text/html", text=self.views.page(
            "puzzle.html", tr, variant=variant, variants=list(collections), day=day.isoformat(),
            to_play=to_play, solver=side_name(board.turn),
            difficulty=tr.gettext(DIFFICULTY).format(difficulty=puzzle.difficulty),
            line=line_text(board, puzzle.line), number=puzzle.number,
            flipped=board.turn is BLACK, diagram=board_svg(board, size=480, label=to_play)))
