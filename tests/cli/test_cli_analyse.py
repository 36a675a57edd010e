"""``pasyans analyse SAVED.json``: the table and verdict, the JSON, and a clear error."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from typer.testing import Result

from pasyans.analysis.simple import play_simply

Invoke = Callable[..., Result]  # the `invoke` fixture of tests/cli/conftest.py


def saved(tmp_path: Path) -> Path:
    game = play_simply("spider", 3, {"suits": "1"}, seed=3)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.to_saved()))
    return path


def test_table_and_verdict(invoke: Invoke, tmp_path: Path) -> None:
    r = invoke(["analyse", str(saved(tmp_path))])
    assert r.exit_code == 0, r.output
    assert "Marked moves" in r.output and "The game was lost here" in r.output
    assert "It was winnable until move 30, when you played 7S t4>t9." in r.output
    # the chance before it is a range (7 of its 8 samples won, 1 undecided), after it 0
    assert "88–100% → 0%" in r.output


def test_json_is_the_analysis(invoke: Invoke, tmp_path: Path) -> None:
    r = invoke(["analyse", str(saved(tmp_path)), "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["lost_at"] == 30 and out["verdict"]["code"] == "lost_at"
    assert len(out["points"]) == out["moves"] + 1
    before = out["points"][29]
    assert (before["chance"], before["low"], before["high"]) == (None, 0.875, 1.0)


def test_not_a_saved_game(invoke: Invoke, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "spider", "deal": 1, "moves": ["t1>zz"]}')
    r = invoke(["analyse", str(bad)])
    assert r.exit_code == 2 and "pasyans: error:" in r.output
