"""Hint and winnability answers, computed outside any write transaction (no row or
database lock is held during a search).

Bounded and remembered:

- no request runs the solver for more than :data:`SOLVER_CPU_CAP` seconds
  (``hint_seconds`` and ``winnable_seconds`` are capped to it), except a hint of a game
  whose product budget needs more (:func:`hint_budget`; at most :data:`HINT_CPU_CAP`);
- every verdict on a full-information position (``won`` with its next move, ``lost``, or
  ``unknown`` within a budget) is kept in the ``verdicts`` table, shared by every worker,
  and in the process's :data:`pasyans.hints.LINES`; a win's whole line is kept, so
  the next hints along it cost nothing;
- only a request that actually searches is counted against the ``search`` rate limit
  (:mod:`pasyans.server.limits.rates`); a known answer, or one that needs no search (cards still
  hidden: the heuristic on the visible cards), is free.

Over 400 lines because the search processes, the remembered verdicts and the answers
share one budget and one process pool; split, the budget's accounting would cross
modules.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import json
import logging
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from sqlalchemy.dialects import postgresql, sqlite

from pasyans import caches, hints
from pasyans.engine import Game, apply, core
from pasyans.engine.moves import Move
from pasyans.hints.policy import hint_time, product_budget
from pasyans.hints.sampled import deciding_player
from pasyans.hints.sampling import known, visible
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.registry import RULES_VERSION
from pasyans.rules.spec import GameSpec
from pasyans.server.errors import ApiError
from pasyans.server.games import service
from pasyans.server.pool.entries import lower_priority
from pasyans.server.storage import store
from pasyans.server.storage.models import Verdict
from pasyans.solver.search import Result as SearchResult
from pasyans.solver.search import solve

log = logging.getLogger("pasyans.server")

T = TypeVar("T")

SOLVER_CPU_CAP = 0.25
"""The most solver time one request may spend, in seconds (the search's budget is wall
time, which is never less than the CPU time it used)."""

HINT_CPU_CAP = 1.0
"""The most solver time one hint may spend, whatever its game's factor
(:data:`pasyans.hints.policy.HINT_TIME`): issue 34's p95 ≤ 1 s."""

LINE_KEPT = 600
"""Positions of a found win stored as verdicts (a win is at most a few hundred moves)."""

Result = Literal["won", "lost", "unknown"]


@dataclass
class SearchStats:
    """What this process's searches cost (read by tests and benchmarks)."""

    searches: int = 0
    cpu_seconds: float = 0.0
    max_cpu_seconds: float = 0.0
    remembered: int = 0
    """Answers served from memory (process or database) instead of a search."""

    def __post_init__(self) -> None:
        self._lock = threading.Lock()

    def add(self, cpu: float) -> None:
        with self._lock:
            self.searches += 1
            self.cpu_seconds += cpu
            self.max_cpu_seconds = max(self.max_cpu_seconds, cpu)


STATS = SearchStats()


# --- the searches, in processes of their own -------------------------------------------------


SOLVER_NICE = 19
"""The search children's priority: the lowest niceness. At nice 5 a child still had a third
of the web worker's share of a busy core, and the cheap requests of other players waited
behind it (benchmarks/load.py --costly); at 19 it takes what the web workers leave. Not
``SCHED_IDLE`` (as the deal worker): a hint waits for its search, and on a machine busy
with other work an idle-class child got no CPU at all (docs/performance.md)."""

SEARCH_GRACE = 8.0
"""Seconds beyond its budget a request waits for its search (below a proxy's 10 s): a child
at the lowest priority on a machine busy with other work may get no CPU for long (it was
30 s, then a 500); then the answer is "unknown" (:class:`Starved`), remembered like any
"unknown" within the budget."""


class Starved(Exception):
    """The search process did not answer in time (a busy machine)."""


PARENT_POLL = 1.0
"""Seconds between a search child's looks at its web worker (:func:`_watch`)."""


def _child_start(parent: int) -> None:
    """A search child's start: the lowest priority, and a watch on the web worker
    ``parent`` that ends the child once the worker is gone (:func:`_watch`)."""
    lower_priority(SOLVER_NICE, idle=False)
    threading.Thread(target=_watch, args=(parent,), name="pasyans-parent", daemon=True).start()


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie, ended but not yet reaped, counts)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] == b"Z"
    except FileNotFoundError:
        return True
    except OSError:  # no /proc: ask the kernel whether it exists
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            return False
        return False


