"""PDN files in the games directory, rewritten after every move by atomic replace.

A user can copy games off the Pi with no tools: each game is one file, always complete, because it
is written to a temporary file in the same directory, fsynced, renamed over the old one, and the
directory is fsynced too (so the rename itself survives a power loss).
"""

from __future__ import annotations

import logging
import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

from firmware_host.store.records import GameRecord

log = logging.getLogger(__name__)

_SAFE = re.compile(r"[^A-Za-z0-9._-]")


def atomic_write(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so a reader or a power loss sees the old or the new file.

    Raises:
        OSError: the directory is not writable.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temp, 0o644)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


class PdnFiles:
    """Writes each game to ``<games_dir>/<board>_<game id>.pdn``.

    ``render`` turns a game record into PDN text (:func:`~.pdnrender.render_game`). A file that
    cannot be written (the directory full, read-only or gone) is logged once and kept pending:
    it is written with the next write that succeeds, or by :meth:`retry`, so a game that ended
    while the disk was full still gets its complete file.
    """

    def __init__(self, games_dir: str | Path, render: Callable[[GameRecord], str]) -> None:
        self.games_dir = Path(games_dir)
        self._render = render
        self._failed = False
        self._pending: dict[Path, GameRecord] = {}

    @property
    def pending(self) -> int:
        """How many games wait for their file to be written."""
        return len(self._pending)

    def path_for(self, game: GameRecord) -> Path:
        """The file of ``game``; ids are sanitised so a record cannot name a path elsewhere."""
        name = _SAFE.sub("_", f"{game.board_id}_{game.game_id}")
        return self.games_dir / f"{name}.pdn"

    def write(self, game: GameRecord) -> Path | None:
        """Rewrite the game's file; a failure is logged once and never stops the game.

        A game without a move or a result has no file yet (a game started and left at once
        leaves nothing behind); one whose moves were all taken back keeps its file, rewritten.
        """
        path = self.path_for(game)
        if not game.moves and game.result == "*" and path not in self._pending \
                and not path.exists():
            return None
        self._pending[path] = game
        self.retry()
        return None if path in self._pending else path

    def retry(self) -> bool:
        """Write every pending file; return whether none is left."""
        for path, game in list(self._pending.items()):
            try:
                atomic_write(path, self._render(game))
            except OSError as exc:
                if not self._failed:
                    log.error("cannot write %s: %s (games stay in the store; the file is "
                              "written when the directory can take it; store.games_dir "
                              "chooses another)", path, exc.strerror or exc)
                self._failed = True
                return False
            del self._pending[path]
        if self._failed:
            log.warning("games directory %s writable again", self.games_dir)
        self._failed = False
        return True
