"""The README's quick start, as a user who is not root would run it, on a fresh clone.

CI runs as root, where every path can be written: this test clones the checkout into a folder
of ``nobody``'s, gives ``nobody`` a home and a temporary directory of its own, and runs the
quick-start line and ``demo --hall 3`` as ``nobody`` (``setpriv``). It checks what a new user
sees (the demo's PDN file, three boards with moves on the hall page, Ctrl-C ending the hall)
and what such a user must never meet: a file written outside their home, their clone and their
temporary directory, or anything left behind (a file in the temporary directory, a process).

The quick start's ``pip install`` is the slow part (the engine compiled with mypyc: about 45 s
on a cold cache, 11 s for the pure editable install it replaced: docs/benchmarks.md). pip's
cache is ``nobody``'s own, in the temporary home, as a new user's would be. The compiled
modules are shared with the rest of CI through ``DRAUGHTSBOARD_BUILD_CACHE`` (``.ci/test``
sets it; ``.ci/compiled`` builds the same engine): copied into ``nobody``'s own build cache
before the install and back after it, so the engine is compiled once a CI run.
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import signal
import subprocess
import tempfile
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.pdn import read_games
from tests.firmware_host.web.sse import SseClient
from tests.redis_server import free_port
from tests.test_readme_commands import HALL, QUICK_START, README, readme_commands

ROOT = Path(__file__).resolve().parents[1]
USER = "nobody"
#: A hang guard for the install and the commands (never reached when they work).
GUARD_S = 600


def _runnable() -> str | None:
    """Why this test cannot run here, or None."""
    if os.geteuid() != 0:
        return "needs root to become another user (CI runs as root)"
    if shutil.which("setpriv") is None:
        return "needs setpriv (util-linux)"
    if not (ROOT / ".git").exists():
        return "needs a git checkout to clone"
    return None


pytestmark = [pytest.mark.redis, pytest.mark.timeout(GUARD_S),
              pytest.mark.skipif(_runnable() is not None, reason=str(_runnable()))]


class Nobody:
    """A new user's world: a folder of ``nobody``'s holding a home, a temporary directory and a
    fresh clone of this checkout."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.home = base / "home"
        self.tmp = base / "tmp"
        self.clone = base / "draughtsboard"
        #: nobody's own copy of CI's build cache of the compiled engine.
        self.build_cache = base / "build-cache"
        entry = pwd.getpwnam(USER)
        self.uid, self.gid = entry.pw_uid, entry.pw_gid

    def env(self) -> dict[str, str]:
        """The environment of a login: no root's variables, the user's own home and temp."""
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(self.home),
               "TMPDIR": str(self.tmp), "LANG": "C.UTF-8", "USER": USER, "LOGNAME": USER}
        for name in ("PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_CERT",
                     "PIP_DEFAULT_TIMEOUT", "PIP_DISABLE_PIP_VERSION_CHECK",
                     "PIP_CONSTRAINT", "http_proxy",
                     "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "no_proxy", "NO_PROXY"):
            if name in os.environ:  # how this machine reaches the package index
                env[name] = os.environ[name]
        env["DRAUGHTSBOARD_BUILD_CACHE"] = str(self.build_cache)
        return env

    def argv(self, command: str) -> list[str]:
        """``command`` run by ``nobody``'s shell (setpriv execs it: signals reach it)."""
        return ["setpriv", f"--reuid={self.uid}", f"--regid={self.gid}", "--clear-groups",
                "--", "/bin/sh", "-c", command]


@pytest.fixture(scope="module")
def nobody() -> Iterator[Nobody]:
    base = Path(tempfile.mkdtemp(prefix="draughtsboard-user-"))
    world = Nobody(base)
    try:
        for folder in (world.home, world.tmp):
            folder.mkdir()
        shared = os.environ.get("DRAUGHTSBOARD_BUILD_CACHE")
        if shared and Path(shared).is_dir():
            shutil.copytree(shared, world.build_cache)
        subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(world.clone)],
                       check=True, timeout=120)
        for path in (base, *base.rglob("*")):
            os.lchown(path, world.uid, world.gid)
        yield world
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _owned_by_nobody(outside: Path) -> set[str]:
    """Every file of ``nobody``'s on this machine's disks outside ``outside``."""
    found = subprocess.run(["find", "/", "/dev/shm", "-xdev", "-user", USER],
                           capture_output=True, text=True, timeout=300, check=False).stdout
    return {line for line in found.splitlines()
            if line and not Path(line).is_relative_to(outside)}


