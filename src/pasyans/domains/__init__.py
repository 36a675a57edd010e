"""The fast search domains: packed positions, their moves and the compiled core
(``_core``), each checked against the engine; :mod:`pasyans.domains.registry` says which
one serves a game."""
