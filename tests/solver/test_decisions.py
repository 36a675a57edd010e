"""``benchmarks/decisions.py``: the scaled budgets, which positions are critical, and the
fatal share with its pairing between budgets."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from devtools import load_script

from pasyans.engine.core import apply, initial_state, legal_moves
from pasyans.hints import Budget
from pasyans.hints.policy import player_budget
from pasyans.hints.sampling import known
from pasyans.position import State
from pasyans.rules import get_game

decisions = load_script(
    Path(__file__).resolve().parents[2] / "benchmarks" / "decisions.py", "decisions_benchmark"
)


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


def test_a_chosen_move_not_found_won_is_judged_again(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = get_game("spider", {"suits": "1"})
    start = initial_state(spec, 3)
    first = legal_moves(spec, start)[0]
    after = apply(spec, start, first)
    chosen, earlier = legal_moves(spec, after)[:2]
    won_after = apply(spec, after, chosen)
    monkeypatch.setattr(decisions, "follow", lambda *a: SimpleNamespace(line=[first, chosen]))
    monkeypatch.setattr(decisions, "decide", lambda *a: (chosen, 0.01))

    def judge(spec_: object, s: State, nodes: int) -> SimpleNamespace:
        assert nodes == 9000  # only the recheck searches here: the positions are known
        return SimpleNamespace(result="won" if s == won_after else "lost")

    monkeypatch.setattr(decisions, "solve", judge)
    c = decisions.Critical(3, 1, 5, frozenset())  # the first judgement: nothing safe
    task = decisions.Task(
        "spider", {"suits": "1"}, 3, 1, 500, ("x1",), (c,), 9000, ((1, earlier.to_str()),)
    )
    deal, found, rows, rechecks = decisions.run(task)
    assert (deal, found) == (3, [c])
    assert [(r["move"], r["safe"]) for r in rows] == [(chosen.to_str(), "0")]
    assert sorted((r["move"], r["nodes"], r["result"]) for r in rechecks) == sorted(
        [(chosen.to_str(), "9000", "won"), (earlier.to_str(), "9000", "lost")]
    )
    assert decisions.run(replace(task, recheck=0))[3] == []  # off: no second judgement


def test_the_recheck_turns_a_found_win_safe_and_counts_proven_losses() -> None:
    def row(deal: int, budget: str, move: str, safe: int) -> dict[str, str]:
        return {"deal": str(deal), "index": "4", "budget": budget, "move": move} | {
            "safe": str(safe),
            "cpu": "0.010",
        }

    rows = [row(d, "x1", "t1>t2", 0) for d in range(1, 5)]
    rows += [row(d, "x4", "t3>t4", int(d > 1)) for d in range(1, 5)]

    def again(deal: int, nodes: int, result: str) -> dict[str, str]:
        return {"deal": str(deal), "index": "4", "move": "t1>t2", "nodes": str(nodes)} | {
            "result": result
        }

    rechecks = [again(1, 10, "won"), again(2, 10, "won"), again(2, 5, "lost")]
    rechecks += [again(3, 10, "lost"), again(4, 10, "unknown")]
    lines = decisions.summary(rows, ["x1", "x4"], rechecks)
    # deals 1 and 2 found won when judged again (the larger search counts), 3 proven lost
    assert lines[0].startswith("x1: 4 decisions, fatal 2 = 50.0% (95% CI 15.0-85.0%; 1 proven")
    assert lines[1].startswith("x4: 4 decisions, fatal 1 = 25.0%")
    assert "against x1: 2 saved, 1 spoiled" in lines[1]  # saved at 3, 4; spoiled at 1
    assert decisions.summary(rows, ["x1"])[0].startswith("x1: 4 decisions, fatal 4 = 100.0%")
