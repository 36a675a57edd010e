"""The no-peek player (issue 34): Spider decisions where cards turn up, scored by policy
playouts that never look under a card.

1. **Candidates** (:func:`candidates`): from the player's view, breadth-first over the moves
   among face-up cards that reveal nothing (no card turned up, no run completed, no deal;
   positions deduplicated, none already played, at most ``cap`` expanded). Every move out
   of a walked position that *does* reveal or commit (a card turned up, a run completed,
   the stock dealt) ends a candidate line; the lines are grouped by the position the event
   leaves in the view (the first line found to it is kept). The decision is between these
   lines, not between single moves: a line is played up to its event, then the player
   decides again with the new card.
2. **Scores** (:func:`score`): each candidate is played on completions of the hidden cards
   (:func:`pasyans.hints.sampling.samples`, uniform over what the player has not seen), then
   followed by a fast policy (:func:`rollout`, :func:`_walk`: the move that raises an
   evaluation of the face-up cards most, else a two-move line up to a card turned up,
   else the empty columns filled and the deal) that reads only face-up cards (the gains
   read no face-down card, and the stock only by its size); cards turn up as the playout
   reaches them. A playout scores :data:`WIN` when it wins, else the cards in completed
   runs plus twice the cards turned up. ``"search"`` plays a stronger policy instead
   (:func:`search_rollout`, :func:`_plan`: each step a shallow breadth-first search over
   the reveal-free lines, the best line played up to its event), as blind to face-down
   cards. ``"determinized"`` (method (a)) scores the
   candidate instead by the full-information search of that sample (it knows the sample's
   cards: strategy fusion), and ``"epimc"`` (method (c)) plays the policy for
   :data:`EPIMC_DEPTH` moves and only then searches with full information.
3. **Bandit** (:func:`decide`): successive halving over the candidates in batches of
   samples: every round each surviving candidate is played on the next batch, and the
   better half (by mean score) survives, so most samples go to the candidates that could
   be best.

The module also keeps the felt player's policy (:func:`felt_rollout`, generator version
4's difficulty), the reference of its compiled twin; with the candidates, the two
policies, the bandit and the hint's cache it is over 400 lines: they are one method,
mirrored by csrc/player.c.

Only the view (:func:`pasyans.hints.sampling.known`) and the samples drawn from it are
read, so two positions that differ only in hidden cards get the same decision under the
same seed. When the core is built the candidates (``pl_candidates``), the bandit's rounds
(``pl_round``: the samples' draws, the hidden cards filled in, the events and the
playouts) and the playouts run in C (``csrc/player.c``); this module is the reference
(:func:`candidates_py`, :func:`_round`, :func:`rollout`, :func:`search_rollout`;
``tests/solver/test_hints_player.py`` and ``tests/solver/test_player_compiled.py`` check
the two agree).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from pasyans import caches
from pasyans.domains import _core_abi as abi
from pasyans.domains import spider
from pasyans.domains.built import compiled
from pasyans.domains.spider import DEAL, Pos, SpiderGame, Step
from pasyans.hints import halving, sampling
from pasyans.hints.macro import View, _fill
from pasyans.hints.macro import score as view_score
from pasyans.hints.recent import Recent
from pasyans.position import State
from pasyans.rules.spec import GameSpec

METHODS = ("rollout", "search", "determinized", "epimc")
WIN = 1000
"""A won playout's score (more than any unfinished one: at most 104 + 2 * 44)."""
LIMIT = 500
"""Moves a playout plays at most."""
EPIMC_DEPTH = 20
"""Method (c): policy moves before the full-information search."""
MASK = (1 << 64) - 1


@dataclass(frozen=True)
class Candidate:
    """A line of face-up moves (``steps``, from the view) and the event that ends it
    (``event``: a card turned up, a run completed, or :data:`~spider.DEAL`); ``before``:
    the view's position just before the event."""

    steps: tuple[Step, ...]
    event: Step
    before: Pos

    @property
    def line(self) -> tuple[Step, ...]:
        return (*self.steps, self.event)


