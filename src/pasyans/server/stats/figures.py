"""The figures the API shows, read from the kept figures (:mod:`pasyans.server.stats.kept`):
a few rows per option set whatever the number of games; a page of the history; the reset."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, select, text
from sqlalchemy.orm import Session

from pasyans.server.stats.charts import points as chart
from pasyans.server.stats.counting import catalog_order
from pasyans.server.stats.kept import KEY, SCOPE_COLUMNS, TALLY_FIELDS, Scope, Tally
from pasyans.server.stats.rows import COLUMNS, POINTS_LIMIT, Record, playing_index, record_from
from pasyans.server.storage import store
from pasyans.server.storage.models import ALL, GameRow, PlayerStats


def history(
    session: Session, player: int | None, *, page: int, per_page: int
) -> tuple[list[Record], int]:
    """One page of the player's counted games, newest first, and how many there are."""
    if player is None:
        return [], 0
    where = (GameRow.player_id == player, GameRow.first_move_at.is_not(None))
    total = counted_games(session, player)
    stmt = (
        select(*COLUMNS)
        .where(*where)
        .order_by(GameRow.created_at.desc(), GameRow.id.desc())
        .limit(per_page)
        .offset((page - 1) * per_page)
    )
    return [record_from(r, r.line) for r in session.execute(stmt)], total


def counted_games(session: Session, player: int) -> int:
    """How many counted games the player has, in O(1): the finished ones from the kept
    total (each is folded in once, when it finishes), the unfinished ones through the
    partial index of games in progress (one per option set at most)."""
    total = {"k_player": player} | {f"k_{c}": ALL for c in SCOPE_COLUMNS}
    played = session.scalar(select(PlayerStats.played).where(KEY), total)
    progress = session.execute(
        text(
            f"SELECT count(*) FROM games {playing_index(session)}"
            " WHERE player_id = :player AND status = 'playing' AND first_move_at IS NOT NULL"
        ),
        {"player": player},
    ).scalar_one()
    return (played or 0) + int(progress)


def reset(session: Session, player: int | None) -> int:
    """Forget the player's finished games (figures, charts and history start again); games
    in progress stay. Returns how many games were deleted. The caller commits."""
    if player is None:
        return 0
    result = session.execute(
        delete(GameRow).where(GameRow.player_id == player, GameRow.status != store.PLAYING)
    )
    session.execute(delete(PlayerStats).where(PlayerStats.player_id == player))
    return int(getattr(result, "rowcount", 0) or 0)


def figures_of(
    t: Tally,
    in_progress: int,
    bests: dict[str, dict[str, Any]],
    points: list[dict[str, Any]],
) -> dict[str, Any]:
    """The API's figures from a kept tally (the same shape as :func:`summarize`)."""

    def best(value: int | None, game_id: str | None) -> dict[str, Any] | None:
        if value is None or game_id is None or game_id not in bests:
            return None
        return {"value": value, **bests[game_id]}

    return {
        "played": t.played,
        "won": t.won,
        "lost": t.played - t.won,
        "given_up": t.given_up,
        "abandoned": t.abandoned,
        "win_rate": round(t.won / t.played, 4) if t.played else None,
        "clean_wins": t.clean_wins,
        "in_progress": in_progress,
        "current_streak": t.current_streak,
        "best_streak": t.best_streak,
        "best_time": best(t.best_time_ms, t.best_time_id),
        "fewest_moves": best(t.fewest_moves, t.fewest_moves_id),
        "average_time_ms": round(t.won_time_ms / t.won) if t.won else None,
        "average_moves": round(t.won_moves / t.won, 1) if t.won else None,
        "hints": t.hints,
        "undos": t.undos,
        "points": points,
    }


def parse_key(key: str) -> dict[str, str]:
    """The options of an option key: ``"runs=single&spine=56"`` → ``{"runs": …}``."""
    return dict(part.split("=", 1) for part in key.split("&") if "=" in part)


