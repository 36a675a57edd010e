"""Keyboard-only play in a real browser, for every game: Tab reaches the table, arrows move
between piles and along columns, Enter picks up and puts down, M plays the smart move, S
uses the stock, Escape cancels; the live region says what happened (follow-ups included);
card and pile names say what and where; the help overlay lists every key in both languages.

The page is driven with ``page.keyboard`` only. The test reads where focus is and what the
server says (to choose legal moves and check the result), but never clicks.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import (
    GAMES,
    api_play,
    dom_piles,
    game_object,
    open_table,
    settle,
    wait_table,
    wait_version,
)
from e2e_positions import spine_win
from playwright.sync_api import Page, expect

from pasyans.cards import parse_card
from pasyans.deals import new_game
from pasyans.engine import core

RANKS = ["Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
         "Jack", "Queen", "King"]  # fmt: skip
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
FANNED = {"column", "spine"}


def name(code: str) -> str:
    parse_card(code)  # a real card code
    return f"{RANKS['A23456789TJQK'.index(code[0])]} of {SUITS[code[1]]}"


def spot(page: Page) -> tuple[str, int | None] | None:
    """The pile and card index that has keyboard focus on the table, or None."""
    raw: Any = page.evaluate(
        """() => {
            const el = document.activeElement;
            const pile = el && el.closest('section.table .pile');
            if (!pile) return null;
            const i = el.dataset.index;
            return [pile.dataset.pile, i === undefined ? null : Number(i)];
        }"""
    )
    return None if raw is None else (raw[0], raw[1])


def tab_to_table(page: Page) -> None:
    for _ in range(60):
        page.keyboard.press("Tab")
        if spot(page) is not None:
            return
    raise AssertionError("Tab never reached the table")


def stops(view: dict[str, Any], pid: str) -> list[int | None]:
    pile = view["piles"][pid]
    cards = pile["cards"]
    if pile["kind"] == "stock":
        return [None]
    if pile["kind"] in FANNED:
        up = [i for i, c in enumerate(cards) if c]
    else:
        up = [len(cards) - 1] if cards and cards[-1] else []
    return list(up) or [None]


def go_to(page: Page, view: dict[str, Any], pid: str, index: int | None) -> None:
    """Arrow keys only, until focus is on (pid, index)."""
    n = len(view["piles"])
    for _ in range(n + 1):
        s = spot(page)
        assert s is not None, "focus left the table"
        if s[0] == pid:
            break
        page.keyboard.press("ArrowRight")
    else:
        raise AssertionError(f"ArrowRight never reached {pid}")
    order = stops(view, pid)
    for _ in range(len(order) + 1):
        s = spot(page)
        assert s is not None and s[0] == pid, (s, pid)
        if s[1] == index:
            return
        cur = order.index(s[1])
        page.keyboard.press("ArrowDown" if order.index(index) > cur else "ArrowUp")
    raise AssertionError(f"could not reach {pid}/{index}")


def card_moves(view: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for m in view["moves"]:
        j = m["json"]
        if not j.get("to"):
            continue
        src = view["piles"][j["from"]]["cards"]
        index = len(src) - j.get("cards", 1)
        if index in stops(view, j["from"]):
            out.append(j)
    return out


def live(page: Page) -> str:
    return page.locator("#announce").inner_text()


def lively_deal(game: str) -> int:
    """A deal that starts with several card moves (some random deals start stuck)."""
    for deal in range(1, 200):
        g = new_game(game, deal, None, "random")
        moves = [m for m in core.legal_moves(g.spec, g.state) if m.dst is not None]
        if not core.is_stuck(g.spec, g.state) and len({m.src for m in moves}) >= 3:
            return deal
    raise AssertionError(f"no lively {game} deal")


def check_page(page: Page) -> dict[str, Any]:
    g = game_object(page)
    assert dom_piles(page) == {k: p["cards"] for k, p in g["view"]["piles"].items()}
    return g


@pytest.mark.parametrize("game", GAMES)
def test_a_game_played_with_the_keyboard_alone(page: Page, game: str, shots: Path) -> None:
    open_table(page, game, deal=lively_deal(game))
    tab_to_table(page)
    g = check_page(page)
    v0, moves0 = g["version"], g["view"]["counters"]["moves"]
    made = 0
    # 1. M: the smart move of a card that has one.
    view = g["view"]
    j = card_moves(view)[0]
    index = len(view["piles"][j["from"]]["cards"]) - j.get("cards", 1)
    go_to(page, view, j["from"], index)
    expect(page.locator(".table :focus-visible")).to_have_count(1)
    page.keyboard.press("m")
    made += 1
    wait_version(page, v0 + made)
    settle(page)
    g = check_page(page)
    assert g["view"]["counters"]["moves"] == moves0 + made
    expect(page.locator("#announce")).to_contain_text(" to ")
    # 2-3. Enter picks up, arrows go to a legal target, Enter puts down.
    for _ in range(2):
        view = g["view"]
        moves = card_moves(view)
        assert moves, "no card move left to play"
        j = moves[-1]
        index = len(view["piles"][j["from"]]["cards"]) - j.get("cards", 1)
        go_to(page, view, j["from"], index)
        page.keyboard.press("Enter")
        expect(page.locator(".pile.target")).not_to_have_count(0)
        expect(page.locator(f'.pile[data-pile="{j["to"]}"].target')).to_have_count(1)
        expect(page.locator("#announce")).to_contain_text("Picked up")
        to = view["piles"][j["to"]]
        go_to(page, view, j["to"], stops(view, j["to"])[-1])
        page.keyboard.press("Enter")
        made += 1
        wait_version(page, v0 + made)
        settle(page)
        g = check_page(page)
        assert g["view"]["counters"]["moves"] == moves0 + made
        moved = g["view"]["piles"][j["to"]]["cards"][len(to["cards"])]
        expect(page.locator("#announce")).to_contain_text(name(moved))
        expect(page.locator(".pile.target, .card.selected")).to_have_count(0)
        # Focus stays on the table, on the pile the cards went to.
        s = spot(page)
        assert s is not None and s[0] == j["to"]
    # 4. The stock key, where the game has a stock.
    if "stock" in g["view"]["piles"]:
        assert any(m["json"]["from"] == "stock" for m in g["view"]["moves"])
        page.keyboard.press("s")
        made += 1
        wait_version(page, v0 + made)
        settle(page)
        g = check_page(page)
        assert g["view"]["counters"]["moves"] == moves0 + made
        stock_words = re.compile(r"Dealt \d+ cards|onto the waste|from the stock|Redeal")
        expect(page.locator("#announce")).to_have_text(stock_words)
    # 5. Undo and redo by key.
    page.keyboard.press("z")
    wait_version(page, v0 + made + 1)
    expect(page.locator("#announce")).to_have_text("Move undone.")
    page.keyboard.press("Control+y")
    wait_version(page, v0 + made + 2)
    g = check_page(page)
    assert g["view"]["counters"]["moves"] == moves0 + made
    settle(page)
    page.screenshot(path=str(shots / f"keyboard-{game}.png"))


def test_spider_flip_is_announced_with_the_new_card(page: Page) -> None:
    open_table(page, "spider", deal=4)
    tab_to_table(page)
    g = game_object(page)
    view = g["view"]
    j = next(m for m in card_moves(view) if view["piles"][m["from"]]["cards"][0] is None)
    go_to(page, view, j["from"], len(view["piles"][j["from"]]["cards"]) - 1)
    code = view["piles"][j["from"]]["cards"][-1]
    page.keyboard.press("Enter")
    go_to(page, view, j["to"], stops(view, j["to"])[-1])
    page.keyboard.press("Enter")
    wait_version(page, g["version"] + 1)
    after = game_object(page)["view"]
    turned = after["piles"][j["from"]]["cards"][-1]
    assert turned
    col = j["to"][1:]
    expect(page.locator("#announce")).to_have_text(
        f"{name(code)} to Column {col}. {name(turned)} turned up."
    )


def test_escape_puts_back_and_wrong_target_is_announced(page: Page) -> None:
    open_table(page, "spider", deal=4)
    tab_to_table(page)
    g = game_object(page)
    view = g["view"]
    j = card_moves(view)[0]
    go_to(page, view, j["from"], len(view["piles"][j["from"]]["cards"]) - 1)
    page.keyboard.press(" ")
    expect(page.locator(".card.selected")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(page.locator(".card.selected, .pile.target")).to_have_count(0)
    expect(page.locator("#announce")).to_have_text("Put back.")
    # A pile that is not a target: refused in words, nothing played.
    page.keyboard.press("Enter")
    targets = {m["to"] for m in card_moves(view) if m["from"] == j["from"]}
    bad = next(p for p in view["piles"] if p.startswith("t") and p not in targets | {j["from"]})
    go_to(page, view, bad, stops(view, bad)[-1])
    page.keyboard.press("Enter")
    expect(page.locator("#announce")).to_contain_text("cannot go to")
    assert game_object(page)["version"] == g["version"]


def test_names_say_what_and_where_and_hide_face_down_cards(page: Page) -> None:
    open_table(page, "spider", deal=2)
    view = game_object(page)["view"]
    cards = view["piles"]["t3"]["cards"]
    top = page.locator('.pile[data-pile="t3"] > .card').last
    expect(top).to_have_attribute(
        "aria-label", f"{name(cards[-1])}, Column 3, {len(cards)} of {len(cards)}"
    )
    for el in page.locator(".card.down").all():
        assert el.get_attribute("aria-label") == "Face-down card"
        assert el.get_attribute("data-card") is None
    stock = page.locator('.pile[data-pile="stock"] > .pile-base')
    stock_name = re.compile(r"^Stock, \d+ cards, deals left: \d+$")
    expect(stock).to_have_attribute("aria-label", stock_name)
    # R reads the table: every column, face-down counts, never a hidden card.
    tab_to_table(page)
    page.keyboard.press("r")
    expect(page.locator("#announce")).to_contain_text("Column 10:")
    text = live(page)
    assert "face down" in text
    shown = {name(c) for p in game_object(page)["view"]["piles"].values() for c in p["cards"] if c}
    ranks = "|".join(RANKS)
    said = set(re.findall(rf"(?:{ranks}) of (?:clubs|diamonds|hearts|spades)", text))
    assert said and said <= shown  # only face-up cards are ever named


def test_spine_pile_names(page: Page) -> None:
    open_table(page, "spine", deal=2)
    view = game_object(page)["view"]
    spine = view["piles"]["spine"]["cards"]
    label = page.locator('.pile[data-pile="spine"]').get_attribute("aria-label")
    assert label == f"Spine, {len(spine)} cards, top: {name(spine[-1])}"


def test_help_overlay_lists_every_key_in_both_languages(page: Page, shots: Path) -> None:
    open_table(page, "backbone", deal=2)
    tab_to_table(page)
    page.keyboard.press("Shift+?")
    dialog = page.locator("dialog[data-dialog=help]")
    expect(dialog).to_be_visible()
    for key in ["Enter, Space", "Esc", "M", "S, D", "Z, Ctrl+Z", "H", "A", "R", "?"]:
        expect(dialog.locator("kbd", has_text=re.compile(f"^{re.escape(key)}$"))).to_have_count(1)
    expect(dialog).to_contain_text("Undo")
    expect(dialog).to_contain_text("Отменить ход")
    page.screenshot(path=str(shots / "help-desktop.png"))
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)


def test_four_colour_suits_are_remembered(page: Page, shots: Path) -> None:
    open_table(page, "spider", deal=2)
    four = page.locator("#pref-four")
    expect(four).to_have_attribute("aria-pressed", "false")
    four.focus()
    page.keyboard.press("Enter")
    expect(four).to_have_attribute("aria-pressed", "true")
    page.reload()
    open_table(page, "nivernais", deal=2)
    expect(page.locator("body")).to_have_class(re.compile("four-colour"))
    clubs = page.locator(".card.up.s-C").first
    diamonds = page.locator(".card.up.s-D").first
    if clubs.count():
        assert clubs.evaluate("e => getComputedStyle(e).color") == "rgb(23, 105, 44)"
    if diamonds.count():
        assert diamonds.evaluate("e => getComputedStyle(e).color") == "rgb(20, 80, 176)"
    assert clubs.count() + diamonds.count() > 0
    page.screenshot(path=str(shots / "four-colour-desktop.png"))


def test_give_up_asks_first(page: Page) -> None:
    open_table(page, "spider", deal=6)
    g = game_object(page)
    button = page.locator('button[data-action="giveup"]')
    button.focus()
    page.keyboard.press("Enter")
    dialog = page.locator("dialog[data-dialog=giveup]")
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")  # no: still playing
    expect(dialog).to_have_count(0)
    assert game_object(page)["status"] == "playing"
    button.focus()
    page.keyboard.press("Enter")
    dialog.locator("button[data-answer=yes]").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#announce")).to_have_text("Game given up.")
    after = game_object(page)
    assert after["status"] == "lost" and after["version"] >= g["version"]
    expect(button).to_be_disabled()


def test_language_switch_keeps_a_shared_result_title(page: Page) -> None:
    page.goto("/play/spider?deal=7&kind=random&result=won&moves=120&time=300")
    expect(page.locator("section.table")).to_have_attribute("data-game-id", re.compile(".+"))
    before = page.title()
    assert "120" in before
    page.locator("#pref-lang").focus()
    page.keyboard.press("Enter")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    after = page.title()
    assert "120" in after and after != before


@pytest.mark.parametrize(("game", "n"), [("spider", 40), ("nivernais", 30), ("backbone", 24)])
def test_long_columns_fit_the_viewport(page: Page, game: str, n: int) -> None:
    """layout.js squeezes a long column towards the table's bottom, never under the targets."""
    open_table(page, game, deal=2)
    view = game_object(page)["view"]
    res = page.evaluate(
        """async ([view, n]) => {
            const { layout } = await import('/static/js/layout.js');
            const long = Array.from({length: n}, (_, i) => (i < 5 ? null : 'QH'));
            const v = {...view, piles: {...view.piles, t1: {...view.piles.t1, cards: long}}};
            const out = [];
            const sizes = [[1280, 700, false], [1280, 700, true], [390, 760, false]];
            for (const [w, h, large] of sizes) {
                const g = layout(v, w, h, large);
                const cards = g.piles.t1.cards;
                const ups = cards.slice(6).map((q, i) => q.y - cards[i + 5].y);
                const bottom = cards[cards.length - 1].y + g.c.h;
                out.push({bottom, h, minUp: Math.min(...ups), least: g.c.minUp, large, w});
            }
            return out;
        }""",
        [view, n],
    )
    for r in res:
        # A face-up card keeps a 24 px target (32 px in large mode, docs/ui.md "Targets"):
        # the column ends above the bottom, or it is squeezed to exactly that and the page
        # scrolls.
        assert r["least"] >= (32 if r["large"] else 24), r
        assert r["minUp"] >= r["least"], r
        assert r["bottom"] <= r["h"] or r["minUp"] <= r["least"] + 1, r


