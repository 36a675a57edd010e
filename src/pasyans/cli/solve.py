"""``pasyans solve``: the exact solver on a deal or a layout file (every card known)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

from typer import Option

from pasyans.cli.app import app
from pasyans.cli.common import (
    DifficultyOpt,
    GameArg,
    KindOpt,
    OptionsOpt,
    Output,
    choose_kind,
    error_line,
    fail,
    parse_options,
)
from pasyans.deals import start_position
from pasyans.engine.core import check_deal_number
from pasyans.errors import PasyansError
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec
from pasyans.solver.layout import state_from_layout
from pasyans.solver.search import Result, solve
from pasyans.solver.shorten import shortened

SolveDealOpt = Annotated[int | None, Option("--deal", "-d", help="Deal number to solve.")]
LayoutOpt = Annotated[
    Path | None,
    Option("--layout", help="A layout file: the JSON that `pasyans deal --json` prints."),
]
SecondsOpt = Annotated[
    float | None, Option("--seconds", help="Time budget (default 10 s unless --nodes).")
]
NodesOpt = Annotated[
    int | None, Option("--nodes", help="Node budget: positions expanded (reproducible).")
]
JsonOpt = Annotated[bool, Option("--json", help="One JSON object instead of a summary.")]


def load_target(
    game: str,
    deal: int | None,
    layout: Path | None,
    raw_options: list[str] | None,
    solvable: bool | None,
    difficulty: str | None = None,
) -> tuple[GameSpec, State]:
    """The game and start position named on the command line."""
    if (deal is None) == (layout is None):
        fail("give exactly one of --deal N or --layout FILE")
    options = parse_options(game, raw_options)
    if layout is not None and difficulty is not None:
        fail("--difficulty chooses a solvable deal by number: give --deal N, not --layout")
    if layout is not None:
        try:
            data = json.loads(layout.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            fail(f"cannot read layout {layout}: {e}")
        if isinstance(data, dict) and data.get("game", game) != game:
            fail(f"the layout is a {str(data.get('game'))[:20]} deal, not {game}")
        named = {item.partition("=")[0].strip() for item in raw_options or ()}
        return state_from_layout(data, {k: v for k, v in options.items() if k in named})
    assert deal is not None
    spec = get_game(game, options)
    kind = choose_kind(game, solvable, difficulty)
    band = difficulty if kind == "solvable" else None
    return spec, start_position(spec, check_deal_number(deal), kind, band)


def summary(result: Result) -> list[str]:
    lines = [
        f"result   {result.result}",
        f"nodes    {result.nodes}",
        f"seconds  {result.seconds:.2f}",
    ]
    if result.result == "won":
        lines.append(f"moves    {len(result.moves)}")
        words = [m.to_str() for m in result.moves]
        for i in range(0, len(words), 10):
            lines.append("  " + " ".join(words[i : i + 10]))
    elif result.result == "lost":
        lines.append("no win exists from this position (the whole search space was exhausted)")
    else:
        lines.append("the budget ran out before the search decided")
    return lines


@app.command("solve")
def solve_command(
    game: GameArg,
    deal: SolveDealOpt = None,
    layout: LayoutOpt = None,
    option: OptionsOpt = None,
    seconds: SecondsOpt = None,
    nodes: NodesOpt = None,
    solvable: KindOpt = None,
    difficulty: DifficultyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Solve a deal with every card known: won (with the moves), lost (proven) or unknown."""
    try:
        spec, state = load_target(game, deal, layout, option, solvable, difficulty)
        if seconds is None and nodes is None:
            seconds = 10.0
        result = solve(spec, state, seconds=seconds, nodes=nodes)
        if result.result == "won":  # the search's first win, its detours cut
            result = replace(result, moves=shortened(spec, state, result.moves))
    except PasyansError as e:
        fail(error_line(e))
    out: dict[str, Any] = result.to_json()
    if as_json:
        Output(color=False).line(json.dumps(out))
    else:
        Output().lines(summary(result))
