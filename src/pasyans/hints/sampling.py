"""Sampled search over the hidden cards ("determinization").

A player with hidden cards knows the visible cards, how many cards lie face down where,
and what they saw earlier. Every arrangement of the unseen cards that fits this is equally
likely (the deal is a uniform shuffle), so a hint draws a few such arrangements, runs the
full-information search (:func:`pasyans.solver.search.solve`) on each, and plays the move
that starts a win in the most of them.

The inputs are only what the player knows (:func:`known`): the visible position, plus
the stock after a redeal (the redeal rebuilt it, in an order the player watched, from
cards that were all face up; since then cards only left it). The unseen cards are the
deck minus every card the player knows, so two positions that differ only in their hidden
cards give the same samples for the same seed.

Strategy fusion: each sample "knows" its own cards, so a move can look good only because
every sample plans with cards the player has not seen. When the samples disagree (no
move starts a win in most of the winning samples), :func:`choose` prefers a move that
turns a face-down card up among the moves at least half as popular as the best one; the
follower benchmark measures both ways (``benchmarks/follow.py --no-guard``).

Over 400 lines because the sampling and the choice among the samples' searches read the
same tally and the same projection of what the player knows; split, each half would
import the other's privates.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, replace

from pasyans.cards import Card, shuffled
from pasyans.domains import _core_abi as abi
from pasyans.domains.built import compiled
from pasyans.engine import core
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules.spec import GameSpec, PileKind

HIDDEN = abi.HIDDEN
"""The placeholder for a card the player cannot see. It matches no rank and no suit, so no
rule ever lets it move or take a card."""

Slot = tuple[int, int]
"""A hidden place: (pile index, position from the bottom)."""


def visible(spec: GameSpec, state: State) -> State:
    """The position as the player sees it: face-down and stock cards replaced by
    :data:`HIDDEN` (their number stays visible, their identity does not)."""
    piles = list(state.piles)
    for i, p in enumerate(spec.piles):
        pile = piles[i]
        n = len(pile) if p.kind is PileKind.STOCK else min(state.down[i], len(pile))
        if n:
            piles[i] = (HIDDEN,) * n + pile[n:]
    return State(tuple(piles), state.down, state.redeals)


def known(spec: GameSpec, state: State) -> State:
    """What a player who remembers what they saw knows: :func:`visible`, except that after
    a redeal the stock is known (it was rebuilt, without shuffling, from face-up cards)."""
    view = visible(spec, state)
    if state.redeals == 0 or not spec.has_pile("stock"):
        return view
    stock = spec.index["stock"]
    piles = list(view.piles)
    piles[stock] = state.piles[stock]
    return State(tuple(piles), view.down, view.redeals)


def slots(spec: GameSpec, view: State) -> list[Slot]:
    """The hidden places of a :func:`known` position, pile by pile, bottom first."""
    return [(i, k) for i, pile in enumerate(view.piles) for k, c in enumerate(pile) if c == HIDDEN]


def unseen(spec: GameSpec, view: State) -> list[Card]:
    """The cards the player has not seen (sorted): the deck minus every known card."""
    left = Counter(core.deck_for(spec))
    for pile in view.piles:
        for c in pile:
            if c != HIDDEN:
                left[c] -= 1
    if any(n < 0 for n in left.values()):
        raise ValueError("a position holds more copies of a card than the deck")
    return sorted(left.elements())


def seed_for(spec: GameSpec, view: State, seed: int) -> int:
    """A seed for the samples of ``view``: the same for the same hidden places and unseen
    cards, so a move that turns nothing up keeps the samples (and their remembered wins)."""
    h = hashlib.blake2b(digest_size=8)
    h.update(repr((spec.id, seed, slots(spec, view), unseen(spec, view))).encode())
    return int.from_bytes(h.digest(), "big")


def complete(view: State, places: Sequence[Slot], cards: Sequence[Card]) -> State:
    """``view`` with ``cards[j]`` put at ``places[j]``."""
    piles = [list(p) for p in view.piles]
    for (i, k), c in zip(places, cards, strict=True):
        piles[i][k] = c
    return State(tuple(tuple(p) for p in piles), view.down, view.redeals)


def samples(spec: GameSpec, view: State, count: int, seed: int = 0, start: int = 0) -> list[State]:
    """``count`` completions of a :func:`known` position, each a uniformly random
    arrangement of the unseen cards over the hidden places (the project's stable shuffle,
    so the same on every machine); ``start``: skip that many (the next batch of the same
    sequence)."""
    places = slots(spec, view)
    cards = unseen(spec, view)
    if len(cards) != len(places):
        raise ValueError("the unseen cards do not fill the hidden places")
    base = seed_for(spec, view, seed)
    return [complete(view, places, c) for c in draws(cards, base, start, count)]


def draws(cards: Sequence[Card], base: int, start: int, count: int) -> list[list[Card]]:
    """The arrangements of ``cards`` that :func:`samples` puts in the hidden places: the
    stable shuffle (:func:`pasyans.cards.shuffled`) by the seeds ``base + start`` to
    ``base + start + count - 1``; compiled when the core is built (``pl_shuffle`` in
    csrc/player.c, the same draws), else :func:`draws_py`, the reference."""
    if compiled is None or not hasattr(compiled, "cards_shuffled") or count <= 0:
        return draws_py(cards, base, start, count)
    return compiled.cards_shuffled(cards, base & _MASK, start, count)


def draws_py(cards: Sequence[Card], base: int, start: int, count: int) -> list[list[Card]]:
    """:func:`draws` in Python."""
    return [shuffled(cards, base + j) for j in range(start, start + count)]


_MASK = (1 << 64) - 1


def stratified(spec: GameSpec, view: State, slot: Slot, count: int, seed: int = 0) -> list[State]:
    """``count`` completions of a :func:`known` position stratified on the card at
    ``slot`` (the one a move turns up): the ``i``-th puts the unseen card at the ``i``-th
    of ``count`` evenly spaced places in the sorted unseen cards there (so every card
    turns up about as often as it is unseen, and each one at least once when ``count`` is
    at least their number), the other unseen cards a uniformly random arrangement of the
    other hidden places. Sixteen plain samples show a face-down card as, on average, 16
    draws from the unseen cards, which can miss the one card after which the game is lost;
    these cannot."""
    places = slots(spec, view)
    cards = unseen(spec, view)
    if len(cards) != len(places):
        raise ValueError("the unseen cards do not fill the hidden places")
    if slot not in places:
        raise ValueError(f"{slot} is not a hidden place")
    rest = [p for p in places if p != slot]
    base = seed_for(spec, view, seed) ^ (1 + 1009 * slot[0] + slot[1]) << 20
    out = []
    for i in range(count):
        j = i * len(cards) // count
        others = cards[:j] + cards[j + 1 :]
        out.append(complete(view, [slot, *rest], [cards[j], *shuffled(others, base + i)]))
    return out


def revealed(spec: GameSpec, view: State, move: Move) -> Slot | None:
    """The hidden place whose card ``move`` turns up (by its source, or by a run
    completed at its destination), else None."""
    return turned(spec, core.apply(spec, view, move))


def turned(spec: GameSpec, after: State) -> Slot | None:
    """The first hidden place of a column left face up in ``after`` (a view just after a
    move: a card it turned up, by its source or by a run completed at its destination),
    else None."""
    for i, pile in enumerate(after.piles):
        d = after.down[i]
        if spec.piles[i].kind is PileKind.COLUMN and len(pile) > d and pile[d] == HIDDEN:
            return (i, d)
    return None


@dataclass(frozen=True)
class Tally:
    """What the searches of the samples found: how many were won, proven lost or left
    unknown, how many winning samples each first move starts (``votes``), and, with the
    guard, each candidate move's ``scores``: in how many samples a win is found after it."""

    won: int
    lost: int
    unknown: int
    votes: tuple[tuple[Move, int], ...]
    scores: tuple[tuple[Move, int], ...] = ()
    risks: tuple[tuple[Move, int], ...] = ()
    leans: tuple[tuple[Move, int], ...] = ()
    ties: tuple[tuple[Move, int], ...] = ()
    """The tie-break (:func:`break_ties`): the candidates tied at the most samples won,
    each with in how many further samples a win is found after it."""

    @property
    def samples(self) -> int:
        return self.won + self.lost + self.unknown

    def count(self, move: Move) -> int:
        """In how many samples ``move`` starts a found win."""
        return dict(self.scores).get(move) or dict(self.votes).get(move, 0)


