"""``pasyans analyse SAVED.json``: the analysis of a saved game in the terminal
(docs/analysis.md): a progress bar while it runs, then the marked moves and the verdict."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TaskProgressColumn, TimeElapsedColumn
from rich.table import Table
from typer import Argument, Option

from pasyans import messages
from pasyans.analysis import Analysis, Limits, Point, analyse
from pasyans.cli.app import app
from pasyans.cli.common import error_line, fail
from pasyans.deals import load_game
from pasyans.errors import PasyansError

GRADES = {
    "inaccuracy": "ui.analysis.grade.inaccuracy",
    "mistake": "ui.analysis.grade.mistake",
    "blunder": "ui.analysis.grade.blunder",
}


def play_words(text: str, cards: list[str] | tuple[str, ...]) -> str:
    """A move in words for the verdict: its first card and its notation (``7S t4>t9``)."""
    return f"{cards[0]} {text}" if cards else text


def verdict_text(a: Analysis, lang: str) -> str:
    params = dict(a.verdict.params)
    if "text" in params:
        params["play"] = play_words(params["text"], params.get("cards", []))
    return messages.text(a.verdict.message, lang, **params)


def percent(p: Point) -> str:
    """A position's chance, or the range it lies in where samples were left undecided."""
    if p.chance is not None:
        return f"{round(100 * p.chance)}%"
    if p.low is None or p.high is None:
        return "–"
    return f"{round(100 * p.low)}–{round(100 * p.high)}%"


def table(a: Analysis, lang: str) -> Table:
    """The marked moves: the graded ones and the "lost here" move."""
    out = Table(title=messages.text("ui.analysis.moves", lang))
    for name in ("#", "move", "chance", "grade", "verdict"):
        out.add_column(name, justify="right" if name == "#" else "left")
    for k, s in enumerate(a.steps, 1):
        if s.grade is None and k != a.lost_at:
            continue
        before, after = a.points[k - 1], a.points[k]
        grade = "" if s.grade is None else messages.text(GRADES[s.grade], lang)
        lost = messages.text("ui.analysis.lost_here", lang) if k == a.lost_at else ""
        out.add_row(str(k), play_words(s.text, s.cards),
                    f"{percent(before)} → {percent(after)}", grade,
                    lost or f"{before.outcome} → {after.outcome}")  # fmt: skip
    return out


@app.command("analyse")
def analyse_command(
    saved: Annotated[Path, Argument(help="A saved game (the JSON of Game.to_saved).")],
    seconds: Annotated[
        float, Option("--seconds", help="Each position's search budget.", min=0.01)
    ] = 2.0,
    total: Annotated[
        float, Option("--total", help="The whole analysis's budget, seconds.", min=0.1)
    ] = 27.0,
    as_json: Annotated[bool, Option("--json", help="The analysis as one JSON object.")] = False,
    lang: Annotated[str, Option("--lang", help="en or ru.")] = "en",
) -> None:
    """Analyse a finished (or abandoned) game: where it slipped away."""
    try:
        data: Any = json.loads(saved.read_text("utf-8"))
        game = load_game(data)
    except OSError as e:
        fail(f"cannot read {saved}: {e.strerror}")
    except json.JSONDecodeError as e:
        fail(f"{saved} is not JSON: {e.msg} (line {e.lineno})")
    except PasyansError as e:
        fail(error_line(e))
    limits = Limits(  # the budget asked for, whatever the game's length
        seconds=seconds, search_total=min(total * 2 / 3, total), total=total, per_moves=None
    )
    err = Console(stderr=True)
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    ) as bar:
        task = bar.add_task(messages.text("ui.analysis.title", lang), total=1.0)
        result = analyse(game, limits, progress=lambda share: bar.update(task, completed=share))
    if as_json:
        typer.echo(json.dumps(result.to_json()))
        return
    out = Console()
    out.print(table(result, lang))
    out.print(verdict_text(result, lang))
    decided = round(100 * result.decided)
    out.print(
        f"decided {decided}% of {len(result.points)} positions, {result.searches} searches,"
        f" {result.seconds:.1f} s, chance: {result.method}"
    )
