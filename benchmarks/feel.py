"""How the table feels: from a tap on a card to the card moving, and to the card at rest.

Runs ``pasyans serve`` on 127.0.0.1 (as ``page.py`` does) and, in Debian's Chromium, opens
``/play/<game>?deal=<n>`` in a fresh browser context per tap (a new player, so the same
deal's start), then slows every request with the DevTools protocol's
``Network.emulateNetworkConditions`` (``latency`` ms added to each request; 0 is no
emulation delay) and taps the first card that has a move: a mouse click on a desktop
(1280×800) and a finger tap on a phone (390×844, touch).

Each animation frame (``requestAnimationFrame``) the page records where the copies of the
tapped card's code are on the screen (``getBoundingClientRect``, transforms included) and
their classes. From the release of the tap (``pointerup``) it prints, as the median of
``--runs`` taps per latency and device:

- **held**: the first frame where the card looks different (a class or its place), from
  the press (``pointerdown``);
- **moves**: the first frame after the release where the card is somewhere else (the
  press's lift is not a move);
- **at rest**: the last frame where it moved (the run watches 2.5 s);
- **answer**: when the move's answer reached the page (Resource Timing ``responseEnd``).

    uv run python benchmarks/feel.py
    uv run python benchmarks/feel.py --game nivernais --deal 31 --runs 5
    git archive main | tar -x -C /tmp/feel-main   # an older tree, measured side by side:
    uv run python benchmarks/feel.py --before /tmp/feel-main

The client and the server share the machine: timings move with its load.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from page import servers_and_browser
from playwright.sync_api import TimeoutError as PlaywrightTimeout

DEVICES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}, "locale": "en-US"},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
        "locale": "en-US",
    },
}

# Watches the tapped card's code for 2.5 s after the release; __feel holds the frames.
WATCH = """(code) => {
  const f = { down: null, up: null, frames: [], done: false };
  window.__feel = f;
  addEventListener("pointerdown", () => { if (f.down === null) f.down = performance.now(); }, true);
  addEventListener("pointerup", () => { if (f.up === null) f.up = performance.now(); }, true);
  const look = () => {
    const els = [...document.querySelectorAll(`.card[data-card="${code}"]`)];
    const rects = els.map((el) => {
      const r = el.getBoundingClientRect();
      return `${Math.round(r.x)},${Math.round(r.y)}`;
    }).sort().join("|");
    const classes = els.map((el) => el.className).sort().join("|");
    return { rects, classes };
  };
  let last = look();
  f.frames.push([performance.now(), last.rects, last.classes]);
  const loop = () => {
    const now = performance.now();
    const s = look();
    if (s.rects !== last.rects || s.classes !== last.classes) {
      f.frames.push([now, s.rects, s.classes]);
      last = s;
    }
    if (f.up !== null && now - f.up > 2500) f.done = true;
    else requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
}"""

ANSWER = """() => {
  const e = performance.getEntriesByType("resource")
    .filter((r) => /\\/(moves|retarget)$/.test(r.name));
  return e.length ? e[e.length - 1].responseEnd : null;
}"""

PICK = """async () => {
  const id = document.querySelector("section.table").dataset.gameId;
  const g = await (await fetch(`/api/games/${id}`)).json();
  const v = g.view;
  const m = v.moves.find((x) => x.json.to && v.piles[x.json.from].kind === "column");
  const from = v.piles[m.json.from].cards;
  const index = from.length - (m.json.cards || 1);
  return { pile: m.json.from, index, code: from[index] };
}"""


@dataclass
class Tap:
    held: float
    moves: float
    rest: float
    answer: float


def tap_once(browser: Any, url: str, device: str, latency: int) -> Tap:
    """One tap in a fresh context; a page that does not load in time (a busy machine) is
    tried again, up to three times."""
    for attempt in range(3):
        try:
            return _tap(browser, url, device, latency)
        except PlaywrightTimeout:
            if attempt == 2:
                raise
            print(f"({device}, {latency} ms: a page took too long, tried again)", file=sys.stderr)
    raise AssertionError("unreachable")


def _tap(browser: Any, url: str, device: str, latency: int) -> Tap:
    ctx = browser.new_context(**DEVICES[device])
    page = ctx.new_page()
    try:
        page.goto(url)
        page.wait_for_function(
            "() => { const t = document.querySelector('section.table[data-game-id]');"
            " return t && !t.dataset.busy && t.querySelector('.card'); }",
            timeout=60_000,
        )
        pick = page.evaluate(PICK)
        cdp = ctx.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send(
            "Network.emulateNetworkConditions",
            {
                "offline": False,
                "latency": latency,
                "downloadThroughput": -1,
                "uploadThroughput": -1,
            },
        )
        el = page.locator(
            f'.pile[data-pile="{pick["pile"]}"] > .card[data-index="{pick["index"]}"]'
        )
        box = el.bounding_box()
        assert box
        x, y = box["x"] + box["width"] / 2, box["y"] + min(8, box["height"] / 4)
        page.evaluate(WATCH, pick["code"])
        page.wait_for_timeout(100)
        if device == "phone":
            page.touchscreen.tap(x, y)
        else:
            page.mouse.click(x, y)
        page.wait_for_function("() => window.__feel.done", timeout=30_000)
        f = page.evaluate("() => window.__feel")
        answer = page.evaluate(ANSWER)
        cdp.detach()
    finally:
        ctx.close()
    frames = f["frames"]
    start_rects, start_classes = frames[0][1], frames[0][2]
    changed = [t for t, r, c in frames[1:] if r != start_rects or c != start_classes]
    up, down = f["up"], f["down"]
    # A card lifted by the press (held) is not a move: only frames after the release count.
    moved = [t for t, r, _c in frames[1:] if r != start_rects and t >= up]
    rect_changes = [frames[i][0] for i in range(1, len(frames)) if frames[i][1] != frames[i - 1][1]]
    nan = float("nan")
    return Tap(
        held=(changed[0] - down) if changed else nan,
        moves=(moved[0] - up) if moved else nan,
        rest=(rect_changes[-1] - up) if rect_changes else nan,
        answer=(answer - up) if answer else nan,
    )


def med(xs: list[float]) -> float:
    ok = [x for x in xs if x == x]
    return statistics.median(ok) if ok else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="spider")
    ap.add_argument("--options", help="the game's options as a query (Spider: suits=1)")
    ap.add_argument("--deal", type=int, default=202)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--latency", type=int, nargs="+", default=[0, 150, 400])
    ap.add_argument("--device", choices=[*DEVICES, "both"], default="both")
    ap.add_argument(
        "--before",
        type=Path,
        help="also serve this source tree (`git archive <commit> | tar -x -C DIR`) and "
        "measure both, their taps alternating, so both see the same machine load",
    )
    args = ap.parse_args()

    opts = (
        args.options if args.options is not None else ("suits=1" if args.game == "spider" else "")
    )
    options = f"{opts}&" if opts else ""
    path = f"/play/{args.game}?{options}deal={args.deal}&kind=random"
    devices = list(DEVICES) if args.device == "both" else [args.device]
    with ExitStack() as stack:
        bases, browser = servers_and_browser(stack, args.before)
        for base in bases.values():  # one throwaway tap warms each server
            tap_once(browser, base + path, "desktop", 0)
        taps: dict[tuple[str, str, int], list[Tap]] = {}
        for latency in args.latency:
            for device in devices:
                for _ in range(args.runs):
                    for name, base in bases.items():
                        t = tap_once(browser, base + path, device, latency)
                        taps.setdefault((name, device, latency), []).append(t)
    print(f"table {path}, {args.runs} taps each, medians in ms (held: from the press;")
    print("moves, at rest, answer: from the release)")
    head = ("tree", "device", "latency", "held", "moves", "at rest", "answer")
    print("{:7} {:8} {:>7} {:>6} {:>6} {:>8} {:>7}".format(*head))
    for (name, device, latency), ts in taps.items():
        print(
            f"{name:7} {device:8} {latency:7d} {med([t.held for t in ts]):6.0f} "
            f"{med([t.moves for t in ts]):6.0f} {med([t.rest for t in ts]):8.0f} "
            f"{med([t.answer for t in ts]):7.0f}"
        )


if __name__ == "__main__":
    main()
