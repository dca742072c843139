"""Scripted runs: a simulated board plays a script of physical events in virtual time.

``draughtsboard run --board sim --script EVENTS --mode record --variant NAME --store memory
--games-dir DIR --events json`` builds a simulated board, its scanner, a session and a store with
PDN files, plays the script (format: :mod:`board_io.sim.script`) in virtual time, prints one
JSON line per session event to stdout, writes the game's PDN into ``DIR`` and exits 0.

An accepted move prints as::

    {"event": "move", "ply": 1, "pdn": "11-15", "from": 11, "to": 15, "captures": [], ...}

with squares as the variant's PDN names (numbers on numeric variants, ``"c3"`` otherwise).
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any, TextIO

from board_io.clock import VirtualClock
from board_io.errors import BoardIOError
from board_io.scanner import Scanner
from board_io.sim import ScriptPlayer, SimulatedBoard, read_script
from engine import Board
from engine.errors import DraughtsError
from engine.search import Limit
from engine.variant import find_variant
from firmware_host.game.controller import Controller, SyncEngineWorker, run_script
from firmware_host.game.session import Session
from firmware_host.game.types import Mode, SessionConfig
from firmware_host.recognition.layout import layout_for

log = logging.getLogger(__name__)

#: Depth of the computer's search in scripted runs: fixed, so a run is reproducible.
SCRIPTED_DEPTH = 4


def _pdn_writer(games_dir: str) -> Callable[[Any], None]:
    from firmware_host.store.pdnfiles import PdnFiles
    from firmware_host.store.pdnrender import render_game

    files = PdnFiles(games_dir, render_game)

    def write(game: Any) -> None:
        files.write(game)

    return write


def json_printer(out: TextIO) -> Callable[[dict[str, Any]], None]:
    """A session listener printing one JSON line per event."""

    def emit(event: dict[str, Any]) -> None:
        out.write(json.dumps(event, separators=(",", ":"), default=str) + "\n")
        out.flush()

    return emit


def run_scripted(options: Any, out: TextIO | None = None) -> int:
    """Play ``options.script`` on a simulated board in virtual time; return the exit status.

    ``options`` has ``config`` (a :class:`firmware_host.config.loader.Config`), ``script`` (a path),
    ``events`` (``"json"`` or None) and ``fen`` (None: the variant's initial position).

    Returns 0 when the script was played to its end, 2 when the script or the FEN is bad (one
    line on stderr).
    """
    out = out if out is not None else sys.stdout
    try:
        return _run(options, out)
    except (BoardIOError, DraughtsError, OSError) as exc:
        print(f"draughtsboard run: {exc}", file=sys.stderr)
        return 2


def _run(options: Any, out: TextIO) -> int:
    config = options.config
    variant = find_variant(config["game.variant"])
    layout = layout_for(variant)
    start = Board(variant, fen=options.fen)
    events = read_script(options.script, layout, initial=start.occupied_squares())
    clock = VirtualClock()
    sim = SimulatedBoard(layout, occupied=start.occupied_squares(), clock=clock)
    scanner = Scanner(sim.sensor_matrix, sim.cell_map, debounce_ms=config["timing.debounce_ms"],
                      stuck_ms=config["timing.stuck_ms"], buttons=sim.buttons)
    session_config = SessionConfig.from_config(config)
    with ExitStack() as stack:
        from firmware_host.store import open_store

        store = stack.enter_context(open_store(
            config["store.url"], config["board.id"],
            on_change=_pdn_writer(config["store.games_dir"]),
        ))
        worker = None
        if session_config.mode is not Mode.RECORD:
            from firmware_host.opponents.opponent import BuiltinOpponent

            opponent = stack.enter_context(BuiltinOpponent(seed=config["engine.seed"]))
            depth = config["engine.depth"] or SCRIPTED_DEPTH
            worker = SyncEngineWorker(opponent, Limit(depth=depth), clock)
        session = Session(variant, store, session_config, thinker=worker, fen=options.fen,
                          wall_clock=time.time)
        if options.events == "json":
            session.subscribe(json_printer(out))
        controller = Controller(session, scanner, clock=clock, worker=worker)
        player = ScriptPlayer(sim, events, scan_hz=config["timing.scan_hz"])
        run_script(controller, player.ticks(), period=1.0 / config["timing.scan_hz"])
    return 0


def games_dir_files(games_dir: str) -> list[Path]:
    """The PDN files in ``games_dir`` (for tests and messages)."""
    return sorted(Path(games_dir).glob("*.pdn"))
