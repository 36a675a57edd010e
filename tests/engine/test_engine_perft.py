"""Golden legal-move counts ("perft"): the number of move sequences of length 1, 2 and 3
from fixed positions of every game and option, pinned in ``tests/golden/perft.txt``.

A rule change shows up as a readable diff of that file. After a deliberate change,
regenerate it with ``PASYANS_UPDATE_GOLDEN=1 uv run pytest tests/engine/test_engine_perft.py``
and review the diff before committing.
"""

from __future__ import annotations

import os
from pathlib import Path

from pasyans.cards import SplitMix64
from pasyans.engine.build import build_state
from pasyans.engine.core import apply, initial_state, legal_moves
from pasyans.position import State
from pasyans.rules import get_game, variants
from pasyans.rules.spec import GameSpec

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "perft.txt"
DEALS = (1, 2, 12345)
PLAYED = (10, 40)  # more positions of each deal: after this many seeded random moves
SPINE_HAND = {  # random Spine deals die at once; this position shows the options at work
    "f1": "AS 2S 3S", "f2": "AH", "f3": "AD", "t1": "KS QS JS", "t2": "9H KH QH",
    "t4": "5D 4S", "t5": "TD 9D", "t6": "JD", "t7": "2H", "spine": "3H 8D QD KD 2D",
}  # fmt: skip
HEADER = """\
# Legal-move counts: move sequences of length 1, 2, 3 (perft) from fixed positions.
# "start" is the deal's layout; "afterN" follows N seeded random moves from it;
# "hand" is a fixed hand-made Spine position (see the test).
# Regenerate: PASYANS_UPDATE_GOLDEN=1 uv run pytest tests/engine/test_engine_perft.py
"""


def perft(spec: GameSpec, state: State, depth: int) -> int:
    """How many sequences of ``depth`` legal moves start at ``state``."""
    moves = legal_moves(spec, state)
    if depth == 1:
        return len(moves)
    return sum(perft(spec, apply(spec, state, m), depth - 1) for m in moves)


def played(spec: GameSpec, state: State, count: int, seed: int) -> State:
    """The position after ``count`` random legal moves chosen by SplitMix64(seed)."""
    rng = SplitMix64(seed)
    for _ in range(count):
        moves = legal_moves(spec, state)
        if not moves:
            break
        state = apply(spec, state, moves[rng.below(len(moves))])
    return state


def golden_lines() -> list[str]:
    lines = []
    for game_id, options in variants():
        spec = get_game(game_id, options)
        opts = ",".join(f"{k}={v}" for k, v in options.items()) or "-"
        positions = []
        for deal in DEALS:
            start = initial_state(spec, deal)
            positions.append((f"deal={deal}", "start", start))
            for n in PLAYED:
                positions.append((f"deal={deal}", f"after{n}", played(spec, start, n, deal)))
        if game_id == "spine":
            positions.append(("-", "hand", build_state(spec, SPINE_HAND)))
        for where, label, state in positions:
            counts = " ".join(str(perft(spec, state, d)) for d in (1, 2, 3))
            lines.append(f"{game_id:<16} {opts:<32} {where:<10} {label:<8} {counts}")
    return lines


def test_perft_counts_match_the_golden_file() -> None:
    lines = golden_lines()
    if os.environ.get("PASYANS_UPDATE_GOLDEN") == "1":
        GOLDEN.write_text(HEADER + "\n".join(lines) + "\n", encoding="utf-8")
    pinned = [
        line for line in GOLDEN.read_text(encoding="utf-8").splitlines() if not line.startswith("#")
    ]
    assert lines == pinned


def test_perft_counts_small_positions_by_hand() -> None:
    spine = get_game("spine")
    s = build_state(spine, {"t1": "KS QS", "t2": "JS", "spine": "AH"})
    # depth 1: t2>t1 (JS onto QS), spine>f1..f8 (AH) = 9 moves.
    assert perft(spine, s, 1) == 9
    niv = get_game("nivernais")
    assert perft(niv, build_state(niv, {"t1": "2C"}, redeals=2), 1) == 8  # 2C to 8 cells
