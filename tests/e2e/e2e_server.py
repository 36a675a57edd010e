"""The real app served by uvicorn on 127.0.0.1 for browser tests (a module of its own, not
the conftest: ``from conftest import …`` picks whichever test directory's conftest was
imported first, which under xdist is not always this one)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from devtools import free_port


@contextmanager
def serve_app(data: Path, *, limits: bool = False) -> Iterator[str]:
    """The real app on 127.0.0.1:PORT (a temporary SQLite database in ``data``); yields its
    base URL. Without ``limits`` the hint and new-game limits are off."""
    import uvicorn

    from pasyans.server.app import create_app
    from pasyans.server.settings import Settings

    off: dict[str, Any] = (
        {}
        if limits
        else {
            "rate_search_per_minute": 0,
            "rate_new_game_per_minute": 0,
            "rate_hint_any_per_minute": 0,
        }
    )
    settings = Settings(
        data_dir=data,
        database_url=f"sqlite:///{data / 'e2e.sqlite3'}",
        rate_new_player_per_hour=0,
        pool_inline=True,
        # A solvable deal is made inside its request here (pool_inline): a Backbone
        # classic medium takes 3-4 s of CPU (eight candidates ranked), and on a CI
        # machine busy with two test workers and their browsers that passed the 10 s
        # watchdog once (a 503). The watchdog has its own tests (tests/server).
        answer_seconds=30.0,
        # Searches in the request's thread: a search process runs at nice 19, and beside
        # two test workers and their browsers at nice 0 it got no CPU within its budget
        # plus the 8 s grace (a "Not known: no answer in time" in CI, twice). The search
        # processes have their own tests (tests/server/test_solving.py, test_serve.py).
        solver_processes=0,
        **off,
    )
    app = create_app(settings)
    # Spine's solvable deal 1 is a layout one autocollect wins (test_stats_pages.py): a
    # real solvable deal never is.
    from devtools import pool_collectable

    with app.state.sessionmaker() as s:
        pool_collectable(s, 1)
        pool_collectable(s, 1, "hard")  # the statistics per difficulty
        s.commit()
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the live server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