def _reveals(before: Pos, after: Pos) -> bool:
    return sum(after[1]) < sum(before[1]) or after[3] > before[3]


def candidates(
    game: SpiderGame, *, cap: int, avoid: Collection[View] = (), width: int = 16
) -> list[Candidate]:
    """:func:`candidates_py`, compiled when the core is built (``pl_candidates`` in
    csrc/player.c: the same lines in the same order; the ``before`` positions are played
    here, along the lines)."""
    if compiled is None or not hasattr(compiled, "spider_candidates"):
        return candidates_py(game, cap=cap, avoid=avoid, width=width)
    root = game.root
    lines = compiled.spider_candidates(game.stock, root[:4], avoid, cap, width)
    reached: dict[tuple[Step, ...], Pos] = {(): root}
    out = []
    for steps, event in lines:
        pos = reached.get(steps)
        if pos is None:  # each prefix played once: lines share their beginnings
            k = len(steps) - 1
            while steps[:k] not in reached:
                k -= 1
            pos = reached[steps[:k]]
            for j in range(k, len(steps)):
                pos = reached[steps[: j + 1]] = game.play(pos, steps[j])
        out.append(Candidate(steps, event, pos))
    return out


def candidates_py(
    game: SpiderGame, *, cap: int, avoid: Collection[View] = (), width: int = 16
) -> list[Candidate]:
    """The candidate lines of the view ``game.root`` (module, step 1): breadth-first over
    the reveal-free moves (the unproven "no shuffle" rule applied, no position in ``avoid``,
    each position once, at most ``cap`` expanded), each event's resulting view once, by
    the shortest line; the deals only when no line turns a card up or completes a run
    (a player deals when nothing else moves on); the ``width`` best by the visible score
    after the event (:func:`pasyans.hints.macro.score`), then the shorter line, then
    notation order."""
    root = game.root
    seen: set[View] = {(root[0], root[1])}
    queue: list[tuple[tuple[Step, ...], Pos]] = [((), root)]
    found: dict[tuple[object, ...], tuple[int, Candidate]] = {}
    head = 0
    while head < len(queue) and head < cap:
        path, pos = queue[head]
        head += 1
        for st in game.steps(pos):
            if st != DEAL and spider.shuffle(pos[0], pos[1], st):
                continue
            after = game.play(pos, st)
            v = (after[0], after[1])
            if v in avoid:
                continue
            if st == DEAL or _reveals(pos, after):
                key = after[:4]
                if key not in found:
                    found[key] = (view_score(after), Candidate(path, st, pos))
                continue
            if v in seen:
                continue
            seen.add(v)
            queue.append(((*path, st), after))
    ranked = sorted(found.values(), key=lambda e: (e[0], len(e[1].steps), e[1].line))
    events = [c for _, c in ranked if c.event != DEAL]
    if events:  # the deal only when no line turns a card up or completes a run
        return events[:width]
    return [c for _, c in ranked[:width]]


# --- The playout policy (mirrored by csrc/player.c) --------------------------------------


def _next(x: int) -> tuple[int, int]:
    """splitmix64: the next state and its output (the C playouts use the same)."""
    x = (x + 0x9E3779B97F4A7C15) & MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return x, z ^ (z >> 31)


def points(pos: Pos, won: int) -> int:
    """A playout's score at ``pos``: :data:`WIN` when won, else the cards in completed
    runs plus twice the cards turned up (of the 44 a Spider deal starts face down)."""
    if pos[3] >= won:
        return WIN
    return pos[3] + 2 * (44 - sum(pos[1]))


def rollout(stock: Sequence[int], pos: Pos, seed: int, *, won: int, limit: int = LIMIT) -> int:
    """The policy playout from ``pos`` (a sample's full position; its stock ``stock``),
    at most ``limit`` moves; :func:`points` at its end. The policy (:func:`_walk`) reads
    no face-down card and no stock card before it is dealt."""
    return points(_walk(stock, pos, seed, won, limit)[0], won)


