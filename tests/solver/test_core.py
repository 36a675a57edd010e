"""The compiled core (csrc/) against the Python reference (domains/spider.py): the same
moves in the same order, the same positions, the same searches, and wins that replay."""

from __future__ import annotations

import subprocess
import sys
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pasyans.cards import SplitMix64, parse_card
from pasyans.domains import spider
from pasyans.engine.core import initial_state, is_won
from pasyans.position import State, Table
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec
from pasyans.solver.search import replay, solve


def test_the_compiled_core_is_built() -> None:
    """CI runs on the compiled core: a missing build fails here instead of slowing down."""
    from pasyans.domains import _core

    assert spider.compiled is _core


def _packed(pos: spider.Pos) -> tuple[object, ...]:
    return pos[:4]


def _walk(
    suits: str, deal: int, greed: int, steps: int
) -> list[tuple[spider.SpiderGame, spider.Pos]]:
    """Positions along a random playout (biased to join in suit, so runs complete)."""
    spec = get_game("spider", {"suits": suits})
    game = spider.SpiderGame(spec, initial_state(spec, deal))
    rng = SplitMix64(deal * 31 + greed)
    pos = game.root
    out = [(game, pos)]
    for _ in range(steps):
        moves = game.steps(pos)
        if not moves:
            break
        cols = pos[0]
        joins = [
            s for s in moves if s[2] and cols[s[1]] and cols[s[1]][-1] - cols[s[0]][-s[2]] == 4
        ]
        if joins and rng.below(100) < greed:
            step = joins[rng.below(len(joins))]
        elif spider.DEAL in moves and rng.below(8) == 0:
            step = spider.DEAL
        else:
            step = moves[rng.below(len(moves))]
        pos = game.play(pos, step)
        out.append((game, pos))
    return out


@settings(max_examples=25, deadline=None)
@given(suits=st.sampled_from(["1", "2", "4"]), deal=st.integers(1, 10**6), greed=st.integers(0, 95))
def test_moves_positions_and_keys_equal_the_references_along_random_playouts(
    suits: str, deal: int, greed: int
) -> None:
    assert spider.compiled is not None
    core = spider.compiled
    keys: dict[object, int] = {}
    hashes: dict[int, object] = {}
    for game, pos in _walk(suits, deal, greed, 200):
        stock, packed = game.stock, _packed(pos)
        steps = game.steps(pos)
        assert core.spider_steps(stock, packed) == steps
        for prune in (False, True):
            assert core.spider_children(stock, packed, prune) == tuple(
                game.child_steps(pos, prune=prune)
            )
        assert core.spider_distance(stock, packed, game.weights) == pos[4]
        assert core.spider_distance(stock, packed) == spider.distance(*pos[:4], spider.V1)
        for s in steps:
            assert core.spider_play(stock, packed, s) == _packed(game.play(pos, s))
        # Equal keys, equal hashes (and, short of a 64-bit collision, the reverse).
        key, h = game.key(pos), core.spider_hash(stock, packed)
        assert keys.setdefault(key, h) == h
        assert hashes.setdefault(h, key) == key


def test_the_playouts_reach_deals_turned_cards_and_completed_runs() -> None:
    seen = {"deal": False, "complete": False, "flip": False}
    for suits, deal, greed in [("1", 3, 90), ("1", 8, 95), ("2", 5, 90), ("4", 4, 50)]:
        walk = _walk(suits, deal, greed, 200)
        for (_, a), (_, b) in pairwise(walk):
            seen["deal"] |= b[2] < a[2]
            seen["complete"] |= b[3] > a[3]
            seen["flip"] |= sum(b[1]) < sum(a[1]) and b[2] == a[2]
        test_moves_positions_and_keys_equal_the_references_along_random_playouts.hypothesis.inner_test(  # type: ignore[attr-defined]
            suits=suits, deal=deal, greed=greed
        )
    assert all(seen.values()), seen


