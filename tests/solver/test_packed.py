"""The compiled foundation-game domain (csrc/engine.c, domains/packed.py) against the
engine and domains/knowledge.py: the same moves, positions, children and keys along
random playouts, the same searches, and wins that replay through the engine."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from spine_locks import random_spines
from test_backbone_search import spine_endgame

from pasyans.cards import SplitMix64
from pasyans.domains import spinelock
from pasyans.domains.knowledge import dead_position, knowledge_for
from pasyans.domains.packed import PackedDomain, applies, pack, unpack
from pasyans.engine.core import apply, initial_state, is_won, legal_moves
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.registry import variants
from pasyans.rules.spec import GameSpec, PileKind
from pasyans.solvable.generate import solvable_spine
from pasyans.solver.search import EngineDomain, domain_for, replay, search

GAMES = [(g, o) for g, o in variants() if g in ("spine", "backbone", "backbone-classic")]


def _check_along(spec: GameSpec, state: State, seed: int, steps: int) -> set[str]:
    """Walks a random playout (foundation moves often, so cards go up and come back) and
    compares everything on the way; returns the kinds of moves it played."""
    d = PackedDomain(spec, state)
    k = knowledge_for(spec)
    assert d.core is not None
    from pasyans.domains import _core

    rng = SplitMix64(seed)
    pos = d.root
    keys: dict[object, bytes] = {}
    hashes: dict[object, int] = {}
    played: set[str] = set()
    for _ in range(steps):
        assert unpack(pos, len(spec.piles)) == state
        assert pack(state) == pos
        legal = legal_moves(spec, state)
        codes = _core.engine_moves(d.core, pos)
        assert [d.move(c) for c in codes] == legal
        kids, dropped = d.children(pos, prune=False)
        expected, _ = k.guided_children(state, legal, prune=False)
        pairs = list(kids)
        assert [m for m, _ in pairs] == expected and not dropped
        for m, child in pairs:
            assert unpack(child, len(spec.piles)) == apply(spec, state, m)
            assert d.is_won(child) == is_won(spec, apply(spec, state, m))
        key = d.key(pos)
        canonical = k.key(state)
        assert keys.setdefault(canonical, key) == key  # equal keys, equal packed keys
        # The search's hash: a child's, updated from its parent's, is the one from scratch;
        # equal keys have equal hashes (also with the sorted piles shuffled).
        h = _core.engine_hash(d.core, pos)
        assert hashes.setdefault(canonical, h) == h
        shuffled = _shuffled(spec, state, rng)
        assert k.key(shuffled) == canonical
        assert _core.engine_hash(d.core, pack(shuffled)) == h
        for code, child_hash in zip(codes, _core.engine_child_hashes(d.core, pos), strict=True):
            assert child_hash == _core.engine_hash(d.core, _core.engine_play(d.core, pos, code))
        if not legal:
            break
        ups = [m for m in legal if m.dst and m.dst.startswith("f")]
        m = ups[rng.below(len(ups))] if ups and rng.below(3) else legal[rng.below(len(legal))]
        played.add("stock" if m.dst is None else f"{m.src[0]}>{m.dst[0]}")
        code = codes[legal.index(m)]
        pos = _core.engine_play(d.core, pos, code)
        state = apply(spec, state, m)
    # Distinct canonical keys have distinct packed keys and distinct hashes.
    assert len(set(keys.values())) == len(keys)
    assert len(set(hashes.values())) == len(hashes)
    return played


def _shuffled(spec: GameSpec, state: State, rng: SplitMix64) -> State:
    """``state`` with its columns, its foundations and its spine piles each shuffled among
    themselves: the piles the canonical key sorts, so the key is the same."""
    piles = list(state.piles)
    down = list(state.down)
    for kind in (PileKind.COLUMN, PileKind.FOUNDATION, PileKind.SPINE):
        at = [i for i, p in enumerate(spec.piles) if p.kind is kind]
        order = list(at)
        for j in range(len(order) - 1, 0, -1):
            r = rng.below(j + 1)
            order[j], order[r] = order[r], order[j]
        moved = [(state.piles[i], state.down[i]) for i in order]
        for i, (cards, face_down) in zip(at, moved, strict=True):
            piles[i] = cards
            down[i] = face_down
    return State(tuple(piles), tuple(down), state.redeals)


@settings(max_examples=30, deadline=None)
@given(game=st.sampled_from(GAMES), deal=st.integers(1, 10**6))
def test_moves_positions_children_and_keys_equal_the_engines(
    game: tuple[str, dict[str, str]], deal: int
) -> None:
    spec = get_game(*game)
    _check_along(spec, initial_state(spec, deal), deal, 150)


def test_the_playouts_reach_every_kind_of_move() -> None:
    played: set[str] = set()
    for game, deal in [("backbone", 1), ("backbone", 2), ("backbone-classic", 3)]:
        spec = get_game(game)
        played |= _check_along(spec, initial_state(spec, deal), deal, 300)
    spec = get_game("spine", {"empty": "any", "runs": "suit", "spine": "24"})
    played |= _check_along(spec, solvable_spine(spec, 2), 2, 300)
    # spine, tailbone, waste, columns and foundations as sources; the stock and redeal.
    assert {"stock", "s>f", "s>t", "t>t", "t>f", "w>t", "f>t"} <= played


def test_the_foundation_games_get_the_compiled_domain() -> None:
    for game, options in GAMES:
        spec = get_game(game, options)
        assert isinstance(domain_for(spec, initial_state(spec, 1)), PackedDomain)
    for game in ("spider", "nivernais"):
        spec = get_game(game)
        assert not applies(spec, initial_state(spec, 1))


@pytest.mark.parametrize(
    ("game", "options", "deals", "budget"),
    [
        ("backbone", {}, range(1, 6), 3000),
        ("backbone-classic", {}, range(1, 6), 3000),
        ("spine", {}, range(1, 4), 1000),
        ("spine", {"empty": "any", "runs": "suit", "spine": "40"}, range(1, 4), 1000),
    ],
)
def test_the_compiled_search_is_the_engines_search(
    game: str, options: dict[str, str], deals: range, budget: int
) -> None:
    """Same positions in the same order: the same answer, count and line; wins replay."""
    spec = get_game(game, options)
    results = set()
    for deal in deals:
        state = solvable_spine(spec, deal) if game == "spine" else initial_state(spec, deal)
        a = search(EngineDomain(spec, state), 0.0, None, budget)
        b = search(PackedDomain(spec, state), 0.0, None, budget)
        assert (a.result, a.moves, a.nodes) == (b.result, b.moves, b.nodes)
        results.add(b.result)
        if b.result == "won":
            assert is_won(spec, replay(spec, state, b.moves))
    assert "won" in results


def test_bad_input_to_the_core_is_a_clear_error() -> None:
    from pasyans.domains import _core

    spec = get_game("backbone")
    d = PackedDomain(spec, initial_state(spec, 1))
    with pytest.raises(ValueError):
        _core.engine_key(d.core, d.root[:-1])
    with pytest.raises(ValueError):
        _core.engine_play(d.core, d.root, 12345)
    with pytest.raises(ValueError):
        _core.engine_moves(object(), d.root)  # not the core's game


def _lock_inputs(spec: GameSpec, state: State) -> tuple[object, ...]:
    """What Backbone classic's dead-spine test reads (``spinelock.dead``)."""
    k = knowledge_for(spec)
    piles = state.piles
    founds = tuple(sorted(piles[f][-1] if piles[f] else -1 for f in k.foundations))
    return (*(piles[s] for s in k.spines), piles[spec.index["tailbone"]], founds)


