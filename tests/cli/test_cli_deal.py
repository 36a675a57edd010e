"""``pasyans deal``: the layout GAMES.md gives, for every game and every option."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from typer.testing import Result

from pasyans.cards import card_code
from pasyans.deals import GENERATOR_VERSION, default_kind, start_position
from pasyans.engine.core import MAX_DEAL
from pasyans.rules import get_game
from pasyans.rules.registry import GAMES

Invoke = Callable[..., Result]
RunScript = Callable[..., "subprocess.CompletedProcess[str]"]
RANKS = "A23456789TJQK"
DEALS = (1, 2026, MAX_DEAL)


def _combinations() -> list[tuple[str, tuple[str, ...]]]:
    """Every game id with every combination of its option values, as ``KEY=VALUE``."""
    out = []
    for game_id, spec in GAMES.items():
        names = [o.name for o in spec.options]
        for values in itertools.product(*(o.values for o in spec.options)):
            out.append((game_id, tuple(f"{n}={v}" for n, v in zip(names, values, strict=True))))
    return out


COMBINATIONS = _combinations()


def _args(options: tuple[str, ...]) -> list[str]:
    return [a for o in options for a in ("--option", o)]


def _ids(prefix: str, n: int) -> list[str]:
    return [f"{prefix}{i}" for i in range(1, n + 1)]


def expected_sizes(game: str, options: dict[str, str]) -> dict[str, int]:
    """Every pile id of the game and how many cards it holds at the start (GAMES.md)."""
    found = dict.fromkeys(_ids("f", 8), 0)
    if game == "spine":
        spine = int(options["spine"])
        return found | dict.fromkeys(_ids("t", 8), (104 - spine) // 8) | {"spine": spine}
    if game in ("backbone", "backbone-classic"):
        n = 10 if game == "backbone" else 9
        spine = {"spine1": n, "spine2": n, "tailbone": 1}
        return (
            {"stock": 104 - 2 * n - 1 - 8, "waste": 0}
            | found
            | dict.fromkeys(_ids("t", 8), 1)
            | spine
        )
    if game == "spider":
        cols = {f"t{i}": 6 if i <= 4 else 5 for i in range(1, 11)}
        return {"stock": 50, "done": 0} | cols
    assert game == "nivernais"
    return {"stock": 72} | found | dict.fromkeys(_ids("t", 6), 4) | dict.fromkeys(_ids("r", 8), 1)


def expected_cards(game: str, options: dict[str, str]) -> Counter[str]:
    suits = {"1": "S", "2": "SH"}.get(options.get("suits", "4"), "CDHS")
    copies = 8 // len(suits)
    return Counter({r + s: copies for r in RANKS for s in suits})


def _deal_json(invoke: Invoke, game: str, deal: int, options: tuple[str, ...]) -> str:
    result = invoke(["deal", game, "--deal", str(deal), *_args(options), "--json"])
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    return result.stdout


@pytest.mark.parametrize(("game", "options"), COMBINATIONS)
def test_deal_json_has_the_layout_of_games_md(
    invoke: Invoke, game: str, options: tuple[str, ...]
) -> None:
    given = dict(o.split("=") for o in options)
    for deal in DEALS:
        out = _deal_json(invoke, game, deal, options)
        assert out.endswith("\n") and out.count("\n") == 1  # exactly one JSON document
        data: dict[str, Any] = json.loads(out)
        assert data["game"] == game and data["deal"] == deal and data["kind"] == default_kind(game)
        assert data["options"] == given  # all options, defaults included
        sizes = expected_sizes(game, given)
        assert list(data["piles"]) == list(GAMES[game].index)
        assert {k: len(v) for k, v in data["piles"].items()} == sizes
        cards = Counter(c for pile in data["piles"].values() for c in pile)
        assert sum(cards.values()) == 104
        assert cards == expected_cards(game, given)
        assert _deal_json(invoke, game, deal, options) == out  # byte for byte


def test_defaults_are_filled_in(invoke: Invoke) -> None:
    data = json.loads(_deal_json(invoke, "spine", 3, ()))
    assert data["options"] == {"empty": "kings", "runs": "single", "spine": "56"}
    spider = json.loads(_deal_json(invoke, "spider", 3, ("suits=4",)))
    assert json.loads(_deal_json(invoke, "spider", 3, ())) == spider


def test_different_deals_differ_and_options_are_short_flags_too(invoke: Invoke) -> None:
    one = json.loads(_deal_json(invoke, "spider", 1, ()))
    two = json.loads(_deal_json(invoke, "spider", 2, ()))
    assert one["piles"] != two["piles"]
    short = invoke(["deal", "spider", "-d", "1", "-o", "suits=4", "--json"])
    assert json.loads(short.stdout) == one


def test_spider_face_down_counts_are_given(invoke: Invoke) -> None:
    data = json.loads(_deal_json(invoke, "spider", 9, ()))
    down = data["face_down"]
    assert down["stock"] == 50
    assert [down[f"t{i}"] for i in range(1, 11)] == [5] * 4 + [4] * 6


def test_text_table_shows_every_card(invoke: Invoke) -> None:
    data = json.loads(_deal_json(invoke, "spider", 4, ("suits=2",)))
    result = invoke(["deal", "spider", "--deal", "4", "--option", "suits=2"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "spider  deal 4  random  suits=2"
    assert "\x1b[" not in result.stdout  # plain text when stdout is not a terminal
    by_pile = {line.split()[0]: line.split()[1:] for line in lines[1:-1]}
    assert list(by_pile) == list(data["piles"])
    for pile_id, codes in data["piles"].items():
        count, *cards = by_pile[pile_id]
        assert int(count) == len(codes)
        assert " ".join(cards).replace("[", "").replace("]", "").split() == codes
    # Face-down cards are marked: t1 is "[5 cards] top".
    t1 = by_pile["t1"]
    assert t1[1].startswith("[") and t1[5].endswith("]") and "]" not in t1[6]


def test_no_deal_number_picks_one_and_says_which(invoke: Invoke) -> None:
    result = invoke(["deal", "nivernais", "--json"])
    assert result.exit_code == 0
    m = re.fullmatch(r"pasyans: no --deal given; using deal (\d+)\n", result.stderr)
    assert m, result.stderr
    assert json.loads(result.stdout)["deal"] == int(m.group(1))


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["deal", "klondike", "--deal", "1"], "unknown game 'klondike'"),
        (["deal", "spider", "--deal", "1", "--option", "suits=3"], "suits='3' is not allowed"),
        (["deal", "spider", "--deal", "1", "--option", "colour=red"], "has no option 'colour'"),
        (["deal", "spider", "--deal", "1", "--option", "suits"], "KEY=VALUE"),
        (["deal", "spider", "--deal", "1", "-o", "suits=1", "-o", "suits=2"], "given twice"),
        (["deal", "nivernais", "--option", "suits=2"], "has no option"),
        (["deal", "spine", "--deal", "0"], "from 1 to 2147483647"),
        (["deal", "spine", "--deal", str(MAX_DEAL + 1)], "from 1 to 2147483647"),
        (["deal", "spine", "--deal", "-5", "--json"], "from 1 to 2147483647"),
    ],
)
def test_errors_are_one_line_and_exit_2(invoke: Invoke, args: list[str], says: str) -> None:
    result = invoke(args)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pasyans: error: "), result.stderr
    assert says in lines[0]


def test_random_flag_and_solvable_flag(invoke: Invoke) -> None:
    plain = json.loads(_deal_json(invoke, "backbone", 5, ()))
    random = invoke(["deal", "backbone", "--deal", "5", "--random", "--json"])
    assert json.loads(random.stdout) == plain
    solvable = invoke(["deal", "spine", "--deal", "5", "--solvable", "--json"])
    if solvable.exit_code == 0:  # once the solver makes solvable deals
        data = json.loads(solvable.stdout)
        assert data["kind"] == "solvable"
        assert sum(len(p) for p in data["piles"].values()) == 104
    else:  # until then: a clean one-line refusal
        assert solvable.exit_code == 2 and solvable.stdout == ""
        assert solvable.stderr.count("\n") == 1 and "solvable" in solvable.stderr


def test_difficulty_flag_chooses_among_solvable_deals(invoke: Invoke) -> None:
    """``--difficulty`` gives the library's deal of that band (and implies --solvable);
    with --random, or a band that does not exist, it is a one-line error."""
    from pasyans.deals import make_solvable

    layouts = {}
    for band in ("easy", "medium", "hard"):
        r = invoke(["deal", "spine", "--deal", "5", "--difficulty", band, "--json"])
        assert r.exit_code == 0, r.stderr
        data = json.loads(r.stdout)
        assert data["kind"] == "solvable" and data["difficulty"] == band
        made = make_solvable("spine", {}, 5, band).state
        assert data["piles"]["spine"] == [card_code(c) for c in made.piles[-1]]
        layouts[band] = data["piles"]
    assert layouts["easy"] != layouts["hard"]
    # Without --difficulty a solvable deal is the medium one, and says so.
    plain = json.loads(invoke(["deal", "spine", "--deal", "5", "--json"]).stdout)
    assert plain["difficulty"] == "medium" and plain["piles"] == layouts["medium"]
    assert "solvable hard" in invoke(["deal", "spine", "-d", "5", "--difficulty", "hard"]).stdout
    # A random deal has no difficulty; --difficulty makes Backbone's deal a solvable one.
    assert "difficulty" not in json.loads(_deal_json(invoke, "backbone", 5, ()))
    back = invoke(["deal", "backbone", "-d", "5", "--difficulty", "easy", "--json"])
    assert json.loads(back.stdout)["kind"] == "solvable"
    for args, says in (
        (["--random", "--difficulty", "easy"], "drop --random"),
        (["--difficulty", "brutal"], "not available"),
    ):
        for command in ("deal", "play"):
            r = invoke([command, "spine", "--deal", "5", *args])
            assert r.exit_code == 2 and r.stdout == "", r.stdout
            assert r.stderr.count("\n") == 1 and says in r.stderr, r.stderr


def test_the_installed_script_gives_the_same_bytes(invoke: Invoke, run_script: RunScript) -> None:
    args = ["deal", "spider", "--deal", "77", "--option", "suits=2", "--json"]
    first, second = run_script(args), run_script(args)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout == invoke(args).stdout
    assert len(json.loads(first.stdout)["piles"]) == 12
    bad = run_script(["deal", "spider", "--deal", "1", "--option", "suits=5"])
    assert bad.returncode == 2 and bad.stderr.startswith("pasyans: error: ")


@pytest.mark.parametrize("bad", ["abc", "1.5", "", "12abc", "1e3"])
def test_a_deal_that_is_not_a_number_is_a_one_line_error(invoke: Invoke, bad: str) -> None:
    for command in ("deal", "play"):
        result = invoke([command, "spine", "--deal", bad])
        assert result.exit_code == 2
        assert result.stdout == ""
        lines = result.stderr.splitlines()
        assert len(lines) == 1, result.stderr
        assert lines[0].startswith("pasyans: error: ")
        assert "[bad_deal]" in lines[0]


def test_a_solvable_deal_names_its_generator_and_an_old_one_can_be_asked_for(
    invoke: Invoke,
) -> None:
    current = json.loads(_deal_json(invoke, "spine", 7, ()))
    assert current["kind"] == "solvable" and current["generator"] == GENERATOR_VERSION
    old = invoke(["deal", "spine", "--deal", "7", "--generator", "3", "--json"])
    assert old.exit_code == 0, old.stderr
    data = json.loads(old.stdout)
    assert data["generator"] == 3
    state = start_position(get_game("spine"), 7, "solvable", "medium", 3)
    t1 = state.piles[GAMES["spine"].index["t1"]]
    assert list(data["piles"]["t1"]) == [card_code(c) for c in t1]
    text = invoke(["deal", "spine", "--deal", "7", "--generator", "3"])
    assert "gen=3" in text.stdout.splitlines()[0]
    assert "generator" not in json.loads(_deal_json(invoke, "spider", 7, ()))  # random: none


@pytest.mark.parametrize(("version", "words"), [("1", "retired"), ("99", "not available")])
def test_an_unknown_generator_is_a_clear_error(invoke: Invoke, version: str, words: str) -> None:
    result = invoke(["deal", "spine", "--deal", "7", "--generator", version, "--json"])
    assert result.exit_code != 0
    assert words in result.stderr and result.stdout == ""
