"""Deal links name the generator version (issue 32 item 3; docs/ui.md, "Deal links"): a
Spine link shared before links carried ``gen`` opens version 3's layout, as it did then;
``gen=4`` opens version 4's after version 5's release; the address the table writes names
its version; an unknown version is refused with the library's message and starts no game."""

from __future__ import annotations

import re
from typing import Any

from e2e_helpers import device_context, dom_piles, game_object, wait_table
from playwright.sync_api import Browser, Page, expect

from pasyans import deals
from pasyans.cards import card_code
from pasyans.rules import get_game

SPINE = get_game("spine")


def _spine_pile(state: Any) -> list[str]:
    return [card_code(c) for c in state.piles[SPINE.index["spine"]]]


def _shown_spine(page: Page) -> list[str | None]:
    expect(page.locator("section.table")).not_to_have_attribute("data-busy", "true")
    return dom_piles(page)["spine"]


def test_old_links_keep_their_layout_and_new_ones_name_the_version(
    page: Page, browser: Browser, base_url: str
) -> None:
    old = deals.make_solvable("spine", {}, 7, "easy", generator=3).state
    new = deals.make_solvable("spine", {}, 7, "easy", generator=4).state
    assert _spine_pile(old) != _spine_pile(new)

    # A link as shared before today: no version, so version 3.
    page.goto("/play/spine?deal=7&difficulty=easy")
    wait_table(page)
    g3 = game_object(page)
    assert (g3["generator"], g3["difficulty"], g3["view"]["deal"]) == (3, "easy", 7)
    assert _shown_spine(page) == _spine_pile(old)
    expect(page).to_have_url(re.compile(r"[?&]gen=3(&|$)"))

    # The same number with gen=4, in another browser (another player): version 4.
    other = browser.new_context(base_url=base_url, locale="en-US")
    try:
        friend = other.new_page()
        friend.goto("/play/spine?deal=7&difficulty=easy&gen=4")
        wait_table(friend)
        g4 = game_object(friend)
        assert (g4["generator"], g4["view"]["deal"]) == (4, 7)
        assert _shown_spine(friend) == _spine_pile(new)
        # New game: a new deal of the current version, whose address says so.
        friend.locator('[data-action="new"]').click()
        expect(friend.locator("section.table")).not_to_have_attribute("data-game-id", g4["id"])
        wait_table(friend)
        fresh = game_object(friend)
        assert fresh["generator"] == deals.GENERATOR_VERSION == 6
        expect(friend).to_have_url(re.compile(rf"[?&]deal={fresh['view']['deal']}(&|$)"))
        expect(friend).to_have_url(re.compile(r"[?&]gen=6(&|$)"))
        # That address, opened by a third player, is the same layout.
        third = browser.new_context(base_url=base_url, locale="en-US")
        try:
            p3 = third.new_page()
            p3.goto(friend.url)
            wait_table(p3)
            assert game_object(p3)["generator"] == 6
            assert _shown_spine(p3) == _shown_spine(friend)
        finally:
            third.close()
    finally:
        other.close()


def test_an_unknown_version_is_refused(page: Page, console_errors: list[str]) -> None:
    page.goto("/play/spine?deal=9&difficulty=easy&gen=99")
    message = page.locator(".message")
    expect(message).to_contain_text("generator version '99' is not available")
    expect(page.locator("section.table")).not_to_have_attribute("data-game-id", re.compile(".+"))
    assert page.request.get("/api/games").json()["games"] == []
    # The browser logs the refused request (422); nothing else is allowed.
    assert all("422" in e for e in console_errors), console_errors
    console_errors.clear()


def test_a_bad_deal_number_on_a_phone_is_said_under_the_bar_and_the_deal_box_works(
    browser: Browser, base_url: str
) -> None:
    """A link with a deal number out of range, on a phone: the refusal is the catalogue's
    sentence in the player's language, shown under the game's bar (it once covered the bar,
    deal box included, with the title showing through), no game is started, and the deal
    box then opens a real deal."""
    ctx = device_context(browser, base_url, (390, 844), scale=2, touch=True)
    errors: list[str] = []
    ctx.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    ctx.on("weberror", lambda e: errors.append(f"page error: {e.error}"))
    try:
        page = ctx.new_page()
        page.goto("/play/spider?suits=2&deal=4294967295")
        message = page.locator(".message")
        expect(message).to_have_text("A deal number is a whole number from 1 to 2147483647.")
        table = page.locator("section.table")
        expect(table).not_to_have_attribute("data-game-id", re.compile(".+"))
        bar = page.locator(".toolbar").bounding_box()
        said = message.bounding_box()
        assert bar is not None and said is not None
        assert said["y"] >= bar["y"] + bar["height"] - 1, (said, bar)
        box = page.locator(".deal-form input")
        box.tap()
        box.fill("2147483647")
        box.press("Enter")
        wait_table(page)
        assert game_object(page)["view"]["deal"] == 2147483647
        # With a game on the table a message floats over the bar again: the table's top
        # row (the stock) stays free to tap.
        page.locator('[data-action="hint"]').tap()
        expect(message).not_to_be_empty()
        said = message.bounding_box()
        assert said is not None and said["y"] < bar["y"] + bar["height"] - 1, (said, bar)
        # The browser logs the refused request (422); nothing else is allowed.
        assert errors and all("422" in e for e in errors), errors
    finally:
        ctx.close()
