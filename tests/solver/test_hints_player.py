"""The no-peek player (issue 34): candidate lines end at the first event and move only
face-up cards; the policy playouts read no hidden card; the compiled playouts agree with
the Python reference; the hint and the estimate read only the player's view."""

from __future__ import annotations

import random

import pytest

from pasyans import caches
from pasyans.domains import _core_abi as abi
from pasyans.domains import spider
from pasyans.domains.spider import DEAL, SpiderGame
from pasyans.engine.core import apply, initial_state
from pasyans.hints import Budget, estimate, player, suggest
from pasyans.hints.follow import follow
from pasyans.hints.sampling import known, samples, visible
from pasyans.rules import get_game


@pytest.mark.parametrize("suits", ["1", "2", "4"])
def test_candidates_end_at_their_first_event_and_are_distinct(suits: str) -> None:
    spec = get_game("spider", {"suits": suits})
    for deal in (3, 4, 5827301):
        game = SpiderGame(spec, known(spec, initial_state(spec, deal)))
        root = game.root
        cands = player.candidates(game, cap=200, width=64)
        assert cands
        ends = set()
        for c in cands:
            pos = root
            for st in c.steps:  # the line before the event reveals and commits nothing
                assert st != DEAL and st in game.steps(pos)
                after = game.play(pos, st)
                assert sum(after[1]) == sum(pos[1]) and after[3] == pos[3]
                pos = after
            assert pos == c.before and c.event in game.steps(pos)
            end = game.play(pos, c.event)
            assert c.event == DEAL or sum(end[1]) < sum(pos[1]) or end[3] > pos[3]
            ends.add(end[:4])
        assert len(ends) == len(cands)  # grouped: each event's result once


def test_candidates_are_bounded_and_never_go_back() -> None:
    spec = get_game("spider", {"suits": "2"})
    game = SpiderGame(spec, known(spec, initial_state(spec, 8)))
    root = game.root
    first = game.play(root, game.steps(root)[0])
    avoid = {(first[0], first[1])}
    assert len(player.candidates(game, cap=200, width=3)) <= 3
    for c in player.candidates(game, cap=200, avoid=avoid, width=64):
        pos = root
        for st in c.line:
            pos = game.play(pos, st)
            assert (pos[0], pos[1]) not in avoid


def test_a_playout_reads_no_hidden_card() -> None:
    """Two samples that differ only in cards the playout never turns up score alike:
    the policy's choices depend on face-up cards alone, so the cards it never reached
    (face-down at its end, still in the stock) cannot change them."""
    spec = get_game("spider", {"suits": "4"})
    state = initial_state(spec, 11)
    game = SpiderGame(spec, state)
    for seed in range(6):
        end, steps = player._walk(game.stock, game.root, seed, spider.WON, 60)
        # Swap two cards that stayed face down at the end, in the start position.
        cols = [list(c) for c in game.root[0]]
        hidden = [(j, k) for j, d in enumerate(end[1]) for k in range(d)]
        (a, b), (c, d) = hidden[0], hidden[-1]
        if cols[a][b] == cols[c][d]:
            continue
        cols[a][b], cols[c][d] = cols[c][d], cols[a][b]
        other = (tuple(tuple(x) for x in cols), *game.root[1:])
        _, steps2 = player._walk(game.stock, other, seed, spider.WON, 60)
        assert steps2 == steps


def _felt_compiled(stock: tuple[int, ...], pos: spider.Pos, seed: int, won: int, limit: int) -> int:
    from pasyans.domains import _core

    return _core.spider_rollout(stock, pos[:4], won, seed, limit)


