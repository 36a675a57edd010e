"""Rate limits: 429 with Retry-After, per player and per client address, counted in the
database (so several workers share them), a cap on new players per address, and a fair
player (a hint per move, a new game a minute) never refused. On SQLite and PostgreSQL."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from server_helpers import move, new_game, post, state
from sqlalchemy.orm import sessionmaker
from starlette.requests import Request

from pasyans import caches
from pasyans.server.limits.address import client_address
from pasyans.server.limits.costly import COSTLY, costly
from pasyans.server.limits.deps import (
    HintLimit,
    LinkLimit,
    NewGameLimit,
    ReplayLimit,
    UndoRedoLimit,
)
from pasyans.server.limits.rates import Limit, SharedLimits, _gcra
from pasyans.server.settings import Settings


class RateLimiter:
    """One GCRA bucket per key in memory: the algorithm :class:`SharedLimits` keeps in the
    database, without the database."""

    def __init__(self, per_minute: float, burst: int) -> None:
        self.limit = Limit("memory", per_minute, burst)
        self.tat: dict[str, int] = {}

    def check(self, key: str, now: float) -> float:
        new, wait = _gcra(self.tat.get(key, 0), round(now * 1000), self.limit)
        if wait == 0:
            self.tat[key] = new
        return wait / 1000


def test_token_bucket() -> None:
    lim = RateLimiter(per_minute=60, burst=2)
    assert lim.check("a", now=0.0) == 0
    assert lim.check("a", now=0.0) == 0
    assert lim.check("a", now=0.0) > 0  # burst spent
    assert lim.check("b", now=0.0) == 0  # per player
    assert lim.check("a", now=1.01) == 0  # one token a second


def test_new_game_rate_limited(make_app: Any) -> None:
    app = make_app(rate_new_game_per_minute=1, rate_new_game_burst=2)
    with TestClient(app) as c:
        body = {"game": "spine"}
        assert c.post("/api/games", json=body).status_code == 201
        assert c.post("/api/games", json=body).status_code == 201
        r = c.post("/api/games", json=body)
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert int(r.headers["retry-after"]) >= 1
        assert len(c.get("/api/games").json()["games"]) == 2


def _spine_random(c: TestClient) -> dict[str, Any]:
    """A random Spine deal: no card hidden, so a hint runs the exact search."""
    r = c.post("/api/games", json={"game": "spine", "deal": 7, "solvable": False})
    assert r.status_code == 201, r.text
    return dict(r.json())


def _other_move(g: dict[str, Any], hint: dict[str, Any] | None) -> str:
    """A legal move that is not the hint's (so the next position is not on a known line)."""
    avoid = hint["move"]["text"] if hint and hint["move"] else None
    return str(next(m["text"] for m in g["view"]["moves"] if m["text"] != avoid))


def test_searches_are_limited(make_app: Any) -> None:
    """Flooding the solver (a new position, a hint, again) is refused with 429."""
    app = make_app(rate_search_per_minute=1, rate_search_burst=1)
    with TestClient(app) as c:
        g = _spine_random(c)
        r = c.post(f"/api/games/{g['id']}/hint", json={"version": g["version"]})
        assert r.status_code == 200
        g = r.json()
        g = c.post(
            f"/api/games/{g['id']}/moves",
            json={"version": g["version"], "move": _other_move(g, g["hint"])},
        ).json()
        r = c.post(f"/api/games/{g['id']}/hint", json={"version": g["version"]})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
        r = c.post(f"/api/games/{g['id']}/winnable", json={"version": g["version"]})
        assert r.status_code == 429
        assert c.get(f"/api/games/{g['id']}").json()["version"] == g["version"]


def test_known_hint_costs_nothing(make_app: Any) -> None:
    """Asking again on a position whose answer is known needs no search and no allowance."""
    app = make_app(rate_search_per_minute=1, rate_search_burst=1)
    with TestClient(app) as c:
        g = _spine_random(c)
        first = None
        for _ in range(6):
            r = c.post(f"/api/games/{g['id']}/hint", json={"version": g["version"]})
            assert r.status_code == 200, r.text
            g = r.json()
            first = first or g["hint"]
            assert g["hint"] == first
        for _ in range(3):
            r = c.post(f"/api/games/{g['id']}/winnable", json={"version": g["version"]})
            assert r.status_code == 200, r.text


