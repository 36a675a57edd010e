"""The Spider hint's macro planner: lines of visible moves to the next irreversible event.

Moves of face-up cards are fully determined by what the player sees; only an *event*
depends on the hidden cards: a card turned up, or the stock dealt (a completed run is an
event too: it cannot be undone in play). So the planner

1. walks breadth-first over the player's view (:func:`lines`, capped, the solver's
   unproven "no shuffle" rule applied, no position already played) and collects the
   lines of face-up moves that end at an event, and the best arrangement from which the
   stock can be dealt;
2. keeps the ``width`` most promising event lines by a visible score (:func:`score`:
   face-down cards, breaks in suit, empty columns, completed runs), plus the deal;
3. values each kept line's end in every sample of the hidden cards
   (:func:`pasyans.hints.sampling.samples`, uniform over the unseen cards): does the
   full-information search win from there within its node budget, and if not, how near a
   win did it get (:func:`pasyans.domains.spider.distance` of the line's best position);
4. plays the first move of the line won in the most samples; ties go to the nearest
   average progress, then to an event over the deal, then to the better visible score,
   then the shorter line.

Every candidate ends at progress, and no line goes back to a position already played, so
following the plan never goes round in circles. The line up to its event reads no hidden
card, so two samples can disagree only about what the event turns up (less strategy
fusion than choosing one move by the samples' own wins). Only the view, the samples drawn
from it and the positions already played are read.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from pasyans import caches
from pasyans.domains import spider
from pasyans.domains.built import compiled
from pasyans.domains.spider import DEAL, Cols, Pos, SpiderGame, Step
from pasyans.engine.moves import Move
from pasyans.hints import sampling
from pasyans.hints.recent import Recent
from pasyans.hints.sampling import HIDDEN
from pasyans.position import State
from pasyans.rules.spec import GameSpec

Key = tuple[Cols, tuple[int, ...], int, int]
"""A packed position without its distance."""

View = tuple[Cols, tuple[int, ...]]
"""A packed view's columns and face-down counts (the stock and done counts ride along)."""

DOWN_COST = sampling.DOWN_COST
EMPTY_BONUS = sampling.EMPTY_BONUS
DONE_BONUS = sampling.DONE_BONUS


