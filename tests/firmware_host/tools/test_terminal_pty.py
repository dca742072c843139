"""``draughtsboard play`` at a terminal: driven through a pseudo-terminal, as a person types.

Issue 24: each ``lift``/``place`` froze the prompt for 30 s; a move typed while the computer's
reply was pending was carried out on the board. Every wait here is on output (the prompt, a
message); the bound on each wait is a hang guard only (the answers come in well under a second;
the freeze it guards against was 30 s).
"""

from __future__ import annotations

import fcntl
import os
import random
import re
import select
import subprocess
import sys
import termios
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from io import StringIO
from pathlib import Path

import pytest

from engine import Board
from engine.variant import VARIANTS
from firmware_host.config.loader import Config
from firmware_host.tools.terminal import PlayOptions, TerminalGame

#: Hang guard of one wait on output (s).
GUARD_S = 20.0
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


class Terminal:
    """A child process on a pseudo-terminal; what it printed, read as it comes."""

    def __init__(self, fd: int, proc: subprocess.Popen[bytes]) -> None:
        self.fd = fd
        self.proc = proc
        self.seen = ""  # everything read, colour codes removed
        self.mark = 0  # where the last expect() ended

    def send(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\r")

    def expect(self, pattern: str) -> str:
        """Read until ``pattern`` (a regex) appears after the last match; return the text
        from there up to the end of the match."""
        regex = re.compile(pattern)
        while True:
            found = regex.search(self.seen, self.mark)
            if found is not None:
                text = self.seen[self.mark:found.end()]
                self.mark = found.end()
                return text
            ready, _, _ = select.select([self.fd], [], [], GUARD_S)
            assert ready, f"no {pattern!r} within {GUARD_S} s; the screen:\n{self.seen[-2000:]}"
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:  # the child closed the terminal
                chunk = b""
            assert chunk, f"the program ended before {pattern!r}:\n{self.seen[-2000:]}"
            self.seen += _ANSI.sub("", chunk.decode("utf-8", "replace")).replace("\r\n", "\n")


def _controlling_terminal() -> None:
    """In the child, a session leader: make its stdin (the pty) its controlling terminal, so
    that Ctrl-C typed there is a SIGINT, as at a real terminal."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


@contextmanager
def terminal(*args: str, home: Path) -> Iterator[Terminal]:
    parent, child = os.openpty()
    env = {**os.environ, "XDG_DATA_HOME": str(home), "COLUMNS": "100", "LINES": "50"}
    env.pop("JOURNAL_STREAM", None)
    proc = subprocess.Popen([sys.executable, "-m", "firmware_host.cli", "play", *args],
                            stdin=child, stdout=child, stderr=child, env=env, close_fds=True,
                            start_new_session=True, preexec_fn=_controlling_terminal)
    os.close(child)
    try:
        yield Terminal(parent, proc)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=60)
        os.close(parent)


def test_play_at_a_terminal_answers_at_once_and_refuses_an_early_move(tmp_path: Path) -> None:
    with terminal("--variant", "russian", "--side", "white", "--level", "1",
                  home=tmp_path) as term:
        term.expect(r"\[your move; white to move\]\n> ")
        term.send("lift c3")
        # The prompt is back with the piece in the hand (it froze here for 30 s).
        assert "move in progress" in term.expect(r"\n> ")
        term.send("place d4")
        assert "1. c3-d4" in term.expect(r"1\. c3-d4")
        reply = re.search(r"the computer plays (\S+): carry it out",
                          term.expect(r"the computer plays \S+: carry it out"))
        assert reply is not None
        pending = reply.group(1)
        board = _board_in(term.expect(r"to move\]\n> "))
        term.send("e3-f4")
        said = term.expect(r"or type `takeback`\n")
        assert f"first carry out the computer's move {pending}, or type `takeback`" in said
        term.send("board")
        assert _board_in(term.expect(r"to move\]\n> ")) == board  # nothing moved
        term.send(pending)
        term.expect(r"1\.\.\. " + re.escape(pending))
        term.expect(r"your move; white to move\]\n> ")
        term.send("hint")
        hinted = term.expect(r"hint: \S+").rsplit("hint: ", 1)[1]
        term.expect(r"\n> ")
        term.send(hinted)
        term.expect(r"2\. " + re.escape(hinted))
        term.send("quit")
        text = term.expect(r"saved: \S+\.pdn\n")
        term.proc.wait(timeout=60)
    assert term.proc.returncode == 0
    path = Path(text.rsplit("saved: ", 1)[1].strip())
    assert path.parent == tmp_path / "draughtsboard" / "games"
    assert f"1. c3-d4 {pending}" in path.read_text(encoding="utf-8")
    assert "<6>" not in term.seen and "<4>" not in term.seen  # no syslog prefixes


def test_international_at_a_terminal_takes_the_squares_as_drawn(tmp_path: Path) -> None:
    # The default level: its hints are searched within the level's time (on its clock).
    with terminal("--variant", "international", "--side", "white", "--no-colour",
                  "--auto-execute", home=tmp_path) as term:
        term.expect(r"white to move\]\n> ")
        term.send("d4-e5")  # as drawn: 32-28
        term.expect(r"1\. 32-28")
        term.expect(r"your move; white to move\]\n> ")
        term.send("hint")
        hinted = term.expect(r"hint: \S+").rsplit("hint: ", 1)[1]
        assert "H" in term.expect(r"lights: H hint")
        term.expect(r"\n> ")
        term.send(hinted)
        term.expect(r"2\. " + re.escape(hinted))
        term.send("quit")
        term.expect(r"saved: ")
    assert "Traceback" not in term.seen and "error:" not in term.seen


def _board_in(text: str) -> str:
    """The last board drawn in ``text`` (its squares, from border to border)."""
    found = re.findall(r"\+-+\+\n(?:.*\|.*\n)+?\s*\+-+\+", text)
    assert found, text
    return str(found[-1])


def capture_position(variant: str) -> tuple[str, str]:
    """A position of ``variant`` where the side to move must capture (reached by a seeded
    random game), and that side."""
    rng = random.Random(variant)
    while True:
        board = Board(variant)
        for _ in range(60):
            moves = list(board.legal_moves)
            if not moves:
                break
            if any(m.is_capture for m in moves) and len(board.move_stack) > 4:
                return board.fen(), "white" if board.turn == 0 else "black"
            board.push(rng.choice(moves))


@pytest.mark.parametrize("variant", [v.name for v in VARIANTS])
def test_a_hint_typed_back_is_played_in_every_variant(variant: str) -> None:
    # What a hint prints can be typed back, in every variant's notation, for two turns (the
    # second after the computer's reply, carried out for the player); and a capture's hint.
    first = next(v for v in VARIANTS if v.name == variant).first_mover
    _hint_typed_back(variant, "white" if first == 0 else "black", None)
    fen, side = capture_position(variant)
    _hint_typed_back(variant, side, fen)


def _hint_typed_back(variant: str, side: str, fen: str | None) -> None:
    config = Config.from_mapping({"game": {"variant": variant, "mode": "play",
                                           "human_side": side}, "store": {"url": "memory"}})
    out = StringIO()
    with ExitStack() as stack:
        game = TerminalGame(PlayOptions(config=config, auto_execute=True, colour=False,
                                        virtual_time=True, level=1, fen=fen), stack, out)
        game.settle(script=True)
        for turn in (1, 2) if fen is None else (0,):
            mark = len(out.getvalue())
            game.command("hint")
            game.settle(script=True)
            said = out.getvalue()[mark:]
            found = re.search(r"hint: (\S+)", said)
            assert found is not None, said
            hinted = found.group(1)
            game.command(hinted)
            game.settle(script=True)
            after = out.getvalue()[mark:]
            assert re.search(rf"(^|\s)\d+\.(\.\.)? {re.escape(hinted)}\n", after), after
            if turn:
                assert re.search(rf"\b{turn}\. {re.escape(hinted)}\n", after), after
            else:
                assert game.session.board.move_stack[0].is_capture


def test_ctrl_c_leaves_as_quit_does(tmp_path: Path) -> None:
    with terminal("--variant", "russian", "--side", "white", "--no-colour",
                  home=tmp_path) as term:
        term.expect(r"white to move\]\n> ")
        os.write(term.fd, b"\x03")  # the terminal sends SIGINT
        text = term.expect(r"saved: .*\n")
        term.proc.wait(timeout=60)
    assert term.proc.returncode == 0 and "Traceback" not in term.seen
    assert '[Result "*"]' in text
