"""The line player (issue 34, items 1 and 2, method (a)) for the packed games with a
stock: Backbone, Backbone classic and Nivernais. It decides only where information
arrives, between lines of moves that lead there, with many samples given out by
successive halving (``Budget.lines``; off by default).

1. **Where information arrives** (:func:`reveals`): a move reveals when the player's
   view after it shows a card that was hidden before. Backbone and Backbone classic: a
   click on the stock in the first pass turns an unseen card onto the waste (after the
   redeal every card is known). Nivernais: the first pass's stock is unseen; a click on
   the stock deals its cards onto the columns, and a move that empties a column refills
   it at once from the stock, so both reveal. Only the view is read: the move is played
   in the view (:func:`pasyans.hints.sampling.known`) and its hidden placeholders are
   marked, then projected again; a mark the projection does not hide is a card shown.
2. **Candidates** (:func:`candidates`): breadth-first over the legal moves that reveal
   nothing, from the view, never to a position already played nor walked before, at most
   ``cap`` positions expanded. Every revealing move out of a walked position ends a
   candidate line (the reveal-free line, then that move); lines that leave the same view
   are one candidate (the first found, so the shortest). The :data:`WIDTH` best are kept
   by the cards on the foundations before the reveal, then the shorter line, then the
   line's notation (Nivernais: the order found). Nivernais walks its packed positions
   (:func:`nivernais_lines`: the cells are a set, so a card in either free cell is one
   position, and its steps are small ints), then maps the kept lines to engine moves
   (:func:`engine_moves`). The walks run in the compiled core (``engine_candidates`` in
   csrc/engine.c, ``nivernais_candidates`` in csrc/nivernais.c); :func:`walk` and
   :func:`nivernais_lines` are their references, tested against them along play-outs.
3. **Scores** (:func:`score`, determinized): each sample is a uniform completion of the
   hidden cards (:func:`pasyans.hints.sampling.samples`, seeded as the tally seeds it);
   the candidate's line and reveal are played in the sample's full position (Nivernais:
   its packed steps, :func:`pasyans.domains.nivernais.play`), then the
   full-information search (:func:`pasyans.solver.search.solve`; Nivernais: its
   portfolio) runs with a node budget: :data:`WIN` when it wins, else the cards on the
   foundations at the end of the line (Nivernais: of the search's line to the most
   cards home). Each sample's search knows the sample's later cards (strategy fusion),
   but only after the line's reveal: the line itself is chosen without them.
4. **Bandit** (:func:`decide`): successive halving, ⌈log₂ n⌉ rounds, each giving every
   surviving candidate its next batch of samples (about ``lines`` searches in all), the
   better half by mean score kept. Every candidate alive in a round has the same
   samples. No sample after the first is started past the hint's deadline. A single
   candidate is played at once, on :data:`ALONE` samples only (for the estimate).
5. **Plans** (:data:`PLANS`): the chosen line's first move is the hint; the rest is kept
   by view, so following it needs no new decision until its reveal.

Only the view and the samples drawn from it are read, so two positions that differ only
in hidden cards get the same decision under the same seed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from pasyans import caches
from pasyans.domains import nivernais as nv
from pasyans.domains import packed
from pasyans.domains._core_abi import HIDDEN_BYTE, NV_CELL_STEP
from pasyans.domains.built import compiled
from pasyans.domains.packed import PackedDomain
from pasyans.domains.registry import PACKED, domain_for
from pasyans.engine import core
from pasyans.engine.moves import Move
from pasyans.hints import halving, sampling
from pasyans.hints.recent import Recent
from pasyans.hints.sampling import HIDDEN
from pasyans.position import State
from pasyans.rules.spec import GameSpec, PileKind
from pasyans.solver.search import solve

GAMES = frozenset({"backbone", "backbone-classic", "nivernais"})
"""The games the line player plays (by :attr:`GameSpec.id`)."""

WIN = 1000
"""A sample's score when the search wins after the line (more than any card count)."""

