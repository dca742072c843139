"""A TCP proxy a test controls: the link between a board and its Redis, cut and restored at
will, or slowed as a long line would (a delay each way, some segments lost).

:meth:`LinkProxy.cut` closes every connection and refuses new ones until :meth:`restore`: what
a board sees when the line goes down (its client fails at once; the store spools, the link
tries again). With ``delay_s`` every chunk is held that long in each direction (a round trip
of twice that); with ``loss`` a chunk is lost at that rate and arrives one retransmission
timeout later, as TCP delivers what it resends (``rto_s``: Linux's least, 200 ms, plus the
round trip). Used by the remote opponent's test and ``bench/remote_latency.py``.
"""

from __future__ import annotations

import contextlib
import random
import socket
import threading
import time

from tests.redis_server import free_port

__all__ = ["LinkProxy"]


class LinkProxy:
    """127.0.0.1:``port`` -> ``target_port``, in threads of its own."""

    def __init__(self, target_port: int, *, delay_s: float = 0.0, loss: float = 0.0,
                 rto_s: float = 0.2, seed: int = 1) -> None:
        self.target_port = target_port
        self.port = free_port()
        self.delay_s = delay_s
        self.loss = loss
        self.rto_s = rto_s
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        self._open: list[socket.socket] = []
        self._down = False
        self._stop = threading.Event()
        self._listener = socket.create_server(("127.0.0.1", self.port))
        self._listener.settimeout(0.2)
        threading.Thread(target=self._accept, name="link-proxy", daemon=True).start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            if self._down:
                client.close()
                continue
            try:
                server = socket.create_connection(("127.0.0.1", self.target_port), timeout=5)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._open += [client, server]
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(source, sink), name="link-pipe",
                                 daemon=True).start()

    def _hold(self) -> float:
        with self._lock:
            lost = self.loss and self._rng.random() < self.loss
        return self.delay_s + (self.rto_s + 2 * self.delay_s if lost else 0.0)

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                hold = self._hold()
                if hold:
                    time.sleep(hold)  # (the line's delay: this thread is the line)
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                with contextlib.suppress(OSError):
                    end.close()

    def cut(self) -> None:
        """The line goes down: every connection closed, new ones refused."""
        with self._lock:
            self._down = True
            sockets, self._open = self._open, []
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def restore(self) -> None:
        """The line is back."""
        with self._lock:
            self._down = False

    def close(self) -> None:
        self._stop.set()
        self.cut()
        self._listener.close()
