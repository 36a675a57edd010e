"""``pasyans winnability``: the solver over a range of deals, on a Dask cluster.

Prints won / lost / unknown with 95% Wilson intervals and writes one CSV row per deal.
The deals run on Dask distributed: a local cluster of ``--jobs`` worker processes by
default, or the cluster whose scheduler ``--scheduler`` names. The CSV is resumable: a
rerun with the same budget skips the deals it already holds.
"""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated, Any, TypeVar

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from typer import Option

from pasyans.cli.app import app
from pasyans.cli.common import GameArg, OptionsOpt, Output, error_line, fail, parse_options
from pasyans.cli.sweep import Summary, Task, decide, parse_range, summarize
from pasyans.errors import PasyansError

T = TypeVar("T")
R = TypeVar("R")

DealsOpt = Annotated[str, Option("--deals", help="Deal numbers, e.g. 1-1000 or 1-50,90.")]
JobsOpt = Annotated[
    int,
    Option("--jobs", "-j", min=1, help="Worker processes of the local cluster (1: no cluster)."),
]
SchedulerOpt = Annotated[
    str | None,
    Option(
        "--scheduler",
        help="Address of a Dask scheduler (e.g. tcp://10.0.0.5:8786) instead of a local cluster.",
    ),
]
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
FreshOpt = Annotated[
    bool, Option("--fresh", help="Start the CSV anew instead of skipping the deals it holds.")
]
JsonOpt = Annotated[bool, Option("--json", help="One JSON object instead of a table.")]
ProgressOpt = Annotated[bool, Option("--progress/--no-progress", help="Show a progress bar.")]

FIELDS = ("deal", "result", "nodes", "seconds", "moves", "budget")

IN_FLIGHT_PER_WORKER = 4
"""Deals handed to the cluster at once per worker thread: enough to keep every worker
busy, few enough that 100,000 deals never sit in the scheduler at once."""


def default_csv(game: str, options: dict[str, str], kind: str) -> Path:
    words = [game, *(f"{k}={v}" for k, v in options.items())]
    if kind != "random":
        words.append(kind)
    return Path("winnability-" + "-".join(words) + ".csv")


def budget_text(seconds: float | None, nodes: int | None) -> str:
    """The budget as one CSV field, e.g. ``nodes=5000`` or ``seconds=10``.

    >>> budget_text(None, 5000), budget_text(10.0, None), budget_text(2.5, 100)
    ('nodes=5000', 'seconds=10', 'seconds=2.5 nodes=100')
    """
    words = []
    if seconds is not None:
        words.append(f"seconds={seconds:g}")
    if nodes is not None:
        words.append(f"nodes={nodes}")
    return " ".join(words)


def read_done(path: Path, budget: str) -> dict[int, dict[str, Any]]:
    """The rows already in ``path`` (deal → row); raises ``ValueError`` when the file is
    not a winnability CSV or was made with another budget (its rows would not compare)."""
    if not path.exists() or path.stat().st_size == 0:
        return {}
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        if tuple(reader.fieldnames or ()) != FIELDS:
            raise ValueError(
                f"{path} is not a winnability CSV of this version "
                f"(columns {','.join(FIELDS)}); use --fresh or another --csv"
            )
        done: dict[int, dict[str, Any]] = {}
        for row in reader:
            if any(row.get(f) in (None, "") for f in FIELDS):
                continue  # cut short by an interrupted run: solve that deal again
            if row["budget"] != budget:
                raise ValueError(
                    f"{path} holds deals solved with budget {row['budget']!r}, not {budget!r};"
                    " use --fresh or another --csv"
                )
            done[int(row["deal"])] = {
                "deal": int(row["deal"]),
                "result": row["result"],
                "nodes": int(row["nodes"]),
                "seconds": float(row["seconds"]),
                "moves": int(row["moves"]),
                "budget": row["budget"],
            }
    return done


def run_tasks(
    tasks: list[Task], jobs: int, scheduler: str | None = None
) -> Iterator[dict[str, Any]]:
    """One row per task, as each finishes (in any order), computed on Dask
    (:func:`run_on_dask` of :func:`decide`)."""
    yield from run_on_dask(decide, tasks, jobs, scheduler)


