"""Analyses in the background (docs/analysis.md): a request only asks for one
(:func:`ask`); ``pasyans worker`` (the deal worker) claims it (:meth:`AnalysisRunner.claim`)
and runs :func:`pasyans.analysis.analyse` in a child process below the web workers'
priority, killed after ``seconds``, writing its progress as it goes; then every request
for that game at that version is answered from the row.

One running (or queued) per player: a second game's analysis waits until the first ends
(``429``). A game's analysis is kept per version; a finished game no longer changes.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import secrets
import threading
import time
from datetime import timedelta
from typing import Any, Literal

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from pasyans import deals
from pasyans.analysis import analyse
from pasyans.errors import PasyansError
from pasyans.rules.registry import RULES_VERSION
from pasyans.server.pool.entries import _exit_with, claim_oldest, lower_priority, write_session
from pasyans.server.storage import store
from pasyans.server.storage.models import AnalysisRow, GameRow
from pasyans.server.storage.store import AnyRow

log = logging.getLogger("pasyans.worker")

PENDING = ("queued", "running")

Asked = Literal["new", "kept", "busy"]


def saved_of(row: AnyRow) -> dict[str, Any]:
    """The game row as a saved game (:meth:`pasyans.engine.Game.to_saved`)."""
    saved: dict[str, Any] = {
        "game": row.game,
        "options": dict(row.options),
        "deal": row.deal,
        "kind": row.kind,
        "rules_version": row.rules_version,
        "moves": list(row.moves),
    }
    if row.start is not None:
        saved["start"] = row.start
    if row.difficulty is not None:
        saved["difficulty"] = row.difficulty
    if row.generator is not None:
        saved["generator"] = row.generator
    return saved


def find(session: Session, game_id: str, version: int) -> AnalysisRow | None:
    return session.scalar(
        select(AnalysisRow).where(
            AnalysisRow.game_id == game_id, AnalysisRow.game_version == version
        )
    )


def shared(session: Session, share: str) -> AnalysisRow | None:
    return session.scalar(select(AnalysisRow).where(AnalysisRow.share == share))


def ask(session: Session, row: AnyRow) -> tuple[Asked, AnalysisRow | None]:
    """Queue the analysis of ``row`` (a finished game) in the caller's write transaction:
    ``kept`` (one exists: done, queued or running; a failed one is queued again), ``new``,
    or ``busy`` (the player has another analysis queued or running)."""
    found = find(session, row.id, row.version)
    if found is not None:
        if found.status == "failed":
            found.status, found.error, found.progress = "queued", None, 0.0
            found.requested_at, found.started_at, found.finished_at = store.now(), None, None
        return "kept", found
    other = session.scalar(
        select(AnalysisRow.id)
        .where(AnalysisRow.player_id == row.player_id, AnalysisRow.status.in_(PENDING))
        .limit(1)
    )
    if other is not None:
        return "busy", None
    made = AnalysisRow(
        game_id=row.id,
        game_version=row.version,
        player_id=row.player_id,
        share=secrets.token_urlsafe(12),
        status="queued",
        progress=0.0,
        requested_at=store.now(),
    )
    try:
        with session.begin_nested():  # a racing request of the same game may insert first
            session.add(made)
    except IntegrityError:
        again = find(session, row.id, row.version)
        return ("kept", again) if again is not None else ("busy", None)
    return "new", made


def _child(conn: Any, saved: dict[str, Any], nice: int, parent: int) -> None:
    _exit_with(parent)
    if nice > 0:
        lower_priority(nice)
    try:
        game = deals.load_game(saved, trusted=True)
        result = analyse(game, progress=lambda share: conn.send(("progress", share)))
        conn.send(("ok", result.to_json()))
    except PasyansError as e:
        conn.send(("error", e.code))
    except Exception as e:  # reported to the parent, which logs it
        conn.send(("error", f"crash:{type(e).__name__}"[:40]))
    finally:
        conn.close()


def _mark_running(job: AnalysisRow) -> None:
    job.status, job.started_at, job.progress = "running", store.now(), 0.0


class AnalysisRunner:
    """Claims queued analyses and runs each in a bounded child process."""

    def __init__(
        self,
        maker: sessionmaker[Session],
        *,
        seconds: float = 60.0,
        nice: int = 10,
        stop: threading.Event | None = None,
    ) -> None:
        self.maker = maker
        self.seconds = seconds
        self.nice = nice
        self.stop = stop or threading.Event()
        self.done = 0

    def _write(self) -> Session:
        return write_session(self.maker)

    def claim(self) -> AnalysisRow | None:
        """The oldest queued analysis (or one whose worker died), marked running; read
        first without a write transaction (asked every second)."""
        stale = store.now() - timedelta(seconds=2 * self.seconds + 30)
        pending = (
            select(AnalysisRow)
            .where(
                (AnalysisRow.status == "queued")
                | ((AnalysisRow.status == "running") & (AnalysisRow.started_at < stale))
            )
            .order_by(AnalysisRow.requested_at, AnalysisRow.id)
            .limit(1)
        )
        return claim_oldest(self.maker, pending, AnalysisRow.id, _mark_running)

    def _set(self, job_id: int, **values: Any) -> None:
        with self._write() as session:
            session.execute(update(AnalysisRow).where(AnalysisRow.id == job_id).values(**values))
            session.commit()

    def run(self, job: AnalysisRow) -> None:
        """Analyse in a child process; progress written at most every half second."""
        with self.maker() as session:
            row = session.get(GameRow, job.game_id)
            saved = saved_of(row) if row is not None else None
        if saved is None or saved["rules_version"] != RULES_VERSION:
            self._set(job.id, status="failed", error="bad_saved_game", finished_at=store.now())
            return
        outcome = self._bounded(job.id, saved)
        if outcome is None:
            return  # stopped: left for the next worker (its start goes stale)
        if isinstance(outcome, str):
            self._set(job.id, status="failed", error=outcome[:40], finished_at=store.now())
        else:
            method = str(outcome.get("method", ""))[:32]
            self._set(job.id, status="done", progress=1.0, result=outcome, method=method,
                      finished_at=store.now())  # fmt: skip
            self.done += 1
        log.info("analysis %s of game %s: %s", job.id, job.game_id,
                 outcome if isinstance(outcome, str) else "done")  # fmt: skip

    def _bounded(self, job_id: int, saved: dict[str, Any]) -> dict[str, Any] | str | None:
        ctx = multiprocessing.get_context("fork")
        parent, child = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_child, args=(child, saved, self.nice, os.getpid()))
        proc.start()
        child.close()
        deadline = time.monotonic() + self.seconds
        written = 0.0
        try:
            while True:
                if self.stop.is_set():
                    return None
                if time.monotonic() >= deadline:
                    return "timeout"
                if not parent.poll(0.25):
                    continue
                kind, value = parent.recv()
                if kind == "progress":
                    if time.monotonic() - written >= 0.5:
                        self._set(job_id, progress=float(value))
                        written = time.monotonic()
                    continue
                return value if kind == "ok" else str(value)
        except EOFError:
            return "crash"
        finally:
            if proc.is_alive():
                proc.kill()
            proc.join(5)
            parent.close()

    def step(self) -> bool:
        """Run one queued analysis; False when there was none."""
        job = self.claim()
        if job is None:
            return False
        self.run(job)
        return True
