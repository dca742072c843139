"""The command-line options that put a Hub engine (Scan) behind ``analyse`` and ``demo``.

``--hub "/opt/scan/scan hub"`` (split as a shell would split it, never run by one),
``--hub-cwd DIR``, ``--hub-param NAME=VALUE`` (again for more), or ``--config FILE`` for the
``[engine]`` section of a configuration file (``kind = "hub"`` and its ``hub_*`` keys). The
result is a :class:`~firmware_host.config.loader.Config` whose ``engine.kind`` is ``hub``, or
None for the built-in engine.

>>> import argparse
>>> from firmware_host.config.schema import ENGINE_HUB_COMMAND, ENGINE_HUB_CWD, ENGINE_HUB_PARAMS
>>> parser = argparse.ArgumentParser()
>>> add_hub_arguments(parser)
>>> config = hub_config(parser.parse_args(["--hub", "/opt/scan/scan hub",
...                                        "--hub-param", "book=false"]))
>>> config[ENGINE_HUB_COMMAND], config[ENGINE_HUB_PARAMS], config[ENGINE_HUB_CWD]
(['/opt/scan/scan', 'hub'], {'book': 'false'}, '')
>>> hub_config(parser.parse_args([])) is None
True
"""

from __future__ import annotations

import argparse
import shlex
from typing import TYPE_CHECKING, Any

from board_io.options import Option
from firmware_host.config.schema import (
    ENGINE_HUB_COMMAND,
    ENGINE_HUB_CWD,
    ENGINE_HUB_PARAMS,
    ENGINE_KIND,
)

if TYPE_CHECKING:  # imported when used: `draughtsboard --help` stays fast
    from firmware_host.config.loader import Config

__all__ = ["add_hub_arguments", "hub_config"]


def add_hub_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--hub``, ``--hub-cwd``, ``--hub-param`` and ``--config``."""
    group = parser.add_argument_group(
        "Hub engine", "an external engine speaking the Hub protocol (Scan) instead of the "
        "built-in one: docs/hub.md")
    group.add_argument("--hub", metavar="COMMAND",
                       help='its command line, e.g. "/opt/scan/scan hub" (split into words, '
                            "never given to a shell)")
    group.add_argument("--hub-cwd", metavar="DIR",
                       help="its working directory (default: its program's directory)")
    group.add_argument("--hub-param", metavar="NAME=VALUE", action="append", default=[],
                       help="a parameter sent before init, e.g. book=false (again for more)")
    group.add_argument("--config", metavar="FILE",
                       help="use the [engine] section of this configuration file (kind = "
                            '"hub" and its hub_* keys); the options above override it')


def hub_config(args: argparse.Namespace) -> Config | None:
    """The configuration naming the Hub engine the options ask for, or None (built-in engine).

    Raises:
        ConfigError: a bad file, a command that does not split, or a ``--hub-param`` without
            ``=``.
    """
    from firmware_host.config.loader import Config, ConfigError

    config = Config.load(args.config) if args.config else Config.from_mapping(
        {}, source="command line")
    overrides: dict[Option[Any], object] = {}
    if args.hub is not None:
        try:
            argv = shlex.split(args.hub)
        except ValueError as exc:
            raise ConfigError("--hub", f"cannot split {args.hub!r}: {exc}") from None
        overrides[ENGINE_KIND] = "hub"
        overrides[ENGINE_HUB_COMMAND] = argv
    if args.hub_cwd is not None:
        overrides[ENGINE_HUB_CWD] = args.hub_cwd
    if args.hub_param:
        params = dict(config[ENGINE_HUB_PARAMS])
        for item in args.hub_param:
            name, sep, value = item.partition("=")
            if not sep or not name:
                raise ConfigError("--hub-param", f"{item!r} is not NAME=VALUE")
            params[name] = value
        overrides[ENGINE_HUB_PARAMS] = params
    config = config.with_overrides(overrides)
    if config[ENGINE_KIND] != "hub":
        if args.hub_cwd is not None or args.hub_param:
            raise ConfigError("--hub", "--hub-cwd and --hub-param need a Hub engine: --hub "
                              "COMMAND, or a --config whose engine.kind is \"hub\"")
        return None
    return config
