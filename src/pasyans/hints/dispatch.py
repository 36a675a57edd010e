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
from collections.abc import Sequence
from dataclasses import replace

from pasyans.domains import nivernais, spider
from pasyans.engine import core
from pasyans.hints import nivernais as nivernais_hint
from pasyans.hints import sampling
from pasyans.hints.exact import _search
from pasyans.hints.model import Budget, Clock, Hint
from pasyans.hints.policy import product_budget
from pasyans.hints.sampled import (
    _deeper,
    _macro,
    _played_out,
    _player,
    _sampled,
    deciding_player,
)
from pasyans.hints.sampling import known, visible
from pasyans.hints.visible import (
    _after_seen,
    _projected,
    _standing,
    decided,
    hidden_to_player,
    unstuck,
    visible_hint,
)
from pasyans.position import State
from pasyans.rules.spec import GameSpec


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
    names one. Long because it is the one place that orders the sources (exact, sampled,
    the no-peek player, visible) and their fallbacks; each source is its own module."""
    begun = time.perf_counter()
    if budget is None:  # the product's exact search (every card known): its time cap
        budget = product_budget(spec, seconds)  # (and the game's EXACT_HINTS nodes)
        exact_nodes = budget.exact or None
    else:
        exact_nodes = budget.nodes  # (never fewer than the hint's own nodes)
        if budget.exact:
            exact_nodes = max(budget.exact, budget.nodes or 0)
    if core.is_won(spec, state):
        return Hint.of(None, "none", True, "verdict.won")
    who = deciding_player(spec, budget)
    hidden = hidden_to_player(spec, state)
    if who == "lines" and hidden:
        lined = _player(spec, state, history, budget, Clock.start(budget.seconds, begun))
        if lined is not None:  # the line player (lines.py); none: the hint as without it
            return lined
    if budget.samples > 0 and nivernais.applies(spec):  # its own search (nivernais_hint.py)
        return nivernais_hint.hint(
            spec, state, budget.samples, budget.seconds, budget.nodes, budget.seed
        )
    if hidden:
        clock = Clock.start(budget.seconds, begun)  # the whole hint's one deadline
        spider_player = who in ("first", "rescue")
        if who == "first":
            decided_line = _player(spec, state, history, budget, clock)
            if decided_line is not None:
                return decided_line
        view = visible(spec, state)
        use_macro = bool(budget.macro and budget.nodes and spider.applies(spec))
        planner = budget  # the macro planner's and the samples' shares of the time
        if use_macro and budget.seconds is not None:
            planner = replace(budget, seconds=budget.seconds / 2)
        macro_tried = False
        if use_macro and (budget.stall == 0 or _standing(spec, state, history) >= budget.stall):
            planned = _macro(spec, state, history, planner, clock)
            if planned is not None:
                return planned
            macro_tried = True  # no line (it would find none again): not asked twice
        if budget.samples > 0:
            kv = known(spec, state)
            t, drawn = _sampled(spec, kv, planner)  # (planner: budget's samples and seed)
            if use_macro and not t.won and not macro_tried:
                planned = _macro(spec, state, history, planner, clock)
                if planned is not None:
                    return planned
            if spider_player and not t.won:  # no sample won: the no-peek player
                decided_line = _player(spec, state, history, budget, clock)
                if decided_line is not None:
                    return decided_line
            avoid = _after_seen(spec, history)
            move = sampling.choose(spec, kv, t, guard=budget.guard, avoid=avoid)
            # The deeper look has a node budget of its own; with the hint's time spent
            # (a loaded server) it is skipped, or stops, and the tally's move stands.
            if budget.deeper and t.won and clock.in_time():
                move = _deeper(spec, kv, t, move, budget, avoid, clock.in_time)
            if move is None and not t.won and budget.playout:
                move = _played_out(spec, kv, view, budget, avoid, clock, drawn)
                if move is not None:
                    return Hint.of(move, "playout", None, "hint.playout", samples=t.samples)
            if move is not None:  # (only where a sample is won: its votes or scores)
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
        return visible_hint(spec, view, seen, keep_going=budget.samples > 0)
    outcome, first = _search(spec, state, budget.seconds, exact_nodes)
    return decided(spec, state, history, outcome, first, keep_going=budget.samples > 0)
