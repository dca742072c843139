"""Options several commands share, spelled once: the board's language and the phone's settings.

The phone's settings (:mod:`firmware_host.terms.settings`) are options of the command line
too, made from the same declarations: ``--variant``, ``--mode``, ``--level``, ``--touch-move``,
``--time-control``, each with the setting's choices or range, and laid over the configuration by
their option (:func:`setting_overrides`).

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> add_language(parser, default="en")
>>> add_settings(parser)
>>> args = parser.parse_args(["--language", "ru", "--time-control", "3+2", "--level", "4"])
>>> args.language, args.time_control, args.level, args.mode
('ru', '3+2', 4, None)
>>> {option.path: value for option, value in setting_overrides(args).items()}
{'engine.level': 4, 'clock.time_control': '3+2'}
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

from board_io.options import Option
from firmware_host.config.schema import LED_BACKENDS, SENSOR_BACKENDS
from firmware_host.i18n import LANGUAGES
from firmware_host.terms.settings import PhoneSetting, phone_settings

__all__ = ["add_backends", "add_language", "add_setting", "add_settings", "setting_overrides"]


def add_language(parser: argparse.ArgumentParser, *, default: str | None = None,
                 what: str = "the language the board speaks") -> None:
    """``--language LANG``: one of the languages the board has catalogs for."""
    shown = "" if default is None else f" (default {default})"
    parser.add_argument("--language", metavar="LANG", default=default,
                        help=f"{what}: {', '.join(LANGUAGES)}{shown}")


def add_backends(parser: argparse.ArgumentParser) -> None:
    """``--sensors BACKEND`` (``--board``, its old name: ``args.board``) and ``--leds BACKEND``,
    each one of the configuration's backends."""
    parser.add_argument("--sensors", "--board", dest="board", choices=SENSOR_BACKENDS,
                        metavar="BACKEND", help="sensor backend: " + ", ".join(SENSOR_BACKENDS)
                        + " (--board is its old name)")
    parser.add_argument("--leds", choices=LED_BACKENDS, metavar="BACKEND",
                        help="LED backend: " + ", ".join(LED_BACKENDS))


def add_setting(parser: argparse.ArgumentParser | argparse._ArgumentGroup,
                phone: PhoneSetting, *, default: object = None, help: str | None = None
                ) -> None:
    """The option of one phone setting: ``--level N`` (its range), ``--mode`` (its choices),
    ``--variant NAME``; ``default`` is said in the help."""
    option = phone.option
    extra: dict[str, Any] = {}
    if option.kind == "int" and option.minimum is not None and option.maximum is not None:
        extra.update(type=int, choices=range(int(option.minimum), int(option.maximum) + 1))
    elif option.choices is not None:
        extra.update(choices=option.choices)
    shown = "" if default is None else f" (default {default})"
    parser.add_argument(phone.flag, dest=phone.name, metavar=phone.metavar, default=default,
                        help=(help or phone.help) + shown, **extra)


def add_settings(parser: argparse.ArgumentParser,
                 defaults: Mapping[str, object] | None = None) -> None:
    """An option for every phone setting (``defaults``: by setting name)."""
    for phone in phone_settings().values():
        add_setting(parser, phone, default=(defaults or {}).get(phone.name))


def setting_overrides(args: argparse.Namespace) -> dict[Option[Any], object]:
    """The configuration's overrides of the phone settings given on the command line (None:
    not given), by option."""
    return {phone.option: getattr(args, phone.name) for phone in phone_settings().values()
            if getattr(args, phone.name, None) is not None}
