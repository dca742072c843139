"""The store's exceptions: one small tree, each message one line a user can act on.

>>> issubclass(StoreUnavailable, StoreError)
True
"""

from __future__ import annotations

from firmware_host.errors import DraughtsboardError, UnavailableError


class StoreError(DraughtsboardError):
    """The store cannot do what was asked; the message says why in one line."""


class StoreUnavailable(StoreError, UnavailableError):
    """Redis cannot be reached or refuses (down, timeout, wrong password, OOM, MISCONF,
    READONLY) and there is no spool to hold the write, or a read needs Redis itself."""
