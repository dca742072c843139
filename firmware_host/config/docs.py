"""Render ``docs/configuration.md``, the table of every option, from the schema, and the table of
the settings a phone changes from theirs (:mod:`firmware_host.terms.settings`).

``python -m firmware_host.config.docs > docs/configuration.md`` regenerates the page; a test
checks the shipped page is up to date, so the docs cannot drift from the code.

Example:
    >>> page = render()
    >>> "| `timing.stuck_ms` | integer | `3000` | 100..600000 | scanner |" in page
    True
    >>> "| `level` | [`engine.level`](#engine) | 1..10 | `--level N` | Engine level |" in page
    True
"""

from __future__ import annotations

from board_io.options import Option
from firmware_host.config.example import toml_value
from firmware_host.config.schema import OPTIONS, SECTIONS
from firmware_host.terms.settings import PhoneSetting, phone_settings

__all__ = ["render"]

_KIND_NAMES = {
    "str": "string", "int": "integer", "float": "number", "bool": "boolean",
    "list[int]": "list of integers", "list[str]": "list of strings", "table": "table",
}

_INTRO = """\
# Configuration

<!-- Generated from the schema: python -m firmware_host.config.docs > docs/configuration.md
     Edit the declarations, not this page; a test checks it is current. -->

The service reads one TOML file (`draughtsboard run --config FILE`; the installed one is
`/etc/draughtsboard/draughtsboard.toml`, written from
[systemd/draughtsboard.toml](../systemd/draughtsboard.toml), which shows every option with its
default). Command-line options override the file.

Every option is declared once, in code: the keys board_io reads in `board_io/schema.py` (the
backend names in `board_io/registry.py`), the service's own in `firmware_host/config/schema.py`.
The validation at start, the example file, this page and the backends' reading all come from
that one declaration. At start the whole file is checked: an unknown key, a wrong type, a number
that is not finite or out of range, a pin used twice by the selected backends, or a malformed
`store.url` stops the service with one line naming the file and the key (a password is never
shown). An option you leave out takes its default.

*Read by* says who uses a key: `service` (firmware_host), `scanner` and `registry` (board_io's
scanning and backend choice), or a backend as `<kind>:<name>`, which reads the key only when
`board.<kind>` names it (`sensors:gpio-matrix` when `board.sensors = "gpio-matrix"`). For a
list, the range holds for each entry.
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _default(option: Option[object]) -> str:
    if option.default_doc is not None:
        return option.default_doc
    return f"`{_cell(toml_value(option.default))}`"


def _row(option: Option[object]) -> str:
    cells = (f"`{option.path}`", _KIND_NAMES[option.kind], _default(option),
             _cell(option.allowed()), ", ".join(option.readers), _cell(option.doc))
    return "| " + " | ".join(cells) + " |"


_SETTINGS_INTRO = """
## The phone's settings

What a player changes from a board's page in the web app for the next new game
([web.md](web.md)), and what `draughtsboard run` and `play` take as options (`demo` the level and
the time control): each is a command of its name to the board
([events.md](events.md#commands-to-a-board)), checked by its option's rules, and the settings a
game started with are kept in Redis (`draughtsboard:<board>:settings`) and laid over this file
at the board's next start.

| setting | key | values | command line | board page |
|---|---|---|---|---|
"""


def _setting_row(phone: PhoneSetting) -> str:
    option = phone.option
    values = option.allowed() or phone.help
    flag = f"`{phone.flag}{' ' + phone.metavar if phone.metavar else ''}`"
    cells = (f"`{phone.name}`", f"[`{option.path}`](#{option.section})", _cell(values), flag,
             phone.label or "(scripts and the command line)")
    return "| " + " | ".join(cells) + " |"


def render() -> str:
    """Return the text of ``docs/configuration.md``."""
    lines = [_INTRO, _SETTINGS_INTRO + "\n".join(_setting_row(phone)
                                                for phone in phone_settings().values())]
    for section in SECTIONS:
        lines += [f"\n## [{section}]\n", "| key | type | default | allowed | read by | meaning |",
                  "|---|---|---|---|---|---|"]
        lines += [_row(option) for option in OPTIONS if option.section == section]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(render(), end="")
