"""How far each move gets: the hint's choice when no sample of the hidden cards is won.

The sampled hint (:mod:`pasyans.hints.sampling`) searches a few completions of the
hidden cards and plays the move that starts a win in most of them. When every sample's
search ends undecided, those searches say nothing about which move is better, and the
hint used to fall back on the ranked heuristic over the visible cards. Here instead every
legal move is played in every sample and followed by the same short search there (the
restarting depth-first search of the packed games, ``engine_reach`` in ``csrc/engine.c``,
``nodes`` positions), which reports the most cards on the foundations of any position it
reached; a move's score is the sum over the samples. Every move gets the same work in the
same samples (a flat Monte-Carlo evaluation), so the scores differ where the exact
searches all said "unknown".

Only the samples are read, which are drawn from what the player knows
(:func:`sampling.known`), so two positions that differ only in their hidden cards get the
same scores for the same seed. The scores are remembered by that view and the budget
(:data:`SCORES`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence

from pasyans import caches
from pasyans.domains import packed, spider
from pasyans.domains.built import compiled
from pasyans.domains.registry import PACKED, SPIDER, domain_for
from pasyans.engine import core
from pasyans.engine.moves import Move
from pasyans.hints.recent import Recent
from pasyans.position import State
from pasyans.rules.spec import GameSpec
from pasyans.solver import search

Scores = tuple[tuple[Move, int], ...]

SCORES: Recent[Scores] = caches.register("hints.playout_scores", Recent(4096), bound=4096)
"""The scores already computed, by ``(view, key)`` (the caller's budget): asking again
for the same position costs nothing. Only what the player knows is in the key."""

_DOMAINS: Recent[packed.PackedDomain] = caches.register(
    "hints.playout_domains", Recent(64), bound=64
)
"""The packed rules :func:`reach` plays, one per spec (the compiled spec is built once).
A domain depends on its spec alone (the sample it is built from is only its root, which
:func:`reach` does not read), so the key is None: every sample of a spec shares it."""


def applies(spec: GameSpec, sample: State) -> bool:
    """Whether the compiled search plays ``spec`` from the full-information ``sample``
    (the packed games', or Spider's staged search)."""
    name = domain_for(spec)
    if name == SPIDER:
        return compiled is not None
    return name == PACKED and packed.applies(spec, sample)


SPIDER_WON = 200
"""A Spider search that wins scores this (more than any position's ``-distance``: with
every column empty and the stock dealt the distance is ``-EMPTY * 10 = -80``)."""


def spider_reach(
    game: spider.SpiderGame, pos: spider.Pos, nodes: int, seconds: float | None = None
) -> int:
    """Spider's playout score of the packed position ``pos`` of ``game`` (a sample: its
    stock is known): :data:`SPIDER_WON` when the staged search of ``nodes`` positions
    (:func:`spider.staged`, the unproven rules on) wins from it, else minus the
    :func:`spider.distance` of the expanded position nearest a win (of ``pos`` itself
    when it expanded nothing but it): how far the search got, by its own measure."""
    if spider.SpiderGame.is_won(pos):
        return SPIDER_WON
    if seconds is not None and seconds <= 0:
        return -pos[4]
    cols, down, left, done, _ = pos
    r = compiled.spider_search(
        game.stock, (cols, down, left, done), spider.WON, nodes, seconds or 0.0, spider.MEMORY, True
    )
    if r["status"] == "won":
        return SPIDER_WON
    end = pos
    for i, c, m in r["line"]:
        end = game.play(end, (i, c, m))
    return -end[4]


def _spider_row(
    spec: GameSpec, sample: State, moves: Sequence[Move], nodes: int, deadline: float | None
) -> list[int] | None:
    """Each of ``moves`` (legal in ``sample``) scored by :func:`spider_reach` in the
    sample; None when the time ran out first."""
    game = spider.SpiderGame(spec, sample)
    steps = {game.move(st): st for st in game.steps(game.root)}
    row = []
    for m in moves:
        st = steps.get(m)
        if st is None:  # (not in the packed rules' moves: the engine's extra, never scored)
            row.append(-(1 << 20))
            continue
        left = None if deadline is None else deadline - time.perf_counter()
        if left is not None and left <= 0:
            return None
        row.append(spider_reach(game, game.play(game.root, st), nodes, left))
    if deadline is not None and time.perf_counter() > deadline:
        return None
    return row


def _domain(spec: GameSpec, sample: State) -> packed.PackedDomain:
    d = _DOMAINS.get(spec, None)
    if d is None:
        d = packed.PackedDomain(spec, sample)
        _DOMAINS.put(spec, None, d)
    return d


def reach(
    spec: GameSpec, state: State, nodes: int, deadline: float | None = None, dives: int = 1
) -> tuple[str, int]:
    """The outcome of a search of ``nodes`` positions from the full-information ``state``
    and the most cards on the foundations of any position it reached (all of them when
    won). ``dives`` 1: one plain depth-first dive (the solver's first dive, cut short);
    more: the solver's restarts, each dive of ``nodes // dives`` positions (times the
    Luby sequence) with its move order perturbed."""
    d = _domain(spec, state)
    share = nodes if dives <= 1 else max(nodes // dives, 1)
    outcome, _, best = compiled.engine_reach(
        d.core,
        packed.pack(state),
        nodes,
        -1.0 if deadline is None else deadline,
        share,
        share,
        0.0 if dives <= 1 else search.DETOUR,
        0.0 if dives <= 1 else search.EARLY,
        True if d.dead else None,
        {},
        packed.LOCKS,
    )
    return outcome, best


def scores(
    spec: GameSpec,
    view: State,
    states: Sequence[State],
    *,
    nodes: int,
    seconds: float | None = None,
    key: object = None,
    dives: int = 1,
) -> Scores:
    """Each legal move of ``view`` (a :func:`sampling.known` position) with the sum, over
    the samples ``states`` (completions of ``view``), of the most cards on the foundations
    that a search of ``nodes`` positions reaches after it (:func:`reach`, with ``dives``).
    Within ``seconds``: the samples are taken one at a time, every move scored in each,
    and a sample the time cut short counts for no move (none scored: empty). Remembered
    in :data:`SCORES` under ``(view, key)`` (unless cut short)."""
    found = SCORES.get(spec, (view, key))
    if found is not None:
        return found
    deadline = None if seconds is None else time.perf_counter() + seconds
    moves = core.legal_moves(spec, view)
    totals = [0] * len(moves)
    done = 0
    cut = False
    is_spider = domain_for(spec) == SPIDER
    for s in states:
        if not applies(spec, s):
            continue
        if is_spider:
            srow = _spider_row(spec, s, moves, nodes, deadline)
            if srow is None:
                cut = True
                break
            totals = [t + n for t, n in zip(totals, srow, strict=True)]
            done += 1
            continue
        row = []
        for m in moves:
            after = core.apply(spec, s, m)
            if core.is_won(spec, after):
                row.append(core.cards_on_foundations(spec, after))
            else:
                row.append(reach(spec, after, nodes, deadline, dives)[1])
            if deadline is not None and time.perf_counter() > deadline:
                cut = True
                break
        if cut:
            break
        totals = [t + n for t, n in zip(totals, row, strict=True)]
        done += 1
    result = tuple(zip(moves, totals, strict=True)) if done else ()
    if not cut:
        SCORES.put(spec, (view, key), result)
    return result


def choose(
    spec: GameSpec,
    view: State,
    states: Sequence[State],
    *,
    nodes: int,
    seconds: float | None = None,
    avoid: Collection[State] = (),
    rank: Callable[[Move], int] = lambda m: 0,
    key: object = None,
    dives: int = 1,
) -> Move | None:
    """The move of :func:`scores` with the highest score, never one back to a position in
    ``avoid`` (already played); ties to the highest ``rank`` (the visible heuristic's),
    then notation order. None when no move is scored."""
    scored = [
        (m, n)
        for m, n in scores(spec, view, states, nodes=nodes, seconds=seconds, key=key, dives=dives)
        if core.apply(spec, view, m) not in avoid
    ]
    if not scored:
        return None
    return min(scored, key=lambda e: (-e[1], -rank(e[0]), e[0].to_str()))[0]
