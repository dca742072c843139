"""The variants by the names players call them: the words a page or a message shows for a
variant's key (``russian``), the key staying what forms, filters and the store use.

Example:
    >>> variant_words("russian"), variant_words("international-giveaway")
    ('Russian draughts', 'International giveaway')
    >>> variant_words("a-variant-nobody-wrote")  # shown as it is
    'a-variant-nobody-wrote'
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from firmware_host.i18n import N_

__all__ = ["VARIANT_WORDS", "variant_words"]

#: Each variant's name in English, the catalogs' key (every variant of :data:`engine.VARIANTS`).
VARIANT_WORDS: Mapping[str, str] = MappingProxyType({
    "international": N_("International draughts"),
    "english": N_("English draughts (checkers)"),
    "italian": N_("Italian draughts"),
    "pool": N_("American pool checkers"),
    "spanish": N_("Spanish draughts"),
    "russian": N_("Russian draughts"),
    "brazilian": N_("Brazilian draughts"),
    "canadian": N_("Canadian draughts"),
    "turkish": N_("Turkish draughts"),
    "russian-giveaway": N_("Russian giveaway"),
    "international-giveaway": N_("International giveaway"),
    "diagonal": N_("Diagonal draughts"),
    "portuguese": N_("Portuguese draughts"),
    "czech": N_("Czech draughts"),
    "thai": N_("Thai draughts"),
    "frisian": N_("Frisian draughts"),
    "frysk": N_("Frysk!"),
    "killer": N_("Killer draughts"),
    "breakthrough": N_("Breakthrough draughts"),
})


def variant_words(name: str) -> str:
    """The variant ``name`` in words (English: the catalogs' key); a name nobody wrote as it
    is."""
    return VARIANT_WORDS.get(name, name)
