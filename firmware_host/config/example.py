"""Render the documented example configuration from the schema.

``python -m firmware_host.config.example > systemd/draughtsboard.toml`` regenerates the shipped
example; a test checks the shipped file is up to date, so every option stays documented.
"""

from __future__ import annotations

import json
import textwrap
from typing import Any

from firmware_host.config.schema import OPTIONS

_HEADER = """\
# draughtsboard configuration (TOML). Every option is shown with its default value.
# Validated at start: an unknown key, a wrong type or an out-of-range value stops the service with
# one message naming the key. Command-line options override this file.
# Regenerate with: python -m firmware_host.config.example > systemd/draughtsboard.toml
"""


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }" \
            if value else "{}"
    if isinstance(value, (int, float, str, list)):
        return json.dumps(value)
    raise TypeError(f"cannot render {value!r}")


def render() -> str:
    """Return the example configuration file's text."""
    lines = [_HEADER]
    section = ""
    for option in OPTIONS:
        if option.section != section:
            section = option.section
            lines.append(f"\n[{section}]")
        doc = option.doc
        if option.choices:
            doc += " One of: " + ", ".join(str(c) for c in option.choices) + "."
        if option.minimum is not None and option.maximum is not None:
            doc += f" Range {option.minimum:g}..{option.maximum:g}."
        lines.extend(f"# {line}" for line in textwrap.wrap(doc, 96))
        lines.append(f"{option.key} = {_toml_value(option.default)}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(render(), end="")
