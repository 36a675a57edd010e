"""The table's geometry read from the DOM, for the layout targets (docs/ui.md).

``MEASURE`` runs in the page: for every pile it takes the cards' ``getBoundingClientRect``;
the visible part of a card is its rectangle minus the card lying over it (the next card of
its pile). It returns what the targets need:

- whether the page scrolls sideways;
- every pile of the table that is not wholly on the screen (above the bottom bar);
- for every card that can be picked up (a face-up card of a column, the top card of any
  other pile that is not the tailbone's or a chain strip), the visible size, and whether its
  rank and suit lie wholly inside it, with their font sizes;
- for the spine's chain (read, not picked up), the same index check on each strip.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

# (width, height, device scale factor, touch)
VIEWPORTS: dict[str, tuple[int, int, float, bool]] = {
    "360x640": (360, 640, 2, True),
    "390x844": (390, 844, 2, True),
    "844x390": (844, 390, 2, True),
    "768x1024": (768, 1024, 2, True),
    "1366x768": (1366, 768, 1, False),
    "1920x1080": (1920, 1080, 1, False),
}

# Every game and every option value at least once. Only the spine's length changes the
# geometry of a starting layout; the other options are spread over the same loads.
OPTION_SETS: list[tuple[str, dict[str, str]]] = [
    ("spine", {"spine": "56", "empty": "kings", "runs": "single"}),
    ("spine", {"spine": "40", "empty": "any", "runs": "suit"}),
    ("spine", {"spine": "24", "empty": "kings", "runs": "suit"}),
    ("backbone", {}),
    ("backbone-classic", {}),
    ("spider", {"suits": "4"}),
    ("spider", {"suits": "2"}),
    ("spider", {"suits": "1"}),
    ("nivernais", {}),
]

MEASURE = (Path(__file__).parent / "geometry.js").read_text(encoding="utf-8")


@dataclass
class Geometry:
    hscroll: bool
    offscreen: list[str]
    cards: list[dict[str, Any]]
    strips: list[dict[str, Any]]
    card_w: float
    font: float
    large: bool
    least_strip: float

    def min_strip(self) -> float:
        """The least visible height of a covered card that can be picked up; with none on
        the table, the least strip the layout allows (``data-strip``)."""
        covered = [c["h"] for c in self.cards if c["covered"]]
        return min(covered) if covered else self.least_strip

    def min_font(self) -> float:
        return min(c["font"] for c in self.cards)

    def problems(self) -> list[str]:
        """Every target this table misses (docs/ui.md, "Targets")."""
        tall, font = (32, 18) if self.large else (24, 14)
        out = []
        if self.hscroll:
            out.append("the page scrolls sideways")
        out += [f"not on the screen: {p}" for p in self.offscreen]
        for c in self.cards:
            where = f"{c['pile']}/{c['index']}"
            if c["w"] < 24 - 0.5 or c["h"] < tall - 0.5:
                out.append(f"{where}: visible {c['w']:.0f}x{c['h']:.0f} px, under 24x{tall}")
            if not c["inside"]:
                out.append(f"{where}: its rank or suit is cut by the card over it")
            if c["font"] < font - 0.01:
                out.append(f"{where}: index font {c['font']:.1f} px, under {font}")
        for c in self.strips:
            if not c["inside"] or c["font"] < 14 - 0.01:
                out.append(
                    f"{c['pile']}/{c['index']} (read only): index cut or under 14 px "
                    f"({c['font']:.1f} px font, {c['h']:.0f} px strip)"
                )
        return out


def measure(page: Page) -> Geometry:
    d = page.evaluate(MEASURE)
    return Geometry(
        d["hscroll"],
        d["offscreen"],
        d["cards"],
        d["strips"],
        d["cardW"],
        d["font"],
        d["large"],
        d["leastStrip"],
    )
