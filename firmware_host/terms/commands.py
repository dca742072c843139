"""The board's commands: their names and the message that carries one, said once.

A command is a request to a board's session: a button, a line of the terminal, an entry of the
board's command stream in Redis (written by the web app's control and the arbiter's console,
read by :mod:`firmware_host.remote.reader`). :class:`CommandName` names them; each of the
phone's settings (:mod:`firmware_host.terms.settings`) is a command of its own name, with its
value; :func:`is_command` knows both. A :class:`Command` is the message: the name, and as the
command needs them its ``side``, ``value``, ``tag`` and the arbiter's decision ``id``.

>>> is_command("hint"), is_command("level"), is_command("format")
(True, True, False)
>>> Command("header", at=1.0, tag="White", value="Ann").tag in HEADER_TAGS
True
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from firmware_host.terms.settings import setting

__all__ = ["BOARD_ONLY", "BOARD_TAGS", "GAME_ID_TAGS", "HEADER_TAGS", "MAX_HEADER_LENGTH",
           "MAX_POSITION_LENGTH", "SIDES", "STREAM_LENGTH", "TAKEBACK_AGREED", "Command",
           "CommandName", "Proposal", "is_command"]

#: The PDN tags a ``header`` command may set, and the longest value a command's field carries.
HEADER_TAGS = frozenset({"White", "Black", "Event", "Site", "Round"})
MAX_HEADER_LENGTH = 80
#: The longest position a ``setup`` command carries (a FEN, or a PDN game on one line).
MAX_POSITION_LENGTH = 2000
#: The sides a command names (a draw offer, a resignation, time given).
SIDES = ("white", "black")
#: Entries kept in a board's command stream (XADD MAXLEN ~): every writer caps it so.
STREAM_LENGTH = 1000


class CommandName(Enum):
    """Requests from the buttons, the CLI or the web (the button names are the same); the phone's
    settings are commands too, named by :mod:`firmware_host.terms.settings`."""

    ADJUST = "adjust"
    DONE = "done"
    HINT = "hint"
    TAKEBACK = "takeback"
    NEWGAME = "newgame"
    RESIGN = "resign"
    DRAW = "draw"
    #: A PDN tag of the current game (``tag``, ``value``): players' names, event, round.
    HEADER = "header"
    #: The arbiter's: hold this board's clock, and release it (the hold, and a corrected
    #: position's once it is set up); give a ``side`` ``value`` seconds more.
    PAUSE = "pause"
    RESUME = "resume"
    ADD_TIME = "add_time"
    #: The hall's pause (``value`` ``pause`` or ``resume``): every clock of the hall held, a
    #: state kept in Redis that a board reads as it starts (firmware_host/tournament/hall.py).
    HALL = "hall"
    #: The clock button (firmware_host/terms/buttons.py): the player who just moved switches
    #: the clock.
    CLOCK = "clock"
    #: The arbiter's: end the game in play with ``value`` ``white``, ``black`` (the winner) or
    #: ``draw`` (termination ``adjudication``).
    ADJUDICATE = "adjudicate"
    #: The arbiter's: the finished game's result was wrong (``value`` as for ``adjudicate``).
    #: Both take the arbiter's reason in ``tag``: a comment of the game's PDN.
    CORRECT_RESULT = "correct_result"
    #: The arbiter's: the game is taken back to before ply N and the right move played there
    #: (``value`` ``"N MOVE [RESULT]"``, e.g. ``"7 33-28"``; ``tag`` the reason; a finished
    #: game's ``RESULT``: ``keep`` (the default), ``withdraw``, ``white``, ``black``, ``draw``):
    #: firmware_host/game/correction.py. The board then guides the players to set up the
    #: corrected position; its clock stays held until it is set up and released.
    CORRECT_MOVE = "correct_move"
    #: The arbiter's: the game ``value`` (``"<board>/<game id>"``) of a board that failed
    #: goes on here, a spare board whose game has not begun: its moves, names and clock
    #: (held), the players guided to set up its position (firmware_host/game/carry.py).
    CARRY = "carry"
    #: The arbiter's: round ``value`` starts now. The game waiting at the start takes its
    #: pairing (the players' names) and its clock starts again, full (firmware_host/game/
    #: timekeeper.py); refused once the game has begun or when no pairing of that round waits.
    START_ROUND = "start_round"
    #: A board that follows another game (``follow`` mode): that game ended with the PDN
    #: result ``value`` (``2-0``, ``1-1``, ...); refused in every other mode.
    FOLLOWED_RESULT = "followed_result"
    #: A person on another board (``remote`` opponent) proposes or agreed (``tag`` a
    #: :class:`Proposal`, ``value`` its plies): written by that board's duel, handed to this
    #: session by firmware_host/opponents/remote/duel.py; refused in every other game.
    PARTNER = "partner"
    #: Against a person on another board whose heartbeat has been silent for
    #: ``remote.claim_after_min`` while they are to move: this board's player claims the game
    #: (``value`` ``win``, the default, or ``draw``), as online servers let a player force the
    #: resignation or a draw of an opponent who left (docs/remote.md).
    CLAIM = "claim"
    #: Pair this board with the board ``value`` (its id on the Redis both reach; empty: end the
    #: pairing, the engine plays again), this board's player taking ``side`` (white when none):
    #: from the next game (at once when the game in play has not begun). From the phone or the
    #: arbiter's console (docs/remote.md).
    PAIR = "pair"
    #: Set up a position by the lights (``value``: a FEN, or a PDN game whose end is the
    #: position): the game in play is left, a new one starts from it, and the board lights
    #: where each piece goes, by colour and crown (firmware_host/game/setup.py). Refused on a
    #: board that follows another game, plays a person on another board or a round's game.
    #: ``side``: the side the player takes in the new game (none: the configured one).
    SETUP = "setup"
    #: The coach's exercises on the board, one after another (firmware_host/coach/lessons.py):
    #: ``puzzles`` (``value``: the player whose mistake book comes first and whose puzzle
    #: rating moves; none: no one's) and ``drills`` of the physical rules. Each position is set
    #: up by the lights; a press again stops them. Refused where ``setup`` is.
    PUZZLES = "puzzles"
    DRILLS = "drills"
    #: Review the last game on the board (firmware_host/coach/review.py): refused while a
    #: game is going on; ``newgame`` leaves the review.
    REVIEW = "review"


class Proposal(Enum):
    """What the partner's board proposes or agreed (the ``tag`` of a ``partner`` command)."""

    #: A draw offered after the partner's move at ply ``value``.
    DRAW_OFFER = "draw_offer"
    #: With the game at ``N`` plies, a takeback to ``M`` plies asked (``value`` ``"N:M"``).
    TAKEBACK_ASK = "takeback_ask"
    #: The takeback this board's player asked was agreed (``value`` ``"LINE:M"``).
    TAKEBACK_AGREED = "takeback_agreed"
    #: The partner's board has given no heartbeat for ``value`` minutes, its player to move.
    SILENT = "silent"
    #: ... and beats again.
    PRESENT = "present"


