"""The packed Spider domain plays exactly the engine's rules, and its wins replay."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pasyans.cards import SplitMix64, parse_card
from pasyans.domains import spider
from pasyans.engine.core import apply, initial_state, is_won, legal_moves
from pasyans.position import State, Table
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec
from pasyans.solver.search import SpiderDomain, domain_for, replay, solve


def _same(spec: GameSpec, game: spider.SpiderGame, pos: spider.Pos, state: State) -> None:
    """The packed position is the engine's state (the done pile by its card count)."""
    mine = game.state(pos)
    done = spec.index["done"]
    for i in range(len(spec.piles)):
        if i == done:
            assert len(mine.piles[i]) == len(state.piles[i])
        else:
            assert mine.piles[i] == state.piles[i]
            assert mine.down[i] == state.down[i]
    assert pos[4] == spider.distance(pos[0], pos[1], pos[2], pos[3])
    assert game.is_won(pos) == is_won(spec, state)


def _pick(
    game: spider.SpiderGame, pos: spider.Pos, steps: list[spider.Step], rng: SplitMix64, greed: int
) -> spider.Step:
    """A random move, often one that joins in suit (so runs get completed) or deals."""
    cols = pos[0]
    if rng.below(100) < greed:
        joins = [
            s for s in steps if s[2] and cols[s[1]] and cols[s[1]][-1] - cols[s[0]][-s[2]] == 4
        ]
        if joins:
            return joins[rng.below(len(joins))]
    if spider.DEAL in steps and rng.below(8) == 0:
        return spider.DEAL
    return steps[rng.below(len(steps))]


@settings(max_examples=30, deadline=None)
@given(
    suits=st.sampled_from(["1", "2", "4"]),
    deal=st.integers(1, 10**6),
    greed=st.integers(0, 95),
)
def test_moves_and_positions_equal_the_engines_along_random_playouts(
    suits: str, deal: int, greed: int
) -> None:
    spec = get_game("spider", {"suits": suits})
    state = initial_state(spec, deal)
    game = spider.SpiderGame(spec, state)
    pos = game.root
    rng = SplitMix64(deal * 7 + greed)
    events = {"deal": 0, "flip": 0, "complete": 0}
    for _ in range(250):
        _same(spec, game, pos, state)
        steps = game.steps(pos)
        moves = [game.move(s) for s in steps]
        assert len(set(moves)) == len(moves)
        assert set(moves) == set(legal_moves(spec, state))
        if not steps:
            break
        step = _pick(game, pos, steps, rng, greed)
        log: list[dict[str, object]] = []
        state = apply(spec, state, game.move(step), log)
        pos = game.play(pos, step)
        for e in log:
            if e["type"] in events:
                events[str(e["type"])] += 1
    # The playouts do reach the rules' corners (checked over all examples below).
    _SEEN.update(k for k, v in events.items() if v)


_SEEN: set[str] = set()


def test_the_playouts_deal_turn_up_and_complete_runs() -> None:
    """Runs the property above with fixed seeds and checks it met every automatic rule."""
    _SEEN.clear()
    for suits, deal, greed in [("1", 3, 90), ("1", 8, 95), ("2", 5, 90), ("4", 4, 50)]:
        test_moves_and_positions_equal_the_engines_along_random_playouts.hypothesis.inner_test(  # type: ignore[attr-defined]
            suits=suits, deal=deal, greed=greed
        )
    assert {"deal", "flip", "complete"} == _SEEN


def _table(spec: GameSpec, piles: dict[str, list[str]], down: dict[str, int]) -> State:
    t = Table.empty(len(spec.piles))
    for pid, codes in piles.items():
        t.piles[spec.index[pid]] = tuple(parse_card(c) for c in codes)
    for pid, n in down.items():
        t.down[spec.index[pid]] = n
    return t.freeze()


