"""Hints that never cheat, and "is this still winnable?".

- No hidden card (Spine always; the other games once nothing is face down and the stock is
  empty): the hint is the first move of a win the exact search finds within the budget;
  when the search proves there is no win, or runs out of time, the hint says so.
- A win or a loss once found is remembered by position (:data:`LINES`), so following the
  hints, or asking twice, costs no new search.
- Hidden cards: the position is first projected to what the player knows
  (:func:`sampling.known`: every face-down card and every stock card not seen before
  becomes the same placeholder), and only that projection is used: the hint searches
  samples of the hidden cards (:mod:`pasyans.hints.sampling`) and plays the move that
  starts a win in most of them; when none wins, the ranked heuristic on the visible cards
  (Backbone classic: the move after which short searches of the samples bring the most
  cards home, :mod:`pasyans.hints.playout`, :data:`PLAYOUT_HINTS`; Spider 1 suit, after
  10 moves that moved nothing on: the stock's deal, :func:`unstuck`,
  :data:`UNSTICK_HINTS`).
  The true hidden cards are never read. The searches are remembered (:data:`TALLIES`), so
  asking again for the same position costs nothing. The product's hint works to a node
  budget per game (:data:`HINT_BUDGETS`) within its time cap. Spider 4 suits plans over
  lines of visible moves to the next card turned up instead (:mod:`macro`,
  :data:`MACRO_HINTS`), the lines remembered in :data:`macro.PLANS`.
- While a move is left, the hint names one (the stock when nothing looks useful).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from pasyans import messages
from pasyans.domains import nivernais, spider
from pasyans.engine import core
from pasyans.engine.moves import Move
from pasyans.hints import macro, playout, sampling
from pasyans.hints.recent import Recent
from pasyans.hints.sampling import HIDDEN, known, visible
from pasyans.position import State
from pasyans.rules.spec import Build, GameSpec, PileKind
from pasyans.solver.search import solve

__all__ = [
    "HIDDEN",
    "LINES",
    "Budget",
    "Estimate",
    "Hint",
    "any_move",
    "suggest",
    "visible",
    "winnable",
]

Winnable = Literal["won", "lost", "unknown"]


@dataclass(frozen=True)
class Hint:
    """One suggested move, or none. ``winnable``: True when a win from here was found,
    False when proven lost, None when unknown (or hidden cards make it unknowable)."""

    move: Move | None
    source: str  # "solver", "heuristic" or "none"
    winnable: bool | None
    message: str
    message_ru: str = ""

    @classmethod
    def of(
        cls, move: Move | None, source: str, winnable: bool | None, code: str, **params: object
    ) -> Hint:
        """A hint whose texts are the catalogue's ``code`` (:mod:`pasyans.messages`)."""
        en, ru = messages.both(code, **params)
        return cls(move, source, winnable, en, ru)


class Lines:
    """What earlier searches found, by exact position (bounded, least recently used first
    out, thread-safe): the next move of a found win for every position along its line, and
    the positions proven lost. A player who follows a hint then gets the next hint at once,
    and asking again in a lost position needs no new proof. Only full-information
    positions are stored, so nothing here can leak a hidden card."""

    def __init__(self, size: int = 100_000) -> None:
        self._memory: Recent[tuple[Move | None]] = Recent(size)  # (None,): proven lost

    @property
    def size(self) -> int:
        return self._memory.size

    def get(self, spec: GameSpec, state: State) -> tuple[bool, Move | None]:
        """``(True, move)``: a win starts with ``move``; ``(True, None)``: proven lost;
        ``(False, None)``: nothing known."""
        entry = self._memory.get(spec, state)
        if entry is None:
            return False, None
        return True, entry[0]

    def won(
        self, spec: GameSpec, state: State, moves: Sequence[Move], keep: int | None = None
    ) -> None:
        """Remember the win ``moves`` from ``state``: each position on it (the first
        ``keep`` of them when given), its next move."""
        line: list[tuple[State, tuple[Move | None]]] = []
        for m in moves[:keep]:
            line.append((state, (m,)))
            state = core.apply(spec, state, m)
        self._memory.put_all(spec, line)

    def lost(self, spec: GameSpec, state: State) -> None:
        self._memory.put(spec, state, (None,))

    def clear(self) -> None:
        self._memory.clear()


