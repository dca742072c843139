"""A Redis primary, its replica and three ``redis-sentinel`` processes on loopback ports, started
by the tests themselves (Debian's ``redis-server`` and ``redis-sentinel``).

The sentinels watch the service ``hall`` with short timeouts (``down-after-milliseconds`` 500,
``failover-timeout`` 2000), so a failover takes a second or two.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
import time
from pathlib import Path

import redis

from tests.redis_server import RedisServer, free_port

__all__ = ["SERVICE", "SentinelCluster"]

SERVICE = "hall"


def replica(directory: Path, primary_port: int) -> RedisServer:
    """A redis-server that starts as the replica of ``primary_port``."""
    return RedisServer(directory, extra_args=("--replicaof", "127.0.0.1", str(primary_port),
                                              "--repl-diskless-sync-delay", "0"))


class Sentinel:
    """One redis-sentinel process watching ``primary_port``."""

    def __init__(self, directory: Path, primary_port: int,
                 changed: threading.Condition) -> None:
        executable = shutil.which("redis-sentinel") or shutil.which("redis-server")
        if executable is None:
            raise RuntimeError("redis-sentinel is not installed: apt-get install redis-sentinel")
        self.port = free_port()
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        self.config = directory / "sentinel.conf"
        self.config.write_text(
            f"port {self.port}\nbind 127.0.0.1\ndaemonize no\nlogfile \"\"\n"
            f"dir {directory}\n"
            f"sentinel monitor {SERVICE} 127.0.0.1 {primary_port} 2\n"
            f"sentinel down-after-milliseconds {SERVICE} 500\n"
            f"sentinel failover-timeout {SERVICE} 2000\n"
            f"sentinel parallel-syncs {SERVICE} 1\n")
        args = [executable, str(self.config)]
        if executable.endswith("redis-server"):
            args.append("--sentinel")
        #: Replicas and other sentinels this sentinel has announced (its ``+slave`` and
        #: ``+sentinel`` log lines), under :attr:`changed`.
        self.replicas: set[str] = set()
        self.peers: set[str] = set()
        self.changed = changed
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        assert self.process.stdout is not None
        with open(self.directory / "sentinel.log", "ab") as log:
            for line in self.process.stdout:
                log.write(line)
                log.flush()
                words = line.decode(errors="replace").split()
                for kind, found in (("+slave", self.replicas), ("+sentinel", self.peers)):
                    if kind in words and words.index(kind) + 2 < len(words):
                        with self.changed:
                            found.add(words[words.index(kind) + 2])
                            self.changed.notify_all()
        with self.changed:  # the process ended: a waiter stops waiting on it
            self.changed.notify_all()

    def client(self) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=2,
                           decode_responses=True)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


class SentinelCluster:
    """Primary + replica + three sentinels; :attr:`url` is the ``redis+sentinel://`` URL."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.primary = RedisServer(directory / "primary",
                                   extra_args=("--repl-diskless-sync-delay", "0"))
        self.primary.start()
        self.replica = replica(directory / "replica", self.primary.port)
        self.replica.start()
        #: Notified whenever a sentinel announces a replica or another sentinel.
        self.changed = threading.Condition()
        self.sentinels = [Sentinel(directory / f"sentinel{n}", self.primary.port, self.changed)
                          for n in range(3)]
        self.servers = {self.primary.port: self.primary, self.replica.port: self.replica}

    @property
    def url(self) -> str:
        hosts = ",".join(f"127.0.0.1:{s.port}" for s in self.sentinels)
        return f"redis+sentinel://{hosts}/{SERVICE}/0"

    def wait_ready(self, timeout: float = 30) -> None:
        """Until every sentinel knows the replica and the two other sentinels: each announces
        them in its log (``+slave``, ``+sentinel``, from their hello messages, which come every
        2 s), and the wait is on those lines; the timeout only bounds a hang."""
        def announced() -> bool:
            return all(len(s.replicas) >= 1 and len(s.peers) >= 2 for s in self.sentinels)

        with self.changed:
            settled = self.changed.wait_for(announced, timeout)
        states = [s.client().sentinel_master(SERVICE) for s in self.sentinels] if settled else []
        if not states or not all(int(st["num-slaves"]) >= 1
                                 and int(st["num-other-sentinels"]) >= 2 for st in states):
            raise AssertionError(f"the sentinels did not settle: {self.log_tail()}")

    def switch_listener(self) -> redis.client.PubSub:
        """A subscription to ``+switch-master`` on the first sentinel (made before the fault)."""
        pubsub = self.sentinels[0].client().pubsub()
        pubsub.subscribe("+switch-master")
        pubsub.get_message(timeout=2)  # the subscription's confirmation
        return pubsub

    @staticmethod
    def wait_switch(pubsub: redis.client.PubSub, timeout: float = 30) -> int:
        """The new primary's port, once the sentinels announce the failover."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = pubsub.get_message(timeout=max(0.0, deadline - time.monotonic()))
            if message and message.get("type") == "message":
                return int(str(message["data"]).split()[-1])
        raise AssertionError("no failover was announced")

    def log_tail(self) -> str:
        return "\n".join((s.directory / "sentinel.log").read_text()[-800:]
                         for s in self.sentinels if (s.directory / "sentinel.log").exists())

    def stop(self) -> None:
        for sentinel in self.sentinels:
            sentinel.stop()
        for server in self.servers.values():
            server.stop()
