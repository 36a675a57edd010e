"""Hypothesis properties over every registered game and option combination.

A random walk plays listed legal moves (choices drawn by Hypothesis) and checks, at each
step: the 104 cards are conserved; every listed move plays through the checked path; undo
restores the exact state; notation round-trips; the player view holds no face-down card.
"""

from __future__ import annotations

import json
import re
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pasyans.cards import card_code, double_deck
from pasyans.engine.core import (
    column_accepts,
    foundation_accepts,
    foundation_targets,
    initial_state,
    legal_moves,
    play_checked,
)
from pasyans.engine.game import Game
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules import get_game, variants
from pasyans.rules.spec import GameSpec, PileKind

VARIANTS = variants()
CODE = re.compile(r'"([A2-9TJQK][CDHS])"')
FAST = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])

variant = st.sampled_from(VARIANTS)
deal = st.integers(min_value=1, max_value=2**31 - 1)
choices = st.lists(st.integers(min_value=0, max_value=10_000), min_size=5, max_size=120)


def walk(game: Game, picks: list[int]) -> None:
    """Play one listed move per pick (index modulo the number of legal moves)."""
    for pick in picks:
        legal = game.legal_moves()
        if not legal:
            return
        game.play(legal[pick % len(legal)])


def visible_codes(spec: GameSpec, state: State) -> Counter[str]:
    out: Counter[str] = Counter()
    for i, p in enumerate(spec.piles):
        if p.kind is not PileKind.STOCK:
            out.update(card_code(c) for c in state.piles[i][state.down[i] :])
    return out


@FAST
@given(variant, deal, choices)
def test_cards_are_conserved_and_every_listed_move_plays(
    v: tuple[str, dict[str, str]], n: int, picks: list[int]
) -> None:
    game = Game(v[0], n, v[1])
    deck = Counter(double_deck(game.spec.deck_suits))
    for pick in picks:
        state = game.state
        assert Counter(c for pile in state.piles for c in pile) == deck
        assert all(0 <= d <= len(p) for d, p in zip(state.down, state.piles, strict=True))
        legal = legal_moves(game.spec, state)
        for m in legal:
            play_checked(game.spec, state, m)  # raises if a listed move is refused
        if not legal:
            break
        game.play(legal[pick % len(legal)])


@FAST
@given(variant, deal, choices)
def test_undo_restores_the_exact_state(
    v: tuple[str, dict[str, str]], n: int, picks: list[int]
) -> None:
    game = Game(v[0], n, v[1])
    seen = [game.state]
    for pick in picks:
        legal = game.legal_moves()
        if not legal:
            break
        game.play(legal[pick % len(legal)])
        seen.append(game.state)
    while game.can_undo:
        game.undo()
        seen.pop()
        assert game.state == seen[-1]
    assert game.state == initial_state(game.spec, n)


@FAST
@given(variant, deal, choices)
def test_notation_and_json_round_trip(
    v: tuple[str, dict[str, str]], n: int, picks: list[int]
) -> None:
    game = Game(v[0], n, v[1])
    walk(game, picks)
    for m in game.legal_moves():
        assert Move.parse(m.to_str()) == m
        assert Move.from_json(m.to_json()) == m
        assert Move.from_json(json.loads(json.dumps(m.to_json()))) == m


@FAST
@given(variant, deal, choices)
def test_player_view_never_shows_a_face_down_card(
    v: tuple[str, dict[str, str]], n: int, picks: list[int]
) -> None:
    game = Game(v[0], n, v[1])
    walk(game, picks)
    view = game.view()
    # A move's ``cards`` repeat face-up cards of its source pile, nothing else.
    for m in view["moves"]:
        j = m["json"]
        assert m["cards"] == (view["piles"][j["from"]]["cards"][-j["cards"] :] if "to" in j else [])
    no_move_cards = {**view, "moves": [{**m, "cards": []} for m in view["moves"]]}
    shown = Counter(CODE.findall(json.dumps(no_move_cards)))
    assert shown == visible_codes(game.spec, game.state)
    for pile_id, pile in view["piles"].items():
        i = game.spec.pile_index(pile_id)
        hidden = len(game.state.piles[i]) if pile["kind"] == "stock" else game.state.down[i]
        assert pile["cards"][:hidden] == [None] * hidden
        assert None not in pile["cards"][hidden:]


@settings(max_examples=15, deadline=None)
@given(variant, deal)
def test_the_same_deal_number_gives_the_same_layout(v: tuple[str, dict[str, str]], n: int) -> None:
    spec = get_game(*v)
    assert initial_state(spec, n) == initial_state(get_game(v[0], dict(v[1])), n)
    assert Game(v[0], n, v[1]).state == initial_state(spec, n)


@FAST
@given(variant, deal, choices)
def test_a_saved_game_replays_to_the_identical_state(
    v: tuple[str, dict[str, str]], n: int, picks: list[int]
) -> None:
    game = Game(v[0], n, v[1])
    walk(game, picks)
    saved = json.loads(json.dumps(game.to_saved()))
    again = Game.from_saved(saved)
    assert again.state == game.state and again.moves == game.moves


@FAST
@given(variant, deal, choices)
def test_listed_column_moves_agree_with_column_accepts(
    v: tuple[str, dict[str, str]], n: int, picks: list[int]
) -> None:
    game = Game(v[0], n, v[1])
    walk(game, picks)
    spec, state = game.spec, game.state
    listed = {m for m in game.legal_moves() if m.dst and m.dst.startswith("t")}
    expected = set()
    for m in game.legal_moves():
        if m.dst is None:
            continue
        src = spec.pile_index(m.src)
        for c in spec.indexes_of(PileKind.COLUMN):
            kind = spec.piles[src].kind
            whole = m.cards == len(state.piles[src]) and not state.piles[c]
            lowest = state.piles[src][-m.cards]
            if c != src and not whole and column_accepts(spec, state, c, kind, lowest):
                expected.add(Move(m.src, spec.piles[c].id, m.cards))
    assert expected <= listed
    for m in listed:
        src = spec.pile_index(m.src)
        lowest = state.piles[src][-m.cards]
        d = spec.pile_index(m.dst or "")
        assert column_accepts(spec, state, d, spec.piles[src].kind, lowest)


@FAST
@given(variant, deal, choices)
def test_foundation_targets_agree_with_foundation_accepts(
    v: tuple[str, dict[str, str]], n: int, picks: list[int]
) -> None:
    game = Game(v[0], n, v[1])
    walk(game, picks)
    spec, state = game.spec, game.state
    targets = foundation_targets(spec, state)
    for card in set(double_deck(spec.deck_suits)):
        accepted = [
            f
            for f in spec.indexes_of(PileKind.FOUNDATION)
            if foundation_accepts(spec, f, state.piles[f], card)
        ]
        assert targets.get(card, []) == accepted
