"""The registry of variants: every rule set by name and alias.

The main rule sets are in :mod:`engine.rulesets`, the club variants (which subclass them) in
:mod:`engine.club_variants`; this module imports both and lists them once, so neither imports
it back. ``Variant``, ``CaptureRule`` and ``PromotionInCapture`` are re-exported from here.

Example:
    >>> v = find_variant("checkers")
    >>> v.name, v.pdn_gametype, v.first_mover.name
    ('english', 21, 'BLACK')
    >>> find_variant("russian").square_name(28)
    'a1'
"""

from __future__ import annotations

from engine.club_variants import CLUB_VARIANTS
from engine.errors import UnknownVariantError
from engine.rulesets import (
    Brazilian,
    Canadian,
    CaptureRule,
    Diagonal,
    English,
    International,
    InternationalGiveaway,
    Italian,
    Pool,
    PromotionInCapture,
    Russian,
    RussianGiveaway,
    Spanish,
    Turkish,
    Variant,
)

__all__ = [
    "VARIANTS",
    "CaptureRule",
    "PromotionInCapture",
    "Variant",
    "find_variant",
]

_CLASSES: tuple[type[Variant], ...] = (
    International, English, Italian, Pool, Spanish, Russian, Brazilian, Canadian, Turkish,
    RussianGiveaway, InternationalGiveaway, Diagonal, *CLUB_VARIANTS,
)

#: Every variant, in PDN GameType order of the main ones.
VARIANTS: tuple[Variant, ...] = tuple(cls() for cls in _CLASSES)


def find_variant(name: str | Variant) -> Variant:
    """Look a variant up by name or alias (case-insensitive); a Variant is returned as is.

    Example:
        >>> find_variant("Checkers").name
        'english'

    Raises:
        UnknownVariantError: no variant has that name; the message lists the names.
    """
    if isinstance(name, Variant):
        return name
    key = str(name).strip().lower().replace("_", "-").replace(" ", "-")
    for variant in VARIANTS:
        if key == variant.name or key in variant.aliases:
            return variant
    names = ", ".join(v.name for v in VARIANTS)
    raise UnknownVariantError(f"unknown variant {name!r}; known variants: {names}")