WIDTH = 16
"""Candidates kept at most."""

CAP = 400
"""Positions the candidates' walk expands at most (Backbone, classic)."""

NIVERNAIS_CAP = 4000
"""Nivernais' walk: 4,000 positions (a view's walk at most about 6 ms compiled). Against
400: 146 against 132 of 400 followed games, two seeds on two ranges (+34 −20), no range
worse (docs/notes/2026-12-06-nivernais-walk.md)."""


def cap_for(spec: GameSpec) -> int:
    """The positions the walk of ``spec``'s views expands at most."""
    return NIVERNAIS_CAP if nv.applies(spec) else CAP


ALONE = 16
"""Searches a decision with a single candidate gets: nothing is chosen there, the
samples only give the estimate (the whole ``lines`` would be spent on a forced line)."""

_MARK = HIDDEN + 1
"""A hidden placeholder marked by :func:`reveals` (matches no card of any deck)."""


def applies(spec: GameSpec) -> bool:
    """Whether the line player plays ``spec``."""
    return spec.id in GAMES


def reveals(spec: GameSpec, after: State) -> bool:
    """Whether ``after`` (a view just after a move, played from a :func:`sampling.known`
    view) shows a card the view hid: a placeholder the player's projection of ``after``
    does not hide (the waste's new top card, the cards dealt onto Nivernais' columns)."""
    if not any(HIDDEN in p for p in after.piles):
        return False
    marked = State(
        tuple(tuple(_MARK if c == HIDDEN else c for c in p) for p in after.piles),
        after.down,
        after.redeals,
    )
    return any(_MARK in p for p in sampling.known(spec, marked).piles)


@dataclass(frozen=True)
class Candidate:
    """A line of moves that reveal nothing (``steps``, from the view) and the move that
    then reveals a card (``reveal``); ``home``: the cards on the foundations before it."""

    steps: tuple[Move, ...]
    reveal: Move
    home: int
    codes: tuple[int, ...] = ()
    """Nivernais: the whole line as :func:`pasyans.domains.nivernais.step_code` steps,
    played on a sample's packed position by :func:`score` (empty in the other games)."""

    @property
    def line(self) -> tuple[Move, ...]:
        return (*self.steps, self.reveal)


def _order(c: Candidate) -> tuple[object, ...]:
    return (-c.home, len(c.steps), tuple(m.to_str() for m in c.line))


def candidates(
    spec: GameSpec,
    view: State,
    *,
    cap: int | None = None,
    avoid: Collection[State] = (),
    width: int = WIDTH,
) -> list[Candidate]:
    """The candidate lines of ``view`` (a :func:`sampling.known` position; module, step
    2): breadth-first over the moves that reveal nothing, never to a position in ``avoid``
    (the views already played) nor to one walked before, at most ``cap`` positions
    expanded; each revealing move out of a walked position ends a line, one line per view
    it leaves; the ``width`` best by the cards home before the reveal, then the shorter
    line, then notation order (Nivernais: the order found). Nivernais walks its packed
    positions (:func:`nivernais_lines`), where the cells are a set. ``cap`` None:
    :func:`cap_for`."""
    if cap is None:
        cap = cap_for(spec)
    if nv.applies(spec):
        return _nivernais_candidates(spec, view, cap=cap, avoid=avoid, width=width)
    if compiled is not None and domain_for(spec) == PACKED:
        found = _packed_walk(spec, view, cap=cap, avoid=avoid)
    else:
        found = walk(spec, view, cap=cap, avoid=avoid)
    return _best(found, width)


