"""``draughtsboard coach``: analyse the hall's finished games (``worker``), or say how the
analysis keeps up (``status``).

Every board queues its finished games on the hall's Redis and analyses them while it is idle
(``coach.analyse``); ``coach worker`` lets any other machine (the web host, a spare computer)
take its share of the same jobs (firmware_host/coach/, docs/coach.md).
"""

from __future__ import annotations

import argparse
import socket
import sys

from firmware_host.config.schema import (
    COACH_DEPTH,
    COACH_MISTAKES_DIR,
    STORE_URL,
    board_id_from_hostname,
)


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``coach worker`` and ``coach status``."""
    parser = subparsers.add_parser(
        "coach", help="analyse the hall's finished games, or show the analysis queue",
        description="The analysis after the game, shared out by the hall's Redis: every "
                    "board queues its finished games; a worker takes its share "
                    "(docs/coach.md).")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    worker = actions.add_parser(
        "worker", help="analyse queued games until stopped (SIGTERM, Ctrl-C)",
        description="Take the hall's queued games one at a time, analyse each and keep the "
                    "result in Redis, where the web's replay and archive read it.")
    status = actions.add_parser(
        "status", help="how many games wait for their analysis, how many are under way",
        description="The analysis queue: games waiting, games a worker has taken, jobs "
                    "given up.")
    for sub in (worker, status):
        sub.add_argument("--config", metavar="FILE",
                         help="configuration file (for store.url, coach.depth and "
                              "coach.mistakes_dir)")
        sub.add_argument("--store", metavar="URL",
                         help="the hall's Redis, redis://[user:password@]host:port/db "
                              "(overrides the config)")
        sub.set_defaults(run=run)
    worker.add_argument("--name", metavar="NAME",
                        help="this worker's name in the group (default: worker-<host name>)")
    worker.add_argument("--depth", metavar="N", type=int,
                        help="plies each position is searched (default: coach.depth, 8)")
    worker.add_argument("--once", action="store_true",
                        help="analyse the games waiting now, then stop")


def run(args: argparse.Namespace) -> int:
    """Run the worker or print the status; a bad option or a Redis that cannot be used is
    one line on stderr and the exit code of the one table (2; 69, Redis down)."""
    from firmware_host.config.loader import Config, ConfigError
    from firmware_host.store.keys import board_id_problem

    try:
        config = Config.load(args.config) if args.config else Config.from_mapping({})
        config = config.with_overrides({STORE_URL: args.store})
        if config[STORE_URL] == "memory":
            raise ConfigError("no Redis named: --store redis://HOST:PORT/DB (the hall's), or "
                              "store.url in --config")
        if args.action == "status":
            return _status(config[STORE_URL])
        depth = config[COACH_DEPTH] if args.depth is None else args.depth
        if not 1 <= depth <= 20:
            raise ConfigError(f"--depth {depth}: 1 to 20")
        name = args.name or "worker-" + board_id_from_hostname(socket.gethostname())
        problem = board_id_problem(name)
        if problem is not None:
            raise ConfigError(f"--name: {problem}")
    except (ConfigError, ValueError) as exc:
        print(f"draughtsboard coach: {exc}", file=sys.stderr)
        return 2
    from firmware_host.app import logsetup
    from firmware_host.coach.worker import run_worker

    logsetup.configure("info")
    return run_worker(config[STORE_URL], name, depth, once=args.once,
                      books=config[COACH_MISTAKES_DIR])


def _status(url: str) -> int:
    from firmware_host.coach.jobs import AnalysisQueue
    from firmware_host.store import shown_url
    from firmware_host.store.connect import sync_client
    from firmware_host.store.keys import COACH_FAILED
    from firmware_host.store.outage.failures import FAILURES, describe_failure, exit_code_of

    client = sync_client(url, socket_timeout=5, socket_connect_timeout=2)
    try:
        waiting, taken = AnalysisQueue(client, "status").waiting()
        failed = client.xlen(COACH_FAILED)
    except FAILURES as exc:
        print(f"draughtsboard coach: Redis at {shown_url(url)}: {describe_failure(exc)}",
              file=sys.stderr)
        return exit_code_of(exc)
    finally:
        client.close()
    print(f"games waiting for their analysis: {waiting - taken}, under way: {taken}, "
          f"given up: {failed}")
    return 0