Search = Callable[[State], tuple[str, Move | None]]
"""A full-information search of one sample: its outcome and, when won, its first move
(when undecided, optionally the first move of the line to the position nearest a win it
reached: its "lean")."""

CANDIDATES = 4
"""How many of the samples' favourite first moves the guard scores in every sample."""


def tally(
    spec: GameSpec,
    view: State,
    states: Sequence[State],
    search: Search,
    *,
    guard: bool = True,
    extra: Sequence[Move] | Callable[[], Sequence[Move]] = (),
    stop: Callable[[], bool] = lambda: False,
    more: Callable[[int], Sequence[State]] | None = None,
    quorum: int = 0,
    stratify: Callable[[Slot], Sequence[State]] | None = None,
    widen: Callable[[], Sequence[Move]] | None = None,
    tidy: Callable[[], Sequence[Move]] | None = None,
) -> Tally:
    """Search every sample. With ``guard`` (against strategy fusion), each candidate move
    (the :data:`CANDIDATES` favourite first moves, and every move that turns a card up)
    is also searched after, in every sample won, so that it is scored by in how many
    samples a win follows it, not only by how many samples' searches happened to start
    with it; when the stock is among them, the ``extra`` moves too (a list, or a function
    that gives it). Samples not won from the position are not searched again (no move wins
    there within the budget). ``stop``: a time budget is spent; candidates not scored
    by then are left out (so is one whose searches it cut short). ``more``: while fewer
    than ``quorum`` samples are won, ``more(n)`` gives the next samples after the ``n``
    drawn so far (an empty list: no more), searched the same way. ``stratify``: a move
    that turns a card up is scored instead in ``stratify(slot)`` (:func:`stratified`
    draws, one per sample), by in how many of them a win is found after it. ``widen``:
    when no candidate keeps every won sample won, the moves ``widen()`` gives are
    scored too. ``tidy``: the moves ``tidy()`` gives (:func:`tidy_moves`) are candidates
    too, scored last (for :func:`choose`'s ``defer``)."""
    won = lost = 0
    votes: Counter[Move] = Counter()
    leans: Counter[Move] = Counter()
    firsts: list[Move | None] = []
    states = list(states)
    batch = list(states)
    while batch:
        for s in batch:
            outcome, first = search(s)
            if outcome == "won":
                won += 1
                if first is not None:
                    votes[first] += 1
            elif outcome == "lost":
                lost += 1
            elif first is not None:
                leans[first] += 1
            firsts.append(first if outcome == "won" else None)
        if more is None or won >= quorum or stop():
            break
        batch = list(more(len(states)))
        states += batch
    ordered = sorted(votes.items(), key=lambda e: (-e[1], e[0].to_str()))
    scores: list[tuple[Move, int]] = []
    risks: list[tuple[Move, int]] = []
    if guard and won:
        candidates = [m for m, _ in ordered[:CANDIDATES]]
        if any(m.dst is None for m in candidates):
            added = extra() if callable(extra) else extra
            candidates += [m for m in added if m not in candidates]
        for m in core.legal_moves(spec, view):
            if m not in candidates and m.dst is not None and reveals(spec, view, m):
                candidates.append(m)
        if tidy is not None:
            candidates += [m for m in tidy() if m not in candidates]

        def score(m: Move) -> tuple[int, int]:
            n = r = 0
            slot = None if stratify is None else revealed(spec, view, m)
            if slot is not None and stratify is not None:
                for s in stratify(slot)[: len(states)]:
                    outcome = search(core.apply(spec, s, m))[0]
                    n += outcome == "won"
                    r += outcome == "lost"
            else:
                for s, first in zip(states, firsts, strict=True):
                    if first is None:
                        continue
                    if first == m:
                        n += 1
                        continue
                    outcome = search(core.apply(spec, s, m))[0]
                    n += outcome == "won"
                    r += outcome == "lost"
            return n, r

        for m in candidates:
            if stop():
                break
            n, r = score(m)
            if stop():
                break
            scores.append((m, n))
            risks.append((m, r))
        if (
            widen is not None
            and scores
            and (max(n for _, n in scores) < won or any(r for _, r in risks))
            and not stop()
        ):
            for m in widen():
                if m in candidates:
                    continue
                n, r = score(m)
                if stop():
                    break
                scores.append((m, n))
                risks.append((m, r))
    return Tally(
        won,
        lost,
        len(states) - won - lost,
        tuple(ordered),
        tuple(scores),
        tuple(risks),
        tuple(sorted(leans.items(), key=lambda e: (-e[1], e[0].to_str()))),
    )


