"""Backbone classic's stock click valued one level deeper (``hints.deeper`` where a click
turns the stock's top card onto the waste): the card it can turn up is weighed over the
unseen cards, the player's next move chosen knowing only it (issue 34). That the hint
differs from the tally's somewhere, repeats and reads only the view:
tests/solver/test_hints_revalued.py."""

from __future__ import annotations

from pasyans.engine.core import apply, initial_state, legal_moves
from pasyans.engine.moves import Move
from pasyans.hints import deeper, sampling
from pasyans.hints.sampling import known
from pasyans.position import State
from pasyans.rules import get_game

SPEC = get_game("backbone-classic")
SPIDER = get_game("spider", {"suits": "1"})


def test_a_click_turns_the_stocks_top_up_onto_the_waste_in_the_first_pass_only() -> None:
    view = known(SPEC, initial_state(SPEC, 3))
    click = Move.stock()
    w = SPEC.index["waste"]
    after = apply(SPEC, view, click)
    assert deeper.revealed(SPEC, view, click) == (w, len(after.piles[w]) - 1)
    assert after.piles[w][-1] == sampling.HIDDEN
    # After the redeal the player knows the stock: a click turns up no unseen card.
    state = initial_state(SPEC, 3)
    while state.redeals == 0:
        state = apply(SPEC, state, click)
    assert deeper.revealed(SPEC, known(SPEC, state), click) is None
    # Spider's deal is not valued (its cards are many, one a column).
    spider = known(SPIDER, initial_state(SPIDER, 3))
    assert deeper.revealed(SPIDER, spider, Move.stock()) is None


def test_the_click_is_valued_over_the_cards_it_can_turn_up() -> None:
    view = known(SPEC, initial_state(SPEC, 2))  # a move between columns, and the click
    click = Move.stock()
    other = next(m for m in legal_moves(SPEC, view) if m.dst is not None)
    after_other = apply(SPEC, view, other)
    after_click = apply(SPEC, view, click)
    seen: list[State] = []

    def inner(v: State) -> float:
        seen.append(v)
        return 0.9 if v == after_other else 0.5

    t = sampling.Tally(16, 0, 0, ((click, 10),), ((click, 10), (other, 9)))
    move, values = deeper.choose(SPEC, view, t, click, 3, inner)
    assert [v.move for v in values] == [click, other]
    assert move == other  # valued higher one level deeper
    cards = dict(values[0].cards)
    assert abs(sum(cards.values()) - 1) < 1e-9 and abs(values[0].value - 0.5) < 1e-9
    assert set(cards) <= set(sampling.unseen(SPEC, view))
    w = SPEC.index["waste"]
    turned = [v for v in seen if v != after_other]
    assert sorted(v.piles[w][-1] for v in turned) == sorted(cards)
    for v in turned:  # only the waste's new top differs from the view after the click
        assert (
            v.piles[:w] == after_click.piles[:w] and v.piles[w + 1 :] == after_click.piles[w + 1 :]
        )
    # Decisive (won after the click in every sample): unchanged, nothing valued.
    sure = sampling.Tally(16, 0, 0, ((click, 16),), ((click, 16), (other, 9)))
    assert deeper.choose(SPEC, view, sure, click, 3, inner) == (click, ())
