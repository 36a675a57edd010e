"""Small helpers shared by the server tests."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

STARTED = "Application startup complete"
"""What uvicorn logs when a worker has started."""


def wait_until_started(
    proc: subprocess.Popen[bytes], base: str, log: Path, workers: int, before: int = 0
) -> None:
    """Until ``/healthz`` answers and ``workers`` workers have started since the log had
    ``before`` start lines (a restarted server appends to the same log). Callers wait for
    one worker of two: on a machine with a load of 10 on 2 cores the second worker was
    seen killed and restarted by uvicorn's supervisor for two minutes, and the second of
    two may still be importing the app when the first answers."""
    deadline = time.monotonic() + 120
    while True:
        assert proc.poll() is None, log.read_text()
        try:
            started = log.read_text().count(STARTED) - before
            if started >= workers and httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.1)


PASYANS = Path(sys.executable).parent / "pasyans"


CARD = re.compile(r"^(?:[A2-9TJQK][CDHS])$")

GAME_ACTIONS: list[tuple[str, str, dict[str, Any] | None]] = [
    ("GET", "", None),
    ("GET", "/replay", None),
    ("POST", "/moves", {"move": "stock", "version": 1}),
    ("POST", "/retarget", {"move": "t1>t2", "version": 1}),
    ("POST", "/undo", {"version": 1}),
    ("POST", "/redo", {"version": 1}),
    ("POST", "/autocollect", {"version": 1}),
    ("POST", "/restart", {"version": 1}),
    ("POST", "/giveup", {"version": 1}),
    ("POST", "/hint", {"version": 1}),
    ("POST", "/winnable", {"version": 1}),
    ("POST", "/active", {}),
]
"""Every endpoint of one game, ``/api/games/{id}`` + the tail: (method, tail, a valid body
for a game at version 1, None without a body)."""


def new_game(client: TestClient, game: str = "spider", **body: Any) -> dict[str, Any]:
    r = client.post("/api/games", json={"game": game, "deal": 123, **body})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def state(client: TestClient, game_id: str) -> dict[str, Any]:
    r = client.get(f"/api/games/{game_id}")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def post(client: TestClient, game_id: str, action: str, **body: Any) -> Any:
    return client.post(f"/api/games/{game_id}/{action}", json=body)


def move(client: TestClient, g: dict[str, Any], text: str | None = None) -> dict[str, Any]:
    """Play ``text`` (default: the first listed legal move) on ``g``; the new game object."""
    m = text if text is not None else g["view"]["moves"][0]["text"]
    r = post(client, g["id"], "moves", move=m, version=g["version"])
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def strings_outside_piles(data: Any, path: tuple[str, ...] = ()) -> list[str]:
    """Every string in a response except the cards of the view's piles."""
    out: list[str] = []
    if isinstance(data, dict):
        for k, v in data.items():
            if path[-1:] == ("view",) and k == "piles":
                continue
            if path[-2:] == ("view", "moves") and k == "cards":
                continue  # checked against the piles by assert_no_hidden
            out += strings_outside_piles(v, (*path, str(k)))
    elif isinstance(data, list):
        for v in data:
            out += strings_outside_piles(v, path)
    elif isinstance(data, str):
        out.append(data)
    return out


def assert_no_hidden(data: Any) -> None:
    """No card code anywhere outside the view's piles (events, hints, errors...), except
    each listed move's ``cards``: exactly the face-up cards it takes from its pile."""
    leaked = [s for s in strings_outside_piles(data) if CARD.match(s)]
    assert not leaked, leaked
    for view in views_in(data):
        for m in view.get("moves", []):
            j = m["json"]
            shown = view["piles"][j["from"]]["cards"][-j["cards"] :] if "to" in j else []
            assert m["cards"] == shown and None not in shown, m


def views_in(data: Any) -> list[dict[str, Any]]:
    """Every player view inside a response (under a ``view`` key)."""
    out: list[dict[str, Any]] = []
    if isinstance(data, dict):
        for k, v in data.items():
            if k == "view" and isinstance(v, dict) and "piles" in v:
                out.append(v)
            else:
                out += views_in(v)
    elif isinstance(data, list):
        for v in data:
            out += views_in(v)
    return out


def without_bands(figures: dict[str, Any]) -> dict[str, Any]:
    """The kept figures less each option set's ``bands`` (which a recount does not make),
    after checking that the bands add up to their option set."""
    games = []
    for g in figures["games"]:
        bands = g["bands"]
        assert sum(b["played"] for b in bands) == g["played"]
        assert sum(b["won"] for b in bands) == g["won"]
        games.append({k: v for k, v in g.items() if k != "bands"})
    return {**figures, "games": games}
