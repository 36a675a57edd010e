"""Every fast domain plays the engine's rules: checked against ``pasyans.engine`` itself.

Along seeded random playouts played by the engine (``legal_moves`` and ``apply``), each
position is packed afresh from the engine's state and every domain must list exactly the
engine's moves and give, for each, the engine's next position (so an error shows where it
is made, instead of compounding along the domain's own line):

- ``packed``: csrc/engine.c through domains/packed.py (moves, positions, won, children);
- ``spider``: domains/spider.py and csrc/spider.c, each on its own;
- ``nivernais``: domains/nivernais.py's children;
- csrc/engine.c's compiled dead-spine test (its copy of domains/spinelock.py): a position
  it calls dead has no win, by an exhaustive engine search of small end games, and every
  engine move from a dead position leads to a dead one.

The domain each game gets is the one its spec declares (``domains/registry.py``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_backbone_search import spine_endgame

from pasyans.cards import SplitMix64
from pasyans.domains import _core, packed, spider
from pasyans.domains import nivernais as nv
from pasyans.domains import registry as domains
from pasyans.engine.core import apply, initial_state, is_won, legal_moves
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.registry import variants
from pasyans.rules.spec import GameSpec, PileKind
from pasyans.solvable.generate import solvable_spine

VARIANTS = variants()


def _declaring(name: str) -> list[tuple[str, dict[str, str]]]:
    return [(g, o) for g, o in VARIANTS if domains.domain_for(get_game(g, o)) == name]


PACKED_GAMES = _declaring(domains.PACKED)
SPIDER_GAMES = _declaring(domains.SPIDER)
NIVERNAIS_GAMES = _declaring(domains.NIVERNAIS)


def walk(spec: GameSpec, state: State, seed: int, steps: int) -> Iterator[State]:
    """Positions along an engine playout: random moves, often a foundation move or a
    same-suit join (so cards go up, come back, runs complete and stocks get dealt)."""
    rng = SplitMix64(seed)
    yield state
    for _ in range(steps):
        moves = legal_moves(spec, state)
        if not moves:
            return
        good = [
            m
            for m in moves
            if m.dst is not None
            and (
                spec.piles[spec.index[m.dst]].kind is PileKind.FOUNDATION or _joins(spec, state, m)
            )
        ]
        pick = good if good and rng.below(3) else moves
        state = apply(spec, state, pick[rng.below(len(pick))])
        yield state


def _joins(spec: GameSpec, state: State, m: Move) -> bool:
    assert m.dst is not None
    dst = state.piles[spec.index[m.dst]]
    return bool(dst) and dst[-1] - state.piles[spec.index[m.src]][-m.cards] == 4


# --- The packed foundation games (csrc/engine.c, domains/packed.py) -------------------------


def _check_packed(spec: GameSpec, start: State, seed: int) -> set[str]:
    """Compares along one playout; returns the kinds of moves the engine listed."""
    d = packed.PackedDomain(spec, start)
    n = len(spec.piles)
    listed: set[str] = set()
    for state in walk(spec, start, seed, 200):
        assert packed.applies(spec, state)
        pos = packed.pack(state)
        legal = legal_moves(spec, state)
        codes = _core.engine_moves(d.core, pos)
        assert [d.move(c) for c in codes] == legal  # the same moves in the same order
        for code, m in zip(codes, legal, strict=True):
            after = apply(spec, state, m)
            assert packed.unpack(_core.engine_play(d.core, pos, code), n) == after
            listed.add("stock" if m.dst is None else f"{m.src[0]}>{m.dst[0]}")
        assert _core.engine_won(d.core, pos) == is_won(spec, state)
        kids, _ = d.children(pos, prune=False)
        for m, child in kids:  # what the search expands: legal moves, the engine's children
            assert m in legal
            after = apply(spec, state, m)
            assert d.state(child) == after and d.is_won(child) == is_won(spec, after)
    return listed


@settings(max_examples=30, deadline=None)
@given(game=st.sampled_from(PACKED_GAMES), deal=st.integers(1, 10**4), seed=st.integers(0, 99))
def test_the_compiled_foundation_rules_are_the_engines(
    game: tuple[str, dict[str, str]], deal: int, seed: int
) -> None:
    spec = get_game(*game)
    _check_packed(spec, _start(spec, deal), deal * 100 + seed)


def _start(spec: GameSpec, deal: int) -> State:
    """Deal ``deal`` of the game; Spine's solvable deal (its random deals stop in a few
    moves)."""
    return solvable_spine(spec, deal) if spec.id == "spine" else initial_state(spec, deal)


def test_the_foundation_playouts_reach_every_kind_of_move() -> None:
    listed: set[str] = set()
    for game, options in PACKED_GAMES:
        spec = get_game(game, options)
        for deal in (1, 2):
            listed |= _check_packed(spec, _start(spec, deal), deal)
    # spine, tailbone, waste, columns and foundations as sources; the stock and redeal.
    assert {"stock", "s>f", "s>t", "t>t", "t>f", "w>t", "w>f", "f>t"} <= listed


# --- Spider (domains/spider.py and csrc/spider.c) -------------------------------------------


SpiderPos = tuple[spider.Cols, tuple[int, ...], int, int]


def _spider_pos(spec: GameSpec, game: spider.SpiderGame, state: State) -> SpiderPos:
    """The engine's state as Spider's packed ``(cols, down, stock_left, done)``."""
    stock = state.piles[game.stock_index]
    assert stock == game.stock[: len(stock)]  # the stock is its first cards, in order
    cols = tuple(state.piles[c] for c in game.columns)
    down = tuple(state.down[c] for c in game.columns)
    return (cols, down, len(stock), len(state.piles[game.done_index]))


@settings(max_examples=18, deadline=None)
@given(game=st.sampled_from(SPIDER_GAMES), deal=st.integers(1, 10**6), seed=st.integers(0, 99))
def test_spider_rules_in_python_and_in_c_are_the_engines(
    game: tuple[str, dict[str, str]], deal: int, seed: int
) -> None:
    spec = get_game(*game)
    start = initial_state(spec, deal)
    g = spider.SpiderGame(spec, start)
    events: set[str] = set()
    for state in walk(spec, start, deal * 100 + seed, 250):
        pos = _spider_pos(spec, g, state)
        full: spider.Pos = (*pos, spider.distance(*pos))
        legal = legal_moves(spec, state)
        py_steps = g.steps(full)
        c_steps = _core.spider_steps(g.stock, pos)
        assert len(py_steps) == len(legal) == len(c_steps)  # each move once
        assert {g.move(s) for s in py_steps} == set(legal)
        assert {g.move(s) for s in c_steps} == set(legal)
        assert g.is_won(full) == is_won(spec, state)
        for s in py_steps:
            m = g.move(s)
            log: list[dict[str, object]] = []
            expected = _spider_pos(spec, g, apply(spec, state, m, log))
            events |= {str(e["type"]) for e in log}
            assert g.play(full, s)[:4] == expected
            assert _core.spider_play(g.stock, pos, s) == expected
    assert "move" in events


# --- Nivernais (domains/nivernais.py) -------------------------------------------------------


@settings(max_examples=12, deadline=None)
@given(deal=st.integers(1, 10**6), seed=st.integers(0, 99))
def test_nivernais_children_are_the_engines(deal: int, seed: int) -> None:
    ((game, options),) = NIVERNAIS_GAMES
    spec = get_game(game, options)
    for state in walk(spec, initial_state(spec, deal), deal * 100 + seed, 300):
        pos = nv.pack(spec, state)
        engine = {nv.pack(spec, apply(spec, state, m)) for m in legal_moves(spec, state)}
        assert set(nv.children(pos)) == engine
        assert nv.is_won(pos) == is_won(spec, state)


# --- The compiled dead-spine test (csrc/engine.c's copy of domains/spinelock.py) ------------


def _engine_winnable(spec: GameSpec, state: State, budget: int = 300_000) -> bool:
    """Whether the engine's moves reach a win from ``state`` (every position, no pruning)."""
    seen: set[State] = set()
    stack = [state]
    while stack:
        s = stack.pop()
        if is_won(spec, s):
            return True
        if s in seen:
            continue
        seen.add(s)
        assert len(seen) <= budget, "an end game too large to search"
        stack.extend(apply(spec, s, m) for m in legal_moves(spec, s))
    return False


