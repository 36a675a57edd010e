"""The no-peek player's compiled candidates and sampler draws (issue 34, "Compiled") agree
with their Python references: the same candidate lines in the same order (steps, event,
position before the event) along random playouts of 1, 2 and 4 suits, with the positions
played before avoided, empty columns and an empty stock among them; the same draws of the
hidden cards under the same seeds; and a whole decision is the same either way."""

from __future__ import annotations

import random

import pytest

from pasyans.domains import _core_abi as abi
from pasyans.domains.spider import DEAL, SpiderGame
from pasyans.engine import core
from pasyans.hints import player, sampling
from pasyans.hints.macro import score as view_score
from pasyans.hints.sampled import _packed
from pasyans.hints.sampling import HIDDEN, known
from pasyans.position import State
from pasyans.rules import get_game

_core = pytest.importorskip("pasyans.domains._core")


def _walk(suits: str, deal: int, seed: int, moves: int) -> list[tuple[State, list[State]]]:
    """The positions of a random playout (the deal chosen more often than other moves, so
    the stock runs out) with the positions played before each."""
    spec = get_game("spider", {"suits": suits})
    rng = random.Random(seed)
    state = core.initial_state(spec, deal)
    out: list[tuple[State, list[State]]] = []
    history: list[State] = []
    for _ in range(moves):
        legal = core.legal_moves(spec, state)
        if not legal:
            break
        out.append((state, list(history)))
        deal_move = [m for m in legal if m.dst is None]
        move = deal_move[0] if deal_move and rng.random() < 0.12 else rng.choice(legal)
        history.append(state)
        state = core.apply(spec, state, move)
    return out


def _policy(suits: str, deal: int, seed: int, moves: int) -> list[tuple[State, list[State]]]:
    """The positions of the searching playout policy's game (it sees every card: it
    empties columns and deals the stock out) with the positions played before each."""
    spec = get_game("spider", {"suits": suits})
    state = core.initial_state(spec, deal)
    game = SpiderGame(spec, state)
    _, steps = player._search_walk(game.stock, game.root, seed, abi.WON, moves, 20, 10)
    out: list[tuple[State, list[State]]] = []
    history: list[State] = []
    for st in steps:
        out.append((state, list(history)))
        history.append(state)
        state = core.apply(spec, state, game.move(st))
    return out


@pytest.mark.parametrize("suits", ["1", "2", "4"])
def test_the_compiled_candidates_are_the_references(suits: str) -> None:
    spec = get_game("spider", {"suits": suits})
    seen = {"empty column": 0, "stock out": 0, "avoided": 0, "deals only": 0, "ties": 0}
    positions = [p for d in (1, 2, 3) for p in _walk(suits, d, 10 * d + int(suits), 120)]
    positions += [p for d in (2, 4, 6) for p in _policy(suits, d, d, 120)]
    for k, (state, history) in enumerate(positions):
        game = SpiderGame(spec, known(spec, state))
        wide = player.candidates_py(game, cap=200, width=64)
        avoid = {_packed(spec, h) for h in history}
        if k % 2:  # views the walk passes through (and events' views) avoided too
            avoid |= {(c.before[0], c.before[1]) for c in wide[1:6:2] if c.steps}
            avoid |= {game.play(c.before, c.event)[:2] for c in wide[2:9:3]}
        for cap, width in ((200, 16), (25, 4), (400, 64))[: 1 if k % 4 else 3]:
            ref = player.candidates_py(game, cap=cap, avoid=avoid, width=width)
            assert player.candidates(game, cap=cap, avoid=avoid, width=width) == ref
        seen["empty column"] += not all(game.root[0])
        seen["stock out"] += not game.root[2]
        seen["avoided"] += wide != player.candidates_py(game, cap=200, avoid=avoid, width=64)
        seen["deals only"] += bool(ref) and all(c.event == DEAL for c in ref)
        keys = [view_score(game.play(c.before, c.event)) for c in wide]
        seen["ties"] += len(set(keys)) < len(keys)
    assert all(seen.values()), seen


