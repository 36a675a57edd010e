"""Information-set values (``Budget.isset``, issue 34, ``pasyans.hints.isset``): the K
best moves of the tally valued at their next event (a move that turns nothing up by its
candidate line to one), an event that turns a card up by the mean over the cards that
can come up; only the player's view is read."""

from __future__ import annotations

from dataclasses import replace

from hidden_cards import first_difference, same_hint

from pasyans.engine.core import apply, initial_state, legal_moves
from pasyans.engine.moves import Move
from pasyans.hints import Budget, deeper, isset, sampling, suggest
from pasyans.hints.sampling import known, slots, visible
from pasyans.position import State
from pasyans.rules import get_game

SPEC = get_game("spider", {"suits": "1"})
SPEC2 = get_game("spider", {"suits": "2"})
BASE = Budget(seconds=None, nodes=4000, samples=16, unstick=10)
ISSET = Budget(seconds=None, nodes=4000, samples=16, unstick=10, isset=2)


def _changed() -> tuple[State, Move, Move, list[State]]:
    """The first position of deal 2 (followed with the 1-suit tally's hint) where the
    information-set hint differs from it: the position, both moves and the history."""
    return first_difference(SPEC, BASE, ISSET)


def _split(view: State) -> tuple[Move, Move] | None:
    """A move that turns a card up and one that turns nothing up and has a candidate line
    after it, if ``view`` has both."""
    moves = [m for m in legal_moves(SPEC, view) if m.dst is not None]
    turning = [m for m in moves if sampling.revealed(SPEC, view, m) is not None]
    others = [m for m in moves if sampling.revealed(SPEC, view, m) is None]
    for m in others if turning else []:
        if isset.lines_after(SPEC, view, m, ()):
            return turning[0], m
    return None


def _position() -> tuple[State, Move, Move]:
    """The first view of deal 2 (followed with the tally's hint) with both kinds of
    move (:func:`_split`)."""
    state = initial_state(SPEC, 2)
    for _ in range(80):
        view = known(SPEC, state)
        got = _split(view)
        if got is not None:
            return view, *got
        move = suggest(SPEC, state, budget=BASE).move
        assert move is not None
        state = apply(SPEC, state, move)
    raise AssertionError("no view with both kinds of move in 80 moves of deal 2")


def test_a_move_that_turns_nothing_up_is_valued_at_its_lines_event() -> None:
    view, first, second = _position()
    t = sampling.Tally(16, 0, 0, ((first, 10),), ((first, 10), (second, 9)))
    line = isset.lines_after(SPEC, view, second, ())[0]
    assert line[0] == second and len(line) >= 2
    before = view
    for m in line[:-1]:
        before = apply(SPEC, before, m)
    slot = sampling.revealed(SPEC, before, line[-1])
    after_line = apply(SPEC, before, line[-1])
    if slot is None:
        cards: list[tuple[int, float]] = []
        ends = {after_line}
    else:  # the event turns a card up: the views with each card that can come up
        cards = deeper.outcomes(SPEC, before, isset.CAP)
        ends = {deeper.turned_up(before, slot, after_line, r) for r, _ in cards}
    leaves: list[State] = []

    def leaf(v: State) -> float:
        leaves.append(v)
        return 0.9 if v in ends else 0.3

    move, values = isset.choose(SPEC, view, t, first, 2, leaf)
    assert [v.move for v in values] == [first, second]
    assert values[1].line == line and values[1].cards == tuple(cards)
    assert abs(values[1].value - 0.9) < 1e-9 and abs(values[0].value - 0.3) < 1e-9
    assert move == second  # the tally's second, valued higher at its event
    # Within the margin, the tally's move stands.
    assert isset.choose(SPEC, view, t, first, 2, leaf, margin=0.7)[0] == first
    assert isset.choose(SPEC, view, t, first, 2, leaf, margin=0.5)[0] == second
    # Never the view just after the move that turns nothing up: its line's event's views.
    assert apply(SPEC, view, second) not in leaves
    assert ends <= set(leaves)
    # The reveal: every card that can come up, weighted by its share.
    slot0 = sampling.revealed(SPEC, view, first)
    assert slot0 is not None
    after0 = apply(SPEC, view, first)
    got = deeper.outcomes(SPEC, view, isset.CAP)
    assert values[0].cards == tuple(got) and abs(sum(w for _, w in got) - 1) < 1e-9
    assert {deeper.turned_up(view, slot0, after0, r) for r, _ in got} <= set(leaves)


def test_decisive_and_stock_moves_are_left_alone() -> None:
    view, first, second = _position()
    sure = sampling.Tally(16, 0, 0, ((first, 16),), ((first, 16), (second, 9)))
    assert isset.choose(SPEC, view, sure, first, 2, lambda v: 1.0) == (first, ())
    t = sampling.Tally(16, 0, 0, ((first, 10),), ((first, 10),))
    assert isset.choose(SPEC, view, t, None, 2, lambda v: 1.0) == (None, ())


def test_a_card_turned_up_is_found_in_the_columns_only() -> None:
    view, first, second = _position()
    for m in legal_moves(SPEC, view):
        after = apply(SPEC, view, m)
        if m.dst is None:  # the deal: the stock's hidden cards are not "turned up"
            assert sampling.turned(SPEC, after) is None or after.piles != view.piles
    assert sampling.turned(SPEC, apply(SPEC, view, first)) is not None
    assert sampling.turned(SPEC, apply(SPEC, view, second)) is None


def test_coupled_completions_keep_the_root_samples_cards() -> None:
    view, first, second = _position()
    roots = sampling.samples(SPEC, view, 8, 5)
    slot = sampling.revealed(SPEC, view, first)
    assert slot is not None
    after = apply(SPEC, view, first)
    places = slots(SPEC, view)
    for r, _ in deeper.outcomes(SPEC, view, isset.CAP):
        v = deeper.turned_up(view, slot, after, r)
        got = isset.coupled(SPEC, view, roots, v)
        assert got is not None and len(got) == len(roots)
        for s, root in zip(got, roots, strict=True):
            assert visible(SPEC, s) == visible(SPEC, v)  # consistent with the leaf's view
            assert sorted(c for p in s.piles for c in p) == sorted(c for p in root.piles for c in p)
            moved = [
                p for p in places if p != slot and s.piles[p[0]][p[1]] != root.piles[p[0]][p[1]]
            ]
            # At most one other hidden place changed: the one r came from.
            assert len(moved) <= 1
            if root.piles[slot[0]][slot[1]] == r:
                assert not moved
    # A move that turns nothing up keeps every root sample's hidden cards.
    same = isset.coupled(SPEC, view, roots, apply(SPEC, view, second))
    assert same is not None
    for s, root in zip(same, roots, strict=True):
        assert all(s.piles[i][k] == root.piles[i][k] for i, k in places)


def test_the_coupled_hint_reads_only_the_view_on_two_suits() -> None:
    budget = Budget(seconds=None, nodes=2000, samples=4, seed=3, isset=2, coupled=True)
    same_hint(SPEC2, initial_state(SPEC2, 4), 11, budget)


def test_the_coupled_hint_reads_only_the_players_view() -> None:
    state, _, _, history = _changed()
    same_hint(SPEC, state, 7, replace(ISSET, coupled=True), history)
