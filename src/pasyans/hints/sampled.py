"""The hint with hidden cards: searches of samples of the hidden cards, remembered
(:data:`TALLIES`), the playouts when no sample is won, Spider's macro planner, and the
sampled estimate of how winnable a position is."""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from typing import Any

from pasyans import caches
from pasyans.domains import spider
from pasyans.engine import core
from pasyans.engine.moves import Move
from pasyans.hints import deeper, halving, lines, macro, player, playout, sampling
from pasyans.hints.exact import _search
from pasyans.hints.model import SAMPLE_LINE, Budget, Clock, Estimate, Hint, Winnable
from pasyans.hints.recent import Recent
from pasyans.hints.sampling import known, visible
from pasyans.hints.visible import (
    _after_seen,
    _projected,
    _value,
    hidden_to_player,
    useful_moves,
)
from pasyans.position import State
from pasyans.rules.spec import GameSpec


class Tallies(Recent[sampling.Tally]):
    """The sampled searches already made, keyed by what the player knows and the budget
    (``(view, budget)``): asking again for the same position, or the Winnable? estimate
    after a hint with the same budget, costs nothing. Bounded, least recently used first
    out, thread-safe. The key holds only what the player knows, so nothing here can leak a
    hidden card."""

    def __init__(self, size: int = 4096) -> None:
        super().__init__(size)


TALLIES = caches.register("hints.tallies", Tallies(), bound=4096)


def sampled(spec: GameSpec, view: State, budget: Budget) -> sampling.Tally:
    """The searches of ``budget.samples`` completions of ``view`` (a
    :func:`sampling.known` position), remembered in :data:`TALLIES`."""
    return _sampled(spec, view, budget)[0]


def _sampled(
    spec: GameSpec, view: State, budget: Budget
) -> tuple[sampling.Tally, list[State] | None]:
    """:func:`sampled`, and the samples it drew for it (``budget.samples`` of
    ``budget.seed``), for the playouts to reuse; None when the tally was remembered."""
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
    TALLIES.put(spec, (view, budget), t)
    return t, states


def _deeper(
    spec: GameSpec,
    view: State,
    t: sampling.Tally,
    move: Move | None,
    budget: Budget,
    avoid: Collection[State],
    in_time: Callable[[], bool] = lambda: True,
) -> Move | None:
    """``move`` (the tally's choice at ``view``, a :func:`sampling.known` position)
    revalued one level deeper (:attr:`Budget.deeper`, :func:`deeper.choose`): each inner
    view tallied with ``budget.deeper_samples`` (:data:`deeper.INNER`) samples of the
    seed's draws, each searched with a sample's share of the hint's nodes (remembered in
    :data:`TALLIES` like any tally); a view with no hidden card left, by the exact search
    with those nodes. No further contender is valued once ``in_time()`` is false (the
    hint's time spent), and the tally's move stands if fewer than two were."""
    inner = _inner(budget, budget.deeper_samples or deeper.INNER, deeper=0)
    if inner is None:
        return move
    per = inner.share()[1]

    def share(v: State) -> float:
        known = _known_value(spec, v, per)
        return deeper.best_share(sampled(spec, v, inner)) if known is None else known

    cap = budget.deeper_cap or deeper.CAP
    return deeper.choose(spec, view, t, move, budget.deeper, share, avoid, cap, in_time)[0]


def _inner(budget: Budget, samples: int, **changes: Any) -> Budget | None:
    """The deeper look's inner budget (:func:`_deeper`): ``samples``
    samples, each with a sample's share of ``budget``'s nodes (so its :meth:`Budget.share`
    is that share), no time cap, and ``changes``. None (no revaluing) without a node
    budget or the guard."""
    per = budget.share()[1]
    if per is None or not budget.guard:
        return None
    return replace(budget, seconds=None, samples=samples, nodes=per * samples, **changes)


def _known_value(spec: GameSpec, v: State, nodes: int | None) -> float | None:
    """A view's value where no hidden card is left to sample: 1 when won, else whether
    the exact search wins it in ``nodes`` (1 or 0); None while hidden cards remain."""
    if core.is_won(spec, v):
        return 1.0
    if sampling.HIDDEN in (c for pile in v.piles for c in pile):
        return None
    return 1.0 if _search(spec, v, None, nodes, SAMPLE_LINE)[0] == "won" else 0.0


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
        return _search(spec, s, wait, nodes, SAMPLE_LINE)

    def stop() -> bool:
        return deadline is not None and time.perf_counter() >= deadline

    return sampling.tally(
        spec,
        view,
        states,
        search,
        guard=budget.guard,
        extra=lambda: useful_moves(spec, visible(spec, view), 2),
        stop=stop,
    )


