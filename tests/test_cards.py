"""Cards, decks and the stable shuffle, with golden values that must never change:
changing them would silently change every existing numbered deal."""

from __future__ import annotations

from collections import Counter

import pytest

from pasyans.cards import (
    HEARTS,
    SPADES,
    CardError,
    SplitMix64,
    card_code,
    card_name_en,
    double_deck,
    make_card,
    parse_card,
    rank,
    shuffled,
    suit,
)
from pasyans.engine.build import pile_codes
from pasyans.engine.core import initial_state
from pasyans.rules import get_game


def codes(cards: list[int]) -> str:
    return " ".join(card_code(c) for c in cards)


def test_card_codes_round_trip() -> None:
    for c in range(52):
        assert parse_card(card_code(c)) == c
    assert card_code(make_card(10, 1)) == "TD"
    assert (rank(parse_card("QH")), suit(parse_card("QH"))) == (12, HEARTS)
    assert parse_card(" ks ") == make_card(13, SPADES)
    assert card_name_en(parse_card("QH")) == "queen of hearts"


@pytest.mark.parametrize("bad", ["", "Q", "QHH", "1H", "10H", "QX", "ZZ"])
def test_bad_card_codes(bad: str) -> None:
    with pytest.raises(CardError):
        parse_card(bad)
    with pytest.raises(ValueError):
        parse_card(bad)


def test_make_card_checks_its_range() -> None:
    with pytest.raises(CardError):
        make_card(14, 0)
    with pytest.raises(CardError):
        make_card(1, 4)


def test_double_decks() -> None:
    four = Counter(double_deck())
    assert len(double_deck()) == 104 and set(four.values()) == {2} and len(four) == 52
    assert Counter(card_code(c)[1] for c in double_deck((SPADES,))) == {"S": 104}
    two = Counter(card_code(c) for c in double_deck((SPADES, HEARTS)))
    assert set(two.values()) == {4} and len(two) == 26
    assert codes(double_deck()[:14]) == "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD"
    with pytest.raises(ValueError):
        double_deck((0, 1, 2))


# --- golden values ------------------------------------------------------------------------


def test_splitmix64_golden_outputs() -> None:
    zero, one = SplitMix64(0), SplitMix64(1)
    assert [zero.next() for _ in range(3)] == [
        16294208416658607535,
        7960286522194355700,
        487617019471545679,
    ]
    assert [one.next() for _ in range(3)] == [
        10451216379200822465,
        13757245211066428519,
        17911839290282890590,
    ]


def test_splitmix64_below_is_in_range() -> None:
    rng = SplitMix64(42)
    assert all(0 <= rng.below(7) < 7 for _ in range(1000))
    assert {rng.below(3) for _ in range(200)} == {0, 1, 2}
    with pytest.raises(ValueError):
        rng.below(0)


@pytest.mark.parametrize(
    ("deal", "first"),
    [
        (1, "6H 7H JC 8C KS 7D 6S 8C 6C 9C 5C TH"),
        (2, "TD AH 6H JS 2D QS 5H 3D 7C AC AS 4S"),
        (12345, "8C 4H 2D 6H 5H QS KS AS 7D 7D KD AC"),
    ],
)
def test_shuffle_golden_first_cards(deal: int, first: str) -> None:
    deck = shuffled(double_deck(), deal)
    assert codes(deck[:12]) == first
    assert sorted(deck) == sorted(double_deck())


def test_shuffle_golden_one_suit_and_layouts() -> None:
    assert codes(shuffled(double_deck((SPADES,)), 1)[:6]) == "6S 7S JS 8S KS 7S"
    spider = pile_codes(get_game("spider"), initial_state(get_game("spider"), 1))
    assert spider["t1"] == ["6H", "7H", "JC", "8C", "KS", "7D"]
    assert spider["t10"] == ["3S", "2C", "8H", "7C", "4S"]
    assert spider["stock"][-3:] == ["AC", "4H", "7S"]  # the top of the stock is last
    niv = pile_codes(get_game("nivernais"), initial_state(get_game("nivernais"), 1))
    assert niv["t1"] == ["6H", "7H", "JC", "8C"] and niv["r1"] == ["5S"]
    spine = pile_codes(get_game("spine"), initial_state(get_game("spine"), 1))
    assert spine["spine"][:4] == ["2D", "3S", "2C", "8H"] and spine["spine"][-1] == "7S"


def test_shuffle_does_not_touch_its_input_or_global_random() -> None:
    import random

    random.seed(5)
    expected = random.random()
    random.seed(5)
    deck = double_deck()
    shuffled(deck, 9)
    assert deck == double_deck() and random.random() == expected
