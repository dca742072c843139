"""A real ``redis-server`` (the Debian package) that tests start, stop and restart themselves."""

from __future__ import annotations

import shutil
import socket
import subprocess
import threading
from pathlib import Path


def free_port() -> int:
    """A TCP port on the loopback interface that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """One redis-server process on 127.0.0.1 with AOF and ``appendfsync always``.

    Restarting keeps the port and the data directory, as a restarted system service would.
    """

    def __init__(self, directory: Path, password: str | None = None,
                 extra_args: tuple[str, ...] = ()) -> None:
        executable = shutil.which("redis-server")
        if executable is None:
            raise RuntimeError("redis-server is not installed: apt-get install redis-server")
        self.executable = executable
        self.directory = directory
        self.port = free_port()
        self.password = password
        #: More redis-server options (``--aclfile PATH``, ``--replicaof HOST PORT``).
        self.extra_args = extra_args
        self.process: subprocess.Popen[bytes] | None = None
        #: The server's log lines so far (every start's), under :attr:`logged`.
        self.lines: list[bytes] = []
        self.logged = threading.Condition()

    @property
    def url(self) -> str:
        auth = f":{self.password}@" if self.password else ""
        return f"redis://{auth}127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start the server and wait until it says it accepts connections."""
        self.directory.mkdir(parents=True, exist_ok=True)
        args = [self.executable, "--port", str(self.port), "--bind", "127.0.0.1",
                "--dir", str(self.directory), "--appendonly", "yes",
                "--appendfsync", "always", "--save", "", "--daemonize", "no",
                "--logfile", ""]
        if self.password:
            args += ["--requirepass", self.password]
        args += self.extra_args
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        ready = threading.Event()
        threading.Thread(target=self._drain_log, args=(self.process, ready),
                         name=f"redis-log-{self.port}", daemon=True).start()
        if not ready.wait(timeout=10):
            self.stop()
            raise RuntimeError(f"redis-server did not start: {self.log_tail()}")

    def _drain_log(self, process: subprocess.Popen[bytes], ready: threading.Event) -> None:
        # Keeps the pipe drained for the server's whole life, so its log can never block it.
        assert process.stdout is not None
        with open(self.directory / "redis.log", "ab") as log:
            for line in process.stdout:
                log.write(line)
                log.flush()
                with self.logged:
                    self.lines.append(line)
                    self.logged.notify_all()
                if b"Ready to accept connections" in line:
                    ready.set()

    def log_mark(self) -> int:
        """Where the log is now (for :meth:`wait_logged`'s ``since``)."""
        with self.logged:
            return len(self.lines)

    def wait_logged(self, *texts: bytes | tuple[bytes, ...], since: int = 0,
                    timeout: float = 20) -> bool:
        """Until the server's log has had a line with each of ``texts`` (a tuple: any one of
        them), in that order, after line ``since`` (the log is the server's own account of what
        it did: a sync finished, a rewrite done); False when ``timeout`` (a bound on a hang)
        passes first."""
        def seen() -> bool:
            at = since
            for text in texts:
                alternatives = text if isinstance(text, tuple) else (text,)
                at = next((n for n in range(at, len(self.lines))
                           if any(t in self.lines[n] for t in alternatives)), -1)
                if at < 0:
                    return False
                at += 1
            return True

        with self.logged:
            return self.logged.wait_for(seen, timeout)

    def stop(self) -> None:
        """Stop the server (SIGTERM: it finishes its AOF writes)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None

    def log_tail(self) -> str:
        path = self.directory / "redis.log"
        return path.read_text()[-2000:] if path.exists() else ""