def broadly(
    spec: GameSpec,
    view: State,
    t: Tally,
    states: Sequence[State],
    probe: Callable[[State], str],
    stop: Callable[[], bool] = lambda: False,
) -> Tally:
    """``t`` with every legal move of ``view`` scored (:attr:`Tally.scores`) by in how
    many of ``states`` (the samples ``t`` searched) ``probe`` (a search of the sample
    after the move: "won", "lost" or "unknown") wins, and its proven losses
    (:attr:`Tally.risks`); for a tally where few samples decide. The guard scores only
    the moves the won samples' searches start with, and only in those samples: with 3
    of 8 won, each voting the same move, that move is played on 3 samples' word, while
    another move might win in 6 (a search from one move on can succeed where the
    search of the position ran out). Every move gets the same samples and the same
    search, so the scores compare. ``stop``: the time is spent; then ``t`` unchanged."""
    scores: list[tuple[Move, int]] = []
    risks: list[tuple[Move, int]] = []
    for m in core.legal_moves(spec, view):
        n = r = 0
        for s in states:
            if stop():
                return t
            outcome = probe(core.apply(spec, s, m))
            n += outcome == "won"
            r += outcome == "lost"
        scores.append((m, n))
        risks.append((m, r))
    return replace(t, scores=tuple(scores), risks=tuple(risks))


