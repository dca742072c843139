"""Rendering: the hall's cards, a board's panel, the archive's rows (Jinja2 templates).

The templates and the stylesheet and script ship in the package (``templates/``, ``static/``):
no CDN, no build step.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from jinja2 import Environment, PackageLoader, select_autoescape

from engine import Board
from firmware_host.store.pdnrender import game_headers
from firmware_host.store.records import GameRecord
from firmware_host.web.diagram import board_svg
from firmware_host.web.reader import BoardView

__all__ = ["ArchiveRow", "Views", "move_pairs"]


def move_pairs(moves: Sequence[str], first_ply: int = 1) -> list[list[str]]:
    """Moves numbered two per line: ``[["1. 32-28", "19-23"], ...]``.

    >>> move_pairs(["32-28", "19-23", "37-32"])
    [['1. 32-28', '19-23'], ['2. 37-32']]
    """
    pairs: list[list[str]] = []
    for index, move in enumerate(moves):
        if index % 2 == 0:
            pairs.append([f"{index // 2 + first_ply}. {move}"])
        else:
            pairs[-1].append(move)
    return pairs


@dataclass(frozen=True)
class ArchiveRow:
    """One game of the archive's table."""

    board_id: str
    game_id: str
    date: str
    white: str
    black: str
    variant: str
    result: str
    moves: int

    @classmethod
    def of(cls, game: GameRecord) -> ArchiveRow:
        """The row of ``game``."""
        return cls(game.board_id, game.game_id,
                   time.strftime("%Y-%m-%d %H:%M", time.gmtime(game.created)),
                   game.headers.get("White", "?"), game.headers.get("Black", "?"),
                   game.variant, game.result, len(game.moves))


class Views:
    """The Jinja2 environment and what each page fragment is made of."""

    def __init__(self) -> None:
        self.env = Environment(loader=PackageLoader("firmware_host.web", "templates"),
                               autoescape=select_autoescape(["html"]))

    def page(self, name: str, **context: object) -> str:
        """A whole page."""
        return self.env.get_template(name).render(**context)

    def card(self, view: BoardView) -> str:
        """The hall's card of a board."""
        last = view.last_move
        return self.env.get_template("card.html").render(
            view=view, headers=view.game.headers if view.game else {},
            last_move=f"{last.ply}. {last.pdn}" if last else "",
            diagram=self._diagram(view, 220))

    def panel(self, view: BoardView) -> str:
        """A board page's live panel."""
        moves = [m.pdn for m in view.game.moves] if view.game else []
        return self.env.get_template("panel.html").render(
            view=view, headers=view.game.headers if view.game else {},
            moves=move_pairs(moves), diagram=self._diagram(view, 480))

    def replay(self, game: GameRecord, ply: int, paired: bool) -> str:
        """The replay page of ``game`` at ``ply``."""
        board = Board(game.variant, fen=game.start_fen)
        for move in game.moves[:ply]:
            board.push(board.parse_move(move.pdn))
        pairs = []
        for index, move in enumerate(game.moves):
            label = f"{index // 2 + 1}. {move.pdn}" if index % 2 == 0 else move.pdn
            if index % 2 == 0:
                pairs.append([(label, index + 1)])
            else:
                pairs[-1].append((label, index + 1))
        last = game.moves[ply - 1] if ply else None
        return self.page("replay.html", game=game, headers=game_headers(game), ply=ply,
                         total=len(game.moves), moves=pairs, paired=paired,
                         diagram=board_svg(board, last, size=480, label=game.game_id))

    @staticmethod
    def _diagram(view: BoardView, size: int) -> str:
        if view.position is None:
            return '<p class="quiet">no game yet</p>'
        return board_svg(view.position, view.last_move, view.leds, size=size,
                         label=f"board {view.board_id}")
