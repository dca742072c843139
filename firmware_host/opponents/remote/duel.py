"""A duel between two boards: this board's moves out, the partner's in, exactly once each.

The :class:`RemoteOpponent` is the session's thinker for the partner's side: a turn of the
partner's is answered with the partner's move at that ply as soon as its board has written it,
with the time the partner's board says it has left (the session lights the move, and this
board's player's time runs from then: firmware_host/game/timekeeper.py ``arrived``). The
:class:`Duel` is the link: at each :meth:`Duel.poll` it finds the shared game of this board's
game in play (its number, written once by each board), writes what this board's record has and
the stream has not (its player's moves in order, its end), reads the partner's, and hands them
to the opponent. The record is the truth: a write lost with the link, or with a service killed
between its move and its write, is written at the next poll; one written twice is refused by
Redis (the stream id is the ply: firmware_host/opponents/remote/entries.py). The partner's end
of the game (a resignation there, its player's time up on its clock) becomes this game's result
(``followed_result``). What a player proposes travels too and needs the other's yes: a draw
offered after one's own move (``offer``) stands on the partner's board until its player
accepts it (their draw button or the phone: the game ends there, drawn, and that end comes
back) or declines it by moving; a takeback asked (``ask``) likewise, until the partner agrees
(their takeback button: that board takes back and writes ``back``; the asking board, reading
it, takes back the same) or moves. Neither board takes back on the partner's word alone: a
``back`` this board did not ask for is refused and logged. On the service, :meth:`Duel.start`
runs two named threads: one writes as soon as the session logs a move, one waits on the
partner's stream (``XREAD BLOCK``); in virtual time a test calls :meth:`Duel.poll`.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Protocol

import redis

from board_io.clock import Clock
from engine import Board
from engine.types import Color
from firmware_host.opponents.remote.entries import (
    END,
    MAX_TEXT,
    Agreed,
    Asked,
    Ended,
    Entry,
    Offered,
    Played,
    Started,
    decode,
    encode,
)
from firmware_host.store.client import text
from firmware_host.store.keepalive import heard as heartbeat_says
from firmware_host.store.keys import BoardKeys
from firmware_host.store.records import GameRecord
from firmware_host.store.replies import items, newest_id, stream_entries
from firmware_host.terms.commands import (
    GAME_ID_TAGS,
    TAKEBACK_AGREED,
    Command,
    CommandName,
    Proposal,
)
from firmware_host.terms.jobs import EngineJob, EngineResult, Purpose

__all__ = ["Duel", "Link", "Partner", "RemoteOpponent", "answer"]

log = logging.getLogger(__name__)

#: What reaching the shared Redis can raise (the link is down: try again at the next poll).
LINK_DOWN = (redis.ConnectionError, redis.TimeoutError, OSError)
#: How long the reader waits on the partner's stream at a time (ms).
BLOCK_MS = 1000
#: The writer checks the record against the stream at least this often (s).
CHECK_S = 5.0
Posted = EngineResult | Command


@dataclass
class Partner:
    """What the partner's board has written of the shared game ``game`` (its line of play:
    each takeback it agreed drops its moves after it), and this board's own agreements."""

    game: int = 0
    moves: dict[int, Played] = field(default_factory=dict)
    ended: Ended | None = None
    #: The partner's start of the game (its own game id).
    started: Started | None = None
    #: The partner's standing draw offer and takeback asked (of its newest line), and the
    #: takebacks it agreed (line -> the ply taken back to).
    offer: Offered | None = None
    ask: Asked | None = None
    agreed: dict[int, int] = field(default_factory=dict)
    #: This board's takebacks agreed (line -> ply: its record's) and the takebacks its
    #: player asked (line -> the ply asked back to: its stream's).
    backs: dict[int, int] = field(default_factory=dict)
    asked: dict[int, int] = field(default_factory=dict)
    #: How long the partner's board has given no heartbeat (seconds, this board's clock; None:
    #: it beats).
    silent_s: float | None = None

    def add(self, entry: Entry) -> None:
        """Take in the partner's next entry (in its stream's order)."""
        match entry:
            case Started():
                self.started = entry
            case Played():
                self.moves[entry.ply] = entry
            case Offered():
                self.offer = entry
            case Asked():
                self.ask = entry
            case Agreed():
                self.agreed[entry.line] = entry.ply
                self.moves = {ply: m for ply, m in self.moves.items() if ply <= entry.ply}
                self.offer = self.ask = None
            case Ended():
                self.ended = entry

    def last_ply(self) -> int:
        """The ply of the partner's last move in the line both boards play (0: none)."""
        return max((ply for ply in self.moves if self.move_at(ply) is not None), default=0)

    def move_at(self, ply: int) -> Played | None:
        """The partner's move at ``ply`` in the line both boards play: none where a takeback
        this board agreed took it back and the partner has not played it again."""
        played = self.moves.get(ply)
        if played is None or any(line > played.line and ply > back
                                 for line, back in self.backs.items()):
            return None
        return played


