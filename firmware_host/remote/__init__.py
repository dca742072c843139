"""The board's remote: the web app's commands, read from Redis into the session's event queue.

:func:`open_remote` is what :func:`firmware_host.app.service.build_service` calls: with a Redis
store and ``web.control`` on, it starts the :class:`~firmware_host.remote.commands.CommandReader`
of the board and gives the session the hooks that set the engine's level and keep the settings
(:mod:`~firmware_host.remote.saved`); :func:`with_saved_settings` lays the kept settings over
the configuration at start.
"""

from __future__ import annotations

from contextlib import ExitStack

from board_io.clock import Clock
from firmware_host.config import Config
from firmware_host.config.schema import BOARD_ID, STORE_URL, WEB_CONTROL
from firmware_host.game.controller import Controller
from firmware_host.game.session import Session
from firmware_host.opponents.worker import EngineWorker
from firmware_host.remote.commands import BLOCK_MS, CommandReader, commands_key
from firmware_host.remote.level import level_hook
from firmware_host.remote.saved import saver, with_saved_settings
from firmware_host.store.connect import sync_client

__all__ = ["CommandReader", "commands_key", "open_remote", "with_saved_settings"]


def open_remote(config: Config, controller: Controller[Session], stack: ExitStack, clock: Clock,
                worker: EngineWorker | None, virtual_depth: int | None
                ) -> CommandReader | None:
    """Start the board's command reader in ``stack``, or None (``memory`` store, control off).

    ``virtual_depth``: in virtual time, the engine's depth when nothing else caps it.
    """
    controller.session.settings.level_hook = level_hook(config, worker, virtual_depth)
    url = config[STORE_URL]
    if url == "memory" or not config[WEB_CONTROL]:
        return None
    client = sync_client(url, socket_timeout=BLOCK_MS / 1000 + 2, socket_connect_timeout=2)
    stack.callback(client.close)
    board_id = config[BOARD_ID]
    reader = CommandReader(client, board_id, controller.post, clock.monotonic)
    stack.callback(reader.close)
    controller.session.settings.on_applied = saver(client, board_id)
    return reader.start()
