"""Statistics, history and replay in a real browser: a game won and a game abandoned through
the table page show in the figures, the charts and the history (which match the API's
records), the replay steps through the won game, a shared result names its figures in the
title, giving up from the history and resetting both ask first. Screenshots of the
statistics page at 1280x800 and 390x844 in English and Russian go to the shots directory."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from e2e_helpers import card, open_table, version, wait_table, wait_version
from e2e_positions import first_card_move
from playwright.sync_api import Page, expect

from pasyans.deals import GENERATOR_VERSION

# Spine solvable deal 1 is, on the test server, a layout one autocollect wins (104 moves;
# conftest.py puts it in the deal pool).
WIN_DEAL = 1


def api(page: Page, path: str) -> Any:
    res = page.request.get(path)
    assert res.ok, res.text()
    return res.json()


def win_by_autocollect(page: Page) -> str:
    gid = open_table(page, "spine", deal=WIN_DEAL, kind="solvable")
    page.locator('[data-action="autocollect"]').click()
    expect(page.locator('dialog[data-dialog="won"]')).to_be_visible(timeout=15000)
    page.locator('dialog[data-dialog="won"]').get_by_role("button", name="Close").click()
    return gid


def abandon_after_a_click(page: Page) -> str:
    """Spider (one suit): a card move by a click on the table, then "New game"."""
    deal, m = first_card_move("spider", {"suits": "1"})
    gid = open_table(page, "spider", deal=deal, options={"suits": "1"})
    v = version(page)
    view = api(page, f"/api/games/{gid}")["view"]
    card(page, m.src, len(view["piles"][m.src]["cards"]) - (m.cards or 1)).click()
    wait_version(page, v + 1)
    page.locator('[data-action="new"]').click()
    # Leaving a game in progress asks first (it counts as lost).
    page.locator('dialog[data-dialog="abandon"] [data-answer="yes"]').click()
    expect(page.locator("section.table")).not_to_have_attribute("data-game-id", gid)
    wait_table(page)
    return gid


def test_won_and_abandoned_games_show_in_stats_history_and_replay(page: Page, shots: Path) -> None:
    won = win_by_autocollect(page)
    lost = abandon_after_a_click(page)

    # Statistics, reached from the site nav.
    page.get_by_role("navigation", name="Site").get_by_role("link", name="Statistics").click()
    expect(page.locator("h1")).to_have_text("Statistics")
    data = api(page, "/api/stats")
    total = data["total"]
    assert (total["played"], total["won"], total["lost"], total["clean_wins"]) == (2, 1, 1, 1)
    tiles = page.locator(".tiles")
    expect(tiles.locator('[data-tile="played"] .value')).to_have_text("2")
    expect(tiles.locator('[data-tile="won"] .value')).to_have_text("1")
    expect(tiles.locator('[data-tile="win_rate"] .value')).to_have_text("50%")
    expect(tiles.locator('[data-tile="clean"] .value')).to_have_text("1")
    rows = page.locator(".stats-table tbody tr")
    expect(rows).to_have_count(2)
    spine = rows.nth(0)
    expect(spine.locator("th")).to_have_text(re.compile(r"^Spine"))
    expect(spine.locator('[data-col="played"]')).to_have_text("1")
    expect(spine.locator('[data-col="won"]')).to_have_text("1")
    expect(spine.locator('[data-col="fewest"]')).to_have_text(re.compile(r"^104\s*deal 1$"))
    expect(spine.locator('[data-col="fewest"] a')).to_have_attribute("href", f"/replay/{won}")
    spider = rows.nth(1)
    expect(spider.locator("th")).to_have_text("Spider · one suit")
    expect(spider.locator('[data-col="lost"]')).to_have_text("1")
    expect(spider.locator('[data-col="win_rate"]')).to_have_text("0%")
    expect(page.locator(".stats-table tfoot [data-col='played']")).to_have_text("2")
    # Charts of all games: one bar of wins and one of losses today, one won game's time.
    charts = page.locator(".charts")
    expect(charts.locator('[data-chart="wins-losses"] rect.won')).to_have_count(1)
    expect(charts.locator('[data-chart="wins-losses"] rect.lost')).to_have_count(1)
    expect(charts.locator('[data-chart="time"] circle')).to_have_count(1)
    page.select_option("#chart-group", label="Spider · one suit")
    expect(charts.locator('[data-chart="wins-losses"] rect.won')).to_have_count(0)
    expect(charts.locator('[data-chart="wins-losses"] rect.lost')).to_have_count(1)
    expect(charts.locator('[data-chart="time"] .chart-empty')).to_have_text("No won games yet.")
    page.select_option("#chart-group", label="All games")
    page.locator(".count-rules summary").click()
    expect(page.locator(".count-rules li")).to_have_count(8)

    for lang in ("en", "ru"):
        if lang == "ru":
            page.locator("#pref-lang").click()
            expect(page.locator("h1")).to_have_text("Статистика")
            expect(page.locator(".topnav")).to_contain_text("История")
            rate = page.locator('[data-tile="win_rate"] .value')
            expect(rate).to_have_text(re.compile(r"^50\s%$"))
        for width, height in ((1280, 800), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(150)
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width, f"{lang} {width}: the page scrolls sideways ({wide}px)"
            table = page.locator(".stats-page .table-scroll")
            inner = table.evaluate("e => e.scrollWidth - e.clientWidth")
            assert inner <= 0, f"{lang} {width}: the figures table scrolls sideways"
            page.screenshot(path=str(shots / f"stats-{lang}-{width}.png"), full_page=True)
    page.locator("#pref-lang").click()
    page.set_viewport_size({"width": 1280, "height": 800})

    # History: newest first, and every figure as the API records it.
    page.get_by_role("link", name="History").first.click()
    expect(page.locator("h1")).to_have_text("History")
    items = api(page, "/api/history")["items"]
    assert [i["id"] for i in items] == [lost, won]
    lines = page.locator(".history-table tbody tr")
    expect(lines).to_have_count(2)
    expect(lines.nth(0)).to_have_attribute("data-result", "abandoned")
    top = lines.nth(1)
    expect(top).to_have_attribute("data-id", won)
    expect(top.locator('[data-col="result"]')).to_have_text("Won · clean")
    expect(top.locator('[data-col="moves"]')).to_have_text(str(items[1]["moves"]))
    expect(top.locator('[data-col="score"]')).to_have_text(str(items[1]["score"]))
    expect(top.locator('[data-col="deal"]')).to_have_text(str(WIN_DEAL))
    expect(top.locator('[data-action="play"]')).to_have_attribute(
        "href", re.compile(rf"^/play/spine\?.*deal={WIN_DEAL}&gen={GENERATOR_VERSION}$")
    )

    # The replay: first / back / forward / last and autoplay.
    top.locator('[data-action="replay"]').click()
    expect(page).to_have_url(re.compile(rf"/replay/{won}$"))
    table = page.locator("section.replay-table")
    expect(table).to_have_attribute("data-step", "0")
    expect(page.locator("#replay-step")).to_have_text("Start position (104 moves)")
    assert table.locator(".card").count() == 104
    expect(page.locator('[data-action="first"]')).to_be_disabled()
    page.locator('[data-action="forward"]').click()
    expect(table).to_have_attribute("data-step", "1")
    replay = api(page, f"/api/games/{won}/replay?step=1")
    expect(page.locator("#replay-step")).to_have_text(f"Move 1 of 104: {replay['moves'][0]}")
    page.locator('[data-action="last"]').click()
    expect(table).to_have_attribute("data-step", "104")
    expect(page.locator('[data-action="forward"]')).to_be_disabled()
    assert table.locator('.pile[data-pile^="f"] > .card').count() == 104
    page.keyboard.press("ArrowLeft")
    expect(table).to_have_attribute("data-step", "103")
    page.locator('[data-action="back"]').click()
    expect(table).to_have_attribute("data-step", "102")
    page.locator('[data-action="first"]').click()
    expect(table).to_have_attribute("data-step", "0")
    play = page.locator('[data-action="play"]')
    play.click()
    expect(play).to_have_attribute("aria-pressed", "true")
    expect(table).to_have_attribute("data-step", "3", timeout=10000)
    play.click()
    expect(play).to_have_attribute("aria-pressed", "false")
    stopped = table.get_attribute("data-step")
    page.wait_for_timeout(1200)
    assert table.get_attribute("data-step") == stopped
    page.screenshot(path=str(shots / "replay-en-1280.png"))
    # "Play again" opens the same deal as a new game.
    page.locator('[data-action="play-fresh"]').click()
    gid = wait_table(page)
    assert gid != won and api(page, f"/api/games/{gid}")["view"]["deal"] == WIN_DEAL


def test_the_figures_per_kind_of_deal_and_difficulty(page: Page, shots: Path) -> None:
    """A hard solvable Spine deal won and a random Spider deal abandoned: the table "By
    kind of deal and difficulty" shows each under its band (as /api/stats' bands say), in
    English and Russian, and the history's "Play again" keeps the difficulty."""
    gen = GENERATOR_VERSION
    page.goto(f"/play/spine?deal={WIN_DEAL}&kind=solvable&difficulty=hard&gen={gen}")
    won = wait_table(page)
    assert api(page, f"/api/games/{won}")["difficulty"] == "hard"
    page.locator('[data-action="autocollect"]').click()
    expect(page.locator('dialog[data-dialog="won"]')).to_be_visible(timeout=15000)
    page.locator('dialog[data-dialog="won"]').get_by_role("button", name="Close").click()
    abandon_after_a_click(page)

    page.goto("/stats")
    data = api(page, "/api/stats")
    spine_bands = next(g for g in data["games"] if g["game"] == "spine")["bands"]
    assert [(b["kind"], b["difficulty"], b["won"]) for b in spine_bands] == [
        ("solvable", "hard", 1)
    ]
    table = page.locator(".bands-table")
    expect(page.locator("#by-band")).to_have_text("By kind of deal and difficulty")
    expect(table.locator("tbody")).to_have_count(2)
    spine = table.locator("tbody").nth(0)
    expect(spine.locator(".band-group th")).to_have_text(re.compile(r"^Spine"))
    hard = spine.locator('tr[data-band="hard"]')
    expect(hard.locator("th")).to_have_text("solvable, hard")
    expect(hard.locator('[data-col="played"]')).to_have_text("1")
    expect(hard.locator('[data-col="won"]')).to_have_text("1")
    expect(hard.locator('[data-col="win_rate"]')).to_have_text("100%")
    expect(spine.locator('tr[data-band="medium"]')).to_have_count(0)
    spider = table.locator("tbody").nth(1)
    expect(spider.locator(".band-group th")).to_have_text("Spider · one suit")
    rand = spider.locator('tr[data-band="random"]')
    expect(rand.locator("th")).to_have_text("random")
    expect(rand.locator('[data-col="played"]')).to_have_text("1")
    expect(rand.locator('[data-col="won"]')).to_have_text("0")
    page.screenshot(path=str(shots / "stats-bands-en-1280.png"), full_page=True)
    page.locator("#pref-lang").click()
    expect(page.locator("#by-band")).to_have_text("По виду раздачи и сложности")
    expect(hard.locator("th")).to_have_text("решаемая, трудная")
    expect(rand.locator("th")).to_have_text("случайная")
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(150)
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 390, f"the page scrolls sideways ({wide}px)"
    page.screenshot(path=str(shots / "stats-bands-ru-390.png"), full_page=True)
    page.locator("#pref-lang").click()
    page.set_viewport_size({"width": 1280, "height": 800})

    # The history's "Play again" asks for the same difficulty.
    page.goto("/history")
    line = page.locator(f'.history-table tr[data-id="{won}"]')
    expect(line.locator('[data-action="play"]')).to_have_attribute(
        "href",
        re.compile(rf"^/play/spine\?.*difficulty=hard&deal={WIN_DEAL}&gen={GENERATOR_VERSION}$"),
    )
    assert (
        next(i for i in api(page, "/api/history")["items"] if i["id"] == won)["difficulty"]
        == "hard"
    )