#: The PDN tags naming the two boards of a game between boards (each board's record has both).
BOARD_TAGS = {"white": "WhiteBoard", "black": "BlackBoard"}
#: The PDN tags naming each board's own id of such a game: each board's duel writes both in
#: its record once both boards have begun the game (``header`` commands of the board itself: the
#: command stream refuses them), so the two copies in one Redis are found as one game
#: (firmware_host/store/copies.py).
GAME_ID_TAGS = {"white": "WhiteBoardGameId", "black": "BlackBoardGameId"}
#: The record's note of a takeback both players agreed (each board's record has it, at the ply
#: taken back to: the duel counts them).
TAKEBACK_AGREED = "takeback agreed by both players"


def is_command(name: str) -> bool:
    """Whether ``name`` is a command a board carries out: a :class:`CommandName` or a phone
    setting."""
    return name in _NAMES or setting(name) is not None


_NAMES = frozenset(name.value for name in CommandName)
#: Commands only the board itself gives its session (its follower, its duel): the command
#: stream refuses them (firmware_host/remote/reader.py), so no phone ends or takes back a game
#: in the other board's name.
BOARD_ONLY = frozenset({CommandName.FOLLOWED_RESULT.value, CommandName.PARTNER.value})


@dataclass(frozen=True)
class Command:
    """A request from a button, the CLI or the web; ``side`` names who resigns or offers a
    draw in record mode.

    ``name`` is kept as given: an unknown one is refused with ``command_refused``.
    """

    name: str
    at: float
    side: str | None = None
    #: The setting's or the tag's value (settings and ``header``).
    value: str | None = None
    #: The PDN tag of a ``header`` command.
    tag: str | None = None
    #: The arbiter's decision this command carries out (its audit entry's id): the board
    #: answers it with an ``answer`` event (done, or refused and why).
    id: str | None = None
    #: What the record says of it (``followed_result``: the note the other board's record
    #: has, ``White resigned``).
    note: str | None = None
