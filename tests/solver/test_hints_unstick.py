"""Spider's hint after moves that moved nothing on (``Budget.unstick``): deal from the
stock, first filling the empty columns that keep it from being dealt; and Spider's
playout scores (``hints/playout.py``). Only the player's view is read."""

from __future__ import annotations

from pasyans import caches, hints
from pasyans.domains import spider
from pasyans.engine.core import apply, initial_state, legal_moves
from pasyans.hints import Budget, playout, suggest, unstuck
from pasyans.hints.sampling import known, samples, visible
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec, PileKind


def _emptied(spec: GameSpec, state: State) -> State:
    """``state`` with its first column's cards put face down under the second's: the
    same cards, one empty column, the stock still full."""
    a, b = spec.indexes_of(PileKind.COLUMN)[:2]
    piles = list(state.piles)
    down = list(state.down)
    piles[b] = piles[a] + piles[b]
    down[b] += len(piles[a])
    piles[a] = ()
    down[a] = 0
    return State(tuple(piles), tuple(down), state.redeals)


# Two samples of one node each: no sample is won, so the visible fallback answers.
STARVED = Budget(seconds=None, nodes=2, samples=2, seed=5)


def test_after_standing_still_the_hint_deals_and_reads_nothing_hidden() -> None:
    spec = get_game("spider", {"suits": "1"})
    a = initial_state(spec, 7)
    b = samples(spec, known(spec, a), 1, seed=42)[0]  # the same view, other hidden cards
    assert a != b and visible(spec, a) == visible(spec, b)
    history = [a] * 10  # ten moves that changed no count the player sees
    on = Budget(seconds=None, nodes=2, samples=2, seed=5, unstick=10)
    out = []
    for s in (a, b):
        caches.clear()
        out.append(suggest(spec, s, history=[s] * 10, budget=on))
    assert out[0] == out[1]
    assert out[0].source == "unstick" and out[0].move is not None and out[0].move.dst is None
    assert out[0].message_ru
    # Not before the tenth such move, and never without the option.
    caches.clear()
    assert suggest(spec, a, history=history[:9], budget=on).source != "unstick"
    caches.clear()
    assert suggest(spec, a, history=history, budget=STARVED).source != "unstick"


def test_an_empty_column_is_filled_before_the_deal() -> None:
    spec = get_game("spider", {"suits": "1"})
    state = _emptied(spec, initial_state(spec, 3))
    view = visible(spec, state)
    moves = legal_moves(spec, view)
    assert all(m.dst is not None for m in moves)  # the empty column blocks the deal
    move = unstuck(spec, view, [])
    assert move is not None and move.dst == spec.piles[spec.indexes_of(PileKind.COLUMN)[0]].id
    after = apply(spec, view, move)
    assert any(m.dst is None for m in legal_moves(spec, after))  # now the stock deals
    assert unstuck(spec, after, []) == next(m for m in legal_moves(spec, after) if m.dst is None)
    # Never back to a position already played.
    assert unstuck(spec, view, [after]) != move
    # Stock spent: nothing to unstick.
    stock = spec.index["stock"]
    piles = list(view.piles)
    piles[stock] = ()
    assert unstuck(spec, State(tuple(piles), view.down, view.redeals), []) is None


def test_spider_playout_scores_read_only_the_view_and_rank_a_win_first() -> None:
    spec = get_game("spider", {"suits": "1"})
    a = initial_state(spec, 2)
    view = known(spec, a)
    b = samples(spec, view, 1, seed=9)[0]
    assert known(spec, b) == view
    states = samples(spec, view, 3, seed=1)
    caches.clear()
    one = playout.scores(spec, view, states, nodes=200)
    caches.clear()
    assert playout.scores(spec, known(spec, b), states, nodes=200) == one  # reproducible
    assert {m for m, _ in one} == set(legal_moves(spec, view))
    # Each score is minus the distance the staged search got to, or a win's score.
    game = spider.SpiderGame(spec, states[0])
    pos = game.root
    assert playout.spider_reach(game, pos, 1) == -pos[4]  # only the start: its distance
    assert playout.spider_reach(game, pos, 200) >= -pos[4]
    easy = spider.SpiderGame(spec, initial_state(spec, 2))
    assert spider.staged(easy, nodes=20_000, seconds=None, prune=True).status == "won"
    assert playout.spider_reach(easy, easy.root, 20_000) == playout.SPIDER_WON


def test_the_product_hint_unsticks_spider_one_suit_only() -> None:
    one = get_game("spider", {"suits": "1"})
    assert hints.product_budget(one, 0.25).unstick == hints.UNSTICK_HINTS[("spider", 1)] == 10
    for suits in ("2", "4"):
        assert hints.product_budget(get_game("spider", {"suits": suits}), 0.25).unstick == 0
    # The server's path (no budget given, a time cap; the node budget ends it first):
    # deal 7004's start, where no sample is won within 250 nodes, after standing still.
    state = initial_state(one, 7004)
    caches.clear()
    assert suggest(one, state, seconds=0.25, history=[state] * 9).source == "heuristic"
    caches.clear()
    hint = suggest(one, state, seconds=0.25, history=[state] * 10)
    assert hint.source == "unstick" and hint.move is not None and hint.move.dst is None
