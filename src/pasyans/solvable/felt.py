"""Difficulty a player feels (generator versions 4 to 6): how often a no-peek player wins a layout.

Each game has a **felt player** (:func:`player_for`, by generator version), a randomised
player that reads only the cards a person sees and plays the layout to its end;
:data:`PLAYOUTS` of its games, each with its own fixed seed, give the layout's **win
rate** and the mean **progress** of the games it lost (0 to 1). The players:

- **Spider** (``"policy"``): the no-peek playout policy of the Spider player as it
  stood for version 4 (``_core.spider_rollout`` in ``csrc/player.c``, the compiled
  :func:`pasyans.hints.player.felt_rollout`; the hints layer is not imported here): the
  face-up move of highest order plus a random jitter, no shuffling moves, the deal when
  nothing turns up. It plays the real deal: a face-down card is read only when it turns
  up, the stock only by its size. Progress: its points (cards in completed runs plus
  twice the cards turned up) over the most it can score.
- **Nivernais** (``"forward"``): the forward player of :mod:`pasyans.solvable.forward`
  (foundation moves, reserve cells first; a column's top card into a cell when that
  uncovers a card a foundation wants; then the stock; then any cell move), on the real
  layout: the stock's cards are seen as they land. Progress: cards on the foundations.
- **Spine with single-card moves (the default) or a 40- or 24-card spine (version 6: also
  suit runs with a 56-card spine and any card on an empty column), Backbone, Backbone
  classic, version 5 on** (``"search"``, :func:`search_game`): a player who tries lines and
  takes moves back. A randomised depth-first search over new positions, a foundation
  move alone when there is one, the other moves in a random order, until it wins or has
  looked at its budget of positions. Spine: every card is face up, one search of
  :data:`SEARCH_POSITIONS`. Backbone: the stock is face down, so the player never takes
  back a stock click: from the current position it searches the card moves (at most
  :data:`PER_CLICK` positions), and failing a win goes to the best position it saw
  (:func:`_pick_score`: most cards home, then empty columns, then fewest cards on the
  spine and tailbone) and clicks the stock there, until :data:`BACKBONE_POSITIONS`
  positions are spent or the stock cannot be clicked. Compiled (``_core.engine_felt``,
  ``csrc/engine.c``); :func:`search_game_py` is the reference, game for game under the
  same seed. Progress: the most cards it had on the foundations.
- **Spine with suit runs and a 56-card spine (version 6: and kings on empty columns);
  Spine, Backbone and Backbone classic in version 4** (``"random"``): the randomised
  simple player of
  :mod:`pasyans.solvable.difficulty` (a foundation move when there is one, otherwise any
  move to a position this game has not seen). Progress: cards on the foundations.

**The hurried player** (:func:`hurried_game`), not a felt player: the "obvious moves"
player of :mod:`pasyans.solvable.autoplay` with random choices within each of its
priorities (a foundation move; a build from the spine, tailbone or waste; a build between
columns; the stock; a move to an empty column), never back to a position of the same
game. It is the independent second player that checks the bands of the games whose felt
player is the randomised simple player (``benchmarks/bands.py``). **The hurried
searcher** (:func:`hurried_search_game`) is the second player where the felt player is
the search player: it takes moves back within the same budgets, but tries the moves in
the hurried player's order (random within a priority; no foundation move forced), with
seeds of its own.

The **measure** is ``1 - (wins + p) / (PLAYOUTS + 1)`` where ``wins`` counts the won
playouts and ``p`` is the lost ones' mean progress (1 when none was lost): ranking by it
ranks by the win rate first, then by how far the lost games got. 0: every playout won.

Another player can be plugged in for a game by :func:`player_for` (a function of the
spec, the layout and a seed that returns the end of one game: won, progress).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pasyans.cards import SplitMix64
from pasyans.domains import packed, spider
from pasyans.domains.built import compiled
from pasyans.engine.core import apply, cards_on_foundations, deck_for, is_won, legal_moves
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules.spec import GameSpec, PileKind
from pasyans.solvable import difficulty, forward

PLAYOUTS = 32
"""Games of the felt player per layout."""

MAX_MOVES = 600
"""Moves a hurried playout plays at most."""

LATEST = 6
"""The generator version whose felt players :func:`player_for` gives by default (the
felt players of versions 4 and 5 stay reproducible: ``generator=4``, ``5``)."""

SEARCH_POSITIONS = 500
"""Positions a search player's game of Spine looks at at most (version 5)."""

BACKBONE_POSITIONS = 20_000
"""Positions a search player's game of Backbone looks at at most (version 5)."""

PER_CLICK = 150
"""Positions a Backbone search player looks at between two stock clicks at most."""

Game = Callable[[GameSpec, State, int], tuple[bool, float]]
"""One game of a felt player: (spec, layout, seed) -> (won, progress 0 to 1)."""

_SPIDER_MOST = 104 + 2 * 44
"""The most points a Spider policy game scores without winning (every run, every card)."""