NEAR = 0.75
"""The tie-break (:func:`break_ties`) rescores the candidates won in at least this share
of the samples the best one is won in."""


def break_ties(
    spec: GameSpec,
    view: State,
    t: Tally,
    more: Sequence[State],
    search: Search,
    stop: Callable[[], bool] = lambda: False,
) -> Tally:
    """``t`` with :attr:`Tally.ties`: when several candidates are won in nearly the most
    samples (:attr:`Tally.scores`, at least :data:`NEAR` of the best), each of them
    searched after in every one of ``more`` (further samples of the same view, the same
    for every candidate), counting the wins. The candidates are mostly moves that turn a
    card up, and sixteen samples tell apart only gaps of about 20 points in how often the
    card that comes up leaves the game won; more samples tell smaller ones. ``stop``: a
    time budget is spent; the tie-break is then dropped whole (candidates scored on fewer
    samples would not compare)."""
    if not t.scores or not more:
        return t
    best = max(n for _, n in t.scores)
    tied = [m for m, n in t.scores if n > 0 and n >= NEAR * best]
    if len(tied) < 2:
        return t
    ties: list[tuple[Move, int]] = []
    for m in tied:
        n = 0
        for s in more:
            if stop():
                return t
            n += search(core.apply(spec, s, m))[0] == "won"
        ties.append((m, n))
    return replace(t, ties=tuple(ties))


