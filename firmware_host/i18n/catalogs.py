"""Keep the catalogs: extract the English sentences, check and compile the translations.

A developer's tool (Babel, in the ``[test]`` extra; the board itself needs only the standard
library's :mod:`gettext` and the compiled ``.mo`` files, which are committed so that both
``pip install -e .`` and a wheel carry them)::

    python -m firmware_host.i18n.catalogs extract   # rewrite locale/draughtsboard.pot
    python -m firmware_host.i18n.catalogs update    # merge the .pot into every .po
    python -m firmware_host.i18n.catalogs compile   # every .po -> its .mo

Sentences are marked in the code with ``N_()`` / ``NN_()`` (tables), ``gettext()`` /
``ngettext()`` (methods of a :class:`~firmware_host.i18n.Translator`).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from firmware_host.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

if TYPE_CHECKING:  # Babel is a developer's tool (the [test] extra), imported where it is used
    from babel.messages.catalog import Catalog

#: The source folders whose sentences the catalogs hold.
SOURCES = ("feedback", "tools", "cli", "doctor", "web", "voice", "i18n", "game", "terms", "coach",
           "recognition", "tournament")
#: The marker and translation functions, with the positions of their messages.
KEYWORDS: dict[str, tuple[int, ...] | None] = {"N_": None, "NN_": (1, 2), "gettext": None,
                                               "ngettext": (1, 2)}
POT = LOCALE_DIR / f"{DOMAIN}.pot"


def po_path(language: str) -> Path:
    """The ``.po`` of ``language``."""
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def translated_languages() -> list[str]:
    """Every language but English, the source."""
    return [code for code in LANGUAGES if code != "en"]


#: The web pages' templates, their words in ``{{ _("...") }}``.
TEMPLATES = "web/templates"


def _files(root: Path) -> Iterator[tuple[str, Path]]:
    for folder in SOURCES:
        for path in sorted((root / folder).rglob("*.py")):
            yield "python", path
    for path in sorted((root / TEMPLATES).glob("*.html")):
        yield "jinja2.ext:babel_extract", path


def extract() -> Catalog:
    """A Babel catalog of every marked sentence in the sources (English)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_file

    root = LOCALE_DIR.parent
    catalog = Catalog(project="draughtsboard", domain=DOMAIN, charset="utf-8",
                      fuzzy=False)
    for method, path in _files(root):
        for line, message, comments, context in extract_from_file(
                method, str(path), keywords={**KEYWORDS, "_": None},
                comment_tags=("TRANSLATORS:",)):
            rel = path.relative_to(root.parent).as_posix()
            flags = ("python-brace-format",) if "{" in str(message) else ()
            catalog.add(message, None, [(rel, line)], auto_comments=comments,
                        context=context, flags=flags)
    return catalog


def msgids(catalog: Catalog) -> set[str]:
    """The singular message ids of a Babel catalog (without the header's empty one)."""
    return {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}


def write_pot() -> None:
    """Rewrite :data:`POT` from the sources."""
    from babel.messages.pofile import write_po

    with POT.open("wb") as out:
        write_po(out, extract(), omit_header=False, sort_output=True, width=100,
                 no_location=True)


def read(path: Path) -> Catalog:
    """The Babel catalog of the ``.po``/``.pot`` at ``path``."""
    from babel.messages.pofile import read_po

    with path.open("rb") as source:
        return read_po(source)


def compile_all() -> None:
    """Compile every language's ``.po`` into its ``.mo``."""
    from babel.messages.mofile import write_mo

    for language in translated_languages():
        catalog = read(po_path(language))
        with po_path(language).with_suffix(".mo").open("wb") as out:
            write_mo(out, catalog, use_fuzzy=False)


def main(argv: list[str]) -> int:
    """``extract``, ``update`` or ``compile``."""
    from babel.messages.pofile import write_po

    action = argv[0] if argv else ""
    if action == "extract":
        write_pot()
    elif action == "update":
        template = read(POT)
        for language in translated_languages():
            catalog = read(po_path(language))
            catalog.update(template, no_fuzzy_matching=True)
            with po_path(language).open("wb") as out:
                write_po(out, catalog, width=100, no_location=True, sort_output=True)
    elif action == "compile":
        compile_all()
    else:
        print("usage: python -m firmware_host.i18n.catalogs extract|update|compile",
              file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
