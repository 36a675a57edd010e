"""Generator version 1 (GENERATOR_VERSION 1), out of the package, kept so its layouts can
be made again: :func:`make_solvable` here, for ``benchmarks/deals.py --before`` and
``tests/solver/test_legacy_generate.py`` (the library's own ``make_solvable`` makes
versions 2 and later; a stored game keeps its layout whatever version made it).

Solvable deals, made from the deal number alone, as the site dealt them before version 2
(:mod:`pasyans.solvable.generate`). The candidates are made
exactly as then; the filters run today's exact search with version 1's node budgets, so
a number whose candidate today's faster search decides otherwise within the budget can
get another layout than it got then. The text below is version 1's own description.

Spine: played **backwards** from the finished position. Starting with all 104 cards on the
foundations, random legal *un-moves* (each the reverse of a legal forward move) driven by
SplitMix64 take cards off the foundations onto the columns and the spine and move built
cards between columns, until the layout has the shape of a Spine deal: empty foundations,
8 columns of 6/8/10 cards and a spine of 56/40/24. Reversed, the walk is a win, so the
layout is winnable; it is then checked by replaying that win through the engine and by the
forward solver, and rejected when the obvious-moves player wins it. A rejected walk is
followed by the next seed of the deal number's own stream: the same number gives the
same layout on every machine.

Nivernais (hidden cards only in the stock, columns never fed by the player): played
**forward** while the stock's cards are chosen as they come out (:mod:`forward`).

Other games: the first candidate shuffle (the deal's own, then seeds drawn from the deal
number) that the solver proves won within a node budget.
"""

from __future__ import annotations

from dataclasses import dataclass

from pasyans.cards import SplitMix64, shuffled
from pasyans.engine.core import check_deal_number, deck_for
from pasyans.engine.moves import Move
from pasyans.errors import IllegalMoveError
from pasyans.position import State, Table
from pasyans.rules import get_game
from pasyans.rules.spec import EmptyColumn, GameSpec, PileKind
from pasyans.solvable import forward
from pasyans.solvable.autoplay import obvious_wins
from pasyans.solvable.difficulty import measure
from pasyans.solvable.generate import GenerationError, SolvableDeal, check_difficulty, proves_won
from pasyans.solver.search import solve

SPINE_VERIFY_NODES = 1_000
"""Node budget of the forward solve that must confirm a generated Spine deal."""

SOLVABLE_NODES = 10_000
"""Node budget per candidate when looking for a solvable shuffle of another game (about a
second): Backbone and one-suit Spider are usually found in one to three candidates."""

SHUFFLE_ATTEMPTS = 20
"""Candidates tried for another game before giving up with :class:`GenerationError`
(bounds the work to roughly 20 s; 2- and 4-suit Spider and Nivernais often give up)."""

MAX_ATTEMPTS = 200


@dataclass(frozen=True)
class Weights:
    """How often the backward walk picks each kind of un-move."""

    foundation_to_spine: int = 1
    foundation_to_column: int = 3
    column_to_column: int = 8
    column_to_spine: int = 8
    extra_height: int = 6


WEIGHTS = Weights()


class _Walk:
    """The position of a backward walk (forward moves are recorded in reverse)."""

    def __init__(self, spec: GameSpec, rng: SplitMix64, weights: Weights) -> None:
        self.spec = spec
        self.rng = rng
        self.w = weights
        self.spine_len = spec.params["spine"]
        self.height = (104 - self.spine_len) // 8
        self.any_empty = spec.empty_column is EmptyColumn.ANY
        self.runs = spec.runs_move
        self.cols: list[list[int]] = [[] for _ in range(8)]
        self.spine: list[int] = []
        # Foundations f1..f8 finished: C, D, H, S, C, D, H, S from Ace to King.
        self.found: list[list[int]] = [[(r << 2) | (f % 4) for r in range(13)] for f in range(8)]
        self.forward: list[Move] = []  # forward moves, last first

    # -- un-moves ----------------------------------------------------------------------

    def _units(self, y: int) -> list[int]:
        """Sizes of the top units of column ``y`` that a forward move could have put there."""
        col = self.cols[y]
        out: list[int] = []
        limit = len(col) if self.runs else min(1, len(col))
        for n in range(1, limit + 1):
            if n > 1 and col[-n] - col[-n + 1] != 4:
                break
            lowest = col[-n]
            if len(col) == n:
                if self.any_empty or (lowest >> 2) == 12:
                    out.append(n)
            elif col[-n - 1] - lowest == 4:
                out.append(n)
        return out

    def _fits(self, x: int, lowest: int, n: int) -> bool:
        col = self.cols[x]
        if col and col[-1] - lowest == 4:
            return len(col) + n <= self.height + self.w.extra_height
        return len(col) + n <= self.height

    def candidates(self) -> list[tuple[int, tuple[str, int, int, int]]]:
        w = self.w
        out: list[tuple[int, tuple[str, int, int, int]]] = []
        spine_room = len(self.spine) < self.spine_len
        for f, pile in enumerate(self.found):
            if not pile:
                continue
            c = pile[-1]
            if spine_room:
                out.append((w.foundation_to_spine, ("fs", f, 0, 1)))
            for x in range(8):
                if self._fits(x, c, 1):
                    out.append((w.foundation_to_column, ("fc", f, x, 1)))
        for y in range(8):
            for n in self._units(y):
                lowest = self.cols[y][-n]
                empties = len(self.cols[y]) == n
                for x in range(8):
                    if x == y or (empties and not self.cols[x]):
                        continue
                    if self._fits(x, lowest, n):
                        out.append((w.column_to_column, ("cc", y, x, n)))
                if n == 1 and spine_room:
                    out.append((w.column_to_spine, ("cs", y, 0, 1)))
        return out

    def play(self, action: tuple[str, int, int, int]) -> None:
        kind, a, b, n = action
        if kind == "fs":
            self.spine.append(self.found[a].pop())
            self.forward.append(Move("spine", f"f{a + 1}"))
        elif kind == "fc":
            self.cols[b].append(self.found[a].pop())
            self.forward.append(Move(f"t{b + 1}", f"f{a + 1}"))
        elif kind == "cc":
            unit = self.cols[a][-n:]
            del self.cols[a][-n:]
            self.cols[b].extend(unit)
            self.forward.append(Move(f"t{b + 1}", f"t{a + 1}", n))
        else:  # "cs"
            self.spine.append(self.cols[a].pop())
            self.forward.append(Move("spine", f"t{a + 1}"))

    def done(self) -> bool:
        return (
            len(self.spine) == self.spine_len
            and not any(self.found)
            and all(len(c) == self.height for c in self.cols)
        )

    def run(self, max_steps: int) -> bool:
        for _ in range(max_steps):
            if self.done():
                return True
            cands = self.candidates()
            if not any(self.found):
                # Finishing: only moves that bring the over-tall columns down.
                cands = [
                    c
                    for c in cands
                    if len(self.cols[c[1][1]]) > self.height and c[1][0] in ("cs", "cc")
                ] or cands
            if not cands:
                return False
            total = sum(wt for wt, _ in cands)
            pick = self.rng.below(total)
            for wt, action in cands:
                pick -= wt
                if pick < 0:
                    self.play(action)
                    break
        return self.done()

    def state(self) -> State:
        t = Table.empty(len(self.spec.piles))
        for x in range(8):
            t.piles[self.spec.index[f"t{x + 1}"]] = tuple(self.cols[x])
        t.piles[self.spec.index["spine"]] = tuple(self.spine)
        return t.freeze()