def _played_out(
    spec: GameSpec,
    kv: State,
    view: State,
    budget: Budget,
    avoid: set[State],
    clock: Clock,
    states: Sequence[State] | None = None,
) -> Move | None:
    """No sample won: the move after which the samples' short searches bring the most
    cards home (:func:`playout.choose`, ``budget.playout`` positions each), ties to the
    visible heuristic's rank; within what is left of the hint's time (``clock``;
    the samples' searches had half of it). ``states``: the samples the tally
    drew (:func:`_sampled`), else drawn again (the same ones: the same seed)."""
    if states is None:
        states = sampling.samples(spec, kv, budget.samples, budget.seed)
    left = clock.left()
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


def _macro(
    spec: GameSpec, state: State, history: Sequence[State], budget: Budget, clock: Clock
) -> Hint | None:
    """Spider's macro hint (:mod:`pasyans.hints.macro`), or None when no line of
    visible moves reaches an event and the stock cannot be dealt. With no sample won,
    the no-peek player decides within what is left of the hint's ``clock``."""
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
    if p.won == 0 and deciding_player(spec, budget) == "rescue":  # no sample won: the player
        rescued = _player(spec, state, history, budget, clock)
        if rescued is not None:
            return rescued
    code = "hint.macro_deal" if p.deal else "hint.macro_event"
    return Hint.of(p.move, "macro", None, code, won=p.won, samples=p.samples)


def deciding_player(spec: GameSpec, budget: Budget) -> str:
    """Which no-peek player makes the decision of a hint (and of its estimate) while a
    card is hidden: ``"lines"``, the packed games' line player, before any other source;
    ``"first"``, Spider's player, before the samples' tally; ``"rescue"``, Spider's
    player only where no sample is won; ``""``, none (the samples' tally decides).
    :func:`pasyans.hints.dispatch.suggest` and :func:`estimate` both read it."""
    if budget.lines and lines.applies(spec):
        return "lines"
    if budget.player and budget.samples > 0 and spider.applies(spec):
        return "rescue" if budget.rescue else "first"
    return ""


def _player(
    spec: GameSpec,
    state: State,
    history: Sequence[State],
    budget: Budget,
    clock: Clock,
) -> Hint | None:
    """The no-peek player's hint (Spider: :mod:`pasyans.hints.player`; the packed games:
    the line player, :mod:`pasyans.hints.lines`): the first move of its chosen line, with
    the chosen line's samples won; None when no line reaches an event (a reveal). Within
    the hint's ``clock``."""
    got = _decided(spec, state, history, budget, clock)
    if got is None:
        return None
    move, source, code, d = got
    return Hint.of(move, source, None, code, won=d.won, samples=d.samples)


def _decided(
    spec: GameSpec,
    state: State,
    history: Sequence[State],
    budget: Budget,
    clock: Clock,
) -> tuple[Move, str, str, halving.Decision[Any]] | None:
    """The player's decision behind :func:`_player`: the first move of the chosen line,
    the hint's source and message code, and the decision."""
    kv = known(spec, state)
    if lines.applies(spec):
        got = lines.hint(
            spec,
            kv,
            lines=budget.lines,
            nodes=budget.line_nodes(),
            seed=budget.seed,
            avoid=_after_seen(spec, history),
            key=budget,
            deadline=clock.deadline,
        )
        return None if got is None else (got[0], "lines", "hint.lines_event", got[1])
    found = player.hint(
        spec,
        kv,
        playouts=budget.player,
        seed=budget.seed,
        method=budget.method,
        nodes=budget.player_nodes or budget.nodes or 1000,
        avoid={_packed(spec, h) for h in history},
        key=budget,
        deadline=clock.deadline,
    )
    if found is None:
        return None
    step, d, game = found
    code = "hint.player_deal" if d.chosen.event == spider.DEAL else "hint.player_event"
    return game.move(step), "player", code, d


_PACKED: dict[tuple[int, State], macro.View] = caches.register(
    "hints.packed_history", {}, bound=200_000
)


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


def estimate(spec: GameSpec, state: State, budget: Budget) -> Estimate | None:
    """The share of the ways the hidden cards could lie that are winnable, from the same
    samples as the hint (with ``budget.player``, Spider: the no-peek player's playouts
    after its chosen line, :attr:`Estimate.method` ``"rollout"``; with ``budget.rescue``
    too, only where no sample is won, as the hint; with ``budget.lines``, the packed
    games: the searches after the line player's chosen line); None when the player
    knows every card (or the game is over)."""
    if core.is_won(spec, state) or not hidden_to_player(spec, state) or budget.samples <= 0:
        return None
    if core.is_stuck(spec, visible(spec, state)):
        return None
    t = None
    who = deciding_player(spec, budget)
    if who == "rescue":  # as the hint: the player only where no sample won
        t = sampled(spec, known(spec, state), budget)
        if t.won:
            return Estimate(t.won, t.lost, t.samples)
    if who:
        got = _decided(spec, state, (), budget, Clock.start(budget.seconds))
        if got is not None:  # the chosen line's samples
            d = got[3]
            return Estimate(d.won, 0, d.samples, d.method)
    t = t or sampled(spec, known(spec, state), budget)
    return Estimate(t.won, t.lost, t.samples)
