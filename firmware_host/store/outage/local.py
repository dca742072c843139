"""A local copy of what the store last wrote: the session and the games in play.

Kept beside the spool (``<spool_dir>/<board>.state.json``) so a service that starts while Redis
is away can resume the game it was playing: Redis stays the system of record, this file is only
read when Redis cannot answer. It is replaced atomically (temporary file, rename) after every
write that reached Redis or the spool, without an fsync of its own: the spool holds every write
made during an outage durably, and this copy is never ahead of what is durable.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

from firmware_host.store.records import GameRecord, RecordError, Session

log = logging.getLogger(__name__)

#: How many games the copy keeps (the one in play and the one before it).
KEPT_GAMES = 2


class LocalCopy:
    """The session and the latest games, as last written.

    >>> copy = LocalCopy(Path(tempfile.mkdtemp()) / "b.state.json")
    >>> copy.save_session({"game_id": "g1"})
    >>> LocalCopy(copy.path).session
    {'game_id': 'g1'}
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.session: Session | None = None
        #: Each game kept: its last sequence number and its record as JSON data.
        self._games: dict[str, tuple[int, Mapping[str, object]]] = {}
        self._failed = False
        self._load()

    def _load(self) -> None:
        try:
            data: object = json.loads(self.path.read_bytes())
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:
            log.warning("local copy %s unreadable (%s): ignored", self.path, exc)
            return
        if not isinstance(data, dict):
            return
        session = data.get("session")
        self.session = session if isinstance(session, dict) else None
        games = data.get("games")
        for game_id, saved in (games.items() if isinstance(games, dict) else ()):
            if isinstance(saved, dict) and isinstance(saved.get("game"), dict):
                self._games[str(game_id)] = (int(saved.get("seq", 0)), saved["game"])

    def game(self, game_id: str) -> tuple[int, GameRecord] | None:
        """The last sequence number and the record of ``game_id``, if kept."""
        saved = self._games.get(game_id)
        if saved is None:
            return None
        try:
            return saved[0], GameRecord.from_json(saved[1])
        except RecordError as exc:
            log.warning("local copy of game %s unreadable (%s)", game_id, exc)
            return None

    def save_session(self, state: Session) -> None:
        """Keep ``state`` as the session (written at once)."""
        self.session = state
        self._write()

    def save(self, games: dict[str, tuple[int, GameRecord]],
             session: Session | None = None) -> None:
        """Keep these games (and the session, if given) and write the file."""
        if session is not None:
            self.session = session
        for game_id, (seq, game) in games.items():
            self._games.pop(game_id, None)
            self._games[game_id] = (seq, game.to_json())
        while len(self._games) > KEPT_GAMES:
            del self._games[next(iter(self._games))]
        self._write()

    def _write(self) -> None:
        data = {"session": self.session,
                "games": {g: {"seq": seq, "game": game} for g, (seq, game) in self._games.items()}}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(prefix=f".{self.path.name}.", dir=self.path.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as file:
                    json.dump(data, file, separators=(",", ":"))
                os.replace(temp, self.path)
            except BaseException:
                Path(temp).unlink(missing_ok=True)
                raise
        except OSError as exc:
            if not self._failed:
                log.error("local copy %s unwritable (%s): a start without Redis cannot resume",
                          self.path, exc.strerror or exc)
            self._failed = True
            return
        self._failed = False