def reveals(spec: GameSpec, view: State, move: Move) -> bool:
    """Whether ``move`` turns a face-down column card up."""
    return sum(core.apply(spec, view, move).down) < sum(view.down)


def _empty_columns(spec: GameSpec, state: State) -> int:
    return sum(
        1 for p, pile in zip(spec.piles, state.piles, strict=True)
        if p.kind is PileKind.COLUMN and not pile
    )  # fmt: skip


def _walk(
    spec: GameSpec,
    view: State,
    *,
    depth: int,
    cap: int,
    avoid: Collection[State] = (),
    closed: Callable[[Move], bool] = lambda head: False,
    leaf: Callable[[State], bool] = lambda state: False,
) -> Iterator[tuple[int, Move, State]]:
    """The breadth-first walk over the player's view shared by :func:`openings` and
    :func:`lookahead`: every position first reached by a line of at most ``depth`` moves
    of face-up cards (no stock click, no position in ``avoid``, none twice), as
    ``(line length, the line's first move, position)``. The moves of face-up cards do
    not depend on the hidden ones, so nothing hidden is read. A position is not walked
    on from when its first move is ``closed`` (checked again after it is yielded, so the
    caller may close it then), when it is a ``leaf``, or once ``cap`` positions are seen."""
    seen = {view}
    frontier: list[tuple[State, Move | None]] = [(view, None)]
    for level in range(1, depth + 1):
        nxt: list[tuple[State, Move | None]] = []
        for state, first in frontier:
            for m in core.legal_moves(spec, state):
                if m.dst is None:
                    continue
                head = m if first is None else first
                if closed(head):
                    continue
                after = core.apply(spec, state, m)
                if after in seen or after in avoid:
                    continue
                seen.add(after)
                yield level, head, after
                if not closed(head) and not leaf(after) and len(seen) < cap:
                    nxt.append((after, head))
        frontier = nxt
        if not frontier:
            break


def openings(
    spec: GameSpec,
    view: State,
    *,
    depth: int = 3,
    cap: int = 600,
    avoid: Collection[State] = (),
) -> dict[Move, int]:
    """The expert's test before dealing the stock: the first moves of the lines of at most
    ``depth`` visible moves (no stock click, no position in ``avoid``) that turn a
    face-down card up or empty a column, each with its shortest line's length. A
    breadth-first search over the player's view (``cap`` positions at most): the moves of
    face-up cards do not depend on the hidden ones, so no sample is needed and nothing
    hidden is read."""
    down, empty = sum(view.down), _empty_columns(spec, view)
    found: dict[Move, int] = {}
    for level, head, after in _walk(
        spec, view, depth=depth, cap=cap, avoid=avoid, closed=found.__contains__
    ):
        if sum(after.down) < down or _empty_columns(spec, after) > empty:
            found[head] = level
    return found


def choose(
    spec: GameSpec,
    view: State,
    t: Tally,
    *,
    guard: bool = True,
    avoid: Collection[State] = (),
    patient: bool = False,
    cautious: bool = False,
    safe: bool = False,
    lean: bool = False,
    defer: bool = False,
    reveal: float = 0.0,
) -> Move | None:
    """The move to play (see :func:`_choose`; with ``defer``, :func:`deferred`; with
    ``reveal``, :func:`revealing`). With ``patient`` (the expert's stock rule), the stock
    is not dealt while visible moves can still turn a card up or empty a column
    (:func:`openings`): the first move of such a line is played instead, the best-scored
    one, then the shortest line. With ``lean``, when no sample is won, the first move most
    undecided searches' best lines start with (:attr:`Tally.leans`)."""
    move = _choose(spec, view, t, guard=guard, avoid=avoid, cautious=cautious, safe=safe)
    if defer and move is not None and guard:
        move = deferred(spec, view, t, move, avoid)
    if reveal and move is not None and guard:
        move = revealing(spec, view, t, move, reveal, avoid)
    if move is None and lean and not t.won:
        # No sample won: where most undecided searches were heading.
        move = next((m for m, _ in t.leans if core.apply(spec, view, m) not in avoid), None)
    if not patient or move is None or move.dst is not None:
        return move
    lines = openings(spec, view, avoid=avoid)
    if not lines:
        return move
    scores = dict(t.scores)
    votes = dict(t.votes)
    return min(
        lines,
        key=lambda m: (-scores.get(m, 0), lines[m], -votes.get(m, 0), m.to_str()),
    )


