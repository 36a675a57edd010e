"""Do the difficulty bands feel different? Both players per band, and the time per number.

For deals ``--start`` … ``--start + --deals - 1`` of one game and option set, makes the
three bands with ``generate.bands`` (generator ``--generator``, default the current one;
CPU seconds per number, all three bands, p50 and p95) and plays each band's layout with:

- the **felt player** of :mod:`pasyans.solvable.felt` (what version 4 ranks by): its win
  rate in the playouts the ranking used, and on ``--second`` fresh playouts (other seeds,
  so the ranking's luck does not count) its win rate and the lost games' mean progress;
- a **second, independent player**: the randomised simple player of
  :mod:`pasyans.solvable.difficulty` (uniform among new positions, foundation moves first)
  where the felt player is another one (Spider, Nivernais), and where the felt player *is*
  the randomised simple player (Spine, Backbone), the hurried player
  (:func:`pasyans.solvable.felt.hurried_game`: the obvious-moves player with random
  choices within its priorities). ``--second`` playouts with seeds unrelated to the
  felt player's, win rate and mean progress.

With ``--follow``, also the **hint follower** (:func:`pasyans.hints.follow.follow` with the
product's hint budget, no time cap): the share of each band's deals it wins, and the share
of the cards it brings home (slow: seconds to tens of seconds a deal).

Prints per band the means over the deals, and on how many deals easy's second-player
result beat hard's (win rate, then progress).

With ``--critical K`` it measures instead the **solution's path** of each band's layout
(:func:`critical`): the solver's winning line (every card known), ``K`` positions spread
evenly along it, and at each every legal move's position searched again with the
generator's proof budget (``--probe`` nodes). The *width* is the share of the legal moves
that still win, and a position is a *critical decision* when it has at least two legal
moves and at most one of them still wins. A move whose search runs out of its budget counts
as not winning, so both figures lean towards "narrow" alike in every band.

    uv run python benchmarks/bands.py --game spider --options suits=1 --deals 20
    uv run python benchmarks/bands.py --game nivernais --deals 20 --generator 3
    uv run python benchmarks/bands.py --game spider --options suits=4 --deals 3 --critical 20
"""

from __future__ import annotations

import argparse
import signal
import statistics
import time

from pasyans.cards import SplitMix64
from pasyans.engine.core import apply, cards_on_foundations, is_won, legal_moves
from pasyans.hints.follow import follow
from pasyans.hints.policy import product_budget
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec
from pasyans.solvable import difficulty, felt, generate
from pasyans.solver.search import solve


def second(spec: GameSpec, state: State, playouts: int, generator: int) -> tuple[float, float]:
    """The second player's win rate and mean progress on ``state``."""
    name, _ = felt.player_for(spec, generator)
    wins = 0
    done = 0.0
    for n in range(playouts):
        rng_seed = 0x5EC0 + 7919 * n
        if name == "random":
            won, progress = felt.hurried_game(spec, state, rng_seed)
        elif name == "search":
            won, progress = felt.hurried_search_game(spec, state, rng_seed)
        else:
            end = difficulty.playout(spec, state, SplitMix64(rng_seed))
            won = is_won(spec, end)
            progress = 1.0 if won else difficulty.progress(spec, end)
            if name == "forward":
                progress = cards_on_foundations(spec, end) / 104
        wins += won
        done += progress
    return wins / playouts, done / playouts


def follower(spec: GameSpec, deal: int, state: State) -> tuple[float, float]:
    """The hint follower (the product's hint budget, no time cap) on ``state``: won (1.0
    or 0.0) and the share of the cards it brought home."""
    p = follow(spec.id, dict(spec.option_values), deal, product_budget(spec, None), start=state)
    return float(p.won), p.cards / 104


def critical(
    spec: GameSpec, state: State, k: int, probe: int, line_nodes: int
) -> tuple[float, float, int]:
    """The solution's path of ``state``: the winning line's length, and over ``k``
    positions spread along it, the mean share of legal moves that still win within
    ``probe`` nodes (the width) and the share of positions that are critical decisions
    (two or more legal moves, at most one still winning). Raises when no win is found."""
    r = solve(spec, state, nodes=line_nodes)
    if r.result != "won":
        raise RuntimeError(f"no win within {line_nodes} nodes")
    states = [state]
    for m in r.moves:
        states.append(apply(spec, states[-1], m))
    picks = sorted({round(i * (len(r.moves) - 1) / max(k - 1, 1)) for i in range(k)})
    widths: list[float] = []
    crit = 0
    for i in picks:
        here = states[i]
        moves = legal_moves(spec, here)
        wins = sum(solve(spec, apply(spec, here, m), nodes=probe).result == "won" for m in moves)
        widths.append(wins / len(moves))
        crit += len(moves) >= 2 and wins <= 1
    return statistics.fmean(widths), crit / len(picks), len(r.moves)


