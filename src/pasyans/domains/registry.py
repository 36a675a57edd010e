"""Which fast search domain serves a game: each spec names it, this registry looks it up.

A game's :class:`~pasyans.rules.spec.GameSpec` declares its fast domain in its field
``domain`` (None: the engine's generic one, :class:`pasyans.solver.search.EngineDomain`).
The domains, each checked move for move against the engine along random playouts
(``tests/solver/test_domains_vs_engine.py``):

- ``packed``: :mod:`pasyans.domains.packed`, the foundation games (Spine, Backbone,
  Backbone classic) in the compiled core (``csrc/engine.c``), for positions with every
  card face up (:func:`pasyans.domains.packed.fits`);
- ``spider``: :mod:`pasyans.domains.spider` (and ``csrc/spider.c``), Spider's packed
  tuples and staged search;
- ``nivernais``: :mod:`pasyans.domains.nivernais`, Nivernais' packed tuples and
  best-first search.

>>> from pasyans.rules import get_game
>>> [domain_for(get_game(g)) for g in ("spine", "spider", "nivernais")]
['packed', 'spider', 'nivernais']
"""

from __future__ import annotations

from typing import Final, Literal, cast

from pasyans.rules.spec import GameSpec

DomainName = Literal["packed", "spider", "nivernais"]

PACKED: Final = "packed"
SPIDER: Final = "spider"
NIVERNAIS: Final = "nivernais"

DOMAINS: Final[dict[str, str]] = {
    PACKED: "pasyans.domains.packed",
    SPIDER: "pasyans.domains.spider",
    NIVERNAIS: "pasyans.domains.nivernais",
}
"""Every fast domain by name, with the module that implements it."""


def domain_for(spec: GameSpec) -> DomainName | None:
    """The fast domain ``spec`` declares (None: the engine's); raises ``ValueError`` for a
    name no domain has."""
    name = spec.domain
    if name is None:
        return None
    if name not in DOMAINS:
        raise ValueError(f"{spec.id}: no fast domain {name!r} (domains: {', '.join(DOMAINS)})")
    return cast(DomainName, name)
