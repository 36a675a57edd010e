"""Backbone classic's relaxed spine game (``spinelock._stranded``): a position whose spine
piles and tailbone could not be emptied even if every other card were free is lost.

Checked three ways: the relaxed search with its two reductions against a plain search of
the relaxed game (every move, both foundations); positions it calls dead against the
exhaustive search of the real game; the compiled twin (``engine_dead``) against it."""

from __future__ import annotations

from solver_endgames import exhaustive
from spine_locks import random_spines

from pasyans.cards import SplitMix64
from pasyans.domains import spinelock
from pasyans.domains.knowledge import knowledge_for
from pasyans.domains.packed import PackedDomain, pack
from pasyans.engine.core import initial_state
from pasyans.position import State, Table
from pasyans.rules import get_game
from pasyans.solver.search import solve

Lock = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def plain_relaxed_stuck(
    pa: tuple[int, ...], pb: tuple[int, ...], tail: tuple[int, ...], founds: tuple[int, ...]
) -> bool:
    """The relaxed game searched plainly: every exposed card, onto a column or up either
    foundation of its suit below it, nothing forced; True when the piles cannot empty."""
    tops = spinelock._tops(founds)
    start = tuple(tuple(sorted(tops[s])) for s in range(4))
    piles = (pa, pb, tail)
    seen = set()
    todo = [(len(pa), len(pb), len(tail), start)]
    while todo:
        state = todo.pop()
        if state in seen:
            continue
        seen.add(state)
        left, at = state[:3], state[3]
        exposed = [2] if left[2] else [w for w in (0, 1) if left[w]]
        if not exposed:
            return False

        def free(
            card: int, left: tuple[int, ...] = left, at: tuple[tuple[int, ...], ...] = at
        ) -> int:
            r, s = (card >> 2) + 1, card & 3
            inside = sum(piles[w][: left[w]].count(card) for w in range(3))
            return 2 - sum(1 for t in at[s] if t >= r) - inside

        for w in exposed:
            card = piles[w][left[w] - 1]
            r, s = (card >> 2) + 1, card & 3
            gone = tuple(n - (i == w) for i, n in enumerate(left))
            if r < 13 and free(card + 4) > 0:
                todo.append((*gone, at))
            for j in (0, 1):
                t = at[s][j]
                if t < r and all(free(((k - 1) << 2) | s) > 0 for k in range(t + 1, r)):
                    pair = tuple(sorted((r, at[s][1 - j])))
                    todo.append((*gone, (*at[:s], pair, *at[s + 1 :])))
    return True


def random_lock(seed: int) -> Lock:
    """Random spine piles (up to 11 cards each), tailbone and foundations of two decks."""
    return random_spines(seed).lock


SEEDS = range(1, 3001)


def test_the_reductions_keep_the_relaxed_games_answer() -> None:
    """Forced moves onto a column and the higher foundation only: the same answers as
    every move, on random spines; and the relaxed game sees more than the card rules."""
    answers = {False: 0, True: 0}
    only_relaxed = 0
    for seed in SEEDS:
        pa, pb, tail, founds = random_lock(seed)
        stranded = spinelock._stranded(pa, pb, tail, spinelock._tops(founds))
        assert stranded == plain_relaxed_stuck(pa, pb, tail, founds), seed
        answers[stranded] += 1
        pinned = spinelock._pinned(pa, pb, tail, founds)
        assert stranded or not pinned, seed  # the card rules prove nothing it misses
        only_relaxed += stranded and not pinned
    assert answers[True] > 100 and answers[False] > 1000
    assert only_relaxed > 20


def test_the_compiled_test_is_the_relaxed_game() -> None:
    """``engine_dead`` (with ``sl_stranded``) against ``spinelock._dead`` on the same
    random spines, among them many only the relaxed game proves dead."""
    from pasyans.domains import _core

    spec = get_game("backbone-classic")
    k = knowledge_for(spec)
    d = PackedDomain(spec, initial_state(spec, 1))
    only_relaxed = 0
    for seed in SEEDS:
        pa, pb, tail, founds = random_lock(seed)
        piles: list[tuple[int, ...]] = [() for _ in spec.piles]
        rest = [c for c in range(52) for _ in range(2)]
        for t in founds:
            for c in range(t & 3, t + 1, 4) if t >= 0 else ():
                rest.remove(c)
        for c in pa + pb + tail:
            rest.remove(c)
        piles[spec.index["stock"]] = tuple(rest)
        for f, t in zip(k.foundations, founds, strict=True):
            piles[f] = tuple(range(t & 3, t + 1, 4)) if t >= 0 else ()
        piles[k.spines[0]], piles[k.spines[1]] = pa, pb
        piles[spec.index["tailbone"]] = tail
        state = State(tuple(piles), (0,) * len(spec.piles), 0)
        expected = spinelock._dead(pa, pb, tail, founds)
        assert _core.engine_dead(d.core, pack(state)) == expected, seed
        only_relaxed += expected and not spinelock._pinned(pa, pb, tail, founds)
    assert only_relaxed > 20


