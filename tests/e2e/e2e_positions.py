"""Move lists that reach the positions the browser tests need, found with the engine.

The browser never sees these: the tests play them through the API (as a player would),
then look at the page.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from pasyans.deals import new_game
from pasyans.engine import Game, core
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules.spec import GameSpec, PileKind
from pasyans.solver.search import solve


def random_line(
    game: Game,
    goal: Callable[[GameSpec, State], bool],
    *,
    seed: int,
    steps: int,
    stock: bool = True,
) -> list[Move] | None:
    """A random legal line from the game's position that reaches ``goal``, or None."""
    rng = random.Random(seed)
    spec, state = game.spec, game.state
    line: list[Move] = []
    for _ in range(steps):
        if goal(spec, state):
            return line
        moves = [m for m in core.legal_moves(spec, state) if stock or m.dst is not None]
        if not moves:
            return None
        m = rng.choice(moves)
        state = core.apply(spec, state, m)
        line.append(m)
    return line if goal(spec, state) else None


def spider_empty_column(deal: int = 1) -> tuple[dict[str, str], list[Move]]:
    """Spider (one suit) moves that empty a column while the stock still has cards."""
    options = {"suits": "1"}

    def goal(spec: GameSpec, s: State) -> bool:
        cols = spec.indexes_of(PileKind.COLUMN)
        return bool(s.piles[spec.index["stock"]]) and any(not s.piles[c] for c in cols)

    for seed in range(2000):
        line = random_line(
            new_game("spider", deal, options, "random"), goal, seed=seed, steps=200, stock=False
        )
        if line is not None:
            return options, line
    raise AssertionError("no Spider line to an empty column found")


def nivernais_stuck() -> tuple[int, list[Move]]:
    """A Nivernais deal and a line that leaves it stuck (every random playout ends)."""
    for deal in range(1, 200):
        for seed in range(20):
            g = new_game("nivernais", deal, None, "random")
            line = random_line(g, core.is_stuck, seed=seed, steps=2000)
            if line is not None:
                return deal, line
    raise AssertionError("no stuck Nivernais line found")


def spine_win(deal: int) -> list[Move]:
    """The solver's winning line for a solvable Spine deal."""
    g = new_game("spine", deal, None, "solvable")
    result = solve(g.spec, g.state, seconds=30)
    assert result.result == "won", result
    return list(result.moves)


def first_card_move(game_id: str, options: dict[str, str] | None = None) -> tuple[int, Move]:
    """A random deal of ``game_id`` whose start has a card move (not the stock) that does
    not leave the game stuck (the stuck dialog would cover the table)."""
    for deal in range(1, 500):
        g = new_game(game_id, deal, options, "random")
        for m in g.legal_moves():
            if m.dst is not None and not core.is_stuck(g.spec, core.apply(g.spec, g.state, m)):
                return deal, m
    raise AssertionError(f"no {game_id} deal with a card move at the start")


def card_with_choices(game_id: str, at_least: int = 2) -> tuple[int, str, int, list[Move]]:
    """A random deal whose start has a card with several smart-move destinations."""
    for deal in range(1, 2000):
        g = new_game(game_id, deal, None, "random")
        for pid in {m.src for m in g.legal_moves() if m.dst is not None}:
            n = len(g.state.piles[g.spec.index[pid]])
            for index in range(n - 1, -1, -1):
                smart = g.smart_moves(pid, index)
                if len(smart) >= at_least:
                    return deal, pid, index, smart
    raise AssertionError(f"no {game_id} deal with a card of {at_least} destinations")


def opening_line(game_id: str, n: int) -> tuple[int, list[Move]]:
    """A random deal and ``n`` legal moves from its start (card moves first, the stock when
    none) that leave the game not stuck."""
    for deal in range(1, 500):
        g = new_game(game_id, deal, None, "random")
        line: list[Move] = []
        for _ in range(n):
            moves = g.legal_moves()
            if not moves:
                break
            m = next((x for x in moves if x.dst is not None), moves[0])
            g.play(m)
            line.append(m)
        if len(line) == n and not core.is_stuck(g.spec, g.state):
            return deal, line
    raise AssertionError(f"no {game_id} deal with {n} moves from the start")