def _value(col: Sequence[int], n: int, down: int) -> int:
    """A column's worth in the policy's evaluation: its first ``n`` cards, the first
    ``down`` of them face down (the weights ``PL_*`` of csrc/abi.toml)."""
    if not n:
        return abi.PL_EMPTY
    v = -abi.PL_DOWN * down - (abi.PL_DIRTY if down else 0)
    for j in range(down, n - 1):
        a, b = col[j], col[j + 1]
        if a - b == 4:
            v += abi.PL_INSUIT
        elif (a >> 2) - (b >> 2) == 1:
            v -= abi.PL_OFFSUIT
        else:
            v -= abi.PL_BREAK
    return v


def gain(pos: Pos, step: Step) -> tuple[int, bool]:
    """The evaluation's gain by ``step`` (a move, not the deal) and whether it turns a
    card up or completes a run. Reads only face-up cards: a column the move uncovers
    keeps one face-up card, which adds no pair."""
    cols, down = pos[0], pos[1]
    i, c, m = step
    src, dst = cols[i], cols[c]
    n = len(src)
    left = n - m
    ds = down[i]
    up = bool(left) and ds >= left
    if up:
        ds = left - 1
    to = dst + src[left:]
    tn, dd = len(to), down[c]
    run = spider._complete(to, dd)
    if run:
        tn -= 13
        if tn and dd >= tn:
            dd = tn - 1
    g = (
        _value(src, left, ds)
        + _value(to, tn, dd)
        + abi.PL_RUN * run
        - _value(src, n, down[i])
        - _value(dst, len(dst), down[c])
    )
    return g, up or run


def _lookahead(game: SpiderGame, pos: Pos) -> tuple[Step, Step] | None:
    """The policy's step 2: the best two-move line (the first in order on ties) whose
    first move reveals nothing and whose gains sum above 0."""
    best, line = 0, None
    for a in game.steps(pos):
        if a == DEAL or spider.shuffle(pos[0], pos[1], a):
            continue
        d1, r = gain(pos, a)
        if r:
            continue
        q = game.play(pos, a)
        for b in game.steps(q):
            if b == DEAL or spider.shuffle(q[0], q[1], b) or b == (a[1], a[0], a[2]):
                continue
            d = d1 + gain(q, b)[0]
            if d > best:
                best, line = d, (a, b)
    return line


def _filling(game: SpiderGame, pos: Pos) -> Step | None:
    """The policy's move into an empty column of highest gain (the first on ties)."""
    best: tuple[int, Step] | None = None
    for st in game.steps(pos):
        if st != DEAL and not pos[0][st[1]]:
            d = gain(pos, st)[0]
            if best is None or d > best[0]:
                best = (d, st)
    return best[1] if best else None


def _walk(
    stock: Sequence[int], pos: Pos, seed: int, won: int, limit: int
) -> tuple[Pos, list[Step]]:
    """The policy's playout (mirrored by csrc/player.c): its end position and moves.

    1. The move of the highest gain (:func:`gain`), above 0: 8 times the gain plus a
       jitter of 0–7 (splitmix64 from ``seed``), never a shuffle (:func:`spider.shuffle`);
    2. else the best two-move line of :func:`_lookahead`;
    3. else, with cards in the stock, the empty columns filled (:func:`_filling`) and the
       deal; else the end.

    Every gain is exact, so the evaluation rises along the playout: no position comes
    back."""
    game = _Bare(stock)
    x = seed & MASK
    out: list[Step] = []
    while len(out) < limit and pos[3] < won:
        line: list[Step] = []
        best_value = 0
        for st in game.steps(pos):
            if st == DEAL or spider.shuffle(pos[0], pos[1], st):
                continue
            x, r = _next(x)
            v = 8 * gain(pos, st)[0] + (r & 7)
            if v >= 8 and v > best_value:
                best_value, line = v, [st]
        if not line:
            pair = _lookahead(game, pos)
            if pair is not None:
                line = list(pair)
        if not line:
            if not pos[2]:
                break
            q = pos
            while any(not c for c in q[0]):
                into = _filling(game, q)
                if into is None:
                    break
                line.append(into)
                q = game.play(q, into)
            if any(not c for c in q[0]):
                break
            line.append(DEAL)
        for st in line:
            if len(out) >= limit:
                break
            pos = game.play(pos, st)
            out.append(st)
    return pos, out


