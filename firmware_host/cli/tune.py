"""``draughtsboard tune``: fit the evaluation's weights on self-play games (Texel tuning).

``tune selfplay`` plays seeded games of the built-in engine and writes their quiet positions,
labelled by result, to a gzip file (the same arguments write the same bytes); ``tune fit`` fits the
weights of one variant on such files and prints them, or writes them into ``engine/weights.py``
with ``--write``; ``tune patterns`` fits the region patterns and the linear weights together on a
teacher's labels (numpy and scipy: the ``tune`` extra) and writes both; ``tune forget`` drops a
variant's fitted weights again. docs/evaluation.md has the commands the shipped weights came from.

>>> from firmware_host.cli import main
>>> main(["tune", "selfplay", "--variant", "nowhere", "--out", "x.gz"])  # one line on stderr
2
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.variant import Variant
    from firmware_host.tools.tuning.selfplay import Sample, SelfPlay


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``tune`` with its ``selfplay`` and ``fit`` subcommands."""
    parser = subparsers.add_parser(
        "tune", help="tune the evaluation on self-play games",
        description="Logistic (Texel) tuning of the built-in engine's evaluation.")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    play = actions.add_parser("selfplay", help="write labelled positions from self-play games")
    play.add_argument("--variant", metavar="NAME", required=True,
                      help="variant name, e.g. international")
    play.add_argument("--out", metavar="FILE", required=True, type=Path,
                      help="positions file to write (.gz)")
    play.add_argument("--games", metavar="N", type=int, default=100,
                      help="games to play (default 100)")
    play.add_argument("--seed", metavar="N", type=int, default=0,
                      help="seed of the openings and the noise")
    play.add_argument("--nodes", metavar="N", type=int, default=400,
                      help="nodes a move (default 400)")
    play.add_argument("--random-plies", metavar="N", type=int, default=4,
                      help="random opening plies, plus up to as many again (default 4)")
    play.add_argument("--noise", metavar="N", type=int, default=20,
                      help="root noise, 1/100 man (default 20)")
    play.add_argument("--max-plies", metavar="N", type=int, default=200,
                      help="a longer game is a draw")
    play.set_defaults(run=run_selfplay)
    fit = actions.add_parser("fit", help="fit one variant's weights on positions files")
    fit.add_argument("--variant", metavar="NAME", required=True,
                     help="variant name, e.g. international")
    fit.add_argument("data", nargs="+", type=Path, help="positions files from tune selfplay")
    fit.add_argument("--passes", metavar="N", type=int, default=30,
                     help="coordinate-descent passes at most")
    fit.add_argument("--l2", metavar="X", type=float,
                     help="pull towards the hand-set priors (default: the best held-out loss)")
    fit.add_argument("--spread-cap", metavar="N", type=int, default=50,
                     help="most a positional term may add per standard deviation of its "
                          "feature, 1/100 man (default 50)")
    fit.add_argument("--term-cap", metavar="N", type=int, default=150,
                     help="most a positional weight may be either side of 0, 1/100 man "
                          "(default 150)")
    fit.add_argument("--holdout", metavar="FRACTION", type=float, default=0.2,
                     help="share of the positions (the last games) kept out (default 0.2)")
    fit.add_argument("--write", type=Path, metavar="WEIGHTS_PY",
                     help="write the weights into this file (engine/weights.py)")
    fit.set_defaults(run=run_fit)
    patterns = actions.add_parser(
        "patterns", help="fit region patterns and linear weights on a teacher's labels")
    patterns.add_argument("--variant", metavar="NAME", required=True,
                          help="variant name, e.g. international")
    patterns.add_argument("data", nargs="+", type=Path, help="positions files (scan_labels)")
    patterns.add_argument("--l2", metavar="X", type=float, default=0.001,
                          help="pull of the pattern weights towards 0 (default 0.001)")
    patterns.add_argument("--holdout", metavar="FRACTION", type=float, default=0.2,
                          help="share of each file (its end) kept out (default 0.2)")
    patterns.add_argument("--settle", metavar="DEPTH", type=int, default=0,
                          help="fit only positions the engine's search to DEPTH scores within "
                               "--settle-margin of its static evaluation (default 0: all)")
    patterns.add_argument("--settle-margin", metavar="HUNDREDTHS", type=int, default=50,
                          help="the most a settled position's search may differ (default 50)")
    patterns.add_argument("--write", type=Path, metavar="WEIGHTS_PY",
                          help="write the linear weights into this file (engine/weights.py)")
    patterns.add_argument("--write-patterns", type=Path, metavar="FILE",
                          help="write the patterns here (engine/data/patterns_VARIANT.txt.gz)")
    patterns.set_defaults(run=run_patterns)
    forget = actions.add_parser("forget", help="drop a variant's fitted weights (its priors play)")
    forget.add_argument("--variant", metavar="NAME", required=True,
                        help="variant name, e.g. international")
    forget.add_argument("--write", required=True, type=Path, metavar="WEIGHTS_PY",
                        help="the weights file to rewrite (engine/weights.py)")
    forget.set_defaults(run=run_forget)


