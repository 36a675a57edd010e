"""Positions: the immutable :class:`State` and the mutable :class:`Table` used to build one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pasyans.cards import Card

Event = dict[str, Any]
"""One thing that happened, for the UI to animate: ``{"type": "flip", "pile": "t3"}``."""


@dataclass(frozen=True, slots=True)
class State:
    """A position: the cards of every pile (bottom to top), face-down counts, redeals used.

    ``down[i]`` cards at the bottom of pile ``i`` are face down. Stock cards are always
    face down, whatever ``down`` says. Hashable and cheap to compare; the two copies of a
    card are the same int, so it is already free of that symmetry.
    """

    piles: tuple[tuple[Card, ...], ...]
    down: tuple[int, ...]
    redeals: int = 0

    def to_json(self) -> dict[str, Any]:
        """``{"piles": [[card ints, bottom first], …], "down": […], "redeals": n}`` (the
        pile order of the game's spec; a card int is ``(rank - 1) * 4 + suit``)."""
        return {
            "piles": [list(p) for p in self.piles],
            "down": list(self.down),
            "redeals": self.redeals,
        }

    @classmethod
    def from_json(cls, obj: Any) -> State:
        """The inverse of :meth:`to_json`; raises ``ValueError`` on any other shape."""
        if not isinstance(obj, dict):
            raise ValueError("a position is an object")
        piles, down, redeals = obj.get("piles"), obj.get("down"), obj.get("redeals", 0)
        ok = (
            isinstance(piles, list)
            and isinstance(down, list)
            and len(piles) == len(down)
            and all(isinstance(p, list) for p in piles)
            and all(type(c) is int for p in piles for c in p)
            and all(type(d) is int and d >= 0 for d in down)
            and type(redeals) is int
            and redeals >= 0
        )
        if not ok or not isinstance(piles, list) or not isinstance(down, list):
            raise ValueError("a position has piles (lists of card ints), down and redeals")
        return cls(tuple(tuple(p) for p in piles), tuple(down), redeals)


class Table:
    """A position being changed by one action and its automatic follow-ups."""

    __slots__ = ("down", "events", "piles", "redeals")

    def __init__(self, state: State, events: list[Event] | None = None) -> None:
        self.piles: list[tuple[Card, ...]] = list(state.piles)
        self.down: list[int] = list(state.down)
        self.redeals = state.redeals
        self.events = events

    @classmethod
    def empty(cls, pile_count: int) -> Table:
        return cls(State(((),) * pile_count, (0,) * pile_count))

    def freeze(self) -> State:
        return State(tuple(self.piles), tuple(self.down), self.redeals)

    def take(self, i: int, n: int) -> tuple[Card, ...]:
        """Remove and return the top ``n`` cards of pile ``i``."""
        pile = self.piles[i]
        self.piles[i] = pile[: len(pile) - n]
        return pile[len(pile) - n :]

    def put(self, i: int, cards: tuple[Card, ...]) -> None:
        """Put ``cards`` on top of pile ``i``, the first one lowest."""
        self.piles[i] = self.piles[i] + cards

    def note(self, event: Event) -> None:
        if self.events is not None:
            self.events.append(event)
