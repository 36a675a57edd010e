"""Spine, Backbone and Backbone classic through the compiled core's packed rules.

The same :class:`~pasyans.solver.search.Domain` as the engine's (``EngineDomain``), with
move generation, apply, the safe move, duplicate moves, the move order and the canonical
key done in C (``csrc/engine.c``) on positions packed into byte strings. The engine and
:mod:`pasyans.domains.knowledge` stay the reference: ``tests/solver/test_packed.py``
checks along random playouts that the moves, positions, children and keys are theirs.
The moves handed to the search are engine :class:`~pasyans.engine.moves.Move` objects,
so a win replays through the engine.

Dead positions (:func:`pasyans.domains.knowledge.dead_position`, Backbone classic's spine
locks) are tested in Python, on the position unpacked, but only once per distinct spine,
tailbone and foundation tops (what the test reads): the core hands those over as bytes
(``engine_lock``) and the answer is cached on them, so most positions cost one dict
lookup. The compiled restarting search runs the same test compiled (``engine_dead``,
cross-checked against :mod:`pasyans.domains.spinelock`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Literal

from pasyans.domains import spinelock
from pasyans.domains._core_abi import (
    CARD_KINDS,
    CLICK,
    EMPTY,
    KIND,
    MAXP,
    NO_LOCK,
    WON,
    CoreFlags,
    move_cards,
    move_dst,
    move_src,
    pos_cards,
    pos_down,
    pos_len,
    pos_redeals,
)
from pasyans.domains.built import compiled
from pasyans.domains.knowledge import Knowledge, dead_position, knowledge_for
from pasyans.domains.registry import PACKED, domain_for
from pasyans.engine.moves import Move
from pasyans.position import State
from pasyans.rules.spec import Build, GameSpec, PileKind, Stock

# The kind and rule numbers, the move codes and the position's layout shared with
# csrc/engine.c come from one declaration, csrc/abi.toml (generated into _core_abi).

LOCKS = 1 << 18
"""Dead-spine answers a domain keeps (by spine, tailbone and foundation tops) before it
starts its cache anew."""


def applies(spec: GameSpec, state: State) -> bool:
    """Whether the packed rules play ``spec`` from ``state``: the spec declares this
    domain (``GameSpec.domain``, :func:`pasyans.domains.registry.domain_for`), the compiled
    core is built and ``state`` fits it (:func:`fits`)."""
    return compiled is not None and domain_for(spec) == PACKED and fits(spec, state)


def fits(spec: GameSpec, state: State) -> bool:
    """Whether the packed layout holds ``state``: at most MAXP piles of the kinds it
    knows, at most WON cards, every one face up and a card number below CARD_KINDS."""
    return (
        len(spec.piles) <= MAXP
        and all(p.kind in KIND for p in spec.piles)
        and sum(len(p) for p in state.piles) <= WON
        and not any(state.down)
        and all(0 <= c < CARD_KINDS for p in state.piles for c in p)
    )


def _mask(kinds: Iterable[PileKind]) -> int:
    return sum(1 << KIND[k] for k in kinds if k in KIND)


def lost_table() -> object:
    """An empty table of positions proven lost for :meth:`PackedDomain.restarting`, kept
    from call to call (one game's rules: another's is a ``ValueError``)."""
    if compiled is None:
        raise RuntimeError("the compiled core (pasyans.domains._core) is not built")
    return compiled.engine_table()


class PackedDomain:
    """A foundation game through the compiled core (see the module docstring)."""

    guided = False

    def __init__(
        self,
        spec: GameSpec,
        state: State,
        *,
        lock_cache: bool = True,
        compiled_search: bool = True,
        compiled_dead: bool = True,
    ) -> None:
        if compiled is None:
            raise RuntimeError("the compiled core (pasyans.domains._core) is not built")
        self.spec = spec
        self.k: Knowledge = knowledge_for(spec)
        ids = [p.id for p in spec.piles]
        self.ids = ids
        locked = bytes(
            NO_LOCK if p.locked_by is None else spec.index[p.locked_by] for p in spec.piles
        )
        flags = CoreFlags(
            runs_move=int(spec.runs_move),
            empty_column=EMPTY[spec.empty_column],
            same_suit=int(spec.column_build is Build.DOWN_SUIT),
            builds=int(spec.column_build is not Build.NONE),
            feeds_column=_mask(spec.feeds.get(PileKind.COLUMN, ())),
            feeds_foundation=_mask(spec.feeds.get(PileKind.FOUNDATION, ())),
            refuses=_mask(spec.empty_column_refuses),
            stock_turn=int(spec.stock is Stock.TURN),
            passes=spec.passes,
            general_safe=int(self.k.foundations_permanent and spec.column_build is Build.DOWN_SUIT),
            tailbone_first=int(spec.has_pile("tailbone")),
            won=WON,
        )
        self.core = compiled.engine_spec(bytes(KIND[p.kind] for p in spec.piles), locked, flags)
        self._moves: dict[int, Move] = {}
        self._root = pack(state)
        # knowledge.dead_position's rule for these games: Backbone classic's spine locks.
        self.dead = bool(self.k.spines) and spinelock.applies(spec)
        # Its answers by what it reads (engine_lock); False: unpack every position (the
        # way before, kept for the benchmark's side-by-side figures).
        self.lock_cache = lock_cache
        self._locks: dict[bytes, bool] = {}
        # Backbone's searches restart their dives (search._restarting), as the engine's;
        # the compiled core runs them (False: the Python loop, the reference).
        self.restarts = self.k.restarts
        self.compiled_search = compiled_search and lock_cache
        # The compiled search runs the dead-spine test in C too (engine_dead, the same
        # answers); False: it calls the Python test, cached on the lock bytes.
        self.compiled_dead = compiled_dead

    @property
    def root(self) -> bytes:
        return self._root

    def move(self, code: int) -> Move:
        m = self._moves.get(code)
        if m is None:
            if code == CLICK:
                m = Move.stock()
            else:
                m = Move(self.ids[move_src(code)], self.ids[move_dst(code)], move_cards(code))
            self._moves[code] = m
        return m

    def children(self, pos: bytes, *, prune: bool) -> tuple[Iterable[tuple[Move, bytes]], bool]:
        if self.dead and self._dead(pos):
            return [], False
        kids = compiled.engine_children(self.core, pos)
        return [(self.move(code), child) for code, child, _ in kids], False

    def restarting(
        self,
        deadline: float | None,
        nodes: int | None,
        first: int,
        unit: int,
        detour: float,
        early: float,
        table: object | None = None,
        compress: bool = False,
        wastelock: bool = False,
        returning: bool = False,
    ) -> tuple[Literal["won", "lost", "unknown"], tuple[Move, ...], int]:
        """:func:`search._restarting` in the compiled core (``engine_restarts``): the
        outcome, the winning line and the positions expanded. ``table`` (from
        ``compiled.engine_table()``, one game's) keeps the positions proven lost from call
        to call (the post-game analysis's probes along one game); None: a table per call.
        ``compress``: the stock's clicks are not moves of their own; a run of clicks and
        the move of the waste's top card it leads to is one ("Draws as moves" in
        csrc/engine.c): the same outcome, fewer positions (the line is given with its
        clicks, as moves of the game). ``wastelock``: a position of the stock's last pass
        that :func:`pasyans.domains.wastelock.lock` proves lost (compiled:
        ``fp_wastelock``) is not expanded. ``returning``: a card whose suit's cards of
        every lower rank are all on the foundations goes there alone (the safe move of
        permanent foundations) also where foundation cards may come back to the columns
        (Backbone; why it is sound: ``fp_children_rule`` in csrc/engine.c).
        """
        dead: Callable[[bytes], bool] | bool | None = None
        if self.dead:
            dead = True if self.compiled_dead else self._dead_unpacked
        outcome, codes, used = compiled.engine_restarts(
            self.core,
            self._root,
            -1 if nodes is None else nodes,
            -1.0 if deadline is None else deadline,
            first,
            unit,
            detour,
            early,
            dead,
            self._locks,
            LOCKS,
            table,
            compress,
            wastelock,
            returning,
        )
        line: list[Move] = []
        for c in codes:  # a draw (compress): its clicks, then its move
            line += [Move.stock()] * (c >> 24)
            line.append(self.move(c & 0xFFFFFF))
        return outcome, tuple(line), used

    def _dead_unpacked(self, pos: bytes) -> bool:
        return dead_position(self.k, unpack(pos, len(self.spec.piles)))

    def _dead(self, pos: bytes) -> bool:
        if not self.lock_cache:
            return dead_position(self.k, unpack(pos, len(self.spec.piles)))
        lock = compiled.engine_lock(self.core, pos)
        out = self._locks.get(lock)
        if out is None:
            if len(self._locks) >= LOCKS:
                self._locks.clear()
            out = dead_position(self.k, unpack(pos, len(self.spec.piles)))
            self._locks[lock] = out
        return out

    def key(self, pos: bytes) -> Hashable:
        return compiled.engine_key(self.core, pos)

    def is_won(self, pos: bytes) -> bool:
        return compiled.engine_won(self.core, pos)

    def state(self, pos: bytes) -> State:
        return unpack(pos, len(self.spec.piles))


def pack(state: State) -> bytes:
    """The packed form of ``state`` (the layout of csrc/abi.toml's ``[position]``: the
    redeals, the lengths, the face-down counts, then the cards)."""
    return bytes(
        [
            state.redeals,
            *(len(p) for p in state.piles),
            *state.down,
            *(c for p in state.piles for c in p),
        ]
    )


def unpack(pos: bytes, piles: int) -> State:
    """The :class:`State` of a packed position of a game with ``piles`` piles."""
    at_len, at_down, o = pos_len(piles), pos_down(piles), pos_cards(piles)
    lens = pos[at_len : at_len + piles]
    down = tuple(pos[at_down : at_down + piles])
    out: list[tuple[int, ...]] = []
    for n in lens:
        out.append(tuple(pos[o : o + n]))
        o += n
    return State(tuple(out), down, pos[pos_redeals(piles)])
