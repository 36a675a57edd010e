"""Nivernais' hint (``hints/nivernais.py``): it heads for a win or for the most
cards home, keeps its line so that following it costs no search, still names a move
where no win is left, reads only what the player knows, and the follower reports the
cards brought home."""

from __future__ import annotations

import pytest
from nivernais_endgames import crossing_endgame, playout

from pasyans import caches, hints
from pasyans.domains import nivernais as nv
from pasyans.engine.core import apply, initial_state, legal_moves
from pasyans.engine.moves import Move
from pasyans.hints import Budget, suggest
from pasyans.hints import nivernais as nivernais_hint
from pasyans.hints.follow import follow
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import PileKind
from pasyans.solver.search import solve

BUDGET = Budget(seconds=None, nodes=2000, samples=4, seed=1)


def _after_first_redeal(deal: int) -> State:
    """Deal ``deal`` played by stock clicks only until the first redeal: every card known."""
    spec = get_game("nivernais")
    state = initial_state(spec, deal)
    while state.redeals == 0:
        stock = [m for m in legal_moves(spec, state) if m.dst is None]
        state = apply(spec, state, stock[0])
    return state


def test_a_known_position_hint_follows_its_line_without_new_searches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spec = get_game("nivernais")
    state = _after_first_redeal(5003)
    assert not hints.hidden_to_player(spec, state)
    calls = []
    real = nv.portfolio
    monkeypatch.setattr(nv, "portfolio", lambda *a, **k: calls.append(1) or real(*a, **k))
    caches.clear()
    first = suggest(spec, state, budget=BUDGET)
    assert first.move is not None and first.source == "solver" and calls == [1]
    state = apply(spec, state, first.move)
    again = suggest(spec, state, budget=BUDGET)
    assert again.move is not None and calls == [1]