def walk(
    spec: GameSpec, view: State, *, cap: int = CAP, avoid: Collection[State] = ()
) -> list[Candidate]:
    """Every candidate line of ``view`` in the order found (:func:`candidates` before it
    keeps the best): the reference of the compiled ``engine_candidates``
    (csrc/engine.c)."""

    def moves(pos: State) -> Iterator[tuple[Move, State]]:
        return ((m, core.apply(spec, pos, m)) for m in core.legal_moves(spec, pos))

    found = _breadth_first(
        view,
        moves,
        lambda after: reveals(spec, after),
        lambda pos: core.cards_on_foundations(spec, pos),
        cap,
        avoid,
    )
    return [Candidate(path, m, home) for path, m, home in found]


_P = TypeVar("_P", bound=Hashable)
_M = TypeVar("_M")


def _breadth_first(
    root: _P,
    moves: Callable[[_P], Iterable[tuple[_M, _P]]],
    shows: Callable[[_P], bool],
    home: Callable[[_P], int],
    cap: int,
    avoid: Collection[_P],
) -> list[tuple[tuple[_M, ...], _M, int]]:
    """The walk of :func:`walk` and :func:`nivernais_lines` (module, step 2): breadth-first
    from ``root`` over ``moves`` (each with the position after it), at most ``cap``
    positions expanded, never to a position of ``avoid`` nor one walked before; a move
    whose position ``shows`` a hidden card ends a line, one line per position it leaves:
    (the moves before it, that move, the cards ``home`` before it), in the order found."""
    seen: set[_P] = {root}
    queue: list[tuple[tuple[_M, ...], _P]] = [((), root)]
    found: dict[_P, tuple[tuple[_M, ...], _M, int]] = {}
    head = 0
    while head < len(queue) and head < cap:
        path, pos = queue[head]
        head += 1
        here = home(pos)
        for m, after in moves(pos):
            if shows(after):
                found.setdefault(after, (path, m, here))
                continue
            if after in seen or after in avoid:
                continue
            seen.add(after)
            queue.append(((*path, m), after))
    return list(found.values())


def _packed_walk(
    spec: GameSpec, view: State, *, cap: int, avoid: Collection[State]
) -> list[Candidate]:
    """:func:`walk` in the compiled core (``engine_candidates``): the view and the
    positions to avoid packed, their unseen cards HIDDEN_BYTE."""
    d = PackedDomain(spec, _with_hidden_byte(view))
    shunned = [packed.pack(_with_hidden_byte(a)) for a in avoid]
    lines = compiled.engine_candidates(d.core, d.root, shunned, cap)
    return [
        Candidate(tuple(d.move(c) for c in path), d.move(reveal), home)
        for path, reveal, home in lines
    ]


def _with_hidden_byte(state: State) -> State:
    """``state`` with its :data:`HIDDEN` cards as the compiled core's HIDDEN_BYTE."""
    return State(
        tuple(tuple(HIDDEN_BYTE if c == HIDDEN else c for c in p) for p in state.piles),
        state.down,
        state.redeals,
    )


def _best(found: list[Candidate], width: int) -> list[Candidate]:
    """The ``width`` best of ``found`` by :func:`_order`; notation is read only where the
    cards home and the length tie at the cut."""
    short = sorted(found, key=lambda c: (-c.home, len(c.steps)))
    if len(short) > width:
        last = short[width - 1]
        short = [c for c in short if (-c.home, len(c.steps)) <= (-last.home, len(last.steps))]
    return sorted(short, key=_order)[:width]


NvLine = tuple[tuple[int, ...], int, int]
"""A Nivernais candidate in packed steps: (the steps before the reveal, the reveal, the
cards home before it)."""


def nivernais_lines(view: nv.Pos, avoid: Collection[nv.Pos], cap: int) -> list[NvLine]:
    """Nivernais' candidate lines of a packed view (its unseen stock cards
    :data:`HIDDEN`), every one, in the order found (the reference of the compiled
    ``nivernais_candidates``, csrc/nivernais.c): breadth-first over
    :func:`pasyans.domains.nivernais.steps` that leave every column's cards seen, never to
    a position of ``avoid`` nor one walked before, at most ``cap`` positions expanded; a
    step that shows a hidden card (a deal, or an emptied column refilled) ends a line, one
    line per position it leaves."""
    return _breadth_first(
        view, nv.steps, lambda after: any(HIDDEN in col for col in after[0]), nv.on_foundations,
        cap, avoid,
    )  # fmt: skip