def cycle_card(game_id: str) -> tuple[int, str, list[str]]:
    """A random deal whose start has a top card with two smart destinations that are not
    two empty piles of one kind (the page's cycle visits only the first of those): the
    deal, the source pile and the two destinations."""
    for deal in range(1, 2000):
        g = new_game(game_id, deal, None, "random")
        spec, state = g.spec, g.state
        for pid in sorted({m.src for m in g.legal_moves() if m.dst is not None and m.src}):
            seen: list[str] = []
            for m in g.smart_moves(pid):
                assert m.dst is not None
                pile = state.piles[spec.index[m.dst]]
                kind = spec.piles[spec.index[m.dst]].kind
                if not pile and any(
                    not state.piles[spec.index[d]] and spec.piles[spec.index[d]].kind == kind
                    for d in seen
                ):
                    continue
                seen.append(m.dst)
            after = core.apply(spec, state, g.smart_moves(pid)[0])
            if len(seen) >= 2 and not core.is_stuck(spec, after):
                return deal, pid, seen[:2]
    raise AssertionError(f"no {game_id} deal with a card of two destinations")


def dead_end_move(game_id: str) -> tuple[int, Move]:
    """A random deal whose start has a column top with exactly one destination, after
    which that card has no move at all and the game goes on: the deal and the move."""
    for deal in range(1, 500):
        g = new_game(game_id, deal, None, "random")
        by_src: dict[str, list[Move]] = {}
        for m in g.legal_moves():
            if m.src and m.dst:
                by_src.setdefault(m.src, []).append(m)
        for src, moves in sorted(by_src.items()):
            if not src.startswith("t") or len(moves) != 1:
                continue
            after = new_game(game_id, deal, None, "random")
            after.play(moves[0])
            if core.is_stuck(after.spec, after.state):  # the end dialog would cover it
                continue
            if not any(x.src == moves[0].dst and x.dst for x in after.legal_moves()):
                return deal, moves[0]
    raise AssertionError(f"no {game_id} deal with a one-way column top")


def misdrop_position(game_id: str) -> tuple[int, dict[str, Move | str]]:
    """A random deal whose start has, on the tops of three different columns: a card with
    no move (``stuck``), a card with a smart move (``first``: its click's move), and a card
    with a move that is still legal after ``first`` (``second``), none of them touching
    another's piles; ``nowhere``: a column ``second``'s card cannot go to."""
    for deal in range(1, 2000):
        g = new_game(game_id, deal, None, "random")
        spec, s = g.spec, g.state
        columns = [
            p.id for p in spec.piles if p.kind is PileKind.COLUMN and s.piles[spec.index[p.id]]
        ]
        smart = {c: core.smart_moves(spec, s, c) for c in columns}
        stuck = [
            c
            for c in columns
            if not smart[c] and s.down[spec.index[c]] < len(s.piles[spec.index[c]])
        ]
        for c1 in columns:
            if not smart[c1] or smart[c1][0].cards != 1:
                continue
            first = smart[c1][0]
            after = core.apply(spec, s, first)
            if core.is_stuck(spec, after):
                continue
            for m in core.legal_moves(spec, after):
                if m.dst is None or m.cards != 1 or m.src not in columns:
                    continue
                if {m.src, m.dst} & {first.src, first.dst} or m not in smart[m.src]:
                    continue
                busy = {first.src, first.dst, m.src, m.dst}
                free = [c for c in stuck if c not in busy]
                nowhere = [
                    c for c in columns if c not in busy and all(x.dst != c for x in smart[m.src])
                ]
                if free and nowhere:
                    return deal, {
                        "stuck": free[0],
                        "first": first,
                        "second": m,
                        "nowhere": nowhere[-1],
                    }
    raise AssertionError(f"no {game_id} deal with the three cards a misdrop test needs")
