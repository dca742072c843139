"""The replay's evaluation graph: an SVG of a game's analysis, pure.

One point a ply (0: the start), at the height of White's winning chances after it
(:func:`engine.analysis.winning_chances`, the curve the marks are judged on: the middle line is
level, the top a won game for White, the bottom for Black), White's side of the area light and
Black's dark. Each ply is a link to the replay at that ply (the whole column is the link's
target, so a finger finds it on a phone), the marked moves are dots coloured by their mark,
and the ply shown is a vertical line. No script, no inline style (the pages' CSP allows
neither): classes the stylesheet colours, and presentation attributes.

>>> from firmware_host.coach.results import MoveMark, StoredAnalysis
>>> game = StoredAnalysis("b1", "g1", "international", 8, "e", "0.00", (
...     MoveMark("32-28", "0.10"), MoveMark("17-22", "1.05", "??", 0.4, ("19-23",))))
>>> svg = graph_svg(game, ply=2, href=lambda ply: f"?ply={ply}")
>>> svg.count('<a href="?ply='), 'class="mark blunder"' in svg, 'class="now"' in svg
(3, True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Final

from engine.analysis import winning_chances
from firmware_host.coach.results import MoveMark, StoredAnalysis

__all__ = ["MARK_CLASSES", "graph_svg"]

#: The class of a marked move's dot (and of its mark in the move list), by mark.
MARK_CLASSES: Final = {"??": "blunder", "?": "mistake", "?!": "inaccuracy", "!": "only"}
#: A forced win, as the graph draws it (beyond every other score).
_FORCED: Final = 100_000


def _chances(evaluation: str) -> float:
    """White's winning chances, -1 to 1, of an evaluation as ``%eval`` writes it."""
    value = MoveMark("", evaluation).white_value()
    if evaluation.startswith("#"):
        value = _FORCED if value > 0 else -_FORCED
    return winning_chances(value)


def graph_svg(analysis: StoredAnalysis, ply: int, href: Callable[[int], str], *,
              width: int = 480, height: int = 120, label: str = "evaluation",
              says: Callable[[int, MoveMark], str] | None = None) -> str:
    """The graph of ``analysis`` with ``ply`` shown; ``href(ply)`` is each ply's link,
    ``says(ply, move)`` the words of its tooltip (default: the move, its mark and
    evaluation)."""
    plies = len(analysis.moves)
    step = width / max(1, plies)
    middle = height / 2
    reach = middle - 4

    def y_of(evaluation: str) -> float:
        return middle - _chances(evaluation) * reach

    points = [(0.0, y_of(analysis.start))] + [
        ((index + 1) * step, y_of(move.evaluation)) for index, move in enumerate(analysis.moves)]
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'class="evalgraph" role="img" aria-label="{escape(label)}" '
             f'preserveAspectRatio="none">',
             f'<rect class="black-side" width="{width}" height="{height}"/>',
             f'<polygon class="white-side" points="0,{height} {line} {points[-1][0]:.1f},'
             f'{height}"/>',
             f'<line class="level" x1="0" y1="{middle:g}" x2="{width}" y2="{middle:g}"/>',
             f'<polyline class="curve" points="{line}" fill="none"/>']
    if 0 <= ply <= plies:
        x = min(ply * step, width - 1.0)
        parts.append(f'<line class="now" x1="{x:.1f}" y1="0" x2="{x:.1f}" y2="{height}"/>')
    for index, move in enumerate(analysis.moves):
        mark = MARK_CLASSES.get(move.mark)
        if mark is not None:
            x, y = points[index + 1]
            parts.append(f'<circle class="mark {mark}" cx="{x:.1f}" cy="{y:.1f}" r="4"/>')
    for at in range(plies + 1):  # the links last: on top, a column each
        left = max(0.0, (at - 0.5) * step)
        right = min(float(width), (at + 0.5) * step)
        words = "" if at == 0 or says is None else says(at, analysis.moves[at - 1])
        if at and not words:
            move = analysis.moves[at - 1]
            words = f"{move.pdn}{move.mark} {move.evaluation}"
        parts.append(f'<a href="{escape(href(at))}"><title>{escape(words or analysis.start)}'
                     f'</title><rect class="hit" x="{left:.1f}" y="0" '
                     f'width="{max(0.5, right - left):.1f}" height="{height}"/></a>')
    parts.append("</svg>")
    return "".join(parts)
