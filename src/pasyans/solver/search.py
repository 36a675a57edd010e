"""Exact search over the full-information game (every card known).

The search sees a game through a small :class:`Domain` protocol (root position, children
as engine moves with their positions in search order, key, won): the
engine's ``legal_moves``/``apply`` with :mod:`pasyans.domains.knowledge` by default, the
compiled core's packed rules for Spine, Backbone and Backbone classic
(:mod:`pasyans.domains.packed`), and Spider's packed rules (:mod:`pasyans.domains.spider`).

Depth-first graph search with a transposition table of canonical positions. Winning is
a reachability question in a one-player deterministic game, so visiting every reachable
position once is complete: when the search runs out of positions without reaching a
win, the deal is proven lost. The pruning rules keep that true (each is shown sound in
``docs/solver.md``): a safe foundation move is played alone, of moves to alike piles
only one is tried, and dead positions get no children. Games with a tailbone (Backbone)
restart their dives with perturbed move orders, every dive sharing one table of
positions proven lost (:func:`_restarting`).

Spider is not searched here: :func:`solve` hands it to :func:`pasyans.domains.spider.solve`,
the staged best-first search whose attempts resume and widen without end (compiled in
``csrc/spider.c``); it has no depth-first fallback, and only a pass without its unproven
rules may answer "lost"; :func:`search` refuses a guided domain. (The guided search
before the compiled core, staged attempts that restart and then a plain depth-first search,
is out of the package: ``benchmarks/legacy/guided_search.py``, the "before" figure of
``benchmarks/solver.py --spider-rate``.)

Nivernais is not searched here either: :func:`solve` hands it to
:func:`pasyans.domains.nivernais.solve` (packed positions, best-first, complete: it may
answer "lost"). The search knows the cards in the stock and face down: use it for
winnability and for solvable deals, never for a hint in a position with hidden cards.

Over 400 lines because the search's domains and its two strategies (depth-first and
restarting, with the restarts' seeded draws) share the :class:`Domain` protocol and the
result's accounting.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar

from pasyans import caches
from pasyans.cards import SplitMix64
from pasyans.domains import nivernais, packed, spider
from pasyans.domains import registry as domains
from pasyans.domains.knowledge import Knowledge, knowledge_for
from pasyans.domains.packed import PackedDomain
from pasyans.engine.core import apply, is_won, legal_moves, play_checked
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules.spec import GameSpec

Outcome = Literal["won", "lost", "unknown"]

_CLOCK_EVERY = 8
"""How often (in positions) a Python search reads the clock. Nivernais' Python search
expands about 2,700 positions a second: at 256 a search ran up to 95 ms past its deadline,
and a sampled hint, eight short searches, up to 0.3 s past the server's 0.25 s cap. A read
costs well under 1% of a position's expansion."""


@dataclass(frozen=True)
class Result:
    """What a search found: ``won`` (with ``moves``), ``lost`` (proven) or ``unknown``."""

    result: Outcome
    moves: tuple[Move, ...] = ()
    nodes: int = 0
    seconds: float = 0.0
    exhausted: bool = False  # "unknown" only because unproven rules dropped moves

    def to_json(self) -> dict[str, Any]:
        return {
            "result": self.result,
            "moves": [m.to_json() for m in self.moves],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }


_KNOWLEDGE: dict[int, Knowledge] = caches.register(
    "solver.knowledge", {}, bound=1024, memory=False
)  # one per game and option set (a few dozen)


def knowledge(spec: GameSpec) -> Knowledge:
    """The (cached) helpers for ``spec``."""
    k = _KNOWLEDGE.get(id(spec))
    if k is None or k.spec is not spec:
        k = knowledge_for(spec)
        _KNOWLEDGE[id(spec)] = k
    return k


P = TypeVar("P")


class Domain(Protocol[P]):
    """What the search sees of a game: positions of some type ``P`` and these helpers."""

    guided: bool  # a guided game (Spider): searched by its own domain, never here

    @property
    def root(self) -> P: ...

    def children(self, pos: P, *, prune: bool) -> tuple[Iterable[tuple[Move, P]], bool]:
        """The engine moves to search from ``pos`` with their positions, best first, and
        whether an *unproven* rule dropped a move (only when ``prune``)."""
        ...

    def key(self, pos: P) -> Hashable: ...

    def is_won(self, pos: P) -> bool: ...


