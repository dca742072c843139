"""The transport under the Hub client: the engine process and its output lines.

The program runs from an argv list (never a shell), in its own session so a Ctrl-C meant for the
service does not reach it. A named reader thread queues its stdout lines; another logs its stderr
at DEBUG; writes go under a lock; every line sent and received is logged at DEBUG.

Scan runs as ``HubProcess(["/opt/scan/scan", "hub"], cwd="/opt/scan")``; any program that
answers lines will do:

>>> import sys
>>> echo = "import sys\\nfor line in sys.stdin: print('pong', flush=True)"
>>> with HubProcess([sys.executable, "-c", echo]) as proc:
...     proc.send("ping")
...     proc.receive(timeout=30.0)
'pong'
"""

from __future__ import annotations

import contextlib
import logging
import queue
import subprocess
import threading
from collections import deque
from collections.abc import Sequence
from types import TracebackType
from typing import IO

from firmware_host.errors import UnavailableError

__all__ = ["HubEngineDied", "HubEngineError", "HubProcess", "HubTimeout"]

logger = logging.getLogger(__name__)


class HubEngineError(UnavailableError, RuntimeError):
    """The external engine misbehaved: bad answer, rejected input, illegal move, or it died."""


class HubTimeout(HubEngineError, TimeoutError):
    """The external engine did not answer within the call's timeout."""


class HubEngineDied(HubEngineError):
    """The external engine process exited or closed its output."""


_EOF = object()


class HubProcess:
    """The engine process: argv list, no shell; stdout lines queued by a named reader thread.

    >>> HubProcess(["/no/such/engine"])                      # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    firmware_host.opponents.hub.process.HubEngineError: cannot start hub engine ['/no/such/...

    Raises:
        HubEngineError: the program cannot be started (not found, not executable).
    """

    def __init__(self, argv: Sequence[str], cwd: str | None = None) -> None:
        self.argv = list(argv)
        try:
            self._popen = subprocess.Popen(  # an argv list, never a shell
                self.argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, encoding="utf-8", errors="replace",
                bufsize=1, start_new_session=True,
            )
        except OSError as exc:
            raise HubEngineError(f"cannot start hub engine {self.argv!r}: {exc}") from exc
        self.pid = self._popen.pid
        self._lines: queue.Queue[object] = queue.Queue()
        # The last stderr lines go into the "exited" error: Scan says there why it quit
        # (e.g. 'unable to open file "data/eval"' when started from the wrong directory).
        self._stderr_tail: deque[str] = deque(maxlen=3)
        self._write_lock = threading.Lock()
        self._closed = False
        self._eof = False
        self._threads = [
            threading.Thread(target=self._read_stdout, name=f"hub-reader-{self.pid}", daemon=True),
            threading.Thread(target=self._read_stderr, name=f"hub-stderr-{self.pid}", daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _read_stdout(self) -> None:
        stream = self._popen.stdout
        if stream is None:
            raise RuntimeError("the hub engine was started without a stdout pipe")
        try:
            for line in stream:
                self._lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):  # pipe closed under us by close()
            pass
        finally:
            self._lines.put(_EOF)

    def _read_stderr(self) -> None:
        stream = self._popen.stderr
        if stream is None:
            raise RuntimeError("the hub engine was started without a stderr pipe")
        try:
            for line in stream:
                text = line.rstrip("\r\n")
                logger.debug("hub %d stderr: %s", self.pid, text)
                self._stderr_tail.append(text)
        except (OSError, ValueError):
            pass

    @property
    def alive(self) -> bool:
        """True while the process runs and its output is open."""
        return not self._eof and self._popen.poll() is None

    def send(self, line: str) -> None:
        """Write one line to the engine.

        Raises:
            HubEngineDied: the engine's input is closed (it exited).
        """
        logger.debug("hub %d << %s", self.pid, line)
        stdin: IO[str] | None = self._popen.stdin
        with self._write_lock:
            try:
                if stdin is None:
                    raise ValueError("no input pipe")
                stdin.write(line + "\n")
                stdin.flush()
            except (OSError, ValueError) as exc:
                self._eof = True
                # A closed pipe means the engine is exiting: say how it ended (its exit code
                # and last words), as receive() does, rather than the bare "Broken pipe".
                if self._wait(1.0) is not None:
                    self._threads[1].join(1.0)
                    raise HubEngineDied(
                        f"hub engine {self.pid} exited{self._exit_details()}") from exc
                raise HubEngineDied(f"hub engine {self.pid} closed its input: {exc}") from exc

    def receive(self, timeout: float) -> str:
        """Return the next line from the engine, waiting at most ``timeout`` seconds.

        Raises:
            HubTimeout: no line in time.
            HubEngineDied: the engine closed its output (exited).
        """
        if self._eof:
            raise HubEngineDied(f"hub engine {self.pid} has exited{self._exit_details()}")
        try:
            item = self._lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            raise HubTimeout(f"hub engine {self.pid} sent nothing for {timeout:.2f} s") from None
        if item is _EOF or not isinstance(item, str):  # a line, or the end of the output
            self._eof = True
            self._wait(1.0)
            self._threads[1].join(1.0)  # let the stderr reader take the last lines
            raise HubEngineDied(f"hub engine {self.pid} exited{self._exit_details()}")
        logger.debug("hub %d >> %s", self.pid, item)
        return item

    def _exit_details(self) -> str:
        code = self._popen.poll()
        details = f" (exit code {code})" if code is not None else ""
        if self._stderr_tail:
            details += ": " + " / ".join(self._stderr_tail)
        return details

    def _wait(self, timeout: float) -> int | None:
        try:
            return self._popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def close(self, timeout: float = 2.0) -> None:
        """Close the engine's input, wait ``timeout`` for it to exit, then kill it. Idempotent."""
        if self._closed:
            return
        self._closed = True
        if self._popen.stdin is not None:
            with contextlib.suppress(OSError):
                self._popen.stdin.close()
        if self._wait(timeout) is None:
            logger.warning("hub engine %d did not exit; killing it", self.pid)
            self._popen.kill()
            self._wait(timeout)
        for thread in self._threads:
            thread.join(timeout)
        for stream in (self._popen.stdout, self._popen.stderr):
            if stream is not None:
                stream.close()

    def __enter__(self) -> HubProcess:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
