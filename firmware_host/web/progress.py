"""Each player's progress: ``/progress`` (every player kept) and ``/progress/<player>``.

Read from the progress records beside the mistake books (``coach.mistakes_dir``,
:class:`~firmware_host.coach.progress.ProgressBook`): the records of the puzzles a player
solved (``play --puzzles --player NAME``) and of the games the boards, the hall's worker or
``puzzles mistakes`` analysed under their name. A player's page shows the puzzle rating with
its deviation, the puzzles tried and solved, and the mistakes a game month by month, as a
table and as bars (an SVG drawn here: no script). ``<player>`` is the record's key, the name
made safe for a file (:func:`~firmware_host.coach.book.player_file`): another path is not
found. Every word in the viewer's language. The hall links to it.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Final

from aiohttp import web

from firmware_host.coach.book import BookError, player_file
from firmware_host.coach.progress import PlayerProgress, ProgressBook, by_month
from firmware_host.web.views import Views, viewer

__all__ = ["ProgressPages", "bars"]

log = logging.getLogger(__name__)

#: The chart's height and a month's width (SVG user units).
HEIGHT: Final = 120
BAR: Final = 36
#: The months the chart has room for before it grows (one month is not a wall of colour).
MONTHS: Final = 8
#: The chart's scale: at least this many mistakes a game fill its height.
SCALE: Final = 2.0


def bars(months: list[tuple[str, int, float, float]], label: str) -> str:
    """The mistakes a game by month as bars (``by_month``'s rows): a bar's height its mistakes
    and blunders a game, its darker foot the blunders; ``label`` names the chart.

    >>> svg = bars([("2026-10", 6, 2.7, 1.2), ("2026-11", 9, 1.8, 0.6)], "Mistakes")
    >>> svg.count("<rect"), 'aria-label="Mistakes"' in svg
    (4, True)
    """
    top = max([SCALE, *(errors for _, _, errors, _ in months)])
    width = BAR * max(len(months), MONTHS)
    parts = [f'<svg class="bars" viewBox="0 -14 {width} {HEIGHT + 30}" role="img" '
             f'aria-label="{_attribute(label)}" xmlns="http://www.w3.org/2000/svg">',
             f'<line x1="0" y1="{HEIGHT}" x2="{width}" y2="{HEIGHT}" class="axis"/>']
    for index, (month, _, errors, blunders) in enumerate(months):
        x = index * BAR + 6
        high, low = HEIGHT * errors / top, HEIGHT * blunders / top
        parts.append(f'<rect class="errors" x="{x}" y="{HEIGHT - high:.1f}" width="{BAR - 12}" '
                     f'height="{high:.1f}"/>')
        parts.append(f'<rect class="blunders" x="{x}" y="{HEIGHT - low:.1f}" '
                     f'width="{BAR - 12}" height="{low:.1f}"/>')
        parts.append(f'<text x="{x + (BAR - 12) / 2}" y="{HEIGHT - high - 3:.1f}" '
                     f'class="value">{errors:.1f}</text>')
        parts.append(f'<text x="{x + (BAR - 12) / 2}" y="{HEIGHT + 13}" '
                     f'class="month">{_attribute(month[2:])}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _attribute(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


class ProgressPages:
    """The progress pages of the records in ``folder`` (``coach.mistakes_dir``; None: no
    records)."""

    def __init__(self, views: Views, folder: Path | None) -> None:
        self.views = views
        self.book = None if folder is None else ProgressBook(folder)

    def routes(self) -> list[web.RouteDef]:
        """The routes to add to the web application."""
        return [web.get("/progress", self.players), web.get("/progress/{player}", self.player)]

    async def players(self, request: web.Request) -> web.Response:
        """Every player with a record, their rating, puzzles and games."""
        found = [] if self.book is None else await asyncio.to_thread(self.book.players)
        return web.Response(content_type="text/html", text=self.views.page(
            "progress.html", viewer(request), players=found, record=None))

    async def player(self, request: web.Request) -> web.Response:
        """One player's page.

        Raises:
            web.HTTPNotFound: no record by that key.
            web.HTTPInternalServerError: a record that cannot be read (named in the log).
        """
        key = request.match_info.get("player", "")
        try:
            known = player_file(key) == f"{key}.pdn"
        except BookError:
            known = False
        book = self.book
        path = book.path(key) if known and book is not None else None
        if book is None or path is None or not await asyncio.to_thread(path.is_file):
            raise web.HTTPNotFound(text="no progress is kept for this player")
        try:
            record: PlayerProgress = await asyncio.to_thread(book.load, key)
        except BookError as exc:  # the path and the reason in the log, not on the page
            log.warning("progress: %s", exc)
            raise web.HTTPInternalServerError(
                text="this player's record cannot be read") from None
        tr = viewer(request)
        months = by_month(record.games)
        shown = [(tr.gettext("undated") if month == "undated" else month, games, errors,
                  blunders) for month, games, errors, blunders in months]
        return web.Response(content_type="text/html", text=self.views.page(
            "progress.html", tr, players=None, record=record, who=record.name or key,
            months=shown, chart=bars(shown, tr.gettext("Mistakes a game, by month"))
            if months else ""))