def spine_candidate(
    spec: GameSpec, seed: int, weights: Weights = WEIGHTS
) -> tuple[State, list[Move]] | None:
    """One backward walk: the layout and its winning line (forward), or None if the walk
    did not reach the shape of a deal."""
    walk = _Walk(spec, SplitMix64(seed), weights)
    if not walk.run(4000):
        return None
    return walk.state(), list(reversed(walk.forward))


def _line_wins(spec: GameSpec, state: State, moves: list[Move]) -> bool:
    try:
        return forward.replays_to_a_win(spec, state, moves)
    except IllegalMoveError:
        return False


def solvable_spine(spec: GameSpec, deal: int) -> State:
    """The solvable Spine layout of deal number ``deal`` (see the module docstring)."""
    check_deal_number(deal)
    stream = SplitMix64(deal)
    for _ in range(MAX_ATTEMPTS):
        made = spine_candidate(spec, stream.next())
        if made is None:
            continue
        state, line = made
        if not _line_wins(spec, state, line):  # pragma: no cover - a walk bug
            continue
        if obvious_wins(spec, state):
            continue
        if solve(spec, state, nodes=SPINE_VERIFY_NODES).result == "won":
            return state
    raise GenerationError(f"no solvable Spine layout found for deal {deal}")


def solvable_shuffle(spec: GameSpec, deal: int, nodes: int = SOLVABLE_NODES) -> State:
    """The first candidate shuffle for ``deal`` that the solver proves won: the deal's own
    shuffle first, then shuffles seeded by the deal number's SplitMix64 stream."""
    check_deal_number(deal)
    stream = SplitMix64(deal)
    deck = deck_for(spec)
    seed = deal
    for _ in range(SHUFFLE_ATTEMPTS):
        state = spec.deal(spec, shuffled(deck, seed)).freeze()
        if proves_won(spec, state, seed, nodes) is not None:
            return state
        seed = stream.next()
    raise GenerationError(f"no solvable {spec.id} layout found for deal {deal}")


def solvable_layout(spec: GameSpec, deal: int) -> State:
    """A layout proven winnable, from the deal number alone."""
    if spec.has_pile("spine") and spec.piles[spec.index["spine"]].kind is PileKind.SPINE:
        return solvable_spine(spec, deal)
    if forward.supports(spec, spec.deal(spec, deck_for(spec)).freeze()):
        check_deal_number(deal)
        layout = forward.solvable_by_play(spec, deal)
        if layout is None:  # pragma: no cover - about 1e-13 per deal number
            raise GenerationError(f"no solvable {spec.id} layout found for deal {deal}")
        return layout
    return solvable_shuffle(spec, deal)


def make_solvable(
    game_id: str, options: dict[str, str] | None, deal: int, difficulty: str | None = None
) -> SolvableDeal:
    """Version 1's solvable deal of this game, options and number. Version 1 knew no
    difficulty: every band gets its one layout."""
    band = check_difficulty(difficulty)
    spec = get_game(game_id, options)
    check_deal_number(deal)
    state = solvable_layout(spec, deal)
    return SolvableDeal(state, band, measure(spec, state).measure, 1)
