"""Home, rules pages and the per-browser settings (language, large cards, timer)."""

from __future__ import annotations

import re

from e2e_helpers import GAMES, card, dom_piles, open_table, version, wait_table, wait_version
from e2e_positions import first_card_move
from playwright.sync_api import Browser, Page, expect

TITLES = {
    "spine": ("Spine", "Хребет"),
    "backbone": ("Backbone", "Позвоночник"),
    "backbone-classic": ("Backbone (classic)", "Позвоночник (классический)"),
    "spider": ("Spider", "Паук"),
    "nivernais": ("Nivernais", "Ниверне"),
}


def test_home_lists_the_five_games_in_both_languages(page: Page) -> None:
    page.goto("/")
    cards = page.locator("li.game-card")
    expect(cards).to_have_count(5)
    for game, (en, ru) in TITLES.items():
        item = page.locator(f'li.game-card[data-game="{game}"]')
        expect(item.locator("h2")).to_have_text(en)
        expect(item.locator("p.other")).to_have_text(ru)
    spine = page.locator('li.game-card[data-game="spine"]')
    expect(spine).to_contain_text("almost never solvable")
    expect(spine.locator('input[name="spine"]')).to_have_count(3)
    expect(spine.locator('input[name="empty"]')).to_have_count(2)
    expect(page.locator('li.game-card[data-game="spider"] input[name="suits"]')).to_have_count(3)


def test_play_from_home_with_options(page: Page) -> None:
    page.goto("/")
    spider = page.locator('li.game-card[data-game="spider"]')
    spider.locator("summary").click()  # the options sit in a disclosure
    spider.locator('input[name="suits"][value="2"]').check()
    spider.get_by_role("button", name="Play").click()
    wait_table(page)
    assert re.search(r"/play/spider\?suits=2&deal=\d+", page.url)
    codes = page.locator(".card[data-card]").evaluate_all("els => els.map(e => e.dataset.card[1])")
    assert set(codes) <= {"S", "H"}


def test_rules_pages(page: Page) -> None:
    for game in GAMES:
        page.goto(f"/rules/{game}")
        text = page.locator(f'.rules-text[data-rules="{game}"]')
        expect(text.locator("p").first).to_be_visible()
        assert len(text.inner_text()) > 200
    page.locator("#pref-lang").click()
    expect(page.locator("h1")).to_contain_text("Правила")


def test_language_switch_is_remembered(page: Page) -> None:
    open_table(page, "backbone", deal=3)
    expect(page.locator('[data-action="undo"] .lbl')).to_have_text("Undo")
    first = page.locator(".card[data-card]").first
    code = first.get_attribute("data-card") or ""
    suit = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[code[1]]
    assert f" of {suit}, " in (first.get_attribute("aria-label") or "")
    page.locator("#pref-lang").click()
    wait_table(page)
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator('[data-action="undo"] .lbl')).to_have_text("Отменить")
    first = page.locator(f'.card[data-card="{code}"]').first
    expect(first).to_have_attribute(
        "aria-label",
        re.compile({"C": "треф", "D": "бубен", "H": "червей", "S": "пик"}[code[1]] + ", "),
    )
    page.reload()
    wait_table(page)
    expect(page.locator('[data-action="undo"] .lbl')).to_have_text("Отменить")
    page.locator("#pref-lang").click()
    wait_table(page)
    expect(page.locator('[data-action="undo"] .lbl')).to_have_text("Undo")


def test_russian_browser_gets_russian(browser: Browser, base_url: str) -> None:
    ctx = browser.new_context(base_url=base_url, locale="ru-RU")
    page = ctx.new_page()
    page.goto("/")
    expect(page.locator("h1")).to_have_text("Пасьянсы")
    expect(page.locator('li.game-card[data-game="spine"] h2')).to_have_text("Хребет")
    ctx.close()


def test_large_cards_and_timer_settings(page: Page) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    open_table(page, "spider", deal=4)
    table = page.locator("section.table")
    small = table.locator(".card").first.bounding_box()
    index = table.locator(".card.up .idx").first
    small_font = float(index.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
    large_button = page.locator("#pref-large")
    expect(large_button).to_have_attribute("aria-pressed", "false")
    large_button.click()
    expect(large_button).to_have_attribute("aria-pressed", "true")
    big = table.locator(".card").first.bounding_box()
    assert small and big and big["width"] >= small["width"]
    big_font = float(index.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
    assert big_font > small_font * 1.2
    page.reload()
    wait_table(page)
    again = table.locator(".card").first.bounding_box()
    assert again and again["width"] == big["width"]
    timer = page.locator("#pref-timer")
    expect(page.locator(".stat-time")).to_be_visible()
    timer.click()
    expect(page.locator(".stat-time")).to_be_hidden()
    page.reload()
    wait_table(page)
    expect(page.locator(".stat-time")).to_be_hidden()


def test_reduced_motion_moves_nothing(browser: Browser, base_url: str) -> None:
    ctx = browser.new_context(base_url=base_url, locale="en-US", reduced_motion="reduce")
    page = ctx.new_page()
    deal, move = first_card_move("spider")
    open_table(page, "spider", deal=deal)
    page.evaluate(
        """() => {
            window.__glides = 0;
            new MutationObserver(ms => { for (const m of ms)
                if (m.target.classList && m.target.classList.contains('gliding')) window.__glides++;
            }).observe(document.body, {subtree: true, attributes: true});
        }"""
    )
    n = len(dom_piles(page)[move.src])
    v = version(page)
    card(page, move.src, n - 1).click()
    wait_version(page, v + 1)
    page.wait_for_timeout(300)
    assert page.evaluate("() => window.__glides") == 0
    ctx.close()


def test_solvable_only_is_offered_where_the_catalog_says(page: Page) -> None:
    page.goto("/")
    spider = page.locator('li.game-card[data-game="spider"]')
    spider.locator("summary").click()
    solvable = spider.locator('input[name="kind"][value="solvable"]')
    for suits in ("4", "2", "1"):  # every game and option set offers solvable deals
        spider.locator(f'input[name="suits"][value="{suits}"]').check()
        expect(solvable).to_be_enabled()
    nivernais = page.locator('li.game-card[data-game="nivernais"]')
    nivernais.locator("summary").click()
    expect(nivernais.locator('input[name="kind"][value="solvable"]')).to_be_enabled()
    nivernais.locator('input[name="kind"][value="solvable"]').check()
    nivernais.locator('[data-action="play"]').click()
    page.wait_for_url(re.compile(r"/play/nivernais\?(.*&)?kind=solvable"))
    expect(page.locator('[data-pile="t1"]')).to_have_attribute("aria-label", re.compile("4 cards"))
    expect(page.locator('[data-pile="stock"]')).to_have_attribute("aria-label", re.compile("72"))