def test_hint_flood_is_limited(make_app: Any) -> None:
    """Even answers that cost no search have a (loose) flood limit."""
    app = make_app(rate_hint_any_per_minute=1, rate_hint_any_burst=3)
    with TestClient(app) as c:
        g = c.post("/api/games", json={"game": "spider", "deal": 3}).json()
        codes = []
        for _ in range(5):
            r = c.post(f"/api/games/{g['id']}/hint", json={"version": g["version"]})
            codes.append(r.status_code)
            if r.status_code == 200:
                g = r.json()
        assert codes == [200, 200, 200, 429, 429]


def test_cookieless_new_players_capped_per_address(make_app: Any) -> None:
    """Each request without a cookie is a new player: one address may make only so many.
    (Before: 100 of 100 cookieless new games were accepted.)"""
    app = make_app(rate_new_player_per_hour=60, rate_new_player_burst=5)
    codes = []
    for _ in range(12):
        with TestClient(app) as c:  # a fresh cookie jar: a new player each time
            codes.append(c.post("/api/games", json={"game": "spider"}).status_code)
    assert codes.count(201) == 5 and codes.count(429) == 7
    with TestClient(app, client=("192.0.2.9", 5000)) as c:  # another address is not affected
        assert c.post("/api/games", json={"game": "spider"}).status_code == 201


def hints_with_fresh_cookies(app: Any) -> list[int]:
    """A hint each from three new players (fresh cookies) on one address: the status codes."""
    codes = []
    for deal in (7, 8, 9):
        with TestClient(app) as c:
            r = c.post("/api/games", json={"game": "spine", "deal": deal, "solvable": False})
            g = r.json()
            codes.append(
                c.post(f"/api/games/{g['id']}/hint", json={"version": g["version"]}).status_code
            )
    return codes


def test_fresh_cookie_is_no_fresh_allowance(make_app: Any) -> None:
    """The search allowance holds per address too: new cookies do not reset it."""
    app = make_app(rate_search_per_minute=1, rate_search_burst=1, rate_address_factor=2)
    assert hints_with_fresh_cookies(app) == [200, 200, 429]


def test_limits_hold_across_workers(make_app: Any) -> None:
    """Two apps on one database (two workers): one player's count is shared."""
    a = make_app(rate_new_game_per_minute=1, rate_new_game_burst=2)
    b = make_app(rate_new_game_per_minute=1, rate_new_game_burst=2)
    with TestClient(a) as ca:
        assert ca.post("/api/games", json={"game": "spider"}).status_code == 201
        with TestClient(b, cookies=dict(ca.cookies)) as cb:
            assert cb.post("/api/games", json={"game": "spider"}).status_code == 201
            assert cb.post("/api/games", json={"game": "spider"}).status_code == 429
        assert ca.post("/api/games", json={"game": "spider"}).status_code == 429


def _request(peer: str, forwarded: str | None = None) -> Request:
    headers = [] if forwarded is None else [(b"x-forwarded-for", forwarded.encode())]
    return Request({"type": "http", "client": (peer, 1234), "headers": headers})


def test_client_address_believes_trusted_proxies_only() -> None:
    off = Settings(trust_proxy=False)
    on = Settings(trust_proxy=True, forwarded_allow_ips="127.0.0.1, 10.0.0.0/8")
    assert client_address(_request("127.0.0.1", "203.0.113.5"), off) == "127.0.0.1"
    assert client_address(_request("127.0.0.1", "203.0.113.5"), on) == "203.0.113.5"
    # A client that is not a trusted proxy cannot choose its address.
    assert client_address(_request("198.51.100.7", "203.0.113.5"), on) == "198.51.100.7"
    # The right-most address that is not a trusted proxy: earlier entries are the client's
    # own claims, appended to by each proxy.
    chain = "1.1.1.1, 203.0.113.5, 10.1.2.3"
    assert client_address(_request("127.0.0.1", chain), on) == "203.0.113.5"
    # IPv6 clients count per /64.
    assert client_address(_request("2001:db8:1:2::5"), off) == "2001:db8:1:2::/64"
    assert client_address(_request("2001:db8:1:2:ffff::9"), off) == "2001:db8:1:2::/64"


def test_limits_per_forwarded_address(make_app: Any) -> None:
    """Behind a trusted proxy each forwarded address has its own new-player cap."""
    app = make_app(
        rate_new_player_per_hour=60,
        rate_new_player_burst=2,
        trust_proxy=True,
        forwarded_allow_ips="127.0.0.1",
    )
    codes: dict[str, list[int]] = {"203.0.113.1": [], "203.0.113.2": []}
    for who in itertools.chain.from_iterable(itertools.repeat(list(codes), 3)):
        with TestClient(app, client=("127.0.0.1", 5000)) as c:
            r = c.post("/api/games", json={"game": "spider"}, headers={"X-Forwarded-For": who})
            codes[who].append(r.status_code)
    assert codes == {"203.0.113.1": [201, 201, 429], "203.0.113.2": [201, 201, 429]}


