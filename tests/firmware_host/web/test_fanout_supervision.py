"""The feeds' reader survives any fault (issue 40): a heartbeat and an event once raised an
error no Redis error is (an OverflowError formatting a time), which ended the reader task for
good and every page's feed with it. Now a fault is logged once with its cause and the reader
goes on; a task that ends anyway is started again and counted (/health.json)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from firmware_host.web.fanout import FanOut


async def _card(board: str) -> str:
    return ""


def test_a_fault_of_the_reader_is_logged_once_and_the_reader_goes_on(
        caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> tuple[int, int, bool]:
        hub = FanOut(object(), _card, _card)  # type: ignore[arg-type]
        again = asyncio.Event()
        calls = [0]

        async def read_once() -> None:
            calls[0] += 1
            if calls[0] <= 3:
                raise OverflowError("int too large to convert to float")
            again.set()
            await asyncio.Event().wait()

        hub._read_once = read_once  # type: ignore[method-assign]
        hub._watch_alive = asyncio.Event().wait  # type: ignore[method-assign,assignment]
        hub.retry_s = 0.0  # (no wall-clock wait in the test)
        try:
            hub._start()
            await asyncio.wait_for(again.wait(), 10)  # a bound on a hang
            alive = not hub._tasks["web-feed-reader"].done()
        finally:
            await hub.close()
        return hub.faults, hub.restarts, alive

    caplog.set_level(logging.WARNING, "firmware_host.web.fanout")
    faults, restarts, alive = asyncio.run(scenario())
    assert faults == 3 and restarts == 0 and alive
    lines = [r for r in caplog.records if "OverflowError" in r.getMessage()]
    assert len(lines) == 1  # once, with its cause


def test_a_reader_task_that_ends_is_started_again_and_counted() -> None:
    async def scenario() -> tuple[int, int]:
        hub = FanOut(object(), _card, _card)  # type: ignore[arg-type]
        started = [0]
        running = asyncio.Event()

        async def read_events() -> None:
            started[0] += 1
            if started[0] == 1:
                raise RuntimeError("a fault that escaped the loop")
            running.set()
            await asyncio.Event().wait()

        hub._read_events = read_events  # type: ignore[method-assign]
        hub._watch_alive = asyncio.Event().wait  # type: ignore[method-assign,assignment]
        hub._start()
        await asyncio.wait_for(running.wait(), 10)
        await hub.close()
        return started[0], hub.restarts

    started, restarts = asyncio.run(scenario())
    assert (started, restarts) == (2, 1)
    assert FanOut(object(), _card, _card).health()["restarts"] == 0  # type: ignore[arg-type]
