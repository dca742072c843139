"""``draughtsboard doctor``: check this board's setup; each failure says how to fix it."""

from __future__ import annotations

import argparse

DEFAULT_CONFIG = "/etc/draughtsboard/draughtsboard.toml"


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``doctor``."""
    parser = subparsers.add_parser(
        "doctor", help="check the Pi's setup for this board (PASS/FAIL, and how to fix)",
        description="Check what the service needs on this machine: the service user and its "
                    "groups, the device nodes of the configured backends and their permissions, "
                    "SPI/I2C, a GPIO pin factory, Redis and its durability settings, the config, "
                    "free space for games and the spool, and the clock. Exit status 0 only when "
                    "every check passes.")
    parser.add_argument("--config", metavar="FILE", default=DEFAULT_CONFIG,
                        help=f"the configuration to check (default {DEFAULT_CONFIG})")
    parser.add_argument("--json", action="store_true",
                        help='print {"ok": ..., "checks": [{"name", "ok", "detail", "fix"}]}')
    parser.add_argument("--language", metavar="LANG", default="en",
                        help="the language of the findings and fixes: en, ru, nl, fr, pt_BR, "
                             "ja, ko (default en)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run every check and print them."""
    from firmware_host.doctor.report import exit_code, render_json, render_text
    from firmware_host.doctor.runner import run_checks
    from firmware_host.i18n import LANGUAGES, resolve_language, translator

    language = resolve_language(args.language)
    if language is None:
        print(f"doctor: the board does not speak {args.language!r}; it speaks "
              f"{', '.join(LANGUAGES)}")
        return 2
    tr = translator(language)
    checks = run_checks(args.config)
    print(render_json(checks, tr) if args.json else render_text(checks, tr))
    return exit_code(checks)