def _processes_of_nobody() -> list[str]:
    done = subprocess.run(["ps", "-u", USER, "-o", "pid=,args="], capture_output=True,
                          text=True, check=False)
    return [line.strip() for line in done.stdout.splitlines() if line.strip()]


def _read_until(process: subprocess.Popen[str], pattern: str) -> re.Match[str]:
    assert process.stdout is not None
    seen = []
    for line in process.stdout:
        seen.append(line)
        if match := re.search(pattern, line):
            return match
    raise AssertionError(f"no line matched {pattern}:\n{''.join(seen)}")


def test_the_readme_runs_as_a_user_who_is_not_root(nobody: Nobody) -> None:
    commands = readme_commands(README.read_text(encoding="utf-8"))
    assert QUICK_START in commands and HALL in commands
    before = _owned_by_nobody(nobody.base)
    running = set(_processes_of_nobody())  # another program's, left alone

    # The quick start, its line as the README gives it.
    done = subprocess.run(nobody.argv(f"cd {nobody.clone} && {QUICK_START}"),
                          capture_output=True, text=True, env=nobody.env(), timeout=GUARD_S,
                          check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    shared = os.environ.get("DRAUGHTSBOARD_BUILD_CACHE")
    if shared and nobody.build_cache.is_dir():  # the compiled engine, for .ci/compiled
        shutil.copytree(nobody.build_cache, shared, dirs_exist_ok=True)
    assert done.stdout.startswith("the engine: compiled"), done.stdout[:300]
    named = re.findall(r"PDN written to (/\S+\.pdn)$", done.stdout, re.MULTILINE)
    assert len(named) == 1, done.stdout[-2000:]
    pdn = Path(named[0])
    assert pdn.is_relative_to(nobody.home / ".local/share/draughtsboard/games"), pdn
    (game,) = read_games(pdn.read_text(encoding="utf-8"))
    assert len(game.moves) == 20
    assert "stopped after 20 plies, as --moves 20 asks" in done.stdout

    # The hall, as the README gives it (on a free port: other tests may hold 8080).
    port = free_port()
    hall = subprocess.Popen(nobody.argv(f"cd {nobody.clone} && exec {HALL} "
                                        f"--listen 127.0.0.1:{port}"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=nobody.env())
    try:
        url = _read_until(hall, r"the hall: (http://\S+)").group(1)
        _read_until(hall, r"Ctrl-C stops")
        feed = SseClient(url.rstrip("/"), "/feed", timeout=120)
        moved: set[str] = set()
        try:
            feed.wait_for(lambda data: bool(data.get("moves")) and moved.add(data["board"])
                          is None and len(moved) == 3)
        finally:
            feed.close()
        with urllib.request.urlopen(url, timeout=30) as reply:
            page = reply.read().decode("utf-8")
        cards = re.findall(r'<article class="card" id="board-(table\d)".*?</article>', page,
                           re.DOTALL)
        assert cards == ["table1", "table2", "table3"], page[-2000:]
        for board in cards:
            card = page.split(f'id="board-{board}"', 1)[1].split("</article>", 1)[0]
            last = re.search(r'<dd class="last-move">([^<]*)</dd>', card)
            assert last is not None and last.group(1) not in ("", "–"), card
            assert '<span class="alive on">' in card
    finally:
        hall.send_signal(signal.SIGINT)  # the hall's own process (sh exec'd it)
        _, err = hall.communicate(timeout=60)
    assert hall.returncode == 0, err[-3000:]
    assert "Traceback" not in err and "Exception" not in err, err[-3000:]

    # Nothing written outside the user's folders, nothing left behind.
    assert _owned_by_nobody(nobody.base) - before == set()
    assert list(nobody.tmp.iterdir()) == []
    assert set(_processes_of_nobody()) - running == set()
    kept = sorted(str(p.relative_to(nobody.home)) for p in nobody.home.rglob("*")
                  if p.is_file() and not p.is_relative_to(nobody.home / ".cache/pip"))
    assert kept == [str(pdn.relative_to(nobody.home))], kept
