"""Spider's exhaustive loss prover (csrc/spiderproof.c, the post-game analysis's) against
the staged search without pruning, whose exhaustion proves a loss: on small layouts both
decide every position, and they must agree, also when the prover's table of positions
proven lost is kept from position to position along a game and filled by searches cut
short by a tiny budget."""

from __future__ import annotations

import random

import pytest

from pasyans.domains import spider

core = spider.compiled
Stock = tuple[int, ...]
Pos = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], int, int]

WIDTH = 5


def small_game(seed: int) -> tuple[Stock, Pos, int]:
    """A small Spider layout: two or three suits of 13 cards (won when that many cards are
    in completed runs), five columns with up to two cards face down each and a stock of
    0 to 2 deals."""
    rng = random.Random(seed)
    suits = rng.choice([(0, 1), (0, 0), (0, 1, 2)])
    cards = [rank * 4 + suit for suit in suits for rank in range(13)]
    rng.shuffle(cards)
    deals = rng.randrange(3)
    stock, table = cards[: WIDTH * deals], cards[WIDTH * deals :]
    cols: list[tuple[int, ...]] = [() for _ in range(WIDTH)]
    for i, c in enumerate(table):
        cols[i % WIDTH] += (c,)
    down = tuple(min(len(col) - 1, rng.randrange(3)) if col else 0 for col in cols)
    return tuple(stock), (tuple(cols), down, len(stock), 0), 13 * len(suits)


def exhaustive(stock: Stock, pos: Pos, won: int) -> str:
    r = core.spider_search(stock, pos, won, 0, 0.0, spider.MEMORY, False)
    assert r["status"] in ("won", "exhausted")
    return str(r["status"])


def playout(stock: Stock, pos: Pos, seed: int, moves: int) -> list[Pos]:
    """Positions along random legal moves from ``pos``."""
    rng = random.Random(seed)
    line = [pos]
    for _ in range(moves):
        steps = core.spider_steps(stock, line[-1])
        if not steps:
            break
        line.append(core.spider_play(stock, line[-1], rng.choice(steps)))
    return line


def replay(stock: Stock, pos: Pos, won: int, line: list[tuple[int, int, int]]) -> bool:
    for st in line:
        assert st in core.spider_steps(stock, pos)
        pos = core.spider_play(stock, pos, st)
    return pos[3] == won


@pytest.mark.parametrize("seed", range(40))
def test_the_prover_agrees_with_the_exhaustive_staged_search(seed: int) -> None:
    stock, pos, won = small_game(seed)
    r = core.spider_prove(stock, pos, won, 0, 0.0, spider.MEMORY, core.spider_table())
    assert r["status"] == exhaustive(stock, pos, won)
    if r["status"] == "won":
        assert replay(stock, pos, won, [tuple(s) for s in r["line"]])


def test_both_outcomes_occur() -> None:
    """The layouts above are not all won or all lost (else the test above proves little)."""
    seen = {exhaustive(*small_game(seed)) for seed in range(40)}
    assert seen == {"won", "exhausted"}


@pytest.mark.parametrize("seed", range(12))
def test_a_kept_table_proves_nothing_wrong(seed: int) -> None:
    """Along a random game, later positions first (as the analysis does), with one table
    filled by searches cut short (20 positions, then twice as many each time): every
    answer matches a fresh exhaustive search, and a position said lost is lost."""
    stock, start, won = small_game(100 + seed)
    line = playout(stock, start, seed, 40)
    table = core.spider_table()
    for pos in reversed(line):
        if pos[3] == won:
            continue
        truth = exhaustive(stock, pos, won)
        for i in range(30):
            r = core.spider_prove(stock, pos, won, 20 << i, 0.0, spider.MEMORY, table)
            if r["status"] != "unknown":
                break
        assert r["status"] == truth


def test_a_table_belongs_to_one_game() -> None:
    """A later position's stock (its first cards) shares the table; another does not."""
    stock, pos, won = next(g for g in map(small_game, range(100)) if len(g[0]) == 2 * WIDTH)
    table = core.spider_table()
    core.spider_prove(stock, pos, won, 100, 0.0, spider.MEMORY, table)
    dealt = core.spider_play(stock, pos, (-1, -1, 0))
    core.spider_prove(stock[:WIDTH], dealt, won, 100, 0.0, spider.MEMORY, table)
    other = ((stock[0] + 4) % 52, *stock[1:])
    with pytest.raises(ValueError, match="another game"):
        core.spider_prove(other, pos, won, 100, 0.0, spider.MEMORY, table)


WON_LAYOUTS = [seed for seed in range(300) if exhaustive(*small_game(seed)) == "won"]


def test_every_position_in_the_table_is_lost() -> None:
    """Searches of a won layout cut short (5 positions, then twice as many each time) until
    it is decided leave positions in the table; each position met along random games
    from the layout that the table holds (a search of it answers lost at once) is lost.
    (From a lost layout every position reached is lost: only won ones can show a wrong
    entry.)"""
    assert len(WON_LAYOUTS) > 50
    held = 0
    for seed in WON_LAYOUTS:
        stock, start, won = small_game(seed)
        table = core.spider_table()
        for i in range(30):
            r = core.spider_prove(stock, start, won, 5 << i, 0.0, spider.MEMORY, table)
            if r["status"] != "unknown":
                break
        assert r["status"] == "won"
        for game in range(20):
            for pos in playout(stock, start, game, 30):
                r = core.spider_prove(stock, pos, won, 1, 0.0, spider.MEMORY, table)
                if r["status"] == "exhausted" and pos[3] != won:
                    held += 1
                    assert exhaustive(stock, pos, won) == "exhausted"
    assert held > 100


def reachable(stock: Stock, pos: Pos) -> tuple[int, int]:
    """How many positions can be reached from ``pos`` (itself included), told apart as the
    key tells them (the columns in order while the stock deals by place, as a multiset of
    columns once it is empty), and the most cards in completed runs among them."""

    def key(p: Pos) -> object:
        cols = tuple(zip(p[0], p[1], strict=True))
        return (tuple(sorted(cols)) if not p[2] else cols), p[2], p[3]

    seen = {key(pos)}
    todo = [pos]
    done = pos[3]
    while todo:
        p = todo.pop()
        for st in core.spider_steps(stock, p):
            q = core.spider_play(stock, p, st)
            k = key(q)
            if k not in seen:
                seen.add(k)
                todo.append(q)
                done = max(done, q[3])
    return len(seen), done


def test_an_exhausted_search_reaches_each_position_once() -> None:
    """An exhausted search reaches every position exactly once: the prover's count equals
    the reachable positions counted here. Each move's key is worked out from the two
    columns it changes (a run completing and leaving, a card turned up), so a key that
    differs from the position's own (sp_hash) would count a position twice. The target is
    one run more than the layout holds, so no search wins and runs complete on the way."""
    sizes = []
    completed = 0
    for seed in range(200):
        stock, pos, won = small_game(seed)
        r = core.spider_prove(stock, pos, won + 13, 50_000, 0.0, spider.MEMORY, core.spider_table())
        if r["status"] != "exhausted":
            continue  # over the budget: too many to count here
        count, done = reachable(stock, pos)
        assert r["positions"] == count, seed
        sizes.append(count)
        completed += done > 0
    assert len(sizes) >= 20 and max(sizes) >= 1000 and completed >= 5, (sizes, completed)