@pytest.mark.parametrize("suits", ["1", "2", "4"])
@pytest.mark.parametrize("felt", [False, True])
def test_the_compiled_playout_agrees_with_the_reference(suits: str, felt: bool) -> None:
    """Along random playouts (random positions reached by random legal moves), the C
    playout and the Python reference give the same score under the same seed: the
    player's policy (``spider_playout``) and generator version 4's felt player's, kept
    unchanged (``spider_rollout``, :func:`player.felt_rollout`)."""
    spec = get_game("spider", {"suits": suits})
    rng = random.Random(int(suits))
    reference = player.felt_rollout if felt else player.rollout
    compiled = _felt_compiled if felt else player.play
    for deal in (1, 2):
        game = SpiderGame(spec, initial_state(spec, deal))
        pos = game.root
        for step in range(4):
            for seed in (step, 2**63 + 17 * step):
                ref = reference(game.stock, pos, seed, won=spider.WON, limit=200)
                assert compiled(game.stock, pos, seed, spider.WON, 200) == ref
            for _ in range(15):
                steps = game.steps(pos)
                if not steps:
                    break
                pos = game.play(pos, rng.choice(steps))


POLICY = ("PL_DOWN", "PL_DIRTY", "PL_EMPTY", "PL_INSUIT", "PL_OFFSUIT", "PL_BREAK", "PL_RUN")


