"""Cards, two-deck decks and the project's stable shuffle.

A card is a small int: ``(rank - 1) * 4 + suit`` with suits ordered C, D, H, S. The two
copies of a card are the same int, so states that differ only by which copy lies where
compare equal (the solver relies on this). Card codes are rank + suit, e.g. ``QH``, ``TD``.

>>> card_code(parse_card("QH"))
'QH'
>>> rank(parse_card("TD")), SUITS[suit(parse_card("TD"))]
(10, 'D')
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

SUITS = "CDHS"
RANKS = "A23456789TJQK"
SUIT_NAMES_EN = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES_EN = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)  # fmt: skip

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
ACE, KING = 1, 13

Card = int
"""A card as an int: ``(rank - 1) * 4 + suit``."""


class CardError(ValueError):
    """A card code that does not name a card."""


def make_card(rank_: int, suit_: int) -> Card:
    """The card of ``rank_`` (1 = Ace … 13 = King) and ``suit_`` (0 = C … 3 = S)."""
    if not (1 <= rank_ <= 13 and 0 <= suit_ <= 3):
        raise CardError(f"no card with rank {rank_} and suit {suit_}")
    return (rank_ - 1) * 4 + suit_


def rank(card: Card) -> int:
    """Rank of a card, 1 (Ace) to 13 (King)."""
    return (card >> 2) + 1


def suit(card: Card) -> int:
    """Suit of a card, 0 (clubs) to 3 (spades)."""
    return card & 3


def card_code(card: Card) -> str:
    """Two-letter code of a card, e.g. ``QH``."""
    return RANKS[card >> 2] + SUITS[card & 3]


def parse_card(code: str) -> Card:
    """The card named by a two-letter code such as ``QH`` or ``td`` (case-insensitive)."""
    text = code.strip().upper()
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise CardError(f"not a card code: {code!r} (expected rank+suit, e.g. 'QH', 'TD')")
    return RANKS.index(text[0]) * 4 + SUITS.index(text[1])


def card_name_en(card: Card) -> str:
    """English name, e.g. ``queen of hearts``."""
    return f"{RANK_NAMES_EN[card >> 2]} of {SUIT_NAMES_EN[card & 3]}"


def double_deck(suits: Sequence[int] = (CLUBS, DIAMONDS, HEARTS, SPADES)) -> list[Card]:
    """104 cards in a fixed order: the given suits repeated until there are 8 suit-sets.

    Four suits give two standard decks; ``(SPADES,)`` gives eight sets of spades and
    ``(SPADES, HEARTS)`` four of each (Spider's one- and two-suit games).
    """
    if not suits or 8 % len(suits):
        raise ValueError("the number of suits must divide 8")
    sets = [suits[i % len(suits)] for i in range(8)]
    return [make_card(r, s) for s in sets for r in range(1, 14)]


# --- The stable shuffle ------------------------------------------------------------------

_MASK64 = (1 << 64) - 1


class SplitMix64:
    """SplitMix64 (Steele, Lea and Flood, 2014): a tiny 64-bit generator.

    state += 0x9E3779B97F4A7C15; z = state; z = (z ^ z>>30) * 0xBF58476D1CE4E5B9;
    z = (z ^ z>>27) * 0x94D049BB133111EB; return z ^ z>>31 (all mod 2**64).
    Defined entirely here, so its output never depends on the Python version.

    >>> SplitMix64(0).next()
    16294208416658607535
    """

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, by rejection (no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n

    def ints(self) -> Iterator[int]:
        """An endless stream of outputs."""
        while True:
            yield self.next()


def shuffled(cards: Sequence[Card], seed: int) -> list[Card]:
    """Fisher–Yates shuffle of ``cards`` driven only by ``seed``.

    For i from the last index down to 1, swap item i with item ``below(i + 1)``.
    """
    rng = SplitMix64(seed)
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out