def run_selfplay(args: argparse.Namespace) -> int:
    """Play the games and write the positions; bad input prints one line and returns 2."""
    from firmware_host.tools.tuning import dataset
    from firmware_host.tools.tuning.selfplay import SelfPlay, play_game

    try:
        config = SelfPlay(args.variant, games=args.games, seed=args.seed, nodes=args.nodes,
                          random_plies=args.random_plies, noise=args.noise,
                          max_plies=args.max_plies)
    except ValueError as exc:
        print(f"draughtsboard tune: {exc}", file=sys.stderr)
        return 2
    samples = []
    for game in range(config.games):
        samples += play_game(config, game)
        print(f"game {game + 1}/{config.games}: {len(samples)} positions", file=sys.stderr,
              flush=True)
    header = {
        "variant": config.variant, "games": str(config.games), "seed": str(config.seed),
        "nodes": str(config.nodes), "random_plies": str(config.random_plies),
        "noise": str(config.noise), "max_plies": str(config.max_plies),
        "positions": str(len(samples)),
        "command": "draughtsboard tune selfplay " + shlex.join(_selfplay_argv(config)),
    }
    try:
        dataset.write(args.out, header, samples)
    except OSError as exc:
        print(f"draughtsboard tune: cannot write {args.out}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    print(f"{len(samples)} positions from {config.games} games -> {args.out}")
    return 0


def _selfplay_argv(config: SelfPlay) -> list[str]:
    return ["--variant", config.variant, "--games", str(config.games), "--seed", str(config.seed),
            "--nodes", str(config.nodes), "--random-plies", str(config.random_plies),
            "--noise", str(config.noise), "--max-plies", str(config.max_plies)]


def _read(paths: list[Path], variant: str) -> list[tuple[dict[str, str], list[Sample]]]:
    """Each positions file's header and positions.

    Raises:
        ValueError: a file that cannot be read, or holds another variant's positions.
    """
    from firmware_host.tools.tuning import dataset

    files = []
    for path in paths:
        header, found = dataset.read(path)
        if header.get("variant", variant) != variant:
            raise ValueError(f"{path} holds {header['variant']} positions, not {variant}")
        files.append((header, found))
    return files


def _fit_input(args: argparse.Namespace) -> tuple[Variant, list[tuple[dict[str, str],
                                                                    list[Sample]]]]:
    """The variant and the positions files of a fit, once ``--write`` (if given) is known to be a
    weights module that may be rewritten: before the fit, not after its minutes.

    Raises:
        ValueError: a ``--write`` that is no weights module, an unknown variant, a file that
            cannot be read or holds another variant's positions.
    """
    from engine import find_variant

    problem = None if args.write is None else weights_problem(args.write)
    if problem is not None:
        raise ValueError(problem)
    variant = find_variant(args.variant)
    return variant, _read(args.data, variant.name)


def run_fit(args: argparse.Namespace) -> int:
    """Fit the weights and print them (and write them with ``--write``)."""
    from firmware_host.tools.tuning import render
    from firmware_host.tools.tuning.fit import FitError, fit

    try:
        variant, files = _fit_input(args)
        samples = [sample for _, found in files for sample in found]
        sources = [header.get("command", str(path)) for path, (header, _) in zip(
            args.data, files, strict=True)]
        result = fit(variant, samples, passes=args.passes, l2=args.l2, holdout=args.holdout,
                     spread_cap=args.spread_cap, term_cap=args.term_cap)
    except (ValueError, FitError) as exc:
        print(f"draughtsboard tune: {exc}", file=sys.stderr)
        return 2
    print(result.summary())
    if args.write is not None:
        pull = "" if args.l2 is None else f" --l2 {args.l2}"
        provenance = (f"{len(samples)} positions ({'; '.join(sources)}), {result.positions} "
                      f"fitted; draughtsboard tune fit --variant {variant.name} --passes "
                      f"{args.passes} --holdout {args.holdout} --spread-cap {args.spread_cap} "
                      f"--term-cap {args.term_cap}"
                      f"{pull}: l2={result.l2}, "
                      f"K={result.k:.5f}, held-out loss {result.holdout_before:.4f} -> "
                      f"{result.holdout_after:.4f}")
        try:
            render.update(args.write, variant.name, result.changed(), provenance)
        except OSError as exc:
            print(f"draughtsboard tune: cannot write {args.write}: {exc.strerror or exc}",
                  file=sys.stderr)
            return 2
        print(f"weights of {variant.name} -> {args.write}")
    return 0


def run_patterns(args: argparse.Namespace) -> int:
    """Fit patterns and linear weights together; print the losses, write with ``--write*``."""
    import gzip

    from firmware_host.tools.tuning import render
    from firmware_host.tools.tuning.patterns import PatternFitError, fit_patterns, settled

    try:
        variant, read = _fit_input(args)
        files = [found for _, found in read]
        sources = [path.name for path in args.data]
        if not 0.0 <= args.holdout < 1.0:
            raise ValueError(f"--holdout is a share, 0 to 1, not {args.holdout}")
        if args.settle < 0:
            raise ValueError(f"--settle is a depth, 0 or more, not {args.settle}")
        if args.settle:
            files = [settled(variant, found, args.settle, args.settle_margin) for found in files]
        result = fit_patterns(variant, files, l2=args.l2, holdout=args.holdout)
    except (ValueError, PatternFitError) as exc:
        print(f"draughtsboard tune: {exc}", file=sys.stderr)
        return 2
    print(result.summary())
    command = (f"draughtsboard tune patterns --variant {variant.name} {' '.join(sources)} "
               f"--l2 {args.l2} --holdout {args.holdout}")
    if args.settle:
        command += f" --settle {args.settle} --settle-margin {args.settle_margin}"
    provenance = (f"{result.train + result.held_out} positions ({', '.join(sources)}), fitted "
                  f"with the region patterns; {command}: held-out loss "
                  f"{result.linear_held_out_loss:.4f} (linear alone) -> {result.held_out_loss:.4f}")
    try:
        if args.write is not None:
            render.update(args.write, variant.name, result.terms, provenance)
            print(f"weights of {variant.name} -> {args.write}")
        if args.write_patterns is not None:
            header = {"variant": variant.name, "command": command,
                      "patterns": str(len(result.table.weights)),
                      "loss": f"held out {result.held_out_loss:.4f}"}
            text = result.table.to_text(header) + "\n"
            args.write_patterns.write_bytes(gzip.compress(text.encode(), mtime=0))
            print(f"patterns of {variant.name} -> {args.write_patterns}")
    except OSError as exc:
        print(f"draughtsboard tune: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0


#: The first line of a weights module as ``tune`` generates it (tools/tuning/render.py).
WEIGHTS_HEAD = '"""Evaluation weights fitted on self-play games'


def weights_problem(path: Path) -> str | None:
    """Why ``path`` is not a weights module that ``--write`` may rewrite, or None: only a
    ``.py`` file that ``tune`` generated (``engine/weights.py`` or a copy of it) is rewritten,
    or a new ``.py`` file made, so a slip of the argument cannot overwrite a README or a
    source file."""
    if path.suffix != ".py":
        return f"--write {path}: not a .py weights module (engine/weights.py)"
    try:
        with path.open(encoding="utf-8", errors="replace") as file:
            head = file.read(len(WEIGHTS_HEAD))
    except FileNotFoundError:
        return None  # a new module: nothing is overwritten
    except OSError as exc:
        return f"--write {path}: {exc.strerror or exc}"
    if head != WEIGHTS_HEAD:
        return f"--write {path}: not a weights module generated by tune (left unchanged)"
    return None


def run_forget(args: argparse.Namespace) -> int:
    """Rewrite the weights file without the variant's entry."""
    from engine import find_variant
    from firmware_host.tools.tuning import render

    problem = weights_problem(args.write)
    if problem is not None:
        print(f"draughtsboard tune: {problem}", file=sys.stderr)
        return 2
    try:
        name = find_variant(args.variant).name
        dropped = render.forget(args.write, name)
    except ValueError as exc:
        print(f"draughtsboard tune: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"draughtsboard tune: cannot write {args.write}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    print(f"{name}: {'fitted weights dropped' if dropped else 'had no fitted weights'}")
    return 0
