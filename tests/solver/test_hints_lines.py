"""The line player of the packed games (issue 34, ``hints/lines.py``): candidate lines
move only known cards and end at a reveal, are distinct, bounded and never go back; the
hint and the estimate read only the player's view; following a line needs no new
decision; the follower repeats itself; ``lines=0`` leaves today's hint alone."""

from __future__ import annotations

from typing import Any

import pytest
from hidden_cards import follower_repeats, reshuffled, same_hint
from nivernais_endgames import playout

from pasyans import caches, messages
from pasyans.domains import nivernais as nv
from pasyans.domains._core_abi import NV_CELL_STEP
from pasyans.engine import core
from pasyans.engine.core import apply, initial_state
from pasyans.hints import Budget, estimate, lines, suggest
from pasyans.hints.sampling import HIDDEN, known, slots
from pasyans.position import State
from pasyans.rules import get_game

GAMES = ("backbone", "backbone-classic", "nivernais")
BUDGET = Budget(seconds=None, nodes=4000, samples=8, lines=24)


def _hidden(view: State) -> int:
    return sum(c == HIDDEN for p in view.piles for c in p)


@pytest.mark.parametrize("game", GAMES)
def test_a_stock_click_reveals_and_a_known_move_does_not(game: str) -> None:
    spec = get_game(game)
    view = known(spec, initial_state(spec, 2))
    stock = [m for m in core.legal_moves(spec, view) if m.dst is None]
    assert stock and lines.reveals(spec, apply(spec, view, stock[0]))
    for m in core.legal_moves(spec, view):
        if m.dst is not None:
            after = apply(spec, view, m)
            assert slots(spec, after) == slots(spec, view)
            assert not lines.reveals(spec, after)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("deal", [1, 7])
def test_candidates_move_only_known_cards_and_end_at_a_reveal(game: str, deal: int) -> None:
    spec = get_game(game)
    state = initial_state(spec, deal)
    view = known(spec, state)
    cands = lines.candidates(spec, view, width=64)
    assert cands
    ends = set()
    for c in cands:
        pos, real = view, state
        for m in c.steps:  # before the reveal: legal, no hidden card moved nor shown
            assert m in core.legal_moves(spec, pos)
            after = apply(spec, pos, m)
            assert slots(spec, after) == slots(spec, pos)
            assert not lines.reveals(spec, after)
            pos, real = after, apply(spec, real, m)
            assert known(spec, real) == pos  # the view walked is the player's
        assert c.reveal in core.legal_moves(spec, pos)
        end = apply(spec, pos, c.reveal)
        assert lines.reveals(spec, end)
        # In the real game the player now sees a card they did not see before.
        assert _hidden(known(spec, apply(spec, real, c.reveal))) < _hidden(pos)
        assert c.home == core.cards_on_foundations(spec, pos)
        ends.add(end)
    assert len(ends) == len(cands)
    order = [(-c.home, len(c.steps)) for c in cands]
    assert order == sorted(order)


def _free(spec: Any, view: State) -> list[Any]:
    """The moves of ``view`` that reveal nothing."""
    return [
        m for m in core.legal_moves(spec, view) if not lines.reveals(spec, apply(spec, view, m))
    ]