@pytest.mark.parametrize(
    ("suits", "deal", "budget", "prune"),
    [("1", 1, 2000, True), ("1", 7, 2000, False), ("2", 3, 4000, True), ("2", 5, 3000, False)]
    + [("4", d, 4000, True) for d in (1, 2, 6)],
)
def test_the_compiled_search_is_the_reference_search(
    suits: str, deal: int, budget: int, prune: bool
) -> None:
    """Same positions expanded in the same order: same verdict, count and line."""
    spec = get_game("spider", {"suits": suits})
    game = spider.SpiderGame(spec, initial_state(spec, deal))
    python = spider.staged(game, nodes=budget, seconds=None, prune=prune, use_compiled=False)
    c = spider.staged(game, nodes=budget, seconds=None, prune=prune, use_compiled=True)
    assert c == python
    if c.status == "won":
        moves = [game.move(s) for s in c.line]
        assert is_won(spec, replay(spec, initial_state(spec, deal), moves))


def _after_four_deals(deal: int, weights: spider.Weights | None = None) -> spider.SpiderGame:
    """A 4-suit deal with four rows dealt at once: two stages left, so a search reaches
    the attempts past (16,000, 16) within a few tens of thousands of positions."""
    spec = get_game("spider", {"suits": "4"})
    game = spider.SpiderGame(spec, initial_state(spec, deal))
    pos = game.root
    for _ in range(4):
        pos = game.play(pos, spider.DEAL)
    return spider.SpiderGame(spec, game.state(pos), weights)


def test_the_compiled_search_is_the_reference_past_16000(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past (16,000, 16) the seeds are chosen by distance and shape (``_keep_by_shape``)
    and each size is tried twice, the second time by the second evaluation: the compiled
    search expands the same positions as the reference there too, and the reference did
    get there (it queued candidates again, and ran an attempt by the second evaluation)."""
    requeued = []
    attempts = []
    keep, evaluation = spider._keep_by_shape, spider.evaluation

    def spy(*args: object, **kw: int) -> int:
        tick = keep(*args, **kw)  # type: ignore[arg-type]
        requeued.append(tick - args[-1])  # type: ignore[operator]
        return tick

    def spy_evaluation(a: int) -> tuple[int, bool]:
        attempts.append(evaluation(a))
        return attempts[-1]

    monkeypatch.setattr(spider, "_keep_by_shape", spy)
    monkeypatch.setattr(spider, "evaluation", spy_evaluation)
    game = _after_four_deals(1)
    python = spider.staged(game, nodes=40000, seconds=None, prune=True, use_compiled=False)
    assert requeued and sum(requeued) > 0
    assert (spider.COARSE + 1, True) in attempts
    c = spider.staged(game, nodes=40000, seconds=None, prune=True, use_compiled=True)
    assert c == python


ODD_WEIGHTS = spider.Weights(5, 7, 2, 3, 11, 6, 9, 4, 3, 5)
"""Weights unlike V1's in every term (a completed run's bonus and a buried column's cost
included), for the tests that the compiled search reads each one as the reference does."""


def test_the_compiled_search_is_the_reference_with_other_weights() -> None:
    """Every weight reaches both searches alike: the same positions in the same order past
    (16,000, 16) (the second evaluation and the shape weight in use), and another order
    than V1's."""
    game = _after_four_deals(2, ODD_WEIGHTS)
    assert game.weights == ODD_WEIGHTS
    python = spider.staged(game, nodes=40000, seconds=None, prune=True, use_compiled=False)
    c = spider.staged(game, nodes=40000, seconds=None, prune=True, use_compiled=True)
    assert c == python
    v1 = spider.staged(_after_four_deals(2, spider.V1), nodes=40000, seconds=None, prune=True)
    assert (v1.line, v1.positions) != (c.line, c.positions)


