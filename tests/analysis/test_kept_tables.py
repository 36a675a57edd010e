"""The tables of positions proven lost that the analysis keeps between its searches along
one game (:func:`pasyans.analysis.outcomes.table_for`): Backbone's restarting search with
a kept table against a search that tries every move, on Backbone classic end games, with
dives cut short so that the table fills over many calls. (Spider's prover and its table:
tests/solver/test_spider_prove.py.)"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from pasyans.analysis.outcomes import search, table_for
from pasyans.engine.core import apply, is_won, legal_moves
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec
from pasyans.solver import search as solver
from pasyans.solver.search import replay

sys.path.insert(0, str(Path(__file__).parents[1] / "solver"))
from solver_endgames import exhaustive
from test_backbone_search import spine_endgame

CASES = [(loose, seed) for loose in (6, 9) for seed in range(1, 11)]


@pytest.fixture
def tiny_restarts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Dives of a handful of positions, so that end games need many of them."""
    monkeypatch.setattr(solver, "FIRST_DIVE", 5)
    monkeypatch.setattr(solver, "RESTART_UNIT", 3)
    monkeypatch.setattr(solver, "DETOUR", 0.5)


def playout(spec: GameSpec, state: State, seed: int, moves: int) -> list[State]:
    rng = random.Random(seed)
    line = [state]
    for _ in range(moves):
        ms = legal_moves(spec, line[-1])
        if not ms or is_won(spec, line[-1]):
            break
        line.append(apply(spec, line[-1], rng.choice(ms)))
    return line


def probed(
    monkeypatch: pytest.MonkeyPatch,
    spec: GameSpec,
    states: list[State],
    moves: list[Move],
    verdict: Callable[[int, float, bool], str],
    rounds: int,
) -> tuple[list[str], list[float]]:
    """A new ``Outcomes`` of a game's line probed as the analysis probes it (at most
    ``rounds`` searches), with the search faked: ``verdict(k, seconds, prove)`` is its
    result on position ``k``. Returns each position's outcome and the seconds asked."""
    from pasyans.analysis import outcomes

    asked: list[float] = []
    first = {s: k for k, s in reversed(list(enumerate(states)))}  # an equal position's first

    def fake(
        spec: GameSpec,
        state: State,
        seconds: float,
        nodes: object,
        table: object = None,
        *,
        prove: bool = False,
    ) -> solver.Result:
        asked.append(seconds)
        return solver.Result(verdict(first[state], seconds, prove), (), 0)

    monkeypatch.setattr(outcomes, "search", fake)
    o = outcomes.Outcomes(spec, states, moves)
    for _ in range(rounds):
        k = o.next_probe()
        if k is None:
            break
        o.search(k, o.seconds(k, 2.0), None)
    return [o.outcome(k)[0] for k in range(len(states))], asked


@pytest.mark.parametrize(("loose", "seed"), CASES)
def test_a_kept_table_answers_as_every_move_does(
    tiny_restarts: None, loose: int, seed: int
) -> None:
    """Along a random game, the later positions first (as the analysis searches), one
    table kept: each answer is the exhaustive search's, a won line replays to a win, and
    afterwards every position of other random games that the table holds is lost."""
    spec, start = spine_endgame("backbone-classic", seed, loose, seed % 2 == 0)
    table = table_for(spec, start)
    assert table is not None
    for pos in reversed(playout(spec, start, seed, 30)):
        r = search(spec, pos, 60.0, None, table)
        assert r.result == ("won" if exhaustive(spec, pos) else "lost")
        if r.result == "won":
            assert is_won(spec, replay(spec, pos, r.moves))
    for game in range(5):
        for pos in playout(spec, start, 100 * seed + game, 30):
            if search(spec, pos, 60.0, 1, table).result == "lost":
                assert not exhaustive(spec, pos)


def test_a_kept_table_belongs_to_one_game() -> None:
    spec, start = spine_endgame("backbone-classic", 1, 6, False)
    table = table_for(spec, start)
    search(spec, start, 60.0, None, table)
    other = get_game("backbone")
    with pytest.raises(ValueError, match="another game"):
        search(other, spine_endgame("backbone", 1, 6, True)[1], 60.0, None, table)


def test_only_the_searched_games_keep_a_table() -> None:
    from pasyans.engine.core import initial_state

    for game, kept in (("backbone", True), ("spider", True), ("spine", False)):
        spec = get_game(game)
        assert (table_for(spec, initial_state(spec, 1)) is not None) is kept, game