def _watch(parent: int) -> None:
    """End this search child once its web worker ``parent`` has ended, however it ended.
    The children are the forkserver's, not the worker's: each holds the pipes of the
    pool's queues and the forkserver's "alive" pipe, so neither it nor the forkserver sees
    the worker go. Without this watch a worker stopped by SIGTERM (its pool shut down
    without waiting) or killed left both running, 100 MB a worker."""
    while not _gone(parent):
        time.sleep(PARENT_POLL)
    os._exit(0)


def _solve_in_child(
    game_id: str, options: dict[str, str], state: State, budget: float
) -> tuple[SearchResult, float]:
    t0 = time.thread_time()
    result = solve(get_game(game_id, options), state, seconds=budget)
    return result, time.thread_time() - t0


SAMPLED_SHARE = 0.8
"""The share of the budget a sampled answer (hidden cards) gives its searches: drawing the
samples and scoring the moves run past the searches' deadline (about 30 ms were measured
beyond a 0.25 s budget), so the whole answer stays within :data:`SOLVER_CPU_CAP`."""


def _hint_in_child(
    game_id: str, options: dict[str, str], state: State, budget: float, past: list[State]
) -> tuple[hints.Hint, float]:
    """:func:`pasyans.hints.suggest` (the sampled hint of a position with hidden
    cards) in a search process, and the CPU seconds it used."""
    t0 = time.thread_time()
    spec = get_game(game_id, options)
    found = hints.suggest(spec, state, seconds=budget * SAMPLED_SHARE, history=past)
    return found, time.thread_time() - t0


def _estimate_budget(spec: GameSpec, seconds: float) -> hints.Budget:
    """The Winnable? estimate's budget: where a no-peek player decides the product's hint
    (:func:`pasyans.hints.sampled.deciding_player`) the hint's own budget, so the estimate
    comes from the hint's samples; elsewhere the time cap alone."""
    product = product_budget(spec, seconds)
    return product if deciding_player(spec, product) else hints.Budget(seconds=seconds)


def _winnable_in_child(
    game_id: str, options: dict[str, str], state: State, budget: float
) -> tuple[tuple[Result, dict[str, Any] | None], float]:
    """The Winnable? answer of a position with hidden cards (the result from what the
    player sees, and the sampled estimate when that is "unknown") in a search process, and
    the CPU seconds it used."""
    t0 = time.thread_time()
    spec = get_game(game_id, options)
    share = budget * SAMPLED_SHARE
    result = _result(hints.winnable(spec, state, seconds=share))
    found = None
    left = share - (time.thread_time() - t0)  # one budget for both
    if result == "unknown" and left > 0.01:
        found = hints.estimate(spec, state, _estimate_budget(spec, left))
    return (result, None if found is None else found.to_json()), time.thread_time() - t0


_START = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
"""Forkserver, not fork: a forked child would inherit every file the web worker has open
(sockets, pipes to other programs), keeping them open after the worker closes them. The
forkserver starts clean and has the solver imported, so a child still starts at once."""


def _context() -> multiprocessing.context.BaseContext:
    ctx = multiprocessing.get_context(_START)
    if _START == "forkserver":
        ctx.set_forkserver_preload(
            ["pasyans.solver.search", "pasyans.hints", "pasyans.hints.sampling"]
        )
    return ctx