class EngineDomain:
    """Any game through the engine's ``legal_moves``/``apply`` and :class:`Knowledge`."""

    def __init__(self, spec: GameSpec, state: State) -> None:
        self.spec = spec
        self.k = knowledge(spec)
        self.guided = self.k.guided
        self.restarts = self.k.restarts
        self._root = state

    @property
    def root(self) -> State:
        return self._root

    def children(self, pos: State, *, prune: bool) -> tuple[Iterable[tuple[Move, State]], bool]:
        kids, dropped = self.k.guided_children(pos, legal_moves(self.spec, pos), prune=prune)
        spec = self.spec
        return ((m, apply(spec, pos, m)) for m in kids), dropped

    def key(self, pos: State) -> Hashable:
        return self.k.key(pos)

    def is_won(self, pos: State) -> bool:
        return is_won(self.spec, pos)


class SpiderDomain:
    """Spider through its packed rules (:mod:`pasyans.domains.spider`)."""

    guided = True
    restarts = False

    def __init__(self, spec: GameSpec, state: State, weights: spider.Weights | None = None) -> None:
        self.game = spider.SpiderGame(spec, state, weights)

    @property
    def root(self) -> spider.Pos:
        return self.game.root

    def children(
        self, pos: spider.Pos, *, prune: bool
    ) -> tuple[Iterable[tuple[Move, spider.Pos]], bool]:
        return self.game.children(pos, prune=prune)

    def key(self, pos: spider.Pos) -> Hashable:
        return spider.SpiderGame.key(pos)

    def is_won(self, pos: spider.Pos) -> bool:
        return pos[3] == spider.WON


def domain_for(
    spec: GameSpec, state: State, spider_weights: spider.Weights | None = None
) -> EngineDomain | SpiderDomain | PackedDomain:
    """The fast domain the spec declares (:func:`pasyans.domains.registry.domain_for`) when
    it plays ``state``, else the engine's. (Nivernais' search runs on its own tuples:
    :func:`solve` hands it over before it needs a domain object.)"""
    name = domains.domain_for(spec)
    if name == domains.SPIDER:
        return SpiderDomain(spec, state, spider_weights)
    if name == domains.PACKED and packed.applies(spec, state):  # the compiled core
        return PackedDomain(spec, state)
    return EngineDomain(spec, state)


def solve(
    spec: GameSpec,
    state: State,
    *,
    seconds: float | None = None,
    nodes: int | None = None,
    spider_weights: spider.Weights | None = None,
) -> Result:
    """Search for a win from ``state``.

    ``nodes`` bounds the positions expanded (reproducible); ``seconds`` bounds the time
    (machine-dependent). With neither, the search runs until it decides.
    ``spider_weights``: Spider's evaluation (None: :data:`spider.WEIGHTS`, and for the suit
    counts of :data:`spider.JOINT_SUITS` the joint search by it and
    :data:`spider.JOINT_OTHER` over one table, ``docs/solver-spider.md``; the generator passes
    :data:`spider.V1`, so its old layouts do not move: one evaluation); other games ignore
    it.
    """
    start = time.perf_counter()
    if is_won(spec, state):
        return Result("won", (), 0, time.perf_counter() - start)
    d = domain_for(spec, state, spider_weights)
    if isinstance(d, SpiderDomain):  # the resumable staged search (spider.py, compiled core)
        game = d.game
        if spider_weights is None and len(spec.deck_suits) in spider.JOINT_SUITS:
            game = spider.SpiderGame(spec, state, spider.WEIGHTS, spider.JOINT_OTHER)
        outcome, moves, used, exhausted = spider.solve(game, seconds=seconds, nodes=nodes)
        return Result(outcome, moves, used, time.perf_counter() - start, exhausted)
    if domains.domain_for(spec) == domains.NIVERNAIS:  # its tuples, best-first
        found, line, used = nivernais.solve(spec, state, seconds=seconds, nodes=nodes, start=start)
        return Result(found, line, used, time.perf_counter() - start)  # type: ignore[arg-type]
    if isinstance(d, PackedDomain):  # each call with its own position type
        return search(d, start, seconds, nodes)
    return search(d, start, seconds, nodes)


