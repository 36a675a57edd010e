"""The rules at work: legal moves (the single source of truth), apply, and position flags.

Every function takes the game's :class:`GameSpec` and a :class:`State`. ``apply`` is the
unchecked fast path (for moves that came from :func:`legal_moves`); :func:`play_checked`
validates first and raises :class:`IllegalMoveError` with a reason.

Over 400 lines because it is the one reference of the rules: legality, apply, the stock
and the smart moves read the same spec fields, and every fast domain is checked against
this one module.
"""

from __future__ import annotations

from collections.abc import Iterable

from pasyans import messages
from pasyans.cards import ACE, KING, Card, double_deck, shuffled
from pasyans.engine.collect import collect_up_down
from pasyans.engine.moves import Move
from pasyans.errors import DealNumberError, IllegalMoveError
from pasyans.position import Event, State, Table
from pasyans.rules.spec import (
    Build,
    EmptyColumn,
    Foundations,
    GameSpec,
    PileKind,
    Score,
    Stock,
)

MAX_DEAL = 2**31 - 1
"""Deals are numbered 1 … MAX_DEAL."""


def check_deal_number(deal: int) -> int:
    if isinstance(deal, bool) or not isinstance(deal, int) or not 1 <= deal <= MAX_DEAL:
        raise DealNumberError(f"a deal number is a whole number from 1 to {MAX_DEAL}")
    return deal


def deck_for(spec: GameSpec) -> list[Card]:
    return double_deck(spec.deck_suits)


def initial_state(spec: GameSpec, deal: int) -> State:
    """The layout of deal number ``deal``: the stable shuffle of the game's deck, laid out."""
    check_deal_number(deal)
    return spec.deal(spec, shuffled(deck_for(spec), deal)).freeze()


# --- Legal moves --------------------------------------------------------------------------


def _top(pile: tuple[Card, ...]) -> Card:
    return pile[-1]


def _is_rank_below(card: Card, onto: Card, same_suit: bool) -> bool:
    """``card`` is one rank lower than ``onto`` (and of its suit when ``same_suit``)."""
    if same_suit:
        return onto - card == 4
    return (onto >> 2) - (card >> 2) == 1


def foundation_accepts(spec: GameSpec, index: int, pile: tuple[Card, ...], card: Card) -> bool:
    """Whether foundation ``index`` (its own pile ``pile``) takes ``card`` now."""
    if spec.foundations is Foundations.UP:
        if not pile:
            return (card >> 2) + 1 == ACE
        return card - pile[-1] == 4
    if spec.foundations is Foundations.UP_DOWN:
        nth = spec.indexes_of(PileKind.FOUNDATION).index(index)
        going_up, fixed_suit = nth < 4, nth % 4
        if card & 3 != fixed_suit:
            return False
        if not pile:
            return (card >> 2) + 1 == (ACE if going_up else KING)
        return card - pile[-1] == (4 if going_up else -4)
    return False


def foundation_targets(
    spec: GameSpec, state: State, only: int | None = None
) -> dict[Card, list[int]]:
    """Every card some foundation (or foundation ``only``) takes now, mapped to those
    foundations left to right (the same answers as :func:`foundation_accepts`, computed
    once per position)."""
    out: dict[Card, list[int]] = {}
    for nth, f in enumerate(spec.indexes_of(PileKind.FOUNDATION)):
        if only is not None and f != only:
            continue
        pile = state.piles[f]
        top = pile[-1] if pile else -1
        wanted: tuple[Card, ...] = ()
        if spec.foundations is Foundations.UP:
            wanted = (0, 1, 2, 3) if not pile else (top + 4,) if top < 48 else ()
        elif spec.foundations is Foundations.UP_DOWN:
            first = nth % 4 if nth < 4 else 48 + nth % 4  # the Ace or the King of its suit
            if not pile:
                wanted = (first,)
            elif nth < 4:
                wanted = (top + 4,) if top < 48 else ()
            else:
                wanted = (top - 4,) if top >= 4 else ()
        for card in wanted:
            out.setdefault(card, []).append(f)
    return out


