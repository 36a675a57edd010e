"""Helpers of the hint tests: the same view with the hidden cards in another order, the
hint asked for both (it must read only what the player knows), and a follower played
twice (it must repeat itself)."""

from __future__ import annotations

from collections.abc import Sequence

from pasyans import caches
from pasyans.cards import shuffled
from pasyans.engine.core import apply, initial_state
from pasyans.engine.moves import Move
from pasyans.hints import Budget, Hint, sampling, suggest
from pasyans.hints.follow import follow
from pasyans.hints.sampling import slots, visible
from pasyans.position import State
from pasyans.rules.spec import GameSpec


def reshuffled(spec: GameSpec, state: State, seed: int) -> State:
    """The same view with the hidden (stock, face-down) cards in another order."""
    view = visible(spec, state)
    places = slots(spec, view)
    cards = sorted(state.piles[i][k] for i, k in places)
    return sampling.complete(view, places, shuffled(cards, seed))


def same_hint(
    spec: GameSpec, state: State, seed: int, budget: Budget, history: Sequence[State] = ()
) -> Hint:
    """The hint of ``state`` under ``budget`` (after ``history``), checked equal to that
    of :func:`reshuffled` ``state`` (caches cleared before each): returns it, with a move."""
    other = reshuffled(spec, state, seed)
    assert other != state and visible(spec, other) == visible(spec, state)
    caches.clear()
    first = suggest(spec, state, history=history, budget=budget)
    caches.clear()
    second = suggest(spec, other, history=history, budget=budget)
    assert second == first and first.move is not None
    return first


def follower_repeats(
    budget: Budget,
    game: str = "spider",
    deal: int = 2,
    *,
    options: dict[str, str] | None = None,
    moves: int = 40,
    source: str = "sampled",
) -> None:
    """The follower of ``game`` (default: 1 suit) deal ``deal`` under ``budget`` (``moves``
    moves, caches cleared before each) plays the same game twice, and some hint came from
    ``source``."""
    opts = {"suits": "1"} if options is None else options
    runs = []
    for _ in range(2):
        caches.clear()
        runs.append(follow(game, opts, deal, budget, max_moves=moves))
    a, b = runs
    assert (a.won, a.moves, a.hints, a.cards, a.sources, a.line) == (
        b.won,
        b.moves,
        b.hints,
        b.cards,
        b.sources,
        b.line,
    )
    assert dict(a.sources).get(source, 0) > 0


def first_difference(
    spec: GameSpec, base: Budget, other: Budget, deal: int = 2, moves: int = 80
) -> tuple[State, Move, Move, list[State]]:
    """The first position of ``deal``, followed with ``base``'s hint, where ``other``'s
    hint differs from it: the position, both moves and the history."""
    state = initial_state(spec, deal)
    history: list[State] = []
    for _ in range(moves):
        caches.clear()
        a = suggest(spec, state, history=history, budget=base)
        b = suggest(spec, state, history=history, budget=other)
        assert a.move is not None and b.move is not None
        if a.move != b.move:
            return state, a.move, b.move, history
        history.append(state)
        state = apply(spec, state, a.move)
    raise AssertionError(f"the hints never differed in {moves} moves of deal {deal}")