def score(pos: Pos) -> int:
    """:func:`sampling.spider_score` of a packed view (lower is better); a pair with a
    hidden card turned up (its identity unknown until played) counts as a break in rank."""
    cols, down, _, done, _ = pos
    total = -DONE_BONUS * (done // 13)
    for col, d in zip(cols, down, strict=True):
        if not col:
            total -= EMPTY_BONUS
            continue
        total += DOWN_COST * d
        for j in range(max(d, 0) + 1, len(col)):
            a, b = col[j - 1], col[j]
            if a - b != 4:
                total += 3 if (a >> 2) - (b >> 2) == 1 or HIDDEN in (a, b) else 4
    return total


@dataclass(frozen=True)
class Line:
    """A candidate: the steps from the view, the position at their end (a view: hidden
    cards are :data:`HIDDEN`), and whether it ends with a deal."""

    steps: tuple[Step, ...]
    end: Pos
    deal: bool
    score: int


def _event(before: Pos, after: Pos) -> bool:
    return sum(after[1]) < sum(before[1]) or after[3] > before[3]


def lines(
    game: SpiderGame, *, cap: int, avoid: Collection[View] = ()
) -> tuple[list[Line], Line | None]:
    """Best-first over the view ``game.root`` (lowest :func:`score`, then shortest
    line): the lines of face-up moves (no position in ``avoid`` or seen twice, at most
    ``cap`` positions expanded) that end at an event, each event position once, by the
    first line found to it; and the deal from the best arrangement expanded (lowest
    :func:`score`, then shortest line) where the stock can be dealt, or None. A move
    that breaks a unit off its same-suit parent to no better place is not
    walked (:func:`spider.shuffle`)."""
    root = game.root
    seen: set[View] = {(root[0], root[1])}
    events: list[Line] = []
    heap: list[tuple[int, int, int, tuple[Step, ...], Pos]] = [(score(root), 0, 0, (), root)]
    deal: tuple[int, int, tuple[Step, ...], Pos] | None = None
    tick = 0
    expanded = 0
    while heap and expanded < cap:
        _, _, _, path, pos = heapq.heappop(heap)
        expanded += 1
        steps = game.steps(pos)
        if steps and steps[-1] == DEAL:
            key = (score(pos), len(path))
            if deal is None or key < deal[:2]:
                deal = (*key, path, pos)
        for st in steps:
            if st == DEAL or spider.shuffle(pos[0], pos[1], st):
                continue
            after = game.play(pos, st)
            v = (after[0], after[1])
            if v in seen or v in avoid:
                continue
            seen.add(v)
            line = (*path, st)
            if _event(pos, after):
                events.append(Line(line, after, False, score(after)))
            else:
                tick += 1
                heapq.heappush(heap, (score(after), len(line), tick, line, after))
    dealt = None
    if deal is not None:
        _, _, path, pos = deal
        dealt = Line((*path, DEAL), pos, True, deal[0])
    return events, dealt


@dataclass(frozen=True)
class Valued:
    line: Line
    won: int
    near: float  # the mean distance of the searches' best positions (lower is nearer)


def _fill(pos: Pos, sample: Pos, down: tuple[int, ...]) -> Pos:
    """The view ``pos`` with the hidden cards of one sample (``sample``: the view's root
    completed; ``down``: the root's face-down counts, below which no card ever moved)."""
    cols = tuple(s[:d] + c[d:] if d else c for c, s, d in zip(pos[0], sample[0], down, strict=True))
    return (cols, pos[1], pos[2], pos[3], 0)


def _search(
    game: SpiderGame, pos: Pos, nodes: int, seconds: float | None = None
) -> tuple[bool, int, Sequence[Step]]:
    """Whether the full-information search wins from ``pos`` (a sample's position in
    ``game``'s deal) within ``nodes``, the distance of its best position (the stock left
    aside), and its line (to the win, or to that best position); ``seconds`` bounds it
    too. The solver's staged search by ``game.weights`` (:data:`spider.WEIGHTS`), compiled
    or its Python reference alike (until 2026-12-07 the compiled call passed no weights and
    searched by :data:`spider.V1`; docs/notes/2026-12-07-spider4-macro-weights.md)."""
    if pos[3] == spider.WON:
        return True, 0, ()
    if compiled is not None:
        r = compiled.spider_search(
            game.stock,
            pos[:4],
            spider.WON,
            nodes,
            seconds or 0.0,
            spider.MEMORY,
            True,
            weights=game.weights,
        )
        status, line = r["status"], tuple(r["line"])
    else:  # the reference, when the compiled core is not built
        sub = SpiderGame(game.spec, game.state(pos))
        f = spider.staged(sub, nodes=nodes, seconds=seconds, prune=True, use_compiled=False)
        status, line = f.status, f.line
    if status == "won":
        return True, 0, line
    end = pos
    for st in line:
        end = game.play(end, (st[0], st[1], st[2]))
    return False, spider.distance(end[0], end[1], 0, end[3]), line


def _prefix(
    game: SpiderGame, line: Sequence[Sequence[int]], avoid: Collection[View]
) -> Line | None:
    """The start of a sample's search line, played on the view ``game.root``, up to its
    first event (a card turned up, a run completed, the stock dealt); None when the line
    has none or passes a position in ``avoid``. Before its first event a line moves only
    face-up cards, so it is a line of the player's view."""
    pos = game.root
    path: list[Step] = []
    for raw in line:
        st: Step = (raw[0], raw[1], raw[2])
        if st == DEAL:
            return Line((*path, DEAL), pos, True, score(pos))
        after = game.play(pos, st)
        path.append(st)
        if (after[0], after[1]) in avoid:
            return None
        if _event(pos, after):
            return Line(tuple(path), after, False, score(after))
        pos = after
    return None


def value(
    spec: GameSpec,
    view: State,
    extra: Sequence[Line],
    *,
    count: int,
    nodes: int,
    width: int,
    seed: int,
    avoid: Collection[View] = (),
    deadline: float | None = None,
) -> list[Valued]:
    """Search every one of ``count`` samples of ``view`` (a :func:`sampling.known`
    position) from the view; the starts of their lines up to the first event (the
    ``width`` most frequent) and the ``extra`` lines are the candidates, each valued in
    every sample (``nodes`` for each search; a sample whose own line starts with a
    candidate is won after it without a new search). ``deadline`` (``time.process_time``):
    past it no new search starts; a candidate not valued in every sample is left out.
    Long because one pass over the samples both finds the candidates and values them
    (a sample's own won line values its candidate without a second search)."""

    def late() -> bool:
        return deadline is not None and time.process_time() >= deadline

    def left() -> float | None:
        return None if deadline is None else max(deadline - time.process_time(), 1e-4)

    states = sampling.samples(spec, view, count, seed)
    vgame = SpiderGame(spec, view)
    down = vgame.root[1]
    games = [SpiderGame(spec, s) for s in states]
    found: dict[tuple[Key, bool], tuple[Line, set[int]]] = {}
    for k, g in enumerate(games):
        if late():
            break
        w, _, line = _search(g, g.root, nodes, left())
        ln = _prefix(vgame, line, avoid)
        if ln is None:
            continue
        key = (ln.end[:4], ln.deal)
        if key not in found:
            found[key] = (ln, set())
        if w:
            found[key][1].add(k)
    ranked = sorted(found.values(), key=lambda e: (-len(e[1]), len(e[0].steps), e[0].steps))[:width]
    candidates = [(ln, won) for ln, won in ranked]
    for ln in extra:
        if (ln.end[:4], ln.deal) not in {(c.end[:4], c.deal) for c, _ in candidates}:
            candidates.append((ln, set()))
    out: list[Valued] = []
    for c, credited in candidates:
        won = 0
        near = 0
        for k, g in enumerate(games):
            if late():
                return out
            if k in credited:
                won += 1
                continue
            pos = _fill(c.end, g.root, down)
            if c.deal:
                pos = g.play(pos, DEAL)
            w, d, _ = _search(g, pos, nodes, left())
            won += w
            near += d
        out.append(Valued(c, won, near / max(len(games), 1)))
    return out


def best(valued: Sequence[Valued], *, eager: bool = False) -> Valued | None:
    """An event line before the deal (the deal only when no line reaches an event), then
    the line won in the most samples; ties: the nearer mean progress, the better visible
    score, the shorter line, then notation order. With ``eager`` the deal competes on the
    samples like any line (ties still to an event)."""
    if not valued:
        return None
    return min(
        valued,
        key=lambda v: (
            not eager and v.line.deal,
            -v.won,
            v.line.deal,
            v.near,
            v.line.score,
            len(v.line.steps),
            v.line.steps,
        ),
    )


@dataclass(frozen=True)
class Plan:
    """A macro hint: the move, the line it starts, and how it was valued."""

    move: Move
    steps: tuple[Step, ...]
    won: int
    samples: int
    deal: bool


PLANS: Recent[Plan] = caches.register("hints.macro_plans", Recent(20_000), bound=20_000)
"""Chosen lines by (spec, packed view ``pos[:4]``, budget): each position along a chosen
line keeps its next step, so following a plan, or asking again, costs no new search. Keys
hold only the player's view."""

EXTRA = 2
"""Event lines of the visible walk valued besides the samples' own lines."""


def plan(
    spec: GameSpec,
    view: State,
    *,
    samples: int,
    nodes: int,
    width: int,
    cap: int,
    seed: int = 0,
    avoid: Collection[View] = (),
    key: object = None,
    eager: bool = False,
    seconds: float | None = None,
) -> Plan | None:
    """The macro hint for ``view`` (a :func:`sampling.known` Spider position): see the
    module. ``nodes``: each candidate's search budget over all samples together;
    ``width``: event lines valued; ``cap``: positions walked; ``avoid``: packed views
    already played (never walked into); ``key``: the budget, for :data:`PLANS`;
    ``seconds``: CPU time for the searches (the answer then depends on the machine; the
    follower works to ``nodes`` alone). None when no line reaches an event and the stock
    cannot be dealt, or no candidate could be valued in time."""
    deadline = None if seconds is None else time.process_time() + seconds
    game = SpiderGame(spec, view)
    root = game.root
    cached = PLANS.get(spec, (root[:4], key))
    if cached is not None:
        nxt = game.play(root, cached.steps[0])
        if (nxt[0], nxt[1]) not in avoid:
            return cached
    events, dealt = lines(game, cap=cap, avoid=avoid)
    events.sort(key=lambda ln: (ln.score, len(ln.steps), ln.steps))
    extra = events[:EXTRA] + ([dealt] if dealt is not None else [])
    valued = value(
        spec,
        view,
        extra,
        count=samples,
        nodes=max(nodes // max(samples, 1), 1),
        width=width,
        seed=seed,
        avoid=avoid,
        deadline=deadline,
    )
    chosen = best(valued, eager=eager)
    if chosen is None:  # out of time before any candidate was valued: the walk's best
        if not extra:
            return None
        chosen = Valued(extra[0], 0, 0.0)
    steps = chosen.line.steps
    pos = root
    plans: list[tuple[object, Plan]] = []
    for j, st in enumerate(steps):
        plan = Plan(game.move(st), steps[j:], chosen.won, samples, chosen.line.deal)
        plans.append(((pos[:4], key), plan))
        if st == DEAL:
            break
        pos = game.play(pos, st)
    PLANS.put_all(spec, plans)
    return plans[0][1]


def packed(spec: GameSpec, view: State) -> View:
    """The packed columns and face-down counts of a position (as :func:`lines` sees)."""
    root = SpiderGame(spec, view).root
    return (root[0], root[1])