def test_a_spider_replay_has_no_face_down_card_in_the_page(page: Page) -> None:
    lost = abandon_after_a_click(page)
    page.goto(f"/replay/{lost}")
    table = page.locator("section.replay-table")
    expect(table).to_have_attribute("data-step", "0")
    expect(table.locator(".card")).to_have_count(104)
    down = table.locator(".card.down")
    assert down.count() == 54 + 50 - 10  # 44 face down in columns, 50 in the stock
    assert table.locator(".card.down[data-card]").count() == 0
    assert down.evaluate_all("els => els.map(e => e.textContent).join('')") == ""
    page.locator('[data-action="last"]').click()
    expect(table).to_have_attribute("data-step", "1")
    assert table.locator(".card.down[data-card]").count() == 0


def test_a_shared_result_names_its_figures_in_the_title(page: Page) -> None:
    page.goto(f"/play/spine?deal={WIN_DEAL}&result=won&moves=104&time=75")
    wait_table(page)
    assert page.title() == f"Won in 104 moves, 1:15 · Spine, deal {WIN_DEAL} · Pasyans"
    page.goto(f"/play/spine?deal={WIN_DEAL}&result=<b>&moves=104&time=75")
    wait_table(page)
    assert page.title() == "Spine · Pasyans"
    page.locator("#pref-lang").click()
    page.goto(f"/play/spine?deal={WIN_DEAL}&result=given_up&moves=1&time=3725")
    wait_table(page)
    title = f"Сдана, ходов: 1, 1:02:05 · Хребет, раздача {WIN_DEAL} · Пасьянсы"
    assert page.title() == title
    page.goto(f"/play/spine?deal={WIN_DEAL}&result=won&moves=104&time=75")
    wait_table(page)
    assert page.title().startswith("Победа за 104 хода, 1:15 · ")


