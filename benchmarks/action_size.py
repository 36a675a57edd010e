"""How much the kept answers of action ids take (docs/server.md, "Action ids"): the JSON of
a move's answer, as kept in ``game_actions``, for random moves of each game, and 64 of
them (what one game keeps at most)::

    uv run python benchmarks/action_size.py
"""

from __future__ import annotations

import random
import statistics
import tempfile
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import text

from pasyans.rules import GAMES
from pasyans.server.app import create_app
from pasyans.server.settings import Settings


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="pasyans-actions-"))
    for game in GAMES:
        settings = Settings(
            database_url=f"sqlite:///{tmp / game}.sqlite3",
            data_dir=tmp,
            solver_prestart=False,
            rate_new_game_per_minute=0,
            rate_new_player_per_hour=0,
        )
        app = create_app(settings)
        with TestClient(app) as c:
            new = {"game": game, "solvable": False}
            g = c.post("/api/games", json={**new, "deal": 7}).json()
            rng = random.Random(1)
            for i in range(60):
                while g["status"] != "playing" or not g["view"]["moves"]:
                    g = c.post("/api/games", json={**new, "deal": 8 + i}).json()
                m = rng.choice(g["view"]["moves"])["text"]
                body = {"move": m, "version": g["version"], "action": f"size-{i:06d}"}
                g = c.post(f"/api/games/{g['id']}/moves", json=body).json()
        with app.state.engine.connect() as conn:
            rows = conn.execute(text("SELECT answer FROM game_actions"))
            sizes = [len(r[0].encode()) for r in rows]
        app.state.engine.dispose()
        med = statistics.median(sizes)
        print(f"{game:>16}: {len(sizes)} answers, median {med:.0f} B, max {max(sizes)} B;"
              f" 64 of them {64 * med / 1024:.0f} KiB")  # fmt: skip


if __name__ == "__main__":
    main()
