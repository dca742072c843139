"""Render the documented example configuration from the schema.

``python -m firmware_host.config.example > systemd/draughtsboard.toml`` regenerates the shipped
example; a test checks the shipped file is up to date, so every option stays documented. A key
whose default depends on the machine (``board.id``: the hostname) is shown commented out, so
the file does not pin it.

Example:
    >>> text = render()
    >>> "stuck_ms = 3000" in text, "# id = <the hostname>" in text
    (True, True)
"""

from __future__ import annotations

import json
import textwrap

from board_io.options import Option
from firmware_host.config.schema import OPTIONS

__all__ = ["render"]

_HEADER = """\
# draughtsboard configuration (TOML). Every option is shown with its default value.
# Validated at start: an unknown key, a wrong type or an out-of-range value stops the service with
# one message naming the key. Command-line options override this file. All options, with their
# types and ranges, are listed in docs/configuration.md.
# Regenerate with: python -m firmware_host.config.example > systemd/draughtsboard.toml
"""


def toml_value(value: object) -> str:
    """Render a default as TOML.

    Example:
        >>> toml_value(True), toml_value([1, 2]), toml_value({"book": True}), toml_value("a")
        ('true', '[1, 2]', '{ book = true }', '"a"')

    Raises:
        TypeError: a value TOML cannot hold.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, int | float | str | list):
        return json.dumps(value)
    raise TypeError(f"cannot render {value!r}")


def _entry(option: Option[object]) -> list[str]:
    doc = option.doc
    allowed = option.allowed()
    if option.choices is not None:
        doc += f" One of: {allowed[len('one of: '):]}."
    elif allowed:
        doc += f" {'Entries' if option.kind.startswith('list') else 'Range'} {allowed}."
    if option.default_doc is not None:
        doc += f" Default: {option.default_doc}."
    lines = [f"# {line}" for line in textwrap.wrap(doc, 96)]
    if option.default_doc is not None:
        return [*lines, f"# {option.key} = <{option.default_doc}>"]
    return [*lines, f"{option.key} = {toml_value(option.default)}"]


def render() -> str:
    """Return the example configuration file's text."""
    lines = [_HEADER]
    section = ""
    for option in OPTIONS:
        if option.section != section:
            section = option.section
            lines.append(f"\n[{section}]")
        lines.extend(_entry(option))
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(render(), end="")