# --- The searching policy (mirrored by pl_search in csrc/player.c) -----------------------


SEARCH_CAP = 128
"""The searching policy: positions expanded a step at most (the C table's bound)."""
SEARCH_BONUS = 10
"""The searching policy's extra score for a line that ends in an event (chosen on deals
1001-1200, ``benchmarks/player.py --policy --caps``)."""
SEARCH_PLAYOUT_CAP = 20
"""Method ``"search"``: positions the searching policy expands a step (chosen on deals
1001-1200: 2 to 3 times the greedy policy's wins alone at 5 to 10 times its CPU)."""


def _key(pos: Pos) -> tuple[object, ...]:
    return (pos[0], pos[1], pos[2])


def _plan(game: SpiderGame, start: Pos, x: int, cap: int, bonus: int) -> tuple[list[Step], int]:
    """One step of the searching policy (module docstring of csrc/player.c, ``plan``): the
    best line's moves (empty when no line scores above 0) and the random state after.

    Breadth-first over the reveal-free moves (no deal, no shuffle, each position once, at
    most ``cap`` expanded), each walked position with its gain from ``start``; every move
    out of a walked position ends a line: an event (a card turned up or a run completed)
    scores its gain plus ``bonus``, a new reveal-free position its gain; each end is
    valued 8 times its score plus a 0-7 jitter (one draw an end, in the order found), and
    the best of score above 0 wins. The gains read no face-down card (:func:`gain`)."""
    queue: list[tuple[Pos, int, int, Step | None]] = [(start, -1, 0, None)]
    seen = {_key(start)}
    best, best_parent, best_step = 0, -1, DEAL
    head = 0
    while head < len(queue) and head < cap:
        pos, _, e, _ = queue[head]
        for st in game.steps(pos):
            if st == DEAL or spider.shuffle(pos[0], pos[1], st):
                continue
            g, event = gain(pos, st)
            score = e + g
            if event:
                score += bonus
            else:
                q = game.play(pos, st)
                if _key(q) in seen:
                    continue
                seen.add(_key(q))
            x, r = _next(x)
            v = 8 * score + (r & 7)
            if score > 0 and v > best:
                best, best_parent, best_step = v, head, st
            if not event and len(queue) < cap:
                queue.append((q, head, score, st))
        head += 1
    if not best:
        return [], x
    line = [best_step]
    j = best_parent
    while j > 0:
        _, parent, _, st2 = queue[j]
        assert st2 is not None
        line.append(st2)
        j = parent
    line.reverse()
    return line, x


def _fill_and_deal(game: SpiderGame, pos: Pos) -> list[Step]:
    """The policies' last resort: the empty columns filled (:func:`_filling`) and the
    deal; empty when the stock is out or a column stays empty."""
    if not pos[2]:
        return []
    line: list[Step] = []
    q = pos
    while any(not c for c in q[0]):
        into = _filling(game, q)
        if into is None:
            break
        line.append(into)
        q = game.play(q, into)
    if any(not c for c in q[0]):
        return []
    line.append(DEAL)
    return line


def _search_walk(
    stock: Sequence[int], pos: Pos, seed: int, won: int, limit: int, cap: int, bonus: int
) -> tuple[Pos, list[Step]]:
    """The searching policy's playout (mirrored by ``pl_search_walk``): each step the line
    of :func:`_plan`, played whole (to its event: the card turned up is then read by the
    next step), else :func:`_fill_and_deal`, else the end. Events turn a card up or bring
    a run home and between two of them every line raises the evaluation, so no position
    comes back."""
    game = _Bare(stock)
    x = seed & MASK
    cap = max(1, min(cap, SEARCH_CAP))
    out: list[Step] = []
    while len(out) < limit and pos[3] < won:
        line, x = _plan(game, pos, x, cap, bonus)
        if not line:
            line = _fill_and_deal(game, pos)
            if not line:
                break
        for st in line:
            if len(out) >= limit:
                break
            pos = game.play(pos, st)
            out.append(st)
    return pos, out


