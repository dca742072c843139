"""Doctor check: the configuration file is valid (the service would start with it).

Example:
    >>> check, config = check_config("/nonexistent/draughtsboard.toml")
    >>> check.ok, check.detail
    (False, '/nonexistent/draughtsboard.toml: no such configuration file')
"""

from __future__ import annotations

import sys
from pathlib import Path

from firmware_host.config.loader import Config, ConfigError
from firmware_host.doctor.report import Check
from firmware_host.i18n import N_

__all__ = ["check_config"]


def check_config(path: str | Path) -> tuple[Check, Config]:
    """The check, and the config to run the other checks with (the defaults when invalid).

    The fix names what exists: the file to edit when it is there; when it is not, the command
    that writes it (``install.sh`` from the source, or this install's own example, rendered
    from the schema by its Python).

    >>> check, _ = check_config("/nonexistent/draughtsboard.toml")
    >>> "sudo systemd/install.sh" in check.fix and "-m firmware_host.config.example" in check.fix
    True
    """
    name = N_("the config is valid")
    try:
        config = Config.load(path)
    except ConfigError as exc:
        if not Path(path).exists():
            return (Check.said(name, False, "{error}",
                               N_("write it: sudo systemd/install.sh does, from the source; or "
                                  "{python} -m firmware_host.config.example | sudo tee {path} "
                                  "(every option with its default and meaning)"),
                               error=str(exc), path=str(path), python=sys.executable),
                    Config.from_mapping({}))
        return (Check.said(name, False, "{error}",
                           N_("edit {path}: every option, its default and meaning are in the "
                              "example systemd/draughtsboard.toml"),
                           error=str(exc), path=str(path)),
                Config.from_mapping({}))
    return Check.said(name, True, "{path}", path=str(path)), config
