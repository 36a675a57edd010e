"""Moves and their notation.

Text: ``t3>f1`` moves the top card of ``t3`` onto ``f1``; ``t3>t5:4`` moves the top four
cards of ``t3`` onto ``t5``; ``stock`` clicks the stock (deal, turn or redeal, as the game
says). JSON: ``{"from": "t3", "to": "t5", "cards": 4}`` and ``{"from": "stock"}``.

>>> Move.parse("t3>t5:4")
Move.parse('t3>t5:4')
>>> Move.parse("t3>f1").to_json()
{'from': 't3', 'to': 'f1', 'cards': 1}
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pasyans.errors import InvalidMoveError

STOCK = "stock"
FOLLOW_UP = "+"
"""Marks a safe auto-move in a saved move list (``+t3>f1``): it followed the move before
it and is undone with it. Not part of a move's own notation."""
_PILE = r"(?:t(?:[1-9]|10)|f[1-8]|r[1-8]|spine[12]?|tailbone|waste|stock|done)"
_MOVE_RE = re.compile(rf"^({_PILE})>({_PILE})(?::([1-9][0-9]?|1[0-9]{{2}}))?$")
_PILE_RE = re.compile(rf"^{_PILE}$")


@dataclass(frozen=True, slots=True)
class Move:
    """A card move ``src → dst`` of ``cards`` cards, or a stock click (``dst`` is None)."""

    src: str
    dst: str | None = None
    cards: int = 1

    @property
    def is_stock(self) -> bool:
        return self.dst is None

    def to_str(self) -> str:
        """The text notation; ``Move.parse(m.to_str()) == m``."""
        if self.dst is None:
            return STOCK
        return f"{self.src}>{self.dst}" + (f":{self.cards}" if self.cards != 1 else "")

    def to_json(self) -> dict[str, Any]:
        if self.dst is None:
            return {"from": STOCK}
        return {"from": self.src, "to": self.dst, "cards": self.cards}

    def __str__(self) -> str:
        return self.to_str()

    def __repr__(self) -> str:
        return f"Move.parse({self.to_str()!r})"

    @classmethod
    def stock(cls) -> Move:
        return _STOCK_MOVE

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse the text notation; raises :class:`InvalidMoveError` on anything else."""
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move must be text, not {type(text).__name__}")
        t = text.strip().lower().replace(" ", "")
        if t == STOCK:
            return _STOCK_MOVE
        m = _MOVE_RE.match(t)
        if not m:
            raise InvalidMoveError(
                f"not a move: {text[:40]!r} (expected e.g. 't3>f1', 't3>t5:4' or 'stock')"
            )
        src, dst, n = m.group(1), m.group(2), int(m.group(3) or 1)
        if n > 104:
            raise InvalidMoveError(f"a move moves at most 104 cards: {text[:40]!r}")
        if src == dst:
            raise InvalidMoveError(f"a move needs two different piles: {text[:40]!r}")
        if STOCK in (src, dst):
            raise InvalidMoveError("the stock is only clicked: write 'stock'")
        return cls(src, dst, n)

    @classmethod
    def from_json(cls, data: Any) -> Move:
        """Parse the JSON form; raises :class:`InvalidMoveError` on anything else."""
        if not isinstance(data, Mapping):
            raise InvalidMoveError("a JSON move must be an object")
        src = data.get("from")
        if src == STOCK and set(data) <= {"from"}:
            return _STOCK_MOVE
        dst, n = data.get("to"), data.get("cards", 1)
        if set(data) - {"from", "to", "cards"}:
            raise InvalidMoveError("a JSON move has only 'from', 'to' and 'cards'")
        if not (isinstance(src, str) and isinstance(dst, str)):
            raise InvalidMoveError("a JSON card move needs 'from' and 'to' pile ids")
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 104:
            raise InvalidMoveError("'cards' must be a whole number from 1 to 104")
        if not (_PILE_RE.match(src) and _PILE_RE.match(dst)):
            raise InvalidMoveError(f"unknown pile id in {src[:12]!r} > {dst[:12]!r}")
        return cls.parse(f"{src}>{dst}:{n}")


def parse_move(data: Any) -> Move:
    """A move from either form: text or a JSON object."""
    if isinstance(data, str):
        return Move.parse(data)
    return Move.from_json(data)


_STOCK_MOVE = Move(STOCK, None, 1)