def test_gcra_allows_the_rate_and_the_burst(make_app: Any) -> None:
    app = make_app()
    limits: SharedLimits = app.state.limits
    lim = Limit("t", per_minute=60, burst=3)
    key = [("t:p:x", lim)]
    t = 1_000_000_000_000
    assert [limits.hit(key, t) for _ in range(4)][:3] == [0, 0, 0]
    assert limits.hit(key, t) > 0  # burst spent; refused requests are not counted
    assert limits.hit(key, t + 1000) == 0  # one a second
    assert limits.hit(key, t + 1000) > 0


def _app_with_default_limits(make_app: Any, hint_seconds: float) -> tuple[Any, list[float]]:
    """An app with the default hint and new-game limits, and the clock its limits read
    (a one-element list to move forward)."""
    defaults = Settings()
    app = make_app(
        rate_search_per_minute=defaults.rate_search_per_minute,
        rate_hint_any_per_minute=defaults.rate_hint_any_per_minute,
        rate_new_game_per_minute=defaults.rate_new_game_per_minute,
        rate_new_player_per_hour=defaults.rate_new_player_per_hour,
        hint_seconds=hint_seconds,
    )
    clock = [1_900_000_000.0]
    app.state.limits.clock = lambda: clock[0]
    return app, clock


def test_fair_player_is_never_refused(make_app: Any) -> None:
    """Default limits. A player who asks for a hint after every move and follows it to a
    win, at a move a second, then starts a new game a minute later: never a 429. Issue 13:
    following the hints to a win hit the rate limit 8 times."""
    caches.clear()
    app, clock = _app_with_default_limits(make_app, Settings().hint_seconds)
    with TestClient(app) as c:
        # Deals whose views stay cheap: at some positions of other deals the engine's
        # autocollect check in the view takes seconds, which is not what is tested here.
        for deal in (11, 13):
            r = c.post("/api/games", json={"game": "spine", "deal": deal, "solvable": True})
            assert r.status_code == 201, r.text
            g = r.json()
            hinted = 0
            while g["status"] == "playing" and hinted < 400:
                r = c.post(f"/api/games/{g['id']}/hint", json={"version": g["version"]})
                assert r.status_code == 200, (hinted, r.text)
                g = r.json()
                hinted += 1
                move = g["hint"]["move"]
                assert move is not None, g["hint"]
                r = c.post(
                    f"/api/games/{g['id']}/moves",
                    json={"version": g["version"], "move": move["text"]},
                )
                assert r.status_code == 200, r.text
                g = r.json()
                clock[0] += 1.0
            assert g["status"] == "won"
            clock[0] += 60.0


def test_fair_player_with_hidden_cards_is_never_refused(make_app: Any) -> None:
    """Default limits. With cards hidden every hint is a sampled search (counted against
    the ``search`` limit, since this session): a player who asks for a hint before every
    move, at a move a second, plays on without a 429 (Spider, one suit)."""
    caches.clear()
    # the limits are tested, not the hints: keep each one short
    app, clock = _app_with_default_limits(make_app, 0.02)
    with TestClient(app) as c:
        body = {"game": "spider", "options": {"suits": 1}, "deal": 5, "solvable": False}
        r = c.post("/api/games", json=body)
        assert r.status_code == 201, r.text
        g = r.json()
        for hinted in range(90):  # beyond the burst of 30
            if g["status"] != "playing" or not g["view"]["moves"]:
                break
            r = c.post(f"/api/games/{g['id']}/hint", json={"version": g["version"]})
            assert r.status_code == 200, (hinted, r.text)
            g = r.json()
            move = g["hint"]["move"] or g["view"]["moves"][0]
            r = c.post(
                f"/api/games/{g['id']}/moves", json={"version": g["version"], "move": move["text"]}
            )
            assert r.status_code == 200, r.text
            g = r.json()
            clock[0] += 1.0
        assert hinted >= 60, hinted