def test_the_cached_dead_spine_test_is_the_reference() -> None:
    """Along random playouts of Backbone classic deals and of spine end games (where the
    test fires), one domain's cached answers (keyed on ``engine_lock``) are the Python
    reference's on every position, and equal lock bytes mean equal inputs to the test."""
    from pasyans.domains import _core

    spec = get_game("backbone-classic")
    k = knowledge_for(spec)
    starts = [initial_state(spec, deal) for deal in range(1, 9)]
    starts += [spine_endgame("backbone-classic", s, 9, s % 2 == 0)[1] for s in range(1, 25)]
    locks: dict[bytes, tuple[object, ...]] = {}
    answers = {False: 0, True: 0}
    for n, state in enumerate(starts):
        d = PackedDomain(spec, state)
        rng = SplitMix64(n + 1)
        for _walk in range(3):
            pos, s = d.root, state
            for _ in range(120):
                expected = dead_position(k, s)
                assert d._dead(pos) == expected
                assert _core.engine_dead(d.core, pos) == expected
                answers[expected] += 1
                lock = _core.engine_lock(d.core, pos)
                assert locks.setdefault(lock, _lock_inputs(spec, s)) == _lock_inputs(spec, s)
                legal = legal_moves(spec, s)
                if not legal:
                    break
                ups = [m for m in legal if m.dst and m.dst.startswith("f")]
                pick = ups if ups and rng.below(2) else legal
                m = pick[rng.below(len(pick))]
                pos = _core.engine_play(
                    d.core, pos, _core.engine_moves(d.core, pos)[legal.index(m)]
                )
                s = apply(spec, s, m)
    assert answers[True] > 0 and answers[False] > 0


