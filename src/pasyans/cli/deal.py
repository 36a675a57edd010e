"""``pasyans deal``: print a whole deal, face-down cards included (a tool's view).

>>> import json
>>> data = json.loads(deal_json("spider", 1, {"suits": "1"}, "random"))
>>> data["game"], data["kind"], len(data["piles"]["stock"])
('spider', 'random', 50)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any

from rich.text import Text
from typer import Option

from pasyans.cards import card_code
from pasyans.cli.app import app
from pasyans.cli.common import (
    DealOpt,
    DifficultyOpt,
    GameArg,
    KindOpt,
    OptionsOpt,
    Output,
    card_text,
    choose_deal,
    choose_kind,
    error_line,
    fail,
    header,
    kind_label,
    parse_options,
    pile_line,
)
from pasyans.deals import GENERATOR_VERSION, check_difficulty, start_position
from pasyans.errors import PasyansError
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec, PileKind

JsonOpt = Annotated[bool, Option("--json", help="One JSON object instead of a table.")]
GeneratorOpt = Annotated[
    int | None,
    Option(
        "--generator",
        help="A solvable deal as this generator version made it (an old link's `gen=`;"
        " default: the current version).",
    ),
]


def face_down_count(spec: GameSpec, state: State, i: int) -> int:
    """How many cards at the bottom of pile ``i`` are face down (a stock: all of them)."""
    if spec.piles[i].kind is PileKind.STOCK:
        return len(state.piles[i])
    return state.down[i]


def deal_data(
    game_id: str,
    deal: int,
    options: Mapping[str, str],
    kind: str,
    difficulty: str | None = None,
    generator: int | None = None,
) -> dict[str, Any]:
    """The whole deal as plain data: every pile id → card codes, bottom to top. A
    solvable deal also gives its ``difficulty`` (default ``medium``) and the
    ``generator`` version that made it (default: the current one)."""
    spec = get_game(game_id, options)
    band = check_difficulty(difficulty) if kind == "solvable" else None
    version = GENERATOR_VERSION if generator is None else generator
    state = start_position(spec, deal, kind, band, version)
    extra = {} if band is None else {"difficulty": band, "generator": version}
    return {
        "game": spec.id,
        "deal": deal,
        "options": dict(spec.option_values),
        "kind": kind,
        **extra,
        "piles": {p.id: [card_code(c) for c in state.piles[i]] for i, p in enumerate(spec.piles)},
        "face_down": {p.id: face_down_count(spec, state, i) for i, p in enumerate(spec.piles)},
    }


def deal_json(
    game_id: str,
    deal: int,
    options: Mapping[str, str],
    kind: str,
    difficulty: str | None = None,
    generator: int | None = None,
) -> str:
    """:func:`deal_data` as one line of JSON, the same bytes on every run."""
    data = deal_data(game_id, deal, options, kind, difficulty, generator)
    return json.dumps(data, ensure_ascii=False)


def deal_lines(data: Mapping[str, Any]) -> list[Text]:
    """A readable table: one line per pile with its card count; face-down cards are shown
    inside ``[ ]`` (they are secret to a player, not to this tool)."""
    kind = kind_label(data["kind"], data.get("difficulty"))
    if "generator" in data:
        kind += f"  gen={data['generator']}"
    out = [header(data["game"], data["deal"], kind, data["options"])]
    for pile_id, codes in data["piles"].items():
        down = data["face_down"][pile_id]
        parts = [Text(str(len(codes)).rjust(3))]
        hidden = [card_text(c, face_down=True) for c in codes[:down]]
        if hidden:
            block = Text("[")
            block.append_text(Text(" ").join(hidden))
            block.append("]")
            parts.append(block)
        parts.extend(card_text(c) for c in codes[down:])
        out.append(pile_line(pile_id, parts))
    out.append(Text("[ ] = face down; cards run from bottom to top", style="dim"))
    return out


@app.command("deal")
def deal_command(
    game: GameArg,
    deal: DealOpt = None,
    option: OptionsOpt = None,
    solvable: KindOpt = None,
    difficulty: DifficultyOpt = None,
    generator: GeneratorOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Print a whole deal, face-down cards included (a tool's view, not a player's)."""
    try:
        options = parse_options(game, option)
        number = choose_deal(deal)
        kind = choose_kind(game, solvable, difficulty)
        data = deal_data(game, number, options, kind, difficulty, generator)
    except PasyansError as e:
        fail(error_line(e))
    if as_json:
        Output(color=False).line(json.dumps(data, ensure_ascii=False))
    else:
        Output().lines(deal_lines(data))
