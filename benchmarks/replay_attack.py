"""Replays of a long game against another player (issue 33, finding 5), side by side with
another revision's server in one run.

One attacking client (one cookie, one address) builds a game of ``--moves`` moves by
moving one card back and forth, then on 4 connections sends undo and redo alternately on
one and ``GET …/replay`` of the newest version on three, as fast as they are answered.
Another player (another address) plays random legal moves on Spider with ``--think``
seconds between them; its moves' p50 and p99 are measured quiet, then during the attack,
``--seconds`` each. Each server (``--baseline`` REV, exported with ``git archive``, then
this tree) is a fresh ``pasyans serve`` (one worker, SQLite, rate limits as shipped)::

    uv run python benchmarks/replay_attack.py --baseline main
    uv run python benchmarks/replay_attack.py --baseline main --env PASYANS_RATE_HISTORY_PER_MINUTE=0

Prints per server: the player's p50/p99 quiet and attacked and the p99 ratio (the target:
under 2), the attacker's answers by status, and the server's CPU share during the attack.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from load import _load, export, group_cpu_seconds, pythonpath, serve

from pasyans.deals import new_game

GAME, OPTIONS = "backbone", {}
VICTIM = {"X-Forwarded-For": "198.18.0.1"}
ATTACKER = {"X-Forwarded-For": "198.18.1.1"}


def back_and_forth(deal: int) -> tuple[str, str] | None:
    """Two moves of the deal's start that undo each other (one card moved there and
    back), or None."""
    game = new_game(GAME, deal, OPTIONS, "random")
    start = game.view()["piles"]
    for first in game.legal_moves():
        game.play(first)
        for back in game.legal_moves():
            game.play(back)
            if game.view()["piles"] == start:
                return first.to_str(), back.to_str()
            game.undo()
        game.undo()
    return None


def build(base: str, moves: int) -> tuple[httpx.Client, dict[str, Any]]:
    """The attacker's long game (its client keeps the cookie)."""
    client = httpx.Client(base_url=base, timeout=60, headers=ATTACKER)
    for deal in range(1, 200):
        pair = back_and_forth(deal)
        if pair is not None:
            break
    else:
        raise SystemExit("no deal with a move and its way back")
    g = client.post("/api/games", json={"game": GAME, "deal": deal, "solvable": False}).json()
    for i in range(moves):
        r = client.post(f"/api/games/{g['id']}/moves",
                        json={"move": pair[i % 2], "version": g["version"]})  # fmt: skip
        if r.status_code != 200:
            raise SystemExit(f"move {i}: {r.status_code} {r.text[:200]}")
        g = r.json()
    return client, g


def attack(base: str, cookies: dict[str, str], game: dict[str, Any], seconds: float,
           out: Any) -> None:  # fmt: skip
    """The attack's 4 connections for ``seconds`` (in a process of its own); puts the
    answers by status on ``out``."""
    answers: dict[str, int] = {}
    lock = threading.Lock()
    version = [game["version"]]
    stop = time.monotonic() + seconds

    def count(kind: str, status: int) -> None:
        with lock:
            answers[f"{kind} {status}"] = answers.get(f"{kind} {status}", 0) + 1

    def history() -> None:
        with httpx.Client(base_url=base, timeout=60, headers=ATTACKER, cookies=cookies) as c:
            k = 0
            while time.monotonic() < stop:
                action = ("undo", "redo")[k % 2]
                r = c.post(f"/api/games/{game['id']}/{action}", json={"version": version[0]})
                count(action, r.status_code)
                if r.status_code == 200:
                    version[0] = r.json()["version"]
                    k += 1
                elif r.status_code == 409:
                    version[0] = r.json()["game"]["version"]

    def replays() -> None:
        with httpx.Client(base_url=base, timeout=60, headers=ATTACKER, cookies=cookies) as c:
            while time.monotonic() < stop:
                r = c.get(f"/api/games/{game['id']}/replay", params={"step": 10_000})
                count("replay", r.status_code)

    threads = [threading.Thread(target=history)] + [
        threading.Thread(target=replays) for _ in range(3)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put(answers)


def play(base: str, seconds: float, think: float, rnd: random.Random) -> list[float]:
    """The other player's move latencies (seconds) over ``seconds``."""
    out: list[float] = []
    stop = time.monotonic() + seconds
    with httpx.Client(base_url=base, timeout=60, headers=VICTIM) as c:
        g: dict[str, Any] | None = None
        while time.monotonic() < stop:
            if g is None or g["status"] != "playing" or not g["view"]["moves"]:
                g = c.post("/api/games", json={"game": "spider", "solvable": False}).json()
                continue
            move = rnd.choice(g["view"]["moves"])["text"]
            t0 = time.perf_counter()
            r = c.post(f"/api/games/{g['id']}/moves",
                       json={"move": move, "version": g["version"]})  # fmt: skip
            out.append(time.perf_counter() - t0)
            g = r.json() if r.status_code == 200 else None
            time.sleep(rnd.uniform(0.5 * think, 1.5 * think))
    return out


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))] * 1000