LINES = Lines()
"""The process-wide memory of :func:`suggest` and :func:`winnable`."""


def _search(
    spec: GameSpec,
    state: State,
    seconds: float | None,
    nodes: int | None = None,
    keep: int | None = None,
) -> tuple[Winnable, Move | None]:
    """The exact answer for a full-information ``state``, from :data:`LINES` when an
    earlier search already found it; a new result is remembered (a win: the first
    ``keep`` positions of its line, all when None)."""
    known_, move = LINES.get(spec, state)
    if known_:
        return ("won", move) if move is not None else ("lost", None)
    result = solve(spec, state, seconds=seconds, nodes=nodes)
    if result.result == "won":
        LINES.won(spec, state, result.moves, keep)
        return "won", result.moves[0]
    if result.result == "lost":
        LINES.lost(spec, state)
    return result.result, None


def _leaning(
    spec: GameSpec,
    state: State,
    seconds: float | None,
    nodes: int | None,
    keep: int | None = None,
) -> tuple[Winnable, Move | None]:
    """:func:`_search` for a full-information Spider position that also says where an
    undecided search was heading: ``("unknown", move)``, the first move of the line to
    the position nearest a win that the search expanded (:class:`spider.Found`), or None
    when it expanded only the start."""
    known_, move = LINES.get(spec, state)
    if known_:
        return ("won", move) if move is not None else ("lost", None)
    if core.is_won(spec, state):
        return _search(spec, state, seconds, nodes, keep)
    game = spider.SpiderGame(spec, state)
    r = spider.staged(game, nodes=nodes, seconds=seconds, prune=True)
    if r.status == "won":
        moves = [game.move(st) for st in r.line]
        LINES.won(spec, state, moves, keep)
        return "won", moves[0]
    if r.status == "exhausted":  # only the full search (without the unproven rules) proves
        return _search(spec, state, seconds, nodes, keep)
    return "unknown", game.move(r.line[0]) if r.line else None


SAMPLES = 8
"""How many completions of the hidden cards a hint searches by default."""

SAMPLE_LINE = 3
"""Positions remembered along a sample's found win: the next hints reuse the samples
only until a card is turned up (then the unseen cards, so the samples, change), so a
sample's whole line would mostly be stored for nothing (storing it cost as much as the
compiled search)."""


