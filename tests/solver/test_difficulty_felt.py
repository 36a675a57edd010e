"""Generator versions 4 to 6: difficulty bands a player feels, and older versions' layouts kept.

The bands are ranked by the felt player's win rate (:mod:`pasyans.solvable.felt`); here
they are checked on fresh playouts of that player (seeds the ranking never used) and
against a second, independent player (the randomised simple player of
:mod:`pasyans.solvable.difficulty`, the hurried player, or the hurried searcher where the
felt player is the search player), on deal numbers the generator was not tuned on. The
compiled search player is checked against its Python reference under fixed seeds.
The figures per game: docs/deal-figures.md, "Difficulty bands" (benchmarks/bands.py).
"""

from __future__ import annotations

from itertools import islice
from statistics import fmean
from typing import NamedTuple

import pytest

from pasyans.deals import GENERATOR_VERSION, load_game, make_solvable, new_game, start_position
from pasyans.errors import OptionError, SavedGameError
from pasyans.rules import get_game
from pasyans.solvable import difficulty, felt, generate
from pasyans.solvable.generate import DIFFICULTIES, bands, candidates

FRESH = 0xF2E5 << 16
"""Seeds of the fresh playouts (the ranking used 0xFEE1 + n)."""


class Result(NamedTuple):
    felt: float  # the felt player's win rate (fresh playouts)
    second: float  # the second player's win rate
    progress: float  # the second player's mean progress


def _both_players(game: str, options: dict[str, str], deals: range) -> dict[str, Result]:
    """Per band, over ``deals``: the felt player's win rate on fresh playouts, and the
    second player's win rate and mean progress (the hurried player where the felt player
    is the randomised simple player, the hurried searcher where it is the search player,
    else the randomised simple player). Checks the order on every number."""
    spec = get_game(game, options)
    name, _ = felt.player_for(spec)
    out: dict[str, list[Result]] = {b: [] for b in DIFFICULTIES}
    for deal in deals:
        made = bands(spec, deal)
        assert made["easy"].measure <= made["medium"].measure <= made["hard"].measure, deal
        for band, sd in made.items():
            assert sd.generator == GENERATOR_VERSION == 6
            rate = felt.measure(spec, sd.state, seed=FRESH).win_rate
            if name in ("random", "search"):
                second = felt.hurried_game if name == "random" else felt.hurried_search_game
                plays = [second(spec, sd.state, FRESH + n) for n in range(16)]
                won = fmean(float(w) for w, _ in plays)
                progress = fmean(1.0 if w else p for w, p in plays)
            else:
                m = difficulty.measure(spec, sd.state, 16)
                won, progress = m.wins / 16, 1.0 - m.measure
            out[band].append(Result(rate, won, progress))
    return {b: Result(*(fmean(r[i] for r in out[b]) for i in range(3))) for b in DIFFICULTIES}


def _apart(m: dict[str, Result], field: str) -> bool:
    """Adjacent bands at least 0.1 apart in ``field``, easy highest."""
    e, md, h = (getattr(m[b], field) for b in DIFFICULTIES)
    return e - md >= 0.1 and md - h >= 0.1


@pytest.mark.slow
def test_spine_suit_runs_bands_feel_different_to_both_players() -> None:
    """Spine with suit runs and kings on empty columns: the randomised simple player (the
    felt player here) and the hurried player both win easy deals at least 0.1 more often
    than medium ones, and medium than hard."""
    m = _both_players("spine", {"runs": "suit"}, range(2001, 2009))
    assert _apart(m, "felt") and _apart(m, "second"), m


@pytest.mark.slow
def test_nivernais_bands_feel_different() -> None:
    """The forward player wins easy deals at least 0.1 more often than medium ones, and
    medium than hard (fresh playouts); the randomised simple player gets further on easy
    deals than on hard ones."""
    m = _both_players("nivernais", {}, range(2001, 2009))
    assert _apart(m, "felt") and m["easy"].progress > m["hard"].progress, m


@pytest.mark.slow
def test_spider_one_suit_bands_feel_different_to_the_policy() -> None:
    """The no-peek policy wins easy deals at least 0.1 more often than medium ones, and
    medium than hard, on fresh playouts. (The randomised simple player does not tell
    Spider's bands apart: docs/deal-figures.md, "Difficulty bands".)"""
    m = _both_players("spider", {"suits": "1"}, range(2001, 2013))
    assert _apart(m, "felt"), m


