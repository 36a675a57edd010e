"""The verdict in plain words: which message code (``ui.analysis.verdict.*`` of
:mod:`pasyans.messages`) sums a game's analysis up, and its parameters.

The rules, first match wins:

1. ``won``: the player won.
2. ``deal_lost``: the start was proven lost: the deal could not be won.
3. ``lost_at`` / ``unlucky``: a move took a position proven won to one proven lost (the
   "lost here" move). ``unlucky`` when a card was hidden there and the move surely cost
   no graded share of the chance the player could see (it turned the card up, or even its
   largest possible drop is below every threshold: :func:`pasyans.analysis.grading.cleared`):
   a hidden card decided it. Else ``lost_at`` names the move: every card was known, the
   move is graded, or the samples left its chance too open to clear it.
4. ``still_won``: the last position is proven won (an abandoned or given-up game that
   could still be won from where it was left).
5. ``won_until``: some positions are proven won, the rest left unknown by the budget:
   winnable at least until that move, undecided after.
6. ``unknown``: nothing at the start was decided within the budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pasyans.analysis.grading import Grade

Outcome = Literal["won", "lost", "unknown"]

MESSAGES = {
    "won": "ui.analysis.verdict.won",
    "deal_lost": "ui.analysis.verdict.deal_lost",
    "lost_at": "ui.analysis.verdict.lost_at",
    "unlucky": "ui.analysis.verdict.unlucky",
    "still_won": "ui.analysis.verdict.still_won",
    "won_until": "ui.analysis.verdict.won_until",
    "unknown": "ui.analysis.verdict.unknown",
}
"""Each verdict's message code (placeholders: ``move``, and ``play``: the move in words)."""

CODES = tuple(MESSAGES)


@dataclass(frozen=True)
class Verdict:
    """``code`` (one of :data:`CODES`; the message is ``ui.analysis.verdict.<code>``) and
    its ``params`` (``move``: the move number, 1 for the first; ``text``: the move's
    notation; ``cards``: the codes of the cards it moved)."""

    code: str
    params: dict[str, Any]

    @property
    def message(self) -> str:
        return MESSAGES[self.code]

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "params": self.params}


def lost_at(outcomes: Sequence[Outcome]) -> int | None:
    """The move (1-based) after which the game could no longer be won: position ``k - 1``
    proven won and position ``k`` proven lost; None when no such pair exists.

    >>> lost_at(["won", "won", "lost"]), lost_at(["won", "unknown", "lost"])
    (2, None)
    """
    for k in range(1, len(outcomes)):
        if outcomes[k - 1] == "won" and outcomes[k] == "lost":
            return k
    return None


def verdict(
    outcomes: Sequence[Outcome],
    *,
    won: bool,
    grades: Sequence[Grade | None],
    cleared: Sequence[bool],
    hidden: Sequence[bool],
    moves: Sequence[str],
    cards: Sequence[Sequence[str]],
) -> Verdict:
    """The verdict of a game whose positions ``0 … n`` have these full-information
    ``outcomes``. ``grades[k - 1]``, ``cleared[k - 1]``, ``moves[k - 1]`` and
    ``cards[k - 1]`` belong to move ``k``; ``hidden[k]``: position ``k`` had a card the
    player could not see."""
    if won:
        return Verdict("won", {})
    if outcomes and outcomes[0] == "lost":
        return Verdict("deal_lost", {})
    k = lost_at(outcomes)
    if k is not None:
        params = {"move": k, "text": moves[k - 1], "cards": list(cards[k - 1])}
        luck = hidden[k - 1] and grades[k - 1] is None and cleared[k - 1]
        return Verdict("unlucky" if luck else "lost_at", params)
    if outcomes and outcomes[-1] == "won":
        return Verdict("still_won", {})
    last_won = max((i for i, o in enumerate(outcomes) if o == "won"), default=None)
    if last_won is not None:
        return Verdict("won_until", {"move": last_won})
    return Verdict("unknown", {})