def _movable_counts(spec: GameSpec, state: State, i: int) -> range:
    """How many cards may leave pile ``i`` as one unit: 1, or 1..k for a same-suit run."""
    pile = state.piles[i]
    free = len(pile) - state.down[i]
    if free <= 0:
        return range(0)
    if not spec.runs_move or spec.piles[i].kind is not PileKind.COLUMN:
        return range(1, 2)
    k = 1
    while k < free and pile[-k - 1] - pile[-k] == 4:
        k += 1
    return range(1, k + 1)


def _source_indexes(spec: GameSpec, state: State, among: Iterable[int] | None = None) -> list[int]:
    """The piles (of ``among``, default all) a card may leave now: not the stock or done
    pile, not empty, not locked by a pile still holding cards."""
    out = []
    for i in range(len(spec.piles)) if among is None else among:
        p = spec.piles[i]
        if p.kind in (PileKind.STOCK, PileKind.DONE) or not state.piles[i]:
            continue
        if p.locked_by is not None and state.piles[spec.pile_index(p.locked_by)]:
            continue
        out.append(i)
    return out


def column_accepts(
    spec: GameSpec, state: State, dst: int, src_kind: PileKind, lowest: Card
) -> bool:
    """Whether column ``dst`` takes a unit whose lowest card is ``lowest`` from ``src_kind``."""
    if src_kind not in spec.feeds.get(PileKind.COLUMN, frozenset()):
        return False
    pile = state.piles[dst]
    if pile:
        if spec.column_build is Build.NONE:
            return False
        return _is_rank_below(lowest, pile[-1], spec.column_build is Build.DOWN_SUIT)
    if src_kind in spec.empty_column_refuses:
        return False
    if spec.empty_column is EmptyColumn.ANY:
        return True
    if spec.empty_column is EmptyColumn.KINGS:
        return (lowest >> 2) + 1 == KING
    return False


def legal_moves(spec: GameSpec, state: State) -> list[Move]:
    """Every legal move, in a stable order: by source pile, then foundations, columns,
    reserve cells; the stock click last. Nothing else decides legality (:func:`is_legal`
    runs the same generator for one source pile). A won game offers none (in Backbone a
    foundation card could otherwise leave and un-win it)."""
    return _generate(spec, state, _source_indexes(spec, state), stock=True)


def is_legal(spec: GameSpec, state: State, move: Move) -> bool:
    """``move in legal_moves(spec, state)``, decided by generating only the moves from the
    move's source pile to its destination (the stock click: by :func:`stock_action`)."""
    if move.dst is None:
        return move == Move.stock() and stock_action(spec, state) is not None
    i, j = spec.index.get(move.src), spec.index.get(move.dst)
    if i is None or j is None or not _source_indexes(spec, state, (i,)):
        return False
    return move in _generate(spec, state, (i,), stock=False, dst=j)