def test_the_compiled_candidates_ignore_what_no_view_can_be() -> None:
    """``avoid`` entries the core cannot hold (another width, junk) match no view, as in
    Python; a view with a hidden card face up is refused."""
    spec = get_game("spider", {"suits": "2"})
    game = SpiderGame(spec, known(spec, core.initial_state(spec, 8)))
    root = game.root
    first = game.play(root, game.steps(root)[0])
    avoid = {((), ()), ((("x",),), (0,)), (first[0][:3], first[1][:3]), (first[0], first[1])}
    ref = player.candidates_py(game, cap=200, avoid=avoid, width=64)
    assert player.candidates(game, cap=200, avoid=avoid, width=64) == ref
    cols = list(root[0])
    cols[0] = (*cols[0][:-1], HIDDEN)
    with pytest.raises(ValueError, match="HIDDEN"):
        _core.spider_candidates(game.stock, (tuple(cols), *root[1:4]), (), 200, 16)
    assert abi.HIDDEN == HIDDEN


def test_the_compiled_draws_are_the_references() -> None:
    rng = random.Random(4)
    top = (1 << 64) - 1
    for cards in ([], [7], list(range(52)) * 2, [rng.randrange(52) for _ in range(60)]):
        for base in (0, 12345, top - 2, top):  # seeds past 2**64 - 1 wrap, as in Python
            got = sampling.draws(cards, base, 3, 5)
            assert got == sampling.draws_py(cards, base, 3, 5)
    assert sampling.draws([1, 2], 0, 0, 0) == []


def test_a_decision_is_the_same_compiled_or_not(monkeypatch: pytest.MonkeyPatch) -> None:
    """A whole 4-suit decision with positions to avoid: the same candidates, the same
    scores, under a fixed seed and budget, with the candidates, the draws and the playouts
    compiled and with all three in Python."""
    spec = get_game("spider", {"suits": "4"})
    walked = _policy("4", 2, 1, 120)
    for state, history in (walked[12], walked[80]):
        view = known(spec, state)
        avoid = {_packed(spec, h) for h in history}
        fast = player.decide(spec, view, playouts=40, seed=5, avoid=avoid)
        with monkeypatch.context() as m:
            m.setattr(player, "compiled", None)
            m.setattr(sampling, "compiled", None)
            slow = player.decide(spec, view, playouts=40, seed=5, avoid=avoid)
        assert fast is not None and fast == slow


@pytest.mark.parametrize("suits", ["1", "2", "4"])
def test_a_compiled_round_is_the_reference(suits: str) -> None:
    """A round of the bandit compiled (``pl_round``: the draws, the hidden cards filled
    in, the events and the playouts) gives each alive candidate the same total and wins
    as the Python round (:func:`player._round`), by both policies, with cards in the stock
    and without."""
    spec = get_game("spider", {"suits": suits})
    stocks = set()
    deal = 3 if suits == "4" else 4  # a game that deals the stock out with lines left
    walked = _policy(suits, deal, deal, 120)
    for state, history in walked[:-16:8] + walked[-16:]:
        view = known(spec, state)
        vgame = SpiderGame(spec, view)
        avoid = {_packed(spec, h) for h in history}
        cands = player.candidates(vgame, cap=200, avoid=avoid)
        if not cands:
            continue
        stocks.add(bool(vgame.root[2]))
        base = sampling.seed_for(spec, view, 7)
        alive = list(range(len(cands)))[::2]  # a subset: the playout seeds use their indexes
        for method in ("rollout", "search"):
            fast = player._compiled_round(spec, view, vgame, cands, base, method)
            assert fast is not None
            ref = player._round(spec, view, vgame, cands, alive, 5, 3, 7, base, method, 0, None)
            assert fast(alive, 5, 3, None) == ref
    assert stocks == {True, False}
