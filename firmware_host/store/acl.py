"""Least privilege in Redis: an ACL user per board, one for the web app, and the hall's own.

Write access to the hall's Redis is control of every board: a plain ``XADD
draughtsboard:<id>:commands`` is executed by that board, and anyone who can write a game's log
rewrites the game. So on a hall's Redis (Redis 7 or later: the web app's append-only audit log
is an ACL selector) each program logs in as its own user, and each user may run only the
commands its program runs (a list, not families of commands), on only its keys:

- ``board-<id>``: reads and writes the board's own keys ``draughtsboard:<id>:*`` and publishes
  on its own channels; reads the hall's set ``draughtsboard:boards`` and the hall's pause
  ``draughtsboard:hall``; nothing else. It cannot write another board's keys or the shared
  ones (``NOPERM``), run a script, read the keyspace (``SCAN``, ``KEYS``, ``RANDOMKEY``,
  ``DBSIZE``), list channels, track keys, flush, or change the server. A board announces
  itself by its own keys: the hall's boards are the ACL's board users, which the web app reads
  (``ACL USERS``) and adds to the set;
- ``draughtsboard-web``: reads every key under ``draughtsboard:``; writes only the command
  streams ``draughtsboard:<id>:commands``, the set of boards, the hall's pause, what the
  arbiter's console imports and decides (the rounds ``draughtsboard:rounds:*`` and their
  index, the boards' pairing tags ``draughtsboard:<id>:pairing``, the arbiter's amendments of
  a game ``draughtsboard:<id>:amend:*``: never a game's log) and its own keys
  ``draughtsboard-web:*``; may only append to the arbiter's audit log
  ``draughtsboard:audit-log`` (``RPUSH``: never trim, delete or rewrite it);
- ``draughtsboard-coach``: a worker that analyses the hall's games (``draughtsboard coach
  worker``): the analysis jobs and their results only (:data:`COACH_RULES`, which every board
  has too: a board queues its games and analyses the hall's while it is idle);
- ``draughtsboard-replica`` and ``draughtsboard-sentinel``: what a replica and Redis Sentinel
  need (replication; the failover's commands);
- ``default``: the administrator (``redis-cli``), behind its own password.

:data:`POWERS` says the same as a table (docs/security.md shows it, and a test tries each line
against a real redis-server started with the file this module writes). :func:`acl_file` writes
the users for Redis's ``aclfile`` with hashed passwords only; ``systemd/install.sh`` runs this
module (``python -m firmware_host.store.acl --boards ...``) on the Redis host and keeps the
passwords, made once, in a file only root reads. Each board then has ``store.url =
"redis://board-<id>:PASSWORD@HOST:6379/0"`` (or the ``redis+sentinel://`` form); ``draughtsboard
doctor`` checks that the board cannot write another board's keys.

Example:
    >>> line = user_line("board-b1", "pw").split()
    >>> line[:3], line[3][:9]  # the password as its SHA-256 only
    (['user', 'board-b1', 'on'], '#30c952fa')
    >>> start = line.index("~draughtsboard:b1:*")
    >>> line[start:start + 4]  # doctest: +NORMALIZE_WHITESPACE
    ['~draughtsboard:b1:*', '%R~draughtsboard:boards', '%R~draughtsboard:hall',
     '&draughtsboard:b1:*']
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import secrets
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from firmware_host.store.keys import (
    ANALYSIS,
    AUDIT,
    BOARDS,
    COACH_FAILED,
    COACH_JOBS,
    HALL,
    ROOT,
    ROUND_INDEX,
    board_id_problem,
)

__all__ = ["ADMIN", "BOARD_PREFIX", "COACH", "COACH_RULES", "POWERS", "REPLICA", "SENTINEL", "WEB",
           "acl_file", "board_id_of_user", "board_user", "main", "rules", "user_line"]

WEB = "draughtsboard-web"
COACH = "draughtsboard-coach"
REPLICA = "draughtsboard-replica"
SENTINEL = "draughtsboard-sentinel"
ADMIN = "default"
BOARD_PREFIX = "board-"

#: Every command a program of the hall runs, by who runs it: the ACL lists these and nothing
#: else (no command family: a family grows with each Redis release).
_CONNECTION = ("ping", "echo", "hello", "auth", "select", "quit", "reset", "client|setname",
               "client|getname", "client|id", "client|info", "multi", "exec",
               "discard", "watch", "unwatch", "acl|whoami", "role")
#: A board: its game logs, session, events, heartbeat, lease, commands, settings, pairing
#: (store/, remote/, tournament/pairing.py), ``WAIT`` for a replica (store/outage/replicas.py).
_BOARD_COMMANDS = (*_CONNECTION, "get", "set", "del", "exists", "type", "pexpire", "pttl",
                   "xadd", "xrange", "xrevrange", "xread", "xlen", "zadd", "zrange",
                   "zrangebyscore", "zrevrange", "zcard", "hset", "hget", "hgetall", "hdel",
                   "smembers", "sismember", "scard", "publish", "wait")
#: The web app: reads (with their sizes first: web/bounded.py), the command streams, the set of
#: boards, the board users' names (the hall's boards: web/reader.py), and the console's rounds,
#: pairings and amendments (tournament/rounds.py).
_WEB_COMMANDS = (*_CONNECTION, "get", "getrange", "strlen", "mget", "exists", "type", "pttl",
                 "memory|usage", "set", "del", "xadd", "xrange", "xrevrange", "xread", "xlen",
                 "zrange", "zrangebyscore", "zrevrangebyscore", "zrevrange", "zcard", "zscore",
                 "hset", "hget", "hgetall", "hmget", "hlen", "smembers", "srandmember",
                 "sismember", "scard", "sscan", "sadd", "lrange", "llen", "acl|users")


def _allow(commands: tuple[str, ...]) -> str:
    return "-@all " + " ".join("+" + name for name in commands)


#: The analysis jobs and their results (firmware_host/coach/): two ACL selectors, each its keys
#: and the commands on them alone (a job queued, taken, taken over, done, given up; a result
#: kept). A board and the hall's coach workers have them.
COACH_RULES = (
    f"(~{COACH_JOBS} ~{COACH_FAILED} "
    + _allow(("xadd", "xgroup|create", "xreadgroup", "xautoclaim", "xpending", "xack", "xdel",
              "xlen")) + ")"
    f" (~{ANALYSIS}* -@all +set)")


#: What each user can and cannot do (docs/security.md's table; the test tries every line).
POWERS: tuple[tuple[str, str, str], ...] = (
    ("board-<id>", "read and write its own keys `draughtsboard:<id>:*`, publish on its own "
     "channels `draughtsboard:<id>:*`, read the set of boards and the hall's pause "
     "`draughtsboard:hall`, what `draughtsboard-coach` can (its games queued for analysis, the "
     "hall's analysed while it is idle)",
     "write another board's keys or a shared key (the set of boards, the hall's pause, rounds "
     "and their index, the audit log), "
     "read another board's keys, publish on another board's channel, run or flush scripts or "
     "functions (`EVAL`, `SCRIPT`, `FUNCTION`), read the keyspace (`SCAN`, `KEYS`, `RANDOMKEY`, "
     "`DBSIZE`, `PUBSUB CHANNELS`), track keys (`CLIENT TRACKING`), flush (`FLUSHALL`, "
     "`FLUSHDB`), change the server (`CONFIG`, `ACL`, `DEBUG`, `SHUTDOWN`, `MONITOR`)"),
    ("draughtsboard-web", "read every key under `draughtsboard:`, write the command streams "
     "`draughtsboard:<id>:commands`, the set of boards, the hall's pause, the rounds and their "
     "index, the "
     "boards' pairings and the arbiter's amendments of a game (`draughtsboard:<id>:amend:*`), "
     "append to the audit log (`RPUSH`), list the ACL's users, its own keys "
     "`draughtsboard-web:*`",
     "write a game log, a session, an event stream or a heartbeat, trim, delete or rewrite "
     "the audit log (`LTRIM`, `LSET`, `DEL`), publish, run scripts, read the keyspace, flush, "
     "change the server"),
    ("draughtsboard-coach", "queue, take, take over, finish and give up the analysis jobs "
     "(the stream `draughtsboard:coach:jobs` and its group, `draughtsboard:coach:failed`), "
     "write a game's analysis `draughtsboard:coach:analysis:*` (a board can do the same)",
     "read or write any other key (a game log, a session, the set of boards, another board's "
     "commands), delete the jobs stream, read an analysis, publish, run scripts, read the "
     "keyspace, flush, change the server"),
    ("draughtsboard-replica", "replicate (`PSYNC`, `REPLCONF`)", "read or write a key"),
    ("draughtsboard-sentinel", "what Sentinel needs (`INFO`, `ROLE`, `SLAVEOF`, "
     "`CONFIG REWRITE`, its hello channel)", "read or write a key"),
    ("default", "everything: the administrator, behind its own password", ""),
)


def board_user(board_id: str) -> str:
    """The ACL user of a board.

    >>> board_user("club-1")
    'board-club-1'

    Raises:
        ValueError: not a board id (:func:`~firmware_host.store.keys.board_id_problem`).
    """
    problem = board_id_problem(board_id)
    if problem is not None:
        raise ValueError(f"{problem}: not a board id")
    return BOARD_PREFIX + board_id


def board_id_of_user(user: str) -> str | None:
    """The board whose ACL user is ``user`` (None: not a board's user).

    >>> board_id_of_user("board-b7"), board_id_of_user("board-rounds"), board_id_of_user("x")
    ('b7', None, None)
    """
    if not user.startswith(BOARD_PREFIX):
        return None
    board_id = user[len(BOARD_PREFIX):]
    return board_id if board_id_problem(board_id) is None else None


def rules(user: str) -> str:
    """The ACL rules of ``user`` (after ``on`` and its password).

    >>> rules("draughtsboard-web").split()[-11:-3]  # doctest: +NORMALIZE_WHITESPACE
    ['%W~draughtsboard:*:commands', '%W~draughtsboard:boards', '%W~draughtsboard:hall',
     '%W~draughtsboard:rounds:*',
     '%W~draughtsboard:round-index', '%W~draughtsboard:*:pairing',
     '%W~draughtsboard:*:amend:*', '~draughtsboard-web:*']
    """
    if user == WEB:
        return (f"resetkeys resetchannels {_allow(_WEB_COMMANDS)} %R~{ROOT}:* "
                f"%W~{ROOT}:*:commands %W~{BOARDS} %W~{HALL} %W~{ROOT}:rounds:* %W~{ROUND_INDEX} "
                f"%W~{ROOT}:*:pairing %W~{ROOT}:*:amend:* ~{ROOT}-web:* "
                f"(~{AUDIT} -@all +rpush)")
    if user == COACH:
        return f"resetkeys resetchannels {_allow(_CONNECTION)} {COACH_RULES}"
    if user == REPLICA:
        return "resetkeys resetchannels -@all +psync +replconf +ping"
    if user == SENTINEL:
        return ("resetkeys allchannels -@all +multi +slaveof +ping +exec +subscribe "
                "+config|rewrite +role +publish +info +client|setname +client|kill "
                "+script|kill")
    if user == ADMIN:
        return "allkeys allchannels +@all"
    board_id = board_id_of_user(user)
    if board_id is not None:
        return (f"resetkeys resetchannels {_allow(_BOARD_COMMANDS)} ~{ROOT}:{board_id}:* "
                f"%R~{BOARDS} %R~{HALL} &{ROOT}:{board_id}:* {COACH_RULES}")
    raise ValueError(f"no ACL rules for the user {user!r}")


def user_line(user: str, password: str) -> str:
    """One line of an ACL file: the user, its password's SHA-256 (never the password), rules."""
    digest = hashlib.sha256(password.encode()).hexdigest()
    return f"user {user} on #{digest} {rules(user)}"


def acl_file(passwords: Mapping[str, str]) -> str:
    """The ACL file of every user in ``passwords`` (user -> password), the administrator first.

    >>> text = acl_file({"default": "a", "board-b1": "b"})
    >>> [line.split()[1] for line in text.splitlines()]
    ['default', 'board-b1']
    """
    ordered = sorted(passwords, key=lambda user: (user != ADMIN, user))
    return "".join(user_line(user, passwords[user]) + "\n" for user in ordered)


def read_passwords(path: Path) -> dict[str, str]:
    """The kept passwords (``user password`` a line); {} when the file does not exist."""
    try:
        lines = path.read_text().splitlines()
    except FileNotFoundError:
        return {}
    found: dict[str, str] = {}
    for line in lines:
        user, _, password = line.strip().partition(" ")
        if user and password and not user.startswith("#"):
            found[user] = password
    return found


def _write(path: Path, text: str, mode: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".new")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(descriptor, "w") as file:
        file.write(text)
    os.chmod(temporary, mode)
    os.replace(temporary, path)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m firmware_host.store.acl --boards b1,b2 --passwords FILE --acl-file FILE``:
    make a password for each user that has none yet (kept in ``--passwords``, mode 0600) and
    write Redis's ACL file (hashed passwords, mode 0640)."""
    parser = argparse.ArgumentParser(prog="python -m firmware_host.store.acl",
                                     description="Write the hall's Redis ACL users.")
    parser.add_argument("--boards", required=True,
                        help="the board ids, separated by commas or spaces")
    parser.add_argument("--passwords", type=Path, required=True,
                        help="file of the users' passwords (made once, kept, mode 0600)")
    parser.add_argument("--acl-file", type=Path, required=True,
                        help="Redis's aclfile to write (hashed passwords)")
    args = parser.parse_args(argv)
    boards = [b for b in re.split(r"[,\s]+", args.boards) if b]
    try:
        users = [ADMIN, WEB, COACH, REPLICA, SENTINEL, *(board_user(b) for b in boards)]
    except ValueError as exc:
        print(f"acl: --boards: {exc}", file=sys.stderr)
        return 2
    passwords = read_passwords(args.passwords)
    made = [user for user in users if user not in passwords]
    for user in made:
        passwords[user] = secrets.token_urlsafe(24)
    try:
        _write(args.passwords, "".join(f"{u} {p}\n" for u, p in passwords.items()), 0o600)
        _write(args.acl_file, acl_file({u: passwords[u] for u in users}), 0o640)
    except OSError as exc:
        print(f"acl: {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 1
    print(f"acl: {len(users)} users in {args.acl_file} ({len(made)} new); their passwords are "
          f"in {args.passwords}")
    for board in boards:
        print(f"acl: board {board}: store.url = \"redis://{board_user(board)}:PASSWORD@HOST:"
              f"6379/0\"")
    return 0


if __name__ == "__main__":
    sys.exit(main())
