"""A hall's Redis as the installer makes it: a real redis-server with the ACL file and the
limits that ``systemd/redis-hall.sh`` writes (store/acl.py, store/limits.py)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from firmware_host.store.acl import main, read_passwords
from firmware_host.store.limits import conf
from tests.redis_server import RedisServer

__all__ = ["AclHall", "acl_hall"]


class AclHall:
    """The running server and every user's password."""

    def __init__(self, server: RedisServer, passwords: dict[str, str]) -> None:
        self.server = server
        self.passwords = passwords

    def url(self, user: str) -> str:
        """A Redis URL that logs in as ``user``."""
        return f"redis://{user}:{self.passwords[user]}@127.0.0.1:{self.server.port}/0"


@contextmanager
def acl_hall(directory: Path, boards: Sequence[str], maxmemory: str,
             *extra: str) -> Iterator[AclHall]:
    """A hall's Redis in ``directory`` with board users for ``boards`` (``extra``: more
    redis-server options)."""
    passwords, acl = directory / "passwords", directory / "users.acl"
    assert main(["--boards", ",".join(boards), "--passwords", str(passwords),
                 "--acl-file", str(acl)]) == 0
    limits = directory / "limits.conf"
    limits.write_text(conf(maxmemory))
    server = RedisServer(directory / "redis", extra_args=("--aclfile", str(acl),
                                                          "--include", str(limits), *extra))
    server.start()
    try:
        yield AclHall(server, read_passwords(passwords))
    finally:
        server.stop()
