"""A round's results out of Redis: its PDN, its results table, its TRF for the pairing program,
and the arbiter's decisions.

The game of a board in a round is its newest game (of the last
:data:`~firmware_host.tournament.rounds.LOOK_BACK`) whose PDN tags have the round, its event and
the pairing's players (or the names a re-import corrected): the game the pairing named. A board
whose game is not found has a row ``*`` with an empty game id (not played, or not begun),
unless the arbiter decided there (a forfeit, a double forfeit, a bye: no game).

Each board's result is said three ways (:class:`Outcome`): the draughts score the game's PDN has
(``2-0``, ``1-1``, ``0-2``), the points a pairing program counts (``1-0``, ``½-½``, ``0-1``,
``+/-`` for a forfeit), and the TRF's codes of the two players (``1``/``=``/``0``, ``+``/``-``,
a bye's ``F``/``Z``; ``W``/``D``/``L`` for a game decided before its first move).
"""

from __future__ import annotations

import csv
import io
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import redis

from engine.outcome import Outcome as GameOutcome
from firmware_host.store.keys import AUDIT
from firmware_host.store.pdnrender import render_game
from firmware_host.store.records import GameRecord
from firmware_host.tournament.match import partner_of
from firmware_host.tournament.pairing import Pairing
from firmware_host.tournament.rounds import (
    BoardDecision,
    StoredRound,
    board_games,
    find_game,
    load_round,
)
from firmware_host.tournament.trf import Entry, write_results

__all__ = ["RESULT_COLUMNS", "MatchScore", "Outcome", "RoundGame", "decisions_csv",
           "match_score", "outcome_of", "results_csv", "round_entries", "round_games",
           "round_pdn", "round_trf"]

#: The columns of the results table.
RESULT_COLUMNS = ("board", "white", "black", "round", "event", "result", "points",
                  "white_points", "black_points", "termination", "plies", "game_id")
#: A side's points, as a pairing program's crosstable writes them.
_POINTS = {"1": "1", "=": "½", "0": "0", "+": "+", "-": "-", "W": "1", "D": "½", "L": "0",
           "F": "F", "Z": "Z"}


@dataclass(frozen=True)
class RoundGame:
    """A board of the round, its game (None: not found) and the arbiter's decision there."""

    pairing: Pairing
    game: GameRecord | None
    decision: BoardDecision | None = None


@dataclass(frozen=True)
class Outcome:
    """A board's result: the draughts score (``*``: none yet), the TRF codes of White and
    Black (``""``: none yet), and how it ended (the record's termination, or the decision)."""

    score: str
    white: str
    black: str
    termination: str

    @property
    def points(self) -> str:
        """The pairing program's way: ``1-0``, ``½-½``, ``0-1``, ``+/-``, ``-/-``, ``F/Z``
        (``*``: no result yet).

        >>> Outcome("2-0", "1", "0", "").points, Outcome("", "+", "-", "forfeit").points
        ('1-0', '+/-')
        """
        if not self.white:
            return "*"
        separator = "-" if self.white in "1=0WDL" and self.black in "1=0WDL" else "/"
        return f"{_POINTS[self.white]}{separator}{_POINTS[self.black]}"


def outcome_of(item: RoundGame) -> Outcome:
    """What a board of the round ended in (module docstring)."""
    decision = item.decision
    if decision is not None:
        if decision.kind == "double_forfeit":
            return Outcome("0-0", "-", "-", "double forfeit")
        present = "black" if decision.side == "white" else "white"
        if decision.kind == "forfeit":
            codes = ("+", "-") if present == "white" else ("-", "+")
            return Outcome("", *codes, "forfeit")
        codes = ("F", "Z") if decision.side == "white" else ("Z", "F")
        return Outcome("", *codes, "bye")
    game = item.game
    if game is None or not game.finished:
        return Outcome("*" if game is None else game.result, "", "", "")
    try:
        outcome = GameOutcome.from_result(game.result)
    except ValueError:
        return Outcome(game.result, "", "", game.termination)
    played = any(m.by != "ballot" for m in game.moves)
    if outcome is None:  # "0-0": both lost
        return Outcome(game.result, "-" if not played else "0", "-" if not played else "0",
                       game.termination)
    if game.termination == "forfeit":  # (default time: the absent side never moved)
        win, loss, draw = "+", "-", "="
    elif not played:
        win, loss, draw = "W", "L", "D"
    else:
        win, loss, draw = "1", "0", "="
    if outcome.winner is None:
        return Outcome(game.result, draw, draw, game.termination)
    white_won = outcome.winner == 0
    return Outcome(game.result, win if white_won else loss, loss if white_won else win,
                   game.termination)


