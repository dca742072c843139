"""Every word a page shows goes through the catalogs: no template holds English text of its own.

A template's text outside ``{{ _("...") }}`` reaches every viewer in English, whatever their
language (the archive, the pairing page and the replay were once so). What may stay as it is:
the product's name and the commands a reader types, inside ``<code>``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware_host.web import views

TEMPLATES = Path(views.__file__).parent / "templates"
#: Words that are the same in every language: the name, and what is typed at a terminal.
KEPT = {"draughtsboard", "PDN"}


def shown_words(source: str) -> list[str]:
    """The words a template shows that are not a Jinja expression, tag or comment.

    >>> shown_words('<h1>{{ _("The hall") }}</h1><p title="x">Flip</p>')
    ['Flip']
    >>> shown_words('<code>draughtsboard web --devices</code> {# a note #}')
    []
    """
    text = re.sub(r"\{#.*?#\}", " ", source, flags=re.S)
    text = re.sub(r"<code>.*?</code>", " ", text, flags=re.S)
    text = re.sub(r"\{\{.*?\}\}|\{%.*?%\}", " ", text, flags=re.S)
    text = re.sub(r"<[^>]*>", " ", text)
    return [w for w in re.findall(r"[A-Za-z][A-Za-z']+", text) if w not in KEPT]


def attribute_words(source: str) -> list[str]:
    """The words of the attributes a person reads (title, aria-label, placeholder, data-label)
    that are not a Jinja expression."""
    found = re.findall(r'(?:title|aria-label|placeholder|data-label)="([^"{]*[A-Za-z][^"{]*)"',
                       source)
    return [value for value in found if value.strip()]


@pytest.mark.parametrize("name", sorted(p.name for p in TEMPLATES.glob("*.html")))
def test_a_template_shows_no_word_of_its_own(name: str) -> None:
    source = (TEMPLATES / name).read_text()
    assert shown_words(source) == [], name
    assert attribute_words(source) == [], name