def kept_statistics(
    session: Session,
    player: int | None,
    *,
    game: str | None = None,
    key: str | None = None,
    points: int = POINTS_LIMIT,
) -> dict[str, Any]:
    """What :func:`statistics` gives over :func:`records`, from the kept figures: a few
    rows per option set, whatever the number of games."""
    if player is None:
        return {"total": figures_of(Tally(), 0, {}, []), "games": []}
    stmt = select(PlayerStats).where(PlayerStats.player_id == player)
    if game is not None:
        stmt = stmt.where(PlayerStats.game.in_([game, ALL]))
    kept = {(r.game, r.options_key, r.kind, r.difficulty): r for r in session.scalars(stmt)}
    progress = _in_progress(session, player, game, key)
    groups = {(g, k) for (g, k, kind, _d) in kept if g != ALL and k != ALL and kind == ALL}
    groups = {gk for gk in groups | set(progress) if key is None or gk[1] == key}
    if game is not None:
        groups = {gk for gk in groups if gk[0] == game}
    total_scope = (ALL, ALL, ALL, ALL) if game is None else (
        (game, ALL, ALL, ALL) if key is None else (game, key, ALL, ALL)
    )  # fmt: skip

    def tally(scope: Scope) -> Tally:
        row = kept.get(scope)
        return Tally() if row is None else Tally(**{f: getattr(row, f) for f in TALLY_FIELDS})

    tallies = {gk: tally((gk[0], gk[1], ALL, ALL)) for gk in groups}
    # Each option set split by deal kind and difficulty ("-" for a random deal).
    bands: dict[tuple[str, str], list[tuple[str, str, Tally]]] = {gk: [] for gk in groups}
    for g, k, kind, difficulty in sorted(kept, key=_band_order):
        if kind != ALL and (g, k) in bands:
            bands[(g, k)].append((kind, difficulty, tally((g, k, kind, difficulty))))
    total = tally(total_scope)
    bests = _bests(
        session, player, [total, *tallies.values(), *(b[2] for bs in bands.values() for b in bs)]
    )
    out = []
    charts: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for g, k in sorted(groups, key=lambda gk: (catalog_order(gk[0]), gk)):
        charts[(g, k)] = chart(session, player, g, k, points, tallies[(g, k)].played)
        figures = figures_of(tallies[(g, k)], progress.get((g, k), 0), bests, charts[(g, k)])
        by_band = [
            {"kind": kind, "difficulty": None if d == "-" else d} | figures_of(t, 0, bests, [])
            for kind, d, t in bands[(g, k)]
        ]
        out.append({"game": g, "options": parse_key(k), "options_key": k} | figures
                   | {"bands": by_band})  # fmt: skip
    # With one option set, the total's chart is that set's: not read twice.
    total_points = (
        next(iter(charts.values()))
        if len(charts) == 1
        else chart(session, player, game, key, points, total.played)
    )
    total_figures = figures_of(
        total, sum(progress.get(gk, 0) for gk in groups), bests, total_points
    )
    return {"total": total_figures, "games": out}


def _in_progress(
    session: Session, player: int, game: str | None, key: str | None
) -> dict[tuple[str, str], int]:
    """The counted games in progress per (game, option key), one per option set at most:
    counted here, not grouped in SQL, so the planner reads the small partial index
    ``ux_games_one_playing``."""
    stmt = text(
        f"SELECT game, options_key, first_move_at FROM games {playing_index(session)} "
        "WHERE player_id = :player AND status = 'playing'"
    )
    progress: dict[tuple[str, str], int] = {}
    for g, k, first in session.execute(stmt, {"player": player}):
        if first is not None and (game is None or g == game) and (key is None or k == key):
            progress[(g, k)] = progress.get((g, k), 0) + 1
    return progress


def _bests(session: Session, player: int, tallies: list[Tally]) -> dict[str, dict[str, Any]]:
    """The games behind the tallies' best time and fewest moves, by id: what the figures
    show of them."""
    ids = {i for t in tallies for i in (t.best_time_id, t.fewest_moves_id) if i is not None}
    bests: dict[str, dict[str, Any]] = {}
    if ids:
        for r in session.execute(
            select(GameRow.id, GameRow.deal, GameRow.kind, GameRow.game, GameRow.options).where(
                GameRow.id.in_(ids), GameRow.player_id == player
            )
        ):
            bests[r.id] = {
                "deal": r.deal,
                "kind": r.kind,
                "game": r.game,
                "options": {str(k): str(v) for k, v in dict(r.options).items()},
                "id": r.id,
            }
    return bests


_BANDS = {"-": 0, "easy": 1, "medium": 2, "hard": 3}


def _band_order(scope: Scope) -> tuple[str, str, bool, int, str]:
    """Random deals first, then easy, medium, hard."""
    g, k, kind, d = scope
    return g, k, kind != "random", _BANDS.get(d, 9), d
