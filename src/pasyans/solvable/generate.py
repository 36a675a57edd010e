"""Solvable deals, made from the game, its options, the deal number and a difficulty.

Every game draws **candidate layouts** from the deal number's own SplitMix64 stream:

- Spine: the nearest winnable layout to a random shuffle (:mod:`pasyans.solvable.nearby`);
  the first shuffle is the deal's own random one.
- Nivernais (hidden cards only in the stock, columns never fed by the player): shuffles
  (the deal's own first) that the forward player of :mod:`forward` wins, its line
  replayed through the engine (version 2 chose the stock's cards as they came out,
  leaning towards the cards the foundations wanted).
- Spider and Backbone: shuffles (the deal's own first) that the solver proves won within
  :data:`SOLVABLE_NODES`.

A candidate is kept only when its winning line replays through the engine (Spine,
Nivernais) or the solver proves it won (Spine, Spider, Backbone), and it is not trivial:
no autocollect before the first move and not won by the simple player
(:func:`pasyans.solvable.difficulty.is_trivial`).

**Difficulty** (versions 4 to 6; 5 plays stronger felt players where version 4's did not
separate the bands; 6 picks some games' medium by the midpoint). The first
:data:`BAND_CANDIDATES` kept candidates of a deal number are ranked by how often the
game's no-peek *felt player* wins them
(:func:`pasyans.solvable.felt.measure`: the win rate of its playouts, then how far its lost
games got; ties by order in the stream): ``easy`` gets the one it wins most, ``hard`` the
one it wins least, ``medium`` the middle one. Bands are order statistics of five draws from
the game's own solvable deals: no threshold fitted to a deal range, and each band's measure
is at most the next one's on every deal number. Version 6, for :data:`MIDPOINT_GAMES`
(Backbone classic, four Spine option sets): :data:`MIDPOINT_CANDIDATES` candidates are
ranked, easy and hard are the first and last, and medium is the one whose measure is
nearest the midpoint of theirs, so that it sits halfway in win rate rather than halfway
in rank (where the felt player wins few candidates, the middle one of five is mostly one
it never wins, like hard).
Versions 2 and 3 ranked
:data:`BAND_CANDIDATES_V3` candidates by the randomised simple player's progress
(:func:`pasyans.solvable.difficulty.measure`).

The same game, options, number and difficulty give the same layout on every machine
within one :data:`GENERATOR_VERSION`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache

from pasyans import caches
from pasyans.cards import SplitMix64, shuffled
from pasyans.domains import spider
from pasyans.engine.core import check_deal_number, deck_for
from pasyans.engine.moves import Move
from pasyans.errors import IllegalMoveError, OptionError, PasyansError
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.spec import GameSpec, PileKind
from pasyans.solvable import felt, forward, nearby
from pasyans.solvable.difficulty import is_trivial, measure
from pasyans.solver.search import solve

GENERATOR_VERSION = 6
"""Bumped whenever the same (game, options, deal, difficulty) could give another layout.
1: Spine's backward walk, the first solvable candidate, no difficulty
(``benchmarks/legacy/generate_v1.py``). 2: this module, Nivernais' stock chosen as it comes
out (leaning). 3: Nivernais from real shuffles. 4: bands by the felt player's win rate among five
candidates (:mod:`pasyans.solvable.felt`). 5: the same with a stronger felt player, the
search player, for Spine with single-card moves and for Backbone. 6: the medium of
Backbone classic and four Spine option sets by the midpoint among eight candidates
(:data:`MIDPOINT_GAMES`); every other game as version 5. Every version stays
reproducible: :func:`make_solvable` takes ``generator``."""

GENERATORS: tuple[int, ...] = (2, 3, 4, 5, 6)
"""The versions this code makes. Version 1 is out of the package
(``benchmarks/legacy/generate_v1.py``): its deals live on in the games that stored them."""

DIFFICULTIES: tuple[str, ...] = ("easy", "medium", "hard")
DEFAULT_DIFFICULTY = "medium"

BAND_CANDIDATES = 5
"""Kept candidates ranked per deal number (version 4): the first, middle and last by the
felt measure are the three difficulties."""

MIDPOINT_CANDIDATES = 8
"""Kept candidates ranked per deal number of a :data:`MIDPOINT_GAMES` game (version 6)."""

MIDPOINT_GAMES: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("backbone-classic", ()),
    ("spine", (("empty", "any"), ("runs", "single"), ("spine", "40"))),
    ("spine", (("empty", "any"), ("runs", "single"), ("spine", "24"))),
    ("spine", (("empty", "kings"), ("runs", "suit"), ("spine", "24"))),
    ("spine", (("empty", "any"), ("runs", "suit"), ("spine", "56"))),
)
"""Games and option sets (sorted) whose medium band is, from version 6, the candidate
nearest the midpoint of easy's and hard's measures (:func:`_picks`) among
:data:`MIDPOINT_CANDIDATES`: Backbone classic, where the search player wins a number's
middle-ranked candidate of five too rarely for medium to stand 0.1 from hard, and the
Spine option sets whose version 5 bands the second player (the hurried searcher) did not
tell 0.1 apart, or (suit runs, a 56-card spine, any card on an empty column; version 6
ranks it by the search player, :func:`pasyans.solvable.felt.searched`) no player told
apart (docs/notes/2026-12-04-bands.md)."""

BAND_CANDIDATES_V3 = 3
"""Kept candidates ranked per deal number by versions 2 and 3, one per difficulty."""

SPINE_VERIFY_NODES = 20_000
"""Node budget of the exact search that must also prove a Spine candidate won."""

SOLVABLE_NODES = 10_000
"""Node budget per candidate shuffle of Spider and Backbone (about a second)."""

MAX_ATTEMPTS = 200
"""Candidates drawn per deal number before giving up with :class:`GenerationError`."""

SHUFFLE_ATTEMPTS = 60
"""The same for the solver-checked shuffles (each may cost a full node budget)."""


@dataclass(frozen=True)
class Kept:
    """A kept candidate: the layout and a winning line that replays through the engine
    (the solver's, or for Nivernais the forward player's)."""

    state: State
    line: tuple[Move, ...]


class GenerationError(PasyansError):
    """No solvable layout was found for a deal number within the attempts allowed."""

    code = "no_solvable_deal"


@dataclass(frozen=True)
class SolvableDeal:
    """A solvable layout and how it was made."""

    state: State
    difficulty: str
    measure: float
    generator: int = GENERATOR_VERSION


def check_difficulty(difficulty: str | None) -> str:
    """``difficulty`` (``None`` is the default), or :class:`OptionError`."""
    d = DEFAULT_DIFFICULTY if difficulty is None else difficulty
    if d not in DIFFICULTIES:
        names = ", ".join(DIFFICULTIES)
        raise OptionError(f"difficulty {str(d)[:20]!r} is not available ({names})")
    return d


def check_generator(generator: int) -> int:
    """``generator`` if it is a version this code can make, or :class:`OptionError`."""
    if generator == 1:
        raise OptionError(
            "generator version 1 is retired (benchmarks/legacy/generate_v1.py); a game it"
            " dealt keeps its stored layout"
        )
    if generator not in GENERATORS:
        raise OptionError(
            f"generator version {str(generator)[:10]!r} is not available"
            f" ({', '.join(map(str, GENERATORS))})"
        )
    return generator


def make_solvable(
    game_id: str,
    options: Mapping[str, object] | None,
    deal: int,
    difficulty: str | None = DEFAULT_DIFFICULTY,
    generator: int = GENERATOR_VERSION,
) -> SolvableDeal:
    """The solvable deal of this game, options, number and difficulty (pure, may take
    seconds; see the module docstring), as generator version ``generator`` made it
    (:data:`GENERATORS`)."""
    band = check_difficulty(difficulty)
    spec = get_game(game_id, options)
    check_generator(generator)
    return bands(spec, deal, generator)[band]


def bands(spec: GameSpec, deal: int, generator: int = GENERATOR_VERSION) -> dict[str, SolvableDeal]:
    """The solvable deal of every difficulty for ``deal`` (one ranking for all three;
    the last few rankings are kept, so the three bands of a number cost one search).
    ``generator``: 2 or later (see :func:`make_solvable`)."""
    check_deal_number(deal)
    check_generator(generator)
    return dict(_bands(spec.id, tuple(sorted(spec.option_values.items())), deal, generator))


@lru_cache(maxsize=32)
def _bands(
    game_id: str, options: tuple[tuple[str, str], ...], deal: int, generator: int
) -> tuple[tuple[str, SolvableDeal], ...]:
    spec = get_game(game_id, dict(options))
    midpoint = generator >= 6 and (game_id, options) in MIDPOINT_GAMES
    wanted = (
        MIDPOINT_CANDIDATES
        if midpoint
        else BAND_CANDIDATES
        if generator >= 4
        else BAND_CANDIDATES_V3
    )
    ranked: list[tuple[float, int, State]] = []
    for n, kept in enumerate(candidates(spec, deal, generator)):
        m = (
            felt.measure(spec, kept.state, generator=generator).measure
            if generator >= 4
            else measure(spec, kept.state).measure
        )
        ranked.append((m, n, kept.state))
        if len(ranked) == wanted:
            break
    ranked.sort(key=lambda r: (r[0], r[1]))
    out = []
    picks = _picks([r[0] for r in ranked], generator, midpoint=midpoint)
    for band, i in zip(DIFFICULTIES, picks, strict=True):
        pick = ranked[i]
        out.append((band, SolvableDeal(pick[2], band, pick[0], generator)))
    return tuple(out)


def _picks(
    measures: list[float], generator: int, *, midpoint: bool = False
) -> tuple[int, int, int]:
    """Which of the ranked candidates (their ``measures``, sorted, ties in stream order) are
    easy, medium and hard: the first, middle and last (version 4 on), or the first three
    (versions 2 and 3; the last again when fewer). With ``midpoint`` (version 6's
    :data:`MIDPOINT_GAMES`), medium is the candidate between the first and the last whose
    measure is nearest the mean of theirs (the first such when two are as near)."""
    n = len(measures)
    if generator < 4:
        return 0, min(1, n - 1), min(2, n - 1)
    if not midpoint or n < 3:
        return 0, (n - 1) // 2, n - 1
    target = (measures[0] + measures[-1]) / 2
    medium = min(range(1, n - 1), key=lambda i: abs(measures[i] - target))
    return 0, medium, n - 1


caches.register("solvable.bands", _bands, bound=32, memory=False)


def candidates(spec: GameSpec, deal: int, generator: int = GENERATOR_VERSION) -> Iterator[Kept]:
    """The kept candidates of ``deal``, in the stream's order (generator version 2 or
    later); raises :class:`GenerationError` when the attempts run out before the first."""
    check_deal_number(deal)
    if spec.has_pile("spine") and spec.piles[spec.index["spine"]].kind is PileKind.SPINE:
        raw = _spine_candidates(spec, deal)
    elif forward.supports(spec, spec.deal(spec, deck_for(spec)).freeze()):
        raw = _forward_candidates(spec, deal) if generator == 2 else _played_shuffles(spec, deal)
    else:
        raw = _shuffle_candidates(spec, deal, SOLVABLE_NODES)
    found = False
    for kept in raw:
        if not is_trivial(spec, kept.state):
            found = True
            yield kept
    if not found:
        raise GenerationError(f"no solvable {spec.id} layout found for deal {deal}")


def _seeds(deal: int, attempts: int) -> Iterator[int]:
    """The deal number itself (its own shuffle), then its SplitMix64 stream."""
    yield deal
    stream = SplitMix64(deal)
    for _ in range(attempts - 1):
        yield stream.next()


def _spine_candidates(spec: GameSpec, deal: int) -> Iterator[Kept]:
    for seed in _seeds(deal, MAX_ATTEMPTS):
        made = nearby.nearest_winnable(spec, seed)
        if made is None or not _line_wins(spec, made.state, made):
            continue
        proof = solve(spec, made.state, nodes=SPINE_VERIFY_NODES)
        if proof.result == "won":
            yield Kept(made.state, proof.moves)


def _line_wins(spec: GameSpec, state: State, made: nearby.Made) -> bool:
    try:
        return forward.replays_to_a_win(spec, state, list(made.line))
    except IllegalMoveError:  # pragma: no cover - a generator bug
        return False


def _forward_candidates(spec: GameSpec, deal: int) -> Iterator[Kept]:
    stream = SplitMix64(deal)
    for _ in range(forward.ATTEMPTS):
        made = forward.play_and_deal(spec, stream.next())
        if made is not None and forward.replays_to_a_win(spec, *made):
            yield Kept(made[0], tuple(made[1]))


def _played_shuffles(spec: GameSpec, deal: int) -> Iterator[Kept]:
    """Shuffles (the deal's own first) that the forward player wins (version 3)."""
    deck = deck_for(spec)
    for seed in _seeds(deal, forward.SHUFFLE_ATTEMPTS):
        state = spec.deal(spec, shuffled(deck, seed)).freeze()
        line = forward.play_layout(spec, state, seed)
        if line is not None and forward.replays_to_a_win(spec, state, line):
            yield Kept(state, tuple(line))


def _shuffle_candidates(spec: GameSpec, deal: int, nodes: int) -> Iterator[Kept]:
    deck = deck_for(spec)
    for seed in _seeds(deal, SHUFFLE_ATTEMPTS):
        state = spec.deal(spec, shuffled(deck, seed)).freeze()
        proof = proves_won(spec, state, seed, nodes)
        if proof is not None:
            yield Kept(state, proof)


def proves_won(spec: GameSpec, state: State, seed: int, nodes: int) -> tuple[Move, ...] | None:
    """The exact search's winning line for the shuffle ``seed`` of ``spec`` (``state``)
    within ``nodes``, or None. The last answers are kept: generator version 1 and the later
    ones try the same shuffles, so a benchmark that makes both pays for each search once."""
    return _proves(spec.id, tuple(sorted(spec.option_values.items())), seed, nodes, state)


@lru_cache(maxsize=256)
def _proves(
    game_id: str, options: tuple[tuple[str, str], ...], seed: int, nodes: int, state: State
) -> tuple[Move, ...] | None:
    # Spider by its first weights (spider.V1): versions 2-4's shuffles stay the ones they
    # proved won (docs/interfaces.md).
    proof = solve(get_game(game_id, dict(options)), state, nodes=nodes, spider_weights=spider.V1)
    return proof.moves if proof.result == "won" else None


caches.register("solvable.proves", _proves, bound=256, memory=False)


def solvable_layout(spec: GameSpec, deal: int, difficulty: str = DEFAULT_DIFFICULTY) -> State:
    """The solvable layout of ``deal`` for a spec (see :func:`make_solvable`)."""
    return make_solvable(spec.id, spec.option_values, deal, difficulty).state


def solvable_spine(spec: GameSpec, deal: int) -> State:
    """Spine's first kept candidate for ``deal`` (no difficulty ranking)."""
    return next(candidates(spec, deal)).state


def solvable_shuffle(spec: GameSpec, deal: int, nodes: int = SOLVABLE_NODES) -> State:
    """The first candidate shuffle for ``deal`` that the solver proves won within ``nodes``
    (the deal's own shuffle first), trivial or not."""
    check_deal_number(deal)
    for kept in _shuffle_candidates(spec, deal, nodes):
        return kept.state
    raise GenerationError(f"no solvable {spec.id} layout found for deal {deal}")
