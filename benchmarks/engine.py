"""Engine speed: moves per second of seeded random playouts, per game and option.

Each step generates the legal moves, applies a random one and, every fourth step, undoes
the last move. A playout that gets stuck starts over on the next deal. Two paths:
``core`` (``legal_moves`` + unchecked ``apply``; undo pops the previous state, as a
solver does) and ``game`` (``Game.legal_moves`` + checked ``Game.play`` + ``Game.undo``).
Prints the median over a few repeats. Times are CPU time of this process
(``time.process_time``), so other work on a shared machine disturbs them less.

    uv run python benchmarks/engine.py [--steps 3000] [--repeats 5] [--game spider]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from pasyans.cards import SplitMix64
from pasyans.engine.core import apply, initial_state, legal_moves
from pasyans.engine.game import Game
from pasyans.position import State
from pasyans.rules import get_game, variants


def core_playout(game_id: str, options: dict[str, str], steps: int, seed: int) -> float:
    """Moves per second through the core functions."""
    spec = get_game(game_id, options)
    rng = SplitMix64(seed)
    deal = seed
    stack: list[State] = [initial_state(spec, deal)]
    done = 0
    t0 = time.process_time()
    for step in range(1, steps + 1):
        moves = legal_moves(spec, stack[-1])
        if not moves:
            deal += 1
            stack = [initial_state(spec, deal)]
            continue
        stack.append(apply(spec, stack[-1], moves[rng.below(len(moves))]))
        done += 1
        if step % 4 == 0:
            stack.pop()
            done += 1
    return done / (time.process_time() - t0)


def game_playout(game_id: str, options: dict[str, str], steps: int, seed: int) -> float:
    """Moves per second through :class:`Game` (checked play, history, undo)."""
    rng = SplitMix64(seed)
    deal = seed
    game = Game(game_id, deal, options)
    done = 0
    t0 = time.process_time()
    for step in range(1, steps + 1):
        moves = game.legal_moves()
        if not moves:
            deal += 1
            game = Game(game_id, deal, options)
            continue
        game.play(moves[rng.below(len(moves))])
        done += 1
        if step % 4 == 0:
            game.undo()
            done += 1
    return done / (time.process_time() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3000, help="steps per playout run")
    parser.add_argument("--repeats", type=int, default=5, help="runs per figure (median)")
    parser.add_argument("--game", action="append", help="only these game ids")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}; "
          f"{args.steps} steps x {args.repeats} repeats, median moves/s")  # fmt: skip
    print(f"{'game':<17}{'options':<32}{'core':>10}{'game':>10}")
    for game_id, options in variants():
        if args.game and game_id not in args.game:
            continue
        core = [core_playout(game_id, options, args.steps, 1 + r) for r in range(args.repeats)]
        full = [game_playout(game_id, options, args.steps, 1 + r) for r in range(args.repeats)]
        opts = ",".join(f"{k}={v}" for k, v in options.items()) or "-"
        print(
            f"{game_id:<17}{opts:<32}"
            f"{statistics.median(core):>10,.0f}{statistics.median(full):>10,.0f}"
        )


if __name__ == "__main__":
    main()
