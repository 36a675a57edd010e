"""``pasyans winnability``: the solver over a range of deals, in parallel processes.

Prints won / lost / unknown with 95% Wilson intervals and writes one CSV row per deal.
"""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Annotated, Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from typer import Option

from pasyans.cli import app
from pasyans.cli.common import GameArg, OptionsOpt, Output, error_line, fail, parse_options
from pasyans.errors import PasyansError
from pasyans.solver.sweep import Summary, Task, decide, parse_range, summarize

DealsOpt = Annotated[str, Option("--deals", help="Deal numbers, e.g. 1-1000 or 1-50,90.")]
JobsOpt = Annotated[int, Option("--jobs", "-j", min=1, help="Worker processes.")]
SecondsOpt = Annotated[float | None, Option("--seconds", help="Time budget per deal.")]
NodesOpt = Annotated[
    int | None, Option("--nodes", help="Node budget per deal (reproducible; no time limit).")
]
SweepKindOpt = Annotated[
    bool,
    Option("--solvable/--random", help="Sweep the solvable deals, or the plain shuffles."),
]
CsvOpt = Annotated[
    Path | None,
    Option("--csv", help="CSV file, one row per deal (default: winnability-GAME[-OPTIONS].csv)."),
]
JsonOpt = Annotated[bool, Option("--json", help="One JSON object instead of a table.")]
ProgressOpt = Annotated[bool, Option("--progress/--no-progress", help="Show a progress bar.")]

FIELDS = ("deal", "result", "nodes", "seconds", "moves")


def default_csv(game: str, options: dict[str, str], kind: str) -> Path:
    words = [game, *(f"{k}={v}" for k, v in options.items())]
    if kind != "random":
        words.append(kind)
    return Path("winnability-" + "-".join(words) + ".csv")


def run_tasks(tasks: list[Task], jobs: int) -> Iterator[dict[str, Any]]:
    """Results in deal order, computed in ``jobs`` processes."""
    if jobs == 1:
        yield from map(decide, tasks)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(decide, tasks, chunksize=1)


def table(game: str, options: dict[str, str], kind: str, s: Summary) -> list[str]:
    opts = " ".join(f"{k}={v}" for k, v in options.items()) or "-"
    lines = [f"{game}  {opts}  {kind} deals: {s.total}"]
    lines.append(f"won      {s.won}")
    lines.append(f"lost     {s.lost}")
    lines.append(f"unknown  {s.unknown}")
    rate = s.rate()
    if rate is None:
        lines.append("win rate (won / decided): no deal decided")
    else:
        lo, hi = s.interval()
        lines.append(
            f"win rate (won / decided): {100 * rate:.1f}%  95% CI {100 * lo:.1f}–{100 * hi:.1f}%"
        )
    blo, bhi = s.bounds()
    lines.append(f"all deals, unknowns as losses…wins: 95% bounds {100 * blo:.1f}–{100 * bhi:.1f}%")
    return lines


@app.command("winnability")
def winnability_command(
    game: GameArg,
    deals: DealsOpt = "1-100",
    option: OptionsOpt = None,
    solvable: SweepKindOpt = False,
    jobs: JobsOpt = 2,
    seconds: SecondsOpt = None,
    nodes: NodesOpt = None,
    csv_path: CsvOpt = None,
    as_json: JsonOpt = False,
    progress: ProgressOpt = True,
) -> None:
    """Solve many deals and report how many are winnable, with 95% confidence intervals."""
    kind = "solvable" if solvable else "random"
    try:
        options = parse_options(game, option)
        numbers = parse_range(deals)
    except (PasyansError, ValueError) as e:
        fail(error_line(e) if isinstance(e, PasyansError) else str(e))
    if seconds is None and nodes is None:
        seconds = 10.0
    opts = tuple(sorted(options.items()))
    tasks = [Task(game, opts, n, kind, seconds, nodes) for n in numbers]
    path = csv_path or default_csv(game, options, kind)
    rows: list[dict[str, Any]] = []
    show = progress and sys.stderr.isatty()
    with (
        path.open("w", newline="", encoding="utf-8") as fh,
        Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            disable=not show,
            transient=True,
        ) as bar,
    ):
        writer = csv.DictWriter(fh, fieldnames=FIELDS)
        writer.writeheader()
        job = bar.add_task(f"{game} deals", total=len(tasks))
        for row in run_tasks(tasks, jobs):
            writer.writerow(row)
            rows.append(row)
            bar.advance(job)
    s = summarize(rows)
    if as_json:
        out = {"game": game, "options": options, "kind": kind, "seconds": seconds, "nodes": nodes}
        out.update(s.to_json())
        out["csv"] = str(path)
        Output(color=False).line(json.dumps(out))
    else:
        Output().lines([*table(game, options, kind, s), f"csv      {path}"])
