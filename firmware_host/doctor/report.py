"""A doctor check's result, and how a list of them is printed (text or JSON).

Example:
    >>> print(render_text([Check("the config is valid", True, "/etc/x.toml"),
    ...                    Check("redis", False, "connection refused", "start redis-server")]))
    PASS  the config is valid: /etc/x.toml
    FAIL  redis: connection refused
          fix: start redis-server
    1 of 2 checks failed
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass

__all__ = ["Check", "exit_code", "render_json", "render_text"]


@dataclass(frozen=True)
class Check:
    """One check: ``ok`` with what was found (``detail``) and, when it failed, the ``fix``."""

    name: str
    ok: bool
    detail: str = ""
    fix: str = ""


def render_text(checks: Sequence[Check]) -> str:
    """One line per check (PASS/FAIL), the fix under each failure, then a summary line."""
    lines: list[str] = []
    for check in checks:
        detail = f": {check.detail}" if check.detail else ""
        lines.append(f"{'PASS' if check.ok else 'FAIL'}  {check.name}{detail}")
        if not check.ok and check.fix:
            lines.append(f"      fix: {check.fix}")
    failed = sum(not check.ok for check in checks)
    lines.append(f"{failed} of {len(checks)} checks failed" if failed
                 else f"all {len(checks)} checks passed")
    return "\n".join(lines)


def render_json(checks: Sequence[Check]) -> str:
    """``{"ok": bool, "checks": [{"name", "ok", "detail", "fix"}, ...]}``."""
    return json.dumps({"ok": all(check.ok for check in checks),
                       "checks": [asdict(check) for check in checks]}, indent=2)


def exit_code(checks: Sequence[Check]) -> int:
    """0 when every check passed, else 1."""
    return 0 if all(check.ok for check in checks) else 1