def test_with_a_kept_table_stuck_sides_retry_with_more_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Outcomes' probes, with a search faked to need 8 s next to the boundary (won up to
    position ``edge``, lost after): with a kept table the blocks next to the decided ones
    are searched again with twice the seconds each time until both sides meet; without
    one the band next to the boundary stays unknown."""
    from pasyans.analysis import line_of, outcomes
    from pasyans.analysis.simple import play_simply

    game = play_simply("spider", 2, {"suits": "1"}, seed=2, cap=80)
    states, moves = line_of(game)
    blocks = outcomes.Outcomes(game.spec, states, moves).blocks
    assert len(blocks) > 12
    edge = blocks[len(blocks) // 2][1]  # the last position of a block

    def verdict(k: int, seconds: float, prove: bool) -> str:
        if abs(k - edge) <= 12 and seconds < 8:
            return "unknown"
        return "won" if k <= edge else "lost"

    for kept in (True, False):
        if not kept:
            monkeypatch.setattr(outcomes, "table_for", lambda spec, state: None)
        said, asked = probed(monkeypatch, game.spec, states, moves, verdict, 200)
        assert all(s in ("won", "unknown") for s in said[: edge + 1])
        assert all(s in ("lost", "unknown") for s in said[edge + 1 :])
        if kept:
            assert "unknown" not in said and max(asked) == 8.0
        else:
            assert "unknown" in said and max(asked) == 2.0


@pytest.mark.parametrize("split", [True, False])
def test_backbone_splits_a_gap_to_win_past_a_hard_stretch(
    monkeypatch: pytest.MonkeyPatch, split: bool
) -> None:
    """Backbone's probes once both sides are stuck, with a search faked as Backbone's
    behave on the bands of unnamed games: won up to position ``edge``, lost after; the
    dive for a loss never decides a won position, the search for a win never a lost one,
    and a stretch of won positions early in the game needs 64 s for its win while the won
    positions after it need 2 s. Splitting the gap finds a win past the stretch, which
    settles it (every earlier position is won too) with no long search, and every
    position is decided; without it the won side's searches next to the last won block
    double until they reach 64 s."""
    from pasyans.analysis import line_of, outcomes
    from pasyans.analysis.simple import simple_game

    spec = get_game("backbone")
    game = simple_game("backbone", 2, cap=1000)
    states, moves = line_of(game)
    o = outcomes.Outcomes(spec, states, moves)
    n = len(o.blocks)
    assert n > 40
    edge = o.blocks[3 * n // 4][1]
    hard = range(o.blocks[n // 8][0], o.blocks[3 * n // 8][1] + 1)

    def verdict(k: int, seconds: float, prove: bool) -> str:
        if k > edge:
            return "lost" if prove else "unknown"
        if prove or (k in hard and seconds < 64):
            return "unknown"
        return "won"

    monkeypatch.setattr(outcomes, "SPLIT_GAPS", split)
    said, asked = probed(monkeypatch, spec, states, moves, verdict, 300)
    assert all(s in ("won", "unknown") for s in said[: edge + 1])
    assert all(s in ("lost", "unknown") for s in said[edge + 1 :])
    if split:
        assert "unknown" not in said and max(asked) < 64
    else:
        assert max(asked) >= 64


def test_backbone_gap_probes_leave_the_sides_their_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    """While Backbone splits gaps, the two galloping sides still take turns: after a gap
    probe comes the side that did not probe last. Faked as on deal 3's band: the dive
    for a loss decides nothing in the band, the win search decides every won position at
    once. Before the turns were kept, each gap probe handed the turn to the lost side, so
    the won side waited until the lost side was stuck, seven dives later."""
    from pasyans.analysis import line_of, outcomes
    from pasyans.analysis.simple import simple_game

    spec = get_game("backbone")
    game = simple_game("backbone", 2, cap=1000)
    states, moves = line_of(game)
    blocks = outcomes.Outcomes(spec, states, moves).blocks
    n = len(blocks)
    assert n > 40
    edge = blocks[n // 2][1]
    far = blocks[7 * n // 8][0]

    def verdict(k: int, seconds: float, prove: bool) -> str:
        if k > edge:
            return "lost" if prove and k >= far else "unknown"
        return "unknown" if prove else "won"

    sides: list[str] = []
    real = outcomes.Outcomes.search

    def noted(self: outcomes.Outcomes, k: int, seconds: float, nodes: int | None) -> None:
        sides.append(self.side)
        real(self, k, seconds, nodes)

    monkeypatch.setattr(outcomes.Outcomes, "search", noted)
    said, _ = probed(monkeypatch, spec, states, moves, verdict, 300)
    assert said[edge] == "won" and all(s != "won" for s in said[edge + 1 :])
    first_gap = sides.index("gap")
    after = [s for s in sides[first_gap:] if s != "gap"]
    assert after[:8] == ["won", "lost"] * 4, sides


@pytest.mark.parametrize("first", [0.1, 0.0])
def test_spiders_probe_for_a_loss_tries_a_short_win_search_first(
    monkeypatch: pytest.MonkeyPatch, first: float
) -> None:
    """Spider's probes, with a search faked as on a band seen in the 4-suit analysis (deal
    1 of the follower's games, 2026-12-07): won up to position ``edge``, lost after; the
    loss prover never decides a won position, the staged search never a lost one, and
    the won positions after the first quarter are won at once only in the last two
    blocks before the first lost one. The lost side's probe there first gives the staged
    search a tenth of its time (``WIN_FIRST``), which wins, so every position is decided;
    with the prover alone the band stays unknown however often it is searched again."""
    from pasyans.analysis import line_of, outcomes
    from pasyans.analysis.simple import play_simply

    game = play_simply("spider", 2, {"suits": "1"}, seed=2, cap=80)
    states, moves = line_of(game)
    o = outcomes.Outcomes(game.spec, states, moves)
    n = len(o.blocks)
    assert n > 12
    easy_until = o.blocks[n // 4][1]
    edge = o.blocks[3 * n // 4][1]
    near = range(o.blocks[3 * n // 4 - 1][0], edge + 1)

    def verdict(k: int, seconds: float, prove: bool) -> str:
        if prove:
            return "lost" if k > edge else "unknown"
        if k <= easy_until or k in near:
            return "won"
        return "unknown"

    monkeypatch.setattr(outcomes, "WIN_FIRST", first)
    said, asked = probed(monkeypatch, game.spec, states, moves, verdict, 200)
    assert said[: easy_until + 1] == ["won"] * (easy_until + 1)
    assert said[edge + 1 :] == ["lost"] * (len(states) - edge - 1)
    if first:
        assert "unknown" not in said and min(asked) == pytest.approx(0.2)
    else:
        assert said[easy_until + 1 : near[0]] == ["unknown"] * (near[0] - easy_until - 1)
        assert min(asked) == 2.0