def search(d: Domain[P], start: float, seconds: float | None, nodes: int | None) -> Result:
    """Search ``d`` from its root within the budgets."""
    deadline = None if seconds is None else start + seconds
    if not d.guided:
        if getattr(d, "restarts", False):
            return _restarting(d, start, deadline, nodes)
        return _depth_first(d, start, deadline, nodes, prune=False)
    raise ValueError("a guided game (Spider) has a search of its own: pasyans.domains.spider.solve")


def _spent(count: int, nodes: int | None, deadline: float | None) -> bool:
    """The budget is used up: ``nodes`` positions expanded, or (looked at every
    ``_CLOCK_EVERY`` positions) the ``deadline`` passed."""
    if nodes is not None and count >= nodes:
        return True
    return deadline is not None and count % _CLOCK_EVERY == 0 and time.perf_counter() > deadline


def _left(nodes: int | None, used: int) -> int | None:
    return None if nodes is None else max(0, nodes - used)


def _depth_first(
    d: Domain[P],
    start: float,
    deadline: float | None,
    nodes: int | None,
    *,
    prune: bool,
) -> Result:
    """The depth-first search; ``prune`` turns on the unproven rules of guided games."""
    root = d.root
    seen = {d.key(root)}
    path: list[Move] = []
    first, pruned = d.children(root, prune=prune)
    stack: list[Iterator[tuple[Move, P]]] = [iter(first)]
    count = 1
    while stack:
        for m, t in stack[-1]:
            if d.is_won(t):
                path.append(m)
                return Result("won", tuple(path), count, time.perf_counter() - start)
            key = d.key(t)
            if key in seen:
                continue
            if _spent(count, nodes, deadline):
                return Result("unknown", (), count, time.perf_counter() - start)
            seen.add(key)
            count += 1
            path.append(m)
            kids, dropped = d.children(t, prune=prune)
            pruned = pruned or dropped
            stack.append(iter(kids))
            break
        else:
            stack.pop()
            if path:
                path.pop()
    # An unproven rule dropped moves somewhere (Spider's shuffles): no proof of a loss.
    if pruned:
        return Result("unknown", (), count, time.perf_counter() - start, exhausted=True)
    return Result("lost", (), count, time.perf_counter() - start)


FIRST_DIVE = 10_000
"""Positions of the first, unperturbed depth-first dive of a restarting search: within
them the search is exactly the plain depth-first one (so solvable deals found with
smaller budgets stay the same)."""

RESTART_UNIT = 2_000
"""Positions of the shortest restart; restart ``n`` gets ``RESTART_UNIT`` times the
``n``-th term of the Luby sequence (1, 1, 2, 1, 1, 2, 4, …)."""

DETOUR = 0.15
EARLY = 1.0
"""In a restart, the chance at each position with a choice to try one of the other
moves (drawn uniformly) before the best-ordered one."""


def luby(n: int) -> int:
    """The ``n``-th term (from 1) of the Luby sequence: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, …

    >>> [luby(n) for n in range(1, 16)]
    [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    """
    k = 1
    while (1 << k) - 1 < n:
        k += 1
    while True:
        if n == (1 << k) - 1:
            return 1 << (k - 1)
        n -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < n:
            k += 1


class SplitMix(SplitMix64):
    """The restarts' seeded draws, the same in the compiled search (``csrc/engine.c``), so
    both searches perturb the same moves.

    >>> r = SplitMix(1)
    >>> [r.randrange(1, 10) for _ in range(5)], 0 <= r.random() < 1
    ([6, 8, 4, 3, 4], True)
    """

    def random(self) -> float:
        """A float in [0, 1) from the top 53 bits."""
        return (self.next() >> 11) * (1.0 / (1 << 53))

    def randrange(self, a: int, b: int) -> int:
        """An integer in [a, b) (the remainder's tiny bias is the compiled search's too)."""
        return a + self.next() % (b - a)