@pytest.mark.slow
def test_default_spine_bands_feel_different_to_both_players() -> None:
    """Default Spine (single-card moves; version 5's search player): the search player
    and the hurried searcher both win easy deals at least 0.1 more often than medium ones,
    and medium than hard."""
    m = _both_players("spine", {}, range(2001, 2013))
    assert _apart(m, "felt") and _apart(m, "second"), m


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        {"empty": "any", "spine": "40"},
        {"empty": "any", "spine": "24"},
        {"runs": "suit", "spine": "24"},
        {"runs": "suit", "empty": "any"},
    ],
)
def test_spine_midpoint_bands_feel_different_to_both_players(options: dict[str, str]) -> None:
    """The Spine option sets whose medium version 6 picks by the midpoint
    (generate.MIDPOINT_GAMES): adjacent bands 0.1 apart for the search player on fresh
    games and for the hurried searcher (deals 2001-2020, the first three sets: felt 0.78 /
    0.51 / 0.01, 0.79 / 0.34 / 0.04, 0.98 / 0.56 / 0.08; second 0.63 / 0.44 / 0.02, 0.59 /
    0.38 / 0.19, 0.86 / 0.53 / 0.11). Version 5's rank of five left the hurried searcher's
    easy and medium, or medium and hard, closer than 0.1, and no player's win rate told
    suit runs with any card on an empty column apart (docs/deal-figures.md)."""
    m = _both_players("spine", options, range(2001, 2021))
    assert _apart(m, "felt") and _apart(m, "second"), m


@pytest.mark.slow
@pytest.mark.parametrize("game", ["backbone", "backbone-classic"])
def test_backbone_bands_feel_different_to_the_search_player(game: str) -> None:
    """Backbone and Backbone classic (version 5's search player, which never takes back a
    stock click; version 6 picks Backbone classic's medium by the midpoint among eight
    candidates): it wins easy deals at least 0.1 more often than medium ones, and medium
    than hard, on fresh games (deals 2001-2010: 0.69 / 0.17 / 0.00, and Backbone classic
    0.78 / 0.31 / 0.00 in version 6, 0.73 / 0.11 / 0.01 in version 5). The hurried
    searcher's figures: docs/deal-figures.md (too slow in Python for a test)."""
    spec = get_game(game)
    rates: dict[str, list[float]] = {b: [] for b in DIFFICULTIES}
    for deal in range(2001, 2011):
        made = bands(spec, deal)
        assert made["easy"].measure <= made["medium"].measure <= made["hard"].measure, deal
        for band, sd in made.items():
            assert sd.generator == GENERATOR_VERSION == 6
            rates[band].append(felt.measure(spec, sd.state, seed=FRESH).win_rate)
    e, m, h = (fmean(rates[b]) for b in DIFFICULTIES)
    assert e - m >= 0.1 and m - h >= 0.1, (e, m, h)


def test_the_midpoint_rule_picks_medium_halfway_in_measure() -> None:
    """Version 6's rule (generate._picks with ``midpoint``): easy and hard are the first and
    last ranked, medium the one between them whose measure is nearest their mean; the rank
    rule takes the middle one, which here is as hard as hard."""
    ranked = [0.1, 0.5, 0.7, 0.98, 0.99, 0.99, 0.99, 1.0]
    assert generate._picks(ranked, 6, midpoint=True) == (0, 1, 7)  # 0.5 is nearest 0.55
    assert generate._picks(ranked, 6) == (0, 3, 7)
    assert generate._picks(ranked, 3) == (0, 1, 2)
    assert generate._picks([0.2, 0.3, 0.7, 0.9], 6, midpoint=True) == (0, 2, 3)
    assert generate._picks([0.0, 0.25, 0.75, 1.0], 6, midpoint=True) == (0, 1, 3)  # a tie
    assert generate._picks([0.2, 0.9], 6, midpoint=True) == (0, 0, 1)
    assert generate._picks([0.5], 6, midpoint=True) == (0, 0, 0)


def test_backbone_classic_version_6_medium_is_the_midpoint_of_eight() -> None:
    """Backbone classic, deal 2: version 6 ranks the number's first eight kept candidates
    by the felt measure, measured here again one by one; easy and hard are the least and
    most, medium the nearest to their midpoint. Version 5's medium is the middle of the
    first five, a layout the search player never wins; version 6's is one it wins about
    half the time. Other games: version 6 deals version 5's layouts
    (test_solver_generate.py pins them)."""
    spec = get_game("backbone-classic")
    measures = [
        felt.measure(spec, kept.state).measure
        for kept in islice(candidates(spec, 2, 6), generate.MIDPOINT_CANDIDATES)
    ]
    assert len(measures) == generate.MIDPOINT_CANDIDATES == 8
    made, old = bands(spec, 2, 6), bands(spec, 2, 5)
    assert made["easy"].measure == min(measures) and made["hard"].measure == max(measures)
    mid = (min(measures) + max(measures)) / 2
    assert abs(made["medium"].measure - mid) == min(abs(m - mid) for m in measures)
    assert old["medium"].measure == sorted(measures[:5])[2] >= 0.97  # never won
    assert made["medium"].measure <= 0.6  # won in about half its games
    for game in ("backbone", "spine"):
        v5, v6 = bands(get_game(game), 2, 5), bands(get_game(game), 2, 6)
        assert [v6[b].state for b in DIFFICULTIES] == [v5[b].state for b in DIFFICULTIES]