def round_games(client: redis.Redis, number: str, event: str | None = None
                ) -> tuple[StoredRound, list[RoundGame]]:
    """The round's boards in order, each with its game and the arbiter's decision there.

    Raises:
        LookupError: no round ``number`` (of ``event``) was imported, or several events have
            one and ``event`` is not given.
        ValueError: the stored round is damaged.
        redis.RedisError: Redis cannot be read.
    """
    stored = load_round(client, number, event)
    return stored, games_of(stored, {p.board: board_games(client, p.board)
                                     for p in stored.pairings})


def games_of(stored: StoredRound, games: Mapping[str, Iterable[GameRecord]]) -> list[RoundGame]:
    """The round's boards with their games, from each board's newest games (newest first)."""
    return [RoundGame(p, find_game(games.get(p.board, ()), p), stored.decisions.get(p.board))
            for p in stored.pairings]


def round_pdn(games: list[RoundGame]) -> str:
    """The PDN of the round's games that were played (a move at least), in board order.

    A game without a move (not begun, or ended before its first move: a forfeit) is left out:
    its result is in the results table and the TRF, and pydraughts (0.6.7) reads no game of a
    file after one without moves.
    """
    return "\n".join(render_game(g.game) for g in games
                     if g.game is not None and g.decision is None and g.game.moves)


