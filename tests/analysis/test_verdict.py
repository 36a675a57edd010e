"""The verdict rules, first match wins (pasyans.analysis.verdict), unknowns included."""

from __future__ import annotations

from collections.abc import Sequence

from pasyans import messages
from pasyans.analysis import CODES, Grade, lost_at, verdict
from pasyans.analysis.verdict import Outcome, Verdict


def judge(
    outcomes: Sequence[Outcome],
    *,
    won: bool = False,
    grades: Sequence[Grade | None] | None = None,
    cleared: Sequence[bool] | None = None,
    hidden: Sequence[bool] | None = None,
) -> Verdict:
    n = len(outcomes) - 1
    return verdict(
        outcomes,
        won=won,
        grades=grades if grades is not None else [None] * n,
        cleared=cleared if cleared is not None else [True] * n,
        hidden=hidden if hidden is not None else [True] * (n + 1),
        moves=[f"t{k % 9 + 1}>t10" for k in range(n)],
        cards=[["7S"] for _ in range(n)],
    )


def test_won() -> None:
    assert judge(["won", "won", "won"], won=True).code == "won"


def test_the_deal_could_not_be_won() -> None:
    assert judge(["lost", "lost", "lost"]).code == "deal_lost"


def test_lost_at_names_the_move_when_the_player_could_see_it() -> None:
    v = judge(["won", "won", "lost", "lost"], grades=[None, "mistake", None])
    assert (v.code, v.params["move"], v.params["text"], v.params["cards"]) == (
        "lost_at",
        2,
        "t2>t10",
        ["7S"],
    )
    # every card known there: the player could see it, graded or not
    seen = judge(["won", "won", "lost"], hidden=[False, False, False])
    assert (seen.code, seen.params["move"]) == ("lost_at", 2)


def test_a_hidden_card_decided_it() -> None:
    v = judge(["won", "won", "lost", "lost"])
    assert (v.code, v.params["move"]) == ("unlucky", 2)


def test_an_open_chance_clears_no_one() -> None:
    """The lost-here move is ungraded because samples were left undecided, and its chance
    may have fallen far: the move is named, not called bad luck."""
    v = judge(["won", "won", "lost", "lost"], cleared=[True, False, True])
    assert (v.code, v.params["move"]) == ("lost_at", 2)
    # the same move cleared (it turned the card up, or its chance surely held)
    assert judge(["won", "won", "lost", "lost"], cleared=[False, True, False]).code == "unlucky"


def test_lost_here_needs_both_proofs() -> None:
    """A won position, then an unknown one, then a lost one: no move is "lost here"."""
    outcomes: list[Outcome] = ["won", "unknown", "lost"]
    assert lost_at(outcomes) is None
    v = judge(outcomes)
    assert (v.code, v.params) == ("won_until", {"move": 0})


def test_still_winnable_where_it_was_left() -> None:
    assert judge(["won", "won"]).code == "still_won"


def test_unknown_when_nothing_was_decided() -> None:
    assert judge(["unknown", "unknown", "lost"]).code == "unknown"
    assert judge(["unknown"]).code == "unknown"


def test_every_code_has_its_message_in_both_languages() -> None:
    for code in CODES:
        v = Verdict(code, {"move": 3, "text": "t1>t2", "cards": ["7S"]})
        en, ru = messages.both(v.message, move=3, play="7♠ → t2")
        assert en and ru and en != ru
