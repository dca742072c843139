"""Two boards play each other through a shared Redis reached over TLS (issue 44's Done-when).

A real redis-server speaks TLS alone, with a certificate authority the test makes; each board
logs in as its own ACL user (``--duels club-a:club-b``: each writes only its own keys and reads
only the moves the other writes for it). Both boards are whole services on simulated boards in
virtual time, clocks on (5+3), every move made by sloppy hands and the partner's move carried
out by sloppy hands from the LEDs. In the middle, board B's line (a TCP proxy the test
controls) is cut for 20 s while B moves; each board's service is stopped once at its worst
moment (A's between its move stored and its move written to the link; B's with A's move lit and
not yet carried out) and started again on its store. At the end: one game, every move once in
each stream, both records and PDNs equal (moves, clocks, result), and the cut charged to nobody:
a player's time runs on its own board, from the moment the partner's move is lit there.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis

from engine import Board, Move
from engine.types import Color
from firmware_host.opponents.remote.entries import SLOTS
from firmware_host.store.acl import main as acl_main
from firmware_host.store.acl import read_passwords
from firmware_host.store.keys import BoardKeys
from firmware_host.store.pdnrender import render_game
from firmware_host.store.records import GameRecord
from firmware_host.terms.commands import Command
from tests.conftest import sample_size
from tests.firmware_host.sloppy_hands import Hands, sloppy_events
from tests.firmware_host.web.harness import BoardRig
from tests.link_proxy import LinkProxy
from tests.tls_redis import make_authority, tls_server

pytestmark = [pytest.mark.redis,
              pytest.mark.logs_errors]  # (the store says so at ERROR when the line is cut)

HANDS = Hands(adjust=0.0, think_ms=(300, 2500), pause_ms=(60, 300))
#: Plies played before the side to move resigns (full: until the rules end the game).
PLIES = sample_size(ci=30, full=400)
CUT_AT, KILL_A_AT, KILL_B_AT = 12, 7, 17  # (odd plies: White's, A's)
CLOCK = "5+3"
#: The tags each board writes of its own (its id, its game id, when it began there).
OWN_TAGS = ("Board", "GameId", "Date", "Time", "Site", "Mode")


@dataclass
class Hall:
    directory: Path
    urls: dict[str, str]
    proxy: LinkProxy
    admin: redis.Redis


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[Hall]:
    authority = make_authority(tmp_path / "ca")
    passwords, acl = tmp_path / "passwords", tmp_path / "users.acl"
    assert acl_main(["--boards", "club-a,club-b", "--passwords", str(passwords),
                     "--acl-file", str(acl), "--duels", "club-a:club-b"]) == 0
    server = tls_server(tmp_path / "redis", authority, "--aclfile", str(acl))
    server.start()
    secret = read_passwords(passwords)
    proxy = LinkProxy(server.port)  # board B's line
    ca = f"ssl_ca_certs={authority.ca}"
    urls = {"club-a": f"rediss://board-club-a:{secret['board-club-a']}@127.0.0.1:"
                      f"{server.port}/0?{ca}",
            "club-b": f"rediss://board-club-b:{secret['board-club-b']}@127.0.0.1:"
                      f"{proxy.port}/0?{ca}"}
    admin = redis.Redis(port=server.port, username="default", password=secret["default"],
                        ssl=True, ssl_ca_certs=str(authority.ca))
    try:
        yield Hall(tmp_path, urls, proxy, admin)
    finally:
        admin.close()
        proxy.close()
        server.stop()


def _board(hall: Hall, me: str, partner: str, side: str,
           occupied: frozenset[int] | None = None) -> BoardRig:
    """Board ``me`` (its service started; ``occupied``: the pieces it stands with, after a
    restart)."""
    return BoardRig(hall.urls[me], me, hall.directory / me, mode="play",
                    variant="international", occupied=occupied,
                    extra={"game": {"human_side": side}, "remote": {"opponent": partner},
                           "clock": {"time_control": CLOCK}})


def _restart(hall: Hall, rig: BoardRig, partner: str, side: str) -> BoardRig:
    """The board's service stopped and started again, the pieces where they stand."""
    pieces = rig.sim.occupied
    rig.close()
    return _board(hall, rig.board_id, partner, side, occupied=pieces)


def _hand(rig: BoardRig, move: Move, rng: random.Random) -> None:
    """Sloppy hands carry out ``move`` on ``rig``'s board, then let go."""
    for event in sloppy_events(rig.session.board, move, rng, HANDS):
        rig.run(event.dt_ms / 1000)
        if event.action == "lift":
            rig.sim.lift(event.square)
        elif event.action == "place":
            rig.sim.place(event.square)
    rig.run(1.0)


def _poll(*rigs: BoardRig) -> None:
    for rig in rigs:
        assert rig.service.duel is not None
        rig.service.duel.poll()
        rig.run(0.3)


