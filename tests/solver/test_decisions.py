"""``benchmarks/decisions.py``: the scaled budgets, which positions are critical, and the
fatal share with its pairing between budgets."""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from pasyans.engine.core import apply, initial_state, legal_moves
from pasyans.hints import Budget
from pasyans.hints.policy import player_budget
from pasyans.hints.sampling import known
from pasyans.position import State
from pasyans.rules import get_game

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
_spec = importlib.util.spec_from_file_location("decisions_benchmark", BENCHMARKS / "decisions.py")
assert _spec is not None and _spec.loader is not None
decisions = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = decisions  # dataclasses look their module up
sys.path.append(str(BENCHMARKS))  # decisions.py imports paired.py, its neighbour
try:
    _spec.loader.exec_module(decisions)
finally:
    sys.path.remove(str(BENCHMARKS))


def test_a_scaled_budget_doubles_the_samples_and_multiplies_the_nodes() -> None:
    base = Budget(seconds=None, nodes=8000, samples=8, player=1024, playout=2000, macro=4)
    assert decisions.scaled(base, "x1") == base
    big = decisions.scaled(base, "x16")
    assert (big.samples, big.nodes, big.player, big.playout, big.macro) == (
        32,
        128_000,
        4096,
        8000,
        4,
    )
    for bad in ("x8", "x0", "xfour", "x"):
        with pytest.raises(SystemExit, match="power of 4"):
            decisions.scaled(base, bad)
    spec = get_game("spider", {"suits": "2"})
    assert decisions.budget_of(spec, "product") == player_budget(spec, "product")
    with pytest.raises(SystemExit, match="product, expert or xK"):
        decisions.budget_of(spec, "huge")
    variant = decisions.budget_of(spec, "x4+deeper=3+guard=0+seed=5")
    assert variant == replace(decisions.budget_of(spec, "x4"), deeper=3, guard=False, seed=5)
    for bad in ("x1+deep=3", "x1+deeper", "x1+deeper=many"):
        with pytest.raises(SystemExit, match="x1\\+"):
            decisions.budget_of(spec, bad)


def test_a_position_is_critical_when_some_moves_keep_the_win_and_others_do_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spec = get_game("spider", {"suits": "1"})
    state = initial_state(spec, 3)
    moves = legal_moves(spec, state)
    good = {apply(spec, state, m) for m in moves[:2]}
    verdicts: dict[State, str] = {state: "won"}

    def judge(spec_: object, s: State, nodes: int) -> SimpleNamespace:
        assert nodes == 500
        return SimpleNamespace(result=verdicts.get(s, "won" if s in good else "unknown"))

    monkeypatch.setattr(decisions, "solve", judge)
    c = decisions.critical(spec, 3, 7, state, 500)
    assert c is not None and (c.deal, c.index, c.legal) == (3, 7, len(moves))
    assert c.safe == {m.to_str() for m in moves[:2]}
    good |= {apply(spec, state, m) for m in moves}  # every move alike: not critical
    assert decisions.critical(spec, 3, 7, state, 500) is None
    verdicts[state] = "unknown"  # the true position not found won: not critical
    assert decisions.critical(spec, 3, 7, state, 500) is None
    assert known(spec, state) != state  # (cards are hidden here; with none it is skipped)


def test_the_fatal_share_and_the_pairing(capsys: pytest.CaptureFixture[str]) -> None:
    def row(deal: int, budget: str, safe: int) -> dict[str, str]:
        return {
            "deal": str(deal),
            "index": "4",
            "budget": budget,
            "move": "t1>t2",
            "safe": str(safe),
            "cpu": "0.010",
        }

    rows = [row(d, "x1", int(d > 3)) for d in range(1, 11)]  # fatal at deals 1-3
    rows += [row(d, "x4", int(d != 5)) for d in range(1, 11)]  # fatal at deal 5 only
    lines = decisions.summary(rows, ["x1", "x4"])
    assert lines[0].startswith("x1: 10 decisions, fatal 3 = 30.0%")
    assert "CPU a decision median 10 ms" in lines[0]
    assert lines[1].startswith("x4: 10 decisions, fatal 1 = 10.0%")
    assert "against x1: 3 saved, 1 spoiled, sign test p = 0.625" in lines[1]
