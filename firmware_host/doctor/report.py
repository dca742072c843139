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
from dataclasses import dataclass, field

from firmware_host.i18n import ENGLISH, Translator

__all__ = ["Check", "exit_code", "render_json", "render_text"]

#: A sentence's fields: (name, value) pairs.
Values = tuple[tuple[str, str], ...]


def _fill(template: str, tr: Translator, values: Values) -> str:
    """``template`` in ``tr``'s language with ``values`` put in (only the catalog's sentence is
    a template; a value, an error message say, is never formatted)."""
    return tr.gettext(template).format(**dict(values)) if template else ""


@dataclass(frozen=True)
class Check:
    """One check: ``ok`` with what was found (``detail``) and, when it failed, the ``fix``."""

    name: str
    ok: bool
    detail: str = ""
    fix: str = ""
    #: The catalog sentences of name, detail and fix, and their fields (None: not translated).
    source: tuple[str, str, str, Values] | None = field(default=None, compare=False, repr=False)

    @classmethod
    def said(cls, name: str, ok: bool, detail: str = "", fix: str = "", **values: str) -> Check:
        """A check whose sentences are catalog templates (``N_``) with ``values`` put in.

        >>> from firmware_host.i18n import N_, translator
        >>> check = Check.said(N_("the clock is set"), False, N_("not NTP synchronised "
        ...                    "(timedatectl)"))
        >>> check.name, check.in_language(translator("ru")).name
        ('the clock is set', 'часы выставлены')
        """
        pairs = tuple(sorted(values.items()))
        return cls(_fill(name, ENGLISH, pairs), ok, _fill(detail, ENGLISH, pairs),
                   _fill(fix, ENGLISH, pairs), (name, detail, fix, pairs))

    def in_language(self, tr: Translator) -> Check:
        """This check in ``tr``'s language."""
        if self.source is None:  # plain sentences: those in the catalogs are translated
            return Check(tr.gettext(self.name) if self.name else "", self.ok,
                         tr.gettext(self.detail) if self.detail else "",
                         tr.gettext(self.fix) if self.fix else "")
        name, detail, fix, pairs = self.source
        return Check(_fill(name, tr, pairs), self.ok, _fill(detail, tr, pairs),
                     _fill(fix, tr, pairs), self.source)


def render_text(checks: Sequence[Check], tr: Translator = ENGLISH) -> str:
    """One line per check (PASS/FAIL), the fix under each failure, then a summary line, in
    ``tr``'s language (PASS and FAIL stay, for scripts that grep them)."""
    lines: list[str] = []
    for check in (check.in_language(tr) for check in checks):
        detail = f": {check.detail}" if check.detail else ""
        lines.append(f"{'PASS' if check.ok else 'FAIL'}  {check.name}{detail}")
        if not check.ok and check.fix:
            lines.append("      " + tr.gettext("fix: {fix}").format(fix=check.fix))
    failed = sum(not check.ok for check in checks)
    total = len(checks)
    lines.append(tr.ngettext("{failed} of {total} check failed",
                             "{failed} of {total} checks failed", total).format(
                                 failed=failed, total=total) if failed
                 else tr.ngettext("all {total} check passed", "all {total} checks passed",
                                  total).format(total=total))
    return "\n".join(lines)


def render_json(checks: Sequence[Check], tr: Translator = ENGLISH) -> str:
    """``{"ok": bool, "checks": [{"name", "ok", "detail", "fix"}, ...]}`` (in ``tr``'s
    language)."""
    shown = [check.in_language(tr) for check in checks]
    return json.dumps({"ok": all(check.ok for check in checks),
                       "checks": [{"name": c.name, "ok": c.ok, "detail": c.detail, "fix": c.fix}
                                  for c in shown]}, indent=2)


def exit_code(checks: Sequence[Check]) -> int:
    """0 when every check passed, else 1."""
    return 0 if all(check.ok for check in checks) else 1
