"""``pasyans solve`` and ``pasyans winnability`` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pasyans.cli import app
from pasyans.engine.core import is_won
from pasyans.engine.moves import Move
from pasyans.rules import get_game
from pasyans.solver.layout import state_from_layout
from pasyans.solver.search import replay


def _run(args: list[str]) -> tuple[int, str]:
    r = CliRunner().invoke(app, args)
    return r.exit_code, r.stdout


def test_solve_json_shape_and_the_moves_win() -> None:
    code, out = _run(["solve", "spine", "--deal", "3", "--json", "--nodes", "50000"])
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"result", "moves", "nodes", "seconds"}
    assert data["result"] == "won" and isinstance(data["nodes"], int)
    moves = [Move.from_json(m) for m in data["moves"]]
    assert all(set(m) == {"from", "to", "cards"} for m in data["moves"])
    from pasyans.deals import start_position

    spec = get_game("spine")
    assert is_won(spec, replay(spec, start_position(spec, 3, "solvable"), moves))


def test_solve_random_spine_deal_is_lost() -> None:
    code, out = _run(["solve", "spine", "--deal", "3", "--random", "--json"])
    assert code == 0 and json.loads(out)["result"] == "lost"


def test_solve_layout_file_from_deal_json(tmp_path: Path) -> None:
    code, out = _run(["deal", "spider", "-d", "2", "-o", "suits=1", "--json"])
    assert code == 0
    path = tmp_path / "layout.json"
    path.write_text(out)
    spec, state = state_from_layout(json.loads(out))
    assert state.down[spec.index["t1"]] == 5 and state.piles[spec.index["stock"]]
    code, out = _run(["solve", "spider", "--layout", str(path), "--json", "--nodes", "3000"])
    assert code == 0
    data = json.loads(out)
    assert data["result"] == "won"
    assert data["moves"][0].keys() <= {"from", "to", "cards"}
    assert any(m == {"from": "stock"} for m in data["moves"])


def test_solve_needs_exactly_one_target() -> None:
    code, _ = _run(["solve", "spine"])
    assert code == 2


def test_solve_text_summary() -> None:
    code, out = _run(["solve", "backbone", "--deal", "1", "--nodes", "20000"])
    assert code == 0 and "result   won" in out and "moves" in out


def test_winnability_json_and_csv(tmp_path: Path) -> None:
    csv_path = tmp_path / "w.csv"
    code, out = _run(
        ["winnability", "spine", "--deals", "1-6", "--jobs", "1", "--nodes", "1000",
         "--csv", str(csv_path), "--json"]
    )  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert (data["won"], data["lost"], data["unknown"]) == (0, 6, 0)
    assert data["ci95_decided"][0] == 0.0 and 0 < data["ci95_decided"][1] < 0.5
    rows = csv_path.read_text().splitlines()
    assert rows[0] == "deal,result,nodes,seconds,moves" and len(rows) == 7
