"""The analysis of finished games (docs/analysis.md): time per game and the decided share.

For each game and option set, deals 1…N (``--first D``: D…D+N-1) are played by the simple player
(:func:`pasyans.analysis.simple.play_simply`: a card to a foundation when it can, else a
random move to an unseen position, at most ``--cap`` moves; Spine and Backbone from
their solvable layouts, as the site deals them), or with ``--player follow`` by the hint
follower (:func:`pasyans.hints.follow.follow` with the product's hint budget, no undo, at
most ``--cap`` moves; ``--cache FILE`` keeps its move lines, as they take seconds a
game), and each game is analysed with the default :class:`~pasyans.analysis.Limits`.
Prints per game and option set: the moves, the analysis's seconds (median, p95, max),
when the first progress came, the share of positions whose full-information outcome is
decided (of all positions pooled, and the median and min per game), the verdicts, and
the length of "Show the way" (median and max moves, of the games that have one).
With ``--lost`` only
games that end lost count (deals 1, 2, … until ``--deals`` of them). With ``--check``
the "lost here" move of each game is checked against fresh searches with an ample budget
(``--ample`` seconds): the position before it won, the one after lost::

    uv run python benchmarks/analysis.py --deals 3
    uv run python benchmarks/analysis.py --games spine,backbone --deals 10 --check
    uv run python benchmarks/analysis.py --games spider4 --deals 50 --player follow \
        --cache /tmp/follow-spider4.json
    uv run python benchmarks/analysis.py --games backbone --deals 50 --lost --cap 1000 \
        --check --ample 30
    uv run python benchmarks/analysis.py --games backbone --deals 50 --lost --cap 1000 \
        --clicks

``--clicks`` gives Backbone's analysis as it was before 2026-12-04 (side by side);
``--no-wastelock`` leaves out the last pass's column-capacity rule (as before 2026-12-05);
``--no-split`` and ``--no-returning`` leave out Backbone's gap splitting and its safe
foundation move;
``--scaled`` gives a long game proportionally more time (``Limits.per_moves``);
``--search-total S`` gives the searches S seconds together (``Limits.search_total``);
``--no-win-first`` leaves out the short win search before each Spider probe for a loss
(``outcomes.WIN_FIRST``, as before 2026-12-07 18:00 UTC); ``--no-pruned-first`` searches a
stock-empty Spider position for a win without the staged search's unproven rules only
(``outcomes.PRUNED_FIRST``, as before 2026-12-07 19:00 UTC).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections import Counter
from dataclasses import replace

from pasyans.analysis import Limits, analyse, line_of, outcomes
from pasyans.analysis.outcomes import checked as fresh_outcome
from pasyans.analysis.simple import simple_game
from pasyans.engine.game import Game
from pasyans.hints.follow import follow
from pasyans.hints.policy import product_budget
from pasyans.rules import get_game
from pasyans.solver.search import solve

SETS = {
    "spine": ("spine", {}),
    "backbone": ("backbone", {}),
    "backbone-classic": ("backbone-classic", {}),
    "spider1": ("spider", {"suits": "1"}),
    "spider2": ("spider", {"suits": "2"}),
    "spider4": ("spider", {"suits": "4"}),
    "nivernais": ("nivernais", {}),
}


def p95(xs: list[float]) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(0.95 * (len(s) - 1)))]


def followed(name: str, deal: int, cap: int, cache: dict[str, list[str]]) -> Game:
    """The game the hint follower makes of ``deal`` (its moves kept in ``cache``)."""
    gid, options = SETS[name]
    key = f"{name}:{deal}:{cap}"
    if key not in cache:
        budget = product_budget(get_game(gid, options), None)
        cache[key] = [m.to_str() for m in follow(gid, options, deal, budget, cap).line]
    game = Game(gid, deal, options)
    for text in cache[key]:
        game.play(text)
    return game


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", default=",".join(SETS), help="comma-separated: " + ", ".join(SETS))
    ap.add_argument("--deals", type=int, default=3)
    ap.add_argument("--first", type=int, default=1, help="the first deal number")
    ap.add_argument("--cap", type=int, default=200, help="the simple player's moves at most")
    ap.add_argument("--player", choices=("simple", "follow"), default="simple")
    ap.add_argument("--cache", help="--player follow: a JSON file keeping the move lines")
    ap.add_argument("--each", action="store_true", help="a line per game too")
    ap.add_argument("--check", action="store_true", help="check each lost-here move")
    ap.add_argument("--ample", type=float, default=60.0, help="--check's budget, seconds")
    ap.add_argument(
        "--lost",
        action="store_true",
        help="deals 1, 2, … until --deals games end lost (the player did not win and the"
        " last position is lost by a search with --ample seconds); the others are skipped",
    )
    ap.add_argument(
        "--scaled",
        action="store_true",
        help="a game of over 200 moves gets more time (Limits.per_moves=200; off by default)",
    )
    ap.add_argument(
        "--clicks",
        action="store_true",
        help="Backbone's searches as before 2026-12-04: every click a move, restarts on the"
        " lost side too",
    )
    ap.add_argument(
        "--no-wastelock",
        action="store_true",
        help="Backbone's searches without the last pass's column-capacity rule (as before"
        " 2026-12-05)",
    )
    ap.add_argument(
        "--no-split",
        action="store_true",
        help="with a kept table, no gap splitting once both sides are stuck (as before"
        " 2026-12-05 11:00 UTC)",
    )
    ap.add_argument(
        "--no-returning",
        action="store_true",
        help="Backbone's searches without the safe foundation move where foundation cards"
        " may come back (as before 2026-12-05 13:20 UTC)",
    )
    ap.add_argument(
        "--search-total",
        type=float,
        help="the searches' seconds together (Limits.search_total; default: Limits' own)",
    )
    ap.add_argument(
        "--no-win-first",
        action="store_true",
        help="Spider's probes for a loss without the short win search first (as before"
        " 2026-12-07 18:00 UTC)",
    )
    ap.add_argument(
        "--no-pruned-first",
        action="store_true",
        help="a stock-empty Spider position searched for a win without the unproven rules"
        " only (as before 2026-12-07 19:00 UTC)",
    )
    ap.add_argument(
        "--estimate-nodes",
        type=int,
        help="the chance's positions a position, over its 8 samples (Limits.estimate;"
        " default: Limits' own)",
    )
    args = ap.parse_args()
    if args.no_pruned_first:
        outcomes.PRUNED_FIRST = 0.0
    if args.no_win_first:
        outcomes.WIN_FIRST = 0.0
    if args.no_returning:
        outcomes.RETURNING_SAFE = False
    if args.no_split:
        outcomes.SPLIT_GAPS = False
    if args.no_wastelock:
        outcomes.WASTELOCK = False
    if args.clicks:
        outcomes.COMPRESS = outcomes.PROVE_DIVE = False
    limits = Limits(per_moves=200) if args.scaled else Limits()
    if args.search_total is not None:
        limits = replace(limits, search_total=args.search_total)
    if args.estimate_nodes is not None:
        limits = replace(limits, estimate=replace(limits.estimate, nodes=args.estimate_nodes))
    cache: dict[str, list[str]] = {}
    if args.cache and os.path.exists(args.cache):
        with open(args.cache) as f:
            cache = json.load(f)
    print(f"load average before: {os.getloadavg()}")
    print(
        f"{'game':17} {'n':>3} {'moves':>6} {'p50 s':>6} {'p95 s':>6} {'max s':>6}"
        f" {'1st prog s':>10} {'decided':>7} {'p50':>6} {'min':>5}  verdicts / checked"
    )
    for name in args.games.split(","):
        gid, options = SETS[name]
        spec = get_game(gid, options)
        times: list[float] = []
        first: list[float] = []
        decided: list[float] = []
        pooled = [0, 0]  # positions decided, positions
        chances = [0, 0, 0]  # positions estimated, their chance left open, moves graded
        moves: list[int] = []
        said: Counter[str] = Counter()
        ways: list[int] = []  # the length of each game's "Show the way"
        checked = exact = 0
        deal = args.first - 1
        while len(times) < args.deals:
            deal += 1
            if args.player == "follow":
                game = followed(name, deal, args.cap, cache)
                if args.cache:
                    with open(args.cache, "w") as f:
                        json.dump(cache, f)
            else:
                game = simple_game(gid, deal, options, cap=args.cap)
            if args.lost:
                if game.won:
                    continue
                end = line_of(game)[0][-1]
                if solve(spec, end, seconds=args.ample).result != "lost":
                    continue
            seen: list[float] = []
            t0 = time.perf_counter()
            a = analyse(
                game,
                limits,
                progress=lambda share, t0=t0, seen=seen: (
                    seen or seen.append(time.perf_counter() - t0)
                ),
            )
            times.append(time.perf_counter() - t0)
            first.append(seen[0] if seen else float("nan"))
            decided.append(a.decided)
            pooled[0] += round(a.decided * len(a.points))
            pooled[1] += len(a.points)
            moves.append(len(a.steps))
            estimated = [p for p in a.points if p.samples]
            chances[0] += len(estimated)
            chances[1] += sum(p.chance is None for p in estimated)
            chances[2] += sum(s.grade is not None for s in a.steps)
            said[a.verdict.code] += 1
            if a.way_from is not None:
                ways.append(len(a.way))
            if args.each:
                marks = "".join(p.outcome[0] for p in a.points)
                way = f", way {len(a.way)} moves" if a.way_from is not None else ""
                print(f"  deal {deal}: {len(a.steps)} moves, {times[-1]:.1f} s, decided"
                      f" {a.decided:.0%}, {a.searches} searches{way}, {a.verdict.code}: {marks}",
                      flush=True)  # fmt: skip
            if args.check and a.lost_at is not None:
                states, _ = line_of(game)
                before = fresh_outcome(spec, states, a.lost_at - 1, args.ample)
                after = fresh_outcome(spec, states, a.lost_at, args.ample)
                checked += 1
                exact += before == "won" and after == "lost"
        check = f" checked {exact}/{checked}" if args.check else ""
        if args.lost:
            check += f" (deals 1-{deal})"
        cells = [
            f"{name:17} {len(times):>3} {statistics.median(moves):>6.0f}",
            f"{statistics.median(times):>6.1f} {p95(times):>6.1f} {max(times):>6.1f}",
            f"{max(first):>10.2f} {pooled[0] / pooled[1]:>7.1%}",
            f"{statistics.median(decided):>6.1%} {min(decided):>5.0%}",
            f" {dict(said)}{check}",
        ]
        if ways:
            cells.append(f" way {statistics.median(ways):.0f} / {max(ways)} moves")
        cells.append(f" chance open at {chances[1]} of {chances[0]} estimated, {chances[2]} graded")
        print(" ".join(cells), flush=True)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
