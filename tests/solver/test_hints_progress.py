"""The progress of an undecided Spider search (``spider.Found.line`` without a win)."""

from __future__ import annotations

import pytest

from pasyans.domains import spider
from pasyans.engine.core import apply, initial_state
from pasyans.rules import get_game


@pytest.mark.parametrize(("suits", "deal"), [("4", 1), ("4", 6), ("2", 3)])
def test_an_undecided_search_reports_the_line_to_its_best_position(suits: str, deal: int) -> None:
    spec = get_game("spider", {"suits": suits})
    state = initial_state(spec, deal)
    game = spider.SpiderGame(spec, state)
    c = spider.staged(game, nodes=300, seconds=None, prune=True, use_compiled=True)
    python = spider.staged(game, nodes=300, seconds=None, prune=True, use_compiled=False)
    assert c == python and c.status == "unknown" and c.line
    # The line is legal, and it ends nearer a win than it starts.
    pos = game.root
    for st in c.line:
        assert st in game.child_steps(pos, prune=False)[0]
        pos = game.play(pos, st)
    assert pos[4] < game.root[4]
    s = state
    for st in c.line:
        s = apply(spec, s, game.move(st))
    # Only the start expanded: no line.
    one = spider.staged(game, nodes=1, seconds=None, prune=True)
    assert one.status == "unknown" and one.line == ()