@pytest.mark.parametrize("seed", range(1, 41))
def test_a_position_the_compiled_test_calls_dead_has_no_engine_win(seed: int) -> None:
    spec, start = spine_endgame("backbone-classic", seed, 6 + seed % 3, seed % 2 == 0)
    d = packed.PackedDomain(spec, start)
    for state in walk(spec, start, seed, 12):
        if not _core.engine_dead(d.core, packed.pack(state)):
            continue
        assert not _engine_winnable(spec, state)
        for m in legal_moves(spec, state):  # a dead card stays stuck whatever is played
            assert _core.engine_dead(d.core, packed.pack(apply(spec, state, m)))


def test_the_dead_test_fires_on_some_end_games() -> None:
    """The end games of the test above do reach positions called dead (found afresh: a
    set filled by that test would depend on which of its cases ran in this process)."""
    dead = set()
    for seed in range(1, 41):
        spec, start = spine_endgame("backbone-classic", seed, 6 + seed % 3, seed % 2 == 0)
        d = packed.PackedDomain(spec, start)
        if any(_core.engine_dead(d.core, packed.pack(s)) for s in walk(spec, start, seed, 12)):
            dead.add(seed)
    assert len(dead) >= 5


# --- The registry ----------------------------------------------------------------------------


def test_every_game_declares_a_domain_the_registry_knows() -> None:
    by_game = {g: domains.domain_for(get_game(g, o)) for g, o in VARIANTS}
    assert by_game == {
        "spine": "packed",
        "backbone": "packed",
        "backbone-classic": "packed",
        "spider": "spider",
        "nivernais": "nivernais",
    }
    assert set(by_game.values()) == set(domains.DOMAINS)


def test_an_unknown_domain_name_is_refused_and_none_is_the_engine() -> None:
    spec = get_game("spine")
    with pytest.raises(ValueError, match="no fast domain 'nope'"):
        domains.domain_for(dataclasses.replace(spec, domain="nope"))
    plain = dataclasses.replace(spec, domain=None)
    assert domains.domain_for(plain) is None
    assert not packed.applies(plain, initial_state(plain, 1))