def search_rollout(
    stock: Sequence[int],
    pos: Pos,
    seed: int,
    *,
    won: int,
    cap: int,
    bonus: int,
    limit: int = LIMIT,
) -> int:
    """The searching policy's playout (:func:`_search_walk`): :func:`points` at its end."""
    return points(_search_walk(stock, pos, seed, won, limit, cap, bonus)[0], won)


# --- The felt player's policy (mirrored by pl_felt in csrc/player.c) -----------------------


FELT_STILL = 40
"""The felt policy: moves in a row that turn nothing up after which it deals (or stops)."""


def felt_rollout(stock: Sequence[int], pos: Pos, seed: int, *, won: int, limit: int = LIMIT) -> int:
    """The policy of sessions 1-2, kept unchanged as generator version 4's felt player
    (:mod:`pasyans.solvable.felt`, ``_core.spider_rollout``; a change would move that
    version's Spider layouts): each move the legal step of highest :func:`spider.order`
    plus a jitter of 0–7 (from ``seed``), never a shuffle, never back to a position of
    this playout; a move worth less than 0 only when the stock cannot be dealt, else the
    deal; after :data:`FELT_STILL` moves that turned nothing up, the deal (or the end).
    Returns :func:`points` at the end."""
    return points(_felt_walk(stock, pos, seed, won, limit)[0], won)


def _felt_walk(
    stock: Sequence[int], pos: Pos, seed: int, won: int, limit: int
) -> tuple[Pos, list[Step]]:
    """:func:`felt_rollout`'s end position and the steps it played."""
    game = _Bare(stock)
    x = seed & MASK
    seen = {(pos[0], pos[1], pos[2])}
    still = 0
    out: list[Step] = []
    for _ in range(limit):
        if pos[3] >= won:
            break
        cols, down = pos[0], pos[1]
        best: Step | None = None
        best_value = -(1 << 30)
        deal = False
        for st in game.steps(pos):
            if st == DEAL:
                deal = True
                continue
            if spider.shuffle(cols, down, st):
                continue
            x, r = _next(x)
            value = 8 * spider.order(cols, down, st) + (r & 7)
            if value > best_value:
                after = game.play(pos, st)
                if (after[0], after[1], after[2]) in seen:
                    continue
                best, best_value = st, value
        if deal and (best is None or best_value < 0 or still >= FELT_STILL):
            best = DEAL
        elif best is None or still >= FELT_STILL:
            break
        before = pos
        pos = game.play(pos, best)
        out.append(best)
        seen.add((pos[0], pos[1], pos[2]))
        still = 0 if best == DEAL or _reveals(before, pos) else still + 1
    return pos, out


class _Bare(SpiderGame):
    """The packed rules over a known stock, without a spec (the playouts' game). Its
    distances are by :data:`spider.V1`, as its compiled searches (no weights passed)."""

    def __init__(self, stock: Sequence[int]) -> None:
        self.stock = tuple(stock)
        self.width = 10
        self.weights = spider.V1
        self._moves = {}


def _search_score(stock: Sequence[int], pos: Pos, nodes: int, won: int) -> int:
    """Method (a)'s score of a sample's position: :data:`WIN` when the full-information
    search of ``nodes`` wins from it, else :func:`points` of the position nearest a win
    along its line."""
    if pos[3] >= won:
        return WIN
    r = compiled.spider_search(tuple(stock), pos[:4], won, nodes, 0.0, spider.MEMORY, True)
    if r["status"] == "won":
        return WIN
    game = _Bare(stock)
    end = pos
    for i, c, m in r["line"]:
        end = game.play(end, (i, c, m))
    return points(end, won)


