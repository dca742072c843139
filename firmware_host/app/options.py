"""What ``draughtsboard run`` was asked for, as the service's builders read it.

Kept in ``app`` (not beside the argument parser) so that the app never imports the CLI.
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_host.config.loader import Config


@dataclass(frozen=True)
class RunOptions:
    """What ``draughtsboard run`` was asked for: the configuration with the command line's
    overrides applied, plus the options that exist only on the command line.

    ``script``: a file of timed physical events for the simulated board (virtual time, or the
    wall clock with ``realtime``); ``occupied``: the squares the simulated board starts with
    (comma-separated names; None: the start position); ``events``: ``"json"`` prints one JSON
    line per session event; ``fen``: the start position of new games; ``verbose``: debug logging.
    """

    config: Config
    config_path: str | None = None
    script: str | None = None
    events: str | None = None
    fen: str | None = None
    verbose: bool = False
    realtime: bool = False
    occupied: str | None = None
