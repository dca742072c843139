"""Where the board keeps its files: in the user's own directories, unless the config says.

Whoever runs ``play``, ``run`` in a terminal or ``web`` by hand keeps the games, the spool and
the web token in their own directories, as the XDG Base Directory rules name them: the games
(data a person keeps) under ``$XDG_DATA_HOME`` (``~/.local/share``), the spool and the web token
(state) under ``$XDG_STATE_HOME`` (``~/.local/state``). Only the installed service uses a system
path: ``systemd/install.sh`` writes :data:`SERVICE_DIR`'s ``games``, ``spool`` and
``web-token`` into ``/etc/draughtsboard/draughtsboard.toml`` (the units' ``StateDirectory``).
The demos keep nothing but the PDN file they print (:mod:`firmware_host.tools.demo`); ``demo
--hall`` keeps everything in a temporary directory removed as it stops.

>>> env = {"HOME": "/home/ann"}
>>> games_dir(env), spool_dir(env), token_file(env)
('/home/ann/.local/share/draughtsboard/games', '/home/ann/.local/state/draughtsboard/spool', \
'/home/ann/.local/state/draughtsboard/web-token')
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from firmware_host.errors import ConfigError

__all__ = ["SERVICE_DIR", "check_writable", "data_home", "games_dir", "spool_dir", "state_home",
           "token_file"]

#: The installed service's state directory (the units' ``StateDirectory=draughtsboard``), which
#: ``systemd/install.sh`` names in the config it writes.
SERVICE_DIR = Path("/var/lib/draughtsboard")
#: The project's folder under each XDG base directory.
APP = "draughtsboard"


def _env(environ: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if environ is None else environ


def _base(environ: Mapping[str, str] | None, variable: str, fallback: str) -> Path:
    env = _env(environ)
    value = env.get(variable, "")
    # The XDG rule: a relative path in the variable is invalid and ignored.
    if os.path.isabs(value):
        return Path(value)
    home = env.get("HOME") or str(Path.home())
    return Path(home) / fallback


def data_home(environ: Mapping[str, str] | None = None) -> Path:
    """``$XDG_DATA_HOME/draughtsboard`` (``~/.local/share/draughtsboard`` without it).

    >>> str(data_home({"XDG_DATA_HOME": "/data", "HOME": "/home/ann"}))
    '/data/draughtsboard'
    >>> str(data_home({"XDG_DATA_HOME": "data", "HOME": "/home/ann"}))
    '/home/ann/.local/share/draughtsboard'
    """
    return _base(environ, "XDG_DATA_HOME", ".local/share") / APP


def state_home(environ: Mapping[str, str] | None = None) -> Path:
    """``$XDG_STATE_HOME/draughtsboard`` (``~/.local/state/draughtsboard`` without it)."""
    return _base(environ, "XDG_STATE_HOME", ".local/state") / APP


def games_dir(environ: Mapping[str, str] | None = None) -> str:
    """The default ``store.games_dir``: ``games`` in the user's data directory."""
    return str(data_home(environ) / "games")


def mistakes_dir(environ: Mapping[str, str] | None = None) -> str:
    """The default ``coach.mistakes_dir``: ``mistakes`` in the user's data directory."""
    return str(data_home(environ) / "mistakes")


def spool_dir(environ: Mapping[str, str] | None = None) -> str:
    """The default ``store.spool_dir``: ``spool`` in the user's state directory."""
    return str(state_home(environ) / "spool")


def token_file(environ: Mapping[str, str] | None = None) -> str:
    """The default ``web.token_file``: ``web-token`` in the user's state directory."""
    return str(state_home(environ) / "web-token")


def check_writable(directory: str | Path, option: str, flag: str | None = None) -> Path:
    """Make ``directory`` if it is missing and check this user may write in it; return it.

    ``option`` is the config key that chooses it, ``flag`` the command-line option, named in
    the one line a problem gives.

    >>> import tempfile
    >>> check_writable(tempfile.mkdtemp(), "store.games_dir").is_dir()
    True
    >>> check_writable("/proc/draughtsboard", "store.games_dir", "--games-dir")
    Traceback (most recent call last):
    firmware_host.errors.ConfigError: cannot write in /proc/draughtsboard: No such file or \
directory (choose another with --games-dir DIR or store.games_dir)

    Raises:
        ConfigError: the directory cannot be made, or this user cannot write in it.
    """
    path = Path(directory)
    choose = f"--{flag.removeprefix('--')} DIR or {option}" if flag else option
    if path.exists() and not path.is_dir():
        raise ConfigError.worded(option, f"cannot write in {path}: not a directory "
                                 f"(choose another with {choose})")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError.worded(option, f"cannot write in {path}: {exc.strerror or exc} "
                                 f"(choose another with {choose})") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise ConfigError.worded(option, f"cannot write in {path}: permission denied "
                                 f"(choose another with {choose})")
    return path