def answer(job: EngineJob, partner: Partner, at: float) -> EngineResult | None:
    """The reply to the session's ``job`` (the partner's turn at the job's ply): the partner's
    move there, checked by the rules and against the position it says it leads to, with its
    time left; None: not written yet, or taken back (or not a move there: logged).

    >>> board = Board("international")
    >>> right = Played(1, 1, "32-28", "B:W28,31,33-50:B1-20", 299.0)
    >>> answer(EngineJob(1, Purpose.REPLY, board), Partner(1, {1: right}), 0.0).clock
    299.0
    """
    played = partner.move_at(len(job.board.move_stack) + 1)
    if played is None:
        return None
    board = job.board.copy()
    try:
        move = board.parse_move(played.pdn)
    except ValueError as exc:
        log.error("duel: the partner's move %s at ply %d is not legal here: %s", played.pdn,
                  played.ply, exc)
        return None
    board.push(move)
    try:
        said = Board(board.variant, fen=played.fen).fen()
    except ValueError as exc:  # (the partner's entry names no position)
        log.error("duel: the partner's move %s at ply %d leads to no position: %s",
                  played.pdn, played.ply, exc)
        return None
    if board.fen() != said:
        log.error("duel: the partner's move %s at ply %d leads to %s there, %s here",
                  played.pdn, played.ply, played.fen, board.fen())
        return None
    return EngineResult(job.token, job.purpose, move, at, clock=played.left)