def _generate(
    spec: GameSpec,
    state: State,
    sources: Iterable[int],
    *,
    stock: bool,
    dst: int | None = None,
) -> list[Move]:
    """The legal moves whose source pile is one of ``sources`` (each a pile a card may
    leave, in order) and, when ``dst`` is given, whose destination is that pile; then the
    stock click when ``stock`` asks for it.

    Long because it is the engine's one move generator: every pile kind's moves in one pass
    over the piles, on the hot path of every search through the engine."""
    piles = state.piles
    kinds = spec.kinds
    to_found = spec.feeds.get(PileKind.FOUNDATION, frozenset())
    to_reserve = spec.feeds.get(PileKind.RESERVE, frozenset())
    to_column = spec.feeds.get(PileKind.COLUMN, frozenset())
    if PileKind.FOUNDATION in to_column and is_won(spec, state):
        return []  # only where foundation cards may leave: elsewhere a won table is empty
    if dst is None:
        columns = spec.indexes_of(PileKind.COLUMN)
        reserves = spec.indexes_of(PileKind.RESERVE)
        targets = foundation_targets(spec, state) if to_found else {}
    else:  # the destinations narrowed to dst: the same tests on fewer piles
        columns = (dst,) if kinds[dst] is PileKind.COLUMN else ()
        reserves = (dst,) if kinds[dst] is PileKind.RESERVE else ()
        targets = {}
        if to_found and kinds[dst] is PileKind.FOUNDATION:
            targets = foundation_targets(spec, state, dst)
    builds = spec.column_build is not Build.NONE
    same_suit = spec.column_build is Build.DOWN_SUIT
    ids = spec.ids
    out: list[Move] = []
    for i in sources:
        kind = kinds[i]
        pile = piles[i]
        counts = _movable_counts(spec, state, i)
        if not counts:
            continue
        card = pile[-1]
        if kind in to_found:
            for f in targets.get(card, ()):
                out.append(Move(ids[i], ids[f], 1))
        whole = len(pile) if kind is PileKind.COLUMN else -1
        empty = EmptyColumn.NONE if kind in spec.empty_column_refuses else spec.empty_column
        for n in counts if kind in to_column else ():
            lowest = pile[-n]
            for c in columns:  # inlined column_accepts, the hot loop of every search
                target = piles[c]
                if c == i:
                    continue
                if target:
                    top = target[-1]
                    if builds and (
                        top - lowest == 4 if same_suit else (top >> 2) - (lowest >> 2) == 1
                    ):
                        out.append(Move(ids[i], ids[c], n))
                elif n != whole and (  # a whole column into an empty one changes nothing
                    empty is EmptyColumn.ANY
                    or (empty is EmptyColumn.KINGS and (lowest >> 2) + 1 == KING)
                ):
                    out.append(Move(ids[i], ids[c], n))
        if kind in to_reserve:
            for r in reserves:
                if not piles[r]:
                    out.append(Move(ids[i], ids[r], 1))
    if stock and stock_action(spec, state) is not None:
        out.append(Move.stock())
    return out


def stock_action(spec: GameSpec, state: State) -> str | None:
    """What a stock click does now: ``"deal"``, ``"turn"``, ``"redeal"``, or None."""
    if spec.stock is Stock.NONE:
        return None
    stock = state.piles[spec.pile_index("stock")]
    if spec.stock is Stock.TURN:
        if stock:
            return "turn"
        waste = state.piles[spec.pile_index("waste")]
        return "redeal" if waste and state.redeals < spec.passes - 1 else None
    if spec.stock is Stock.DEAL_ROW:
        if not stock or any(not state.piles[c] for c in spec.indexes_of(PileKind.COLUMN)):
            return None
        return "deal"
    # DEAL_COLUMNS
    if stock:
        return "deal"
    columns = spec.indexes_of(PileKind.COLUMN)
    if any(state.piles[c] for c in columns) and state.redeals < spec.passes - 1:
        return "redeal"
    return None


def stock_refusal(spec: GameSpec, state: State) -> tuple[str, str] | None:
    """Why the stock cannot be clicked now, as ``(code, English message)`` (the
    catalogue's ``refusal.<code>``); None if it can."""
    code = _stock_refusal_code(spec, state)
    return None if code is None else (code, messages.text(f"refusal.{code}", "en"))


def _stock_refusal_code(spec: GameSpec, state: State) -> str | None:
    if spec.stock is Stock.NONE:
        return "no_stock"
    if stock_action(spec, state) is not None:
        return None
    stock = state.piles[spec.pile_index("stock")]
    if spec.stock is Stock.DEAL_ROW and stock:
        return "stock_empty_column"
    if spec.passes > 1 and state.redeals >= spec.passes - 1:
        return "no_redeals_left"
    return "stock_empty"


# --- Apply --------------------------------------------------------------------------------


def apply(spec: GameSpec, state: State, move: Move, events: list[Event] | None = None) -> State:
    """The position after ``move`` and its automatic follow-ups. Unchecked: the move must
    come from :func:`legal_moves`. When ``events`` is a list, what happened is appended."""
    t = Table(state, events)
    if move.dst is None:
        _click_stock(spec, t)
    else:
        src, dst = spec.index[move.src], spec.index[move.dst]
        cards = t.take(src, move.cards)
        t.put(dst, cards)
        t.note({"type": "move", "from": move.src, "to": move.dst, "cards": move.cards})
    if spec.after_action is not None:
        spec.after_action(spec, t)
    return t.freeze()