def _record(rig: BoardRig) -> GameRecord:
    return rig.service.store.load_game(rig.session.game_id)


def _pdn(game: GameRecord) -> str:
    """The game's PDN without the tags each board writes of its own."""
    return "\n".join(line for line in render_game(game).splitlines()
                     if not re.match(rf'\[({"|".join(OWN_TAGS)}) ', line))


def _left(game: GameRecord, ply: int) -> float:
    move = game.moves[ply - 1]
    left = move.clock_white if move.fen_after.startswith("B") else move.clock_black
    assert left is not None
    return left


def test_two_boards_play_one_game_over_tls_through_a_cut_and_two_restarts(hall: Hall) -> None:
    rng = random.Random(44)
    rigs = {"club-a": _board(hall, "club-a", "club-b", "white"),
            "club-b": _board(hall, "club-b", "club-a", "black")}
    reference = Board("international")
    cut_charged: dict[str, float] = {}
    try:
        _poll(*rigs.values())  # both begin game 1 of the duel
        while len(reference.move_stack) < PLIES and not reference.is_game_over():
            ply = len(reference.move_stack) + 1
            me, other = ("club-a", "club-b") if reference.turn is Color.WHITE \
                else ("club-b", "club-a")
            mover, receiver = rigs[me], rigs[other]
            move = rng.choice(list(reference.generate_moves(paths=True)))
            if ply == CUT_AT:
                assert me == "club-b"  # (B's turn: B moves while its line is down)
                hall.proxy.cut()
            _hand(mover, move, rng)  # made by hand, recognised, stored on its own board
            assert mover.session.board.move_stack[-1] == move
            if ply == KILL_A_AT and me == "club-a":
                # stopped between its move stored and the move written to the link
                mover = rigs[me] = _restart(hall, mover, other, "white")
            _poll(mover, receiver)
            if ply == CUT_AT:  # 20 s of the line down: both boards go on by themselves
                for _ in range(20):
                    _poll(mover, receiver)
                    mover.run(0.7)
                    receiver.run(0.7)
                assert receiver.session.pending is None  # nothing arrived
                assert mover.service.duel.problem is not None
                hall.proxy.restore()
                _poll(mover, receiver)
            if mover.session.outcome is not None:  # the move ended the game there (the last
                # piece taken): lit here and put in the record with the partner's end
                assert receiver.session.outcome is not None, f"ply {ply}: {other} plays on"
                reference.push(move)
                break
            assert receiver.session.pending is not None, f"ply {ply}: nothing lit on {other}"
            if ply == KILL_B_AT and other == "club-b":
                # stopped with A's move lit, not carried out
                receiver = rigs[other] = _restart(hall, receiver, me, "black")
                _poll(receiver)
            _hand(receiver, receiver.session.pending, rng)  # carried out from the LEDs
            reference.push(move)
            _poll(*rigs.values())
            if ply == CUT_AT:
                cut_charged["club-b"] = _left(_record(rigs["club-b"]), ply - 2) - \
                    _left(_record(rigs["club-b"]), ply)
            if ply == CUT_AT + 1:
                cut_charged["club-a"] = _left(_record(rigs["club-a"]), ply - 2) - \
                    _left(_record(rigs["club-a"]), ply)
        if not reference.is_game_over():  # the side to move resigns on its own board
            loser = rigs["club-a" if reference.turn is Color.WHITE else "club-b"]
            loser.service.controller.post(Command("resign", loser.clock.monotonic()))
            loser.run(0.5)
            _poll(*rigs.values())
            _poll(*rigs.values())
        games = {name: _record(rig) for name, rig in rigs.items()}
    finally:
        for rig in rigs.values():
            rig.close()
    notation = [m.pdn for m in games["club-a"].moves]
    assert notation == [m.pdn for m in games["club-b"].moves]
    assert len(notation) == len(reference.move_stack)
    assert [m.ply for m in games["club-a"].moves] == list(range(1, len(notation) + 1))
    assert games["club-a"].finished and games["club-a"].result == games["club-b"].result
    assert _pdn(games["club-a"]) == _pdn(games["club-b"])  # the moves, every clock, the result
    for name, side in (("club-a", Color.WHITE), ("club-b", Color.BLACK)):
        stream = hall.admin.xrange(BoardKeys(name).duel("club-b" if name == "club-a"
                                                        else "club-a"))
        plies = [int(entry_id.split(b"-")[1]) // SLOTS for entry_id, fields in stream
                 if fields[b"kind"] == b"move"]
        first = 1 if side is Color.WHITE else 2
        assert plies == list(range(first, len(notation) + 1, 2))  # every move once
    # The 20 s of the cut are nobody's: B's time stopped when it let go on its own board, and
    # A's ran from the moment B's move was lit on A's board (each lost a move's thinking, the
    # hands' time and the increment back, far from 20 s).
    assert 0 < cut_charged["club-b"] < 12 and 0 < cut_charged["club-a"] < 12
