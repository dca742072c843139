"""Review on the board: the last game stepped through under the player's hands, each mistake
lit with the move played and the better one, the better line tried by hand against the engine.

A :class:`ReviewGame` is the game as its analysis tells it (:mod:`firmware_host.coach.results`):
its positions, and at each move marked ``?`` or ``??`` the better move (:data:`MISTAKES`).
:class:`Review` is the session of ``review`` mode: the controller drives it as it drives a
game's session (:class:`firmware_host.game.controller.Driven`). It keeps one position of the
game wanted on the board (after :attr:`Review.ply` plies) and, square by square, guides the
pieces there by the lights of a position set up (:class:`~firmware_host.game.setup.SetUp`,
by colour and crown). Then:

- **done** (a button or the phone), or the game's next move made by hand, steps on; **takeback**
  steps back (the lights show what to change);
- before a move marked a mistake, the board lights the move played
  (:attr:`~firmware_host.feedback.roles.Role.PLAYED`) and the better one
  (:attr:`~firmware_host.feedback.roles.Role.BETTER`) and says both;
- a move made there by hand that is not the game's (the better one, or any other) is answered
  by the engine, through the engine worker as the opponent's moves are (never on the scan
  thread): its reply is lit as the computer's move is, to be carried out; the hand may play on,
  and **done** (or **takeback**) guides the pieces back to the game's position, by the same
  lights as any set-up.

A game not yet analysed is said so (``review`` event, reason ``not_analysed``, its ``case``
who analyses the board's games, ``coach.analyse``: the board while idle
(:mod:`firmware_host.coach.analyst`), the hall's workers, or no one) and **done** looks again.

Example:
    >>> from firmware_host.coach.results import MoveMark, StoredAnalysis
    >>> analysis = StoredAnalysis("b1", "g1", "russian", 6, "e", "0.00", (
    ...     MoveMark("c3-d4", "0.00"), MoveMark("f6-g5", "1.10", "??", 0.6, ("b6-a5",))))
    >>> game = ReviewGame.of(analysis, None)
    >>> game.plies, game.mistakes, game.board(1).move_notation(game.better(1))
    (2, (1,), 'b6-a5')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import Final

from board_io.events import ButtonPressed, OccupancyChanged
from board_io.types import Reading
from engine import Board
from engine.errors import DraughtsError
from engine.types import Move, Piece, Square
from engine.variant import Variant
from firmware_host.coach.results import AnalysisError, StoredAnalysis
from firmware_host.feedback import leds
from firmware_host.feedback.roles import Role
from firmware_host.game.outbox import Outbox
from firmware_host.game.searches import Searches
from firmware_host.game.setup import SetUp
from firmware_host.game.types import SessionEvent, TimerFired
from firmware_host.recognition.recogniser import resolve
from firmware_host.recognition.resolution import Complete
from firmware_host.store.client import text
from firmware_host.store.keys import analysis_key
from firmware_host.store.redis_store import RedisStore
from firmware_host.terms.buttons import command_of
from firmware_host.terms.commands import Command, CommandName
from firmware_host.terms.jobs import EngineResult, Purpose, Thinker

__all__ = ["MISTAKES", "Phase", "Review", "ReviewGame", "Source", "last_game"]

#: The marks a review stops at: a mistake and a blunder (docs/coach.md#what-the-marks-mean).
MISTAKES: Final = ("?", "??")
#: The newest games of the board read for its last finished one.
LOOK_BACK: Final = 10


@dataclass(frozen=True)
class ReviewGame:
    """A game to review: its ``analysis`` (every move's mark and better line), and as read
    once from it, the ``positions`` (the start, then after each move), the ``moves`` played
    and the ``betters`` (the better move where the move played is a mistake, else None)."""

    analysis: StoredAnalysis
    positions: tuple[Board, ...]
    moves: tuple[Move, ...]
    betters: tuple[Move | None, ...]

    @classmethod
    def of(cls, analysis: StoredAnalysis, start_fen: str | None) -> ReviewGame:
        """The game of ``analysis``, from ``start_fen`` (None: the variant's start).

        Raises:
            ValueError: a move of the analysis is not legal in its game.
        """
        board = Board(analysis.variant, fen=start_fen)
        positions, moves, betters = [board.copy()], [], []
        try:
            for mark in analysis.moves:
                betters.append(board.parse_move(mark.better[0])
                               if mark.mark in MISTAKES and mark.better else None)
                moves.append(board.parse_move(mark.pdn))
                board.push(moves[-1])
                positions.append(board.copy())
        except DraughtsError as exc:
            raise ValueError(f"the analysis is not of a game that replays: {exc}") from None
        return cls(analysis, tuple(positions), tuple(moves), tuple(betters))

    @property
    def plies(self) -> int:
        """How many moves (plies) the game has."""
        return len(self.moves)

    @property
    def mistakes(self) -> tuple[int, ...]:
        """The plies (0: the first move) marked a mistake with a better move."""
        return tuple(i for i, better in enumerate(self.betters) if better is not None)

    def board(self, ply: int) -> Board:
        """The position after ``ply`` plies (a copy)."""
        return self.positions[ply].copy()

    def move(self, ply: int) -> Move:
        """The move played from the position after ``ply`` plies."""
        return self.moves[ply]

    def better(self, ply: int) -> Move | None:
        """The better move there (None: the move played is no mistake)."""
        return self.betters[ply] if ply < self.plies else None


#: What a review reviews: the last game, or why there is none to review (``"no_game"``,
#: ``"not_analysed"``); called when the review starts and when **done** looks again.
Source = Callable[[], "ReviewGame | str"]


def last_game(store: RedisStore) -> ReviewGame | str:
    """The board's last finished game with its analysis, or why there is none to review
    (``"no_game"``, ``"not_analysed"``: no analysis of the game as it stands). A read of the
    store, never a search: the scan thread may call it.

    Only the newest :data:`LOOK_BACK` games are read (the game in play and games left
    unfinished come before the last finished one).

    Raises:
        StoreUnavailable: Redis cannot be read.
    """
    ids = list(store.client.zrangebyscore(store.keys.games, 0, "+inf"))  # ids only, oldest first
    record = None
    for game_id in reversed(ids[-LOOK_BACK:]):
        game = store.load_game(text(game_id))
        if game.finished and game.moves:
            record = game
            break
    if record is None:
        return "no_game"
    raw = store.client.get(analysis_key(store.board_id, record.game_id))
    try:
        analysis = StoredAnalysis.parse(raw) if isinstance(raw, str | bytes) else None
    except AnalysisError:
        analysis = None
    if analysis is None or not analysis.fits([move.pdn for move in record.moves]):
        return "not_analysed"
    try:
        return ReviewGame.of(analysis, record.start_fen)
    except ValueError:
        return "not_analysed"


class Phase(Enum):
    """Where a review is."""

    #: No game to review yet (none finished, or not analysed): **done** looks again.
    WAITING = "waiting"
    #: The game's position after :attr:`Review.ply` plies is wanted (or stands) on the board.
    GAME = "game"
    #: A move tried by hand: the engine is asked for its reply.
    THINKING = "thinking"
    #: The engine's reply is lit: the hand carries it out, then may play on.
    LINE = "line"


class Review:
    """The session of ``review`` mode (driven by the controller as a game's session is).

    Args:
        variant: the board's variant (the board shows its start until a game is loaded).
        source: the game to review (:data:`Source`).
        thinker: the engine worker that answers a move tried by hand.
        outbox: where its events and LED frames go (the board's session's: its listeners,
            LEDs and language).
        analysed_by: who analyses the board's games (``coach.analyse``: ``idle``, ``queue``,
            ``off``): what a game not yet analysed is said to wait for.
    """

    def __init__(self, variant: Variant | str, source: Source, *, thinker: Thinker,
                 outbox: Outbox, analysed_by: str = "idle") -> None:
        self._now = 0.0
        self.analysed_by = analysed_by
        self._outbox = outbox
        self.publish = self._outbox.publish
        self.subscribe = self._outbox.subscribe
        self._source = source
        self._searches = Searches(thinker)
        self.phase = Phase.WAITING
        self.game: ReviewGame | None = None
        #: The game's position wanted on the board: after this many plies.
        self.ply = 0
        #: The position on the board in a line tried by hand (None: the game's).
        self.line: Board | None = None
        #: The engine's reply to carry out (None: none lit).
        self.reply: Move | None = None
        self.occupied: frozenset[Square] = frozenset()
        self._wanted = Board(variant)
        self._setup: SetUp | None = None
        #: The board has shown the position wanted since it was guided there: a change is
        #: the hand making a move, not a piece still to set.
        self._held = False
        self._tried = ""
        self._commands: Mapping[str, Callable[[], None]] = MappingProxyType({
            CommandName.DONE.value: self._forward, CommandName.TAKEBACK.value: self._back})

    # -- what the controller needs (firmware_host.game.controller.Driven) -----------------------

    @property
    def idle(self) -> bool:
        """No search under way."""
        return not self._searches.busy

    def start(self, occupied: Iterable[int], at: float,
              colours: Mapping[int, Reading] | None = None, resume: bool = True) -> None:
        """Begin with the board showing ``occupied`` (taken to hold the pieces of the
        variant's start, as a board at rest does, or the game's end if it shows that)."""
        self._now = at
        self.occupied = frozenset(occupied)
        self._load()
        self._render()

    def handle(self, event: SessionEvent) -> None:
        """Handle one event (the board, a button, a command, the engine's answer)."""
        at = getattr(event, "at", None)
        if isinstance(at, int | float):
            self._now = max(self._now, float(at))
        match event:
            case OccupancyChanged():
                self.occupied = frozenset(event.occupied)
                self._seen()
            case ButtonPressed():
                command = command_of(event.button)
                if command is not None:
                    self._command(command[0].value)
            case Command():
                self._command(event.name)
            case EngineResult():
                self._answered(event)
            case _:
                pass
        self._render()

    def recover(self) -> None:
        """After a failed handler: the position wanted is lit again from what the board shows."""
        self._searches.cancel()
        self.line, self.reply = None, None
        if self.phase is not Phase.WAITING:
            self.phase = Phase.GAME
        if self.game is not None:
            self._guide(self.game.board(self.ply), self._wanted.pieces())
        self._outbox.frame = None
        self._render()

    def due_timers(self, now: float) -> list[TimerFired]:
        """A review keeps no timers."""
        return []

    def next_deadline(self) -> float | None:
        """A review keeps no timers."""
        return None

    @property
    def frame(self) -> Mapping[Square, Role]:
        """The LED frame shown now."""
        return MappingProxyType(self._outbox.frame or {})

    # -- the game -----------------------------------------------------------------------------

    def _load(self) -> None:
        found = self._source()
        if isinstance(found, str):
            self.phase = Phase.WAITING
            self.publish("review", reason=found, **(
                {"case": self.analysed_by} if found == "not_analysed" else {}))
            return
        self.game, self.phase = found, Phase.GAME
        # From the game's start. The board holds the game's end (it was just played) or, as
        # a board at rest, the variant's start: what is known of its pieces' colours.
        end = found.board(found.plies)
        self.ply = 0
        standing = (end if self.occupied == end.occupied_squares()
                    else Board(end.variant)).pieces()
        self.publish("review", reason="start", plies=found.plies,
                     mistakes=len(found.mistakes))
        self._guide(found.board(self.ply), standing)
        self._arrived()

    def _guide(self, wanted: Board, standing: Mapping[Square, Piece]) -> None:
        """Want ``wanted`` on the board, where ``standing``'s pieces are known to stand."""
        self._wanted = wanted
        self._setup = SetUp.towards(wanted.pieces(), standing, self.occupied).seen(self.occupied)
        self._held = self._setup.done(self.occupied)

    @property
    def _known(self) -> Mapping[Square, Piece]:
        """The pieces known to stand on the board (what the lights asked for)."""
        return self._wanted.pieces() if self._setup is None else self._setup.known

    def _step(self, ply: int) -> None:
        """Go to the game's position after ``ply`` plies, the pieces guided there."""
        if self.game is None:
            return
        self.ply = ply
        self._guide(self.game.board(ply), self._known)
        if ply:
            self.publish("review", reason="step", ply=ply, move=_named(self.game, ply - 1))
        else:
            self.publish("review", reason="first")
        self._arrived()

    def _arrived(self) -> None:
        """Say what the position wanted holds for the player once the board shows it."""
        if self._setup is None or not self._setup.done(self.occupied) or self.game is None:
            return
        if self.ply == self.game.plies:
            self.publish("review", reason="end")
        elif (better := self.game.better(self.ply)) is not None:
            board = self.game.board(self.ply)
            mark = self.game.analysis.moves[self.ply]
            self.publish("review", reason="mistake", ply=self.ply + 1,
                         played=board.move_notation(self.game.move(self.ply)),
                         mark=mark.mark, better=board.move_notation(better),
                         line=list(mark.better))

    # -- commands -----------------------------------------------------------------------------

    def _command(self, name: str) -> None:
        handler = self._commands.get(name)
        if handler is None:
            self.publish("command_refused", command=name, reason="review")
        else:
            handler()

    def _forward(self) -> None:
        if self.phase is Phase.WAITING:
            self._load()
        elif self.phase is not Phase.GAME:
            self._home()
        elif self.game is not None and self.ply < self.game.plies:
            self._step(self.ply + 1)
        else:
            self.publish("review", reason="end")

    def _back(self) -> None:
        if self.phase in (Phase.THINKING, Phase.LINE):
            self._home()
        elif self.phase is Phase.GAME and self.ply > 0:
            self._step(self.ply - 1)
        elif self.phase is Phase.GAME:
            self.publish("review", reason="first")

    def _home(self) -> None:
        """Leave the line tried by hand: the pieces are guided back to the game's position."""
        if self.game is None:
            return
        self._searches.cancel()
        standing = (self.line or self._wanted).pieces()
        self.line, self.reply, self.phase = None, None, Phase.GAME
        self._guide(self.game.board(self.ply), standing)
        self.publish("review", reason="back")
        self._arrived()

    # -- the hand -----------------------------------------------------------------------------

    def _seen(self) -> None:
        if self.phase is Phase.GAME and self._setup is not None:
            self._on_game_board()
        elif self.phase is Phase.LINE and self.line is not None:
            self._on_line_board(self.line)

    def _on_game_board(self) -> None:
        if self._setup is None or self.game is None:
            return
        if not self._held:  # the pieces are being set: the lights follow the board
            self._setup = self._setup.seen(self.occupied)
            self._held = self._setup.done(self.occupied)
            self._arrived()
            return
        made = _made(self._wanted, self.occupied)
        if made is None:
            return  # a move under way (or a piece knocked: lit, see _lights)
        if self.ply < self.game.plies and made == self.game.move(self.ply):
            self.ply += 1  # the game's move, by hand: the review steps on
            self._wanted = self.game.board(self.ply)
            pieces = MappingProxyType(self._wanted.pieces())
            self._setup = SetUp(pieces, pieces)
            self.publish("review", reason="moved", ply=self.ply,
                         move=_named(self.game, self.ply - 1))
            self._arrived()
            return
        self._try(self._wanted, made)

    def _on_line_board(self, line: Board) -> None:
        if self.reply is not None:
            after = line.copy()
            after.push(self.reply)
            if self.occupied == after.occupied_squares():
                self.line, self.reply = after, None
                self.publish("review", reason="line_over" if after.outcome() is not None
                             else "line")
            return
        if line.outcome() is None and (made := _made(line, self.occupied)):
            self._try(line, made)

    def _try(self, board: Board, move: Move) -> None:
        """The hand played ``move`` in ``board``: the engine answers it."""
        self.line = board.copy()
        self.line.push(move)
        self._tried = board.move_notation(move)
        if self.line.outcome() is not None:
            self.phase = Phase.LINE
            self.publish("review", reason="line_over")
            return
        self.phase = Phase.THINKING
        self._searches.submit(Purpose.REPLY, self.line)

    def _answered(self, result: EngineResult) -> None:
        if self._searches.take(result.token) is None or self.line is None:
            return
        self.phase = Phase.LINE
        if result.move is None or result.move not in self.line.legal_moves:
            self.publish("review", reason="line_over")
            return
        self.reply = result.move
        self.publish("review", reason="reply", tried=self._tried,
                     reply=self.line.move_notation(result.move))

    # -- the lights ---------------------------------------------------------------------------

    def _render(self) -> None:
        self._outbox.show(self._lights(), self._wanted.variant.square_name)

    def _lights(self) -> dict[Square, Role]:
        if self.phase is Phase.LINE and self.reply is not None:
            return leds.build(leds.move_to_carry_out(self.reply, self.occupied))
        if self.phase is not Phase.GAME or self._setup is None or self.game is None:
            return {}
        if not self._held:
            return self._setup.lights(self.occupied)
        # Held: the squares a move of the position touches are the hand's (a move under way);
        # any other square out of place is lit to be set right.
        moving = {sq for move in self._wanted.legal_moves
                  for sq in (move.origin, move.destination, *move.captures)}
        layers = [(role, [sq]) for sq, role in self._setup.lights(self.occupied).items()
                  if sq not in moving]
        better = self.game.better(self.ply)
        if better is not None:
            played = self.game.move(self.ply)
            layers += [(Role.BETTER, [better.origin, better.destination]),
                       (Role.PLAYED, [played.origin, played.destination])]
        return leds.build(layers)


def _made(board: Board, occupied: frozenset[Square]) -> Move | None:
    """The move of ``board`` the board shows made (None: none, or not yet), as the recogniser
    reads it."""
    shown = resolve(board, occupied)
    return shown.move if isinstance(shown, Complete) else None


def _named(game: ReviewGame, ply: int) -> str:
    """``3. 32-28?`` or ``3... 19-23``: the move played after ``ply`` plies, numbered from the
    game's first move, and its mark."""
    mark = game.analysis.moves[ply]
    return f"{ply // 2 + 1}{'.' if ply % 2 == 0 else '...'} {mark.pdn}{mark.mark}"