_WIN = 1000
"""What ``spider_rollout`` answers for a won game (``WIN`` in ``csrc/player.c``)."""
_LIMIT = 500
"""Moves a Spider policy game plays at most (the player's ``LIMIT``)."""
_MASK = (1 << 64) - 1

_FEEDERS = (PileKind.SPINE, PileKind.TAILBONE, PileKind.WASTE)


@dataclass(frozen=True)
class Felt:
    """What the felt player did on one layout."""

    player: str
    wins: int  # of ``playouts``
    playouts: int
    progress: float  # mean progress of the lost playouts (1.0 when none was lost)

    @property
    def win_rate(self) -> float:
        return self.wins / self.playouts

    @property
    def measure(self) -> float:
        """``1 - (wins + progress) / (playouts + 1)`` (see the module docstring)."""
        return round(1.0 - (self.wins + self.progress) / (self.playouts + 1), 4)


def player_for(spec: GameSpec, generator: int = LATEST) -> tuple[str, Game]:
    """The felt player of a game under generator version ``generator`` (4 or later): its
    name and one game of it (module docstring)."""
    if spider.applies(spec):
        return "policy", _spider_game
    if forward.supports(spec, spec.deal(spec, deck_for(spec)).freeze()):
        return "forward", _forward_game
    if generator >= 5 and searched(spec, generator):
        return "search", search_game
    return "random", _random_game


def searched(spec: GameSpec, generator: int = LATEST) -> bool:
    """Whether the felt player of ``spec`` under ``generator`` (5 or later) is the search
    player (module docstring)."""
    if spec.has_pile("spine"):  # Spine: all but suit runs with a 56-card spine (and kings, 6)
        values = spec.option_values
        if values.get("runs") == "single" or values.get("spine") != "56":
            return True
        return generator >= 6 and values.get("empty") == "any"
    return spec.has_pile("tailbone")  # Backbone, Backbone classic


def measure(
    spec: GameSpec,
    state: State,
    playouts: int = PLAYOUTS,
    seed: int = 0xFEE1,
    generator: int = LATEST,
) -> Felt:
    """The felt player's :data:`PLAYOUTS` games of ``state`` (seeds ``seed + n``), the
    player of generator version ``generator``."""
    name, game = player_for(spec, generator)
    wins = 0
    lost: list[float] = []
    for n in range(playouts):
        won, progress = game(spec, state, seed + n)
        if won:
            wins += 1
        else:
            lost.append(progress)
    mean = sum(lost) / len(lost) if lost else 1.0
    return Felt(name, wins, playouts, round(mean, 4))


def _spider_game(spec: GameSpec, state: State, seed: int) -> tuple[bool, float]:
    if compiled is None:  # pragma: no cover - the build compiles it (uv sync)
        raise RuntimeError("Spider's felt player needs the compiled core (uv sync)")
    g = spider.SpiderGame(spec, state)
    points = compiled.spider_rollout(tuple(g.stock), g.root[:4], spider.WON, seed & _MASK, _LIMIT)
    if points == _WIN:
        return True, 1.0
    return False, min(1.0, points / _SPIDER_MOST)


def _forward_game(spec: GameSpec, state: State, seed: int) -> tuple[bool, float]:
    end = forward.play_end(spec, state, seed)
    return is_won(spec, end), cards_on_foundations(spec, end) / 104


def _random_game(spec: GameSpec, state: State, seed: int) -> tuple[bool, float]:
    end = difficulty.playout(spec, state, SplitMix64(seed))
    return is_won(spec, end), cards_on_foundations(spec, end) / 104


def _budget(spec: GameSpec) -> tuple[int, int]:
    """The search player's positions and positions per stock click (0: no stock)."""
    if spec.has_pile("stock"):
        return BACKBONE_POSITIONS, PER_CLICK
    return SEARCH_POSITIONS, 0


_CORES: dict[tuple[str, tuple[tuple[str, str], ...]], object] = {}


def search_game(spec: GameSpec, state: State, seed: int) -> tuple[bool, float]:
    """One game of the search player (module docstring), in the compiled core
    (``engine_felt``, ``csrc/engine.c``): won, progress. :func:`search_game_py` is the
    reference."""
    if compiled is None or not packed.fits(spec, state):  # pragma: no cover - uv sync builds it
        return search_game_py(spec, state, seed)
    key = (spec.id, tuple(sorted(spec.option_values.items())))
    core = _CORES.get(key)
    if core is None:
        core = _CORES[key] = packed.PackedDomain(spec, state).core
    positions, per_click = _budget(spec)
    won, best = compiled.engine_felt(core, packed.pack(state), seed & _MASK, positions, per_click)
    return won, 1.0 if won else best / 104


def search_game_py(spec: GameSpec, state: State, seed: int) -> tuple[bool, float]:
    """One game of the search player in Python, the reference of :func:`search_game`."""
    return _take_back_game(spec, state, seed, hurried=False)


def hurried_search_game(spec: GameSpec, state: State, seed: int) -> tuple[bool, float]:
    """One game of the hurried searcher (module docstring), the second player of the
    games whose felt player is the search player: won, progress."""
    return _take_back_game(spec, state, seed, hurried=True)


