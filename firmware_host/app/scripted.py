"""Scripted runs: the service on a simulated board plays a script of physical events in virtual
time.

``draughtsboard run --board sim --script EVENTS --mode record --variant NAME --store memory
--games-dir DIR --events json`` builds the service exactly as ``run`` does
(:func:`~firmware_host.app.service.build_service`, with a virtual clock and an engine that
answers at once), plays the script (format: :mod:`board_io.sim.script`), prints one JSON line per
session event to stdout (without ``--events json``: the sentence of each event a person
follows, as the log has it), writes the game's PDN into ``DIR`` and exits 0.

An accepted move prints as::

    {"event": "move", "ply": 1, "pdn": "11-15", "from": 11, "to": 15, "captures": [], ...}

with squares as the variant's PDN names (numbers on numeric variants, ``"c3"`` otherwise).
With ``--realtime`` the script plays on the wall clock instead (:mod:`firmware_host.app.realtime`);
``--occupied`` sets up the simulated board (the board as a player left it when the service died).
"""

from __future__ import annotations

import logging
import sys
from contextlib import ExitStack
from typing import TYPE_CHECKING, TextIO

from board_io.clock import VirtualClock
from board_io.errors import BoardIOError
from board_io.geometry import Layout
from board_io.schema import SCAN_HZ
from board_io.sim import ScriptPlayer, read_script
from engine import Board
from engine.errors import DraughtsError
from engine.variant import find_variant
from firmware_host.app.listeners import json_printer, text_printer
from firmware_host.app.notify import Notifier
from firmware_host.app.service import Wiring, build_service
from firmware_host.game.controller import run_script
from firmware_host.recognition.layout import layout_for
from firmware_host.terms.buttons import names as button_names
from firmware_host.terms.settings import GAME_VARIANT

if TYPE_CHECKING:
    from firmware_host.app.options import RunOptions

log = logging.getLogger(__name__)


def parse_squares(text: str, layout: Layout) -> frozenset[int]:
    """Squares named in a comma-separated list (``"c3, e3"``, ``"22,18"``; empty: none).

    >>> from firmware_host.recognition.layout import layout_for
    >>> sorted(parse_squares("32, 28", layout_for("international")))
    [27, 31]

    Raises:
        UnknownSquareError: a name is not a square of the board.
    """
    return frozenset(layout.parse(name.strip()) for name in text.split(",") if name.strip())


def run_scripted(options: RunOptions, out: TextIO | None = None) -> int:
    """Play ``options.script`` on a simulated board in virtual time; return the exit status.

    Returns 0 when the script was played to its end, 2 when the script or the FEN is bad (one
    line on stderr).
    """
    out = out if out is not None else sys.stdout
    try:
        return _run(options, out)
    except (BoardIOError, DraughtsError, OSError) as exc:
        print(f"draughtsboard run: {exc}", file=sys.stderr)
        return 2


def _run(options: RunOptions, out: TextIO) -> int:
    config = options.config
    variant = find_variant(config[GAME_VARIANT])
    layout = layout_for(variant)
    occupied = None if options.occupied is None else parse_squares(options.occupied, layout)
    start = Board(variant, fen=options.fen).occupied_squares() if occupied is None else occupied
    if options.script is None:
        raise ValueError("a scripted run needs a script")
    simulated = button_names(simulated=True)
    events = read_script(options.script, layout, initial=start, buttons=simulated)
    # Without --events json a person reads the run: one sentence an event, as the log has it.
    listeners = [json_printer(out) if options.events == "json" else text_printer(out)]
    if options.realtime:
        from firmware_host.app.realtime import run_realtime

        return run_realtime(config, events, fen=options.fen, occupied=occupied,
                            listeners=listeners, out=out)
    clock = VirtualClock()
    with ExitStack() as stack:
        service = build_service(config, stack, Wiring(
            fen=options.fen, clock=clock, notifier=Notifier(environ={}), listeners=listeners,
            virtual_time=True, occupied=occupied))
        if service.sim is None:
            raise BoardIOError("a script needs the simulated board (--board sim)")
        player = ScriptPlayer(service.sim, events, scan_hz=config[SCAN_HZ])
        run_script(service.controller, player.ticks(), period=service.scan_period)
    return 0
