"""``benchmarks/paired.py``: follower runs compared pair by pair and pooled over pairs
(one a hint seed), with the sign test and the share of the deals proven winnable."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import pytest
from devtools import load_script

paired = load_script(
    Path(__file__).resolve().parents[2] / "benchmarks" / "paired.py", "paired_benchmark"
)


def _write(path: Path, method: str, won: dict[int, bool], full: dict[int, str]) -> Path:
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, ["game", "method", "deal", "won", "full"])
        w.writeheader()
        for deal, ok in won.items():
            w.writerow(
                {
                    "game": "g",
                    "method": method,
                    "deal": deal,
                    "won": int(ok),
                    "full": full.get(deal, ""),
                }
            )
    return path


def test_the_sign_test_is_exact_and_two_sided() -> None:
    assert paired.sign_test(0, 0) == 1.0
    assert paired.sign_test(5, 0) == pytest.approx(2 / 32)
    assert paired.sign_test(0, 5) == paired.sign_test(5, 0)
    assert paired.sign_test(16, 11) == pytest.approx(
        2 * sum(paired.comb(27, i) for i in range(12)) / 2**27
    )


def test_pairs_are_pooled_with_the_share_of_the_deals_proven_winnable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    full = {1: "won", 2: "won", 3: "lost", 4: "unknown"}
    files = [
        _write(tmp_path / "b0.csv", "before 0", {1: True, 2: False, 3: False, 4: False}, full),
        _write(tmp_path / "a0.csv", "after 0", {1: True, 2: True, 3: False, 4: False}, {}),
        _write(tmp_path / "b1.csv", "before 1", {1: False, 2: True, 3: False, 4: False}, {}),
        _write(tmp_path / "a1.csv", "after 1", {1: True, 2: True, 3: False, 4: True}, {}),
    ]
    # Deal 4 is proven by after 1's win, deal 3 by nothing: 3 deals x 2 pairs = 6 games.
    assert paired.proven([paired.Run.read(f) for f in files]) == {1, 2, 4}
    monkeypatch.setattr(sys, "argv", ["paired.py", *map(str, files)])
    paired.main()
    out = capsys.readouterr().out
    assert "pooled over 2 pairs: 8 games" in out
    assert "before: won 2/8" in out and "after: won 5/8" in out
    assert "changed: 3 won only after, 0 won only before" in out
    assert "before: won 2 of the 6 games of the 3 deals proven winnable = 33.3%" in out
    assert "after: won 5 of the 6 games of the 3 deals proven winnable = 83.3%" in out


def test_an_odd_number_of_files_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    one = _write(tmp_path / "one.csv", "m", {1: True}, {})
    monkeypatch.setattr(sys, "argv", ["paired.py", str(one), str(one), str(one)])
    with pytest.raises(SystemExit, match="pairs"):
        paired.main()
