"""What else runs in a ladder game's process while the engine thinks (``--load``).

On the board the engine searches in a thread of the service's own process, beside the scan loop
(100 Hz, with debouncing), the LED frames it renders and the store. :class:`ServiceLoad` runs
that work from the service's own wiring: :func:`firmware_host.app.service.build_service` on the
simulated board with the memory store, in record mode (the engine is the ladder's), serving on a
thread of its own with a blinking frame on the LEDs, as while the board shows a capture to take
off. :class:`BusyThreads` and :class:`BusyProcesses` are harsher: CPU-burning Python threads
(they share the interpreter with the search) or processes (they share the cores).

A load spec is comma-separated: ``none``, ``service``, ``threads:N``, ``processes:N``, e.g.
``service,threads:1``. :func:`start_load` starts one; ``close()`` stops it, joins every thread
and process it started, and may be called again.

Example:
    >>> parse_load("service,threads:2")
    (('service', 1), ('threads', 2))
    >>> parse_load("none")
    ()
"""

from __future__ import annotations

import multiprocessing
import tempfile
import threading
from collections.abc import Sequence
from contextlib import ExitStack
from multiprocessing.synchronize import Event as ProcessEvent
from typing import Protocol

__all__ = ["BusyProcesses", "BusyThreads", "Load", "NoLoad", "ServiceLoad", "parse_load",
           "start_load"]

KINDS = ("service", "threads", "processes")
#: How long a load may take to start or to stop before it is a fault (seconds).
START_TIMEOUT = 30.0


class Load(Protocol):
    """Work running beside the search until :meth:`close`."""

    def close(self) -> None: ...


class NoLoad:
    """Nothing beside the search."""

    def close(self) -> None:
        pass


def parse_load(text: str) -> tuple[tuple[str, int], ...]:
    """``"service,threads:2"`` -> ``(("service", 1), ("threads", 2))``; ``"none"`` -> ``()``.

    Raises:
        ValueError: an unknown kind or a count that is not a positive integer.
    """
    items: list[tuple[str, int]] = []
    for item in (p.strip() for p in text.split(",") if p.strip()):
        if item == "none":
            continue
        kind, _, count = item.partition(":")
        if kind not in KINDS or (kind == "service" and count) or (
                kind != "service" and not (count.isdigit() and int(count) > 0)):
            raise ValueError(f"a load is none, service, threads:N or processes:N, not {item!r}")
        items.append((kind, int(count) if count else 1))
    return tuple(items)


class ServiceLoad:
    """The board service's own threads on the simulated board, until :meth:`close`.

    Raises:
        RuntimeError: the service did not come up within ``START_TIMEOUT``.
    """

    def __init__(self, variant: str) -> None:
        from firmware_host.app.notify import Notifier
        from firmware_host.app.service import Wiring, build_service
        from firmware_host.config import Config
        from firmware_host.feedback.roles import Role

        self._stack = ExitStack()
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None
        try:
            games = self._stack.enter_context(tempfile.TemporaryDirectory(prefix="ladder-load-"))
            config = Config.from_mapping({
                "board": {"sensors": "sim", "leds": "sim", "buttons": "sim"},
                "game": {"mode": "record", "variant": variant},
                "store": {"url": "memory", "games_dir": games}})
            self.service = build_service(config, self._stack, Wiring(
                notifier=Notifier({}), pdn_files=False, resume=False))
            self._thread = threading.Thread(target=self._serve, name="ladder-service",
                                            daemon=True)
            self._thread.start()
            if not self._ready.wait(START_TIMEOUT):
                raise RuntimeError("the simulated board service did not start")
            self.service.leds.show({0: Role.REMOVE.led,
                                    1: Role.MISSING.led})
        except BaseException:
            self.close()
            raise

    def _serve(self) -> None:
        self.service.serve(self._stop, on_ready=self._ready.set)

    def close(self) -> None:
        self._stop.set()
        self._ready.set()
        if self._thread is not None:
            self._thread.join(START_TIMEOUT)
            if self._thread.is_alive():
                raise RuntimeError("the simulated board service did not stop")
            self._thread = None
        self._stack.close()


def _burn(stop: threading.Event | ProcessEvent) -> None:
    """Spin in Python until ``stop`` is set (checked every few thousand steps)."""
    n = 0
    while not stop.is_set():
        for i in range(5000):
            n ^= i


class BusyThreads:
    """``count`` Python threads burning CPU in this interpreter until :meth:`close`."""

    def __init__(self, count: int) -> None:
        self._stop = threading.Event()
        self.threads = [threading.Thread(target=_burn, args=(self._stop,), name=f"busy-{i}",
                                         daemon=True) for i in range(count)]
        for thread in self.threads:
            thread.start()

    def close(self) -> None:
        self._stop.set()
        for thread in self.threads:
            thread.join()


class BusyProcesses:
    """``count`` processes burning CPU until :meth:`close`."""

    def __init__(self, count: int) -> None:
        context = multiprocessing.get_context("spawn")
        self._stop = context.Event()
        self.processes = [context.Process(target=_burn, args=(self._stop,), name=f"busy-{i}",
                                          daemon=True) for i in range(count)]
        for process in self.processes:
            process.start()

    def close(self) -> None:
        self._stop.set()
        for process in self.processes:
            process.join(START_TIMEOUT)
            if process.is_alive():
                process.kill()
                process.join()


class Loads:
    """Several loads, closed in reverse order."""

    def __init__(self, loads: Sequence[Load]) -> None:
        self.loads = list(loads)

    def close(self) -> None:
        while self.loads:
            self.loads.pop().close()


def start_load(spec: str, variant: str) -> Load:
    """Start the load ``spec`` names (see :func:`parse_load`) for a game of ``variant``.

    Raises:
        ValueError: a bad spec.
    """
    started = Loads([])
    try:
        for kind, count in parse_load(spec):
            if kind == "service":
                started.loads.append(ServiceLoad(variant))
            elif kind == "threads":
                started.loads.append(BusyThreads(count))
            else:
                started.loads.append(BusyProcesses(count))
    except BaseException:
        started.close()
        raise
    return started