@pytest.mark.parametrize(
    ("game", "options", "deal", "seeds"),
    [
        ("spine", {}, 1, range(8)),
        ("spine", {"empty": "any"}, 2, range(8)),
        ("spine", {"empty": "any", "runs": "suit"}, 2, range(8)),
        ("backbone", {}, 3, range(2)),
        ("backbone-classic", {}, 4, range(2)),
    ],
)
def test_the_compiled_search_player_plays_the_reference_s_games(
    game: str, options: dict[str, str], deal: int, seeds: range
) -> None:
    """``engine_felt`` (csrc/engine.c) and the Python reference (felt.search_game_py)
    give the same game, won and progress, under each fixed seed; some are won, some lost
    (the first three kept candidates of the number)."""
    spec = get_game(game, options)
    games = []
    for kept in islice(candidates(spec, deal, 5), 3):
        for seed in seeds:
            games.append(felt.search_game(spec, kept.state, seed))
            assert games[-1] == felt.search_game_py(spec, kept.state, seed), (kept, seed)
    assert {won for won, _ in games} == {True, False}, games


def test_felt_players_and_measure() -> None:
    """Each game's felt player, and a measure that ranks by wins first, then progress."""
    for suits in ("1", "2", "4"):
        assert felt.player_for(get_game("spider", {"suits": suits}))[0] == "policy"
    assert felt.player_for(get_game("nivernais"))[0] == "forward"
    assert felt.player_for(get_game("spine"), 4)[0] == "random"
    assert felt.player_for(get_game("spine"))[0] == "search"
    assert felt.player_for(get_game("spine", {"runs": "suit"}))[0] == "random"
    suit_any = get_game("spine", {"runs": "suit", "empty": "any"})
    assert [felt.player_for(suit_any, v)[0] for v in (4, 5, 6)] == ["random", "random", "search"]
    assert felt.player_for(get_game("spine", {"runs": "suit", "spine": "24"}))[0] == "search"
    assert felt.player_for(get_game("spine", {"runs": "suit", "spine": "40"}))[0] == "search"
    assert felt.player_for(get_game("spine", {"runs": "suit", "spine": "24"}), 4)[0] == "random"
    for game in ("backbone", "backbone-classic"):
        assert felt.player_for(get_game(game), 4)[0] == "random"
        assert felt.player_for(get_game(game))[0] == "search"
    more_wins = felt.Felt("policy", 3, 32, 0.1)
    further = felt.Felt("policy", 2, 32, 0.9)
    assert more_wins.measure < further.measure
    assert felt.Felt("policy", 32, 32, 1.0).measure == 0.0
    assert felt.Felt("policy", 0, 32, 0.0).measure == 1.0
    # The same layout always gets the same result; the fresh seeds are other games.
    state = make_solvable("spider", {"suits": "1"}, 5, "easy").state
    spec = get_game("spider", {"suits": "1"})
    assert felt.measure(spec, state) == felt.measure(spec, state)
    assert felt.measure(spec, state).wins > 0


def test_an_old_version_keeps_its_layouts_and_the_new_one_differs() -> None:
    """Version 3's deals (pinned in test_solver_generate.py) still come out of the library
    by number, fresh or from a saved game that has no stored layout; version 4 deals
    another layout for some of them."""
    spec = get_game("nivernais")
    old = make_solvable("nivernais", {}, 4, "medium", 3).state
    assert start_position(spec, 4, "solvable", "medium", 3) == old
    game = new_game("nivernais", 4, kind="solvable", difficulty="medium", generator=3)
    assert game.start == old and game.generator == 3
    saved = game.to_saved()
    assert saved["generator"] == 3
    rebuilt = load_game({k: v for k, v in saved.items() if k != "start"})
    assert rebuilt.start == old and rebuilt.generator == 3
    assert make_solvable("nivernais", {}, 4, "medium").state != old
    assert new_game("nivernais", 4, kind="solvable", difficulty="medium").generator == 6


def test_an_unknown_generator_version_is_refused() -> None:
    saved = new_game("spine", 9).to_saved()
    for version in (GENERATOR_VERSION + 1, 0, "4"):
        with pytest.raises(SavedGameError, match="generator version"):
            load_game(dict(saved, generator=version))
        with pytest.raises(OptionError, match="generator version"):
            new_game("spine", 9, generator=version)  # type: ignore[arg-type]