def _click_stock(spec: GameSpec, t: Table) -> None:
    s = spec.index["stock"]
    if spec.stock is Stock.TURN:
        w = spec.index["waste"]
        if t.piles[s]:
            t.put(w, t.take(s, 1))
            t.note({"type": "turn", "from": "stock", "to": "waste", "cards": 1})
        else:
            t.piles[s] = tuple(reversed(t.piles[w]))
            t.piles[w] = ()
            t.redeals += 1
            t.note({"type": "redeal", "from": "waste", "to": "stock", "cards": len(t.piles[s])})
        return
    columns = spec.indexes_of(PileKind.COLUMN)
    if spec.stock is Stock.DEAL_ROW:
        for c in columns:
            t.put(c, t.take(s, 1))
        t.note({"type": "deal", "from": "stock", "cards": len(columns)})
        return
    # DEAL_COLUMNS: four cards onto each column in turn; a redeal regathers them first.
    if not t.piles[s]:
        gathered: tuple[Card, ...] = ()
        for c in columns:
            gathered += t.piles[c]
            t.piles[c] = ()
        t.piles[s] = tuple(reversed(gathered))
        t.redeals += 1
        t.note({"type": "redeal", "from": "columns", "to": "stock", "cards": len(gathered)})
    per = spec.params.get("deal_per_column", 4)
    for c in columns:
        if not t.piles[s]:
            break
        n = min(per, len(t.piles[s]))
        t.put(c, tuple(reversed(t.take(s, n))))
        t.note({"type": "deal", "from": "stock", "to": spec.piles[c].id, "cards": n})


def play_checked(
    spec: GameSpec, state: State, move: Move, events: list[Event] | None = None
) -> State:
    """Apply ``move`` if it is legal; otherwise raise :class:`IllegalMoveError` with why."""
    if move.dst is None:
        refusal = stock_refusal(spec, state)
        if refusal is not None:
            raise IllegalMoveError(refusal[1], refusal[0])
        return apply(spec, state, move, events)
    if not is_legal(spec, state, move):
        code, message = explain_illegal(spec, state, move)
        raise IllegalMoveError(message, code)
    return apply(spec, state, move, events)


def explain_illegal(spec: GameSpec, state: State, move: Move) -> tuple[str, str]:
    """A reason code and an English sentence for a refused card move."""
    text = move.to_str()
    if not spec.has_pile(move.src) or (move.dst is not None and not spec.has_pile(move.dst)):
        return ("unknown_pile", f"{text}: this game has no such pile.")
    i = spec.index[move.src]
    p = spec.piles[i]
    pile = state.piles[i]
    if p.kind in (PileKind.STOCK, PileKind.DONE):  # never, empty or not (docs/notation.md)
        return ("not_playable", f"{text}: cards do not leave {move.src} by hand.")
    if not pile:
        return ("empty_source", f"{text}: {move.src} is empty.")
    if p.locked_by is not None and state.piles[spec.index[p.locked_by]]:
        return ("locked", f"{text}: the spine cannot be played while the tailbone lies on it.")
    if move.cards > len(_movable_counts(spec, state, i)):
        if not spec.runs_move or p.kind is not PileKind.COLUMN:
            return ("not_a_run", f"{text}: only one card moves at a time here.")
        return ("not_a_run", f"{text}: only a same-suit descending run moves as one unit.")
    return ("does_not_fit", f"{text}: that card cannot go there.")


# --- Flags --------------------------------------------------------------------------------


def cards_on_foundations(spec: GameSpec, state: State) -> int:
    kinds = (PileKind.FOUNDATION, PileKind.DONE)
    return sum(len(state.piles[i]) for i, p in enumerate(spec.piles) if p.kind in kinds)


def is_won(spec: GameSpec, state: State) -> bool:
    return cards_on_foundations(spec, state) == 104


