"""Each variant's move generator, built once: the compiled one, or where a board is wider than
a machine word in a compiled install (Canadian, Turkish) the pure-Python copy's.

The compiled hot path holds boards and hash keys in mypyc's ``i64``
(:data:`engine.compiled.WORD_BITS`), so that a 32-bit machine keeps them in machine words too;
a board of more bits is played by :func:`engine.compiled.pure_module`'s copies of the same
source, with Python ints. :class:`engine.search.Searcher`, :class:`engine.evaluate.Evaluator`
and :func:`engine.perft.perft` hand such a variant to their copies (:func:`routed`; each asks
its own module's :func:`engine.movegen.routed`, which is false in the copies).

Example:
    >>> generator_for("international").size, generator_for("canadian").size
    (55, 78)
    >>> routed("international")
    False
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType

from engine.compiled import pure_module
from engine.movegen import MoveGen
from engine.movegen import routed as _routed
from engine.variant import VARIANTS, Variant, find_variant

__all__ = ["generator_for", "routed"]


def routed(variant: str | Variant) -> bool:
    """True when ``variant``'s boards are too wide for this install's compiled modules: the
    pure-Python copies of them (:func:`engine.compiled.pure_module`) play it.

    Raises:
        UnknownVariantError: no such variant.
    """
    return _routed(find_variant(variant))


_GENERATORS: Mapping[str, MoveGen] = MappingProxyType(
    {v.name: MoveGen(v) for v in VARIANTS if not _routed(v)}
)


@cache
def _pure_generator(name: str) -> MoveGen:
    """The pure copy's generator of a routed variant (loaded on first use)."""
    gen: MoveGen = pure_module("engine.movegen").MoveGen(find_variant(name))
    return gen


def generator_for(variant: str | Variant) -> MoveGen:
    """The move generator of a variant (built once).

    Raises:
        UnknownVariantError: no such variant.
    """
    name = find_variant(variant).name
    gen = _GENERATORS.get(name)
    return gen if gen is not None else _pure_generator(name)