class RemoteOpponent:
    """The session's thinker of the partner's side (thread-safe: the session submits on its
    thread, the duel hands the partner's moves from its own)."""

    def __init__(self, clock: Clock, post: Callable[[Posted], None] | None = None,
                 claim_after_s: float = 300.0) -> None:
        self.clock = clock
        self.post = post
        #: How long the partner's board may be silent, their turn, before a claim is offered.
        self.claim_after_s = claim_after_s
        #: The claim offered (the game and the job of the partner's turn), until they are back.
        self._claim_said: tuple[int, int] | None = None
        self.name = "remote"
        self._lock = threading.Lock()
        self._job: EngineJob | None = None
        self._partner = Partner()
        self._ended_said: int | None = None
        #: This board's game as the duel last read it: over, and the moves of its record.
        self._over = False
        self._plies = 0
        #: The ply of the partner's move last handed to the session (lit there).
        self._answered = 0
        #: The partner's proposals and agreements handed to the session (once each).
        self._said: set[tuple[int, int, str, str]] = set()
        self._refused: set[tuple[int, str]] = set()

    def submit(self, job: EngineJob) -> None:
        """The partner's turn: answered once its move is here."""
        with self._lock:
            if job.purpose is not Purpose.REPLY:
                self._send(EngineResult(job.token, job.purpose, None, self.clock.monotonic(),
                                        error="no hints against a person"))
                return
            self._job = job
            self._act()
            self._end()

    def cancel(self) -> None:
        with self._lock:
            self._job = None

    def close(self) -> None:
        """Nothing to release."""

    def offer(self, partner: Partner, over: bool, plies: int) -> None:
        """What the partner's board has written; ``over``: this board's game has ended;
        ``plies``: the moves its record has."""
        with self._lock:
            self._partner, self._over, self._plies = partner, over, plies
            if not over:
                self._claim(partner)
                line = max(partner.agreed, default=0)
                said_all, refused = proposals(partner)
                for why in refused:
                    if (partner.game, why) not in self._refused:
                        self._refused.add((partner.game, why))
                        log.error("duel: %s", why)
                for said in said_all:
                    key = (partner.game, line, said.tag or "", said.value or "")
                    if key not in self._said:
                        self._said.add(key)
                        self._send(replace(said, at=self.clock.monotonic()))
            self._act()
            self._end()

    def _end(self) -> None:
        """Follow the partner's end of the game, once: only when every move the partner
        played before it is in this board's record or lit here (its last move, the one that
        took the last piece or was followed by a resignation, is lit first; the session's
        ``followed_result`` puts a lit move in the record with the end)."""
        partner, ended = self._partner, self._partner.ended
        if ended is None or self._over or self._ended_said == partner.game \
                or max(self._plies, self._answered) < partner.last_ply():
            return
        self._ended_said = partner.game
        self._send(Command(CommandName.FOLLOWED_RESULT.value, self.clock.monotonic(),
                           value=ended.result, tag=ended.termination, note=ended.note or None))

    def _claim(self, partner: Partner) -> None:
        """Offer the claim once a turn of the partner's while their board stays silent
        (``claim_after_s``); say when it beats again."""
        silent, job = partner.silent_s, self._job
        if silent is not None and silent >= self.claim_after_s and job is not None:
            said = (partner.game, job.token)
            if self._claim_said != said:
                self._claim_said = said
                self._send(Command(CommandName.PARTNER.value, self.clock.monotonic(),
                                   tag=Proposal.SILENT.value, value=str(int(silent // 60))))
        elif silent is None and self._claim_said is not None:
            self._claim_said = None
            self._send(Command(CommandName.PARTNER.value, self.clock.monotonic(),
                               tag=Proposal.PRESENT.value, value="0"))

    def name_game(self, tag: str, game_id: str) -> None:
        """Have the session write ``tag``, a board's own id of the game in play, in its
        record."""
        with self._lock:
            self._send(Command(CommandName.HEADER.value, self.clock.monotonic(), tag=tag,
                               value=game_id))

    def took_back(self, ply: int) -> None:
        """This board's game went back to ``ply`` (its session said so, before it asks for the
        partner's move again): the partner's moves after it are not answered until they are
        played again (the next poll reads the takeback from the record)."""
        with self._lock:
            partner = self._partner
            line = max([*partner.backs, 0]) + 1
            self._partner = replace(partner, backs={**partner.backs, line: ply})
            self._answered = min(self._answered, ply)

    def _act(self) -> None:
        if self._job is None:
            return
        reply = answer(self._job, self._partner, self.clock.monotonic())
        if reply is not None:
            self._answered = len(self._job.board.move_stack) + 1
            self._job = None
            self._send(reply)

    def _send(self, event: Posted) -> None:
        if self.post is None:
            raise RuntimeError("give the remote opponent a post (the controller's queue)")
        self.post(event)


def proposals(partner: Partner) -> tuple[list[Command], list[str]]:
    """What the partner's board proposes or agreed, as commands to this board's session
    (``partner``: its ``tag`` what, its ``value`` the plies), and what it says that is
    refused: a takeback agreed that this board's player did not ask for is never done.

    >>> asked = Partner(1, {}, ask=Asked(1, 6, 4))
    >>> [(c.tag, c.value) for c in proposals(asked)[0]]
    [('takeback_ask', '6:4')]
    """
    out: list[Command] = []
    line = max(partner.agreed, default=0)
    if partner.offer is not None and partner.offer.line == line:
        out.append(Command(CommandName.PARTNER.value, 0.0, tag=Proposal.DRAW_OFFER.value,
                           value=str(partner.offer.ply)))
    if partner.ask is not None and partner.ask.line == line:
        out.append(Command(CommandName.PARTNER.value, 0.0, tag=Proposal.TAKEBACK_ASK.value,
                           value=f"{partner.ask.ply}:{partner.ask.back_to}"))
    for agreed, ply in sorted(partner.agreed.items()):
        if agreed in partner.backs:
            continue  # (this board took back the same already)
        if partner.asked.get(agreed - 1) != ply:
            return out, [f"the partner says a takeback to ply {ply} was agreed (line "
                         f"{agreed}); this board did not ask for it"]
        out.append(Command(CommandName.PARTNER.value, 0.0,
                           tag=Proposal.TAKEBACK_AGREED.value, value=f"{agreed}:{ply}"))
        break  # (one at a time: the next once this one is in the record)
    return out, []


class Local(Protocol):
    """This board's side of the duel: its game in play and the record of a game."""

    @property
    def game_id(self) -> str | None: ...

    def load_game(self, game_id: str) -> GameRecord: ...


def agreed_backs(record: GameRecord) -> dict[int, int]:
    """The takebacks both players agreed in ``record``, in order (line -> the ply taken back
    to; 1: the first): the record's notes of them."""
    plies = [ply for ply, note in record.notes if note == TAKEBACK_AGREED]
    return {line: ply for line, ply in enumerate(plies, 1)}


@dataclass
class Written:
    """What this board has written of a shared game: the line it plays in, the highest ply of
    its moves there, whether its end."""

    line: int = 0
    ply: int = 0
    ended: bool = False


class Link:
    """The duel's two streams on one Redis client: this board's (written) and the partner's
    (read)."""

    def __init__(self, client: redis.Redis, me: str, partner: str) -> None:
        self.client = client
        self.mine = BoardKeys(me).duel(partner)
        self.theirs = BoardKeys(partner).duel(me)
        #: The partner's heartbeat (firmware_host/store/keepalive.py).
        self.alive = BoardKeys(partner).alive

    def write(self, entry: Entry) -> None:
        """Write ``entry`` at its id; one written already is left as it is."""
        entry_id, values = encode(entry)
        try:
            self.client.xadd(self.mine, values, id=entry_id)  # type: ignore[arg-type]
        except redis.ResponseError as exc:
            if "equal or smaller" not in str(exc):
                raise

    def entries(self, stream: str, game: int | None = None) -> list[Entry]:
        """The readable entries of ``stream`` (of game ``game`` only), in order; an entry that
        is none is skipped and logged."""
        low, high = ("-", "+") if game is None else (f"{game}-0", f"{game}-{END}")
        out: list[Entry] = []
        for where, raw in stream_entries(self.client.xrange(stream, low, high)):
            try:
                out.append(decode(where, {text(k): text(v) for k, v in raw.items()}))
            except (ValueError, UnicodeDecodeError) as exc:
                log.warning("duel: %s %s skipped: %s", stream, where, exc)
        return out

    def latest_game(self, stream: str) -> int:
        """The number of the newest game in ``stream`` (0: none)."""
        game, _, _ = newest_id(self.client.xrevrange(stream, count=1)).partition("-")
        return int(game) if game.isdigit() and len(game) < 11 else 0

    def wait(self, after: str, block_ms: int) -> tuple[str, list[Entry]]:
        """The partner's entries after ``after``, waited for at most ``block_ms`` (none: the
        time ran out), and the id of the last one read; an entry that is none is skipped and
        logged."""
        out, last = [], after
        for stream in items(self.client.xread({self.theirs: after}, block=block_ms)):
            if not isinstance(stream, list | tuple) or len(stream) != 2:
                continue
            for where, raw in stream_entries(stream[1]):
                last = where
                try:
                    out.append(decode(where, {text(k): text(v) for k, v in raw.items()}))
                except (ValueError, UnicodeDecodeError) as exc:
                    log.warning("duel: %s %s skipped: %s", self.theirs, where, exc)
        return last, out



class Duel:
    """This board's link to its partner's board (module docstring).

    Args:
        link: the two streams.
        local: this board's game in play and its records.
        me, partner: the two boards; ``side``: the colour this board's player has.
        variant: the rules of the duel.
        opponent: the session's thinker of the partner's side.
    """

    def __init__(self, link: Link, local: Local, *, me: str, partner: str, side: Color,
                 variant: str, opponent: RemoteOpponent,
                 wall_clock: Callable[[], float] = time.time) -> None:
        self.link = link
        self.local = local
        self.me = me
        self.partner = partner
        self.side = side
        self.variant = variant
        self.opponent = opponent
        self.wall_clock = wall_clock
        #: Since when (this board's monotonic clock) the partner's heartbeat is missing, says
        #: ``stopped`` or is stale (None: it beats).
        self._silent_since: float | None = None
        #: The shared game of each local game (found in this board's stream, or begun).
        self._games: dict[str, int] = {}
        #: What this board has written of each shared game: its line, the highest ply of its
        #: moves, whether its end (None: read the stream first).
        self._written: dict[int, Written] = {}
        #: The takebacks this board's player asked in each shared game (line -> back to).
        self._asked: dict[int, dict[int, int]] = {}
        self._polling = threading.Lock()  # (the writer's and the reader's threads)
        #: This board's moves and proposals told by the session, written at once by the
        #: writer's thread.
        self._outbox: queue.SimpleQueue[Played | Offered | Asked] = queue.SimpleQueue()
        #: Takebacks the session logged, and those a poll has written since: while one is not,
        #: the moves told are left to the poll (their line is the next one).
        self._takebacks_told = 0
        self._takebacks_written = 0
        #: What the partner has written of the game in play, and whether it is over here.
        self._partner = Partner()
        self._over = False
        #: The moves of this board's record at the last poll.
        self._plies = 0
        #: The tags asked of the session (game id, tag): each once.
        self._named: set[tuple[str, str]] = set()
        self._wake = threading.Event()
        self._full = threading.Event()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        #: The last problem of the link said (a problem is logged once, until it is gone).
        self.problem: str | None = None
        #: Polls done, and those that reached the shared Redis (tests and the bench wait on it).
        self.polls = 0
        self.reached = 0

    @property
    def _behind(self) -> bool:
        return self._takebacks_told > self._takebacks_written

    @property
    def white(self) -> str:
        return self.me if self.side is Color.WHITE else self.partner

    @property
    def black(self) -> str:
        return self.partner if self.side is Color.WHITE else self.me

    def poll(self) -> None:
        """Write what this board's record has and the stream has not; read the partner's."""
        with self._polling:
            self._poll()

    def _poll(self) -> None:
        self.polls += 1
        game_id = self.local.game_id
        if game_id is None:
            return
        takebacks = self._takebacks_told  # (those the record loaded next has)
        try:
            self._send()
            record = self.local.load_game(game_id)
            game = self._game(game_id)
            self._write(game, record)
            partner = self._read(game, record)
            partner.silent_s = self._silence(self.link.client.get(self.link.alive))
        except LINK_DOWN as exc:
            self._report(f"the shared Redis is out of reach ({type(exc).__name__}: "
                         f"{str(exc)[:160]}): this board keeps its game and tries again")
            return
        except redis.RedisError as exc:  # (refused: an ACL without --duels, say)
            self._report(f"the shared Redis refuses ({type(exc).__name__}: {str(exc)[:160]})")
            return
        except ValueError as exc:  # (a record unreadable here: the store says why)
            self._report(f"this board's game cannot be read: {exc}")
            return
        self.reached += 1
        self._takebacks_written = takebacks
        self._report(None)
        self._partner, self._over, self._plies = partner, record.finished, len(record.moves)
        self._name_game(game_id, record, partner)
        self.opponent.offer(partner, record.finished, self._plies)

    def _name_game(self, game_id: str, record: GameRecord, partner: Partner) -> None:
        """Have the record name both boards' own ids of the game (``GAME_ID_TAGS``: readers of
        one Redis find the two copies as one, firmware_host/store/copies.py), once the
        partner's start is read; each tag asked once."""
        if partner.started is None:
            return
        ids = {self.side: game_id, self.side.opponent: partner.started.local}
        for tag, value in ((GAME_ID_TAGS["white"], ids[Color.WHITE]),  # (both records alike)
                           (GAME_ID_TAGS["black"], ids[Color.BLACK])):
            if record.headers.get(tag) != value and (game_id, tag) not in self._named:
                self._named.add((game_id, tag))
                self.opponent.name_game(tag, value)

    def moved(self, event: Mapping[str, object]) -> None:
        """A session event (a listener, on the scan thread): a move of this board's player, a
        draw offer or a takeback asked is queued for the writer, which writes it at once (the
        next poll checks a move against the record); a move, a proposal, a takeback or a
        result logged wakes the writer."""
        kind = event.get("event")
        own = event.get("side") == self.side.name.lower()
        game = self._games.get(self.local.game_id or "")
        written = None if game is None else self._written.get(game)
        ply = event.get("ply")
        if kind == "takeback" and isinstance(ply, int):
            self._takebacks_told += 1
            self.opponent.took_back(ply)
        if game is None or written is None or self._behind:
            self._full.set()  # (the shared game or its line is not known yet: a poll first)
        elif own and isinstance(ply, int) and kind == "move":
            pdn, fen = event.get("pdn"), event.get("fen")
            left = event.get(f"clock_{self.side.name.lower()}")
            if isinstance(pdn, str) and isinstance(fen, str):
                self._outbox.put(Played(game, ply, pdn, fen,
                                        float(left) if isinstance(left, int | float) else None,
                                        written.line))
        elif own and isinstance(ply, int) and kind == "draw_offer":
            self._outbox.put(Offered(game, ply, written.line))
        elif own and isinstance(ply, int) and kind == "takeback_asked":
            back_to = event.get("back_to")
            if isinstance(back_to, int) and 0 <= back_to < ply:
                self._outbox.put(Asked(game, ply, back_to, written.line))
        if kind in ("result", "new_game", "takeback"):
            self._full.set()  # (the end or the takeback to write, or a new game to find)
        if kind in ("move", "result", "new_game", "takeback", "draw_offer", "takeback_asked"):
            self._wake.set()

    def _send(self) -> None:
        """Write the moves and proposals the session told (one written already is left as it
        is; a move told before a takeback was written is left to the poll)."""
        while True:
            try:
                told = self._outbox.get_nowait()
            except queue.Empty:
                return
            written = self._written.get(told.game)
            if written is None or written.line != told.line or self._behind:
                continue  # (the poll writes it from the record, in its line)
            self.link.write(told)
            if isinstance(told, Played):
                written.ply = max(written.ply, told.ply)
            elif isinstance(told, Asked):
                self._asked.setdefault(told.game, {})[told.line] = told.back_to

    def heard(self, entries: list[Entry]) -> None:
        """The partner's new entries (the reader's ``XREAD``): those of the game in play are
        handed to the opponent at once."""
        with self._polling:
            partner = self._partner
            fresh = [e for e in entries if e.game == partner.game]
            if not fresh:  # (the game in play not known yet, or a new one there: a poll)
                self._full.set()
                self._wake.set()
                return
            heard = replace(partner, moves=dict(partner.moves), agreed=dict(partner.agreed),
                            silent_s=None)  # (the partner wrote: it is there)
            self._silent_since = None
            for entry in fresh:
                heard.add(entry)
            self._partner = heard
            self.opponent.offer(heard, self._over, self._plies)

    def _game(self, game_id: str) -> int:
        """The shared game of the local game ``game_id``: found in this board's stream (it
        wrote the start), or begun now: the partner's newest, unless this board has written
        that one for another game of its own, then the next."""
        known = self._games.get(game_id)
        if known is not None:
            return known
        for entry in self.link.entries(self.link.mine):
            if isinstance(entry, Started) and entry.local == game_id:
                self._games[game_id] = entry.game
                return entry.game
        mine, theirs = self.link.latest_game(self.link.mine), \
            self.link.latest_game(self.link.theirs)
        game = max(mine, theirs)
        if game == 0 or mine == game:
            game += 1
        self.link.write(Started(game, self.white, self.black, self.variant, game_id))
        self._games[game_id] = game
        return game

    def _write(self, game: int, record: GameRecord) -> None:
        """What this board's record has and the stream does not yet, in order: the takebacks
        agreed, this board's player's moves of the line in play, then its end."""
        written = self._written.get(game)
        if written is None:
            written = self._written[game] = Written()
            asked = self._asked[game] = {}
            for entry in self.link.entries(self.link.mine, game):
                match entry:
                    case Agreed():
                        written.line, written.ply = entry.line, min(written.ply, entry.ply)
                    case Played():
                        written.ply = max(written.ply, entry.ply)
                    case Asked():
                        asked[entry.line] = entry.back_to
                    case Ended():
                        written.ended = True
        if written.ended:
            return
        for line, ply in list(agreed_backs(record).items())[written.line:]:
            self.link.write(Agreed(game, line, ply))
            written.line, written.ply = line, min(written.ply, ply)
        for move in record.moves:
            mover = Color.WHITE if move.fen_after.lstrip().upper().startswith("B") \
                else Color.BLACK
            if mover is not self.side or move.ply <= written.ply:
                continue
            left = move.clock_white if mover is Color.WHITE else move.clock_black
            self.link.write(Played(game, move.ply, move.pdn, move.fen_after, left, written.line))
            written.ply = move.ply
        if record.finished:
            said = [text for ply, text in record.notes if ply == len(record.moves)]
            self.link.write(Ended(game, record.result, record.termination,
                                  said[-1][:MAX_TEXT] if said else ""))
            written.ended = True

    def _read(self, game: int, record: GameRecord) -> Partner:
        partner = Partner(game, backs=agreed_backs(record),
                          asked=dict(self._asked.get(game, {})))
        for entry in self.link.entries(self.link.theirs, game):
            partner.add(entry)
        return partner

    def _silence(self, raw: object) -> float | None:
        """How long the partner's board has been silent, from its heartbeat ``raw`` now."""
        now = self.opponent.clock.monotonic()
        if heartbeat_says(raw, self.wall_clock())[0]:
            self._silent_since = None
            return None
        if self._silent_since is None:
            self._silent_since = now
        return now - self._silent_since

    def _report(self, problem: str | None) -> None:
        if problem != self.problem:
            if problem is not None:
                log.warning("duel with %s: %s", self.partner, problem)
            elif self.problem is not None:
                log.info("duel with %s: the link is back", self.partner)
            self.problem = problem

    # -- on the service: two named threads --------------------------------------------------

    def start(self) -> Duel:
        """Write on a thread woken by each move, and wait on the partner's stream on another."""
        for name, target in (("draughtsboard-duel-out", self._writer),
                             ("draughtsboard-duel-in", self._reader)):
            thread = threading.Thread(target=target, name=name, daemon=True)
            self._threads.append(thread)
            thread.start()
        return self

    def _writer(self) -> None:
        """This board's moves at once; the whole poll (the record against the stream) after a
        result, a new game, a write that failed, or :data:`CHECK_S` without a move."""
        while not self._stop.is_set():
            woken = self._wake.wait(CHECK_S)
            self._wake.clear()
            full = not woken or self._full.is_set() or self.problem is not None
            self._full.clear()
            try:
                self._send()  # this board's move, at once
            except LINK_DOWN:
                full = True  # (the record has the move: the poll writes it when it can)
            except redis.RedisError as exc:
                log.warning("duel with %s: %s", self.partner, exc)
                full = True
            if full:
                self._safe_poll()

    def _reader(self) -> None:
        last = "$"
        self._safe_poll()
        while not self._stop.is_set():
            try:
                if last == "$":
                    last = newest_id(self.link.client.xrevrange(self.link.theirs, count=1))
                last, entries = self.link.wait(last, BLOCK_MS)
                if entries:
                    self.heard(entries)
            except LINK_DOWN:
                self._stop.wait(1.0)  # (the writer's poll says so, and tries again)
            except redis.RedisError as exc:
                log.warning("duel with %s: %s", self.partner, exc)
                self._stop.wait(1.0)

    def _safe_poll(self) -> None:
        try:
            self.poll()
        except Exception:  # a bug in a poll must not end the duel
            log.exception("duel with %s: a poll failed", self.partner)

    def close(self) -> None:
        """Stop both threads. Idempotent."""
        self._stop.set()
        self._wake.set()
        threads, self._threads = self._threads, []
        for thread in threads:
            if thread is not threading.current_thread():
                thread.join(BLOCK_MS / 1000 + 2)

