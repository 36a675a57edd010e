"""The product's hint policy, per game: the one table of how much each game's hint
searches and which of its passes are on (a table per pass, keyed by game and number of
suits), and :func:`product_budget`, which reads them.

The measurements behind each row: docs/notes/2026-12-03-hint-policy.md.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pasyans.hints.model import SAMPLES, Budget
from pasyans.rules.spec import GameSpec

HINT_BUDGETS: dict[tuple[str, int], tuple[int, int]] = {
    ("spider", 1): (16, 4000),
    ("spider", 2): (16, 32_000),
    ("spider", 4): (8, 8000),
    ("backbone", 4): (SAMPLES, 8000),
    ("backbone-classic", 4): (16, 256_000),
    ("nivernais", 4): (128, 512_000),
}
"""The product's sampled hint, by (game, number of suits): how many samples and the nodes
of all their searches together.
Nivernais' is 256 times its first one (8 × 250): its hint is mostly one search of the
position once every card is known, and the follower's win rate rose with it (4 → 25 of
deals 1-100 and 4 → 19 of 5827301-5827400; ``docs/winnability.md``); that search of
512,000 positions takes about 0.6 s on an idle core, hence :data:`HINT_TIME`.
Backbone classic's is 4 times its 2026-12-01 one (16 × 16,000, the playout searches
2,000): more of the deals the solver wins were won on both measured ranges (1-100: 78
against 74 of 100; fresh 5827301-5827400: 78 against 73). Spider 2 suits' is 4 times its
first one (16 × 2,000) by the same rule: 44 against 39 of deals 1-100 and 38 against 32
of the fresh range (a positive balance on both, neither significant alone).
:func:`~pasyans.hints.suggest` without a ``budget`` works to it within its time cap;
other games: the time cap alone. The Winnable? estimate keeps the time cap alone."""


HINT_TIME: dict[tuple[str, int], float] = {
    ("nivernais", 4): 3.2,
}
"""How many times the server's hint time (``PASYANS_HINT_SECONDS``, 0.25 s) a game's hint
may take, where its node budget (:data:`HINT_BUDGETS`) needs more on an idle core, by
(game, number of suits): Nivernais' one search of 512,000 positions takes about 0.6 s,
so its hint may take 0.8 s (the server caps every hint at 1 s,
``solving.HINT_CPU_CAP``)."""


def hint_time(spec: GameSpec, seconds: float) -> float:
    """The time cap of ``spec``'s hint when the server's is ``seconds``
    (:data:`HINT_TIME`)."""
    return seconds * HINT_TIME.get((spec.id, len(spec.deck_suits)), 1.0)


MACRO_HINTS: dict[tuple[str, int], tuple[int, int]] = {
    ("spider", 2): (4, 200),
    ("spider", 4): (4, 200),
}
"""Where the product's hint is the macro planner (:mod:`pasyans.hints.macro`), by (game,
number of suits): its ``macro`` width and ``cap`` (:class:`Budget`), with the samples and
nodes of :data:`HINT_BUDGETS`. Spider 2 suits since 2026-12-07, once the planner's
searches ran by the solver's fitted weights: 49 against 44 of deals 1-100, 43 against 38
of 5827301-5827400 and 42 against 31 of 2311295-2311394 (+62 -41 paired, at the same CPU
a hint; docs/notes/2026-12-07-spider2-macro.md). Spider 1 suit keeps the sampled hint, its
deeper look and its deal when stuck: the planner lost there with the fitted weights too
(+18 -31 paired over two ranges; docs/notes/2026-12-07-spider1-planner.md)."""


PLAYOUT_HINTS: dict[tuple[str, int], int] = {
    ("backbone-classic", 4): 2000,
}
"""Where the product's hint, when no sample is won, plays the move that brings the most
cards home in short searches of every sample (:attr:`Budget.playout`), by (game, number
of suits): the positions of each search."""


UNSTICK_HINTS: dict[tuple[str, int], int] = {
    ("spider", 1): 10,
}
"""Where the product's hint, when no sample is won and that many moves in a row moved
nothing on (no card turned up, no run completed, the stock untouched), deals from the
stock, filling the empty columns first (:attr:`Budget.unstick`,
:func:`pasyans.hints.visible.unstuck`), by (game, number of suits)."""


PLAYER_HINTS: dict[tuple[str, int], int] = {
    ("spider", 4): 1024,
}
"""Where the product's hint uses the no-peek player (:mod:`pasyans.hints.player`) where no
sample is won (:attr:`Budget.rescue`), and the Winnable? estimate the same samples (the
player's playouts there), by (game, number of suits): its playouts a decision. 4 suits
only: the paired measurement (docs/winnability.md) showed it at least as good there, not
on 2 suits."""


LINE_HINTS: dict[tuple[str, int], int] = {
    ("nivernais", 4): 64,
}
"""Where the product's hint is the line player while a card is hidden
(:mod:`pasyans.hints.lines`, :attr:`Budget.lines`), and the Winnable? estimate the same
samples, by (game, number of suits): its searches a decision, each of the sampled hint's
nodes a sample (Nivernais: 512,000 / 128 = 4,000). Nivernais, seeds 0 and 1 together:
54 against 52 of deals 1-100 twice (+35 -33) and 56 against 37 of 5827301-5827400 twice
(+44 -25), at a third of the CPU a hint (docs/notes/2026-12-06-line-player-measured.md).
Backbone and Backbone classic keep the sampled hint: the line player was no better there
(78 against 78 and 77 against 78; Backbone 93 against 96 and 96 against 99)."""


DEEPER_HINTS: dict[tuple[str, int], int] = {
    ("spider", 1): 3,
}
"""Where the product's hint values its best moves one level deeper (:attr:`Budget.deeper`,
:mod:`pasyans.hints.deeper`: a reveal by the best next move over the cards that can come
up), and how many moves, by (game, number of suits). Spider 1 suit: 87 against 81 of
deals 1-100 and 83 against 80 of the fresh 8634903-8635002, +24 -15 paired
(docs/notes/2026-12-04-reveal-deeper.md), at 1.8 times the CPU a hint."""

EXACT_HINTS: dict[tuple[str, int], int] = {
    ("backbone", 4): 250_000,
}
"""The nodes of the product's exact search once the player knows every card
(:attr:`Budget.exact`), by (game, number of suits); elsewhere the hint's ``nodes`` (in the
follower) or the time cap alone (the server). Backbone's 8,000 nodes are made for the
samples' searches; a position after the redeal (every card known) often needs more, and
the hint then fell back on the visible heuristic, which filled an empty column with the
waste's card: 4 of the 5 lost fresh deals (5827301-5827400) were lost so after the
redeal, each won by the solver from there. 250,000 positions take about 0.08 s of an
idle core, within the server's time cap, which also bounds the search; the follower
measures it reproducibly (docs/notes/2026-12-04-backbone-hints.md)."""


BUDGET_NAMES = ("product", "expert")
"""The follower's named budgets (:func:`player_budget`): ``pasyans play --autoplay NAME``,
``benchmarks/follow.py --budget NAME``."""


EXPERT_HINTS: dict[tuple[str, int], dict[str, Any]] = {
    ("spider", 4): {"player": 8192},
    ("spider", 2): {"samples": 32, "nodes": 128_000},
    ("backbone", 4): {"samples": 64, "nodes": 512_000},
    ("nivernais", 4): {"nodes": 8_192_000},
    ("backbone-classic", 4): {"samples": 32, "nodes": 1_024_000, "playout": 4000},
}
"""The expert mode's budget, by (game, number of suits): the fields of :class:`Budget` it
sets on top of the product's (:func:`product_budget`). Spider 4 suits: the no-peek
player with 8 times the product's playouts where no sample is won; Spider 2 suits: the
product's macro planner with twice its samples and 4 times their nodes (59 against 49 of
deals 1-100, 51 against 43 of 5827301-5827400, but 43 against 48 of the third range
9143606-9143705: 153 against 140 of the 300, +53 -40 paired, so the expert and not the
product; docs/notes/2026-12-07-spider2-planner-budget.md); Nivernais: the
product's line player with 16 times its nodes (64,000 a line's search, 8,192,000 for the
portfolio search once every card is known): 87 against 69 of deals 1-100 and 88 against
65 of 5827301-5827400, seed 0, both with 24 moves kept of a line with no win (+49 -8; 4
times the nodes: 80 and 76;
docs/notes/2026-12-07-nivernais-portfolio-hint.md); Backbone
classic: 4 times the product's samples' nodes and twice its playout searches (80 against
78 of deals 1-100, 78 against 78 of 5827301-5827400); Backbone: 64 times the product's
nodes (100 against 95 of 5827301-5827400, 97 against 97 of 1-100). Elsewhere the expert
is the product: larger budgets were measured flat or worse there (docs/winnability.md,
"Expert mode, every game")."""


def player_budget(spec: GameSpec, name: str) -> Budget:
    """The follower's budget ``name`` (:data:`BUDGET_NAMES`) for ``spec``: the product's
    node budget (:func:`product_budget`, no time cap, so reproducible), and for
    "expert" :data:`EXPERT_HINTS` on top."""
    if name not in BUDGET_NAMES:
        raise ValueError(f"unknown budget {name!r}; one of {', '.join(BUDGET_NAMES)}")
    base = product_budget(spec, None)
    if name == "expert":
        base = replace(base, **EXPERT_HINTS.get((spec.id, len(spec.deck_suits)), {}))
    return base


def product_budget(spec: GameSpec, seconds: float | None) -> Budget:
    """The product's hint budget for ``spec``: :data:`HINT_BUDGETS` (and
    :data:`MACRO_HINTS`, :data:`PLAYOUT_HINTS`, :data:`UNSTICK_HINTS`, :data:`EXACT_HINTS`,
    :data:`DEEPER_HINTS`, :data:`LINE_HINTS`) and ``seconds``, whichever ends first."""
    key = (spec.id, len(spec.deck_suits))
    samples, nodes = HINT_BUDGETS.get(key, (SAMPLES, None))
    width, cap = MACRO_HINTS.get(key, (0, Budget.cap))
    return Budget(
        seconds=seconds,
        nodes=nodes,
        samples=samples,
        macro=width,
        cap=cap,
        playout=PLAYOUT_HINTS.get(key, 0),
        unstick=UNSTICK_HINTS.get(key, 0),
        player=PLAYER_HINTS.get(key, 0),
        rescue=key in PLAYER_HINTS,
        exact=EXACT_HINTS.get(key, 0),
        deeper=DEEPER_HINTS.get(key, 0),
        lines=LINE_HINTS.get(key, 0),
    )