def score(stock: Sequence[int], pos: Pos, seed: int, *, won: int, method: str, nodes: int) -> int:
    """One candidate's score on one sample (``pos``: the sample's position after the
    candidate's line), by ``method`` (module, step 2)."""
    if method == "rollout":
        return play(stock, pos, seed, won)
    if method == "search":
        return play(stock, pos, seed, won, cap=SEARCH_PLAYOUT_CAP, bonus=SEARCH_BONUS)
    if method == "determinized":
        return _search_score(stock, pos, nodes, won)
    if method == "epimc":
        end = _walk(stock, pos, seed, won, EPIMC_DEPTH)[0]
        return _search_score(stock, end, nodes, won)
    raise ValueError(f"unknown method {method!r}; one of {', '.join(METHODS)}")


def play(
    stock: Sequence[int],
    pos: Pos,
    seed: int,
    won: int,
    limit: int = LIMIT,
    *,
    cap: int = 0,
    bonus: int = 0,
) -> int:
    """:func:`rollout` (``cap`` 0) or :func:`search_rollout`, compiled when the core is
    built."""
    if compiled is not None and hasattr(compiled, "spider_playout"):
        return int(
            compiled.spider_playout(tuple(stock), pos[:4], won, seed & MASK, limit, cap, bonus)
        )
    if cap > 0:
        return search_rollout(stock, pos, seed, won=won, cap=cap, bonus=bonus, limit=limit)
    return rollout(stock, pos, seed, won=won, limit=limit)


# --- The decision ------------------------------------------------------------------------


Decision = halving.Decision[Candidate]
"""The player's decision (:class:`pasyans.hints.halving.Decision`): the chosen candidate,
every candidate's (total score, samples played) in the order of :func:`candidates`, of the
chosen one's samples how many playouts won, and the method."""


def decide(
    spec: GameSpec,
    view: State,
    *,
    playouts: int,
    seed: int = 0,
    method: str = "rollout",
    nodes: int = 1000,
    cap: int = 200,
    width: int = 16,
    avoid: Collection[View] = (),
    deadline: float | None = None,
) -> Decision | None:
    """The player's decision for ``view`` (a :func:`sampling.known` Spider position):
    the candidates (:func:`candidates`), scored by ``method`` on samples of the hidden
    cards by successive halving with about ``playouts`` playouts in all (``nodes``: each
    search of methods (a) and (c)). With a ``deadline`` (:func:`time.perf_counter`), no
    sample after the first is started past it: the candidates still alive have had the
    same samples. None when no line reaches an event."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; one of {', '.join(METHODS)}")
    vgame = SpiderGame(spec, view)
    cands = candidates(vgame, cap=cap, avoid=avoid, width=width)
    if not cands:
        return None
    base = sampling.seed_for(spec, view, seed)
    fast = _compiled_round(spec, view, vgame, cands, base, method)

    def play(alive: Sequence[int], drawn: int, batch: int) -> tuple[int, list[int], list[int]]:
        if fast is not None:
            return fast(alive, drawn, batch, deadline)
        return _round(
            spec, view, vgame, cands, alive, drawn, batch, seed, base, method, nodes, deadline
        )

    return halving.decide(cands, playouts, play, method=method)


def _round(
    spec: GameSpec,
    view: State,
    vgame: SpiderGame,
    cands: Sequence[Candidate],
    alive: Sequence[int],
    drawn: int,
    batch: int,
    seed: int,
    base: int,
    method: str,
    nodes: int,
    deadline: float | None,
) -> tuple[int, list[int], list[int]]:
    """One round of :func:`decide`'s bandit: the samples ``drawn`` to ``drawn + batch - 1``
    of the view (:func:`sampling.samples`), every candidate of ``alive`` scored on each;
    the samples played (no sample after the first starts past ``deadline``) and each
    alive candidate's total score and wins. The reference of ``pl_round``."""
    totals = [0] * len(alive)
    wins = [0] * len(alive)
    down = vgame.root[1]
    for k, s in enumerate(sampling.samples(spec, view, batch, seed, drawn)):
        if deadline is not None and drawn + k and time.perf_counter() > deadline:
            return k, totals, wins
        g = SpiderGame(spec, s)
        for i, c in enumerate(alive):
            cand = cands[c]
            pos = _fill(cand.before, g.root, down)
            pos = g.play(pos, cand.event)
            x = (base + 0x9E3779B97F4A7C15 * (drawn + k + 1) + 7919 * c) & MASK
            pts = score(g.stock, pos, x, won=spider.WON, method=method, nodes=nodes)
            totals[i] += pts
            wins[i] += pts == WIN
    return batch, totals, wins