@settings(max_examples=400, deadline=None)
@given(seed=st.integers(1, 2**62))
def test_the_compiled_dead_spine_test_is_the_reference(seed: int) -> None:
    """``engine_dead`` against ``spinelock._dead`` on random spine piles, tailbones and
    foundations (two decks: the cards not on the foundations shuffled, some dealt to the
    spine piles and the tailbone, the rest in the stock)."""
    from pasyans.domains import _core

    spec = get_game("backbone-classic")
    r = random_spines(seed)
    pa, pb, tail, tops = r.pa, r.pb, r.tail, r.tops
    piles: list[tuple[int, ...]] = [() for _ in spec.piles]
    k = knowledge_for(spec)
    piles[spec.index["stock"]] = r.rest
    for f, t in zip(k.foundations, tops, strict=True):
        piles[f] = tuple(range(t & 3, t + 1, 4)) if t >= 0 else ()
    piles[k.spines[0]], piles[k.spines[1]] = pa, pb
    piles[spec.index["tailbone"]] = tail
    state = State(tuple(piles), (0,) * len(spec.piles), 0)
    d = PackedDomain(spec, state)
    expected = spinelock._dead(pa, pb, tail, tuple(sorted(tops)))
    assert _core.engine_dead(d.core, pack(state)) == expected == dead_position(k, state)


def test_the_compiled_dead_test_searches_as_the_python_one() -> None:
    """The compiled restarting search with the compiled dead-spine test and with the
    Python one (cached on the lock bytes): the same searches."""
    spec = get_game("backbone-classic")
    for deal in range(1, 6):
        state = initial_state(spec, deal)
        a = search(PackedDomain(spec, state, compiled_dead=False), 0.0, None, 30_000)
        b = search(PackedDomain(spec, state), 0.0, None, 30_000)
        assert (a.result, a.moves, a.nodes) == (b.result, b.moves, b.nodes), deal


def test_the_cached_dead_test_searches_as_the_uncached_one() -> None:
    spec = get_game("backbone-classic")
    for deal in range(1, 5):
        state = initial_state(spec, deal)
        a = search(PackedDomain(spec, state, lock_cache=False), 0.0, None, 3000)
        b = search(PackedDomain(spec, state), 0.0, None, 3000)
        assert (a.result, a.moves, a.nodes) == (b.result, b.moves, b.nodes)


@pytest.mark.parametrize(
    ("game", "deals", "budget"),
    [("backbone", range(60, 68), 25_000), ("backbone-classic", range(1, 9), 25_000)],
)
def test_the_compiled_restarts_are_the_python_restarts(
    game: str, deals: range, budget: int
) -> None:
    """The restarting search in C (engine_restarts) against the Python loop on the same
    packed domain, past the first dive (so the perturbed restarts run): the same answer,
    line and count; wins replay through the engine."""
    spec = get_game(game)
    results = set()
    for deal in deals:
        state = initial_state(spec, deal)
        a = search(PackedDomain(spec, state, compiled_search=False), 0.0, None, budget)
        b = search(PackedDomain(spec, state), 0.0, None, budget)
        assert (a.result, a.moves, a.nodes) == (b.result, b.moves, b.nodes), deal
        results.add(b.result)
        if b.result == "won":
            assert is_won(spec, replay(spec, state, b.moves))
    assert "won" in results and "unknown" in results


def test_the_compiled_restarts_prove_the_same_losses(monkeypatch: pytest.MonkeyPatch) -> None:
    """Backbone classic end games with restarts after a few positions: many dives share the
    table of lost positions (and the dead-spine test), in C as in Python. The dead-spine
    test now proves every lost one of these end games within a few positions, so they are
    also searched without it (``dead`` off in both domains): then losses are proven across
    many dives."""
    from pasyans.solver import search as search_module

    monkeypatch.setattr(search_module, "FIRST_DIVE", 5)
    monkeypatch.setattr(search_module, "RESTART_UNIT", 3)
    monkeypatch.setattr(search_module, "DETOUR", 0.5)
    results = set()
    for seed in range(1, 13):
        for loose in (9, 12, 20):
            spec, state = spine_endgame("backbone-classic", seed, loose, seed % 2 == 0)
            for dead in (True, False):
                da = PackedDomain(spec, state, compiled_search=False)
                db = PackedDomain(spec, state)
                da.dead = db.dead = da.dead and dead
                a = search(da, 0.0, None, 300_000)
                b = search(db, 0.0, None, 300_000)
                assert (a.result, a.moves, a.nodes) == (b.result, b.moves, b.nodes), (seed, loose)
                results.add((dead, b.result, b.nodes > 5))
    assert {(True, "won", True), (True, "lost", False)} <= results, results
    assert {(False, "won", True), (False, "lost", True)} <= results, results