def is_stuck(spec: GameSpec, state: State, legal: list[Move] | None = None) -> bool:
    """Not won, and no legal move, deal or redeal left (or a game hook says none helps).
    ``legal``: the state's legal moves when already listed."""
    if is_won(spec, state):
        return False
    if spec.stuck_hook is not None and spec.stuck_hook(spec, Table(state)):
        return True
    return not (legal if legal is not None else legal_moves(spec, state))


def has_hidden_cards(spec: GameSpec, state: State) -> bool:
    """Whether any card is face down (a face-down column card, or any card in a stock)."""
    if any(state.down):
        return True
    return spec.has_pile("stock") and bool(state.piles[spec.index["stock"]])


def foundation_moves(spec: GameSpec, state: State) -> list[Move]:
    return [
        m
        for m in legal_moves(spec, state)
        if m.dst is not None and spec.piles[spec.index[m.dst]].kind is PileKind.FOUNDATION
    ]


def autocollect_moves(
    spec: GameSpec, state: State, budget: int = 5_000, seconds: float = 0.05
) -> list[Move] | None:
    """A proof that the rest can go up: foundation moves only, ending in a win; else None.

    Offered only when no card is hidden, so the proof never depends on secret cards.
    First a necessary condition in one pass (every card could go up if any copy of the
    card below it in its suit could: when even that fails, no proof exists). Then a depth
    first search with memory (None when it runs out: the engine never guesses). Where
    foundations go up and down fixed by suit (Nivernais), the search runs on pile lengths
    (:mod:`pasyans.engine.collect`) and stops after ``seconds`` of the thread's CPU time (50 ms by
    default; issue 33: a count of 5,000 positions took up to 357 ms there and missed
    proofs a longer search found). Elsewhere ``budget`` bounds the positions visited,
    forced ones included. The view asks once per position (:class:`Game` keeps the
    answer). Where foundations build up in suit from any Ace, they
    are interchangeable: a position is the number of cards left in each pile, and a card
    whose lower neighbours (every copy) are all up already is played without trying
    anything else first (playing it can never spoil a win).

    Long because the necessary condition, the two searches and their shared memory are one
    proof and read the same local tables; the Nivernais search is already apart in
    :mod:`pasyans.engine.collect`.
    """
    if spec.foundations is Foundations.NONE or is_won(spec, state):
        return None
    if has_hidden_cards(spec, state):
        return None
    found = spec.indexes_of(PileKind.FOUNDATION)
    feeders = spec.feeds.get(PileKind.FOUNDATION, frozenset())
    others = [i for i in range(len(spec.piles)) if i not in found]
    if any(state.piles[i] and spec.piles[i].kind not in feeders for i in others):
        return None
    if not _could_all_go_up(spec, state, others):
        return None
    alike = spec.foundations is Foundations.UP
    ids = [p.id for p in spec.piles]
    if spec.foundations is Foundations.UP_DOWN:
        found_steps = collect_up_down(
            [state.piles[i] for i in others], [state.piles[f] for f in found], seconds
        )
        if found_steps is None:
            return None
        return [Move(ids[others[i]], ids[found[f]], 1) for i, f in found_steps]
    copies: dict[Card, int] = {}
    placed: dict[Card, int] = {}
    for i, pile in enumerate(state.piles):
        for c in pile:
            copies[c] = copies.get(c, 0) + 1
            if i in found:
                placed[c] = placed.get(c, 0) + 1
    seen: set[object] = set()
    steps: list[tuple[Move, Card]] = []
    left = [budget]

    def candidates(s: State) -> list[tuple[Move, Card, bool]]:
        """The foundation moves (one per source pile when foundations are alike), each
        with its card and whether it is safe to play at once."""
        targets = foundation_targets(spec, s)
        out: list[tuple[Move, Card, bool]] = []
        for i in _source_indexes(spec, s):
            if i in found:
                continue
            card = s.piles[i][-1]
            dests = targets.get(card, ())
            if not alike:
                out.extend((Move(ids[i], ids[f], 1), card, False) for f in dests)
            elif dests:
                safe = card < 4 or placed.get(card - 4, 0) == copies.get(card - 4, 0)
                out.append((Move(ids[i], ids[dests[0]], 1), card, safe))
        return out

    def play(s: State, m: Move, card: Card) -> State:
        steps.append((m, card))
        placed[card] = placed.get(card, 0) + 1
        return apply(spec, s, m)

    def take_back(n: int) -> None:
        for _ in range(n):
            placed[steps.pop()[1]] -= 1

    def search(s: State) -> bool:
        forced = 0
        while True:
            moves = candidates(s)
            safe = next((x for x in moves if x[2]), None)
            if safe is None or left[0] <= 0:
                break
            s = play(s, safe[0], safe[1])
            left[0] -= 1
            forced += 1
        if is_won(spec, s):
            return True
        key = tuple(len(s.piles[i]) for i in others) if alike else s
        if key in seen or left[0] <= 0:
            take_back(forced)
            return False
        seen.add(key)
        left[0] -= 1
        for m, card, _ in moves:
            if search(play(s, m, card)):
                return True
            take_back(1)
        take_back(forced)
        return False

    return [m for m, _ in steps] if search(state) else None


