"""The exact search: wins replay through the engine, "lost" agrees with an exhaustive
search, budgets give "unknown", and the same input gives the same answer."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solver_endgames import endgame, solver_agrees

from pasyans.cards import RANKS, parse_card
from pasyans.deals import start_position
from pasyans.engine.core import deck_for, initial_state, is_won
from pasyans.position import State, Table
from pasyans.rules import get_game
from pasyans.solver.search import replay, solve


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 10**9))
def test_solutions_of_solvable_spine_deals_replay_to_a_win(deal: int) -> None:
    spec = get_game("spine")
    state = start_position(spec, deal, "solvable")
    r = solve(spec, state, nodes=50_000)
    assert r.result == "won"
    assert is_won(spec, replay(spec, state, r.moves))


@pytest.mark.parametrize(
    ("game", "options", "deal"),
    [
        ("backbone", {}, 1),
        ("backbone-classic", {}, 1),
        ("spider", {"suits": "1"}, 2),
    ],
)
def test_solutions_of_random_deals_replay_to_a_win(
    game: str, options: dict[str, str], deal: int
) -> None:
    spec = get_game(game, options)
    state = initial_state(spec, deal)
    r = solve(spec, state, nodes=20_000)
    assert r.result == "won"
    assert is_won(spec, replay(spec, state, r.moves))


# Small end games: the solver (with its pruning) must agree with a search that tries
# every move. "lost" must never be said of a winnable position.
ENDGAMES = [
    ("spine", {}, 12, 3, range(1, 21)),
    ("spine", {}, 9, 2, range(1, 21)),
    ("spine", {"empty": "any", "runs": "suit"}, 10, 2, range(1, 6)),
    ("spine", {"spine": "24"}, 11, 3, range(1, 11)),
    ("backbone-classic", {}, 7, 3, range(1, 9)),
    ("nivernais", {}, 4, 2, range(1, 11)),
]


@pytest.mark.parametrize(
    ("game", "options", "loose", "spread", "seed"),
    [(g, o, lo, sp, s) for g, o, lo, sp, seeds in ENDGAMES for s in seeds],
)
def test_solver_agrees_with_exhaustive_search(
    game: str, options: dict[str, str], loose: int, spread: int, seed: int
) -> None:
    spec, state = endgame(game, options, seed, loose, spread)
    solver_agrees(spec, state, nodes=200_000)


def test_endgames_include_lost_positions() -> None:
    """The comparison above is only worth something if some end games are lost."""
    results = {solve(*endgame("spine", {}, s, 12, 3)).result for s in range(1, 21)}
    assert results == {"won", "lost"}


def _position(game: str, piles: dict[str, list[str]], redeals: int = 0) -> State:
    """A position from card codes per pile (bottom to top); all cards face up."""
    spec = get_game(game)
    t = Table.empty(len(spec.piles))
    for pid, codes in piles.items():
        t.piles[spec.index[pid]] = tuple(parse_card(c) for c in codes)
    t.redeals = redeals
    state = t.freeze()
    assert sorted(c for p in state.piles for c in p) == sorted(deck_for(spec))
    return state


def _up(suit: str, top: str) -> list[str]:
    return [r + suit for r in RANKS[: RANKS.index(top) + 1]]


def _down(suit: str, top: str) -> list[str]:
    return [r + suit for r in reversed(RANKS[RANKS.index(top) :])]


SPINE_JACKS = {f"f{i}": _up("CDHS"[(i - 1) % 4], "J") for i in range(1, 9)}


def test_hand_made_spine_won() -> None:
    cols = {f"t{i}": ["Q" + s, "K" + s] for i, s in zip(range(3, 9), "DDHHSS", strict=True)}
    piles = {**SPINE_JACKS, "t1": ["KC", "QC"], "t2": ["QC", "KC"], **cols}
    spec = get_game("spine")
    r = solve(spec, _position("spine", piles))
    assert r.result == "won"
    assert is_won(spec, replay(spec, _position("spine", piles), r.moves))


def test_hand_made_spine_lost() -> None:
    """Every column holds a Queen under a King: no empty column, nothing fits."""
    cols = {f"t{i}": ["Q" + s, "K" + s] for i, s in zip(range(1, 9), "CCDDHHSS", strict=True)}
    assert solve(get_game("spine"), _position("spine", {**SPINE_JACKS, **cols})).result == "lost"


def _nivernais(t1: list[str]) -> State:
    piles = {f"f{i}": _up("CDHS"[i - 1], "K") for i in range(1, 5)}
    piles.update({f"f{i}": _down("CDHS"[i - 5], "A") for i in range(5, 9)})
    piles["f3"] = _up("H", "5")
    piles["f7"] = _down("H", "9")
    piles.update(
        {f"r{i}": [c] for i, c in enumerate(["AH", "2H", "3H", "4H", "5H", "9H", "TH", "JH"], 1)}
    )
    piles["t1"] = t1
    return _position("nivernais", piles, redeals=2)


def test_hand_made_nivernais() -> None:
    spec = get_game("nivernais")
    won = _nivernais(["KH", "QH", "8H", "7H", "6H", "6H", "7H", "8H"])
    r = solve(spec, won)
    assert r.result == "won"
    assert is_won(spec, replay(spec, won, r.moves))
    lost = _nivernais(["6H", "6H", "7H", "7H", "8H", "8H", "QH", "KH"])
    assert solve(spec, lost).result == "lost"


def _spider(piles: dict[str, list[str]]) -> State:
    done = [c for _ in range(7) for c in reversed(_up("S", "K"))]
    return _position_spider({"done": done, **piles})


def _position_spider(piles: dict[str, list[str]]) -> State:
    spec = get_game("spider", {"suits": "1"})
    t = Table.empty(len(spec.piles))
    for pid, codes in piles.items():
        t.piles[spec.index[pid]] = tuple(parse_card(c) for c in codes)
    return t.freeze()


def test_hand_made_spider() -> None:
    spec = get_game("spider", {"suits": "1"})
    won = _spider({"t1": list(reversed(_up("S", "K")))[:-1], "t2": ["AS"]})
    r = solve(spec, won)
    assert r.result == "won" and is_won(spec, replay(spec, won, r.moves))
    # Fewer than ten cards on the table and the rest in the stock: no deal, ever.
    lost = _spider({"t1": ["AS"], "t2": ["3S", "2S"], "stock": list(reversed(_up("S", "K")))[:10]})
    assert solve(spec, lost).result == "lost"


def test_tiny_budget_gives_unknown() -> None:
    spec = get_game("spider")
    r = solve(spec, initial_state(spec, 1), nodes=5)
    assert r.result == "unknown" and r.moves == () and r.nodes == 5


@pytest.mark.parametrize(
    ("game", "options", "deal"), [("spider", {"suits": "2"}, 3), ("backbone", {}, 2)]
)
def test_same_input_and_node_budget_same_answer(
    game: str, options: dict[str, str], deal: int
) -> None:
    spec = get_game(game, options)
    state = initial_state(spec, deal)
    a = solve(spec, state, nodes=3000)
    b = solve(spec, state, nodes=3000)
    assert (a.result, a.moves, a.nodes) == (b.result, b.moves, b.nodes)


def test_a_two_is_not_always_safe_to_play_up() -> None:
    """t1's 2S may not go up first: the other 2S must, to free the Ace under it.

    (A rule "twos are always safe" once made the solver call this position lost.)
    """
    piles = {f"f{i}": _up("CDH"[(i - 1) % 4] if i % 4 else "S", "K") for i in (1, 2, 3, 5, 6, 7)}
    piles["f4"] = ["AS"]
    spine = [r + "S" for r in reversed(RANKS[2:]) for _ in range(2)]
    state = _position("spine", {**piles, "t1": ["2S"], "t2": ["AS", "2S"], "spine": spine})
    spec = get_game("spine")
    r = solve(spec, state)
    assert r.result == "won"
    assert is_won(spec, replay(spec, state, r.moves))


@pytest.mark.parametrize(
    ("suits", "deal", "budget"), [("1", d, 1000) for d in range(1, 6)] + [("2", 7, 6000)]
)
def test_guided_spider_search_wins_random_deals(suits: str, deal: int, budget: int) -> None:
    """Spider's guided search (shuffle moves dropped, best-first) finds real wins."""
    spec = get_game("spider", {"suits": suits})
    state = start_position(spec, deal, "random")
    r = solve(spec, state, nodes=budget)
    assert r.result == "won" and r.nodes <= budget
    assert is_won(spec, replay(spec, state, r.moves))


def test_shuffle_moves_are_dropped_but_never_make_a_loss() -> None:
    """Moving 2S off its own 3S is a shuffle the guided search skips; the position is
    lost, and that is proven only by the plain search run after the guided ones."""
    from pasyans.domains.knowledge import knowledge_for, shuffle_move
    from pasyans.engine.core import legal_moves

    spec = get_game("spider", {"suits": "1"})
    lost = _spider({"t1": ["AS"], "t2": ["3S", "2S"], "stock": list(reversed(_up("S", "K")))[:10]})
    k = knowledge_for(spec)
    moves = legal_moves(spec, lost)
    assert any(m.src == "t2" and m.cards == 1 and shuffle_move(k, lost, m) for m in moves)
    _, dropped = k.guided_children(lost, moves)
    assert dropped
    assert solve(spec, lost).result == "lost"
    assert solve(spec, lost, nodes=3).result == "unknown"
