"""Doctor check: the configuration file is valid (the service would start with it).

Example:
    >>> check, config = check_config("/nonexistent/draughtsboard.toml")
    >>> check.ok, check.detail
    (False, '/nonexistent/draughtsboard.toml: no such configuration file')
"""

from __future__ import annotations

from pathlib import Path

from firmware_host.config.loader import Config, ConfigError
from firmware_host.doctor.report import Check
from firmware_host.i18n import N_

__all__ = ["check_config"]


def check_config(path: str | Path) -> tuple[Check, Config]:
    """The check, and the config to run the other checks with (the defaults when invalid)."""
    name = N_("the config is valid")
    try:
        config = Config.load(path)
    except ConfigError as exc:
        return (Check.said(name, False, "{error}",
                           N_("edit {path}: every option, its default and meaning are in the "
                              "example systemd/draughtsboard.toml"),
                           error=str(exc), path=str(path)),
                Config.from_mapping({}))
    return Check.said(name, True, "{path}", path=str(path)), config