def test_share_link_from_the_history(page: Page) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    win_by_autocollect(page)
    page.goto("/history")
    page.locator('[data-action="share"]').first.click()
    expect(page.locator("#toast")).to_have_text("Link copied.")
    link = page.evaluate("navigator.clipboard.readText()")
    assert re.fullmatch(
        # A solvable deal's link names its difficulty and generator version (the same
        # layout for whoever opens it, whichever version is current then).
        r"http://127\.0\.0\.1:\d+/play/spine\?empty=kings&runs=single&spine=56&difficulty=medium"
        rf"&deal={WIN_DEAL}&gen={GENERATOR_VERSION}"
        r"&result=won&moves=104&time=\d+",
        link,
    ), link


def test_give_up_from_the_history_and_reset_ask_first(page: Page) -> None:
    gid = abandon_after_a_click(page)  # leaves a new Spider game with no move
    playing = wait_table(page)
    v = version(page)
    view = api(page, f"/api/games/{playing}")["view"]
    # Any legal move (the random deal may have no column move at the start; the stock is
    # always there in a fresh Spider game).
    move = view["moves"][0]
    res = page.request.post(
        f"/api/games/{playing}/moves", data={"move": move["text"], "version": v}
    )
    assert res.ok, res.text()
    page.goto("/history")
    row = page.locator(f'tr[data-id="{playing}"]')
    expect(row).to_have_attribute("data-result", "playing")
    row.locator('[data-action="giveup"]').click()
    dialog = page.locator('dialog[data-dialog="confirm"]')
    dialog.locator('[data-action="cancel"]').click()
    expect(dialog).to_have_count(0)
    assert api(page, f"/api/games/{playing}")["status"] == "playing"
    row.locator('[data-action="giveup"]').click()
    dialog.locator('[data-action="confirm"]').click()
    expect(page.locator(f'tr[data-id="{playing}"]')).to_have_attribute("data-result", "given_up")
    expect(page.locator(f'tr[data-id="{gid}"]')).to_have_attribute("data-result", "abandoned")

    page.goto("/stats")
    expect(page.locator('[data-tile="played"] .value')).to_have_text("2")
    page.locator('[data-action="reset"]').click()
    expect(dialog).to_contain_text("cannot be undone")
    dialog.locator('[data-action="cancel"]').click()
    expect(page.locator('[data-tile="played"] .value')).to_have_text("2")
    assert api(page, "/api/stats")["total"]["played"] == 2
    page.locator('[data-action="reset"]').click()
    dialog.locator('[data-action="confirm"]').click()
    expect(page.locator('[data-empty="stats"]')).to_be_visible()
    assert api(page, "/api/stats")["total"]["played"] == 0
    assert api(page, "/api/history")["total"] == 0