@pytest.mark.parametrize(("suits", "deal", "greed"), [("1", 8, 95), ("4", 4, 50)])
def test_the_distance_by_other_weights_is_kept_along_playouts(
    suits: str, deal: int, greed: int
) -> None:
    """A position's distance, kept move by move by ``play``, is the distance computed
    from scratch by the same weights, through deals and completed runs (the playouts of
    test_the_playouts_reach_deals_turned_cards_and_completed_runs)."""
    for game, pos in _walk(suits, deal, greed, 200):
        weighted = spider.SpiderGame(game.spec, game.state(pos), ODD_WEIGHTS)
        root = weighted.root
        for s in weighted.steps(root):
            t = weighted.play(root, s)
            assert t[4] == spider.distance(t[0], t[1], t[2], t[3], ODD_WEIGHTS)


def test_weights_out_of_range_are_refused() -> None:
    assert spider.compiled is not None
    game = _after_four_deals(1)
    cols, down, left, done, _ = game.root
    args = (game.stock, (cols, down, left, done), spider.WON, 10, 0.0, spider.MEMORY, True)
    with pytest.raises(ValueError, match="10 ints"):
        spider.compiled.spider_search(*args, weights=(1, 2, 3))
    with pytest.raises(ValueError, match=r"0\.\.64"):
        spider.compiled.spider_search(*args, weights=(-1,) * 10)


def test_seeds_spread_over_shapes() -> None:
    """Each seed already kept of a shape costs its other candidates SHAPE: a candidate of
    another shape, farther by less than SHAPE, comes before the second of the first
    shape; with nothing else left, the same shape is kept again."""
    down_a, down_b = (1, 1), (0, 1)
    cols: spider.Cols = ((), ())
    pos: list[spider.Pos] = [(cols, down_a, 10, 0, 0), (cols, down_b, 10, 0, 0)]
    parent = [0, 0, 0, 0, 0, 1]
    dist = [0, 0, 10, 11, 12, 13]
    pos += [pos[0]] * 4
    nexts = [(dist[c], tick, c) for tick, c in enumerate((2, 3, 4, 5))]
    seeds: list[int] = []
    seen = [-1] * 6
    tick = spider._keep_by_shape(nexts, seeds, 3, seen, 7, dist, pos, parent, 4)
    assert spider.SHAPE == 4
    assert seeds == [2, 5, 3]  # 13 < 11 + 4; then 11 + 4 < 12 + 4
    assert tick == 6  # 3 and 4 queued again once each
    assert [seen[c] for c in seeds] == [7, 7, 7]
    assert [c for _, _, c in nexts] == [4]


def test_both_searches_answer_won_and_unknown() -> None:
    """The cases above are not all of one kind."""
    spec = get_game("spider", {"suits": "4"})
    answers = {
        spider.staged(
            spider.SpiderGame(spec, initial_state(spec, d)), nodes=4000, seconds=None, prune=True
        ).status
        for d in (1, 2, 6)
    }
    assert answers == {"won", "unknown"}


def _table(spec: GameSpec, piles: dict[str, list[str]], down: dict[str, int]) -> State:
    t = Table.empty(len(spec.piles))
    for pid, codes in piles.items():
        t.piles[spec.index[pid]] = tuple(parse_card(c) for c in codes)
    for pid, n in down.items():
        t.down[spec.index[pid]] = n
    return t.freeze()


def _end_game(tops: str) -> State:
    """Two suits left (hearts and spades), the stock empty, the other six runs done; each
    column shows one of ``tops`` (rank letters) over face-down cards."""
    spec = get_game("spider", {"suits": "2"})
    rest = [r + s for s in "HS" for r in "A23456789TJQK"]
    shown = []
    for r in tops:
        card = next(c for c in rest if c[0] == r and c not in shown)
        shown.append(card)
    hidden = [c for c in rest if c not in shown]
    piles: dict[str, list[str]] = {}
    down: dict[str, int] = {}
    for i, top in enumerate(shown):
        under = hidden[i::10]
        piles[f"t{i + 1}"] = [*under, top]
        down[f"t{i + 1}"] = len(under)
    done = [r + s for s in "HSHSHS" for r in "KQJT98765432A"]
    piles["done"] = done
    return _table(spec, piles, down)


