"""Limited clients are slowed, not answered at full speed: a ``429`` is held
``rate_refusal_delay_seconds`` in the event loop (no thread, no database connection), and one
address has at most ``rate_address_concurrency`` costly requests in progress at once. A
client that is never refused is never delayed. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from typing import Any

import httpx
from fastapi import FastAPI
from fastapi.testclient import TestClient

from pasyans.server.security import AddressSlots


def _run(main: Any) -> Any:
    """``asyncio.run(main)`` on a fresh event loop in a thread of its own: a test process
    may already have a loop running in its main thread (Playwright's sync API, from the
    browser tests that ran earlier in the same pytest worker), where ``asyncio.run``
    refuses to start."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main).result()


SPINE = {"game": "spine"}


def _client(app: FastAPI, address: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url="http://test",
        headers={"X-Forwarded-For": address},
    )


def test_a_refusal_is_held_and_an_allowance_is_not(make_app: Any) -> None:
    app = make_app(rate_new_game_per_minute=1, rate_new_game_burst=1,
                   rate_refusal_delay_seconds=10.0)  # fmt: skip
    with TestClient(app) as c:
        t0 = time.monotonic()
        assert c.post("/api/games", json=SPINE).status_code == 201
        allowed = time.monotonic() - t0
        t0 = time.monotonic()
        r = c.post("/api/games", json=SPINE)
        refused = time.monotonic() - t0
    assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
    retry = int(r.headers["retry-after"])
    # Held for the delay, at most the Retry-After (here 60 s: a new game a minute).
    assert refused >= min(10.0, retry) - 0.05
    assert allowed < 10.0  # the allowed one was not held


def test_the_delay_is_capped_by_retry_after(make_app: Any) -> None:
    # A new game a second: Retry-After 1, so a delay of 10 s is cut to 1 s.
    app = make_app(rate_new_game_per_minute=60, rate_new_game_burst=1,
                   rate_refusal_delay_seconds=10.0)  # fmt: skip
    app.state.limits.clock = lambda: 1_000_000.0  # the bucket does not refill meanwhile
    with TestClient(app) as c:
        assert c.post("/api/games", json=SPINE).status_code == 201
        t0 = time.monotonic()
        r = c.post("/api/games", json=SPINE)
        refused = time.monotonic() - t0
    assert r.status_code == 429 and r.headers["retry-after"] == "1"
    assert 0.95 <= refused < 10.0


def test_no_delay_when_turned_off(make_app: Any) -> None:
    app = make_app(rate_new_game_per_minute=1, rate_new_game_burst=1,
                   rate_refusal_delay_seconds=0.0)  # fmt: skip
    with TestClient(app) as c:
        assert c.post("/api/games", json=SPINE).status_code == 201
        t0 = time.monotonic()
        r = c.post("/api/games", json=SPINE)
        assert r.status_code == 429
        assert time.monotonic() - t0 < 10.0


def test_held_refusals_hold_no_thread_and_no_connection(make_app: Any) -> None:
    """Twelve refusals decided by the route (not the middleware's precheck) are held at
    once, from twelve addresses, with a database pool of one connection and a thread pool
    of two: a move of another player is answered while they all wait."""
    import anyio.to_thread

    app = make_app(rate_new_game_per_minute=1, rate_new_game_burst=1,
                   rate_refusal_delay_seconds=3.0, trust_proxy=True,
                   db_pool_size=1)  # fmt: skip
    addresses = [f"198.18.0.{i + 1}" for i in range(12)]

    async def run() -> list[str]:
        anyio.to_thread.current_default_thread_limiter().total_tokens = 2
        done: list[str] = []
        async with _client(app, "198.19.0.1") as player:
            r = await player.post("/api/games", json=SPINE)
            assert r.status_code == 201
            g = r.json()
            clients = [_client(app, a) for a in addresses]
            for c in clients:  # each a player of its own (the cookie of its first answer)
                assert (await c.post("/api/games", json=SPINE)).status_code == 201
            app.state.limits.seen.clear()  # so that the route, not the precheck, refuses

            async def refused(c: httpx.AsyncClient) -> None:
                r = await c.post("/api/games", json=SPINE)
                assert r.status_code == 429
                done.append("refused")

            async def move() -> None:
                await asyncio.sleep(0.5)  # the refusals are being held by now
                body = {"move": g["view"]["moves"][0]["text"], "version": g["version"]}
                r = await player.post(f"/api/games/{g['id']}/moves", json=body)
                assert r.status_code == 200, r.text
                done.append("move")

            await asyncio.gather(move(), *(refused(c) for c in clients))
            for c in clients:
                await c.aclose()
        return done

    done = _run(run())
    assert done[0] == "move" and done.count("refused") == 12