def results_csv(games: list[RoundGame]) -> str:
    """The results table (CSV, :data:`RESULT_COLUMNS`).

    >>> print(results_csv([RoundGame(Pairing("b1", "Ann", "Bob", "1"), None)]).strip())
    board,white,black,round,event,result,points,white_points,black_points,termination,plies,game_id
    b1,Ann,Bob,1,,*,*,,,,0,
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(RESULT_COLUMNS)
    for item in games:
        p, game = item.pairing, item.game
        outcome = outcome_of(item)
        score = outcome.score or ("" if outcome.white else "*")  # (no game: a forfeit, a bye)
        writer.writerow([*map(csv_cell, (p.board, p.white, p.black, p.round, p.event)), score,
                         outcome.points, _POINTS.get(outcome.white, ""),
                         _POINTS.get(outcome.black, ""), csv_cell(outcome.termination),
                         0 if game is None else len(game.moves),
                         "" if game is None else csv_cell(game.game_id)])
    return out.getvalue()


#: What a spreadsheet reads as a formula at the start of a cell (OWASP's CSV injection list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: str) -> str:
    """A text cell (a name, an event, a reason: what anyone typed) a spreadsheet shows as
    text: one that starts like a formula gets a ``'`` before it (OWASP's rule for CSV
    injection), anything else is as it is.

    >>> csv_cell("=cmd|' /C calc'!A0"), csv_cell("@SUM(A1)"), csv_cell("+1+1"), csv_cell("Ann")
    ("'=cmd|' /C calc'!A0", "'@SUM(A1)", "'+1+1", 'Ann')
    """
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def round_entries(stored: StoredRound, games: list[RoundGame]
                  ) -> tuple[dict[int, Entry], list[str]]:
    """Each player's TRF block of the round (by starting rank), and the boards left out with
    why (no result yet, or players not in the TRF)."""
    entries: dict[int, Entry] = {}
    left_out = []
    for item in games:
        p = item.pairing
        outcome = outcome_of(item)
        if not p.white_rank or not p.black_rank:
            left_out.append(f"{p.board}: its players are not in the TRF (a list's board)")
            continue
        if not outcome.white:
            left_out.append(f"{p.board}: no result yet (its players' round is left blank)")
            continue
        if outcome.termination == "bye":
            entries[p.white_rank] = Entry(0, "-", outcome.white)
            entries[p.black_rank] = Entry(0, "-", outcome.black)
        else:
            entries[p.white_rank] = Entry(p.black_rank, "w", outcome.white)
            entries[p.black_rank] = Entry(p.white_rank, "b", outcome.black)
    return entries, left_out


def round_trf(stored: StoredRound, games: list[RoundGame]) -> tuple[str, list[str]]:
    """The round's TRF for the pairing program (the TRF imported, the round's results written
    in) and the boards left out with why.

    Raises:
        LookupError: the round was not imported from a TRF.
    """
    if not stored.trf:
        raise LookupError(f"{stored.name} was imported from a CSV list: there is no TRF to "
                          "write its results into (import the pairing program's TRF)")
    entries, left_out = round_entries(stored, games)
    return write_results(stored.trf, int(stored.number.split(".")[0]), entries), left_out


#: The decisions report's columns.
DECISION_COLUMNS = ("time", "who", "action", "board", "what", "reason")


def decisions_csv(client: redis.Redis, stored: StoredRound,
                  words: Callable[[dict[str, object]], str]) -> str:
    """The arbiter's decisions about the round since it was first imported (the audit log's
    entries of its boards, of the round, and the hall's pauses that held its boards), oldest
    first, as CSV: local time, who, the
    action, the board, ``words`` of the entry (with the boards' answers: an ``answer`` entry of
    the log is folded into the decision it answers), the reason.

    Raises:
        redis.RedisError: Redis cannot be read.
    """
    from firmware_host.tournament.arbiter import answers_of

    boards = {p.board for p in stored.pairings} | set(stored.carried.values())
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(DECISION_COLUMNS)
    logged = list(audit_log(client, since=stored.imported))
    answers: dict[str, dict[str, object]] = {}
    for entry in logged:
        if entry["action"] == "answer":
            of, given = answers_of(entry)
            answers.setdefault(of, {}).update(given)
    for entry in logged:
        if entry["action"] == "answer":
            continue
        entry = {**entry, "answers": answers.get(str(entry["id"]), {})}
        detail = entry["detail"] if isinstance(entry["detail"], dict) else {}
        addressed = detail.get("boards")  # (the hall's pause: every board of the hall)
        ours = entry.get("board") in boards or (
            str(detail.get("round", "")) == stored.number
            and str(detail.get("event", stored.event)) == stored.event) or (
            isinstance(addressed, list) and not boards.isdisjoint(map(str, addressed)))
        if not ours:
            continue
        at = float(str(entry["time"]))
        writer.writerow([time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(at)),
                         *(csv_cell(str(entry.get(k, ""))) for k in ("who", "action", "board")),
                         csv_cell(words(entry)), csv_cell(str(entry.get("reason", "")))])
    return out.getvalue()


#: The audit log is read this many entries at a time.
AUDIT_PAGE = 1000


def audit_log(client: redis.Redis, since: float = 0.0) -> Iterable[dict[str, object]]:
    """The audit log's entries from the Unix time ``since``, oldest first, each with its
    ``id`` (its place in the log), a page at a time from the newest back (a damaged entry is
    left out: tournament/arbiter.py ``audit_entry``).

    Raises:
        redis.RedisError: Redis cannot be read.
    """
    from firmware_host.tournament.arbiter import checked_entry

    since = math.floor(since * 1000) / 1000  # (the log keeps times to the millisecond)
    found: list[dict[str, object]] = []
    end = int(client.llen(AUDIT)) - 1  # (places from the start: an entry appended meanwhile
    while end >= 0:                    # moves none of them)
        start = max(0, end - AUDIT_PAGE + 1)
        page: list[object] = list(client.lrange(AUDIT, start, end))
        entries = [{"id": str(place), **e} for place, e in enumerate(map(checked_entry, page),
                                                                     start=start)
                   if e is not None]
        found[:0] = [e for e in entries if float(str(e["time"])) >= since]
        if start == 0 or (entries and float(str(entries[0]["time"])) < since):
            break
        end = start - 1
    return found


# -- a match between clubs (firmware_host/tournament/match.py) --------------------------------

#: The points of a side's TRF code (a win, a draw, a loss; a forfeit's and a bye's too).
_MATCH_POINTS = {"1": 1.0, "+": 1.0, "W": 1.0, "F": 1.0, "=": 0.5, "D": 0.5,
                 "0": 0.0, "-": 0.0, "L": 0.0, "Z": 0.0}


@dataclass(frozen=True)
class MatchScore:
    """A match's score from this hall's side: its boards' points, the other club's, and the
    games played to the end (of ``boards``)."""

    ours: float
    theirs: float
    finished: int
    boards: int

    def words(self) -> str:
        """The score as clubs write it: ``1½–½``.

        >>> MatchScore(1.5, 0.5, 2, 2).words(), MatchScore(0.0, 1.0, 1, 2).words()
        ('1½–½', '0–1')
        """
        return f"{_half(self.ours)}–{_half(self.theirs)}"


def _half(points: float) -> str:
    whole, half = divmod(round(points * 2), 2)
    return ("" if whole == 0 and half else str(whole)) + ("½" if half else "")


def match_score(games: Sequence[RoundGame]) -> MatchScore | None:
    """The match score of a round's games (None: the round is no match): each finished game's
    points to the side of this hall's board and to the other club's."""
    ours = theirs = 0.0
    finished = boards = 0
    for item in games:
        partner = partner_of(item.pairing)
        if partner is None:
            continue
        boards += 1
        outcome = outcome_of(item)
        if not outcome.white:
            continue  # (not over)
        finished += 1
        mine, other = (outcome.white, outcome.black) if partner[1] == "white" \
            else (outcome.black, outcome.white)
        ours += _MATCH_POINTS.get(mine, 0.0)
        theirs += _MATCH_POINTS.get(other, 0.0)
    return None if boards == 0 else MatchScore(ours, theirs, finished, boards)
