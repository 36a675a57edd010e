"""Small random end-game positions for every game, and a plain exhaustive search to
check the solver's answers against (no pruning, no canonical keys: just every move)."""

from __future__ import annotations

from collections import deque

from pasyans.cards import SplitMix64
from pasyans.domains.knowledge import knowledge_for
from pasyans.engine.core import apply, is_won, legal_moves
from pasyans.position import State, Table
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec, PileKind
from pasyans.solver.search import replay, solve


def _scatter(
    spec: GameSpec, t: Table, cards: list[int], targets: list[str], rng: SplitMix64
) -> None:
    for c in cards:
        while True:
            pid = targets[rng.below(len(targets))]
            i = spec.index[pid]
            if spec.piles[i].kind is PileKind.RESERVE and t.piles[i]:
                continue  # a reserve cell holds one card
            t.put(i, (c,))
            break


def endgame(
    game: str, options: dict[str, str], seed: int, loose: int = 8, spread: int = 3
) -> tuple[GameSpec, State]:
    """A position of ``game`` with about ``loose`` cards off the foundations, scattered at
    random over ``spread`` of the piles the game plays from (SplitMix64 from ``seed``)."""
    spec = get_game(game, options)
    rng = SplitMix64(seed)
    t = Table.empty(len(spec.piles))
    loose_cards: list[int] = []
    if spec.id == "spider":
        done = spec.index["done"]
        suits = spec.deck_suits
        sets = [suits[i % len(suits)] for i in range(8)]
        for s in sets[:7]:
            t.put(done, tuple((r << 2) | s for r in range(12, -1, -1)))
        loose_cards = [(r << 2) | sets[7] for r in range(13)]
        rng_order = sorted(loose_cards, key=lambda _: rng.next())
        cols = [f"t{i}" for i in range(1, 5)]
        _scatter(spec, t, rng_order, cols, rng)
        return spec, t.freeze()
    founds = spec.indexes_of(PileKind.FOUNDATION)
    up_down = spec.id == "nivernais"
    piles: list[list[int]] = []
    for n, _f in enumerate(founds):
        suit = n % 4
        if up_down and n >= 4:
            piles.append([(r << 2) | suit for r in range(12, -1, -1)])
        else:
            piles.append([(r << 2) | suit for r in range(13)])
    suit = rng.below(4)  # most loose cards come from one suit: buried cards then matter
    for _ in range(loose):
        f = rng.below(len(piles)) if rng.below(4) == 0 else suit + 4 * rng.below(2)
        if piles[f]:
            loose_cards.append(piles[f].pop())
    for pile, f in zip(piles, founds, strict=True):
        t.piles[f] = tuple(pile)
    rng_order = sorted(loose_cards, key=lambda _: rng.next())
    if spec.id == "spine":
        targets = [f"t{i}" for i in range(1, 9)] + ["spine"]
    elif spec.id.startswith("backbone"):
        targets = [f"t{i}" for i in range(1, 9)] + ["waste", "stock", "spine1", "spine2"]
    else:
        targets = [f"t{i}" for i in range(1, 7)] + [f"r{i}" for i in range(1, 9)] + ["stock"]
    chosen = sorted(set(targets), key=lambda _: rng.next())[:spread]
    if all(c.startswith("r") for c in chosen):
        chosen.append("t1")  # reserve cells hold one card each: keep room for the rest
    _scatter(spec, t, rng_order, chosen, rng)
    return spec, t.freeze()


def exhaustive(spec: GameSpec, state: State, cap: int = 300_000) -> bool:
    """Whether a win is reachable, by visiting every reachable position (raises past cap).

    Positions are told apart by the solver's canonical key (alike piles sorted: plainly
    sound), but every legal move is tried: no safe moves, no dedupe, no ordering.
    """
    k = knowledge_for(spec)
    seen = {k.key(state)}
    todo = deque([state])
    while todo:
        s = todo.popleft()
        if is_won(spec, s):
            return True
        for m in legal_moves(spec, s):
            t = apply(spec, s, m)
            key = k.key(t)
            if key not in seen:
                seen.add(key)
                if len(seen) > cap:
                    raise RuntimeError("end game too large for the exhaustive check")
                todo.append(t)
    return False


def solver_agrees(spec: GameSpec, state: State, nodes: int = 300_000) -> str:
    """Solve ``state`` and assert the answer is the exhaustive search's, and that a win
    found replays through the engine; the solver's answer."""
    truth = exhaustive(spec, state)
    r = solve(spec, state, nodes=nodes)
    assert r.result == ("won" if truth else "lost")
    if r.result == "won":
        assert is_won(spec, replay(spec, state, r.moves))
    return r.result