def test_costly_requests_of_one_address_wait_their_turn(make_app: Any) -> None:
    """With one slot per address, two refused requests of one address are held one after
    the other (about twice the delay), while another address's refusal is held once."""
    app = make_app(rate_new_game_per_minute=1, rate_new_game_burst=1,
                   rate_refusal_delay_seconds=1.5, rate_address_concurrency=1,
                   trust_proxy=True)  # fmt: skip

    async def run() -> dict[str, float]:
        ended: dict[str, float] = {}
        a1, a2, b = (_client(app, "198.18.0.1"), _client(app, "198.18.0.1"),
                     _client(app, "198.18.0.2"))  # fmt: skip
        for c in (a1, b):
            assert (await c.post("/api/games", json=SPINE)).status_code == 201
        a2.cookies.update(a1.cookies)
        t0 = time.monotonic()

        async def refused(name: str, c: httpx.AsyncClient) -> None:
            r = await c.post("/api/games", json=SPINE)
            assert r.status_code == 429
            ended[name] = time.monotonic() - t0

        await asyncio.gather(refused("a1", a1), refused("a2", a2), refused("b", b))
        for c in (a1, a2, b):
            await c.aclose()
        return ended

    ended = _run(run())
    first, second = sorted((ended["a1"], ended["a2"]))
    assert first >= 1.45 and second >= 2.95  # one after the other
    assert 1.45 <= ended["b"] < second  # another address does not wait for them


def test_a_fair_player_is_never_held(make_app: Any) -> None:
    """The fair player of test_limits.py (a new game, then a hint before each move) with
    the default limits and a refusal delay of 10 s: every answer is an allowance, none is
    held (each answer takes less than the delay)."""
    app = make_app(rate_search_per_minute=60, rate_search_burst=30, rate_new_game_per_minute=60,
                   rate_new_game_burst=30, rate_hint_any_per_minute=240,
                   rate_hint_any_burst=120, rate_new_player_per_hour=60,
                   rate_refusal_delay_seconds=10.0, hint_seconds=0.05)  # fmt: skip
    slowest = 0.0
    with TestClient(app) as c:
        for deal in (11, 13):
            t0 = time.monotonic()
            r = c.post("/api/games", json={"game": "spine", "deal": deal, "solvable": True})
            slowest = max(slowest, time.monotonic() - t0)
            assert r.status_code == 201
            g = r.json()
            for _ in range(8):
                if not g["view"]["moves"]:
                    break
                t0 = time.monotonic()
                h = c.post(f"/api/games/{g['id']}/hint", json={"version": g["version"]})
                slowest = max(slowest, time.monotonic() - t0)
                assert h.status_code == 200, h.text
                g = h.json()
                move = g["hint"]["move"] or g["view"]["moves"][0]
                body = {"move": move["text"], "version": g["version"]}
                r = c.post(f"/api/games/{g['id']}/moves", json=body)
                assert r.status_code == 200, r.text
                g = r.json()
    assert slowest < 10.0


def test_address_slots_forget_idle_addresses() -> None:
    slots = AddressSlots(2, wait_seconds=0.2)

    async def run() -> list[bool]:
        got: list[bool] = []
        async with slots.hold("a") as one, slots.hold("a") as two:
            got += [one, two]
            assert slots.in_progress("a") == 2
            async with slots.hold("a") as three:  # no third slot: refused after the wait
                got.append(three)
            async with slots.hold("b") as other:
                got.append(other)
        assert slots.in_progress("a") == 0 and not slots._slots
        return got

    assert _run(run()) == [True, True, False, True]


def test_one_app_served_from_two_event_loops(make_app: Any) -> None:
    """Two test clients of one app (each its own event loop) racing new games from one
    address: no error (the slots of an address are per event loop)."""
    import threading

    app = make_app(rate_address_concurrency=1)  # so that they contend
    statuses: list[int] = []

    def play(c: TestClient) -> None:
        for _ in range(10):
            statuses.append(c.post("/api/games", json=SPINE).status_code)

    with TestClient(app) as a, TestClient(app) as b:
        threads = [threading.Thread(target=play, args=(c,)) for c in (a, b)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert statuses.count(201) == 20