@dataclass(frozen=True)
class Budget:
    """The work of one hint or estimate: ``samples`` completions of the hidden cards (0:
    the visible heuristic alone, the pre-sampling hint), ``seconds`` and/or ``nodes``
    shared between them (``nodes`` makes the answer reproducible), the samples' ``seed``,
    whether the strategy-fusion ``guard`` of :func:`sampling.choose` is on, whether the
    expert's stock rule is (``patient``, measured worse: off), and ``escalate``: when no
    sample is won within ``nodes``, search them again with that many times the nodes;
    ``more``: while fewer than ``quorum`` samples are won, draw up to ``more`` further
    batches of ``samples`` samples, each searched with the same share of ``nodes`` (so
    the work can reach ``1 + more`` times ``nodes``); ``plan`` (Spider): when no sample is
    won, the visible planner (:func:`sampling.lookahead`, then the stock) instead of the
    ranked heuristic. ``more`` and ``plan`` were measured and are off. So are the
    Spider variants of the second pass (docs/winnability.md, "Hint follower"), none
    better than noise: ``cautious`` (ties to a move that turns nothing up), ``stratify``
    (a move that turns a card up is scored in :func:`sampling.stratified` draws),
    ``widen`` (more moves scored when no candidate keeps every won sample won), ``safe``
    (fewest samples proven lost after the move first) and ``lean`` (no sample won: the
    move most samples' searches were heading to, :func:`_leaning`). So is the third
    pass's macro planner (:mod:`pasyans.hints.macro`, Spider, with ``nodes``): ``macro``
    candidate lines from the samples valued besides the walk's (0: off), ``cap``
    positions walked, ``stall`` (0: always; else only after that many moves that moved
    nothing on, or when no sample is won) and ``eager`` (the deal competes on the
    samples). ``playout`` (packed games, Backbone classic in the product): when no sample
    is won, every move scored by how many cards a search of that many positions after it
    brings home in each sample (:mod:`pasyans.hints.playout`; 0: off, the ranked
    heuristic), in ``dives`` restarting dives (1: one plain dive); Spider's playouts
    score minus the distance the staged search got to (measured worse on 1 suit: off).
    ``unstick`` (Spider, 1 suit in the product, :data:`UNSTICK_HINTS`): when no sample
    is won and that many moves in a row moved nothing on, deal from the stock, filling
    the empty columns first (:func:`unstuck`; 0: off)."""

    seconds: float | None = 1.0
    nodes: int | None = None
    samples: int = SAMPLES
    seed: int = 0
    guard: bool = True
    patient: bool = False
    escalate: int = 1
    more: int = 0
    quorum: int = 0
    plan: bool = False
    cautious: bool = False
    stratify: bool = False
    widen: bool = False
    safe: bool = False
    lean: bool = False
    macro: int = 0
    cap: int = 400
    stall: int = 0
    eager: bool = False
    playout: int = 0
    dives: int = 1
    unstick: int = 0

    def share(self) -> tuple[float | None, int | None]:
        """One sample's part of the budget."""
        n = max(self.samples, 1)
        return (
            None if self.seconds is None else self.seconds / n,
            None if self.nodes is None else max(self.nodes // n, 1),
        )


HINT_BUDGETS: dict[tuple[str, int], tuple[int, int, int]] = {
    ("spider", 1): (16, 4000, 1),
    ("spider", 2): (8, 8000, 1),
    ("spider", 4): (8, 8000, 1),
    ("backbone", 4): (SAMPLES, 8000, 1),
    ("backbone-classic", 4): (SAMPLES, 64000, 1),
    ("nivernais", 4): (SAMPLES, 2000, 1),
}
"""The product's sampled hint, by (game, number of suits): how many samples, the nodes of
all their searches together, and the escalation (:attr:`Budget.escalate`, 1: none).
:func:`suggest` without a ``budget`` works to it within its time cap. Measured with the
hint follower (docs/winnability.md, "Hint follower"): on Spider a bigger search does not
make a clearly better hint (strategy fusion), so the hint is cheap; escalation did not
win more (1 suit: 77 against 77 of deals 1-93, at twice the CPU; 2 suits: 9 against 9
of deals 1001-1020), so it is off; nor did more samples below a quorum (:attr:`Budget.more`)
or the visible planner (:attr:`Budget.plan`) on deals 3001-3040; Backbone's rows were
measured at 8,000. Backbone classic is the one game where a bigger search made a clearly
better hint: 8 x 4,000 nodes won 27 of deals 1-40 against 16 at 8 x 1,000 (11 deals won
only with it, none only without), and 19 against 14 of fresh deals 3001-3031, at about
1.5 times the CPU (48 against 32 ms a hint); since the compiled search became 2.4 times
faster (2026-12-01), 8 x 8,000 nodes cost 16 ms a hint and won 26 of deals 3001-3040
against 24 at 8 x 4,000 (2 deals won only with it, none only without). Nivernais
(its own hint, :mod:`pasyans.hints.nivernais`): 8 x 250 nodes in the first pass,
2,000 once every card is known (docs/winnability.md, "Hint follower"). Other games:
the time cap alone. The Winnable? estimate keeps the time cap alone (more search makes
its share more exact)."""


MACRO_HINTS: dict[tuple[str, int], tuple[int, int]] = {
    ("spider", 4): (4, 200),
}
"""Where the product's hint is the macro planner (:mod:`pasyans.hints.macro`), by (game,
number of suits): its ``macro`` width and ``cap`` (:class:`Budget`), with the samples and
nodes of :data:`HINT_BUDGETS`. Spider 4 suits only: the follower won 6 of fresh deals
5001-5060 with it against 0 with the sampled hint (docs/winnability.md, "A third pass");
on 1 and 2 suits it won less (23 against 32, 12 against 14 of 40)."""


PLAYOUT_HINTS: dict[tuple[str, int], int] = {
    ("backbone-classic", 4): 1000,
}
"""Where the product's hint, when no sample is won, plays the move that brings the most
cards home in short searches of every sample (:attr:`Budget.playout`), by (game, number
of suits): the positions of each search. Backbone classic only: on fresh deals 6001-6060
and 6101-6160 the follower won 82 against 75 with the ranked heuristic there (13 deals
won only with it, 6 only without), at the same CPU a hint; then 146 of deals 1-200
against 136, 85.4% of the full-information wins (docs/winnability.md, "Hint follower").
Four restarting dives instead of one (:attr:`Budget.dives`) won no more."""


UNSTICK_HINTS: dict[tuple[str, int], int] = {
    ("spider", 1): 10,
}
"""Where the product's hint, when no sample is won and that many moves in a row moved
nothing on (no card turned up, no run completed, the stock untouched), deals from the
stock, filling the empty columns first (:attr:`Budget.unstick`, :func:`unstuck`), by
(game, number of suits). Spider 1 suit: on fresh deals 7001-7140 the follower won 113
against 108 without it, 5 deals won only with it and none only without (the visible
heuristic had been moving face-up cards about with the stock full, some with a won
position); on 2 suits it changed no play of deals 7001-7040, so it is off there
(docs/winnability.md, "Hint follower")."""


def product_budget(spec: GameSpec, seconds: float | None) -> Budget:
    """The product's hint budget for ``spec``: :data:`HINT_BUDGETS` (and
    :data:`MACRO_HINTS`, :data:`PLAYOUT_HINTS`, :data:`UNSTICK_HINTS`) and ``seconds``,
    whichever ends first."""
    key = (spec.id, len(spec.deck_suits))
    samples, nodes, escalate = HINT_BUDGETS.get(key, (SAMPLES, None, 1))
    width, cap = MACRO_HINTS.get(key, (0, Budget.cap))
    return Budget(
        seconds=seconds,
        nodes=nodes,
        samples=samples,
        escalate=escalate,
        macro=width,
        cap=cap,
        playout=PLAYOUT_HINTS.get(key, 0),
        unstick=UNSTICK_HINTS.get(key, 0),
    )


class Tallies(Recent[sampling.Tally]):
    """The sampled searches already made, keyed by what the player knows and the budget
    (``(view, budget)``): asking again for the same position, or the Winnable? estimate
    after a hint with the same budget, costs nothing. Bounded, least recently used first
    out, thread-safe. The key holds only what the player knows, so nothing here can leak a
    hidden card."""

    def __init__(self, size: int = 4096) -> None:
        super().__init__(size)


TALLIES = Tallies()


def sampled(spec: GameSpec, view: State, budget: Budget) -> sampling.Tally:
    """The searches of ``budget.samples`` completions of ``view`` (a
    :func:`sampling.known` position), remembered in :data:`TALLIES`. With
    ``budget.escalate``, when no sample is won and some are undecided, the samples are
    searched again with that many times the nodes (within the same time limit)."""
    return _sampled(spec, view, budget)[0]


def _sampled(
    spec: GameSpec, view: State, budget: Budget
) -> tuple[sampling.Tally, list[State] | None]:
    """:func:`sampled`, and the samples it drew for it (``budget.samples`` of
    ``budget.seed``, drawn once, also for the escalation; not the further batches of
    ``budget.more``), for the playouts to reuse; None when the tally was remembered."""
    t = TALLIES.get(spec, (view, budget))
    if t is not None:
        return t, None
    seconds, nodes = budget.share()
    deadline = None
    if seconds is not None:  # half the time for the samples, half for the scoring
        seconds /= 2
        deadline = time.perf_counter() + 2 * seconds * budget.samples
    states = sampling.samples(spec, view, budget.samples, budget.seed)
    t = _tally(spec, view, states, budget, seconds, nodes, deadline)
    if budget.escalate > 1 and nodes is not None and t.won == 0 and t.unknown:
        t = _tally(spec, view, states, budget, seconds, nodes * budget.escalate, deadline)
    TALLIES.put(spec, (view, budget), t)
    return t, states


def _tally(
    spec: GameSpec,
    view: State,
    states: Sequence[State],
    budget: Budget,
    seconds: float | None,
    nodes: int | None,
    deadline: float | None,
) -> sampling.Tally:
    def search(s: State) -> tuple[Winnable, Move | None]:
        wait = seconds
        if deadline is not None and seconds is not None:
            wait = min(seconds, deadline - time.perf_counter())
            if wait <= 0:
                return "unknown", None
        if budget.lean and spider.applies(spec):
            return _leaning(spec, s, wait, nodes, SAMPLE_LINE)
        return _search(spec, s, wait, nodes, SAMPLE_LINE)

    def stop() -> bool:
        return deadline is not None and time.perf_counter() >= deadline

    def more(drawn: int) -> list[State]:
        if drawn >= budget.samples * (1 + budget.more):
            return []
        return sampling.samples(spec, view, budget.samples, budget.seed, drawn)

    def widen() -> list[Move]:
        v = visible(spec, view)
        return [m for m in useful_moves(spec, v, 12) if not sampling.reveals(spec, v, m)][:4]

    def stratify(slot: sampling.Slot) -> list[State]:
        return sampling.stratified(spec, view, slot, len(states), budget.seed)

    return sampling.tally(
        spec,
        view,
        states,
        search,
        guard=budget.guard,
        extra=lambda: useful_moves(spec, visible(spec, view), 2),
        stop=stop,
        more=more if budget.more else None,
        quorum=budget.quorum,
        stratify=stratify if budget.stratify else None,
        widen=widen if budget.widen else None,
    )


def hidden_to_player(spec: GameSpec, state: State) -> bool:
    """Whether the player cannot know some card (face down, or in a stock never seen)."""
    return any(HIDDEN in p for p in known(spec, state).piles)


def suggest(
    spec: GameSpec,
    state: State,
    *,
    seconds: float | None = 1.0,
    history: Sequence[State] = (),
    budget: Budget | None = None,
) -> Hint:
    """A hint for ``state``: from the exact search when the player knows every card,
    otherwise from searches of samples of the hidden cards (:mod:`sampling`), then the
    visible heuristic. ``history``: positions already played (not suggested again).
    ``budget`` (or just ``seconds``) bounds the work. While any move is left the hint
    names one."""
    begun = time.perf_counter()
    exact_nodes = None  # the product's exact search (every card known): the time cap alone
    if budget is None:
        budget = product_budget(spec, seconds)
    else:
        exact_nodes = budget.nodes
    if core.is_won(spec, state):
        return Hint.of(None, "none", True, "verdict.won")
    if budget.samples > 0 and nivernais.applies(spec):  # its own search (nivernais_hint.py)
        from pasyans.hints import nivernais as nivernais_hint

        return nivernais_hint.hint(
            spec, state, budget.samples, budget.seconds, budget.nodes, budget.seed
        )
    if hidden_to_player(spec, state):
        view = visible(spec, state)
        use_macro = bool(budget.macro and budget.nodes and spider.applies(spec))
        planner = budget  # the macro planner's and the samples' shares of the time
        if use_macro and budget.seconds is not None:
            planner = replace(budget, seconds=budget.seconds / 2)
        macro_tried = False
        if use_macro and (budget.stall == 0 or _standing(spec, state, history) >= budget.stall):
            planned = _macro(spec, state, history, planner)
            if planned is not None:
                return planned
            macro_tried = True  # no line (it would find none again): not asked twice
        if budget.samples > 0:
            kv = known(spec, state)
            t, drawn = _sampled(spec, kv, planner)  # (planner: budget's samples and seed)
            if use_macro and not t.won and not macro_tried:
                planned = _macro(spec, state, history, planner)
                if planned is not None:
                    return planned
            avoid = _after_seen(spec, history)
            move = sampling.choose(
                spec,
                kv,
                t,
                guard=budget.guard,
                avoid=avoid,
                patient=budget.patient,
                cautious=budget.cautious,
                safe=budget.safe,
                lean=budget.lean,
            )
            if move is None and not t.won and budget.playout:
                move = _played_out(spec, kv, view, budget, avoid, begun, drawn)
                if move is not None:
                    return Hint.of(move, "playout", None, "hint.playout", samples=t.samples)
            if move is not None and not t.won:
                return Hint.of(move, "leaning", None, "hint.leaning", samples=t.samples)
            if move is not None:
                won = t.count(move)
                return Hint.of(move, "sampled", None, "hint.sampled", won=won, samples=t.samples)
        seen = [_projected(spec, h, visible) for h in history]
        if (
            budget.unstick
            and spider.applies(spec)
            and _standing(spec, state, history) >= budget.unstick
        ):
            move = unstuck(spec, view, seen)
            if move is not None:
                code = "hint.unstick_fill" if move.dst is not None else "hint.unstick_deal"
                return Hint.of(move, "unstick", None, code)
        if budget.plan and spider.applies(spec):
            planned = _planned(spec, view, seen)
            if planned is not None:
                return planned
        return visible_hint(spec, view, seen, keep_going=budget.samples > 0)
    outcome, first = _search(spec, state, budget.seconds, exact_nodes)
    return decided(spec, state, history, outcome, first, keep_going=budget.samples > 0)


def visible_hint(
    spec: GameSpec, view: State, seen: Sequence[State], *, keep_going: bool = True
) -> Hint:
    """The visible heuristic's hint for the player's ``view`` (cards still hidden); with
    no such move, :func:`any_move` when ``keep_going``, else "no useful move"."""
    move = heuristic_move(spec, view, seen)
    if move is None and not keep_going:
        return Hint.of(None, "none", None, "hint.nothing_in_sight")
    if move is not None:
        return Hint.of(move, "heuristic", None, "hint.looks_useful_hidden")
    return any_move(spec, view, seen)


def decided(
    spec: GameSpec,
    state: State,
    history: Sequence[State],
    outcome: object,
    first: Move | None,
    *,
    keep_going: bool = True,
) -> Hint:
    """The hint for a position whose every card is known, from the exact search's answer
    (``outcome`` "lost" when proven lost; ``first``: the first move of a win found);
    without either, the heuristic's move (then :func:`any_move` when ``keep_going``)."""
    if first is not None:
        return Hint.of(first, "solver", True, "verdict.win_line")
    if outcome == "lost":
        return Hint.of(None, "solver", False, "verdict.lost")
    move = heuristic_move(spec, state, history)
    if move is None:
        if keep_going and core.legal_moves(spec, state):
            return any_move(spec, state, history)
        return Hint.of(None, "none", None, "verdict.timeout")
    return Hint.of(move, "heuristic", None, "verdict.timeout_useful")


def _played_out(
    spec: GameSpec,
    kv: State,
    view: State,
    budget: Budget,
    avoid: set[State],
    begun: float,
    states: Sequence[State] | None = None,
) -> Move | None:
    """No sample won: the move after which the samples' short searches bring the most
    cards home (:func:`playout.choose`, ``budget.playout`` positions each), ties to the
    visible heuristic's rank; within what is left of the hint's time (begun at
    ``begun``; the samples' searches had half of it). ``states``: the samples the tally
    drew (:func:`_sampled`), else drawn again (the same ones: the same seed)."""
    if states is None:
        states = sampling.samples(spec, kv, budget.samples, budget.seed)
    left = None
    if budget.seconds is not None:
        left = max(budget.seconds - (time.perf_counter() - begun), 0.0)
    return playout.choose(
        spec,
        kv,
        states,
        nodes=budget.playout,
        seconds=left,
        avoid=avoid,
        rank=lambda m: _value(spec, view, m, core.apply(spec, view, m)),
        key=budget,
        dives=budget.dives,
    )


_PROJECTIONS: dict[tuple[int, State, object], State] = {}


def _macro(spec: GameSpec, state: State, history: Sequence[State], budget: Budget) -> Hint | None:
    """Spider's macro hint (:mod:`pasyans.hints.macro`), or None when no line of
    visible moves reaches an event and the stock cannot be dealt."""
    assert budget.nodes is not None
    kv = known(spec, state)
    avoid = {_packed(spec, h) for h in history}
    p = macro.plan(
        spec,
        kv,
        samples=budget.samples,
        nodes=budget.nodes,
        width=budget.macro,
        cap=budget.cap,
        seed=budget.seed,
        avoid=avoid,
        key=budget,
        eager=budget.eager,
        seconds=budget.seconds,
    )
    if p is None:
        return None
    code = "hint.macro_deal" if p.deal else "hint.macro_event"
    return Hint.of(p.move, "macro", None, code, won=p.won, samples=p.samples)


def _moved_on(spec: GameSpec, state: State) -> tuple[int, int, int]:
    stock = len(state.piles[spec.index["stock"]]) if spec.has_pile("stock") else 0
    return (sum(state.down), core.cards_on_foundations(spec, state), stock)


def _standing(spec: GameSpec, state: State, history: Sequence[State]) -> int:
    """How many of the last moves played turned nothing up, put nothing away and left the
    stock alone (read from the history: what the player saw)."""
    now = _moved_on(spec, state)
    n = 0
    for h in reversed(history):
        if _moved_on(spec, h) != now:
            break
        n += 1
    return n


_PACKED: dict[tuple[int, State], macro.View] = {}


def _packed(spec: GameSpec, state: State) -> macro.View:
    """The packed view of a position played (remembered: the history is read at every
    hint)."""
    key = (id(spec), state)
    out = _PACKED.get(key)
    if out is None:
        if len(_PACKED) > 200_000:
            _PACKED.clear()
        out = _PACKED[key] = macro.packed(spec, _projected(spec, state, known))
    return out


def unstuck(spec: GameSpec, view: State, seen: Sequence[State]) -> Move | None:
    """Spider, after moves that moved nothing on: the stock's deal when it can be dealt;
    when only empty columns keep it from being dealt, the move into an empty column after
    which the view looks best (:func:`sampling.spider_score`, then notation order), never
    back to a position in ``seen``; else None. Only the player's view is read."""
    moves = core.legal_moves(spec, view)
    deal = next((m for m in moves if m.dst is None), None)
    if deal is not None:
        return deal
    stock = spec.index["stock"]
    if not view.piles[stock]:
        return None
    old = set(seen)
    fills = []
    for m in moves:
        if m.dst is None or view.piles[spec.index[m.dst]]:
            continue
        after = core.apply(spec, view, m)
        if after in old or not view.piles[spec.index[m.src]][: -m.cards]:
            continue  # (moving a whole column to an empty one fills nothing)
        fills.append((sampling.spider_score(spec, after), m.to_str(), m))
    return min(fills)[2] if fills else None


def _planned(spec: GameSpec, view: State, seen: Sequence[State]) -> Hint | None:
    """Spider when no sample is won: the visible planner's move
    (:func:`sampling.lookahead`), else the stock when it can be dealt."""
    move = sampling.lookahead(spec, view, avoid=set(seen))
    if move is None:
        move = next((m for m in core.legal_moves(spec, view) if m.dst is None), None)
    if move is None:
        return None
    return Hint.of(move, "planned", None, "hint.looks_useful_hidden")


def _projected(spec: GameSpec, state: State, project: Callable[[GameSpec, State], State]) -> State:
    """``project(spec, state)``, remembered (a long history is projected at every hint)."""
    key = (id(spec), state, project)
    out = _PROJECTIONS.get(key)
    if out is None:
        if len(_PROJECTIONS) > 200_000:
            _PROJECTIONS.clear()
        out = _PROJECTIONS[key] = project(spec, state)
    return out


def _after_seen(spec: GameSpec, history: Sequence[State]) -> set[State]:
    return {_projected(spec, h, known) for h in history}


def any_move(spec: GameSpec, state: State, seen: Sequence[State]) -> Hint:
    """A hint that keeps the game going when nothing looks useful: the stock when it can
    be clicked, else a move to a position not seen before, else any legal move; "no
    useful move" only when no move is left at all."""
    moves = core.legal_moves(spec, state)
    if not moves:
        return Hint.of(None, "none", False, "hint.no_move_left")
    old = set(seen)
    fresh = [m for m in moves if core.apply(spec, state, m) not in old]
    stock = [m for m in fresh if m.dst is None]
    move = (stock or fresh or moves)[0]
    return Hint.of(move, "heuristic", None, "hint.keeps_going")


@dataclass(frozen=True)
class Estimate:
    """Is this still winnable, with hidden cards: of ``samples`` ways the hidden cards
    could lie, ``won`` were found winnable and ``lost`` proven lost within the budget
    (the rest undecided). An estimate, never a verdict."""

    won: int
    lost: int
    samples: int

    @property
    def share(self) -> float:
        return self.won / self.samples if self.samples else 0.0

    def to_json(self) -> dict[str, int | float]:
        return {
            "won": self.won,
            "lost": self.lost,
            "samples": self.samples,
            "percent": round(100 * self.share),
        }


def estimate(spec: GameSpec, state: State, budget: Budget) -> Estimate | None:
    """The share of the ways the hidden cards could lie that are winnable, from the same
    samples as the hint; None when the player knows every card (or the game is over)."""
    if core.is_won(spec, state) or not hidden_to_player(spec, state) or budget.samples <= 0:
        return None
    if core.is_stuck(spec, visible(spec, state)):
        return None
    t = sampled(spec, known(spec, state), budget)
    return Estimate(t.won, t.lost, t.samples)


def winnable(spec: GameSpec, state: State, *, seconds: float = 1.0) -> Winnable:
    """Is this still winnable? ``won`` (a win was found), ``lost`` (proven) or ``unknown``.

    With hidden cards the answer comes from the player's knowledge only: ``lost`` when no
    move, deal or redeal is left, ``won`` when the game is won, otherwise ``unknown``
    (:func:`estimate` then gives the sampled share).
    """
    if core.is_won(spec, state):
        return "won"
    if hidden_to_player(spec, state):
        return "lost" if core.is_stuck(spec, visible(spec, state)) else "unknown"
    return _search(spec, state, seconds)[0]


def useful_moves(spec: GameSpec, state: State, count: int) -> list[Move]:
    """The ``count`` best-ranked moves by visible features that are not the stock."""
    ranked = sorted(
        (-_value(spec, state, m, core.apply(spec, state, m)), m.to_str(), m)
        for m in core.legal_moves(spec, state)
        if m.dst is not None
    )
    return [m for v, _, m in ranked[:count] if v < 0]


def heuristic_move(spec: GameSpec, state: State, history: Sequence[State] = ()) -> Move | None:
    """The best-ranked move by visible features, or None when no move looks useful.
    Call it on :func:`visible` positions when cards are hidden."""
    seen = set(history)
    best: tuple[int, Move] | None = None
    for m in core.legal_moves(spec, state):
        after = core.apply(spec, state, m)
        if after in seen:
            continue  # going back to a position already seen is not progress
        value = _value(spec, state, m, after)
        if value > 0 and (best is None or value > best[0]):
            best = (value, m)
    return None if best is None else best[1]


def _value(spec: GameSpec, before: State, move: Move, after: State) -> int:
    if move.dst is None:
        return 1
    dst = spec.index[move.dst]
    dst_kind = spec.piles[dst].kind
    src = spec.index[move.src]
    src_kind = spec.piles[src].kind
    gained = core.cards_on_foundations(spec, after) - core.cards_on_foundations(spec, before)
    value = 100 * max(gained, 0)
    if dst_kind is PileKind.FOUNDATION:
        value += 50
    if sum(after.down) < sum(before.down):
        value += 40  # turns up a card
    if not after.piles[src]:
        value += 20  # empties a pile
    pile = before.piles[src]
    left = len(pile) - move.cards
    if dst_kind is PileKind.COLUMN and before.piles[dst]:
        value += 10
        if before.piles[dst][-1] - pile[left] == 4:
            value += 5  # builds in suit
        if src_kind is PileKind.COLUMN and left > before.down[src]:
            below = pile[left - 1]
            if below - pile[left] == 4 or (
                spec.column_build is Build.DOWN_ANY and (below >> 2) - (pile[left] >> 2) == 1
            ):
                value -= 30  # it already sits on a card it builds on: moving it gains nothing
    if src_kind in (PileKind.SPINE, PileKind.TAILBONE, PileKind.WASTE):
        value += 5
    if src_kind is PileKind.FOUNDATION:
        value -= 30
    return value