def _choose(
    spec: GameSpec,
    view: State,
    t: Tally,
    *,
    guard: bool = True,
    avoid: Collection[State] = (),
    cautious: bool = False,
    safe: bool = False,
) -> Move | None:
    """The move to play, never one back to a position in ``avoid`` (already played).

    Without ``guard``: the first move of the most samples' found wins (ties: notation
    order). With it: the candidate after which a win is found in the most samples (with
    the tie-break, :attr:`Tally.ties`, the samples and the further samples together); ties
    go to a move that turns a card up, then to any move but the stock (dealing commits
    every column to cards each sample "knows"; waiting keeps the options open), then to
    the most votes. With ``safe``: among the candidates won in at least half as many
    samples as the best, the one after which the fewest samples are proven lost (a
    search that runs out of nodes says nothing; one that proves a loss, typically after
    a card turned up that blocks the game, does), then as before."""
    votes = dict(t.votes)
    if guard and t.scores:
        scored = [(m, n) for m, n in t.scores if n and core.apply(spec, view, m) not in avoid]
        if scored:
            risk = dict(t.risks) if safe else {}
            ties = dict(t.ties)
            best = max(n for _, n in scored)
            if safe:
                scored = [(m, n) for m, n in scored if 2 * n >= best]
            return min(
                scored,
                key=lambda e: (
                    risk.get(e[0], 0),
                    -e[1] - ties.get(e[0], 0),
                    reveals(spec, view, e[0]) == cautious,
                    e[0].dst is None,
                    -votes.get(e[0], 0),
                    e[0].to_str(),
                ),
            )[0]
    ordered = [(m, n) for m, n in t.votes if core.apply(spec, view, m) not in avoid]
    return ordered[0][0] if ordered else None