def _restarting(d: Domain[P], start: float, deadline: float | None, nodes: int | None) -> Result:
    """Depth-first dives that revisit early choices (Backbone): a first plain dive, then
    restarts with growing budgets (the Luby sequence), each with a move order perturbed
    by its own seeded random draws. All dives share one table of positions proven lost
    (closed strongly connected components, Tarjan), so no restart redoes a proof; a dive
    that runs to its end answers won or lost exactly as the plain search would. A domain
    with a compiled search of its own (``compiled_search``: the packed games) runs it there,
    step for step the same."""
    if getattr(d, "compiled_search", False):
        outcome, moves, used = d.restarting(  # type: ignore[attr-defined]
            deadline, nodes, FIRST_DIVE, RESTART_UNIT, DETOUR, EARLY
        )
        return Result(outcome, moves, used, time.perf_counter() - start)
    lost: set[Hashable] = set()
    used = 0
    n = 0
    while True:
        left = _left(nodes, used)
        share = FIRST_DIVE if n == 0 else RESTART_UNIT * luby(n)
        budget = share if left is None else min(share, left)
        rng = None if n == 0 else SplitMix(n)
        r = _dive(d, start, deadline, budget, lost, rng)
        used += r.nodes
        if r.result != "unknown":
            return Result(r.result, r.moves, used, time.perf_counter() - start)
        if (nodes is not None and used >= nodes) or (
            deadline is not None and time.perf_counter() > deadline
        ):
            return Result("unknown", (), used, time.perf_counter() - start)
        n += 1


def _dive(
    d: Domain[P],
    start: float,
    deadline: float | None,
    nodes: int,
    lost: set[Hashable],
    rng: SplitMix | None,
) -> Result:
    """One depth-first dive of at most ``nodes`` positions, adding to ``lost`` every
    position it proves lost: when a strongly connected component of the positions it
    reached closes (Tarjan's lowlinks) without a win, every position in it is lost, as
    everything reachable from them was searched (dropped children are lost already, or
    dropped by a proven rule). ``rng`` perturbs the move order (None: as ordered).
    Long because the iterative Tarjan walk keeps its stack, lowlinks and budget in local
    variables of one loop (the hot path; a helper per step costs a call per position)."""
    root = d.root
    rkey = d.key(root)
    if rkey in lost:
        return Result("lost", (), 0, time.perf_counter() - start)
    index: dict[Hashable, int] = {rkey: 0}
    open_keys = {rkey}  # on Tarjan's stack: reached, its component not yet closed
    tarjan = [rkey]
    path: list[Move] = []
    kids, _ = d.children(root, prune=False)
    # frame: key, its children, its lowlink
    frames: list[list[Any]] = [[rkey, iter(_perturbed(kids, rng, 0)), 0]]
    count = 1
    while frames:
        f = frames[-1]
        for m, t in f[1]:
            if d.is_won(t):
                path.append(m)
                return Result("won", tuple(path), count, time.perf_counter() - start)
            key = d.key(t)
            if key in lost:
                continue
            i = index.get(key)
            if i is not None:
                if key in open_keys and i < f[2]:
                    f[2] = i
                continue
            if _spent(count, nodes, deadline):
                return Result("unknown", (), count, time.perf_counter() - start)
            index[key] = count
            open_keys.add(key)
            tarjan.append(key)
            count += 1
            path.append(m)
            kids, _ = d.children(t, prune=False)
            frames.append([key, iter(_perturbed(kids, rng, len(frames))), count - 1])
            break
        else:
            frames.pop()
            key, _, low = f
            if low == index[key]:  # a component closes: all of it is lost
                while True:
                    k = tarjan.pop()
                    open_keys.discard(k)
                    lost.add(k)
                    if k == key:
                        break
            if frames:
                path.pop()
                if low < frames[-1][2]:
                    frames[-1][2] = low
    return Result("lost", (), count, time.perf_counter() - start)


def _perturbed(
    kids: Iterable[tuple[Move, P]], rng: SplitMix | None, depth: int
) -> Iterable[tuple[Move, P]]:
    """``kids`` as ordered, or (with ``rng``) sometimes one other child moved first: more
    often near the root, where a wrong choice costs the most."""
    if rng is None or rng.random() >= max(DETOUR, EARLY / (depth + 1)):
        return kids  # lazily: a child's position is made only when the search gets to it
    out = list(kids)
    if len(out) > 1:
        j = rng.randrange(1, len(out))
        out.insert(0, out.pop(j))
    return out


def replay(spec: GameSpec, state: State, moves: tuple[Move, ...] | list[Move]) -> State:
    """Play ``moves`` from ``state`` checking each is legal (raises otherwise)."""
    for m in moves:
        state = play_checked(spec, state, m)
    return state
