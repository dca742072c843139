"""The Redis key names of one board (the table in docs/events.md).

Every key is prefixed ``draughtsboard:<board id>:`` so many boards can share one Redis:

- ``…:games`` sorted set of game ids by start time; ``draughtsboard:boards`` set of board ids;
- ``…:game:<id>`` stream: the game's log of operations (see :mod:`.records`); ``…:amend:<id>``
  stream: the arbiter's amendments of that game (``headers``, ``note``);
- ``…:session`` string: JSON of the live session, so a restart resumes;
- ``…:events`` stream (capped) and pub/sub channel of the same name: live events;
- ``…:spool`` string: how far the disk spool has been flushed (so a flush is applied once);
- ``…:lease`` string: which live service holds the board id (:mod:`.lease`);
- ``…:alive`` string with a TTL: the board's heartbeat (:mod:`.keepalive`);
- ``…:commands`` stream: the web app's commands to the board (:mod:`firmware_host.remote`);
- ``…:settings`` hash: the settings chosen at the web app (:mod:`firmware_host.remote.saved`);
- ``…:pairing`` string: the next game's tags in a round (:mod:`firmware_host.tournament`);
- ``draughtsboard:rounds:<round>`` string: a round's pairings (``…:<round>:<event key>`` for a
  round of a named event, :func:`round_key`), ``draughtsboard:round-index`` hash: every stored
  round's key and its round and event; ``draughtsboard:audit-log`` list: the arbiter's
  decisions, append-only; ``draughtsboard:hall`` string: the hall's pause
  (:mod:`firmware_host.tournament`).

Every module that names a key takes it from here, and every board id follows the rule of
:func:`board_id_problem`: a board named like a shared key (``rounds``, ``boards``, ...) would
own that key's name space, so such a name is no board id.

>>> keys = BoardKeys("board1")
>>> keys.game("20261129-183005-3fa2")
'draughtsboard:board1:game:20261129-183005-3fa2'
>>> keys.game_id_of(b"draughtsboard:board1:game:g1"), keys.game_id_of(keys.session)
('g1', None)
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass

from firmware_host.store.client import text

__all__ = ["ANALYSIS", "AUDIT", "BOARDS", "BOARD_ID", "COACH_FAILED", "COACH_JOBS", "HALL", "ROOT",
           "ROUND_INDEX", "SHARED", "BoardKeys", "analysis_key", "board_id_problem",
           "board_order", "new_game_id", "round_key"]

ROOT = "draughtsboard"
#: The set of the hall's boards: written by the web app and the administrator (a board logged
#: in as its own ACL user cannot: store/acl.py), and by a board on a Redis without ACL users.
BOARDS = f"{ROOT}:boards"
#: The arbiter's audit log (every board's decisions): a list the web app may only append to.
AUDIT = f"{ROOT}:audit-log"
#: The hall's pause (JSON: paused, since, decision, reason; absent: the clocks run): written by
#: the web app, read by every board.
HALL = f"{ROOT}:hall"
#: Finished games waiting for their analysis (:mod:`firmware_host.coach.jobs`): a stream shared
#: out by a consumer group, written and read by the boards and the hall's analysts.
COACH_JOBS = f"{ROOT}:coach:jobs"
#: The analysis jobs that could not be done, each with why.
COACH_FAILED = f"{ROOT}:coach:failed"
#: What every game's analysis key starts with (:func:`analysis_key`).
ANALYSIS = f"{ROOT}:coach:analysis:"
#: The names right under the root that are not boards (``audit``: the audit stream of earlier
#: versions): a board of one of these ids would own the keys beneath it.
SHARED = ("audit", "audit-log", "boards", "coach", "hall", "round-index", "rounds")
#: A board id: letters, digits, ``-`` and ``_``, at most 63 (no ``:`` or glob character).
BOARD_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,62}")


def board_id_problem(board_id: str) -> str | None:
    """Why ``board_id`` is no board id (None: it is one).

    >>> board_id_problem("club-1") is None, board_id_problem("rounds")
    (True, "'rounds' is the name of a shared key: a board of that id would write it")
    >>> board_id_problem("a:b")
    "'a:b' is not letters, digits, - and _ (at most 63, starting with a letter or digit)"
    """
    if not isinstance(board_id, str) or not BOARD_ID.fullmatch(board_id):
        return (f"{str(board_id)[:80]!r} is not letters, digits, - and _ (at most 63, "
                "starting with a letter or digit)")
    if board_id.lower() in SHARED:
        return f"{board_id!r} is the name of a shared key: a board of that id would write it"
    return None


def board_order(board_id: str) -> tuple[tuple[str | int, ...], str]:
    """The sort key of board ids in the order a hall numbers its boards: the numbers in an id
    compared as numbers, so a hall of 100 boards reads ``hall-2`` before ``hall-10``.

    >>> sorted(["hall-10", "spare-1", "hall-2", "hall-1", "board100", "board9"], key=board_order)
    ['board9', 'board100', 'hall-1', 'hall-2', 'hall-10', 'spare-1']
    """
    parts = _NUMBERS.split(board_id)  # text, number, text, ...: like with like, place by place
    return tuple(int(p) if i % 2 else p for i, p in enumerate(parts)), board_id


_NUMBERS = re.compile(r"([0-9]+)")

#: Every stored round: its key -> JSON ``{"round", "event"}``.
ROUND_INDEX = f"{ROOT}:round-index"


def round_key(number: str, event: str = "") -> str:
    """A round's pairings: of a named event, keyed by a digest of the name too (two groups'
    round 2 are two rounds).

    >>> round_key("3"), round_key("3", "Group A")
    ('draughtsboard:rounds:3', 'draughtsboard:rounds:3:0d2687dd82e2')
    """
    if not event:
        return f"{ROOT}:rounds:{number}"
    return f"{ROOT}:rounds:{number}:{hashlib.sha256(event.encode()).hexdigest()[:12]}"


def analysis_key(board_id: str, game_id: str) -> str:
    """The key of a game's analysis (JSON, :mod:`firmware_host.coach.results`).

    >>> analysis_key("b1", "20261129-183005-3fa2")
    'draughtsboard:coach:analysis:b1:20261129-183005-3fa2'
    """
    return f"{ANALYSIS}{board_id}:{game_id}"


def new_game_id(created: float) -> str:
    """A new game's id: it sorts by start time (UTC), then a random suffix.

    >>> new_game_id(1795977005.0)[:16]
    '20261129-183005-'
    """
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(created))
    return f"{stamp}-{secrets.token_hex(2)}"


@dataclass(frozen=True)
class BoardKeys:
    """The keys of ``board_id``."""

    board_id: str

    @property
    def prefix(self) -> str:
        """What every key of the board starts with."""
        return f"{ROOT}:{self.board_id}:"

    @property
    def games(self) -> str:
        return self.prefix + "games"

    @property
    def session(self) -> str:
        return self.prefix + "session"

    @property
    def events(self) -> str:
        return self.prefix + "events"

    @property
    def spool(self) -> str:
        return self.prefix + "spool"

    @property
    def alive(self) -> str:
        """The heartbeat (:mod:`.keepalive`): JSON ``{"time", "state", "pid"}`` with a TTL."""
        return self.prefix + "alive"

    @property
    def lease(self) -> str:
        """The board-id lease (:mod:`.lease`)."""
        return self.prefix + "lease"

    @property
    def commands(self) -> str:
        """The web app's command stream to the board (:mod:`firmware_host.remote.reader`)."""
        return self.prefix + "commands"

    @property
    def settings(self) -> str:
        """The settings saved at the web app (:mod:`firmware_host.remote.saved`)."""
        return self.prefix + "settings"

    @property
    def pairing(self) -> str:
        """The next game's tags in a round (:mod:`firmware_host.tournament.pairing`)."""
        return self.prefix + "pairing"

    @property
    def doctor_probe(self) -> str:
        """The key ``draughtsboard doctor`` writes and deletes to test access."""
        return self.prefix + "doctor-probe"

    def game(self, game_id: str) -> str:
        """The stream of the game's log."""
        return f"{self.prefix}game:{game_id}"

    def amendments(self, game_id: str) -> str:
        """The stream of the arbiter's amendments of a game (:mod:`.records`): names a
        re-import corrects, a time award's note; written by the arbiter's tools, never by the
        board, read after the game's log."""
        return f"{self.prefix}amend:{game_id}"

    def game_id_of(self, key: object) -> str | None:
        """The game id of a game log's key, or None for any other key."""
        game_prefix = self.game("")
        name = text(key)
        return name[len(game_prefix):] if name.startswith(game_prefix) else None

    def game_op(self, command: Mapping[str, object]) -> tuple[str, dict[str, str]] | None:
        """The game log's key and the operation's fields of a spooled command that appends to
        one of the board's game logs; None for any other command.

        >>> BoardKeys("b").game_op({"cmd": "xadd", "args": ["draughtsboard:b:game:g", {"n": 1}]})
        ('draughtsboard:b:game:g', {'n': '1'})
        """
        args = command.get("args") or []
        if (command.get("cmd") != "xadd" or not isinstance(args, list | tuple) or len(args) < 2
                or not isinstance(args[1], dict) or self.game_id_of(args[0]) is None):
            return None
        return text(args[0]), {str(k): str(v) for k, v in args[1].items()}