def critical_part(
    spec: GameSpec, start: int, deals: int, generator: int, k: int, probe: int
) -> None:
    """Per band, the mean width and share of critical decisions over the deals."""
    rows: dict[str, list[tuple[float, float, int]]] = {b: [] for b in generate.DIFFICULTIES}
    for deal in range(start, start + deals):
        for band, sd in generate.bands(spec, deal, generator).items():
            rows[band].append(critical(spec, sd.state, k, probe, 100 * generate.SOLVABLE_NODES))
        cells = (f"{b}:{r[-1][0]:.2f}/{r[-1][1]:.2f}/{r[-1][2]}" for b, r in rows.items())
        print(deal, " ".join(cells), flush=True)
    print(f"\n{spec.id} {dict(spec.option_values)} deals {start}-{start + deals - 1} generator"
          f" {generator}; {k} positions on each line, {probe:,} nodes a move")  # fmt: skip
    print("| band | width (winning moves / legal) | critical decisions (share) | line length |")
    print("|---|---:|---:|---:|")
    for band, r in rows.items():
        cols = [statistics.fmean(x[i] for x in r) for i in range(3)]
        print(f"| {band} | {cols[0]:.3f} | {cols[1]:.3f} | {cols[2]:.0f} |")


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def deals_parser(doc: str) -> argparse.ArgumentParser:
    """The options every bands benchmark takes: ``--game``, ``--options`` (``k=v,…``),
    ``--start`` and ``--deals``; :func:`spec_of` reads the first two."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--game", required=True)
    ap.add_argument("--options", default="")
    ap.add_argument("--start", type=int, default=1)
    ap.add_argument("--deals", type=int, default=20)
    return ap


def spec_of(a: argparse.Namespace) -> GameSpec:
    return get_game(a.game, dict(kv.split("=", 1) for kv in a.options.split(",") if kv))


def main() -> None:
    ap = deals_parser(__doc__)
    ap.add_argument("--generator", type=int, default=generate.GENERATOR_VERSION)
    ap.add_argument("--second", type=int, default=32, help="second-player playouts per layout")
    ap.add_argument("--follow", action="store_true", help="also the hint follower per band")
    ap.add_argument("--critical", type=int, default=0, help="the solution's path: K positions")
    ap.add_argument("--probe", type=int, default=generate.SOLVABLE_NODES, help="nodes a move")
    a = ap.parse_args()
    spec = spec_of(a)
    if a.critical:
        critical_part(spec, a.start, a.deals, a.generator, a.critical, a.probe)
        return
    name, _ = felt.player_for(spec, a.generator)
    cpu: list[float] = []
    rows: dict[str, list[tuple[float, ...]]] = {b: [] for b in generate.DIFFICULTIES}
    beats = 0
    signal.signal(signal.SIGTERM, _stop)  # a run cut short (timeout) still prints its figures
    try:
        for deal in range(a.start, a.start + a.deals):
            generate._bands.cache_clear()
            c0 = time.process_time()
            made = generate.bands(spec, deal, a.generator)
            cpu.append(time.process_time() - c0)
            results = {}
            for band, sd in made.items():
                f = felt.measure(spec, sd.state, generator=a.generator)
                fresh = felt.measure(spec, sd.state, a.second, 0xF2E5 << 16, a.generator)
                s = second(spec, sd.state, a.second, a.generator)
                played = follower(spec, deal, sd.state) if a.follow else (0.0, 0.0)
                rows[band].append((f.win_rate, fresh.win_rate, fresh.progress, *s, *played))
                results[band] = s
            beats += results["easy"] > results["hard"]
            print(deal, " ".join(f"{b}:{r[-1][1]:.2f}/{r[-1][3]:.2f}" for b, r in rows.items()),
                  f"{cpu[-1]:.2f}s", flush=True)  # fmt: skip
    except KeyboardInterrupt:
        print("stopped early", flush=True)
    done = len(cpu) if len(rows["hard"]) == len(cpu) else len(cpu) - 1
    cpu = cpu[:done]
    rows = {b: r[:done] for b, r in rows.items()}
    q = statistics.quantiles(cpu, n=20) if len(cpu) > 1 else [cpu[0]] * 19
    last = a.start + done - 1
    print(f"\n{a.game} {a.options or '(default)'} deals {a.start}-{last} generator"
          f" {a.generator}; felt player {name!r}; second {a.second} playouts")  # fmt: skip
    print("| band | felt win rate (ranked) | felt win rate (fresh) | felt lost progress (fresh)"
          " | second win rate | second progress | follower won | follower cards |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for band, r in rows.items():
        cols = [statistics.fmean(x[i] for x in r) for i in range(7)]
        print(f"| {band} | " + " | ".join(f"{c:.3f}" for c in cols) + " |")
    print(f"easy beats hard for the second player on {beats} of {done} deals")
    print(f"generate.bands CPU s per number: p50 {statistics.median(cpu):.2f}  p95 {q[18]:.2f}")


if __name__ == "__main__":
    main()
