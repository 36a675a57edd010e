"""This tree against an older one, in one run: engine moves/s, solver positions/s, load p99.

Each tree runs its own benchmark scripts with its own Python (the older tree's
``.venv``, made by ``uv sync`` there, which also builds its compiled core), the two trees
alternating round by round (older first in odd rounds, this tree first in even ones), so
that a change in the machine's load falls on both. It prints every round's figures and
then, per figure, the median of each tree and the ratio this tree / older::

    git archive bac8221 | tar -x -C /tmp/before && (cd /tmp/before && uv sync --locked)
    uv run python benchmarks/side_by_side.py --before /tmp/before --rounds 3

The figures, each from the named script of each tree:

- ``engine.py --steps S --repeats 1``: moves per CPU second of seeded random playouts,
  core path and ``Game`` path; the median over its game and option rows;
- ``solver.py --skip-spine --skip-sweep --spider-rate D --engine-rate D``: positions per
  CPU second of the compiled search (Spider 1, 2, 4 suits; Backbone, Backbone classic,
  Spine) and of the engine's search (Nivernais), deals 1…D;
- ``load.py --players P --duration T``: the p99 of a move in ms (SQLite, one worker; the
  players' think time as load.py sets it), unless ``--skip-load``.

A ratio above 1 is this tree faster (moves/s, positions/s) or slower (p99 ms).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def run(python: str, tree: Path, script: str, *args: str) -> str:
    """Run ``tree``'s ``benchmarks/<script>`` with ``python``; its standard output."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    out = subprocess.run(
        [python, str(tree / "benchmarks" / script), *args],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode:
        raise SystemExit(f"{tree}: {script} failed:\n{out.stdout}\n{out.stderr}")
    return out.stdout


def number(text: str) -> float:
    return float(text.replace(",", ""))


def engine_figures(text: str) -> dict[str, float]:
    """The median over the game/option rows of the core and the Game moves/s."""
    core: list[float] = []
    full: list[float] = []
    rows = text.splitlines()
    start = next(i for i, line in enumerate(rows) if line.startswith("game"))
    for line in rows[start + 1 :]:
        parts = line.split()
        if len(parts) >= 4:
            core.append(number(parts[-2]))
            full.append(number(parts[-1]))
    return {
        "engine moves/s, core (median of rows)": statistics.median(core),
        "engine moves/s, Game (median of rows)": statistics.median(full),
    }


def solver_figures(text: str) -> dict[str, float]:
    """Compiled positions/s per Spider suit count and per foundation game; the engine's for
    a game with no compiled domain."""
    out: dict[str, float] = {}
    part = ""
    for line in text.splitlines():
        if line.startswith("== Spider"):
            part = "spider"
            continue
        if line.startswith("== Positions"):
            part = "engine"
            continue
        parts = line.split()
        if part == "spider" and len(parts) == 6 and parts[0].isdigit():
            out[f"solver positions/s, Spider {parts[0]} suit(s), compiled"] = number(parts[3])
        elif part == "engine" and len(parts) >= 7 and parts[0] != "game":
            label = " ".join(parts[:-6])
            engine, compiled = parts[-6], parts[-4]
            if compiled == "-":
                out[f"solver positions/s, {label}, engine"] = number(engine)
            else:
                out[f"solver positions/s, {label}, compiled"] = number(compiled)
    return out


def load_figures(text: str, players: int) -> dict[str, float]:
    """The move's p99 in ms at ``players`` players (load.py's table row)."""
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) > 6 and cells[1] == str(players):
            return {f"load p99 ms, {players} players, SQLite": float(cells[6])}
    raise SystemExit(f"no row for {players} players in load.py's output:\n{text}")


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--before", required=True, type=Path, help="the older tree (with its .venv)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--steps", type=int, default=3000, help="engine.py --steps")
    ap.add_argument("--deals", type=int, default=5, help="solver.py's rate parts, deals 1…N")
    ap.add_argument("--players", type=int, default=64, help="load.py --players")
    ap.add_argument("--duration", type=int, default=20, help="load.py --duration (s)")
    ap.add_argument("--skip-load", action="store_true")
    args = ap.parse_args()
    before = args.before.resolve()
    python = before / ".venv" / "bin" / "python"
    if not python.exists():
        raise SystemExit(f"{python} is missing: run `uv sync --locked` in {before}")
    trees = {"before": (str(python), before), "this tree": (sys.executable, HERE)}
    figures: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for r in range(args.rounds):
        order = list(trees) if r % 2 == 0 else list(reversed(trees))
        for name in order:
            py, tree = trees[name]
            print(f"# round {r + 1}, {name} ({tree}), load average {load_average()}", flush=True)
            got = engine_figures(run(py, tree, "engine.py", "--steps", str(args.steps),
                                     "--repeats", "1"))  # fmt: skip
            deals = str(args.deals)
            got |= solver_figures(run(py, tree, "solver.py", "--skip-spine", "--skip-sweep",
                                      "--spider-rate", deals, "--engine-rate", deals))  # fmt: skip
            if not args.skip_load:
                text = run(py, tree, "load.py", "--players", str(args.players),
                           "--duration", str(args.duration))  # fmt: skip
                got |= load_figures(text, args.players)
            for key, value in got.items():
                figures[key][name].append(value)
                print(f"#   {key}: {value:,.1f}", flush=True)
    print(f"\n| figure | before (median of {args.rounds}) | this tree | ratio this / before |")
    print("|---|---:|---:|---:|")
    for key, by_tree in figures.items():
        # A figure one tree alone prints (a search compiled since) has no ratio.
        pair = (by_tree["before"], by_tree["this tree"])
        b, t = (statistics.median(v) if v else None for v in pair)
        shown = ["–" if v is None else f"{v:,.1f}" for v in (b, t)]
        ratio = f"{t / b:.2f}" if b and t else "–"
        print(f"| {key} | {shown[0]} | {shown[1]} | {ratio} |")


if __name__ == "__main__":
    main()