def measure(name: str, args: argparse.Namespace, extra: dict[str, str]) -> None:
    with serve(None, 1, extra) as server:
        t0 = time.monotonic()
        client, game = build(server.base, args.moves)
        built = time.monotonic() - t0
        quiet = play(server.base, args.seconds, args.think, random.Random(1))
        queue: Any = multiprocessing.get_context("fork").Queue()
        proc = multiprocessing.get_context("fork").Process(
            target=attack,
            args=(server.base, dict(client.cookies), game, args.seconds + 1, queue),
        )
        cpu0, w0 = group_cpu_seconds(server.pgid), time.monotonic()
        proc.start()
        time.sleep(0.5)
        loud = play(server.base, args.seconds, args.think, random.Random(2))
        answers = queue.get()
        proc.join()
        cpu = (group_cpu_seconds(server.pgid) - cpu0) / (time.monotonic() - w0)
        client.close()
    q50, q99, l50, l99 = pct(quiet, 50), pct(quiet, 99), pct(loud, 50), pct(loud, 99)
    print(
        f"| {name} | {args.moves} ({built:.0f} s) | {len(quiet)} / {len(loud)} | {q50:.1f} | "
        f"{l50:.1f} | {q99:.1f} | {l99:.1f} | **{l99 / q99:.2f}** | {cpu:.0%} | "
        f"{dict(sorted(answers.items()))} |",
        flush=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--baseline", default=None, help="a git revision measured first")
    ap.add_argument("--moves", type=int, default=3000, help="moves of the attacker's game")
    ap.add_argument("--seconds", type=float, default=15.0, help="per phase")
    ap.add_argument("--think", type=float, default=0.05, help="the player's pause, s")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--env", action="append", default=[], metavar="PASYANS_NAME=VALUE")
    args = ap.parse_args()
    extra = {"PASYANS_TRUST_PROXY": "true", "PASYANS_FORWARDED_ALLOW_IPS": "127.0.0.1",
             "PASYANS_POOL_WORKER": "false"}  # fmt: skip
    for item in args.env:
        name, _, value = item.partition("=")
        extra[name] = value
    print(f"# SQLite, 1 worker; {args.seconds:.0f} s per phase; think {args.think} s; "
          f"env {args.env or 'as shipped'}; load average {_load()}")  # fmt: skip
    print("| server | attacker's game | moves quiet / attacked | p50 quiet ms | p50 attacked ms "
          "| p99 quiet ms | p99 attacked ms | p99 ratio | server CPU attacked | attacker's answers |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory(prefix="pasyans-baseline-") as tmp:
        src = str(export(args.baseline, Path(tmp))) if args.baseline else None
        for _ in range(args.rounds):
            if src is not None:
                with pythonpath(src):
                    measure(args.baseline or "", args, extra)
            measure("this tree", args, extra)


if __name__ == "__main__":
    main()