def _two_kings() -> State:
    """Hearts up to the Ten on both foundations, every other suit done; spine1 holds a
    Jack under both Kings of hearts; the other Jack and both Queens are in the stock."""
    spec = get_game("backbone-classic")
    t = Table.empty(len(spec.piles))
    for n in range(8):
        suit = n % 4
        top = 10 if suit == 2 else 13
        t.piles[spec.index[f"f{n + 1}"]] = tuple((r << 2) | suit for r in range(top))
    jh, qh, kh = (10 << 2) | 2, (11 << 2) | 2, (12 << 2) | 2
    t.piles[spec.index["spine1"]] = (jh, kh, kh)
    t.piles[spec.index["stock"]] = (qh, jh, qh)
    return t.freeze()


def test_two_kings_over_a_card_both_need_are_lost() -> None:
    """The upper King goes up with the free Jack; the lower one then needs the Jack under
    itself. No card rule sees it (each King alone could go up), the relaxed game does, and
    the exhaustive search agrees."""
    spec = get_game("backbone-classic")
    state = _two_kings()
    k = knowledge_for(spec)
    tail = spec.index["tailbone"]
    assert not exhaustive(spec, state)
    pa, pb = state.piles[k.spines[0]], state.piles[k.spines[1]]
    founds = tuple(sorted(state.piles[f][-1] for f in k.foundations))
    assert not spinelock._pinned(pa, pb, state.piles[tail], founds)
    assert spinelock.dead(state, k.foundations, k.spines, tail)
    assert solve(spec, state, nodes=1).result == "lost"
    # With the Jack above the Kings instead, it is won (and not dead).
    won = Table(state)
    won.piles[k.spines[0]] = (pa[1], pa[2], pa[0])
    assert exhaustive(spec, won.freeze())
    assert not spinelock.dead(won.freeze(), k.foundations, k.spines, tail)


def test_deals_whose_spine_cannot_empty_are_lost_at_once() -> None:
    """Backbone classic deals 23 and 31 (unknown at 7,700,000 positions before): both
    Kings of one suit in the spine, each going up only after a card the other lies on."""
    spec = get_game("backbone-classic")
    k = knowledge_for(spec)
    for deal in (23, 31):
        state = initial_state(spec, deal)
        piles = state.piles
        founds = tuple(sorted(-1 for _ in k.foundations))
        lock = (piles[k.spines[0]], piles[k.spines[1]], piles[spec.index["tailbone"]])
        assert not spinelock._pinned(*lock, founds), deal
        assert spinelock._stranded(*lock, spinelock._tops(founds)), deal
        assert solve(spec, state, nodes=10).result == "lost", deal


def suits_endgame(seed: int) -> State:
    """One or two suits short of the King on their foundations, their cards shuffled
    into the spine piles (most), the tailbone, the stock and a column."""
    spec = get_game("backbone-classic")
    rng = SplitMix64(seed)
    t = Table.empty(len(spec.piles))
    suits = [rng.below(4)]
    if rng.below(2):
        suits.append((suits[0] + 1 + rng.below(3)) % 4)
    loose: list[int] = []
    for n in range(8):
        s = n % 4
        top = 12 - rng.below(4 if len(suits) == 2 else 6) if s in suits else 13
        t.piles[spec.index[f"f{n + 1}"]] = tuple((r << 2) | s for r in range(top))
        loose += [(r << 2) | s for r in range(top, 13)]
    loose.sort(key=lambda _: rng.next())
    if rng.below(2) and loose:
        t.piles[spec.index["tailbone"]] = (loose.pop(),)
    for c in loose:
        x = rng.below(10)
        t.put(
            spec.index["spine1" if x < 4 else "spine2" if x < 8 else "stock" if x < 9 else "t1"],
            (c,),
        )
    return t.freeze()


def test_end_games_the_relaxed_game_calls_dead_are_lost() -> None:
    """On end games with most loose cards in the spine, every position the dead test
    (card rules and relaxed game) calls dead is lost by exhaustive search; many of them
    only the relaxed game proves, and some end games are won."""
    spec = get_game("backbone-classic")
    k = knowledge_for(spec)
    tail = spec.index["tailbone"]
    only_relaxed = won = 0
    for seed in range(1, 401):
        state = suits_endgame(seed)
        piles = state.piles
        founds = tuple(sorted(piles[f][-1] if piles[f] else -1 for f in k.foundations))
        lock = (piles[k.spines[0]], piles[k.spines[1]], piles[tail])
        truth = exhaustive(spec, state)
        won += truth
        if spinelock.dead(state, k.foundations, k.spines, tail):
            assert not truth, seed
            only_relaxed += not spinelock._pinned(*lock, founds)
    assert only_relaxed > 20 and won > 20