def _nivernais_candidates(
    spec: GameSpec, view: State, *, cap: int, avoid: Collection[State], width: int
) -> list[Candidate]:
    """:func:`candidates` for Nivernais: :func:`nivernais_lines` (compiled when the core
    is built), the ``width`` best by the cards home, then the shorter line (a stable sort:
    then the order found), as engine moves."""
    root = nv.pack(spec, view)
    shunned = {nv.pack(spec, a) for a in avoid}
    if compiled is None:
        found = nivernais_lines(root, shunned, cap)
    else:
        found = compiled.nivernais_candidates(
            _hidden_bytes(root), [_hidden_bytes(a) for a in shunned], cap
        )
    best = sorted(found, key=lambda f: (-f[2], len(f[0])))[:width]
    out = []
    for path, reveal, home in best:
        codes = (*path, reveal)
        moves = engine_moves(spec, view, codes)
        out.append(Candidate(moves[:-1], moves[-1], home, codes))
    return out


def _hidden_bytes(pos: nv.Pos) -> nv.Pos:
    """``pos`` with its stock's :data:`HIDDEN` cards as the compiled core's HIDDEN_BYTE."""
    stock = tuple(HIDDEN_BYTE if c == HIDDEN else c for c in pos[4])
    return (*pos[:4], stock, pos[5])


def engine_moves(spec: GameSpec, view: State, codes: Sequence[int]) -> tuple[Move, ...]:
    """The engine moves of a Nivernais line of packed steps (:func:`nivernais_lines`) from
    ``view``: a column step moves that column's top card, a cell step the card from the
    first cell that holds it, and a card to the cells goes to the first empty one. Only
    the last step may refill a column or deal (every earlier one reveals nothing)."""
    cols = spec.indexes_of(PileKind.COLUMN)
    founds = spec.indexes_of(PileKind.FOUNDATION)
    cells = spec.indexes_of(PileKind.RESERVE)
    ids = [p.id for p in spec.piles]
    tops = [list(view.piles[c]) for c in cols]
    held: list[int | None] = [view.piles[r][-1] if view.piles[r] else None for r in cells]
    out: list[Move] = []
    for code in codes:
        if code == nv.STOCK_STEP:
            out.append(Move.stock())
            continue
        if code >= NV_CELL_STEP:
            card, to = divmod(code - NV_CELL_STEP, 2)
            j = held.index(card)
            src, held[j] = cells[j], None
        else:
            column, to = divmod(code, 3)
            card, src = tops[column].pop(), cols[column]
        if to == nv.CELL:
            j = held.index(None)
            dst, held[j] = cells[j], card
        else:
            dst = founds[(card & 3) + (4 if to == nv.DOWN else 0)]
        out.append(Move(ids[src], ids[dst], 1))
    return tuple(out)


def score(spec: GameSpec, sample: State, cand: Candidate, nodes: int) -> int:
    """``cand`` on one sample (a full position, a completion of the view): its line and
    reveal played there, then the full-information search of ``nodes`` positions:
    :data:`WIN` when it wins, else the cards on the foundations at the end of the line
    (Nivernais: at the end of its search's line to the most cards home)."""
    if nv.applies(spec):
        npos = nv.pack(spec, sample)
        for code in cand.codes:
            npos = nv.play(npos, code)
        if nv.is_won(npos):
            return WIN
        outcome, line, _ = nv.portfolio(npos, nodes, None, time.perf_counter())
        return WIN if outcome == "won" else nv.on_foundations(line[-1])
    pos = sample
    for m in cand.line:
        pos = core.apply(spec, pos, m)
    if core.is_won(spec, pos):
        return WIN
    if solve(spec, pos, nodes=nodes).result == "won":
        return WIN
    return core.cards_on_foundations(spec, pos)


