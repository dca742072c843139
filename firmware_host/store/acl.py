"""Least privilege in Redis: an ACL user per board, one for the web app, and the hall's own.

Write access to the hall's Redis is control of every board: a plain ``XADD
draughtsboard:<id>:commands`` is executed by that board, and anyone who can write a game's log
rewrites the game. So on a hall's Redis (Redis 6 or later) each program logs in as its own user:

- ``board-<id>``: reads and writes the board's own keys ``draughtsboard:<id>:*`` and its own
  event channel, adds itself to the shared set ``draughtsboard:boards``; nothing else (another
  board's game or command stream is refused with ``NOPERM``);
- ``draughtsboard-web``: reads every key (and subscribes to every channel) under
  ``draughtsboard:``, writes only the command streams ``draughtsboard:<id>:commands``, the
  arbiter's audit stream ``draughtsboard:audit``, what the arbiter's console imports and
  decides (the rounds ``draughtsboard:rounds:*`` and their index, the boards' pairing tags
  ``draughtsboard:<id>:pairing``, the arbiter's amendments of a game
  ``draughtsboard:<id>:amend:*``: never a game's log) and its own keys ``draughtsboard-web:*``;
- ``draughtsboard-replica`` and ``draughtsboard-sentinel``: what a replica and Redis Sentinel
  need (replication; the failover's commands);
- ``default``: the administrator (``redis-cli``), behind its own password.

:func:`acl_file` writes the users for Redis's ``aclfile`` with hashed passwords only;
``systemd/install.sh`` runs this module (``python -m firmware_host.store.acl --boards ...``) on
the Redis host and keeps the passwords, made once, in a file only root reads. Each board then
has ``store.url = "redis://board-<id>:PASSWORD@HOST:6379/0"`` (or the ``redis+sentinel://``
form); ``draughtsboard doctor`` checks that the board cannot write another board's keys.

Example:
    >>> line = user_line("board-b1", "pw").split()
    >>> line[:3], line[3][:9]  # the password as its SHA-256 only
    (['user', 'board-b1', 'on'], '#30c952fa')
    >>> line[-3:]
    ['~draughtsboard:b1:*', '%RW~draughtsboard:boards', '&draughtsboard:b1:*']
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

from firmware_host.store.keys import BOARDS, ROOT

__all__ = ["ADMIN", "REPLICA", "SENTINEL", "WEB", "acl_file", "board_user", "main", "rules",
           "user_line"]

WEB = "draughtsboard-web"
REPLICA = "draughtsboard-replica"
SENTINEL = "draughtsboard-sentinel"
ADMIN = "default"
_BOARD_PREFIX = "board-"
_BOARD_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,62}")  # the config's rule: no glob chars

#: The command families a program of the hall may use at all; the key and channel patterns
#: then say on which keys. Never FLUSHALL, KEYS, CONFIG, DEBUG, ACL...: ``-@dangerous``.
_COMMANDS = ("-@all +@read +@write +@stream +@hash +@string +@set +@sortedset +@keyspace "
             "+@transaction +@connection +@scripting +@pubsub -@dangerous +ping +acl|whoami "
             "+role")  # ROLE: whether a primary has replicas to confirm a move (store/replicas)


def board_user(board_id: str) -> str:
    """The ACL user of a board.

    >>> board_user("club-1")
    'board-club-1'

    Raises:
        ValueError: not a board id (the configuration's rule).
    """
    if not _BOARD_ID.fullmatch(board_id):
        raise ValueError(f"{board_id!r} is not a board id (letters, digits, _ and -)")
    return _BOARD_PREFIX + board_id


def rules(user: str) -> str:
    """The ACL rules of ``user`` (after ``on`` and its password).

    >>> rules("draughtsboard-web").split()[-8:-1]  # doctest: +NORMALIZE_WHITESPACE
    ['%W~draughtsboard:*:commands', '%W~draughtsboard:audit', '%W~draughtsboard:rounds:*',
     '%W~draughtsboard:round-index', '%W~draughtsboard:*:pairing',
     '%W~draughtsboard:*:amend:*', '~draughtsboard-web:*']
    """
    if user == WEB:
        return (f"resetkeys resetchannels {_COMMANDS} -publish %R~{ROOT}:* "
                f"%W~{ROOT}:*:commands %W~{ROOT}:audit %W~{ROOT}:rounds:* "
                f"%W~{ROOT}:round-index %W~{ROOT}:*:pairing %W~{ROOT}:*:amend:* "
                f"~{ROOT}-web:* &{ROOT}:*")
    if user == REPLICA:
        return "resetkeys resetchannels -@all +psync +replconf +ping"
    if user == SENTINEL:
        return ("resetkeys allchannels -@all +multi +slaveof +ping +exec +subscribe "
                "+config|rewrite +role +publish +info +client|setname +client|kill "
                "+script|kill")
    if user == ADMIN:
        return "allkeys allchannels +@all"
    if user.startswith(_BOARD_PREFIX):
        board_id = user[len(_BOARD_PREFIX):]
        board_user(board_id)  # checks the id
        return (f"resetkeys resetchannels {_COMMANDS} ~{ROOT}:{board_id}:* "
                f"%RW~{BOARDS} &{ROOT}:{board_id}:*")
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
        users = [ADMIN, WEB, REPLICA, SENTINEL, *(board_user(b) for b in boards)]
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