def test_a_position_without_a_move_is_proven_lost_by_both() -> None:
    spec = get_game("spider", {"suits": "2"})
    state = _end_game("KKJJ997755")
    for use in (True, False):
        game = spider.SpiderGame(spec, state)
        outcome, moves, _, _ = spider.solve(game, seconds=None, nodes=1000, use_compiled=use)
        assert (outcome, moves) == ("lost", ())


def test_an_end_game_with_moves_is_decided_alike_and_its_win_replays() -> None:
    spec = get_game("spider", {"suits": "2"})
    state = _end_game("KQJT987654")
    game = spider.SpiderGame(spec, state)
    c = spider.solve(game, seconds=None, nodes=50_000, use_compiled=True)
    python = spider.solve(game, seconds=None, nodes=50_000, use_compiled=False)
    assert c == python
    assert c[0] == "won"
    assert is_won(spec, replay(spec, state, c[1]))


@pytest.mark.parametrize(("suits", "deals"), [("1", range(1, 9)), ("2", range(1, 7))])
def test_wins_of_the_compiled_search_replay_through_the_engine(suits: str, deals: range) -> None:
    spec = get_game("spider", {"suits": suits})
    for deal in deals:
        state = initial_state(spec, deal)
        r = solve(spec, state, nodes=50_000)
        assert r.result == "won"
        assert is_won(spec, replay(spec, state, r.moves))


def test_the_library_imports_and_solves_without_the_compiled_core() -> None:
    code = (
        "import sys; sys.modules['pasyans.domains._core'] = None\n"
        "from pasyans.rules import get_game\n"
        "from pasyans.engine.core import initial_state\n"
        "from pasyans.domains import spider\n"
        "from pasyans.solver.search import solve\n"
        "assert spider.compiled is None\n"
        "spec = get_game('spider', {'suits': '1'})\n"
        "print(solve(spec, initial_state(spec, 1), nodes=3000).result)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "won"


def test_an_empty_budget_searches_nothing_in_c_and_in_python() -> None:
    spec = get_game("spider", {"suits": "1"})
    game = spider.SpiderGame(spec, initial_state(spec, 1))
    for use in (True, False):
        assert spider.staged(game, nodes=0, seconds=None, prune=True, use_compiled=use).nodes == 0
        assert spider.staged(game, nodes=None, seconds=0, prune=True, use_compiled=use).nodes == 0


def test_bad_input_to_the_core_is_a_clear_error() -> None:
    core = spider.compiled
    assert core is not None
    spec = get_game("spider", {"suits": "1"})
    game = spider.SpiderGame(spec, initial_state(spec, 1))
    cols, down, left, done, _ = game.root
    with pytest.raises(ValueError):
        core.spider_steps(game.stock, ((*cols[:-1], (60,)), down, left, done))
    with pytest.raises(ValueError):
        core.spider_steps(game.stock, (cols, down, left + 1, done))
    with pytest.raises(ValueError):
        core.spider_play(game.stock, (cols, down, left, done), (0, 1, 9))
    with pytest.raises(TypeError):
        core.spider_steps(game.stock, (list(cols), down, left, done))


def test_the_attempts_grow_alike_in_c_and_in_python() -> None:
    from itertools import pairwise

    from pasyans.domains import _core

    sizes = [spider.attempt(k) for k in range(30)]
    assert [_core.spider_attempt(k) for k in range(30)] == sizes
    assert sizes[:5] == [(100, 1), (250, 2), (1000, 4), (4000, 8), (16000, 16)]
    assert all(a[0] < b[0] and a[1] < b[1] for a, b in pairwise(sizes))