def _could_all_go_up(spec: GameSpec, state: State, others: list[int]) -> bool:
    """A necessary condition for a proof: pretending that a card may go up as soon as any
    copy of its neighbour below (or above, on a foundation building down) is up, every
    card gets there, each pile from its top, a locked pile once its lock is empty."""
    up_down = spec.foundations is Foundations.UP_DOWN
    there: set[Card] = {c for i, p in enumerate(state.piles) if i not in others for c in p}
    left = {i: len(state.piles[i]) for i in others if state.piles[i]}
    locks = {
        i: spec.pile_index(lock) for i in left if (lock := spec.piles[i].locked_by) is not None
    }
    progress = True
    while left and progress:
        progress = False
        for i in list(left):
            if i in locks and left.get(locks[i], 0):
                continue
            pile = state.piles[i]
            n = left[i]
            while n:
                c = pile[n - 1]
                if not (c < 4 or c - 4 in there or (up_down and (c >= 48 or c + 4 in there))):
                    break
                there.add(c)
                n -= 1
            if n != left[i]:
                progress = True
                if n:
                    left[i] = n
                else:
                    del left[i]
    return not left


def score(spec: GameSpec, state: State, moves_made: int) -> int:
    """Score per GAMES.md; Spider counts the moves made so far."""
    if spec.score is Score.SPIDER:
        runs = len(state.piles[spec.index["done"]]) // 13
        return 500 - moves_made + 100 * runs
    return cards_on_foundations(spec, state)


def smart_moves(
    spec: GameSpec,
    state: State,
    pile_id: str,
    index: int | None = None,
    legal: list[Move] | None = None,
) -> list[Move]:
    """Legal moves of the card at ``index`` of a pile (default: its top card), in smart-move
    order: foundations, then non-empty columns, then empty columns, then reserve cells.
    Card moves only: a click on the stock is the stock action, not a smart move.
    ``legal``: :func:`legal_moves` of ``state`` when already known."""
    if not spec.has_pile(pile_id):
        return []
    pile = state.piles[spec.index[pile_id]]
    if index is None:
        index = len(pile) - 1
    if not 0 <= index < len(pile):
        return []
    n = len(pile) - index
    if legal is None:
        legal = legal_moves(spec, state)
    mine = [m for m in legal if m.dst is not None and m.src == pile_id and m.cards == n]
    return sorted(mine, key=lambda m: smart_rank(spec, state, m))


def smart_rank(spec: GameSpec, state: State, move: Move) -> tuple[int, int]:
    """Where ``move`` (a card move) comes in the smart-move order: foundations first, then
    non-empty columns, empty columns, reserve cells; ties by the destination's pile order."""
    assert move.dst is not None
    d = spec.index[move.dst]
    kind = spec.piles[d].kind
    order = {PileKind.FOUNDATION: 0, PileKind.COLUMN: 1 if state.piles[d] else 2}
    return (order.get(kind, 3), d)
