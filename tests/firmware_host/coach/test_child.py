"""The analysis in a child process: its answer read back as the in-process one, a game it
cannot replay given up as a job, a child that fails or answers out of shape one clear error,
and a stop before or during the job kills it."""

from __future__ import annotations

import sys

import pytest

from firmware_host.coach.analyst import examine
from firmware_host.coach.child import ChildError, ChildRunner
from firmware_host.coach.jobs import Job, JobError
from firmware_host.coach.results import StoredAnalysis
from firmware_host.opponents.readstop import Interrupt

GAME = Job("1-0", "b1", "g1", "russian", None, ("c3-d4", "f6-g5", "g3-f4"),
           tags=(("White", "Ann"), ("Black", "Bob"), ("Date", "2026.12.06")))


def test_the_child_answers_as_the_analysis_in_process() -> None:
    here = examine(GAME, 3, "test", Interrupt(), True)
    there = ChildRunner()(GAME, 3, "test", Interrupt(), True)
    assert there is not None and here is not None
    assert there.analysis == StoredAnalysis.parse(here.analysis.to_json())  # (as stored)
    assert [(f.player, f.game) for f in there.findings] == [
        (f.player, f.game) for f in here.findings] and len(there.findings) == 2


def test_a_game_the_child_cannot_replay_is_the_jobs_error() -> None:
    bad = Job("1-0", "b1", "g1", "russian", None, ("c3-d4", "c3-d4"))
    with pytest.raises(JobError, match="move 2"):
        ChildRunner()(bad, 2, "test", Interrupt(), False)


@pytest.mark.parametrize(("script", "said"), [
    ("import sys; sys.stderr.write('boom\\n'); sys.exit(3)", "status 3: boom"),
    ("print('{\"analysis\": 1, \"findings\": []}')", "out of shape"),
    ("print('not json')", "out of shape"),
])
def test_a_child_that_fails_is_one_clear_error(script: str, said: str) -> None:
    runner = ChildRunner((sys.executable, "-c", f"import sys; sys.stdin.read(); {script}"))
    with pytest.raises(ChildError, match=said):
        runner(GAME, 2, "test", Interrupt(), False)


def test_a_stopped_token_kills_the_child() -> None:
    started: list[int] = []
    token = Interrupt()
    runner = ChildRunner((sys.executable, "-c", "import time; time.sleep(600)"),
                         on_start=lambda pid: (started.append(pid), token.stop()))
    assert runner(GAME, 2, "test", token, False) is None
    assert len(started) == 1
