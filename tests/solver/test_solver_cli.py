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
    assert rows[0] == "deal,result,nodes,seconds,moves,budget" and len(rows) == 7
    assert all(r.endswith(",nodes=1000") for r in rows[1:])


def test_winnability_resumes_and_refuses_another_budget(tmp_path: Path) -> None:
    csv_path = tmp_path / "w.csv"
    base = ["winnability", "spine", "--jobs", "1", "--csv", str(csv_path), "--json"]
    code, out = _run([*base, "--deals", "1-3", "--nodes", "1000"])
    assert code == 0 and json.loads(out)["skipped"] == 0
    first = csv_path.read_text()
    code, out = _run([*base, "--deals", "1-5", "--nodes", "1000"])
    data = json.loads(out)
    assert code == 0 and data["skipped"] == 3 and data["lost"] == 5
    lines = csv_path.read_text().splitlines()
    assert [line.split(",")[0] for line in lines[1:]] == ["1", "2", "3", "4", "5"]
    assert "\n".join(lines[:4]) + "\n" == first  # the first three rows were kept, not redone
    # A run cut off while writing a row: that deal is solved again, the rest kept.
    csv_path.write_text("\n".join(lines[:5]) + "\n5,lo")
    code, out = _run([*base, "--deals", "1-5", "--nodes", "1000"])
    assert code == 0 and json.loads(out)["skipped"] == 4
    again = csv_path.read_text().splitlines()
    assert again[:5] == lines[:5] and again[5].split(",")[:3] == lines[5].split(",")[:3]
    code, _ = _run([*base, "--deals", "1-5", "--nodes", "2000"])
    assert code == 2 and len(csv_path.read_text().splitlines()) == 6  # nothing changed
    code, out = _run([*base, "--deals", "2", "--nodes", "2000", "--fresh"])
    assert code == 0 and len(csv_path.read_text().splitlines()) == 2


def test_winnability_on_a_dask_cluster_of_two_workers(tmp_path: Path) -> None:
    from dask.distributed import LocalCluster

    csv_path = tmp_path / "w.csv"
    # Two in-process workers: quick to start, nothing left behind.
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        code, out = _run(
            ["winnability", "spine", "--deals", "1-6", "--scheduler", cluster.scheduler_address,
             "--nodes", "1000", "--csv", str(csv_path), "--json"]
        )  # fmt: skip
        assert code == 0, out
        assert len(cluster.scheduler.workers) == 2
        assert "decide" in cluster.scheduler.task_prefixes  # the deals ran on the cluster
    data = json.loads(out)
    assert (data["won"], data["lost"], data["unknown"]) == (0, 6, 0)
    rows = csv_path.read_text().splitlines()
    assert [r.split(",")[0] for r in rows[1:]] == ["1", "2", "3", "4", "5", "6"]
    # The same deals in this process give the same rows: node budgets are reproducible.
    alone = tmp_path / "alone.csv"
    code, _ = _run(["winnability", "spine", "--deals", "1-6", "--jobs", "1", "--nodes", "1000",
                    "--csv", str(alone), "--json"])  # fmt: skip
    strip = [[f for i, f in enumerate(r.split(",")) if i != 3] for r in rows]
    assert strip == [[f for i, f in enumerate(r.split(",")) if i != 3]
                     for r in alone.read_text().splitlines()]  # fmt: skip