def test_a_spent_limit_is_refused_without_the_database(make_app: Any) -> None:
    """Once this process has seen a bucket full, the next request of that player or address
    is refused by the middleware: no body parsed (a malformed one still gets 429), no
    limit read from the database; the answer is the route's 429."""
    app = make_app(rate_new_game_per_minute=1, rate_new_game_burst=1)
    limits: SharedLimits = app.state.limits
    with TestClient(app) as c:
        assert c.post("/api/games", json={"game": "spine"}).status_code == 201
        by_route = c.post("/api/games", json={"game": "spine"})  # refused by the counters
        assert by_route.status_code == 429
        calls: list[object] = []
        real_hit = limits.hit

        def counting(*args: Any, **kwargs: Any) -> float:
            calls.append(args)
            return real_hit(*args, **kwargs)

        limits.hit = counting  # type: ignore[method-assign]
        early = c.post(
            "/api/games", content=b'{"game": ', headers={"content-type": "application/json"}
        )
        assert early.status_code == 429 and calls == []
        assert early.json() == by_route.json()
        for name in ("cache-control", "content-security-policy"):
            assert early.headers[name] == by_route.headers[name]
        # The wait counts down between the two requests (seconds apart on a busy machine).
        assert 0 <= int(by_route.headers["retry-after"]) - int(early.headers["retry-after"]) <= 30
        # A hint of the same player is another limit: not refused here.
        g = c.get("/api/games").json()["games"][0]
        assert c.post(f"/api/games/{g['id']}/hint", json={"version": 0}).status_code != 429


def test_the_precheck_never_refuses_what_the_counters_allow(make_app: Any) -> None:
    """What one worker saw is at most the shared count: when time has refilled the bucket,
    or another worker's counter allows, the request goes through to the counters."""
    a = make_app(rate_new_game_per_minute=60, rate_new_game_burst=1)
    b = make_app(rate_new_game_per_minute=60, rate_new_game_burst=1)
    now = [1_000_000.0]
    for app in (a, b):
        app.state.limits.clock = lambda: now[0]
    with TestClient(a) as ca:
        assert ca.post("/api/games", json={"game": "spine"}).status_code == 201
        assert ca.post("/api/games", json={"game": "spine"}).status_code == 429
        with TestClient(b, cookies=dict(ca.cookies)) as cb:
            # b has seen nothing: the shared counter refuses, then b refuses by itself.
            assert cb.post("/api/games", json={"game": "spine"}).status_code == 429
            assert b.state.limits.precheck(["new_game"], _player(ca), "testclient") > 0
            now[0] += 1.01  # one a second: the bucket has a token again
            assert a.state.limits.precheck(["new_game"], _player(ca), "testclient") == 0
            assert cb.post("/api/games", json={"game": "spine"}).status_code == 201
            # a's own memory is now behind the shared counter: the counters decide.
            assert a.state.limits.precheck(["new_game"], _player(ca), "testclient") == 0
            assert ca.post("/api/games", json={"game": "spine"}).status_code == 429


def _player(c: TestClient) -> str:
    from pasyans.server.security import COOKIE
    from pasyans.server.storage.store import hash_token

    return hash_token(c.cookies[COOKIE])


def test_searches_per_address_are_capped(make_app: Any) -> None:
    """An address's search allowance is capped (rate_search_address_*), whatever the
    factor: fresh cookies from one address share it."""
    app = make_app(
        rate_search_per_minute=60,
        rate_search_burst=30,
        rate_address_factor=4,
        rate_search_address_per_minute=1,
        rate_search_address_burst=2,
    )
    limits: SharedLimits = app.state.limits
    assert limits.address["search"] == Limit("search", 1, 2)
    assert limits.player["search"] == Limit("search", 60, 30)
    assert hints_with_fresh_cookies(app) == [200, 200, 429]
    d = Settings()
    default = make_app(rate_search_per_minute=d.rate_search_per_minute).state.limits
    assert default.address["search"] == Limit("search", 60, 30)


def test_search_limit_setting_keeps_its_old_name(monkeypatch: Any) -> None:
    """``rate_search_*`` feeds the ``search`` limit; the old ``rate_hint_*`` names, in the
    environment or as arguments, still set it."""
    assert Settings(rate_hint_per_minute=5, rate_hint_burst=3).rate_search_per_minute == 5
    assert Settings(rate_hint_burst=3).rate_search_burst == 3
    monkeypatch.setenv("PASYANS_RATE_HINT_PER_MINUTE", "7")
    assert Settings().rate_search_per_minute == 7
    monkeypatch.setenv("PASYANS_RATE_SEARCH_PER_MINUTE", "8")
    assert Settings().rate_search_per_minute == 8
    s = Settings(rate_search_per_minute=9, rate_search_burst=4, database_url="sqlite://")
    limits = SharedLimits(s, sessionmaker(), None)
    assert (limits.player["search"].per_minute, limits.player["search"].burst) == (9, 4)


