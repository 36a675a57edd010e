"""End states and messages in a real browser: win (autocollect and a last double-click),
the stuck dialog, Spider's refusal to deal, the hint highlight."""

from __future__ import annotations

import re
from pathlib import Path

from e2e_helpers import (
    api_play,
    game_object,
    open_stuck,
    open_table,
    play_to_the_last_card,
    version,
    wait_table,
    wait_version,
)
from e2e_positions import spider_empty_column, spine_win
from playwright.sync_api import Page, expect

from pasyans.deals import new_game
from pasyans.engine import State, core
from pasyans.rules import GameSpec


def test_autocollect_plays_the_rest_and_the_game_is_won(page: Page, shots: Path) -> None:
    deal = 2
    line = spine_win(deal)
    g = new_game("spine", deal, None, "solvable")
    state = g.state
    k = 0
    while core.autocollect_moves(g.spec, state) is None:
        state = core.apply(g.spec, state, line[k])
        k += 1
    assert k < len(line)
    open_table(page, "spine", deal=deal, kind="solvable")
    button = page.locator('[data-action="autocollect"]')
    if k:
        api_play(page, line[: k - 1])
        page.reload()
        wait_table(page)
        expect(button).to_be_hidden()
        api_play(page, line[k - 1 : k])
        page.reload()
        wait_table(page)
    expect(button).to_be_visible()
    expect(button).to_have_text("Autocollect")
    button.click()
    dialog = page.locator('dialog[data-dialog="won"]')
    expect(dialog).to_be_visible(timeout=15000)
    expect(dialog.locator('[data-stat="moves"]')).to_have_text(
        str(game_object(page)["view"]["counters"]["moves"])
    )
    expect(dialog.locator('[data-stat="score"]')).to_have_text("104")
    expect(dialog.locator('[data-stat="hints"]')).to_have_text("0")
    expect(dialog.locator('[data-stat="undos"]')).to_have_text("0")
    expect(dialog.locator('[data-stat="time"]')).to_have_text(re.compile(r"^\d+:\d\d"))
    assert page.locator('.pile[data-pile^="f"] > .card').count() == 104
    page.screenshot(path=str(shots / "spine-won.png"))
    # "Replay deal" starts the same deal again.
    dialog.get_by_role("button", name="Replay deal").click()
    expect(dialog).to_have_count(0)
    expect(page.locator('.pile[data-pile="spine"] > .card')).to_have_count(56)
    assert game_object(page)["view"]["deal"] == deal


def test_a_double_click_plays_the_last_card_and_wins(page: Page) -> None:
    # Deal 2: deal 1 is the test server's one-autocollect layout (conftest.py).
    play_to_the_last_card(page, 2).dblclick()
    dialog = page.locator('dialog[data-dialog="won"]')
    expect(dialog).to_be_visible()
    g = game_object(page)
    assert g["view"]["flags"]["won"] and g["status"] == "won"
    # A reload shows the won game again, not a fresh deal; switching language keeps it.
    page.reload()
    assert wait_table(page) == g["id"]
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    page.locator("#pref-lang").click()
    expect(dialog).to_contain_text("Победа")
    assert page.locator("section.table").get_attribute("data-game-id") == g["id"]
    page.keyboard.press("Escape")
    page.locator("#pref-lang").click()
    # A new game from the dialog.
    dialog.get_by_role("button", name="New game").click()
    expect(page.locator("dialog")).to_have_count(0)
    expect(page.locator("section.table")).not_to_have_attribute("data-game-id", g["id"])


def test_a_stuck_game_offers_undo_replay_and_new_deal(page: Page, shots: Path) -> None:
    dialog = open_stuck(page)
    expect(dialog).to_contain_text("No moves left")
    for name in ("Undo", "Replay deal", "New game"):
        expect(dialog.get_by_role("button", name=name)).to_be_visible()
    expect(page.locator("section.table .card").first).to_be_visible()  # the game stays behind
    page.screenshot(path=str(shots / "nivernais-stuck.png"))
    v = version(page)
    dialog.get_by_role("button", name="Undo").click()
    wait_version(page, v + 1)
    expect(dialog).to_have_count(0)
    assert not game_object(page)["view"]["flags"]["stuck"]