@pytest.mark.parametrize("game", GAMES)
def test_candidates_are_bounded_and_never_go_back(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = get_game(game)
    view = next(
        v for v in (known(spec, initial_state(spec, d)) for d in range(1, 40)) if _free(spec, v)
    )
    assert len(lines.candidates(spec, view, width=3)) <= 3
    expanded: list[Any] = []
    # Nivernais walks its packed positions (nivernais.steps), the others the engine's.
    owner, name = (nv, "steps") if game == "nivernais" else (core, "legal_moves")
    real = getattr(owner, name)

    def counted(*a: Any) -> Any:
        expanded.append(a[-1])
        return real(*a)

    monkeypatch.setattr(owner, name, counted)
    monkeypatch.setattr(lines, "compiled", None)  # the Python walk, whose calls are counted
    lines.candidates(spec, view, cap=5, width=64)
    assert 0 < len(expanded) <= 5 and len(set(expanded)) == len(expanded)
    monkeypatch.setattr(owner, name, real)
    steps = _free(spec, view)
    avoid = {apply(spec, view, m) for m in steps[:2]}
    cands = lines.candidates(spec, view, avoid=avoid, width=64)
    assert cands
    for c in cands:
        pos = view
        for m in c.steps:
            pos = apply(spec, pos, m)
            assert pos not in avoid


@pytest.mark.parametrize("game", GAMES)
def test_the_hint_and_estimate_read_only_the_view(game: str) -> None:
    spec = get_game(game)
    state = initial_state(spec, 4)
    first = same_hint(spec, state, 11, BUDGET)
    assert first.source == "lines"
    other = reshuffled(spec, state, 11)
    got = []
    for s in (state, other):
        caches.clear()
        got.append(estimate(spec, s, BUDGET))
    assert got[0] == got[1] and got[0] is not None and got[0].samples > 0
    assert first.move is not None
    # After the move, with that history: the same again.
    a2, b2 = apply(spec, state, first.move), apply(spec, other, first.move)
    if known(spec, a2) == known(spec, b2):
        caches.clear()
        x = suggest(spec, a2, history=[state], budget=BUDGET)
        caches.clear()
        assert x == suggest(spec, b2, history=[other], budget=BUDGET)


LONG = Budget(seconds=None, nodes=4000, samples=8, lines=24, player_nodes=500)


def _long_line(game: str) -> State:
    """A position of ``game`` whose chosen line (budget :data:`LONG`) has moves before
    its reveal."""
    spec = get_game(game)
    for deal in range(1, 30):
        state = initial_state(spec, deal)
        caches.clear()
        suggest(spec, state, budget=LONG)
        plan = lines.PLANS.get(spec, (known(spec, state), LONG))
        if plan is not None and len(plan[0]) >= 2:
            return state
    raise AssertionError("no deal's chosen line had moves before its reveal")


@pytest.mark.parametrize("game", ["nivernais", "backbone"])
def test_following_the_line_needs_no_new_decision(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = get_game(game)
    state, budget = _long_line(game), LONG
    caches.clear()
    hint = suggest(spec, state, budget=budget)
    assert hint.source == "lines" and hint.move is not None
    line = lines.PLANS.get(spec, (known(spec, state), budget))
    assert line is not None and len(line[0]) >= 2
    calls: list[int] = []
    real = lines.decide
    monkeypatch.setattr(lines, "decide", lambda *a, **k: calls.append(1) or real(*a, **k))
    history = []
    for m in line[0]:
        again = suggest(spec, state, history=history, budget=budget)
        assert again.move == m and again.source == "lines"
        history.append(state)
        state = apply(spec, state, m)
    assert calls == []
    suggest(spec, state, history=history, budget=budget)  # after the reveal: decided again
    assert calls == [1]


def test_the_follower_is_reproducible_with_the_line_player() -> None:
    budget = Budget(seconds=None, nodes=4000, samples=8, lines=16, player_nodes=300)
    follower_repeats(budget, "backbone-classic", 5, options={}, moves=30, source="lines")


@pytest.mark.parametrize("game", GAMES)
def test_no_lines_is_todays_hint(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = get_game(game)
    state = initial_state(spec, 6)
    budget = Budget(seconds=None, nodes=2000, samples=4)
    caches.clear()
    today = suggest(spec, state, budget=budget)

    def never(*a: Any, **k: Any) -> Any:
        raise AssertionError("the line player was asked")

    monkeypatch.setattr(lines, "hint", never)
    caches.clear()
    assert (
        suggest(spec, state, budget=Budget(seconds=None, nodes=2000, samples=4, lines=0)) == today
    )
    assert estimate(spec, state, budget) is not None
    with pytest.raises(AssertionError, match="line player"):
        suggest(spec, state, budget=Budget(seconds=None, nodes=2000, samples=4, lines=8))


def test_the_bandit_gives_out_the_searches_and_a_single_line_few() -> None:
    spec = get_game("nivernais")
    view = known(spec, initial_state(spec, 1))
    d = lines.decide(spec, view, lines=64, nodes=300, width=4)
    assert d is not None and len(d.candidates) == 4
    assert 48 <= sum(n for _, n in d.scores) <= 64  # 2 rounds: 4 x 8, then 2 x 16
    best = max(range(4), key=lambda c: (d.scores[c][1], d.scores[c][0]))
    assert d.chosen == d.candidates[best] and d.samples == 24
    alone = lines.decide(spec, view, lines=256, nodes=300, width=1)
    assert alone is not None and alone.samples == lines.ALONE


def test_the_product_plays_the_line_player_in_nivernais_alone() -> None:
    """The product's hint is the line player in Nivernais (``policy.LINE_HINTS``), and
    the server's Winnable? there uses the hint's budget, so the estimate comes from the
    chosen line's samples; Backbone and Backbone classic keep the sampled hint."""
    from pasyans.hints.policy import LINE_HINTS, product_budget
    from pasyans.server.games.solving import _estimate_budget

    lined = {g: product_budget(get_game(g), 0.25).lines for g in GAMES}
    assert lined == {"backbone": 0, "backbone-classic": 0, "nivernais": LINE_HINTS["nivernais", 4]}
    spec = get_game("nivernais")
    assert _estimate_budget(spec, 0.2) == product_budget(spec, 0.2)
    state = initial_state(spec, 3)
    budget = product_budget(spec, None)
    caches.clear()
    h = suggest(spec, state, budget=budget)
    e = estimate(spec, state, budget)
    assert h.source == "lines" and e is not None
    assert h.message == messages.both("hint.lines_event", won=e.won, samples=e.samples)[0]


def _nivernais_walk(deal: int, steps: int) -> list[State]:
    """Positions of a random play-out of a Nivernais deal while its stock is unseen (the
    first pass), moves to the foundations preferred."""
    spec = get_game("nivernais")
    out = playout(spec, initial_state(spec, deal), deal, steps)
    return [s for s in out if s.redeals == 0 and s.piles[spec.index["stock"]]]


def _kind(code: int) -> int:
    """A step's kind: a column's card up, down or to a cell (0, 1, 2), a cell's card up or
    down (3, 4), the stock."""
    if code == nv.STOCK_STEP:
        return code
    return 3 + (code - NV_CELL_STEP) % 2 if code >= NV_CELL_STEP else code % 3


def test_nivernais_steps_play_and_map_to_the_engines_moves() -> None:
    """Each packed step of a position (nivernais.steps) is replayed by its code
    (nivernais.play), and the engine move it maps to (lines.engine_moves) is legal and
    leads to the same packed position."""
    spec = get_game("nivernais")
    seen_kinds: set[int] = set()
    for deal in (3, 8, 21):
        for state in playout(spec, initial_state(spec, deal), deal, 120):
            pos = nv.pack(spec, state)
            legal = core.legal_moves(spec, state)
            for code, child in nv.steps(pos):
                assert nv.play(pos, code) == child
                (m,) = lines.engine_moves(spec, state, (code,))
                assert m in legal
                assert nv.pack(spec, apply(spec, state, m)) == child
                seen_kinds.add(_kind(code))
            with pytest.raises(ValueError, match="not a move"):
                nv.play(pos, 126)
    assert seen_kinds == {0, 1, 2, 3, 4, nv.STOCK_STEP}


def test_nivernais_compiled_candidates_are_the_python_ones() -> None:
    """The compiled walk (``nivernais_candidates``) finds the lines of the Python reference
    (``lines.nivernais_lines``), in the same order, at every view of random play-outs, with
    the views before it avoided and with several caps."""
    spec = get_game("nivernais")
    compared = lined = 0
    for deal in (2, 5, 9, 14):
        walk = _nivernais_walk(deal, 80)
        for k, state in enumerate(walk):
            view = nv.pack(spec, known(spec, state))
            avoid = {nv.pack(spec, known(spec, s)) for s in walk[:k]}
            for cap in (1, 7, lines.CAP):
                want = lines.nivernais_lines(view, avoid, cap)
                got = lines.compiled.nivernais_candidates(  # type: ignore[union-attr]
                    lines._hidden_bytes(view), [lines._hidden_bytes(a) for a in avoid], cap
                )
                assert got == want
                compared += 1
                lined += len(want) > 1
    assert compared > 100 and lined > 20


def test_nivernais_compiled_candidates_refuse_a_bad_view() -> None:
    spec = get_game("nivernais")
    view = lines._hidden_bytes(nv.pack(spec, known(spec, initial_state(spec, 4))))
    bad_stock = (*view[:4], (1000,), view[5])
    with pytest.raises(ValueError, match="card"):
        lines.compiled.nivernais_candidates(bad_stock, [], 10)  # type: ignore[union-attr]
    hidden_column = ((255, *view[0][0][1:]), *view[0][1:])
    with pytest.raises(ValueError, match="card"):
        lines.compiled.nivernais_candidates((hidden_column, *view[1:]), [], 10)  # type: ignore[union-attr]
    with pytest.raises(TypeError):
        lines.compiled.nivernais_candidates(view, [None], 10)  # type: ignore[union-attr]


@pytest.mark.parametrize("game", ["backbone", "backbone-classic"])
def test_packed_compiled_walk_is_the_python_one(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled walk (``engine_candidates``) finds the candidates of the Python walk
    (``lines.walk``), in the same order and after the same cut, at every view of random
    play-outs of the first pass, with the views before it avoided and with several caps."""
    spec = get_game(game)
    compared = lined = 0
    for deal in (2, 11):
        walk = playout(spec, initial_state(spec, deal), deal, 150)
        views = [known(spec, s) for s in walk if s.redeals == 0]
        for k, view in enumerate(views[::3]):
            avoid = set(views[: 3 * k])
            for cap in (1, 9, 100):
                want = lines.walk(spec, view, cap=cap, avoid=avoid)
                assert lines._packed_walk(spec, view, cap=cap, avoid=avoid) == want
                monkeypatch.setattr(lines, "compiled", None)
                assert (
                    lines.candidates(spec, view, cap=cap, avoid=avoid, width=5)
                    == (sorted(want, key=lines._order)[:5])
                )
                monkeypatch.undo()
                assert (
                    lines.candidates(spec, view, cap=cap, avoid=avoid, width=5)
                    == (sorted(want, key=lines._order)[:5])
                )
                compared += 1
                lined += len(want) > 1
    assert compared > 30 and lined > 10


def test_nivernais_walks_further_than_the_packed_games() -> None:
    """Nivernais' walk expands up to ``NIVERNAIS_CAP`` positions (it is compiled and cheap):
    at some view of a play-out its default candidates are those of that cap, and reach more
    cards home than a walk of ``CAP``."""
    spec = get_game("nivernais")
    assert lines.cap_for(spec) == lines.NIVERNAIS_CAP > lines.CAP
    assert lines.cap_for(get_game("backbone-classic")) == lines.CAP
    for deal in range(1, 30):
        for state in _nivernais_walk(deal, 60):
            view = known(spec, state)
            short = lines.candidates(spec, view, cap=lines.CAP)
            default = lines.candidates(spec, view)
            if short and default and default[0].home > short[0].home:
                assert default == lines.candidates(spec, view, cap=lines.NIVERNAIS_CAP)
                return
    raise AssertionError("no view's longer walk reached more cards home")
