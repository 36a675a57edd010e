"""Reveal last (``Budget.defer``, issue 34): before a move that turns a card up, a
tidying move of face-up cards is played when the samples rate it no lower and the reveal
stays playable after it; and its opposite, reveal first (``Budget.reveal``)."""

from __future__ import annotations

from hidden_cards import same_hint

from pasyans import caches
from pasyans.cards import SplitMix64
from pasyans.engine.core import apply, initial_state, legal_moves
from pasyans.engine.moves import Move
from pasyans.hints import Budget, sampling
from pasyans.hints.follow import follow
from pasyans.hints.sampling import known, samples
from pasyans.position import State
from pasyans.rules import get_game

SPEC = get_game("spider", {"suits": "2"})


def _position() -> tuple[State, Move, Move]:
    """A 2-suit position (a seeded random walk from deal 1) with a move that turns a card
    up and a tidying move after which that move is still legal."""
    for deal in range(1, 20):
        state = initial_state(SPEC, deal)
        rng = SplitMix64(deal)
        for _ in range(40):
            view = known(SPEC, state)
            for m in legal_moves(SPEC, view):
                if m.dst is None or not sampling.reveals(SPEC, view, m):
                    continue
                for n in sampling.tidy_moves(SPEC, view):
                    if m in legal_moves(SPEC, apply(SPEC, view, n)):
                        return state, m, n
            moves = legal_moves(SPEC, state)
            state = apply(SPEC, state, moves[rng.next() % len(moves)])
    raise AssertionError("no position with a reveal and a tidying move")


def test_tidying_moves_turn_nothing_up_and_lower_the_visible_score() -> None:
    state, _, _ = _position()
    view = known(SPEC, state)
    tidy = sampling.tidy_moves(SPEC, view)
    assert tidy and len(tidy) <= sampling.TIDY
    now = sampling.spider_score(SPEC, view)
    for m in tidy:
        after = apply(SPEC, view, m)
        assert m.dst is not None and not sampling.reveals(SPEC, view, m)
        assert sampling.spider_score(SPEC, after) < now


def test_a_reveal_waits_for_a_tidying_move_rated_as_high() -> None:
    state, reveal, tidy = _position()
    view = known(SPEC, state)
    tied = sampling.Tally(4, 0, 0, ((reveal, 4),), ((reveal, 4), (tidy, 4)))
    assert sampling.choose(SPEC, view, tied) == reveal  # today: ties turn a card up
    assert sampling.choose(SPEC, view, tied, defer=True) == tidy
    # Rated lower by the samples: the reveal is played.
    lower = sampling.Tally(4, 0, 0, ((reveal, 4),), ((reveal, 4), (tidy, 3)))
    assert sampling.choose(SPEC, view, lower, defer=True) == reveal
    # Never back to a position played; unscored tidying moves do not count.
    after = apply(SPEC, view, tidy)
    assert sampling.choose(SPEC, view, tied, defer=True, avoid={after}) == reveal
    alone = sampling.Tally(4, 0, 0, ((reveal, 4),), ((reveal, 4),))
    assert sampling.choose(SPEC, view, alone, defer=True) == reveal
    # A chosen move that turns nothing up is kept as it is.
    assert sampling.deferred(SPEC, view, tied, tidy) == tidy


def test_reveal_first_plays_a_reveal_rated_within_the_share() -> None:
    state, reveal, tidy = _position()
    view = known(SPEC, state)
    t = sampling.Tally(4, 0, 0, ((tidy, 4),), ((tidy, 4), (reveal, 3)))
    assert sampling.choose(SPEC, view, t) == tidy  # today: the most samples won
    assert sampling.choose(SPEC, view, t, reveal=0.75) == reveal  # 3 >= 0.75 x 4
    assert sampling.choose(SPEC, view, t, reveal=0.8) == tidy  # 3 < 0.8 x 4
    after = apply(SPEC, view, reveal)
    assert sampling.choose(SPEC, view, t, reveal=0.75, avoid={after}) == tidy
    # A chosen reveal stays.
    tied = sampling.Tally(4, 0, 0, ((reveal, 4),), ((reveal, 4), (tidy, 4)))
    assert sampling.choose(SPEC, view, tied, reveal=0.5) == reveal


def test_the_guard_scores_the_tidying_moves_in_every_won_sample() -> None:
    state, reveal, tidy = _position()
    view = known(SPEC, state)
    states = samples(SPEC, view, 4, seed=1)
    roots = set(states)
    searched: list[State] = []

    def search(s: State) -> tuple[str, Move | None]:
        searched.append(s)
        return ("won", reveal) if s in roots else ("won", None)

    t = sampling.tally(SPEC, view, states, search, tidy=lambda: [tidy])
    scores = dict(t.scores)
    assert scores[tidy] == 4 and scores[reveal] == 4
    assert {apply(SPEC, s, tidy) for s in states} <= set(searched)
    assert tidy not in dict(sampling.tally(SPEC, view, states, search).scores)


def test_the_deferred_hint_reads_only_the_players_view() -> None:
    state, _, _ = _position()
    budget = Budget(seconds=None, nodes=4000, samples=4, seed=3, defer=True)
    same_hint(SPEC, state, 7, budget)


def test_the_follower_with_reveal_last_is_reproducible() -> None:
    budget = Budget(seconds=None, nodes=2000, samples=4, seed=1, defer=True)
    caches.clear()
    a = follow("spider", {"suits": "2"}, 5, budget, max_moves=25)
    caches.clear()
    b = follow("spider", {"suits": "2"}, 5, budget, max_moves=25)
    assert (a.won, a.moves, a.hints, a.sources) == (b.won, b.moves, b.hints, b.sources)
    assert a.ended == b.ended
    assert "sampled" in dict(a.sources)