def _api_routes(routes: Any) -> Iterator[APIRoute]:
    for r in routes:
        inner = getattr(r, "original_router", None)  # FastAPI keeps included routers whole
        if inner is not None:
            yield from _api_routes(inner.routes)
        elif isinstance(r, APIRoute):
            yield r


def test_costly_routes_are_declared_once(make_app: Any) -> None:
    """The routes that carry a rate-limit dependency are exactly the costly list the
    middleware reads, with the same limits."""
    deps = {
        id(d.dependency): name
        for name, d in (
            ("new_game", NewGameLimit.__metadata__[0]),
            ("hint", HintLimit.__metadata__[0]),
            ("undo_redo", UndoRedoLimit.__metadata__[0]),
            ("replay", ReplayLimit.__metadata__[0]),
            ("link", LinkLimit.__metadata__[0]),
        )
    }
    app = make_app()
    limited = set()
    for route in _api_routes(app.routes):
        names = {deps[id(d.call)] for d in route.dependant.dependencies if id(d.call) in deps}
        path = route.path_format.replace("{game_id}", "abc")
        for method in route.methods:
            entry = costly(method, path)
            assert names == ({entry.name} if entry else set()), (method, route.path)
            if entry:
                limited.add((entry.name, route.path))
    assert {name for name, _ in limited} == {c.name for c in COSTLY}
    assert costly("GET", "/api/games") is None and costly("POST", "/api/games/x/moves") is None


def test_undo_redo_and_replay_are_rate_limited(make_app: Any) -> None:
    """Issue 33, finding 5: undo, redo and replay were unlimited, and one client
    alternating them on a long game took a core. They share the ``history`` bucket, per
    player and per address; a refusal changes nothing."""
    app = make_app(
        rate_history_per_minute=1,
        rate_history_burst=4,
        rate_address_factor=1,
        rate_refusal_delay_seconds=0,
    )
    with TestClient(app) as c:
        g = new_game(c, options={"suits": 1})
        g = move(c, g)
        codes = [post(c, g["id"], "undo", version=2).status_code]
        codes.append(post(c, g["id"], "redo", version=3).status_code)
        codes.append(c.get(f"/api/games/{g['id']}/replay?step=1").status_code)
        codes.append(post(c, g["id"], "undo", version=4).status_code)
        r = post(c, g["id"], "redo", version=5)
        codes.append(r.status_code)
        assert codes == [200, 200, 200, 200, 429]
        assert r.json()["error"]["code"] == "rate_limited" and int(r.headers["retry-after"]) >= 1
        assert c.get(f"/api/games/{g['id']}/replay").status_code == 429
        assert state(c, g["id"])["version"] == 5  # the refused redo changed nothing
    with TestClient(app, client=("192.0.2.9", 5000)) as other:  # another player, address
        h = move(other, new_game(other, options={"suits": 1}))
        assert post(other, h["id"], "undo", version=h["version"]).status_code == 200


def test_newcomers_from_one_address_are_never_turned_away(make_app: Any) -> None:
    """Issue 33, finding 7: new players were limited per address (20 at once, 60 an hour)
    whether or not they came from a browser, so after a cookieless flood, or past the 85th
    fresh browser of an office in 75 minutes, a newcomer got an empty table and 429. Now
    ``new_player`` counts only requests without a cookie: a browser's first request
    (``GET /api/current``) gets its cookie for free. Default limits; 120 newcomers over a
    simulated hour, each after three more cookieless new games of a flood from the same
    address: every newcomer gets a table and plays, the flood stays capped."""
    app, clock = _app_with_default_limits(make_app, Settings().hint_seconds)
    defaults = Settings()
    flood: list[int] = []

    def cookieless() -> None:
        with TestClient(app) as c:  # a fresh cookie jar: no cookie sent
            flood.append(c.post("/api/games", json={"game": "spider"}).status_code)

    for _ in range(30):
        cookieless()
    assert flood.count(201) == defaults.rate_new_player_burst
    start = clock[0]
    for i in range(120):
        clock[0] = start + i * 30.0  # 120 in an hour
        for _ in range(3):
            cookieless()
        with TestClient(app) as c:
            r = c.get("/api/current", params={"game": "spider"})
            assert r.status_code == 200 and r.json() is None
            r = c.post("/api/games", json={"game": "spider"})
            assert r.status_code == 201, (i, r.text)
            g = move(c, r.json())
            assert g["view"]["counters"]["moves"] == 1
    # The flood got its burst and at most an hour's allowance more.
    assert flood.count(201) <= defaults.rate_new_player_burst + defaults.rate_new_player_per_hour
    assert flood.count(429) >= 3 * 120 - defaults.rate_new_player_per_hour
