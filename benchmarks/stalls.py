"""Why the hint follower's lost games end where they do: replay a deal under a follower
budget and describe the position where its last run of moves without progress began.

For each deal lost by the follower (``benchmarks/follow.py``'s rules: no undo, 100 moves
in a row without progress is "stalled"), it prints at the stall's start: the moves
played, cards face down, cards in the stock, cards home; the full-information search of
the true position (it peeks: a diagnosis only); whether the window repeats positions
(true or as the player sees them); the sources of the hints in the window; and the
samples' searches at the stall's start under the budget and under ``--wide`` times its
nodes (won / lost / unknown), then the fatal move (bisection with the solver seeing every
card) and, with ``--rescore N``, every legal move there searched after in N further
samples of the player's view::

    uv run python benchmarks/stalls.py spider -o suits=1 --deals 1,9,17 \
        --samples 16 --nodes 4000 --unstick 10
"""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import replace

from pasyans import hints
from pasyans.engine import core
from pasyans.engine.moves import Move
from pasyans.hints import Budget
from pasyans.hints.follow import follow, progress
from pasyans.hints.policy import player_budget
from pasyans.hints.sampled import _sampled
from pasyans.hints.sampling import known, reveals, samples
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec
from pasyans.solver.search import solve


def _deals(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    return out


def _won(spec: GameSpec, state: State, nodes: int) -> bool:
    return solve(spec, state, nodes=nodes).result == "won"


def _rescore(spec: GameSpec, state: State, played: Move, count: int, nodes: int) -> None:
    """Every legal move at ``state`` searched after in ``count`` further samples of the
    player's view (``nodes`` each; seed 7, after the first 1,000 draws), most wins first:
    ``*`` the move played, ``^`` a move that turns a card up."""
    kv = known(spec, state)
    drawn = samples(spec, kv, count, 7, 1000)
    rows = []
    for m in core.legal_moves(spec, state):
        won = sum(_won(spec, core.apply(spec, s, m), nodes) for s in drawn)
        rows.append((-won, m.to_str(), m == played, reveals(spec, kv, m)))
    rows.sort()
    marks = [f"{t}{'*' if p else ''}{'^' if r else ''} {-w}" for w, t, p, r in rows]
    print(f"    rescored on {count} samples: {', '.join(marks)}")


def _fatal(
    spec: GameSpec, states: list[State], budget: Budget, nodes: int, rescore: tuple[int, int]
) -> None:
    """The move after which the true position is no longer won with every card known
    (a bisection: a lost position stays lost), and what the hint saw before it."""
    if not _won(spec, states[0], nodes):
        print("    the deal itself: not won with full information")
        return
    lo, hi = 0, len(states) - 1  # states[lo] won; states[hi] not (unless the end is)
    if _won(spec, states[hi], nodes):
        print("    the last position is still won with full information")
        return
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _won(spec, states[mid], nodes):
            lo = mid
        else:
            hi = mid
    s = states[lo]
    hints.TALLIES.clear()
    hint = hints.suggest(spec, s, history=states[:lo], budget=budget)
    hints.TALLIES.clear()
    t, _ = _sampled(spec, known(spec, s), budget)
    moves = core.legal_moves(spec, s)
    winning = [m for m in moves if _won(spec, core.apply(spec, s, m), nodes)]
    stock = len(s.piles[spec.index["stock"]]) if spec.has_pile("stock") else 0
    played = core.apply(spec, s, hint.move) if hint.move else s
    assert played == states[lo + 1], "the hint replayed differs from the follower's"
    after = solve(spec, played, nodes=nodes).result
    print(
        f"    fatal move {lo + 1} ({hint.move.to_str() if hint.move else None}, "
        f"{hint.source}, turns up: {sum(played.down) < sum(s.down)}, then {after}): "
        f"{sum(s.down)} face down, stock {stock}, home {core.cards_on_foundations(spec, s)}; "
        f"samples won/lost/unknown {t.won}/{t.lost}/{t.unknown}; {len(winning)} of {len(moves)} "
        f"legal moves still win: {[m.to_str() for m in winning][:6]}"
    )
    if rescore[0] and hint.move is not None:
        _rescore(spec, s, hint.move, *rescore)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("-o", "--option", action="append", default=[])
    ap.add_argument("--deals", required=True, help="e.g. 1,9,17 or 1-20")
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--nodes", type=int, default=4000)
    ap.add_argument("--unstick", type=int, default=0)
    ap.add_argument("--budget", choices=("product",), help="the product's budget, whole")
    ap.add_argument("--exact", type=int, default=0, help="nodes of the exact search")
    ap.add_argument("--full-nodes", type=int, default=2_000_000)
    ap.add_argument("--wide", type=int, default=16, help="the samples again, N x nodes")
    ap.add_argument("--rescore", type=int, default=0, help="fatal move: N samples, every move")
    ap.add_argument("--rescore-nodes", type=int, default=2000, help="each rescoring search")
    args = ap.parse_args()
    options = dict(o.split("=", 1) for o in args.option)
    spec = get_game(args.game, options)
    budget = Budget(seconds=None, nodes=args.nodes, samples=args.samples, unstick=args.unstick)
    if args.budget:
        budget = player_budget(spec, args.budget)
    if args.exact:
        budget = replace(budget, exact=args.exact)
    for deal in _deals(args.deals):
        play = follow(args.game, options, deal, budget)
        if play.won:
            print(f"deal {deal}: won in {play.moves} moves")
            continue
        states = [core.initial_state(spec, deal)]
        for m in play.line:
            states.append(core.apply(spec, states[-1], m))
        marks = [progress(spec, s) for s in states]
        start = len(states) - 1
        while start > 0 and marks[start - 1] == marks[-1]:
            start -= 1
        s = states[start]
        window = states[start:]
        views = [known(spec, w) for w in window]
        stock = len(s.piles[spec.index["stock"]]) if spec.has_pile("stock") else 0
        full = solve(spec, s, nodes=args.full_nodes)
        hints.TALLIES.clear()
        t, _ = _sampled(spec, known(spec, s), budget)
        hints.TALLIES.clear()
        assert budget.nodes is not None
        tw, _ = _sampled(spec, known(spec, s), replace(budget, nodes=budget.nodes * args.wide))
        print(
            f"deal {deal}: {play.ended} after {play.moves} moves; stall from move {start}: "
            f"{sum(s.down)} face down, stock {stock}, home {core.cards_on_foundations(spec, s)}"
            f"; full information: {full.result}; window {len(window)} positions, "
            f"{len(set(window))} distinct ({len(set(views))} as seen)"
            f"; samples won/lost/unknown {t.won}/{t.lost}/{t.unknown}"
            f", x{args.wide} nodes {tw.won}/{tw.lost}/{tw.unknown}"
        )
        ends = [progress(spec, w) for w in window]
        assert len(set(ends)) == 1
        srcs: Counter[str] = Counter()
        for i in range(start, len(states) - 1):
            srcs[hints.suggest(spec, states[i], history=states[:i], budget=budget).source] += 1
        print(f"    hint sources in the window: {dict(srcs)}")
        _fatal(spec, states, budget, args.full_nodes, (args.rescore, args.rescore_nodes))


if __name__ == "__main__":
    main()
