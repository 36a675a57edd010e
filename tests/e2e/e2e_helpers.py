"""Helpers for the browser tests: open a table, read what it shows, drive the API."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from pasyans.deals import GENERATOR_VERSION
from pasyans.engine.moves import Move

GAMES = ["spine", "backbone", "backbone-classic", "spider", "nivernais"]

NO_AUTO_MOVES = """(() => {
  try {
    const key = "pasyans.prefs";
    const p = JSON.parse(localStorage.getItem(key) || "{}") || {};
    if (!("auto" in p)) { p.auto = false; localStorage.setItem(key, JSON.stringify(p)); }
  } catch (e) { /* a page without storage (about:blank) */ }
})();"""
"""Switches the table's safe auto-moves off unless the page already chose (tests of other
features count moves exactly; ``@pytest.mark.auto_moves`` keeps the default, on)."""


def device_context(
    browser: Browser,
    base_url: str,
    size: tuple[int, int],
    scale: float = 1,
    touch: bool = False,
    locale: str = "en-US",
) -> BrowserContext:
    """A browser context like a device: ``size`` (width, height) in CSS pixels, its pixel
    ratio, and a touch screen that is also a mobile browser when ``touch``."""
    return browser.new_context(
        base_url=base_url,
        viewport={"width": size[0], "height": size[1]},
        device_scale_factor=scale,
        has_touch=touch,
        is_mobile=touch,
        locale=locale,
    )


def open_table(
    page: Page,
    game: str,
    deal: int | None = None,
    options: dict[str, str] | None = None,
    kind: str | None = "random",
) -> str:
    """Go to the table of ``game`` and wait until it is drawn; returns the game's id. A
    solvable deal number's link names the current generator version (``gen``)."""
    q: dict[str, str] = dict(options or {})
    if deal is not None:
        q["deal"] = str(deal)
    if kind is not None:
        q["kind"] = kind
    if kind == "solvable" and deal is not None:  # as the page's own links name it
        q["gen"] = str(GENERATOR_VERSION)
    page.goto(f"/play/{game}" + (f"?{urlencode(q)}" if q else ""))
    return wait_table(page)


def wait_table(page: Page, timeout: float | None = None) -> str:
    """The table's game id once it shows a game; ``timeout`` (ms) where the game is made
    inside its request (a solvable deal of the e2e server's inline pool: seconds of CPU,
    up to its 30 s answer deadline on a loaded machine)."""
    table = page.locator("section.table")
    expect(table).to_have_attribute("data-game-id", _any(), timeout=timeout)
    expect(table.locator(".card").first).to_be_attached()
    gid = table.get_attribute("data-game-id")
    assert gid
    return gid


def _any() -> Any:
    import re

    return re.compile(r".+")


def version(page: Page) -> int:
    return int(page.locator("section.table").get_attribute("data-version") or "0")


def wait_version(page: Page, v: int) -> None:
    expect(page.locator("section.table")).to_have_attribute("data-version", str(v))


def game_object(page: Page) -> dict[str, Any]:
    gid = page.locator("section.table").get_attribute("data-game-id")
    res = page.request.get(f"/api/games/{gid}")
    assert res.ok, res.text()
    data: dict[str, Any] = res.json()
    return data


def api_play(page: Page, moves: list[Move]) -> dict[str, Any]:
    """Play ``moves`` through the API as the page's player; returns the last answer."""
    g = game_object(page)
    for m in moves:
        res = page.request.post(
            f"/api/games/{g['id']}/moves", data={"move": m.to_str(), "version": g["version"]}
        )
        assert res.ok, res.text()
        g = res.json()
    return g


def dom_piles(page: Page) -> dict[str, list[str | None]]:
    """What the table shows: pile id → card codes bottom to top (None = face down)."""
    raw: dict[str, list[str | None]] = page.locator("section.table").evaluate(
        """t => {
            const out = {};
            for (const p of t.querySelectorAll('.pile[data-pile]')) {
                out[p.dataset.pile] = [...p.querySelectorAll(':scope > .card')]
                    .sort((a, b) => a.dataset.index - b.dataset.index)
                    .map(c => c.classList.contains('down') ? null : c.dataset.card);
            }
            return out;
        }"""
    )
    return raw


def card(page: Page, pile: str, index: int) -> Locator:
    return page.locator(f'.pile[data-pile="{pile}"] > .card[data-index="{index}"]')


def top_index(view: dict[str, Any], pile: str) -> int:
    return len(view["piles"][pile]["cards"]) - 1


def drag(page: Page, source: Locator, target: Locator, *, steps: int = 12) -> None:
    """Press on the visible top strip of ``source`` and drop over the middle of ``target``."""
    settle(page)
    a = source.bounding_box()
    b = target.bounding_box()
    assert a and b
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + min(8, a["height"] / 4)
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 + 3, y0 + 3, steps=2)
    page.mouse.move(x1, y1, steps=steps)
    page.mouse.up()


def drop_spot(page: Page, pile: str) -> Locator:
    """Where a drop onto ``pile`` aims: its top card, or the empty pile's outline."""
    cards = page.locator(f'.pile[data-pile="{pile}"] > .card')
    if cards.count():
        return cards.last
    return page.locator(f'.pile[data-pile="{pile}"] > .pile-base')


def touch_drag(page: Page, source: Locator, target: Locator, *, steps: int = 10) -> None:
    """A finger drag (real touch events through the DevTools protocol)."""
    settle(page)
    a = source.bounding_box()
    b = target.bounding_box()
    assert a and b
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + min(8, a["height"] / 4)
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, x: float, y: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", x0, y0)
    for i in range(1, steps + 1):
        touch("touchMove", x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
    touch("touchEnd", x1, y1)
    cdp.detach()


def settle(page: Page) -> None:
    """Wait until no card is gliding (animations end before positions are read)."""
    expect(page.locator(".card.gliding, .card.returning")).to_have_count(0)


def drained(page: Page) -> None:
    """Wait until every queued input has acted and no request is out."""
    table = page.locator("section.table")
    expect(table).to_have_attribute("data-queue", "0")
    expect(table).not_to_have_attribute("data-busy", "true")


def center(page: Page, selector: str) -> tuple[float, float]:
    """The middle of the first element ``selector`` finds (for page.mouse)."""
    box = page.locator(selector).first.bounding_box()
    assert box
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def play_to_the_last_card(page: Page, deal: int = 2) -> Locator:
    """Spine's solvable ``deal`` played through the API up to its last move (the solver's
    line), the page reloaded; returns the card whose double-click wins."""
    from e2e_positions import spine_win

    line = spine_win(deal)
    open_table(page, "spine", deal=deal, kind="solvable")
    api_play(page, line[:-1])
    page.reload()
    wait_table(page)
    last = line[-1]
    assert last.src
    return card(page, last.src, len(game_object(page)["view"]["piles"][last.src]["cards"]) - 1)


def open_stuck(page: Page) -> Locator:
    """A Nivernais game left stuck (a line found with the engine, played through the API),
    opened in the page; returns the no-moves dialog, visible."""
    from e2e_positions import nivernais_stuck

    deal, line = nivernais_stuck()
    open_table(page, "nivernais", deal=deal)
    api_play(page, line)
    page.reload()
    wait_table(page)
    dialog = page.locator('dialog[data-dialog="stuck"]')
    expect(dialog).to_be_visible()
    return dialog