Round = Callable[[Sequence[int], int, int, float | None], tuple[int, list[int], list[int]]]
"""A round of the bandit: (alive, drawn, batch, deadline) to :func:`_round`'s answer."""


def _compiled_round(
    spec: GameSpec,
    view: State,
    vgame: SpiderGame,
    cands: Sequence[Candidate],
    base: int,
    method: str,
) -> Round | None:
    """:func:`_round` compiled (``pl_round`` in csrc/player.c: the same draws, the same
    playouts), for the policy playouts' methods when the core is built; else None."""
    if compiled is None or not hasattr(compiled, "spider_player_round"):
        return None
    if method not in ("rollout", "search"):
        return None
    where = {pile: j for j, pile in enumerate(vgame.columns)}
    where[vgame.stock_index] = vgame.width
    places = sampling.slots(spec, view)
    cards = sampling.unseen(spec, view)
    if len(cards) != len(places):
        raise ValueError("the unseen cards do not fill the hidden places")
    if any(pile not in where for pile, _ in places):
        return None
    cols = [where[pile] for pile, _ in places]
    rows = [row for _, row in places]
    cap, bonus = (SEARCH_PLAYOUT_CAP, SEARCH_BONUS) if method == "search" else (0, 0)
    stock, root = vgame.stock, vgame.root[:4]

    def run(
        alive: Sequence[int], drawn: int, batch: int, deadline: float | None
    ) -> tuple[int, list[int], list[int]]:
        return compiled.spider_player_round(
            stock,
            root,
            cols,
            rows,
            cards,
            base,
            [cands[c].before[:4] for c in alive],
            [cands[c].event for c in alive],
            list(alive),
            spider.WON,
            LIMIT,
            cap,
            bonus,
            drawn,
            batch,
            math.inf if deadline is None else deadline,
        )

    return run


PLANS: Recent[tuple[tuple[Step, ...], Decision]] = caches.register(
    "hints.player_plans", Recent(20_000), bound=20_000
)
"""The chosen line's rest by (spec, packed view, budget key): following the line up to
its event, or asking again, costs no new decision. Keys hold only the player's view."""


def hint(
    spec: GameSpec,
    view: State,
    *,
    playouts: int,
    seed: int,
    method: str,
    nodes: int,
    avoid: Collection[View] = (),
    key: object = None,
    deadline: float | None = None,
) -> tuple[Step, Decision, SpiderGame] | None:
    """The next step of the player's chosen line from ``view`` (a :func:`sampling.known`
    Spider position), the decision it comes from and the view's game; remembered along
    the line (:data:`PLANS`) up to its event. None when no line reaches an event."""
    game = SpiderGame(spec, view)
    root = game.root
    cached = PLANS.get(spec, (root[:4], key))
    if cached is not None:
        rest, known_d = cached
        nxt = game.play(root, rest[0])
        if (nxt[0], nxt[1]) not in avoid:
            return rest[0], known_d, game
    d = decide(
        spec,
        view,
        playouts=playouts,
        seed=seed,
        method=method,
        nodes=nodes,
        avoid=avoid,
        deadline=deadline,
    )
    if d is None:
        return None
    line = d.chosen.line
    pos = root
    plans: list[tuple[object, tuple[tuple[Step, ...], Decision]]] = []
    for j, st in enumerate(line[:-1]):  # the event's own position is decided again
        plans.append(((pos[:4], key), (line[j:], d)))
        pos = game.play(pos, st)
    plans.append(((pos[:4], key), (line[-1:], d)))
    PLANS.put_all(spec, plans)
    return line[0], d, game
