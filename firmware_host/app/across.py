"""Who plays across the board: the engine, or a person on another board, as the board is paired.

The session's thinker (a :class:`~firmware_host.terms.jobs.Thinker`) is an :class:`Across`:
it hands each job to the engine, or, while the board is paired with another (``remote.opponent``
at start, or a ``pair`` command from the phone or the arbiter's console applied at a new game:
firmware_host/game/settings.py), to that board's :class:`~firmware_host.opponents.remote.duel.
RemoteOpponent`. :meth:`Across.pair` is the session's ``pair_hook``: it closes the duel in play,
if any, and opens the new one (its link, its threads on the service); the session's events go
to the duel in play (:meth:`Across.moved`, a listener).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping

from engine.types import Color
from firmware_host.game.types import SessionError
from firmware_host.opponents.remote.duel import Duel
from firmware_host.terms.jobs import EngineJob, Thinker

__all__ = ["Across", "OpenDuel"]

log = logging.getLogger(__name__)

#: Opens the duel with the board ``partner``, this board's player playing ``side``.
OpenDuel = Callable[[str, Color], Duel]


class Across:
    """The thinker of the side across the board (module docstring).

    Args:
        engine: the engine's worker (None: a board that records, without an engine).
        open_duel: opens a duel (None: no Redis both boards reach: no pairing).
        threads: start each duel's threads (the service; in virtual time a test polls).
    """

    def __init__(self, engine: Thinker | None, open_duel: OpenDuel | None, *,
                 threads: bool) -> None:
        self.engine = engine
        self.open_duel = open_duel
        self._threads = threads
        self._lock = threading.Lock()
        #: The duel in play (None: the engine plays across the board).
        self.duel: Duel | None = None

    def _current(self) -> Thinker | None:
        duel = self.duel
        return self.engine if duel is None else duel.opponent

    def submit(self, job: EngineJob) -> None:
        """Hand ``job`` to whoever plays across the board.

        Raises:
            SessionError: nobody does (a board that records, not paired).
        """
        current = self._current()
        if current is None:
            raise SessionError("no engine and no partner across the board")
        current.submit(job)

    def cancel(self) -> None:
        current = self._current()
        if current is not None:
            current.cancel()

    def pair(self, partner: str, side: Color) -> None:
        """Seat the board ``partner`` across this one, this board's player playing ``side``
        (``""``: the engine again); the duel in play, if any, is closed first."""
        with self._lock:
            old, self.duel = self.duel, None
            if old is not None:
                old.close()
            if not partner:
                log.info("pairing ended: %s plays across the board",
                         "the engine" if self.engine is not None else "nobody")
                return
            if self.open_duel is None:
                raise SessionError("no Redis both boards reach: no pairing")
            duel = self.open_duel(partner, side)
            if self._threads:
                duel.start()
            self.duel = duel
            log.info("paired with %s (this board plays %s)", partner, side.name.lower())

    def moved(self, event: Mapping[str, object]) -> None:
        """A session event, for the duel in play (a listener)."""
        duel = self.duel
        if duel is not None:
            duel.moved(event)

    def close(self) -> None:
        """Close the duel in play. Idempotent."""
        with self._lock:
            duel, self.duel = self.duel, None
        if duel is not None:
            duel.close()