class Searches:
    """Runs the searches of this web worker in ``solver_processes`` child processes (at a
    lower priority): a search then never holds the worker's GIL, so the cheap requests of
    other players go on at full speed while it runs. ``solver_processes = 0`` searches in
    the request's own thread. At most ``4 ×`` the processes wait at once: beyond that the
    answer is 503 ``solver_busy`` with Retry-After."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._executor: concurrent.futures.ProcessPoolExecutor | None = None
        self._pid = 0
        self._waiting = 0
        self._starting = False
        self.ready = threading.Event()
        """Set when :meth:`start` has the processes running."""
        self.started: list[int] = []
        """The process ids :meth:`start` saw answer."""

    def start(self, processes: int) -> None:
        """Start the search processes now rather than at the first search: the forkserver
        imports the solver first, which took up to 16 s on a busy machine, and the first
        hint after a server start waited for it. Run in a thread of its own at startup
        (the app's lifespan), so that the server starts answering meanwhile."""
        if processes <= 0:
            return
        try:
            pool = self._pool(processes)
            futures = [pool.submit(os.getpid) for _ in range(processes)]
            self.started = [f.result(timeout=300) for f in futures]
        except Exception as e:  # shut down meanwhile, or broken: the first search tries again
            log.warning("the search processes did not start: %s", type(e).__name__)
            return
        self.ready.set()

    def _start_soon(self, processes: int) -> None:
        """:meth:`start` in a thread of its own, unless one is already starting them."""
        with self._lock:
            if self._starting:
                return
            self._starting = True

        def go() -> None:
            try:
                self.start(processes)
            finally:
                with self._lock:
                    self._starting = False

        threading.Thread(target=go, name="pasyans-searches", daemon=True).start()

    def _pool(self, processes: int) -> concurrent.futures.ProcessPoolExecutor:
        with self._lock:
            if self._executor is None or self._pid != os.getpid():
                self._executor = concurrent.futures.ProcessPoolExecutor(
                    max_workers=processes,
                    mp_context=_context(),
                    initializer=_child_start,
                    initargs=(os.getpid(),),
                )
                self._pid = os.getpid()
            return self._executor

    def run(
        self, spec: GameSpec, state: State, budget: float, processes: int
    ) -> tuple[SearchResult, float]:
        """The search's result and the CPU seconds it used."""
        args = (spec.id, dict(spec.option_values), state, budget)
        return self.call(_solve_in_child, args, budget, processes)

    def call(
        self,
        fn: Callable[..., tuple[T, float]],
        args: tuple[Any, ...],
        budget: float,
        processes: int,
        inline_until_ready: bool = False,
    ) -> tuple[T, float]:
        """``fn(*args)`` (a module-level function that returns its answer and the CPU
        seconds it used) in a search process, waited for at most ``budget`` +
        :data:`SEARCH_GRACE` (else :class:`Starved`); in this thread when ``processes`` is
        0, and with ``inline_until_ready`` while the search processes are not running
        yet (they are started meanwhile: right after a server's start, or a test app's
        first search), rather than wait for their start (importing the solver: up to 16 s
        on a busy machine)."""
        if processes > 0 and inline_until_ready and not self.ready.is_set():
            self._start_soon(processes)
            processes = 0
        if processes <= 0:
            out, cpu = fn(*args)
            STATS.add(cpu)
            return out, cpu
        with self._lock:
            if self._waiting >= 4 * processes:
                raise ApiError(
                    "solver_busy",
                    status=503,
                    headers={"Retry-After": "1"},
                )
            self._waiting += 1
        try:
            future = self._pool(processes).submit(fn, *args)
            try:
                out, cpu = future.result(timeout=budget + SEARCH_GRACE)
            except concurrent.futures.TimeoutError:
                future.cancel()
                raise Starved from None
        finally:
            with self._lock:
                self._waiting -= 1
        STATS.add(cpu)
        return out, cpu

    def shutdown(self) -> None:
        self.ready.clear()
        with self._lock:
            if self._executor is not None and self._pid == os.getpid():
                self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


SEARCHES = Searches()


def _game_at(ctx: service.Context, game_id: str, version: int) -> tuple[Any, Game]:
    row = service.owned(ctx, game_id)
    if row.status != store.PLAYING:
        raise ApiError("game_over", extra=service.read(ctx, row))
    if row.version != version:
        raise ApiError("stale_version", extra=service.read(ctx, row))
    return row, service.checkout(ctx, row)


def history(game: Game) -> list[State]:
    """The positions the player went through to reach the current one (oldest first)."""
    states = [game.start]
    for m in game.moves:
        states.append(apply(game.spec, states[-1], m))
    return states[:-1]


def position_key(spec: GameSpec, state: State) -> str:
    """The key of a position in ``verdicts``: game, options, rules version, position."""
    options = store.options_key(spec.option_values)
    text = json.dumps(state.to_json(), separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(f"{spec.id}|{options}|{RULES_VERSION}|{text}".encode()).hexdigest()


# --- remembered verdicts --------------------------------------------------------------------


def _known(
    ctx: service.Context, spec: GameSpec, state: State, budget: float
) -> tuple[Result, Move | None] | None:
    """The verdict already found for this position (this process, then the database)."""
    found, move = hints.LINES.get(spec, state)
    if found:
        return ("won", move) if move is not None else ("lost", None)
    row = ctx.session.get(Verdict, position_key(spec, state))
    if row is None:
        return None
    if row.result == "won" and row.move:
        try:
            m = Move.parse(row.move)
        except Exception:  # a verdict from other rules: search again
            return None
        hints.LINES.won(spec, state, [m])
        return "won", m
    if row.result == "lost":
        hints.LINES.lost(spec, state)
        return "lost", None
    if row.result == "unknown" and row.seconds >= budget - 1e-9:
        return "unknown", None
    return None


def _remember(
    ctx: service.Context, spec: GameSpec, state: State, result: Any, budget: float
) -> Move | None:
    """Store the search's verdict (process and database); a win's first move (of its
    line with the detours cut), else None."""
    first = None
    rows: list[dict[str, Any]] = []
    t = store.now()
    if result.result == "won":
        line = hints.LINES.won(spec, state, result.moves)  # its detours cut
        first = line[0]
        s = state
        for m in line[:LINE_KEPT]:
            rows.append(
                {"key": position_key(spec, s), "result": "won", "move": m.to_str(),
                 "seconds": budget, "created_at": t}
            )  # fmt: skip
            s = core.apply(spec, s, m)
    else:
        if result.result == "lost":
            hints.LINES.lost(spec, state)
        rows.append(
            {"key": position_key(spec, state), "result": result.result, "move": None,
             "seconds": budget, "created_at": t}
        )  # fmt: skip
    if ctx.session.in_transaction():
        ctx.session.rollback()
    # Verdicts can be found again: written without an fsync of their own on SQLite.
    maker = ctx.limits.maker if ctx.limits is not None else None
    with service.writing(ctx), maker() if maker is not None else ctx.session as session:
        session.connection(execution_options={"pasyans_write": True})
        dialect = session.get_bind().dialect.name
        insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
        stmt = insert(Verdict).values(rows)
        stmt = stmt.on_conflict_do_update(
            index_elements=[Verdict.key],
            set_={
                "result": stmt.excluded.result,
                "move": stmt.excluded.move,
                "seconds": stmt.excluded.seconds,
            },
        )
        session.connection().execute(stmt)  # Core: the ORM's bulk-insert path cost more
        session.commit()
    return first


def hint_budget(ctx: service.Context, spec: GameSpec) -> float:
    """A hint's solver time: ``hint_seconds`` (at most :data:`SOLVER_CPU_CAP`) times the
    game's factor (:func:`pasyans.hints.policy.hint_time`), at most :data:`HINT_CPU_CAP`."""
    return min(hint_time(spec, min(ctx.settings.hint_seconds, SOLVER_CPU_CAP)), HINT_CPU_CAP)


def _verdict(
    ctx: service.Context, spec: GameSpec, state: State, budget: float
) -> tuple[Result, Move | None]:
    """The exact verdict on a full-information position: remembered, or searched within
    ``budget`` seconds, already capped (counted against the player's and address's
    ``search`` limit)."""
    known = _known(ctx, spec, state, budget)
    if ctx.session.in_transaction():
        ctx.session.rollback()
    if known is not None:
        STATS.remembered += 1
        return known
    if ctx.limits is not None:
        ctx.limits.check(["search"], ctx.token_hash, ctx.address)
    try:
        result, _ = SEARCHES.run(spec, state, budget, ctx.settings.solver_processes)
    except Starved:
        # Undecided within the time allowed, as a search out of time: remembered too, so
        # that asking again costs nothing (as for any "unknown").
        result = SearchResult("unknown")
    first = _remember(ctx, spec, state, result, budget)
    if first is not None:
        return "won", first
    return result.result, None


# --- the answers ----------------------------------------------------------------------------


SAMPLED_KEPT = 20_000
"""Sampled answers this process remembers having asked for (:class:`Sampled`)."""

SampledKey = tuple[str, str, str, float, State]
"""Kind, game, options, budget and what the player knows of the position."""


class Sampled:
    """What the player could see at the positions whose sampled hint or estimate this
    process has asked for, by kind and budget (least recently used first out). The samples'
    searches are remembered by the search process that ran them
    (:data:`pasyans.hints.TALLIES`): asking again for the same view costs little,
    and is not counted against the ``search`` limit. Only what the player knows is kept."""

    def __init__(self, size: int = SAMPLED_KEPT) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._keys: OrderedDict[SampledKey, None] = OrderedDict()

    @staticmethod
    def key(kind: str, spec: GameSpec, state: State, budget: float) -> SampledKey:
        return kind, spec.id, store.options_key(spec.option_values), budget, known(spec, state)

    def seen(self, key: SampledKey) -> bool:
        with self._lock:
            if key not in self._keys:
                return False
            self._keys.move_to_end(key)
            return True

    def add(self, key: SampledKey) -> None:
        with self._lock:
            self._keys[key] = None
            self._keys.move_to_end(key)
            while len(self._keys) > self.size:
                self._keys.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._keys.clear()


SAMPLED = caches.register("server.sampled_answers", Sampled(), bound=SAMPLED_KEPT)


def _sampled(
    ctx: service.Context,
    kind: str,
    spec: GameSpec,
    state: State,
    budget: float,
    fn: Callable[..., tuple[T, float]],
    args: tuple[Any, ...],
) -> T:
    """A sampled answer (hidden cards) from a search process: the samples' searches never
    hold this worker's GIL, and their CPU is bounded like any search (``budget`` ≤
    :data:`SOLVER_CPU_CAP`). Counted against the ``search`` limit unless this process has
    already asked for the same view; :class:`Starved` is left to the caller."""
    key = Sampled.key(kind, spec, state, budget)
    if ctx.limits is not None and not SAMPLED.seen(key):
        ctx.limits.check(["search"], ctx.token_hash, ctx.address)
    processes = ctx.settings.solver_processes
    out, _ = SEARCHES.call(fn, args, budget, processes, inline_until_ready=True)
    SAMPLED.add(key)
    return out


def _hint(ctx: service.Context, spec: GameSpec, state: State, past: list[State]) -> hints.Hint:
    if core.is_won(spec, state):
        return hints.suggest(spec, state, seconds=0.0, history=past)  # "The game is won."
    if core.has_hidden_cards(spec, state):
        budget = hint_budget(ctx, spec)  # the samples' searches
        args = (spec.id, dict(spec.option_values), state, budget, past)
        try:
            return _sampled(ctx, "hint", spec, state, budget, _hint_in_child, args)
        except Starved:  # the visible heuristic alone: no search
            seen = [visible(spec, h) for h in past]
            return hints.visible_hint(spec, visible(spec, state), seen)
    # The exact search's answer (remembered as a verdict), read as hints.suggest reads it.
    outcome, first = _verdict(ctx, spec, state, hint_budget(ctx, spec))
    return hints.decided(spec, state, past, outcome, first)


def hint_for(ctx: service.Context, game_id: str, version: int) -> dict[str, Any]:
    row, game = _game_at(ctx, game_id, version)
    spec, state, past = game.spec, game.state, history(game)
    service.checkin(ctx, row, game)
    ctx.session.rollback()  # end the read; the hint is counted in a write of its own
    found = _hint(ctx, spec, state, past)
    move = found.move
    return {
        "move": None if move is None else {"text": move.to_str(), "json": move.to_json()},
        "source": found.source,
        "winnable": found.winnable,
        "message": found.message,
        "message_ru": found.message_ru,
    }


def _result(value: object) -> Result:
    value = getattr(value, "value", value)
    if value is True or value == "won":
        return "won"
    if value is False or value == "lost":
        return "lost"
    return "unknown"


def winnable_for(ctx: service.Context, game_id: str, version: int) -> dict[str, Any]:
    """``{"result": won|lost|unknown, "estimate": …}``: with hidden cards the result stays
    "unknown" (unless the visible position decides it) and ``estimate`` gives the share of
    sampled ways the hidden cards could lie that are winnable (``won``, ``lost``,
    ``samples``, ``percent``); null when every card is known."""
    row, game = _game_at(ctx, game_id, version)
    spec, state = game.spec, game.state
    service.checkin(ctx, row, game)
    ctx.session.rollback()
    if core.is_won(spec, state):
        return {"result": "won", "estimate": None}
    if core.has_hidden_cards(spec, state):
        budget = min(ctx.settings.winnable_seconds, SOLVER_CPU_CAP)
        args = (spec.id, dict(spec.option_values), state, budget)
        try:
            result, found = _sampled(ctx, "winnable", spec, state, budget, _winnable_in_child, args)
        except Starved:
            result, found = "unknown", None
        return {"result": result, "estimate": found}
    return {
        "result": _verdict(ctx, spec, state, min(ctx.settings.winnable_seconds, SOLVER_CPU_CAP))[0],
        "estimate": None,
    }