def run_on_dask(
    fn: Callable[[T], R], tasks: Sequence[T], jobs: int, scheduler: str | None = None
) -> Iterator[R]:
    """``fn`` of each task, as each finishes (in any order), computed on Dask: the cluster
    at ``scheduler``, else a local cluster of ``jobs`` processes (one thread each: the
    solver is pure Python). ``jobs == 1`` without a scheduler runs here, in this process."""
    if not tasks:
        return
    if scheduler is None and jobs == 1:
        yield from map(fn, tasks)
        return
    from dask.distributed import Client, LocalCluster, as_completed

    with ExitStack() as stack:
        if scheduler is None:
            cluster = stack.enter_context(
                LocalCluster(  # type: ignore[no-untyped-call]
                    n_workers=jobs,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                )
            )
            client = stack.enter_context(Client(cluster))  # type: ignore[no-untyped-call]
        else:
            client = stack.enter_context(
                Client(scheduler, timeout=30)  # type: ignore[no-untyped-call]
            )
        threads = max(1, sum(client.nthreads().values()))
        window = IN_FLIGHT_PER_WORKER * threads
        queue = iter(tasks)
        first = [client.submit(fn, t, pure=False) for t in _take(queue, window)]
        running = as_completed(first)  # type: ignore[no-untyped-call]
        for future in running:
            yield future.result()
            future.release()
            for t in _take(queue, 1):
                running.add(client.submit(fn, t, pure=False))  # type: ignore[no-untyped-call]


def _take(queue: Iterator[T], n: int) -> list[T]:
    out: list[T] = []
    for t in queue:
        out.append(t)
        if len(out) >= n:
            break
    return out


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


def _write_sorted(path: Path, rows: dict[int, dict[str, Any]]) -> None:
    """Rewrite ``path`` with ``rows`` in deal order (so that reruns compare line by line)."""
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=FIELDS)
        writer.writeheader()
        for deal in sorted(rows):
            writer.writerow(rows[deal])
    tmp.replace(path)


@app.command("winnability")
def winnability_command(
    game: GameArg,
    deals: DealsOpt = "1-100",
    option: OptionsOpt = None,
    solvable: SweepKindOpt = False,
    jobs: JobsOpt = 2,
    scheduler: SchedulerOpt = None,
    seconds: SecondsOpt = None,
    nodes: NodesOpt = None,
    csv_path: CsvOpt = None,
    fresh: FreshOpt = False,
    as_json: JsonOpt = False,
    progress: ProgressOpt = True,
) -> None:
    """Solve many deals and report how many are winnable, with 95% confidence intervals.

    Long because of its command-line options (typer reads them from the signature); the work
    is in :mod:`pasyans.cli.sweep`."""
    kind = "solvable" if solvable else "random"
    try:
        options = parse_options(game, option)
        numbers = parse_range(deals)
    except (PasyansError, ValueError) as e:
        fail(error_line(e) if isinstance(e, PasyansError) else str(e))
    if seconds is None and nodes is None:
        seconds = 10.0
    budget = budget_text(seconds, nodes)
    path = csv_path or default_csv(game, options, kind)
    try:
        done = {} if fresh else read_done(path, budget)
    except ValueError as e:
        fail(str(e))
    opts = tuple(sorted(options.items()))
    wanted = set(numbers)
    tasks = [Task(game, opts, n, kind, seconds, nodes) for n in numbers if n not in done]
    show = progress and sys.stderr.isatty()
    rows = dict(done)
    _write_sorted(path, rows)  # the rows kept, whole lines only: appending starts clean
    with (
        path.open("a", newline="", encoding="utf-8") as fh,
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
        job = bar.add_task(f"{game} deals", total=len(numbers), completed=len(numbers) - len(tasks))
        # Each row is on disk as soon as its deal is decided: an interrupted sweep resumes.
        for row in run_tasks(tasks, jobs, scheduler):
            row["budget"] = budget
            writer.writerow(row)
            fh.flush()
            rows[int(row["deal"])] = row
            bar.advance(job)
    _write_sorted(path, rows)
    s = summarize(r for d, r in rows.items() if d in wanted)
    if as_json:
        out = {"game": game, "options": options, "kind": kind, "seconds": seconds, "nodes": nodes}
        out.update(s.to_json())
        out["csv"] = str(path)
        out["skipped"] = len(numbers) - len(tasks)
        Output(color=False).line(json.dumps(out))
    else:
        Output().lines([*table(game, options, kind, s), f"csv      {path}"])