def spider_score(spec: GameSpec, view: State) -> int:
    """How far a Spider position looks from a win, from what the player sees (lower is
    better): every face-down card weighs most (turning one up is what the player cannot
    plan for), then every place in a face-up stretch where two cards do not follow in
    suit (less when they follow in rank); an empty column and a completed run are bonuses.
    Only face-up cards are read."""
    score = -DONE_BONUS * (core.cards_on_foundations(spec, view) // 13)
    for p, pile, down in zip(spec.piles, view.piles, view.down, strict=True):
        if p.kind is not PileKind.COLUMN:
            continue
        if not pile:
            score -= EMPTY_BONUS
            continue
        score += DOWN_COST * down
        for j in range(max(down, 0) + 1, len(pile)):
            gap = pile[j - 1] - pile[j]
            if gap != 4:
                score += 3 if (pile[j - 1] >> 2) - (pile[j] >> 2) == 1 else 4
    return score


DOWN_COST = abi.VIEW_DOWN
EMPTY_BONUS = abi.VIEW_EMPTY
DONE_BONUS = abi.VIEW_DONE

TIDY = 4
"""How many tidying moves (:func:`tidy_moves`) the guard scores with ``defer``."""


def tidy_moves(spec: GameSpec, view: State) -> list[Move]:
    """Spider's tidying moves in the player's view: moves of face-up cards that turn
    nothing up and lower :func:`spider_score` (a build in suit, a column emptied, a run
    completed), best first (lowest score after, then notation order); at most
    :data:`TIDY`. Only face-up cards are read."""
    now = spider_score(spec, view)
    found = []
    for m in core.legal_moves(spec, view):
        if m.dst is None or reveals(spec, view, m):
            continue
        after = spider_score(spec, core.apply(spec, view, m))
        if after < now:
            found.append((after, m.to_str(), m))
    return [m for _, _, m in sorted(found)[:TIDY]]


def revealing(
    spec: GameSpec,
    view: State,
    t: Tally,
    move: Move,
    share: float,
    avoid: Collection[State] = (),
) -> Move:
    """Reveal first (``reveal``, the opposite of :func:`deferred`): when ``move`` turns
    nothing up (the stock included), the best-scored move that turns a card up is played
    instead if it is won in at least ``share`` of the samples ``move`` is won in. A move
    that reveals nothing is rated by samples that each turn up next the card they know
    is best (strategy fusion), a reveal by its expectation over the card that comes up;
    the share offsets that bias. Ties: notation order. ``move`` itself when no reveal qualifies."""
    scores = dict(t.scores)
    if reveals(spec, view, move) or move not in scores:
        return move
    need = share * scores[move]
    found = [
        (-n, m.to_str(), m)
        for m, n in t.scores
        if n > 0 and n >= need and m.dst is not None and reveals(spec, view, m)
        and core.apply(spec, view, m) not in avoid
    ]  # fmt: skip
    return min(found)[2] if found else move


def deferred(
    spec: GameSpec, view: State, t: Tally, move: Move, avoid: Collection[State] = ()
) -> Move:
    """Reveal last (``defer``, issue 34's "a reveal valued by its expectation"): when
    ``move`` turns a card up, a tidying move (:func:`tidy_moves`) is played first if
    the samples won after it are at least as many as after ``move``, and ``move`` can
    still be played after it (the same card turned up by the same move: no progress lost
    by waiting). A reveal's score is its expectation over the cards that can come up (each
    sample turns up its own card); a tidying move's is at least as high for every sample
    (strategy fusion: each sample then turns up the card it knows is best), so the
    tidying moves must also lower the visible score, and waiting ends: the face-down
    cards are the same while :func:`spider_score` falls. Of several, the one that lowers
    it most (then the most samples won, then notation order); ``move`` itself when none
    qualifies or it turns nothing up."""
    if move.dst is None or not reveals(spec, view, move):
        return move
    scores = dict(t.scores)
    need = scores.get(move, 0)
    best: tuple[int, int, str, Move] | None = None
    for m in tidy_moves(spec, view):
        n = scores.get(m)
        if n is None or n < need:
            continue
        after = core.apply(spec, view, m)
        if after in avoid or move not in core.legal_moves(spec, after):
            continue
        key = (spider_score(spec, after), -n, m.to_str(), m)
        if best is None or key[:3] < best[:3]:
            best = key
    return move if best is None else best[3]


def lookahead(
    spec: GameSpec,
    view: State,
    *,
    depth: int = 3,
    cap: int = 300,
    avoid: Collection[State] = (),
) -> Move | None:
    """The visible planner for Spider (no sample needed, nothing hidden read): the first
    move of the shortest line of at most ``depth`` moves of face-up cards (no stock, no
    position in ``avoid``) that reaches the best :func:`spider_score`, when that is better
    than now; None when no such line improves the position (deal, or give up)."""
    now, down = spider_score(spec, view), sum(view.down)
    best: tuple[int, int, str, Move] | None = None
    for level, head, after in _walk(
        spec,
        view,
        depth=depth,
        cap=cap,
        avoid=avoid,
        leaf=lambda s: sum(s.down) < down,  # a card turned up: what follows depends on it
    ):
        score = spider_score(spec, after)
        key = (score, level, head.to_str(), head)
        if score < now and (best is None or key[:3] < best[:3]):
            best = key
    return None if best is None else best[3]
