"""Fit the no-peek playout policy's evaluation weights on a training range (prints figures).

    uv run python benchmarks/policy_fit.py -o suits=4 --deals 2001-4000 --check 6001-8000

The greedy playout policy (csrc/player.c, ``player.rollout``) plays the move that raises
an evaluation of the face-up cards most; its weights (``PL_*`` of csrc/abi.toml, in
``PlWeights`` order: a face-down card, a column with one, an empty column, a pair in suit
and sequence, in sequence of two suits, out of sequence, a completed run) were set by hand.
Each candidate weight vector plays the policy alone from every training deal's start
(``--seeds`` playouts a deal, the deal's cards all dealt as in play: the policy reads no
face-down card), compiled (``_core.spider_playout``'s ``weights``); its score is the mean
playout score (1,000 a win, else the cards in completed runs plus twice the cards turned
up), the value the player's decisions compare. Coordinate search from ``--start``: each
weight in turn is moved by each of ``--steps`` (up and down), kept when the mean rises;
the loop ends when no single move helps. Then the start and the fit on the ``--check``
range, side by side. The evaluation only ranks moves by their gains (8 times the gain
plus a jitter under 8), so a vector and its multiples play alike: ``--start`` is the
default doubled, for finer steps.
"""

from __future__ import annotations

import argparse
import statistics
import time

from pasyans.domains import _core_abi as abi
from pasyans.domains import spider
from pasyans.domains.built import compiled
from pasyans.domains.spider import SpiderGame
from pasyans.engine.core import initial_state
from pasyans.hints import player
from pasyans.rules import get_game

NAMES = ("down", "dirty", "empty", "insuit", "offsuit", "break", "run")
DEFAULT = tuple(getattr(abi, "PL_" + n.upper()) for n in NAMES)
"""The weights of csrc/abi.toml (``PL_*``), in ``PlWeights`` order."""


def _deals(text: str) -> range:
    a, _, b = text.partition("-")
    return range(int(a), int(b or a) + 1)


def roots(suits: int, deals: range) -> list[tuple[tuple[int, ...], tuple]]:
    spec = get_game("spider", {"suits": suits})
    out = []
    for d in deals:
        g = SpiderGame(spec, initial_state(spec, d))
        out.append((tuple(g.stock), g.root[:4]))
    return out


def mean_score(
    starts: list[tuple[tuple[int, ...], tuple]], weights: tuple[int, ...] | None, seeds: int
) -> tuple[float, int]:
    """The policy's mean playout score over ``starts`` × ``seeds`` and its wins."""
    assert compiled is not None
    total = wins = 0
    for k, (stock, root) in enumerate(starts):
        for s in range(seeds):
            v = compiled.spider_playout(
                stock, root, spider.WON, (k * 7919 + s) & player.MASK, player.LIMIT, 0, 0, weights
            )
            total += v
            wins += v == player.WIN
    return total / (len(starts) * seeds), wins


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("-o", "--option", default="suits=4", help="suits=N")
    ap.add_argument("--deals", default="2001-4000", help="the training range")
    ap.add_argument("--check", default="6001-8000", help="the held-out range")
    ap.add_argument("--seeds", type=int, default=1)
    ap.add_argument("--start", default="", help="comma-separated weights (default: 2 × PL_*)")
    ap.add_argument("--steps", default="1,2,4,8")
    args = ap.parse_args()
    suits = int(args.option.partition("=")[2])
    base = tuple(2 * w for w in DEFAULT)
    start = tuple(int(x) for x in args.start.split(",")) if args.start else base
    steps = [int(x) for x in args.steps.split(",")]
    train = roots(suits, _deals(args.deals))
    t0 = time.process_time()
    best, wins = mean_score(train, start, args.seeds)
    print(f"start {dict(zip(NAMES, start, strict=True))}: mean {best:.2f}, won {wins}", flush=True)
    cur = list(start)
    improved = True
    while improved:
        improved = False
        for i in range(len(cur)):
            for step in steps:
                for sign in (1, -1):
                    cand = list(cur)
                    cand[i] += sign * step
                    if cand[i] < 0:
                        continue
                    m, w = mean_score(train, tuple(cand), args.seeds)
                    if m > best + 1e-9:
                        best, cur, improved = m, cand, True
                        print(
                            f"  {NAMES[i]} {sign * step:+d}: {dict(zip(NAMES, cur, strict=True))}"
                            f" mean {m:.2f}, won {w} ({time.process_time() - t0:.0f} s)",
                            flush=True,
                        )
    print(f"fit {tuple(cur)} on {args.deals} ({time.process_time() - t0:.0f} s of CPU)")
    check = roots(suits, _deals(args.check))
    for name, w in (("default (PL_*)", None), ("start", start), ("fit", tuple(cur))):
        m, won = mean_score(check, w, args.seeds)
        scores = [
            compiled.spider_playout(s, r, spider.WON, k & player.MASK, player.LIMIT, 0, 0, w)
            for k, (s, r) in enumerate(check)
        ]
        print(
            f"  {args.check} {name:>16}: mean {m:.2f}, won {won}, "
            f"median {statistics.median(scores)}"
        )


if __name__ == "__main__":
    main()