def test_a_known_position_keeps_only_the_start_of_a_long_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The replay of a found line through the engine runs after the search's deadline, so
    only its start is replayed and remembered, however long the line: ``LINE_KEPT`` moves
    of a win, ``UNKNOWN_KEPT`` of a line to the most cards home whose search found no win
    (the next search then starts nearer the end)."""
    spec = get_game("nivernais")
    replayed: list[int] = []
    real = nv.engine_line
    monkeypatch.setattr(
        nv, "engine_line", lambda sp, st, line: replayed.append(len(line)) or real(sp, st, line)
    )
    monkeypatch.setattr(nivernais_hint, "LINE_KEPT", 5)
    monkeypatch.setattr(nivernais_hint, "UNKNOWN_KEPT", 2)
    unknown = _after_first_redeal(5003)  # not won in 2,000 positions
    assert nv.portfolio(nv.pack(spec, unknown), 2000, None, 0.0)[0] == "unknown"
    caches.clear()
    first = suggest(spec, unknown, budget=BUDGET)
    assert first.source == "solver" and first.winnable is None and replayed == [3]
    assert len(nivernais_hint.LINES) == 2
    won = _after_first_redeal(5027)  # won in 20,000 positions
    caches.clear()
    replayed.clear()
    first = suggest(spec, won, budget=Budget(seconds=None, nodes=20_000, samples=4))
    assert first.winnable is True and replayed == [6]
    assert len(nivernais_hint.LINES) == 5


def test_a_lost_position_still_names_the_move_towards_the_most_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lost = None
    for seed in range(1, 40):
        spec, state = crossing_endgame(seed, 18, 2, 8, 0)
        if legal_moves(spec, state) and solve(spec, state, nodes=200_000).result == "lost":
            lost = (spec, state)
            break
    assert lost is not None
    spec, state = lost
    monkeypatch.setattr(nivernais_hint, "UNKNOWN_KEPT", 1)
    caches.clear()
    budget = Budget(seconds=None, nodes=200_000, samples=4)
    h = suggest(spec, state, budget=budget)
    assert h.move is not None and h.winnable is False
    assert "No win" in h.message and h.message_ru
    # A proven loss keeps ``LINE_KEPT`` moves (not ``UNKNOWN_KEPT``), and a hint answered
    # from that memory still says the position is lost.
    assert len(nivernais_hint.LINES) >= 2
    after = apply(spec, state, h.move)
    if legal_moves(spec, after):
        again = suggest(spec, after, budget=budget)
        assert again.winnable is False and nivernais_hint.LINES.get(spec, after) is not None


def test_hidden_stock_hint_reads_only_the_view() -> None:
    """Two deals with the same visible layout and different unseen stocks get the same
    hint (the first deal's stock reshuffled)."""
    from pasyans.cards import shuffled
    from pasyans.hints import sampling

    spec = get_game("nivernais")
    a = initial_state(spec, 77)
    view = sampling.known(spec, a)
    places = sampling.slots(spec, view)
    b = sampling.complete(view, places, shuffled(sampling.unseen(spec, view), 3))
    assert a != b
    assert suggest(spec, a, budget=BUDGET) == suggest(spec, b, budget=BUDGET)


def test_dig_counts_the_cards_above_each_wanted_card() -> None:
    # Clubs: up foundation empty (wants AC = 0), down empty (wants KC = 48); every other
    # suit complete. AC under two cards in t1, KC in a cell.
    done = (13, 13, 13, 13)
    pos: nv.Pos = (((0, 5, 9), (), (), (), (), ()), (48,), (0, *done[1:]), (14, 1, 1, 1), (), 2)
    assert nv.dig(pos) == 2
    pos = (((0, 5, 9), (), (), (), (), ()), (), (0, *done[1:]), (14, 1, 1, 1), (), 2)
    assert nv.dig(pos) == 2 + nv.DIG_CAP  # no King in sight


def test_the_follower_reports_cards_home() -> None:
    """Each move puts at most one card home and none ever leaves: the count is bounded by
    the moves and grows along the same (reproducible) play."""
    budget = Budget(seconds=None, nodes=2000, samples=4)
    short = follow("nivernais", {}, 5002, budget, max_moves=10)
    longer = follow("nivernais", {}, 5002, budget, max_moves=40)
    assert 0 < short.cards <= short.moves
    assert short.cards <= longer.cards <= longer.moves


def test_a_remembered_line_is_by_the_exact_position_not_the_searchs_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two positions the search tells apart only by which cell holds a card (one packed
    key) do not share a remembered line: its moves name piles, so the other position's
    hint is searched for it and is one of its legal moves."""
    spec = get_game("nivernais")
    cells = {p.id for p in spec.piles if p.kind is PileKind.RESERVE}

    def to_cells(s: State) -> list[Move]:
        return [m for m in legal_moves(spec, s) if m.dst in cells]

    # A position after the first redeal where one card can go to either of two cells.
    state = next(
        s
        for s in playout(spec, _after_first_redeal(5003), 5, 200)
        if len({m.dst for m in to_cells(s) if m.src == to_cells(s)[0].src}) >= 2
    )
    first = to_cells(state)[0]
    twin = next(m for m in to_cells(state)[1:] if m.src == first.src)
    a, b = apply(spec, state, first), apply(spec, state, twin)
    assert a != b and nv.key(nv.pack(spec, a)) == nv.key(nv.pack(spec, b))
    searched: list[object] = []
    real = nv.portfolio
    monkeypatch.setattr(nv, "portfolio", lambda *a, **k: searched.append(1) or real(*a, **k))
    caches.clear()
    suggest(spec, a, budget=BUDGET)
    assert len(searched) == 1
    suggest(spec, a, budget=BUDGET)
    assert len(searched) == 1  # remembered for a itself
    hint = suggest(spec, b, budget=BUDGET)
    assert len(searched) == 2 and hint.move in legal_moves(spec, b)


def test_a_known_position_is_searched_by_the_solvers_portfolio() -> None:
    """Once every card is known the hint searches with the solver's portfolio
    (``nivernais.portfolio``), not one plain best-first search: on deal 5027 after its
    first redeal the portfolio finds a win in 20,000 positions where the plain search of
    the first score does not, and the hint then says the position is won."""
    spec = get_game("nivernais")
    state = _after_first_redeal(5027)
    assert not hints.hidden_to_player(spec, state)
    root = nv.pack(spec, state)
    assert nv.best_first(root, 20_000, None)[0] == "unknown"
    caches.clear()
    h = suggest(spec, state, budget=Budget(seconds=None, nodes=20_000, samples=4))
    assert h.source == "solver" and h.winnable is True and h.move in legal_moves(spec, state)
