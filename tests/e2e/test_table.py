"""The table in a real browser, for every game: drawing, smart move, drag and drop,
undo/redo keys, reload and shared URLs, hidden cards kept out of the page."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest
from e2e_helpers import (
    GAMES,
    NO_AUTO_MOVES,
    api_play,
    card,
    device_context,
    dom_piles,
    drag,
    drop_spot,
    game_object,
    open_table,
    touch_drag,
    version,
    wait_table,
    wait_version,
)
from e2e_positions import card_with_choices, first_card_move
from playwright.sync_api import Browser, Page, expect

from pasyans.cards import card_code
from pasyans.deals import new_game
from pasyans.engine.view import player_view


def engine_view(game: str, deal: int, options: dict[str, str] | None = None) -> dict:
    g = new_game(game, deal, options, "random")
    return player_view(g.spec, g.state, deal=deal)


@pytest.mark.parametrize("game", GAMES)
def test_table_draws_every_pile_and_card(page: Page, game: str, shots: Path) -> None:
    open_table(page, game, deal=5)
    want = engine_view(game, 5)
    shown = dom_piles(page)
    assert set(shown) == set(want["piles"])
    for pid, pile in want["piles"].items():
        assert shown[pid] == pile["cards"], pid
    table = page.locator("section.table")
    expect(table).to_have_attribute("data-game-id", re.compile(r".+"))
    expect(table).to_have_attribute("data-version", re.compile(r"\d+"))
    page.screenshot(path=str(shots / f"{game}-desktop.png"))


@pytest.mark.parametrize("game", GAMES)
def test_table_on_a_phone(browser: Browser, base_url: str, game: str, shots: Path) -> None:
    ctx = device_context(browser, base_url, (390, 844), touch=True)
    ctx.add_init_script(NO_AUTO_MOVES)  # this test counts moves exactly
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    deal, move = first_card_move(game)
    open_table(page, game, deal=deal)
    # Nothing sticks out sideways at 390 px.
    width = page.locator("section.table").evaluate("t => t.getBoundingClientRect().width")
    assert width <= 390
    page.screenshot(path=str(shots / f"{game}-phone.png"))
    # A tap plays the smart move.
    v = version(page)
    g = new_game(game, deal, None, "random")
    index = len(g.state.piles[g.spec.index[move.src]]) - move.cards
    smart = g.smart_moves(move.src, index)[0]
    card(page, move.src, index).tap()
    wait_version(page, v + 1)
    assert game_object(page)["view"]["counters"]["moves"] == 1
    assert dom_piles(page)[smart.dst or ""][-1] is not None
    # A finger drags it back (when the move back is legal) or undoes it with the button.
    # (After the move a deal may have no move left: then the "stuck" dialog offers Undo.)
    page.wait_for_timeout(700)  # the end dialog waits for the move's animation
    in_dialog = page.locator('dialog[open] button:has-text("Undo")')
    (in_dialog if in_dialog.count() else page.locator('.toolbar [data-action="undo"]')).tap()
    wait_version(page, v + 2)
    n = len(g.state.piles[g.spec.index[move.src]])
    touch_drag(page, card(page, move.src, n - move.cards), drop_spot(page, move.dst or ""))
    wait_version(page, v + 3)
    assert dom_piles(page)[move.dst or ""][-move.cards] is not None
    assert game_object(page)["view"]["counters"]["moves"] == 1
    ctx.close()
    assert not errors


@pytest.mark.parametrize("game", GAMES)
def test_click_plays_the_smart_move_then_cycles(page: Page, game: str) -> None:
    deal, move = first_card_move(game)
    open_table(page, game, deal=deal)
    g = new_game(game, deal, None, "random")
    index = len(g.state.piles[g.spec.index[move.src]]) - move.cards
    smart = g.smart_moves(move.src, index)
    code = dom_piles(page)[move.src][index]
    v = version(page)
    card(page, move.src, index).click()
    wait_version(page, v + 1)
    after = dom_piles(page)
    dst = smart[0].dst or ""
    assert after[dst][len(after[dst]) - move.cards] == code
    assert game_object(page)["view"]["counters"]["moves"] == 1
    if len(smart) > 1:
        # Clicking the same card again at once tries its next destination.
        nxt = smart[1].dst or ""
        there = page.locator(f'.pile[data-pile="{nxt}"] > .card[data-card="{code}"]')
        before = there.count()
        card(page, dst, len(after[dst]) - move.cards).click()
        expect(there).to_have_count(before + 1)


@pytest.mark.parametrize("game", GAMES)
def test_drag_and_drop(page: Page, game: str) -> None:
    deal, move = first_card_move(game)
    open_table(page, game, deal=deal)
    view = game_object(page)["view"]
    n = len(view["piles"][move.src]["cards"])
    code = view["piles"][move.src]["cards"][n - move.cards]
    src = card(page, move.src, n - move.cards)
    # An illegal drop glides back: nothing is played.
    targets = {m["json"].get("to") for m in view["moves"] if m["json"]["from"] == move.src}
    wrong = next(p for p in view["piles"] if p not in targets and p != move.src and p != "stock")
    v = version(page)
    drag(page, src, drop_spot(page, wrong))
    page.wait_for_timeout(500)
    assert version(page) == v
    assert dom_piles(page)[move.src][n - move.cards] == code
    box = src.bounding_box()
    page.wait_for_timeout(300)
    assert box == src.bounding_box()  # back home and at rest
    # A legal drop plays the move.
    dst = move.dst or ""
    drag(page, card(page, move.src, n - move.cards), drop_spot(page, dst))
    wait_version(page, v + 1)
    assert code in dom_piles(page)[dst]
    assert game_object(page)["view"]["counters"]["moves"] == 1


@pytest.mark.parametrize("game", GAMES)
def test_undo_and_redo_by_keys_and_buttons(page: Page, game: str) -> None:
    deal, move = first_card_move(game)
    open_table(page, game, deal=deal)
    start = dom_piles(page)
    v = version(page)
    n = len(start[move.src])
    card(page, move.src, n - move.cards).click()
    wait_version(page, v + 1)
    moved = dom_piles(page)
    page.keyboard.press("z")
    wait_version(page, v + 2)
    assert dom_piles(page) == start
    page.keyboard.press("Control+y")
    wait_version(page, v + 3)
    assert dom_piles(page) == moved
    page.keyboard.press("Control+z")
    wait_version(page, v + 4)
    assert dom_piles(page) == start
    page.keyboard.press("y")
    wait_version(page, v + 5)
    assert dom_piles(page) == moved
    expect(page.locator('[data-action="redo"]')).to_be_disabled()
    page.get_by_role("button", name="Undo").click()
    wait_version(page, v + 6)
    assert dom_piles(page) == start
    expect(page.locator('[data-action="undo"]')).to_be_disabled()
    page.get_by_role("button", name="Redo").click()
    wait_version(page, v + 7)
    assert dom_piles(page) == moved
    counters = game_object(page)["view"]["counters"]
    assert counters["moves"] == 1 and counters["undos"] == 3


@pytest.mark.parametrize("game", GAMES)
def test_reload_and_a_new_tab_resume_the_game(page: Page, game: str) -> None:
    deal, move = first_card_move(game)
    gid = open_table(page, game, deal=deal)
    api_play(page, [move])
    page.reload()
    assert wait_table(page) == gid
    g = new_game(game, deal, None, "random")
    g.play(move)
    want = player_view(g.spec, g.state, deal=deal)
    assert dom_piles(page) == {p: v["cards"] for p, v in want["piles"].items()}
    # Closing the tab and coming back to the game's plain address finds it again.
    page.close()
    other = page.context.new_page()
    other.goto(f"/play/{game}")
    assert wait_table(other) == gid
    assert dom_piles(other) == {p: v["cards"] for p, v in want["piles"].items()}
    assert f"deal={deal}" in other.url


def test_a_shared_url_opens_the_same_deal(browser: Browser, base_url: str) -> None:
    url = "/play/spider?suits=2&deal=123"
    seen = []
    for _ in range(2):  # two different players
        ctx = browser.new_context(base_url=base_url, locale="en-US")
        page = ctx.new_page()
        page.goto(url)
        wait_table(page)
        seen.append(dom_piles(page))
        assert "deal=123" in page.url and "suits=2" in page.url
        ctx.close()
    assert seen[0] == seen[1]
    want = engine_view("spider", 123, {"suits": "2"})
    assert seen[0] == {p: v["cards"] for p, v in want["piles"].items()}


def test_no_face_down_card_is_in_the_page(page: Page) -> None:
    open_table(page, "spider", deal=77)
    g = new_game("spider", 77, None, "random")
    hidden: Counter[str] = Counter()
    visible: Counter[str] = Counter()
    view = player_view(g.spec, g.state, deal=77)
    for pid, pile in view["piles"].items():
        real = g.state.piles[g.spec.index[pid]]
        for c, shown in zip(real, pile["cards"], strict=True):
            (visible if shown else hidden)[card_code(c)] += 1
    html = page.content()
    secret = [c for c in hidden if c not in visible]
    assert secret, "the test needs a hidden card with no visible copy"
    ranks = ["Ace", "Two", "Three", "Four", "Five", "Six", "Seven"]
    ranks += ["Eight", "Nine", "Ten", "Jack", "Queen", "King"]
    suits = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
    for code in secret:
        # As a token (random game ids may hold the two letters inside a longer word).
        assert not re.search(rf"(?<![\w-]){code}(?![\w-])", html), code
        name = f"{ranks['A23456789TJQK'.index(code[0])]} of {suits[code[1]]}"
        assert name not in html, name
    for code, n in visible.items():
        assert html.count(f'data-card="{code}"') == n
    downs = page.locator(".card.down")
    assert downs.count() == sum(hidden.values()) - 0
    for attrs in downs.evaluate_all("els => els.map(e => e.getAttributeNames().sort().join(' '))"):
        assert attrs == "aria-label class data-index role style"
    styles = downs.evaluate_all("els => els.map(e => e.getAttribute('style')).join(';')")
    allowed = {"--x", "--y", "--z", "--zs", "--fx", "--fy", "--delay"}
    assert set(re.findall(r"--?[\w-]+(?=:)", styles)) <= allowed
    assert not downs.evaluate_all("els => els.map(e => e.textContent).join('')")


def test_repeated_clicks_cycle_through_every_destination(page: Page) -> None:
    deal, pid, index, smart = card_with_choices("spider", 3)
    open_table(page, "spider", deal=deal)
    code = dom_piles(page)[pid][index]
    where, at = pid, index
    for m in smart:
        dst = m.dst or ""
        there = page.locator(f'.pile[data-pile="{dst}"] > .card[data-card="{code}"]')
        before = there.count()
        card(page, where, at).click()
        expect(there).to_have_count(before + 1)
        where, at = dst, len(dom_piles(page)[dst]) - 1
        assert dom_piles(page)[dst][at] == code
        page.wait_for_timeout(300)
    assert game_object(page)["view"]["counters"]["undos"] == 0


@pytest.mark.parametrize("game", GAMES)
def test_a_random_session_always_shows_the_servers_position(page: Page, game: str) -> None:
    """Clicks, stock, undo and redo at random: after each, the page shows the view."""
    rng = random.Random(f"{game}-session")
    open_table(page, game, deal=rng.randint(1, 10_000))
    for _ in range(14):
        v = version(page)
        movable = page.locator(".card.playable")
        choice = rng.random()
        if choice < 0.6 and movable.count():
            movable.nth(rng.randrange(movable.count())).click()
        elif choice < 0.8 and page.locator('.pile[data-pile="stock"]').count():
            page.locator('.pile[data-pile="stock"] > .pile-base').click()
        elif choice < 0.9:
            page.keyboard.press("z")
        else:
            page.keyboard.press("y")
        expect(page.locator("section.table")).not_to_have_attribute("data-busy", "true")
        page.keyboard.press("Escape")  # a stuck dialog may have opened
        g = game_object(page)
        assert version(page) == g["version"] >= v
        assert dom_piles(page) == {p: x["cards"] for p, x in g["view"]["piles"].items()}


def test_a_second_tab_catches_up_instead_of_losing_a_move(
    page: Page, console_errors: list[str]
) -> None:
    deal, move = first_card_move("backbone")
    gid = open_table(page, "backbone", deal=deal)
    other = page.context.new_page()
    other.goto(page.url)
    assert wait_table(other) == gid
    v = version(page)
    n = len(dom_piles(page)[move.src])
    card(page, move.src, n - move.cards).click()
    wait_version(page, v + 1)
    # The other tab still shows the old position; its move is refused as stale and it
    # redraws the server's position.
    assert version(other) == v
    other.keyboard.press("h")
    expect(other.locator("#message")).to_contain_text("another tab")
    wait_version(other, v + 1)
    assert dom_piles(other) == dom_piles(page)
    # The browser logs the 409 it was meant to get; nothing else.
    assert len(console_errors) == 1 and "409 (Conflict)" in console_errors[0]
    console_errors.clear()


def test_m_on_a_focused_card_plays_it_and_focus_follows(page: Page) -> None:
    deal, pid, index, smart = card_with_choices("spider", 2)
    open_table(page, "spider", deal=deal)
    code = dom_piles(page)[pid][index]
    v = version(page)
    card(page, pid, index).focus()
    page.keyboard.press("m")
    wait_version(page, v + 1)
    focused = page.locator(".card:focus")
    expect(focused).to_have_attribute("data-card", code or "")
    assert focused.evaluate("e => e.closest('.pile').dataset.pile") == smart[0].dst
    page.keyboard.press("m")  # again: the next destination
    wait_version(page, v + 2)
    expect(page.locator(".card:focus")).to_have_attribute("data-card", code or "")
    assert page.locator(".card:focus").evaluate("e => e.closest('.pile').dataset.pile") == (
        smart[1].dst
    )
