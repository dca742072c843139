r"""``draughtsboard calibrate``: learn which sensor cell reads which square, guided by the LEDs.

On the Pi: ``draughtsboard calibrate --config /etc/draughtsboard/draughtsboard.toml --write``.
On the simulated board, a script of timed events plays the user's hand (virtual time):

>>> import pathlib, tempfile
>>> from firmware_host.cli import main
>>> with tempfile.TemporaryDirectory() as tmp:                 # doctest: +ELLIPSIS
...     hand = pathlib.Path(tmp) / "hand.txt"
...     _ = hand.write_text("500 place 1\n900 lift 1\n1500 place 50\n1900 lift 50\n"
...                         "2500 place 26\n2900 lift 26\n")
...     main(["calibrate", "--board", "sim", "--leds", "sim", "--script", str(hand)])
Calibrating sim sensors (10x10 cells) for international (50 squares). ...
take every piece off the board
place a piece on 1
lift the piece from 1
...
standard wiring recognised (board.transform = 'identity') after 3 squares
Put these lines in the [board] section of your configuration (or run again with --write):
[board]
transform = "identity"
cell_map = []
0
"""

from __future__ import annotations

import argparse

from firmware_host.cli.options import add_backends


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``calibrate``."""
    parser = subparsers.add_parser(
        "calibrate", help="map the sensor cells to the squares (guided by the LEDs)",
        description="Asks you to place a piece on one square after another (the square is lit "
                    "and named) and learns which sensor cell reads it. A standard wiring, "
                    "however the matrix is turned or mirrored, is recognised after three "
                    "squares; any other wiring takes every square. With --write the map is "
                    "stored in the configuration file (only board.cell_map and "
                    "board.transform change); otherwise it is printed. Ctrl-C aborts without "
                    "writing anything.")
    parser.add_argument("--config", metavar="FILE", help="TOML configuration file")
    parser.add_argument("--variant", metavar="NAME", help="rules the board is used for")
    add_backends(parser)  # --sensors (--board), --leds
    parser.add_argument("--write", action="store_true",
                        help="write the map into the --config file")
    parser.add_argument("--full", action="store_true",
                        help="ask for every square, even for a standard wiring")
    parser.add_argument("--ignore-occupied", action="store_true",
                        help="treat cells that read occupied at the start as stuck sensors")
    parser.add_argument("--script", metavar="FILE",
                        help="sim board only: play this file of timed events (virtual time)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the calibration; exit 0 once the map is printed or written."""
    from firmware_host.tools.calibrate import CalibrateOptions, calibrate

    return calibrate(CalibrateOptions(
        config_path=args.config, variant=args.variant, sensors=args.board, leds=args.leds,
        script=args.script, write=args.write, full=args.full,
        ignore_occupied=args.ignore_occupied))
