"""The table on a flaky network, in Debian's Chromium (docs/ui.md, "Offline"): how long the
page takes to recover, medians of ``--runs`` runs.

Runs ``pasyans serve`` on 127.0.0.1 (``page.py``'s server) and opens a Backbone table:

- **lost answer**: one move whose answer CDP ``Fetch`` fails after the server answered;
  from the click to the table showing the move (the page resends the same action, the
  server answers with the kept answer);
- **back online**: the context goes offline, another client plays a move, the network
  returns; from ``set_offline(False)`` to the table showing that move;
- **back after a reload offline**: the page is reloaded without network (the service
  worker's page, the browser's last view); from ``set_offline(False)`` to the table's
  check of the server's game (``data-synced``)::

    uv run python benchmarks/network.py
    uv run python benchmarks/network.py --runs 10

The client and the server share the machine: timings move with its load.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from page import CHROMIUM, serve

GAME = "backbone"


def synced(page: Any) -> int:
    return int(page.locator("section.table").get_attribute("data-synced") or "0")


def version(page: Any) -> int:
    return int(page.locator("section.table").get_attribute("data-version") or "0")


def wait(page: Any, js: str, arg: Any) -> None:
    page.wait_for_function(js, arg=arg, timeout=30_000, polling="raf")


AT_VERSION = "(v) => Number(document.querySelector('section.table')?.dataset.version) === v"
SYNCED = "(n) => Number(document.querySelector('section.table')?.dataset.synced || 0) > n"


def click_a_move(page: Any) -> None:
    gid = page.locator("section.table").get_attribute("data-game-id")
    view = page.request.get(f"/api/games/{gid}").json()["view"]
    for m in view["moves"]:
        j = m["json"]
        if j.get("to"):
            n = len(view["piles"][j["from"]]["cards"])
            index = n - j.get("cards", 1)
            page.locator(f'.pile[data-pile="{j["from"]}"] > .card[data-index="{index}"]').click()
            return
    raise SystemExit("no card move on this deal")


def open_table(page: Any, deal: int) -> str:
    page.goto(f"/play/{GAME}?deal={deal}&kind=random")
    page.wait_for_selector("section.table[data-game-id] .card")
    gid: str = page.locator("section.table").get_attribute("data-game-id")
    return gid


def lost_answer(context: Any, deal: int) -> float:
    page = context.new_page()
    open_table(page, deal)
    v = version(page)
    cdp = context.new_cdp_session(page)
    failed = []

    def paused(event: dict[str, Any]) -> None:
        rid = event["requestId"]
        if not failed:
            failed.append(rid)
            cdp.send("Fetch.failRequest", {"requestId": rid, "errorReason": "ConnectionReset"})
        else:
            cdp.send("Fetch.continueRequest", {"requestId": rid})

    cdp.on("Fetch.requestPaused", paused)
    pattern = {"urlPattern": "*/api/games/*/moves", "requestStage": "Response"}
    cdp.send("Fetch.enable", {"patterns": [pattern]})
    t0 = time.monotonic()
    click_a_move(page)
    wait(page, AT_VERSION, v + 1)
    took = time.monotonic() - t0
    cdp.detach()
    page.close()
    return took


def back_online(context: Any, deal: int) -> float:
    page = context.new_page()
    gid = open_table(page, deal)
    v = version(page)
    context.set_offline(True)
    page.wait_for_selector("#net-banner:not([hidden])")
    g = page.request.get(f"/api/games/{gid}").json()
    m = g["view"]["moves"][0]["text"]
    page.request.post(f"/api/games/{gid}/moves", data={"move": m, "version": g["version"]})
    context.set_offline(False)
    t0 = time.monotonic()
    wait(page, AT_VERSION, v + 1)
    took = time.monotonic() - t0
    page.close()
    return took


def back_after_reload(context: Any, deal: int) -> float:
    page = context.new_page()
    open_table(page, deal)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
    context.set_offline(True)
    page.reload()
    page.wait_for_selector("section.table[data-game-id] .card")
    n = synced(page)
    context.set_offline(False)
    t0 = time.monotonic()
    wait(page, SYNCED, n)
    took = time.monotonic() - t0
    page.close()
    return took


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    cases = {
        "lost answer, click to move shown": lost_answer,
        "back online, to another tab's move shown": back_online,
        "back after a reload offline, to the server asked": back_after_reload,
    }
    times: dict[str, list[float]] = {name: [] for name in cases}
    with serve() as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for run in range(args.runs):
            for name, case in cases.items():
                context = browser.new_context(base_url=base)
                times[name].append(case(context, 100 + run))
                context.close()
        browser.close()
    print(f"medians of {args.runs} runs (min … max), ms:")
    for name, ts in times.items():
        ms = sorted(t * 1000 for t in ts)
        print(f"  {name:>50}: {statistics.median(ms):6.0f}  ({ms[0]:.0f} … {ms[-1]:.0f})")


if __name__ == "__main__":
    main()
