"""The board's idle analysis in a process of its own, as the computer's search is.

A search in the service's process shares its interpreter lock with the scan loop: however
often the search lets go of it, the loop waits its turn. So the board's analyst
(:class:`~firmware_host.coach.analyst.IdleAnalyst`) does each job in a child, ``python -P -m
firmware_host.coach.child`` under the service's own interpreter (``-P``: the engine the
service imports, installed and compiled), started for the job and given it on stdin as one
JSON line; the child analyses the game, finds its players' missed wins
(:func:`~firmware_host.coach.analyst.examine`) and writes the result on stdout, at a lower
priority (``nice`` 10) where the system lets it (the installed unit's system-call filter does
not: there it runs as the engine's process does). The next game's first touch
kills it at once (:class:`~firmware_host.opponents.readstop.Interrupt`: the stop token
calls the kill): the child holds nothing
worth a clean exit (no Redis, no file; the analyst writes both), and the job stays pending,
taken up again from its first position when the board is idle again.

A hall's ``coach worker`` does nothing else, so it analyses in its own process.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import subprocess
import sys
from collections.abc import Callable
from typing import Final

from engine.search import StopToken
from firmware_host.coach.analyst import Examined, examine
from firmware_host.coach.jobs import Job, JobError, parse_job
from firmware_host.coach.players import Finding
from firmware_host.coach.results import StoredAnalysis
from firmware_host.errors import DraughtsboardError
from firmware_host.opponents.readstop import Interrupt

__all__ = ["COMMAND", "ChildError", "ChildRunner", "main"]

log = logging.getLogger(__name__)

#: The child's command: this interpreter, the module's main.
COMMAND: Final = (sys.executable, "-P", "-m", "firmware_host.coach.child")
#: The child's niceness where allowed: the scan loop and the engine's process come first.
NICE: Final = 10


class ChildError(DraughtsboardError, RuntimeError):
    """The analysis process failed (it exited without a result, or wrote one out of shape)."""


class ChildRunner:
    """A :data:`~firmware_host.coach.analyst.Runner` that does each job in a child process
    (``command``); ``on_start`` hears each child's pid."""

    def __init__(self, command: tuple[str, ...] = COMMAND,
                 on_start: Callable[[int], None] | None = None) -> None:
        self.command = command
        self.on_start = on_start

    def __call__(self, job: Job, depth: int, engine: str, stop: StopToken,
                 players: bool) -> Examined | None:
        """Do ``job`` in a child; None when ``stop`` was set (the child killed).

        Raises:
            JobError: the job's game cannot be replayed (the child said so).
            ChildError: the child failed.
        """
        request = json.dumps({"id": job.id, "fields": job.fields(), "depth": depth,
                              "engine": engine, "players": players})
        try:
            child = subprocess.Popen(  # an argv list, never a shell
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True)
        except OSError as exc:
            raise ChildError(f"cannot start the analysis process: {exc}") from None
        if self.on_start is not None:
            self.on_start(child.pid)
        if isinstance(stop, Interrupt):
            stop.when_stopped(child.kill)
        try:
            out, err = child.communicate(request.encode())
        except BaseException:
            child.kill()
            child.wait()
            raise
        if stop.stopped:
            return None
        if child.returncode != 0:
            tail = err.decode(errors="replace").strip().splitlines()[-1:]
            raise ChildError(f"the analysis process exited with status {child.returncode}"
                             + (f": {tail[0][:200]}" if tail else ""))
        return _result(out)


def _result(out: bytes) -> Examined:
    """The child's answer read back, checked.

    Raises:
        JobError: the child could not replay the game.
        ChildError: an answer out of shape.
    """
    try:
        data = json.loads(out)
        if isinstance(data, dict) and isinstance(data.get("error"), str):
            raise JobError(data["error"])
        if not isinstance(data, dict) or not isinstance(data.get("findings"), list):
            raise ValueError("not an answer")
        return Examined(StoredAnalysis.parse(json.dumps(data.get("analysis"))),
                        tuple(Finding.parse(f) for f in data["findings"]))
    except JobError:
        raise
    except (ValueError, UnicodeDecodeError) as exc:
        raise ChildError(f"the analysis process answered out of shape: {exc}") from None


def main() -> int:
    """The child: one job from stdin, its result on stdout (a game that cannot be replayed:
    ``{"error": ...}``); anything else is a fault, its traceback on stderr, status 1."""
    with contextlib.suppress(OSError):  # the installed unit's filter refuses setpriority
        os.nice(NICE)
    request = json.loads(sys.stdin.buffer.read())
    try:
        job = parse_job(str(request["id"]), request["fields"], 1)
        examined = examine(job, int(request["depth"]), str(request["engine"]), StopToken(),
                           bool(request["players"]))
    except JobError as exc:
        json.dump({"error": str(exc)}, sys.stdout)
        return 0
    if examined is None:  # nothing stops the child's token (the parent kills it): never
        json.dump({"error": "the analysis was stopped"}, sys.stdout)
        return 0
    json.dump({"analysis": json.loads(examined.analysis.to_json()),
               "findings": [f.to_json() for f in examined.findings]}, sys.stdout)
    return 0

if __name__ == "__main__":
    sys.exit(main())