def test_a_deal_that_completes_a_run_and_a_move_that_turns_a_card_up() -> None:
    spec = get_game("spider", {"suits": "1"})
    run = [r + "S" for r in "KQJT98765432"]
    piles = {f"t{i}": ["9S", "5S"] for i in range(2, 11)}
    piles["t4"] = ["6S"]
    state = _table(spec, {"t1": ["4S", *run], **piles, "stock": ["7S"] * 9 + ["AS"]}, {"t2": 1})
    game = spider.SpiderGame(spec, state)
    pos = game.root
    # The deal gives t1 the Ace: K..A is removed at once.
    assert spider.DEAL in game.steps(pos)
    after = game.play(pos, spider.DEAL)
    _same(spec, game, after, apply(spec, state, game.move(spider.DEAL)))
    assert after[3] == 13 and after[0][0] == (parse_card("4S"),)
    # t2's 5S onto t4's 6S turns up t2's 9S; every other move agrees with the engine too.
    legal = game.steps(pos)
    assert (1, 3, 1) in legal
    assert game.play(pos, (1, 3, 1))[1][1] == 0
    for s in legal:
        _same(spec, game, game.play(pos, s), apply(spec, state, game.move(s)))


def test_key_sorts_columns_only_once_the_stock_is_empty() -> None:
    spec = get_game("spider", {"suits": "1"})
    a = _table(spec, {"t1": ["KS"], "t2": ["QS", "2S"]}, {})
    b = _table(spec, {"t2": ["KS"], "t1": ["QS", "2S"]}, {})
    ga, gb = spider.SpiderGame(spec, a), spider.SpiderGame(spec, b)
    assert ga.key(ga.root) == gb.key(gb.root)
    c = _table(spec, {"t1": ["KS"], "t2": ["QS", "2S"], "stock": ["3S"] * 10}, {})
    e = _table(spec, {"t2": ["KS"], "t1": ["QS", "2S"], "stock": ["3S"] * 10}, {})
    gc, ge = spider.SpiderGame(spec, c), spider.SpiderGame(spec, e)
    assert gc.key(gc.root) != ge.key(ge.root)


def test_spider_gets_the_packed_domain_and_other_games_the_engine() -> None:
    spider_spec = get_game("spider")
    assert isinstance(domain_for(spider_spec, initial_state(spider_spec, 1)), SpiderDomain)
    for game in ("spine", "backbone", "nivernais"):
        spec = get_game(game)
        assert not isinstance(domain_for(spec, initial_state(spec, 1)), SpiderDomain)


def test_plain_children_drop_nothing_unproven() -> None:
    spec = get_game("spider", {"suits": "2"})
    game = spider.SpiderGame(spec, initial_state(spec, 4))
    pos = game.root
    for _ in range(30):
        kids, dropped = game.children(pos, prune=False)
        pairs = list(kids)
        assert not dropped
        assert {m for m, _ in pairs} == set(game.move(s) for s in game.steps(pos))
        pos = pairs[0][1]


@pytest.mark.parametrize(
    ("suits", "deal", "budget"),
    [("1", d, 3000) for d in (1, 6, 9)] + [("2", d, 30_000) for d in (2, 11)] + [("4", 2, 60_000)],
)
def test_wins_replay_through_the_engine(suits: str, deal: int, budget: int) -> None:
    spec = get_game("spider", {"suits": suits})
    state = initial_state(spec, deal)
    r = solve(spec, state, nodes=budget)
    assert r.result == "won"
    assert is_won(spec, replay(spec, state, r.moves))


@settings(max_examples=8, deadline=None)
@given(st.integers(1, 10**6))
def test_every_win_found_replays(deal: int) -> None:
    spec = get_game("spider", {"suits": "1"})
    state = initial_state(spec, deal)
    r = solve(spec, state, nodes=4000)
    assert r.result != "lost"  # a random 1-suit deal is practically always winnable
    if r.result == "won":
        assert is_won(spec, replay(spec, state, r.moves))


def test_a_node_budget_is_kept_and_reproducible() -> None:
    spec = get_game("spider", {"suits": "4"})
    state = initial_state(spec, 5)
    first = solve(spec, state, nodes=5000)
    again = solve(spec, state, nodes=5000)
    assert first.nodes <= 5000
    assert (first.result, first.moves, first.nodes) == (again.result, again.moves, again.nodes)
