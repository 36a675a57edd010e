"""Replay speed: milliseconds to rebuild a saved game from its moves, trusted and checked.

A saved game is replayed on every cache miss of the server (``deals.load_game``). The
trusted replay tests each stored move with the engine's per-move legality test and
applies it unchecked; the checked one plays each through ``core.play_checked``. Each game
is a seeded random playout of up to ``--moves`` moves (the longest of deals 1-20; its
length is printed). Prints the median over ``--repeats`` of CPU time
(``time.process_time``).

    uv run python benchmarks/replay.py [--moves 300] [--repeats 7]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from pasyans.cards import SplitMix64
from pasyans.engine.game import Game

GAMES: list[tuple[str, dict[str, str]]] = [
    ("backbone", {}),
    ("backbone-classic", {}),
    ("spider", {"suits": "4"}),
    ("nivernais", {}),
]


def saved_game(game_id: str, options: dict[str, str], moves: int) -> dict[str, object]:
    """The saved form of the longest seeded random playout of deals 1-20, each stopped at
    ``moves`` moves or when stuck."""
    best: Game | None = None
    for deal in range(1, 21):
        g = Game(game_id, deal, options)
        rng = SplitMix64(deal)
        for _ in range(moves):
            legal = g.legal_moves()
            if not legal:
                break
            g.play(legal[rng.below(len(legal))])
        if best is None or g.moves_made > best.moves_made:
            best = g
        if best.moves_made >= moves:
            break
    assert best is not None
    return best.to_saved()


def replay_ms(saved: dict[str, object], trusted: bool, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.process_time()
        Game.from_saved(saved, trusted=trusted)
        times.append((time.process_time() - t0) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=300, help="moves per saved game")
    parser.add_argument("--repeats", type=int, default=7, help="replays per figure (median)")
    args = parser.parse_args()
    print(f"Python {platform.python_version()}; {args.moves} moves, median of {args.repeats} ms")
    print(f"{'game':18} {'moves':>6} {'trusted':>9} {'checked':>9}")
    for game_id, options in GAMES:
        saved = saved_game(game_id, options, args.moves)
        trusted = replay_ms(saved, True, args.repeats)
        checked = replay_ms(saved, False, args.repeats)
        n = len(saved["moves"])  # type: ignore[arg-type]
        print(f"{game_id:18} {n:6} {trusted:9.2f} {checked:9.2f}")


if __name__ == "__main__":
    main()
