"""A scripted Hub engine for the client tests: plays a fixed dialogue, records what it received.

Usage: ``python mock_hub_engine.py SCRIPT.json TRANSCRIPT``

``SCRIPT.json`` holds ``{"runs": [[step, ...], ...]}``: the n-th start of the program plays run n
(the last run again once they are used up), so a test can script a crash and the restart after it.
Steps:

- ``["expect", "line"]``: the next line received must be exactly this;
- ``["match", "regex"]``: the next line received must match this (whole line);
- ``["send", "line"]``: write a line (anything, malformed on purpose too);
- ``["stderr", "line"]``: write a line to stderr;
- ``["until", "line"]``: read and record lines until this one comes;
- ``["exit", code]``: exit at once (a crash);
- ``["hang"]``: answer nothing any more, until the input closes.

A line that does not meet an expectation is written to the transcript as ``MISMATCH`` and the
program exits with code 3. After the last step it records lines until ``quit`` or end of input.
Every received line goes to ``TRANSCRIPT`` as ``<run>< <line>``; each start adds ``<run> start``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path


def main(script_path: str, transcript_path: str) -> int:
    runs = json.loads(Path(script_path).read_text())["runs"]
    transcript = Path(transcript_path)
    previous = transcript.read_text().splitlines() if transcript.exists() else []
    run = sum(line.endswith(" start") for line in previous)
    with transcript.open("a", buffering=1) as log:
        log.write(f"{run} start\n")

        def receive() -> str | None:
            line = sys.stdin.readline()
            if not line:
                return None
            line = line.rstrip("\n")
            log.write(f"{run}< {line}\n")
            return line

        for step in runs[min(run, len(runs) - 1)]:
            kind = step[0]
            if kind in ("send", "stderr"):
                stream = sys.stdout if kind == "send" else sys.stderr
                stream.write(step[1] + "\n")
                stream.flush()
            elif kind == "exit":
                return int(step[1])
            elif kind == "hang":
                while receive() is not None:
                    pass
                return 0
            elif kind == "until":
                while (line := receive()) != step[1]:
                    if line is None:
                        return 0
            else:
                line = receive()
                ok = line is not None and (
                    line == step[1] if kind == "expect" else re.fullmatch(step[1], line))
                if not ok:
                    log.write(f"MISMATCH expected {step[1]!r}, got {line!r}\n")
                    return 3
        while (line := receive()) not in (None, "quit"):
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