def _take_back_game(
    spec: GameSpec, state: State, seed: int, *, hurried: bool
) -> tuple[bool, float]:
    rng = SplitMix64(seed)
    positions, per_click = _budget(spec)
    best = [cards_on_foundations(spec, state)]
    if not per_click:
        won, _, _ = _search(spec, state, rng, positions, False, best, hurried)
        return won, 1.0 if won else best[0] / 104
    used = 0
    while used < positions:
        limit = min(per_click, positions - used)
        won, n, pick = _search(spec, state, rng, limit, True, best, hurried)
        used += n
        if won:
            return True, 1.0
        click = Move.stock()
        if click not in legal_moves(spec, pick):
            break
        state = apply(spec, pick, click)
    return False, best[0] / 104


def _search(
    spec: GameSpec,
    start: State,
    rng: SplitMix64,
    limit: int,
    clicks: bool,
    best: list[int],
    hurried: bool,
) -> tuple[bool, int, State]:
    """One search from ``start`` (module docstring), at most ``limit`` positions, no stock
    click when ``clicks``: (won, positions looked at, the best position by
    :func:`_pick_score`); ``best[0]``: the most cards home seen. ``hurried``: the moves
    in the hurried player's order (:func:`_tier`, random within a tier), else a
    foundation move alone when there is one and the others in a random order."""
    kinds = [p.kind for p in spec.piles]
    seen = {start}
    stack = [start]
    pick, pick_score = start, _pick_score(spec, start)
    used = 0
    while used < limit and stack:
        s = stack.pop()
        used += 1
        if is_won(spec, s):
            return True, used, s
        best[0] = max(best[0], cards_on_foundations(spec, s))
        if clicks and _pick_score(spec, s) > pick_score:
            pick, pick_score = s, _pick_score(spec, s)
        moves = legal_moves(spec, s)
        if clicks:
            moves = [m for m in moves if m.dst is not None]
        if hurried:
            tiers: list[list[Move]] = [[], [], [], [], []]
            for m in moves:
                tiers[_tier(spec, s, m)].append(m)
            order = [t.pop(rng.below(len(t))) for t in tiers for _ in range(len(t))]
            moves = order[::-1]  # popped from the end: the first in order is tried first
            for m in moves:
                nxt = apply(spec, s, m)
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
            continue
        up = [
            m
            for m in moves
            if m.dst is not None and kinds[spec.index[m.dst]] is PileKind.FOUNDATION
        ]
        if up:
            moves = [up[rng.below(len(up))]]
        while moves:  # drawn at random, pushed so that the first drawn is tried last
            nxt = apply(spec, s, moves.pop(rng.below(len(moves))))
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return False, used, pick


def _pick_score(spec: GameSpec, state: State) -> int:
    """Where a Backbone search player clicks the stock: the most cards home, then empty
    columns, then the fewest cards on the spine piles and the tailbone."""
    empty = sum(1 for i in spec.indexes_of(PileKind.COLUMN) if not state.piles[i])
    spine = sum(
        len(state.piles[i])
        for i in (*spec.indexes_of(PileKind.SPINE), *spec.indexes_of(PileKind.TAILBONE))
    )
    return cards_on_foundations(spec, state) * 100000 + empty * 1000 - spine


def hurried_game(spec: GameSpec, state: State, seed: int) -> tuple[bool, float]:
    """One game of the hurried player (module docstring): won, progress."""
    end = hurried_playout(spec, state, SplitMix64(seed))
    return is_won(spec, end), cards_on_foundations(spec, end) / 104


def hurried_playout(spec: GameSpec, state: State, rng: SplitMix64) -> State:
    """One game of the hurried player (module docstring); returns where it stopped."""
    seen = {state}
    for _ in range(MAX_MOVES):
        if is_won(spec, state):
            break
        tiers: list[list[Move]] = [[], [], [], [], []]
        for m in legal_moves(spec, state):
            tiers[_tier(spec, state, m)].append(m)
        nxt = _first_new(spec, state, tiers, seen, rng)
        if nxt is None:
            break
        state = nxt
        seen.add(state)
    return state


def _tier(spec: GameSpec, state: State, m: Move) -> int:
    if m.dst is None:
        return 3
    d = spec.index[m.dst]
    dst = spec.piles[d].kind
    src = spec.piles[spec.index[m.src]].kind
    if dst is PileKind.FOUNDATION:
        return 0
    if dst is PileKind.COLUMN and state.piles[d] and src is not PileKind.FOUNDATION:
        return 1 if src in _FEEDERS else 2
    return 4


def _first_new(
    spec: GameSpec, state: State, tiers: list[list[Move]], seen: set[State], rng: SplitMix64
) -> State | None:
    """A random move of the first tier that has one leading to a position not seen."""
    for moves in tiers:
        while moves:
            nxt = apply(spec, state, moves.pop(rng.below(len(moves))))
            if nxt not in seen:
                return nxt
    return None
