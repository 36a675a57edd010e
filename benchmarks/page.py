"""Page-weight benchmark: the first load of a table page in Debian's Chromium.

Runs ``pasyans serve`` on 127.0.0.1 (a temporary SQLite database, its own process) and opens
``/play/<game>?deal=<n>`` at a phone viewport (390×844, DPR 2, touch):

- **cold**: a new browser context each run (empty cache, no cookie);
- **warm**: the same page loaded again in that context (cache filled).

For each it counts the requests that went to the network (answers from the browser's
cache are not counted), the bytes transferred (Chromium's ``encodedDataLength``: headers
and compressed bodies) and the time to interactive (TTI): ``performance.now()`` at the first
animation frame (polled each frame) where ``section.table`` has its game id, at least one
card and no ``data-busy`` (no request out: the table takes input), measured from the
navigation's start (``performance.timeOrigin``). The server runs without its deal-pool
worker, which would otherwise compete for the CPU during the runs. Prints the median of
``--runs`` runs::

    uv run python benchmarks/page.py
    uv run python benchmarks/page.py --game spider --runs 15
    uv run python benchmarks/page.py --before /tmp/old   # and an older tree, side by side

The client and the server share the machine: timings move with its load.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from devtools import free_port

CHROMIUM = "/usr/bin/chromium"
READY = """() => {
  const t = document.querySelector("section.table[data-game-id]");
  return t && !t.dataset.busy && t.querySelector(".card") ? performance.now() : null;
}"""


@dataclass
class Load:
    requests: int
    transferred: int
    tti_ms: float


@contextmanager
def serve(tree: Path | None = None) -> Iterator[str]:
    """``pasyans serve`` (one worker) in its own process on a free port of 127.0.0.1; with
    ``tree``, the code of that source tree (another commit's ``git archive``) instead."""
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("PASYANS_")}
        env.update(
            PASYANS_DATA_DIR=tmp,
            PASYANS_LOG_LEVEL="warning",
            PASYANS_RATE_NEW_GAME_PER_MINUTE="0",
            PASYANS_RATE_SEARCH_PER_MINUTE="0",
            # Every run is a new browser context, so a new player: no limit on new players.
            PASYANS_RATE_NEW_PLAYER_PER_HOUR="0",
            # No deal-pool worker: it would make deals on the same CPU during the runs
            # (the table opened here is a random deal, which needs no pool).
            PASYANS_POOL_WORKER="false",
        )
        args = [str(Path(sys.executable).parent / "pasyans")]
        if tree is not None:
            env["PYTHONPATH"] = str(tree / "src")
            args = [sys.executable, "-m", "pasyans"]
        args += ["serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "1"]
        proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, start_new_session=True)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                if proc.poll() is not None:
                    raise SystemExit("the server stopped")
                try:
                    if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    raise SystemExit("the server did not start")
                time.sleep(0.2)
            yield base
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)


def servers_and_browser(stack: ExitStack, before: Path | None) -> tuple[dict[str, str], Any]:
    """This tree's server (``after``) and, with ``before``, that tree's too (first, so the
    runs alternate before, after), and a headless Chromium; ``stack`` closes them all."""
    from playwright.sync_api import sync_playwright

    bases = {"after": stack.enter_context(serve())}
    if before:
        bases = {"before": stack.enter_context(serve(before)), **bases}
    pw = stack.enter_context(sync_playwright())
    browser = pw.chromium.launch(
        executable_path=CHROMIUM,
        args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic"],
    )
    stack.callback(browser.close)
    return bases, browser


def load(page: Any, url: str) -> Load:
    """One navigation to ``url``, counted through the DevTools protocol."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cached: set[str] = set()
    sizes: dict[str, int] = {}

    def served(e: dict[str, Any]) -> None:
        cached.add(e["requestId"])

    def received(e: dict[str, Any]) -> None:
        r = e["response"]
        if r.get("fromDiskCache") or r.get("fromMemoryCache") or r.get("fromPrefetchCache"):
            cached.add(e["requestId"])

    def finished(e: dict[str, Any]) -> None:
        sizes[e["requestId"]] = int(e["encodedDataLength"])

    cdp.on("Network.requestServedFromCache", served)
    cdp.on("Network.responseReceived", received)
    cdp.on("Network.loadingFinished", finished)
    page.goto(url, wait_until="commit")
    tti = float(page.wait_for_function(READY, polling="raf", timeout=30_000).json_value())
    page.wait_for_load_state("networkidle")
    cdp.detach()
    net = {k: v for k, v in sizes.items() if k not in cached}
    return Load(requests=len(net), transferred=sum(net.values()), tti_ms=tti)


def report(name: str, loads: list[Load]) -> None:
    med = statistics.median
    print(
        f"{name:12}  requests {med(x.requests for x in loads):5.0f}  "
        f"transferred {med(x.transferred for x in loads) / 1024:7.1f} KB  "
        f"TTI median {med(x.tti_ms for x in loads):6.0f} ms  "
        f"(min {min(x.tti_ms for x in loads):.0f}, max {max(x.tti_ms for x in loads):.0f})"
    )


def measure(browser: Any, url: str, cold: list[Load], warm: list[Load]) -> None:
    """One cold load of ``url`` in a new context, then a warm one in the same context."""
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    cold.append(load(page, url))
    warm.append(load(page, url))
    ctx.close()


PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "locale": "en-US",
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="spider")
    ap.add_argument("--deal", type=int, default=7)
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument(
        "--before",
        type=Path,
        help="also serve this source tree (e.g. `git archive <commit> | tar -x -C DIR`) and "
        "measure both, their runs alternating, so both see the same machine load",
    )
    args = ap.parse_args()

    path = f"/play/{args.game}?deal={args.deal}"
    with ExitStack() as stack:
        bases, browser = servers_and_browser(stack, args.before)
        results: dict[str, tuple[list[Load], list[Load]]] = {k: ([], []) for k in bases}
        for base in bases.values():  # one throwaway load warms each server
            measure(browser, base + path, [], [])
        for _ in range(args.runs):
            for name, base in bases.items():
                measure(browser, base + path, *results[name])
    print(f"table {path}, 390x844 DPR 2, {args.runs} runs")
    for name, (cold, warm) in results.items():
        prefix = f"{name} " if args.before else ""
        report(prefix + "cold", cold)
        report(prefix + "warm", warm)


if __name__ == "__main__":
    main()