def test_phone_help_focus_and_four_colours(browser: Any, base_url: str, shots: Path) -> None:
    ctx = browser.new_context(
        base_url=base_url, viewport={"width": 390, "height": 844}, locale="en-US", has_touch=True
    )
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_table(page, "spider", deal=lively_deal("spider"))
    page.locator("#pref-four").click()
    tab_to_table(page)
    view = game_object(page)["view"]
    j = card_moves(view)[0]
    go_to(page, view, j["from"], len(view["piles"][j["from"]]["cards"]) - 1)
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    expect(page.locator(".table :focus-visible")).to_have_count(1)
    page.screenshot(path=str(shots / "keyboard-phone.png"))
    page.keyboard.press("Escape")
    page.keyboard.press("Shift+?")
    dialog = page.locator("dialog[data-dialog=help]")
    expect(dialog).to_be_visible()
    box = dialog.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert dialog.evaluate("d => d.scrollWidth <= d.clientWidth")  # nothing cut off sideways
    page.screenshot(path=str(shots / "help-phone.png"))
    ctx.close()
    assert not errors


def test_a_spine_game_finished_with_the_keyboard_is_announced_won(page: Page) -> None:
    """The solver's winning line: all but the last moves through the API, the last ones with
    the keyboard (pick up, arrows, put down); the win is shown and announced."""
    deal = 2
    line = spine_win(deal)
    open_table(page, "spine", deal=deal, kind="solvable")
    api_play(page, line[:-6])
    page.reload()
    wait_table(page)
    tab_to_table(page)
    for m in line[-6:]:
        g = game_object(page)
        view = g["view"]
        index = len(view["piles"][m.src]["cards"]) - m.cards
        go_to(page, view, m.src, index)
        page.keyboard.press("Enter")
        go_to(page, view, m.dst or "", stops(view, m.dst or "")[-1])
        page.keyboard.press("Enter")
        wait_version(page, g["version"] + 1)
    dialog = page.locator('dialog[data-dialog="won"]')
    expect(dialog).to_be_visible()
    expect(page.locator("#announce")).to_have_text("You won!")
    assert game_object(page)["status"] == "won"
