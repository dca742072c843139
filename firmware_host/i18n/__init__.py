"""The board's languages: gettext catalogs, one :class:`Translator` per language.

English is the source language (the sentences in the code); ``firmware_host/locale/<lang>/
LC_MESSAGES/draughtsboard.mo`` holds each translation, compiled from its ``.po`` (see
:mod:`firmware_host.i18n.catalogs`). A translator is passed to whatever speaks, never looked up
from a global: a hall's web page speaks its viewer's language while each board speaks its own
player's.

>>> ru = translator("ru")
>>> ru.gettext("that move is not legal here")
'этот ход здесь невозможен'
>>> [ru.ngettext("{count} move", "{count} moves", n).format(count=n) for n in (1, 3, 5, 21)]
['1 ход', '3 хода', '5 ходов', '21 ход']
>>> translator("en").gettext("that move is not legal here")
'that move is not legal here'
>>> resolve_language("pt-br"), resolve_language("ru_RU.UTF-8"), resolve_language("xx")
('pt_BR', 'ru', None)
"""

from __future__ import annotations

import gettext
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

__all__ = ["DOMAIN", "ENGLISH", "LANGUAGES", "LOCALE_DIR", "NN_", "N_", "Translator", "negotiate",
           "resolve_language", "translator"]

DOMAIN = "draughtsboard"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

#: Every language the board speaks, English (the source) first, each with its own name.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "ru": "Русский",
    "nl": "Nederlands",
    "fr": "Français",
    "pt_BR": "Português (Brasil)",
    "ja": "日本語",
    "ko": "한국어",
}


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it (tables of templates).

    >>> N_("board in sync with the game")
    'board in sync with the game'
    """
    return message


@dataclass(frozen=True)
class Translator:
    """The sentences of one language (``language`` a key of :data:`LANGUAGES`)."""

    language: str
    catalog: gettext.NullTranslations

    def gettext(self, message: str) -> str:
        """``message`` in this language (itself where the catalog lacks it)."""
        return self.catalog.gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        """The form of ``singular``/``plural`` for ``count`` by the language's plural rule."""
        return self.catalog.ngettext(singular, plural, count)


def resolve_language(spec: str | None) -> str | None:
    """The language of :data:`LANGUAGES` that ``spec`` names (``ru``, ``ru_RU.UTF-8``,
    ``pt-BR``, ``pt``, ``Japanese`` is not one), or None.

    >>> resolve_language("PT"), resolve_language("ko-KR"), resolve_language("nl_BE")
    ('pt_BR', 'ko', 'nl')
    """
    if not spec:
        return None
    text = spec.strip().split(".")[0].split("@")[0].replace("-", "_")
    if not re.fullmatch(r"[A-Za-z]{2,3}(_[A-Za-z0-9]{2,8})*", text):
        return None
    parts = text.split("_")
    lang = parts[0].lower()
    region = parts[1].upper() if len(parts) > 1 else ""
    if region and f"{lang}_{region}" in LANGUAGES:
        return f"{lang}_{region}"
    if lang in LANGUAGES:
        return lang
    matches = [code for code in LANGUAGES if code.split("_")[0] == lang]
    return matches[0] if matches else None


def negotiate(query: str | None, accept_language: str | None, default: str = "en") -> str:
    """The language of a web viewer: ``?lang=`` if it names one, else the best of the
    ``Accept-Language`` header's that the board speaks, else ``default``.

    >>> negotiate(None, "fr-CH, fr;q=0.9, en;q=0.8")
    'fr'
    >>> negotiate("nl", "ja"), negotiate("zz", "de, ja;q=0.5"), negotiate(None, "de, *;q=0.1")
    ('nl', 'ja', 'en')
    >>> negotiate(None, "ja;q=0, ko;q=0.2")
    'ko'
    """
    chosen = resolve_language(query)
    if chosen is not None:
        return chosen
    ranked: list[tuple[float, int, str]] = []
    for index, item in enumerate((accept_language or "")[:2000].split(",")[:50]):
        tag, _, params = item.strip().partition(";")
        quality = 1.0
        match = re.fullmatch(r"\s*q\s*=\s*([0-9.]{1,5})\s*", params) if params else None
        if match:
            try:
                quality = float(match.group(1))
            except ValueError:
                continue
        language = resolve_language(tag)
        if language is not None and quality > 0:
            ranked.append((-quality, index, language))
    return min(ranked)[2] if ranked else default


@cache
def translator(language: str) -> Translator:
    """The translator of ``language`` (a :data:`LANGUAGES` key or anything
    :func:`resolve_language` reads); English for a language the board does not speak."""
    code = resolve_language(language) or "en"
    if code == "en":
        return Translator("en", gettext.NullTranslations())
    try:
        catalog: gettext.NullTranslations = gettext.translation(
            DOMAIN, localedir=str(LOCALE_DIR), languages=[code])
    except OSError:  # a catalog missing from the install: English rather than nothing
        return Translator("en", gettext.NullTranslations())
    return Translator(code, catalog)


#: The source language: what a caller that passes no translator speaks.
ENGLISH = Translator("en", gettext.NullTranslations())


def NN_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular/plural pair for the catalogs (:meth:`Translator.ngettext` picks).

    >>> NN_("{count} move", "{count} moves")
    ('{count} move', '{count} moves')
    """
    return singular, plural
