"""The follower: the followed game's moves as a ``follow`` session's replies, one at a time.

A ``follow`` session has no human side: at each turn it asks its thinker for a reply
(:class:`~firmware_host.terms.jobs.EngineJob`), shows the answer on the LEDs as it shows the
computer's move, and commits it once the hand has carried it out. The :class:`Follower` is that
thinker. It answers a job with the followed game's move at the job's ply, as soon as the
followed game has it: at once while a board that joined late catches up (each move of the game
so far lit and carried out in turn, up to the position now), else when a later poll brings it.
What else the followed game says becomes the session's commands: its players' tags
(``header``), its end (``followed_result``), and a game that no longer continues this one (a
new game there, a takeback) a new game here (``newgame``: the players set up the start and the
board guides them through the moves again).

:func:`plan` decides, from facts alone, what to post; the :class:`Follower` keeps the facts
between two calls (the job waiting, the moves this game has, what was already said) and posts
the events to the controller's queue. :class:`Following` reads the source and hands the game to
the follower: on a named thread every ``follow.poll_s`` in the service, or when a test calls
:meth:`Following.poll` (virtual time).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from board_io.clock import Clock
from engine.types import Move
from firmware_host.follow.game import Followed, FollowError, Reader
from firmware_host.terms.commands import Command, CommandName
from firmware_host.terms.jobs import EngineJob, EngineResult, Purpose

__all__ = ["Follower", "Following", "Said", "plan"]

log = logging.getLogger(__name__)

#: What the follower posts: a reply to the session's job, or a command.
Posted = EngineResult | Command
MoveKey = tuple[int, int, frozenset[int]]


def _key(move: Move) -> MoveKey:
    return move.origin, move.destination, frozenset(move.captures)


@dataclass
class Said:
    """What the follower has told the session of the game in play (reset with a new game)."""

    tags: dict[str, str] = field(default_factory=dict)
    result: bool = False
    #: A new game was asked for: nothing more until the session's first job of it.
    restart: bool = False


def plan(job: EngineJob | None, known: Sequence[Move], followed: Followed, said: Said,
         at: float) -> list[Posted]:
    """What to post, from the facts: the session's ``job`` waiting (None: none), the moves this
    game has (``known``), the followed game and what was said of it. ``said`` is updated.

    >>> from engine import Board
    >>> board = Board("international")
    >>> move = board.parse_move("32-28")
    >>> followed = Followed("international", None, (move,), "*", {"White": "Ann"})
    >>> [type(p).__name__ for p in plan(EngineJob(1, Purpose.REPLY, board), [], followed,
    ...                                 Said(), 0.0)]
    ['Command', 'EngineResult']
    """
    if said.restart:
        return []
    mine = [_key(m) for m in known]
    theirs = [_key(m) for m in followed.moves]
    if theirs[:len(mine)] != mine:  # a new game there, or moves taken back: start again
        said.tags.clear()
        said.result = False
        said.restart = True
        return [Command(CommandName.NEWGAME.value, at)]
    out: list[Posted] = []
    if job is None:
        return out
    for tag, value in followed.tags.items():
        if said.tags.get(tag) != value:
            said.tags[tag] = value
            out.append(Command(CommandName.HEADER.value, at, tag=tag, value=value))
    ply = len(job.board.move_stack)
    if ply < len(followed.moves):
        move = followed.moves[ply]
        try:
            reply = job.board.find_move(move.origin, move.destination, frozenset(move.captures))
        except ValueError as exc:  # (the same game replayed: only a damaged source)
            out.append(EngineResult(job.token, job.purpose, None, at, error=str(exc)))
        else:
            out.append(EngineResult(job.token, job.purpose, reply, at))
    elif followed.result != "*" and not said.result:
        said.result = True
        out.append(Command(CommandName.FOLLOWED_RESULT.value, at, value=followed.result))
    return out


class Follower:
    """The thinker of a ``follow`` session (module docstring); thread-safe: the session submits
    jobs on its thread, the poll hands the followed game from its own.

    Args:
        variant: the board's variant (a followed game of another is not followed: logged).
        start_fen: where the board's new games start (None: the variant's start).
        clock: the time of the events posted.
        post: the controller's queue.
    """

    def __init__(self, variant: str, start_fen: str | None, clock: Clock,
                 post: Callable[[Posted], None] | None = None) -> None:
        self.variant = variant
        self.start_fen = start_fen
        self.clock = clock
        self.post = post
        self.name = "follow"  # (the PDN tag of the computer's side: none in follow mode)
        self._lock = threading.Lock()
        self._job: EngineJob | None = None
        self._known: list[Move] = []
        self._followed: Followed | None = None
        self._said = Said()
        #: The last problem logged (a problem is logged once, until another one or none).
        self.problem: str | None = None

    def submit(self, job: EngineJob) -> None:
        """The session's turn: answered once the followed game has the move."""
        with self._lock:
            if job.purpose is not Purpose.REPLY:
                self._send([EngineResult(job.token, job.purpose, None, self.clock.monotonic(),
                                         error="no hints while following")])
                return
            self._job = job
            self._known = list(job.board.move_stack)
            if not self._known:
                self._said.restart = False  # the new game's first turn
            self._act()

    def cancel(self) -> None:
        """The session no longer waits for the job."""
        with self._lock:
            self._job = None

    def close(self) -> None:
        """Nothing to release."""

    def offer(self, followed: Followed) -> None:
        """The followed game as its source has it now."""
        with self._lock:
            problem = None
            if followed.variant != self.variant:
                problem = (f"the followed game is {followed.variant}, this board plays "
                           f"{self.variant}: run --variant {followed.variant}")
            elif followed.start_fen not in (None, self.start_fen):
                problem = (f"the followed game starts from a set-up position "
                           f"({followed.start_fen}): run --fen with it")
            self.report(problem)
            if problem is None:
                self._followed = followed
                self._act()

    def report(self, problem: str | None) -> None:
        """Log a problem of the source once (and when it is gone)."""
        if problem != self.problem:
            if problem is not None:
                log.warning("follow: %s", problem)
            elif self.problem is not None:
                log.info("follow: the followed game is read again")
            self.problem = problem

    def _act(self) -> None:
        if self._followed is None:
            return
        posted = plan(self._job, self._known, self._followed, self._said,
                      self.clock.monotonic())
        for event in posted:
            if isinstance(event, EngineResult):
                self._job = None
                if event.move is not None:
                    self._known.append(event.move)
        self._send(posted)

    def _send(self, posted: Sequence[Posted]) -> None:
        if self.post is None:
            raise RuntimeError("give the follower a post (the controller's queue) first")
        for event in posted:
            self.post(event)


class Following:
    """A followed source and its follower: :meth:`poll` reads the game and hands it over;
    :meth:`start` polls on a named thread every ``every_s`` until :meth:`close`."""

    def __init__(self, reader: Reader, follower: Follower, every_s: float) -> None:
        self.reader = reader
        self.follower = follower
        self.every_s = every_s
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        #: Polls done (a test waits on it).
        self.polls = 0

    def poll(self) -> None:
        """Read the followed game once and hand it to the follower (a problem is logged)."""
        try:
            followed = self.reader.read()
        except FollowError as exc:
            self.follower.report(str(exc))
        else:
            self.follower.offer(followed)
        self.polls += 1

    def start(self) -> Following:
        """Poll on a thread of its own."""
        self._thread = threading.Thread(target=self._run, name="draughtsboard-follow",
                                        daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.poll()
            except Exception:  # a bug in a poll must not end the following
                log.exception("follow: a poll failed")
            self._stop.wait(self.every_s)

    def close(self) -> None:
        """Stop polling. Idempotent."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(2.0)

