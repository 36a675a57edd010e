"""A slow hint: the page says it is thinking once the answer takes over 150 ms, not before,
and the hint still arrives (the hint request is held back by route interception)."""

from __future__ import annotations

from typing import Any

from e2e_helpers import open_table, version, wait_version
from playwright.sync_api import Page, Route, expect

WATCH = """() => {
  const box = document.querySelector("#message");
  window.__said = [];
  new MutationObserver(() => window.__said.push([box.textContent, performance.now()]))
    .observe(box, { childList: true, characterData: true, subtree: true });
  window.__asked = performance.now();
  document.querySelector('[data-action="hint"]').click();
}"""


def test_a_slow_hint_shows_thinking_after_150_ms(page: Page) -> None:
    open_table(page, "spider", deal=3, options={"suits": "1"})
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)  # answered below, once the page has said it is thinking

    page.route("**/api/games/*/hint", hold)
    v = version(page)
    message = page.locator("#message")
    page.evaluate(WATCH)
    expect(message).to_have_text("Thinking…")
    said: list[list[Any]] = page.evaluate("window.__said")
    asked: float = page.evaluate("window.__asked")
    when = next(t for text, t in said if text == "Thinking…")
    assert when - asked >= 140, f"'Thinking…' after {when - asked:.0f} ms"
    assert len(held) == 1
    held[0].continue_()
    wait_version(page, v + 1)
    expect(message).to_contain_text("Hint:")
    expect(page.locator(".pile.hint-target")).to_have_count(1)


def test_a_fast_hint_does_not_say_thinking(page: Page) -> None:
    open_table(page, "spider", deal=3, options={"suits": "1"})

    def answer(route: Route) -> None:
        route.fulfill(json={"hint": {"move": None, "message": "Nothing to suggest."}})

    page.route("**/api/games/*/hint", answer)  # answered at once
    page.evaluate(WATCH)
    page.wait_for_timeout(400)
    said: list[list[Any]] = page.evaluate("window.__said")
    assert said, "the page said nothing"
    assert all(text != "Thinking…" for text, _ in said), said
    expect(page.locator("#message")).to_have_text("Nothing to suggest.")
