"""Deal links name the generator version (docs/api.md, "Old deals and links"): a solvable deal
asked for by number and version is that version's layout, made by the pool's worker when
missing, with the same limits; an unknown version is refused and creates nothing. On
SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from pasyans import deals
from pasyans.cards import card_code
from pasyans.deals import SolvableDeal
from pasyans.engine import initial_state
from pasyans.rules import get_game
from pasyans.server.pool import entries as pool
from pasyans.server.storage.models import DealJob, GameRow, PoolEntry

SPINE = get_game("spine")


def _spine(state: Any) -> list[str]:
    return [card_code(c) for c in state.piles[SPINE.index["spine"]]]


def _counts(app: Any) -> tuple[int, int, int]:
    with app.state.sessionmaker() as s:
        return tuple(  # type: ignore[return-value]
            s.scalar(select(func.count()).select_from(m)) for m in (GameRow, DealJob, PoolEntry)
        )


def test_a_version_3_number_keeps_its_layout(client: TestClient) -> None:
    old = deals.make_solvable("spine", {}, 7, "easy", 3).state
    new = deals.make_solvable("spine", {}, 7, "easy", deals.GENERATOR_VERSION).state
    assert _spine(old) != _spine(new)  # else the test could not tell them apart
    body = {"game": "spine", "deal": 7, "difficulty": "easy"}
    r = client.post("/api/games", json={**body, "generator": 3})
    assert r.status_code == 201, r.text
    g3 = r.json()
    assert g3["generator"] == 3 and g3["kind"] == "solvable"
    assert g3["view"]["piles"]["spine"]["cards"] == _spine(old)
    assert client.get(f"/api/games/{g3['id']}").json()["generator"] == 3
    # Without a version, and with the current one named: the current version's layout.
    for extra in ({}, {"generator": deals.GENERATOR_VERSION}):
        g = client.post("/api/games", json={**body, **extra}).json()
        assert g["generator"] == deals.GENERATOR_VERSION
        assert g["view"]["piles"]["spine"]["cards"] == _spine(new)
    # A random deal has no version (the generator does not make it).
    r = client.post("/api/games", json={**body, "solvable": False, "generator": 3})
    assert r.status_code == 201 and r.json()["generator"] is None
    random = initial_state(SPINE, 7)
    assert r.json()["view"]["piles"]["spine"]["cards"] == _spine(random)


@pytest.mark.parametrize("bad", [99, 0, 1, -3])
def test_an_unknown_version_is_refused_and_creates_nothing(client: TestClient, bad: int) -> None:
    before = _counts(client.app)
    r = client.post("/api/games", json={"game": "spine", "deal": 8, "generator": bad})
    assert r.status_code == 422, r.text
    message = r.json()["error"]["message"]
    assert message.startswith("generator version")
    assert ("is retired" if bad == 1 else f"'{bad}' is not available") in message
    assert _counts(client.app) == before


def test_an_older_version_needs_a_number(client: TestClient) -> None:
    before = _counts(client.app)
    r = client.post("/api/games", json={"game": "spine", "generator": 3})
    assert r.status_code == 422, r.text
    assert "only dealt by number" in r.json()["error"]["message"]
    assert _counts(client.app) == before
    # The current version without a number is a new deal, as without the field.
    body = {"game": "spine", "generator": deals.GENERATOR_VERSION}
    assert client.post("/api/games", json=body).status_code == 201


def test_the_worker_makes_the_version_asked_for(
    make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(pool_inline=False)

    def stand_in(g: str, o: Any, d: int, band: str, generator: int | None = None) -> SolvableDeal:
        version = deals.GENERATOR_VERSION if generator is None else generator
        return SolvableDeal(initial_state(SPINE, d + version), band, 0.5, version)

    body = {"game": "spine", "deal": 4243, "difficulty": "hard", "generator": 3}
    with TestClient(app) as c:
        assert c.post("/api/games", json=body).status_code == 202
        assert c.post("/api/games", json=body).status_code == 202  # the same job
        current = {k: v for k, v in body.items() if k != "generator"}
        assert c.post("/api/games", json=current).status_code == 202  # another version
    with app.state.sessionmaker() as s:
        jobs = sorted((j.deal, j.generator) for j in s.scalars(select(DealJob)))
        assert jobs == [(4243, 3), (4243, deals.GENERATOR_VERSION)]
    monkeypatch.setattr(pool, "make_solvable", stand_in)
    worker = pool.PoolWorker(app.state.sessionmaker, pool.WorkerConfig(target=0))
    assert worker.step() and worker.step() and worker.made == 2
    with TestClient(app) as c:
        g3 = c.post("/api/games", json=body).json()
        g4 = c.post("/api/games", json=current).json()
    assert (g3["generator"], g4["generator"]) == (3, deals.GENERATOR_VERSION)
    assert g3["view"]["piles"]["spine"]["cards"] == _spine(initial_state(SPINE, 4246))
    assert g4["view"]["piles"]["spine"]["cards"] == _spine(
        initial_state(SPINE, 4243 + deals.GENERATOR_VERSION)
    )