Decision = halving.Decision[Candidate]
"""The line player's decision (:class:`pasyans.hints.halving.Decision`, method
``determinized``): the chosen candidate, every candidate's (total score, samples played)
in the order of :func:`candidates`, and of the chosen one's samples how many searches
won."""


def decide(
    spec: GameSpec,
    view: State,
    *,
    lines: int,
    nodes: int,
    seed: int = 0,
    cap: int | None = None,
    width: int = WIDTH,
    avoid: Collection[State] = (),
    deadline: float | None = None,
) -> Decision | None:
    """The line player's decision for ``view`` (a :func:`sampling.known` position with
    hidden cards): the candidates scored on samples by successive halving, about ``lines``
    searches of ``nodes`` positions in all (module, step 4; a single candidate: at most
    :data:`ALONE`). With a ``deadline``
    (:func:`time.perf_counter`), no sample after the first starts past it. None when no
    line reaches a reveal."""
    cands = candidates(spec, view, cap=cap, avoid=avoid, width=width)
    if not cands:
        return None

    def play(alive: Sequence[int], drawn: int, batch: int) -> tuple[int, list[int], list[int]]:
        return _round(spec, view, cands, alive, drawn, batch, seed, nodes, deadline)

    return halving.decide(cands, lines, play, method="determinized", alone=ALONE)


def _round(
    spec: GameSpec,
    view: State,
    cands: Sequence[Candidate],
    alive: Sequence[int],
    drawn: int,
    batch: int,
    seed: int,
    nodes: int,
    deadline: float | None,
) -> tuple[int, list[int], list[int]]:
    """One round of :func:`decide`: the samples ``drawn`` to ``drawn + batch - 1`` of the
    view, every candidate of ``alive`` scored on each; the samples played (no sample after
    the first starts past ``deadline``) and each alive candidate's points and wins."""
    points, wins = [0] * len(alive), [0] * len(alive)
    for k, s in enumerate(sampling.samples(spec, view, batch, seed, drawn)):
        if deadline is not None and drawn + k and time.perf_counter() > deadline:
            return k, points, wins
        for i, c in enumerate(alive):
            pts = score(spec, s, cands[c], nodes)
            points[i] += pts
            wins[i] += pts == WIN
    return batch, points, wins


PLANS: Recent[tuple[tuple[Move, ...], Decision]] = caches.register(
    "hints.line_plans", Recent(20_000), bound=20_000
)
"""The chosen line's rest by (spec, view, budget key): following the line up to its
reveal, or asking again, costs no new decision. Keys hold only the player's view."""


def hint(
    spec: GameSpec,
    view: State,
    *,
    lines: int,
    nodes: int,
    seed: int = 0,
    avoid: Collection[State] = (),
    key: object = None,
    deadline: float | None = None,
) -> tuple[Move, Decision] | None:
    """The next move of the line player's chosen line from ``view`` (a
    :func:`sampling.known` position) and the decision it comes from; remembered along the
    line (:data:`PLANS`) up to its reveal. None when no line reaches a reveal."""
    cached = PLANS.get(spec, (view, key))
    if cached is not None:
        rest, known_d = cached
        if core.apply(spec, view, rest[0]) not in avoid:
            return rest[0], known_d
    d = decide(spec, view, lines=lines, nodes=nodes, seed=seed, avoid=avoid, deadline=deadline)
    if d is None:
        return None
    line = d.chosen.line
    pos = view
    plans: list[tuple[object, tuple[tuple[Move, ...], Decision]]] = []
    for j, m in enumerate(line):  # the reveal's own position is decided again
        plans.append(((pos, key), (line[j:], d)))
        pos = core.apply(spec, pos, m)
    PLANS.put_all(spec, plans)
    return line[0], d