def test_a_playout_takes_other_weights_as_the_reference_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``spider_playout``'s ``weights`` (benchmarks/policy_fit.py) play as the Python
    reference with those weights in place of ``PL_*``; none, or ``PL_*`` themselves, play
    as the default; the default comes back after a call; bad weights are refused."""
    from pasyans.domains import _core

    spec = get_game("spider", {"suits": "4"})
    default = tuple(getattr(abi, k) for k in POLICY)
    other = (7, 30, 2, 9, 1, 20, 40)
    rng = random.Random(5)
    game = SpiderGame(spec, initial_state(spec, 3))
    pos = game.root
    differs = 0
    for step in range(4):
        args = (game.stock, pos[:4], spider.WON, 11 + step, 200, 0, 0)
        plain = _core.spider_playout(*args)
        assert _core.spider_playout(*args, default) == plain
        weighed = _core.spider_playout(*args, other)
        assert _core.spider_playout(*args) == plain
        with monkeypatch.context() as m:
            for k, v in zip(POLICY, other, strict=True):
                m.setattr(abi, k, v)
            assert player.rollout(game.stock, pos, 11 + step, won=spider.WON, limit=200) == weighed
        differs += weighed != plain
        for _ in range(10):
            steps = game.steps(pos)
            if steps:
                pos = game.play(pos, rng.choice(steps))
    assert differs > 0
    for bad in ((1, 2, 3), (1, 2, 3, 4, 5, 6, 10_000), ("a",) * 7):
        with pytest.raises((ValueError, TypeError)):
            _core.spider_playout(game.stock, pos[:4], spider.WON, 1, 200, 0, 0, bad)


@pytest.mark.parametrize("suits", ["1", "2", "4"])
def test_the_compiled_searching_playout_agrees_with_the_reference(suits: str) -> None:
    """The searching policy (``pl_search``) and its Python reference (:func:`player.
    search_rollout`) give the same score along random playouts, under the same seed, at
    two caps and two bonuses; and it is another policy than the greedy one somewhere."""
    spec = get_game("spider", {"suits": suits})
    rng = random.Random(10 + int(suits))
    differs = 0
    for deal in (1, 2):
        game = SpiderGame(spec, initial_state(spec, deal))
        pos = game.root
        for step in range(3):
            for seed, cap, bonus in ((step, 20, 10), (2**63 + 17 * step, 5, 0)):
                ref = player.search_rollout(
                    game.stock, pos, seed, won=spider.WON, cap=cap, bonus=bonus, limit=150
                )
                fast = player.play(game.stock, pos, seed, spider.WON, 150, cap=cap, bonus=bonus)
                assert fast == ref
                differs += ref != player.rollout(game.stock, pos, seed, won=spider.WON, limit=150)
            for _ in range(12):
                steps = game.steps(pos)
                if not steps:
                    break
                pos = game.play(pos, rng.choice(steps))
    assert differs > 0


def _first_reveal(game: SpiderGame, pos: spider.Pos, steps: list[spider.Step]) -> tuple[int, int]:
    """The index of the first step that turns a card up, and that card's place in its
    column (its column index times 1000 plus its row)."""
    for k, st in enumerate(steps):
        after = game.play(pos, st)
        if st != DEAL:
            i = st[0]
            if after[1][i] < pos[1][i]:
                return k, i * 1000 + after[1][i]
        pos = after
    raise AssertionError("no card turned up")


@pytest.mark.parametrize("suits", ["2", "4"])
def test_a_searching_playout_reads_no_hidden_card(suits: str) -> None:
    """Two samples that differ only in a card not yet reached give the same moves up to
    and including the move that first turns it up: the searching policy chooses the line
    to a reveal without the card under it. And swapping two cards that stay face down to
    the end (and the stock's last cards, never dealt) changes nothing at all."""
    spec = get_game("spider", {"suits": suits})
    checked = 0
    for deal in (11, 12):
        game = SpiderGame(spec, initial_state(spec, deal))
        root = game.root
        for seed in range(3):
            end, steps = player._search_walk(game.stock, root, seed, spider.WON, 80, 20, 10)
            k, place = _first_reveal(game, root, steps)
            a, b = divmod(place, 1000)
            cols = [list(c) for c in root[0]]
            # Another face-down card of another value, swapped with the one turned up.
            other = next(
                (j, r)
                for j, d in enumerate(root[1])
                for r in range(d)
                if (j, r) != (a, b) and cols[j][r] != cols[a][b]
            )
            cols[a][b], cols[other[0]][other[1]] = cols[other[0]][other[1]], cols[a][b]
            swapped = (tuple(tuple(c) for c in cols), *root[1:])
            _, steps2 = player._search_walk(game.stock, swapped, seed, spider.WON, 80, 20, 10)
            assert steps2[: k + 1] == steps[: k + 1]
            # Cards face down at the end and the stock's undealt cards: the same playout.
            cols = [list(c) for c in root[0]]
            hidden = [(j, r) for j, d in enumerate(end[1]) for r in range(d)]
            (x1, y1), (x2, y2) = hidden[0], hidden[-1]
            cols[x1][y1], cols[x2][y2] = cols[x2][y2], cols[x1][y1]
            same = (tuple(tuple(c) for c in cols), *root[1:])
            stock = list(game.stock)
            if end[2] >= 2:
                stock[0], stock[1] = stock[1], stock[0]  # dealt last (popped from the end)
            _, steps3 = player._search_walk(tuple(stock), same, seed, spider.WON, 80, 20, 10)
            assert steps3 == steps
            checked += 1
    assert checked == 6


@pytest.mark.parametrize(("method", "playouts"), [("rollout", 24), ("search", 12)])
def test_compiled_and_python_decisions_agree(
    monkeypatch: pytest.MonkeyPatch, method: str, playouts: int
) -> None:
    """The same candidates and the same scores, compiled or not (fixed seed, small
    budget), by the greedy policy's playouts and by the searching policy's."""
    spec = get_game("spider", {"suits": "2"})
    view = known(spec, initial_state(spec, 5827301))
    fast = player.decide(spec, view, playouts=playouts, seed=3, method=method)
    monkeypatch.setattr(player, "compiled", None)
    slow = player.decide(spec, view, playouts=playouts, seed=3, method=method)
    assert fast is not None and fast == slow and fast.method == method
    assert sum(n for _, n in fast.scores) >= playouts // 2


def test_the_hint_and_estimate_read_only_the_view() -> None:
    budget = Budget(seconds=None, nodes=2000, samples=8, player=24, seed=2)
    for suits in ("2", "4"):
        spec = get_game("spider", {"suits": suits})
        a = initial_state(spec, 6)
        b = samples(spec, known(spec, a), 1, seed=9)[0]  # same view, other hidden cards
        assert a != b and visible(spec, a) == visible(spec, b)
        out = []
        for s in (a, b):
            caches.clear()
            out.append((suggest(spec, s, budget=budget), estimate(spec, s, budget)))
        assert out[0] == out[1] and out[0][0].source == "player"
        e = out[0][1]
        assert e is not None and e.method == "rollout" and e.samples > 0
        m = out[0][0].move
        assert m is not None
        a2, b2 = apply(spec, a, m), apply(spec, b, m)
        if visible(spec, a2) == visible(spec, b2):
            caches.clear()
            x = suggest(spec, a2, history=[a], budget=budget)
            caches.clear()
            assert x == suggest(spec, b2, history=[b], budget=budget)


def test_following_the_line_costs_no_new_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = get_game("spider", {"suits": "4"})
    budget = Budget(seconds=None, nodes=2000, samples=8, player=24)
    state = initial_state(spec, 5827302)
    caches.clear()
    first = suggest(spec, state, budget=budget)
    assert first.move is not None
    calls: list[int] = []
    real = player.decide
    monkeypatch.setattr(player, "decide", lambda *a, **k: calls.append(1) or real(*a, **k))
    assert suggest(spec, state, budget=budget) == first
    assert calls == []


@pytest.mark.parametrize("method", ["determinized", "epimc"])
def test_the_other_methods_decide_too(method: str) -> None:
    spec = get_game("spider", {"suits": "2"})
    view = known(spec, initial_state(spec, 12))
    d = player.decide(spec, view, playouts=8, seed=1, method=method, nodes=200)
    assert d is not None and d.method == method
    assert all(n > 0 for _, n in d.scores)
    with pytest.raises(ValueError, match="unknown method"):
        player.decide(spec, view, playouts=8, method="peek")


@pytest.mark.parametrize(("player_nodes", "searched"), [(0, 2000), (300, 300)])
def test_the_players_searches_take_their_own_nodes(
    monkeypatch: pytest.MonkeyPatch, player_nodes: int, searched: int
) -> None:
    spec = get_game("spider", {"suits": "2"})
    budget = Budget(
        seconds=None,
        nodes=2000,
        samples=8,
        player=8,
        method="determinized",
        player_nodes=player_nodes,
    )
    seen: list[int] = []
    real = player.decide
    monkeypatch.setattr(player, "decide", lambda *a, **k: seen.append(k["nodes"]) or real(*a, **k))
    caches.clear()
    assert suggest(spec, initial_state(spec, 12), budget=budget).move is not None
    assert seen == [searched]


def test_the_follower_is_reproducible_with_the_player() -> None:
    budget = Budget(seconds=None, nodes=2000, samples=8, player=16)
    a = follow("spider", {"suits": "2"}, 5827303, budget, max_moves=60)
    b = follow("spider", {"suits": "2"}, 5827303, budget, max_moves=60)
    assert (a.won, a.moves, a.cards, a.sources) == (b.won, b.moves, b.cards, b.sources)
    assert dict(a.sources).get("player", 0) > 0


def _evaluation(pos: spider.Pos) -> int:
    """The policy's evaluation of a whole position (module player's weights)."""
    cols, down = pos[0], pos[1]
    return sum(player._value(c, len(c), d) for c, d in zip(cols, down, strict=True)) + (
        abi.PL_RUN * (pos[3] // 13)
    )


@pytest.mark.parametrize("suits", ["1", "2", "4"])
def test_a_moves_gain_is_the_evaluations_difference(suits: str) -> None:
    """For every legal move along random playouts, the policy's gain (read from face-up
    cards only) is exactly the evaluation after the move minus before, cards turned up
    and completed runs included; so the policy's playout never comes back to a position."""
    spec = get_game("spider", {"suits": suits})
    rng = random.Random(7)
    checked = 0
    for deal in (3, 4):
        game = SpiderGame(spec, initial_state(spec, deal))
        pos = game.root
        for _ in range(120):
            steps = game.steps(pos)
            if not steps:
                break
            for st in steps:
                if st == DEAL:
                    continue
                after = game.play(pos, st)
                g, event = player.gain(pos, st)
                assert g == _evaluation(after) - _evaluation(pos)
                assert event == (sum(after[1]) < sum(pos[1]) or after[3] > pos[3])
                checked += 1
            pos = game.play(pos, rng.choice(steps))
    assert checked > 500


def test_the_estimate_comes_from_the_hints_samples_where_the_player_rescues() -> None:
    """With ``rescue``, the estimate is the samples' tally where a sample is won (as the
    hint, which then is not the player's) and the player's playouts where none is; the
    server's Winnable? uses the hint's budget where the product's hint uses the player."""
    from pasyans.hints.policy import PLAYER_HINTS, product_budget
    from pasyans.hints.sampled import sampled
    from pasyans.server.games.solving import _estimate_budget

    spec = get_game("spider", {"suits": "2"})
    budget = Budget(seconds=None, nodes=2000, samples=8, player=24, rescue=True, seed=2)
    state = initial_state(spec, 6)
    caches.clear()
    tally = sampled(spec, known(spec, state), budget)
    e = estimate(spec, state, budget)
    h = suggest(spec, state, budget=budget)
    assert e is not None
    if tally.won:
        assert (e.won, e.samples, e.method) == (tally.won, tally.samples, "determinized")
        assert h.source != "player"
    else:
        assert e.method == "rollout" and h.source == "player"
    four = get_game("spider", {"suits": "4"})
    assert ("spider", 4) in PLAYER_HINTS
    assert _estimate_budget(four, 0.2) == product_budget(four, 0.2)
    assert _estimate_budget(spec, 0.2) == Budget(seconds=0.2)


def test_a_decision_past_its_deadline_stops_after_one_sample() -> None:
    """The server's hint has a time cap: past the deadline the player starts no sample
    after the first, so every candidate is scored on that one sample alone; without a
    deadline it plays about the playouts asked for."""
    spec = get_game("spider", {"suits": "4"})
    view = known(spec, initial_state(spec, 5827301))
    late = player.decide(spec, view, playouts=256, seed=3, deadline=0.0)
    free = player.decide(spec, view, playouts=256, seed=3)
    assert late is not None and free is not None
    assert all(n == 1 for _, n in late.scores)
    assert sum(n for _, n in free.scores) >= 256 // 2


@pytest.mark.parametrize("rescue", [False, True])
def test_the_player_keeps_the_hints_one_deadline(
    monkeypatch: pytest.MonkeyPatch, rescue: bool
) -> None:
    """The player is handed the deadline set when the hint began (``Clock``), not one
    counted from when it is asked (after the macro planner or the samples' tally), so
    the whole hint stays within its seconds."""
    import time

    from pasyans.hints import Clock

    spec = get_game("spider", {"suits": "4"})
    state = initial_state(spec, 5827301)
    budget = Budget(seconds=5.0, nodes=2000, samples=8, player=24, rescue=rescue, macro=4)
    seen: list[float | None] = []
    real = player.hint

    def spy(*args: object, **kw: object) -> object:
        deadline = kw["deadline"]
        assert deadline is None or isinstance(deadline, float)
        seen.append(deadline)
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(player, "hint", spy)
    caches.clear()
    begun = time.perf_counter()
    suggest(spec, state, budget=budget)
    assert seen and all(d is not None and begun <= d - 5.0 <= begun + 0.05 for d in seen)
    assert Clock.start(None).in_time() and Clock.start(None).left() is None
    assert not Clock.start(0.0).in_time() and Clock.start(0.0).left() == 0.0
    left = Clock.start(60.0).left()
    assert left is not None and 59.0 < left <= 60.0