def test_spider_explains_why_it_will_not_deal(page: Page) -> None:
    options, line = spider_empty_column()
    open_table(page, "spider", deal=1, options=options)
    api_play(page, line)
    page.reload()
    wait_table(page)
    v = version(page)
    message = page.locator("#message")
    en = "You cannot deal while a column is empty: put a card in every column first."
    for _ in range(2):  # every time
        page.locator('.pile[data-pile="stock"] > .pile-base').click()
        expect(message).to_have_text(en)
        page.keyboard.press("Escape")
        message.evaluate("m => m.textContent = ''")
    assert version(page) == v
    page.locator("#pref-lang").click()
    wait_table(page)
    page.locator('.pile[data-pile="stock"] > .pile-base').click()
    expect(message).to_have_text(
        "Нельзя сдавать, пока есть пустой столбец: сначала положите карту в каждый столбец."
    )


def test_hint_highlights_a_card_and_its_target(page: Page) -> None:
    open_table(page, "backbone", deal=1)
    v = version(page)
    page.keyboard.press("h")
    wait_version(page, v + 1)
    hint = game_object(page)
    assert hint["view"]["counters"]["hints"] == 1
    highlighted = page.locator(".card.hint")
    target = page.locator(".pile.hint-target")
    message = page.locator("#message")
    expect(message).to_contain_text("Hint:")
    expect(target).to_have_count(1)
    if "stock" not in (target.get_attribute("data-pile") or ""):
        expect(highlighted).not_to_have_count(0)
    # The button does the same.
    page.get_by_role("button", name="Hint").click()
    wait_version(page, v + 2)
    expect(page.locator(".pile.hint-target")).to_have_count(1)


def test_is_this_still_winnable_answers_honestly(page: Page) -> None:
    open_table(page, "spine", deal=2, kind="solvable")
    message = page.locator("#message")
    page.get_by_role("button", name="Winnable?").click()
    expect(message).to_have_text("Yes: a win still exists from here.")
    # A random Spine deal that is not stuck at once (random Spine deals are lost).
    deal = next(d for d in range(1, 100) if core.legal_moves(*_spine_random(d)))
    open_table(page, "spine", deal=deal, kind="random")
    page.get_by_role("button", name="Winnable?").click()
    expect(message).to_have_text("No: no win is possible from here.")
    open_table(page, "backbone", deal=1)  # the stock is hidden: an estimate, labelled so
    page.locator("section.table .card").first.focus()
    page.keyboard.press("w")
    # every sample decided: one share; some left undecided: the range they leave open
    expect(message).to_have_text(
        re.compile(
            r"^Estimate: (about \d+% of the ways the hidden cards could lie are winnable "
            r"\(\d+ of 8 samples\)\.|between \d+% and \d+% of the ways the hidden cards could"
            r" lie are winnable \(of 8 samples \d+ won, \d+ lost, [1-8] undecided in the time"
            r" allowed\)\.)$"
        )
    )
    # Four-suit Spider: the no-peek player's playouts, none of them proven lost (a playout
    # that does not win proves nothing), so the share is a range up to 100%, not "0%"
    open_table(page, "spider", deal=1, options={"suits": "4"})
    page.locator("section.table .card").last.focus()
    page.keyboard.press("w")
    expect(message).to_have_text(
        re.compile(
            r"^Estimate: between \d+% and 100% of the ways the hidden cards could lie are"
            r" winnable \(of \d+ samples \d+ won, 0 lost, \d+ undecided in the time allowed\)\.$"
        ),
        timeout=20000,
    )


def _spine_random(deal: int) -> tuple[GameSpec, State]:
    g = new_game("spine", deal, None, "random")
    return g.spec, g.state
