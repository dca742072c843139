"""Benchmark: a move made on one board, lit on the other, over a long and lossy line.

Two board services (the whole service on a simulated board, on the wall clock, with the duel's
own threads) play each other through one redis-server that speaks TLS alone (a CA made here)
with an ACL user per board. Each board reaches that Redis through its own emulated line
(tests/link_proxy.py): ``--rtt`` ms round trip (default 100, half each way) and ``--loss`` of
the segments lost (default 1 %: a lost one arrives a retransmission timeout
later, 200 ms plus the round trip, as TCP resends it). A simulated hand makes a random legal
move on one board; the time from the moment that board has stored the move (its ``move``
event) to the moment the other board lights it (its ``computer_move`` event) is measured; the
other board's hand then carries it out and replies. Two set-ups: two clubs (each board's store
a Redis on its own LAN, only the duel's link on the long line) and a family (each board's
store on the shared Redis too: a move is lit only once its board has stored it as pending,
one more round trip). Printed: p50 / p90 / max over ``--moves`` moves, and the same with
perfect lines for comparison.

Run: ``.venv/bin/python bench/remote_latency.py [--moves 40] [--rtt 100] [--loss 0.01]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware_host.app.notify import Notifier
from firmware_host.app.service import Service, Wiring, build_service
from firmware_host.config import Config
from firmware_host.game.types import State
from firmware_host.store.acl import main as acl_main
from firmware_host.store.acl import read_passwords
from tests.link_proxy import LinkProxy
from tests.redis_server import RedisServer
from tests.tls_redis import make_authority, tls_server


class Board:
    """One board's service, serving on a thread of its own."""

    def __init__(self, stack: ExitStack, url: str, store: str, me: str, partner: str,
                 side: str, folder: Path, stamps: dict[tuple[str, int], float]) -> None:
        self.me = me
        self.stamps = stamps
        config = Config.from_mapping({
            "game": {"variant": "international", "human_side": side},
            "remote": {"opponent": partner, "url": url}, "board": {"id": me},
            "clock": {"time_control": "90+30"}, "log": {"level": "warning"},
            "store": {"url": store or url, "games_dir": str(folder / "games"),
                      "spool_dir": str(folder / "spool")}})
        self.service: Service = build_service(config, stack, Wiring(
            notifier=Notifier(environ={}), listeners=[self._heard]))
        assert self.service.sim is not None
        self.sim = self.service.sim
        self.stop = threading.Event()
        stack.callback(self.stop.set)
        threading.Thread(target=self.service.serve, args=(self.stop,), name=f"board-{me}",
                         daemon=True).start()

    def _heard(self, event: dict[str, Any]) -> None:
        kind = event.get("event")
        ply = len(self.service.session.board.move_stack)
        if kind == "move" and event.get("by") == "human":
            self.stamps[("stored", ply)] = time.monotonic()
        elif kind == "computer_move":
            self.stamps[("lit", ply + 1)] = time.monotonic()

    def wait(self, state: State, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while self.service.session.state is not state:
            if time.monotonic() > deadline:
                raise SystemExit(f"{self.me}: still {self.service.session.state}, not {state}")
            time.sleep(0.005)

    def hand(self, move: Any) -> None:
        """Carry out ``move`` as a quick hand does (a tenth of a second between two events),
        and let go."""
        for square in (move.origin, *move.captures):
            self.sim.lift(square)
            time.sleep(0.1)
        self.sim.place(move.destination)


def run(moves: int, rtt_ms: float, loss: float, seed: int, shared: bool) -> list[float]:
    """The latencies of ``moves`` moves; ``shared``: each board's store is the shared Redis
    too (a family's set-up), else a Redis of its club's own on its LAN (two clubs')."""
    rng = random.Random(seed)
    stamps: dict[tuple[str, int], float] = {}
    with tempfile.TemporaryDirectory() as folder, ExitStack() as stack:
        tmp = Path(folder)
        authority = make_authority(tmp / "ca")
        passwords, acl = tmp / "passwords", tmp / "users.acl"
        acl_main(["--boards", "club-a,club-b", "--passwords", str(passwords),
                  "--acl-file", str(acl), "--duels", "club-a:club-b"])
        server = tls_server(tmp / "redis", authority, "--aclfile", str(acl))
        server.start()
        stack.callback(server.stop)
        secret = read_passwords(passwords)
        boards = {}
        for me, partner, side in (("club-a", "club-b", "white"), ("club-b", "club-a", "black")):
            line = LinkProxy(server.port, delay_s=rtt_ms / 2000, loss=loss, seed=seed)
            stack.callback(line.close)
            url = (f"rediss://board-{me}:{secret[f'board-{me}']}@127.0.0.1:{line.port}/0"
                   f"?ssl_ca_certs={authority.ca}")
            store = ""
            if not shared:  # the club's own Redis on its LAN
                hall = RedisServer(tmp / f"hall-{me}")
                hall.start()
                stack.callback(hall.stop)
                store = hall.url
            boards[side] = Board(stack, url, store, me, partner, side, tmp / me, stamps)
        latencies = []
        for ply in range(1, moves + 1):
            mover = boards["white" if ply % 2 else "black"]
            other = boards["black" if ply % 2 else "white"]
            mover.wait(State.HUMAN_TO_MOVE)
            board = mover.service.session.board
            if board.is_game_over():
                break
            move = rng.choice(list(board.legal_moves))
            mover.hand(move)
            other.wait(State.COMPUTER_MOVE_PENDING)
            latencies.append(stamps[("lit", ply)] - stamps[("stored", ply)])
            pending = other.service.session.pending
            assert pending is not None
            other.hand(pending)
        return latencies


def _line(name: str, values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    p90 = ms[min(len(ms) - 1, int(len(ms) * 0.9))]
    return (f"{name}: {len(ms)} moves, stored on one board -> lit on the other: p50 "
            f"{statistics.median(ms):.0f} ms, p90 {p90:.0f} ms, max {ms[-1]:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--rtt", type=float, default=100.0, help="round trip of each line (ms)")
    parser.add_argument("--loss", type=float, default=0.01, help="segments lost (0.01: 1 %%)")
    parser.add_argument("--seed", type=int, default=44)
    args = parser.parse_args()
    line = f"lines of {args.rtt:.0f} ms RTT, {args.loss:.0%} loss"
    for shared, setup in ((False, "two clubs (each board's store on its LAN)"),
                          (True, "a family (the stores on the shared Redis too)")):
        print(_line(f"{setup}, {line}",
                    run(args.moves, args.rtt, args.loss, args.seed, shared)))
        print(_line(f"{setup}, perfect lines",
                    run(args.moves, 0.0, 0.0, args.seed, shared)))


if __name__ == "__main__":
    main()
