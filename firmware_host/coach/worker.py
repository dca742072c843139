"""``draughtsboard coach worker``: an analyst of the hall's games on any machine (the web host, a
spare computer), a consumer of the jobs' group like every idle board.

It logs in to the hall's Redis (as ``draughtsboard-coach`` on a hall with ACL users), takes
jobs one at a time and analyses them until SIGTERM or SIGINT (a job under way is stopped and
stays pending: the next worker free takes it over, :data:`~firmware_host.coach.jobs.
CLAIM_AFTER_MS`); with ``once``, until no job is waiting. Redis away is said once and tried
again every :data:`RETRY_S`.
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType
from typing import Final

from engine.search import StopToken
from firmware_host.coach.analyst import Analyst, Outcome
from firmware_host.coach.jobs import AnalysisQueue
from firmware_host.store.outage.failures import (
    FAILURES,
    describe_failure,
    exit_code_of,
    failure_kind,
)

__all__ = ["BLOCK_MS", "RETRY_S", "Tally", "run_worker", "work_until"]

log = logging.getLogger(__name__)

#: How long a look at the queue waits for a new job (ms).
BLOCK_MS: Final = 5000
#: The wait after Redis failed (s).
RETRY_S: Final = 5.0


@dataclass
class Tally:
    """What a worker did."""

    done: int = 0
    failed: int = 0


def work_until(analyst: Analyst, stop: threading.Event, token: StopToken, *, once: bool = False,
               block_ms: int = BLOCK_MS, retry_s: float = RETRY_S) -> Tally:
    """Do jobs until ``stop`` is set (``token`` is set with it, to stop a search under way) or,
    with ``once``, until none is waiting."""
    tally = Tally()
    said: str | None = None
    while not stop.is_set():
        try:
            outcome = analyst.work(token, 0 if once else block_ms)
            said = None
        except FAILURES as exc:
            if failure_kind(exc) != said:
                said = failure_kind(exc)
                log.warning("coach: the hall's Redis cannot be used now: %s",
                            describe_failure(exc))
            if once:
                raise
            stop.wait(retry_s)
            continue
        if outcome is Outcome.DONE:
            tally.done += 1
        elif outcome is Outcome.FAILED:
            tally.failed += 1
        elif outcome is Outcome.NONE and once:
            break
    return tally


def run_worker(url: str, name: str, depth: int, *, once: bool = False,
               books: str | None = None, say: Callable[[str], None] = print) -> int:
    """Run a worker named ``name`` on the Redis at ``url``; return the exit status (0, or the
    one table's for a Redis that could not be used with ``once``: 69 when it is down).
    ``books``: the mistake books' folder that gets each game's players' mistakes."""
    from firmware_host.store import shown_url
    from firmware_host.store.connect import sync_client

    stop, token = threading.Event(), StopToken()

    def handler(signum: int, frame: FrameType | None) -> None:
        stop.set()
        token.stop()

    before = {number: signal.signal(number, handler)
              for number in (signal.SIGTERM, signal.SIGINT)}
    client = sync_client(url, socket_timeout=BLOCK_MS / 1000 + 2, socket_connect_timeout=2)
    try:
        analyst = Analyst(AnalysisQueue(client, name), depth, books=books)
        say(f"coach worker {name}: {shown_url(url)}, depth {depth}, {analyst.engine}")
        try:
            tally = work_until(analyst, stop, token, once=once)
        except FAILURES as exc:
            say(f"coach worker {name}: {describe_failure(exc)}")
            return exit_code_of(exc)
        say(f"coach worker {name}: {tally.done} games analysed, {tally.failed} given up")
        return 0
    finally:
        client.close()
        for number, previous in before.items():
            signal.signal(number, previous)
