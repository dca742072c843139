"""Rendering: the hall's cards, a board's panel, the archive's rows (Jinja2 templates).

The templates and the stylesheet and script ship in the package (``templates/``, ``static/``):
no CDN, no build step. What a person reads is in words: players are "White" and "Black" until
their names are known, results are "White won", "Draw", "In progress".
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from http.cookies import SimpleCookie

from aiohttp import web
from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import escape

from engine import Board, DraughtsError, Move
from firmware_host.coach.results import StoredAnalysis
from firmware_host.feedback.roles import rings_json
from firmware_host.feedback.texts import STATE_NAMES, WORDS, said, said_everywhere
from firmware_host.i18n import (
    ENGLISH,
    LANGUAGES,
    N_,
    Translator,
    negotiate,
    resolve_language,
    translator,
)
from firmware_host.i18n.variants import VARIANT_WORDS, variant_words
from firmware_host.store.pdnrender import game_headers
from firmware_host.store.records import GameRecord, MoveRecord
from firmware_host.tournament.pairing import is_round
from firmware_host.web.arbiter_words import TERMINATIONS
from firmware_host.web.archive import Summary
from firmware_host.web.clocks import ClockNow, clock_text
from firmware_host.web.diagram import board_svg
from firmware_host.web.evalgraph import MARK_CLASSES, graph_svg
from firmware_host.web.lights import light_words, lit, words_json
from firmware_host.web.liveness import LAST_SEEN, NEVER_SEEN, Liveness
from firmware_host.web.reader import BoardView

__all__ = ["LANG_COOKIE", "ArchiveRow", "MoveRow", "Views", "chosen_language", "keep_language",
           "move_label", "move_rows", "player", "result_words", "viewer"]

#: A result as words (the GameType 20/27 results too: 2-0, 1-1, 0-2).
RESULT_WORDS: Mapping[str, str] = {
    "1-0": N_("White won"), "2-0": N_("White won"), "0-1": N_("Black won"),
    "0-2": N_("Black won"), "1/2-1/2": N_("Draw"), "1-1": N_("Draw"), "*": N_("In progress")}


#: The evaluation graph's name (its ``aria-label``).
EVALUATION = N_("Evaluation after each move")

#: The archive's result filter: one entry per outcome, each with the results that say it (in
#: either result style: 1-0 and 2-0 are both White's win).
OUTCOMES: Mapping[str, tuple[str, frozenset[str]]] = {
    "white": (N_("White won"), frozenset({"1-0", "2-0"})),
    "black": (N_("Black won"), frozenset({"0-1", "0-2"})),
    "draw": (N_("Draw"), frozenset({"1/2-1/2", "1-1"})),
    "unfinished": (N_("In progress"), frozenset({"*"})),
}


def outcome_of(choice: str) -> str:
    """The outcome a result filter's value names: an outcome, or a result of an older link
    (``1-0`` is ``white``); "" for anything else (no filter).

    >>> outcome_of("white"), outcome_of("2-0"), outcome_of("1/2-1/2"), outcome_of("x")
    ('white', 'white', 'draw', '')
    """
    if choice in OUTCOMES:
        return choice
    return next((name for name, (_, results) in OUTCOMES.items() if choice in results), "")


def full_moves(plies: int) -> int:
    """The moves of a game of ``plies`` (each side's turn is a ply; a move is both, the first
    side's ply alone starting one), as a move list numbers them.

    >>> full_moves(0), full_moves(1), full_moves(2), full_moves(83)
    (0, 1, 1, 42)
    """
    return (plies + 1) // 2


def result_words(result: str | None) -> str:
    """The result in words.

    >>> result_words("1-0"), result_words("1/2-1/2"), result_words("*"), result_words(None)
    ('White won', 'Draw', 'In progress', 'In progress')
    """
    return RESULT_WORDS.get(result or "*", result or "In progress")


def player(headers: Mapping[str, str], side: str,
           gettext: Callable[[str], str] = lambda words: words) -> str:
    """The player's name, or the side's ("White", "Black", in ``gettext``'s language) while it
    is not known.

    >>> player({"White": "Anna"}, "White"), player({"Black": "?"}, "Black"), player({}, "White")
    ('Anna', 'Black', 'White')
    >>> player({}, "White", translator("ru").gettext), player({"White": "Anna"}, "White", str)
    ('Белые', 'Anna')
    """
    name = headers.get(side, "").strip()
    return gettext(side) if name in ("", "?", "-") else name


def move_label(ply: int, pdn: str) -> str:
    """A move with its number as PDN writes it: the first mover's ``3. 32-28``, the second
    mover's ``3... 19-23``.

    >>> move_label(5, "32-28"), move_label(6, "19-23")
    ('3. 32-28', '3... 19-23')
    """
    return f"{(ply + 1) // 2}{'.' if ply % 2 else '...'} {pdn}"


@dataclass(frozen=True)
class MoveRow:
    """One line of a move list as PDN writes it: the number, the first and second mover's moves
    (``ply``: each move's ply, for the replay's links; ``mark``: each move's analysis mark,
    ``""`` for none)."""

    number: int
    first: str
    second: str
    first_ply: int
    second_ply: int
    first_mark: str = ""
    second_mark: str = ""


def move_rows(moves: Sequence[str], marks: Sequence[str] = ()) -> list[MoveRow]:
    """Moves numbered two per line, as PDN writes them; ``marks``: each move's analysis mark.

    >>> [(r.number, r.first, r.second) for r in move_rows(["32-28", "19-23", "37-32"])]
    [(1, '32-28', '19-23'), (2, '37-32', '')]
    >>> move_rows(["32-28", "19-23"], ["", "??"])[0].second_mark
    '??'
    """
    rows = []
    mark = list(marks) + [""] * (len(moves) - len(marks))
    for index in range(0, len(moves), 2):
        second = moves[index + 1] if index + 1 < len(moves) else ""
        rows.append(MoveRow(index // 2 + 1, moves[index], second, index + 1,
                            index + 2 if second else 0, mark[index],
                            mark[index + 1] if second else ""))
    return rows


@dataclass(frozen=True)
class LineStep:
    """One move of a better line on the replay: its label (``5. 31-27``) and its step (1: the
    first move of the line), the link's ``line``."""

    label: str
    step: int


def _legal_line(board: Board, line: Sequence[str]) -> list[tuple[str, Move]]:
    """The moves of ``line`` (PDN texts of a stored analysis) played instead of ``board``'s
    last move, as far as they are legal (an analysis another program wrote may hold any).

    >>> board = Board("russian")
    >>> board.push(board.parse_move("c3-d4"))
    >>> [text for text, _ in _legal_line(board, ["c3-b4", "f6-g5", "c3-d4"])]
    ['c3-b4', 'f6-g5']
    """
    probe = board.copy()
    probe.pop()
    found = []
    for text in line:
        try:
            move = probe.parse_move(text)
        except (DraughtsError, ValueError):
            break
        probe.push(move)
        found.append((text, move))
    return found


#: The marks' names, for the replay's legend.
MARK_WORDS: Mapping[str, str] = {
    "??": N_("blunder"), "?": N_("mistake"), "?!": N_("inaccuracy"), "!": N_("only move")}


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
    #: Whether the coach's analysis of the game is kept.
    analysed: bool = False

    @classmethod
    def of(cls, game: Summary, tr: Translator = ENGLISH, analysed: bool = False) -> ArchiveRow:
        """The row of ``game`` (players not yet named are "White" and "Black" in ``tr``'s
        language)."""
        return cls(game.board_id, game.game_id,
                   time.strftime("%Y-%m-%d %H:%M", time.gmtime(game.created)),
                   player(game.headers, "White", tr.gettext),
                   player(game.headers, "Black", tr.gettext),
                   game.variant, result_words(game.result), full_moves(game.plies), analysed)


#: The cookie that keeps the language a viewer chose with ``?lang=`` (the language switch) for
#: the pages they open next: the site's links and forms carry no ``?lang=``.
LANG_COOKIE = "draughtsboard_lang"
#: How long the chosen language is kept (s): a year.
LANG_COOKIE_AGE = 365 * 24 * 3600


def _named(spec: str | None) -> str | None:
    """The language ``spec`` (a query value or a cookie, cut at 40 characters) names, or None."""
    return resolve_language(spec[:40] if spec else None)


def chosen_language(request: web.Request) -> str | None:
    """The language the viewer chose: ``?lang=`` if it names one, else the one the language
    cookie keeps, else None (Accept-Language decides)."""
    return _named(request.query.get("lang")) or _named(request.cookies.get(LANG_COOKIE))


def viewer(request: web.Request) -> Translator:
    """The viewer's language: ``?lang=`` if it names one, else the one they chose before (the
    language cookie), else the best of Accept-Language (each viewer their own: the hall in the
    viewer's language, each board's events in its player's)."""
    return translator(negotiate(chosen_language(request),
                                request.headers.get("Accept-Language")))


async def keep_language(request: web.Request, response: web.StreamResponse) -> None:
    """A page opened with ``?lang=`` (the language switch) keeps that language in a cookie:
    the next page, a form's reply and the live feed are in it too, not in the browser's."""
    language = _named(request.query.get("lang"))
    if language is None or request.cookies.get(LANG_COOKIE) == language:
        return
    # The headers are made by now (cookies included): the cookie goes in as a header of its own.
    cookie = SimpleCookie()
    cookie[LANG_COOKIE] = language
    morsel = cookie[LANG_COOKIE]
    morsel["max-age"], morsel["path"], morsel["samesite"] = LANG_COOKIE_AGE, "/", "Lax"
    morsel["httponly"] = True
    response.headers.add("Set-Cookie", morsel.OutputString())


def choice_words(setting: str, value: str) -> str:
    """A setting's value as the board page offers it (English: the catalogs' key): a mode, a
    variant or a touch-move rule in words, anything else as it is.

    >>> choice_words("touch_move", "auto"), choice_words("variant", "russian")
    ('auto: strict when recording', 'Russian draughts')
    >>> choice_words("level", "7"), choice_words("mode", "teach"), choice_words("mode", "new")
    ('7', 'teach', 'new')
    """
    if setting == "variant":
        return variant_words(value)
    return WORDS.get(setting, {}).get(value, value)


def ending(termination: str) -> str:
    """How a game ended, in words (English: the catalogs' key); a word nobody wrote as it is.

    >>> ending("time"), ending("no_moves"), ending("something new")
    ('time', 'no moves left', 'something new')
    """
    return TERMINATIONS.get(termination, termination)


#: A card's words before its board has a game.
NO_GAME = N_("no game yet")
#: The words the page script writes itself (app.js), besides those of the live card and panel.
SCRIPT_WORDS = (N_("white"), N_("black"), N_("online"), N_("offline"), LAST_SEEN, NEVER_SEEN,
                N_("not sent: no connection"), NO_GAME, *STATE_NAMES.values(),
                *RESULT_WORDS.values(), *TERMINATIONS.values(),
                *WORDS["mode"].values(), *VARIANT_WORDS.values())
#: The templates whose words a live feed's whole card or panel (in English) holds.
LIVE_TEMPLATES = ("card.html", "panel.html", "clocks.html")


def template_words(env: Environment, names: Sequence[str]) -> tuple[str, ...]:
    """The ``_("...")`` words of the templates ``names`` (what the script translates in a
    card or panel the live feed sent)."""
    found: list[str] = []
    for name in names:
        source, _, _ = env.loader.get_source(env, name) if env.loader else ("", None, None)
        found += re.findall(r'_\("([^"]+)"\)', source)
    return tuple(dict.fromkeys(found))


def script_words(tr: Translator, words: Sequence[str]) -> str:
    """The page script's words in ``tr``'s language: JSON ``{english: translated}`` of those
    that differ, for the ``data-words`` attribute (no inline script: CSP-safe).

    >>> from firmware_host.i18n import translator
    >>> json.loads(script_words(translator("ja"), ["white", "online"]))["white"]
    '白'
    >>> script_words(translator("en"), ["white"])
    '{}'
    """
    pairs = {word: tr.gettext(word) for word in words}
    return json.dumps({k: v for k, v in pairs.items() if k != v}, ensure_ascii=False,
                      sort_keys=True)


def _words(tr: Translator) -> dict[str, object]:
    """What a template needs to speak the viewer's language: ``_``, the language and the
    switch's choices (each language in its own name), and ``said``: a board's event as a
    sentence in it (``said_all``: in every language, for a fragment the live feed sends to
    viewers of every language)."""
    return {"_": tr.gettext, "lang": tr.language.replace("_", "-"), "lang_code": tr.language,
            "languages": LANGUAGES, "said": lambda event: said(event, tr),
            "said_all": lambda event: json.dumps(said_everywhere(event), ensure_ascii=False)}


class Views:
    """The Jinja2 environment and what each page fragment is made of."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.env = Environment(loader=PackageLoader("firmware_host.web", "templates"),
                               autoescape=select_autoescape(["html"]))
        self.env.globals.update(player=player, result_words=result_words, ending=ending,
                                variant_words=variant_words, choice_words=choice_words,
                                clock_text=clock_text, is_round=is_round, outcome_of=outcome_of,
                                full_moves=full_moves, rings=rings_json(), **_words(ENGLISH))
        #: The Unix time: a clock is drawn as it shows now.
        self.clock = clock
        self.live_words = (*template_words(self.env, LIVE_TEMPLATES), *SCRIPT_WORDS,
                           *light_words().values())

    def page(self, name: str, tr: Translator = ENGLISH, **context: object) -> str:
        """A whole page, in the viewer's language ``tr`` (its words: ``_("...")``; the
        script's: ``data-words``)."""
        return self.env.get_template(name).render(
            **_words(tr), words=script_words(tr, self.live_words), **context)

    def card(self, view: BoardView, alive: Liveness, tr: Translator = ENGLISH) -> str:
        """The hall's card of a board (in the viewer's language)."""
        last = view.last_move
        return self.env.get_template("card.html").render(
            view=view, headers=view.game.headers if view.game else {}, alive=alive,
            last_move=move_label(last.ply, last.pdn) if last else "",
            clock=self.clock_now(view, alive),
            diagram=self.diagram(view, 220, tr), **_words(tr))

    def panel(self, view: BoardView, alive: Liveness, tr: Translator = ENGLISH) -> str:
        """A board page's live panel (in the viewer's language)."""
        moves = [m.pdn for m in view.game.moves] if view.game else []
        return self.env.get_template("panel.html").render(
            view=view, headers=view.game.headers if view.game else {}, alive=alive,
            rows=move_rows(moves), diagram=self.diagram(view, 480, tr),
            clock=self.clock_now(view, alive), lights=lit(view.leds),
            light_words=words_json(), **_words(tr))

    def clock_now(self, view: BoardView, alive: Liveness) -> ClockNow | None:
        """The board's clock as it shows now (None: its game has no clock). A board that is
        offline shows its clock as it was when last seen: its service holds the clock while
        it is down (the time is charged to nobody)."""
        if view.clock is None:
            return None
        now = self.clock()
        if not alive.online and alive.seen is not None:
            now = max(view.clock.time, min(now, alive.seen))
        return view.clock.at(now)

    def replay(self, game: GameRecord, ply: int, paired: bool, tr: Translator = ENGLISH,
               analysis: StoredAnalysis | None = None, line: int = 0) -> str:
        """The replay page of ``game`` at ``ply`` (in the viewer's language ``tr``); with its
        ``analysis``, the evaluation graph, the marks in the move list and, at a marked move,
        its better line (``line``: that many of the line's moves shown on the diagram)."""
        board = Board(game.variant, fen=game.start_fen)
        for move in game.moves[:ply]:
            board.push(board.parse_move(move.pdn))
        last = game.moves[ply - 1] if ply else None
        label = move_label(ply, last.pdn) if last else ""
        better = _legal_line(board, analysis.moves[ply - 1].better) \
            if analysis is not None and ply else []
        steps = [LineStep(move_label(ply + k, text), k + 1) for k, (text, _) in
                 enumerate(better)]
        line = min(line, len(better))
        if line:  # the position before the marked move, and the better line's first moves
            board.pop()
            for text, step in better[:line]:
                board.push(step)
                last = MoveRecord(0, text, "", 0.0, board.variant.square_name(step.origin),
                                  board.variant.square_name(step.destination))
        graph = None if analysis is None else graph_svg(
            analysis, ply, lambda at: f"?ply={at}", label=tr.gettext(EVALUATION),
            says=lambda at, move: f"{move_label(at, move.pdn)}{move.mark} {move.evaluation}")
        return self.page("replay.html", tr, game=game, headers=game_headers(game), ply=ply,
                         total=len(game.moves),
                         rows=move_rows([m.pdn for m in game.moves],
                                        [m.mark for m in analysis.moves] if analysis else ()),
                         label=label, paired=paired, analysis=analysis, graph=graph,
                         steps=steps, line=line, marks=MARK_WORDS, mark_classes=MARK_CLASSES,
                         played=f"{label}{analysis.moves[ply - 1].mark}" if steps and analysis
                         else "",
                         diagram=board_svg(board, last, size=480, label=game.game_id))

    @staticmethod
    def diagram(view: BoardView, size: int, tr: Translator = ENGLISH) -> str:
        """The board's position as SVG (``size`` px), or words when it has no game."""
        if view.position is None:
            return f'<p class="quiet">{escape(tr.gettext(NO_GAME))}</p>'
        return board_svg(view.position, view.last_move, view.leds, size=size,
                         label=f"board {view.board_id}")
