"""The analysis's grading from counts against per-sample pairs (docs/analysis.md, Grading).

Both sides of a move that turns nothing up are estimated on the same ways the hidden cards
could lie. The analysis grades such a move from its two estimates' counts: the least drop
is the share won before minus the share not proven lost after. With each sample's verdict
on both sides, the layouts the move surely took from won to lost could be counted one by
one. This prints, over the simple player's games, how many moves each way grades and
clears, and how many samples went from won to undecided (the drops that counted as losses
before 2026-12-08):

    uv run python benchmarks/chance_pairs.py --deals 5
"""

from __future__ import annotations

import argparse
import itertools
from collections import Counter

from pasyans.analysis import cleared, grade, line_of
from pasyans.analysis.simple import simple_game
from pasyans.hints import sampling
from pasyans.position import State
from pasyans.rules.spec import GameSpec
from pasyans.solver.search import solve

GAMES = {
    "spider1": ("spider", {"suits": "1"}),
    "spider2": ("spider", {"suits": "2"}),
    "backbone-classic": ("backbone-classic", {}),
}
SAMPLES = 8
NODES = 500  # the analysis's 4,000 positions an estimate, over its 8 samples


def verdicts(spec: GameSpec, state: State) -> list[str] | None:
    """Each sample's verdict at ``state`` (None: every card known)."""
    view = sampling.known(spec, state)
    if not sampling.slots(spec, view):
        return None
    return [solve(spec, s, nodes=NODES).result for s in sampling.samples(spec, view, SAMPLES)]


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--deals", type=int, default=5)
    args = ap.parse_args()
    n = SAMPLES
    for name in args.games.split(","):
        gid, options = GAMES[name]
        c: Counter[str] = Counter()
        for deal in range(1, args.deals + 1):
            game = simple_game(gid, deal, options, cap=200)
            spec = game.spec
            states, _ = line_of(game)
            found = [verdicts(spec, s) for s in states]
            for (sa, sb), (a, b) in zip(
                itertools.pairwise(states), itertools.pairwise(found), strict=True
            ):
                places = sampling.slots(spec, sampling.known(spec, sa))
                if (
                    a is None
                    or b is None
                    or places != sampling.slots(spec, sampling.known(spec, sb))
                ):
                    continue  # every card known, or the move turned one up
                pairs = list(zip(a, b, strict=True))
                sure = sum(x == "won" and y == "lost" for x, y in pairs)
                possible = sum(x != "lost" and y != "won" for x, y in pairs)
                c["moves"] += 1
                c["graded by counts"] += (
                    grade(a.count("won") / n, 1 - b.count("lost") / n) is not None
                )
                c["graded by pairs"] += grade(sure / n, 0.0) is not None
                c["cleared by counts"] += cleared(1 - a.count("lost") / n, b.count("won") / n)
                c["cleared by pairs"] += cleared(possible / n, 0.0)
                c["won to undecided"] += sum(x == "won" and y == "unknown" for x, y in pairs)
        print(name, dict(c), flush=True)


if __name__ == "__main__":
    main()
