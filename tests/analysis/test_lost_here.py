"""The "became unwinnable" move is exact on 50 lost games a simple player made, for each
game whose every card is known or whose search is complete and fast (issue 30): Spine
and Backbone from their solvable layouts (as the site deals them), Backbone classic from
random deals. Each analysis's claim is checked against fresh searches with an ample
budget: the move's position before it won and the one after it lost; a deal said lost
is lost from its start; a game said still winnable is won from its end. No game may be
left undecided at its boundary."""

from __future__ import annotations

import pytest

from pasyans import deals
from pasyans.analysis import analyse, line_of
from pasyans.analysis.simple import play_simply
from pasyans.rules import get_game
from pasyans.solver.search import solve

GAMES = 50
AMPLE = 60.0  # seconds a check may search (each takes well under a second here)
SOLVABLE = {"spine", "backbone"}


def lost_games(game_id: str, cap: int):  # type: ignore[no-untyped-def]
    """The first ``GAMES`` games the simple player did not win, deals 1, 2, …"""
    spec = get_game(game_id)
    deal = 0
    while True:
        deal += 1
        start = None
        if game_id in SOLVABLE:
            start = deals.start_position(spec, deal, "solvable", "easy")
        game = play_simply(game_id, deal, start=start, seed=deal, cap=cap)
        if not game.won:
            yield game


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "cap"), [("spine", 200), ("backbone", 200),
                                              ("backbone-classic", 200)])  # fmt: skip
def test_the_lost_here_move_is_exact(game_id: str, cap: int) -> None:
    seen: dict[str, int] = {}
    for n, game in enumerate(lost_games(game_id, cap)):
        if n == GAMES:
            break
        a = analyse(game)
        code = a.verdict.code
        seen[code] = seen.get(code, 0) + 1
        states, _ = line_of(game)
        spec = game.spec
        where = f"{game_id} deal {game.deal}: {code}"
        assert code in {"lost_at", "unlucky", "deal_lost", "still_won"}, where
        if code in {"lost_at", "unlucky"}:
            assert a.lost_at is not None, where
            assert solve(spec, states[a.lost_at - 1], seconds=AMPLE).result == "won", where
            assert solve(spec, states[a.lost_at], seconds=AMPLE).result == "lost", where
        elif code == "deal_lost":
            assert solve(spec, states[0], seconds=AMPLE).result == "lost", where
        else:
            assert solve(spec, states[-1], seconds=AMPLE).result == "won", where
    assert sum(seen.values()) == GAMES
    if game_id == "spine":  # no hidden card: every lost move is seen and exact
        assert set(seen) <= {"lost_at"}, seen
