"""The hall's Redis limits: what one board's stolen login can cost the others, bounded.

Every board writes its own keys as it likes (store/acl.py confines it to them), so a board's
login can still fill Redis: a string of 512 MB, a stream of a million entries. On the hall's
Redis hosts ``systemd/redis-hall.sh`` therefore adds these lines to Redis's configuration
(:func:`conf`, ``python -m firmware_host.store.limits --maxmemory 1gb``):

- ``maxmemory`` (1 GB unless ``DRAUGHTSBOARD_REDIS_MAXMEMORY`` says otherwise) with
  ``maxmemory-policy noeviction``: Redis never uses more than that, and never evicts a key to
  make room (an evicted game log is a lost game): a write that would pass it is refused
  (``OOM``), the boards keep their moves on their own disks, in order, until Redis has room
  again (docs/events.md, *Durability*), and the web app goes on showing what Redis holds;
- ``proto-max-bulk-len 1mb``: no value or field larger than 1 MB (a board writes a few KB at
  most: a session, an event, a round's pairings), so no single string costs a reader more.

The web app bounds what it reads besides (web/bounded.py: no reply over 2 MB).

>>> print(conf("2gb"), end="")
maxmemory 2gb
maxmemory-policy noeviction
proto-max-bulk-len 1mb
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence

__all__ = ["MAXMEMORY", "conf", "main"]

#: Redis's memory for a hall unless the installer is told another.
MAXMEMORY = "1gb"
_SIZE = re.compile(r"[1-9][0-9]{0,5}(?:kb|mb|gb)", re.IGNORECASE)


def conf(maxmemory: str = MAXMEMORY) -> str:
    """The limits' lines of Redis's configuration.

    Raises:
        ValueError: ``maxmemory`` is not a size like ``512mb`` or ``2gb``.
    """
    if not _SIZE.fullmatch(maxmemory):
        raise ValueError(f"maxmemory {maxmemory!r} is not a size like 512mb or 2gb")
    return (f"maxmemory {maxmemory.lower()}\nmaxmemory-policy noeviction\n"
            "proto-max-bulk-len 1mb\n")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m firmware_host.store.limits --maxmemory 1gb``: print the lines."""
    parser = argparse.ArgumentParser(prog="python -m firmware_host.store.limits",
                                     description="Print the hall's Redis limits.")
    parser.add_argument("--maxmemory", default=MAXMEMORY,
                        help=f"Redis's memory, e.g. 512mb or 2gb (default {MAXMEMORY})")
    args = parser.parse_args(argv)
    try:
        sys.stdout.write(conf(args.maxmemory))
    except ValueError as exc:
        print(f"limits: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
