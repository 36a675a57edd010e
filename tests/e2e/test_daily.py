"""Daily deals in Chromium: win today's deal from the home page, see the rank and the
streak on its leaderboard, and share a text that holds the result but not the layout."""

from __future__ import annotations

from pathlib import Path

from devtools import pool_collectable
from e2e_helpers import wait_table
from e2e_server import serve_app
from playwright.sync_api import Page, expect
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from pasyans import deals
from pasyans.server.pool import daily

SPINE_KEY = "empty=kings&runs=single&spine=56"


def test_win_today_see_rank_and_streak_then_share(page: Page, tmp_path: Path) -> None:
    with serve_app(tmp_path) as url:
        # Today's easy Spine deal is a layout one autocollect wins (a real one never is).
        today = daily.today()
        number = deals.daily_number(today, "spine", SPINE_KEY, "easy")
        engine = create_engine(f"sqlite:///{tmp_path / 'e2e.sqlite3'}")
        with Session(engine) as s:
            pool_collectable(s, number, "easy")
            s.commit()
        engine.dispose()
        page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
        page.goto(url + "/")
        section = page.locator("section.daily")
        expect(section.locator(".daily-streak")).to_have_attribute("data-streak", "0")
        cell = section.locator('.daily-row[data-game="spine"] [data-band="easy"]')
        expect(cell).to_have_attribute("data-status", "new")
        cell.click()
        page.wait_for_url("**/play/spine?**")
        wait_table(page)
        expect(page.locator("section.table")).to_have_attribute(
            "aria-label", f"Spine, deal {number}"
        )
        page.locator('[data-action="autocollect"]').click()
        expect(page.locator('dialog[data-dialog="won"]')).to_be_visible(timeout=20000)
        page.locator('dialog[data-dialog="won"]').get_by_role("button", name="Close").click()
        # Home: the cell is won, the streak is one day.
        page.goto(url + "/")
        won = page.locator('section.daily .daily-row[data-game="spine"] [data-band="easy"]')
        expect(won).to_have_attribute("data-status", "won")
        expect(page.locator("section.daily .daily-streak")).to_have_attribute("data-streak", "1")
        won.click()
        page.wait_for_url("**/daily?**")
        expect(page.locator(".daily-result .big")).to_have_text("Your rank: 1 of 1")
        expect(page.locator(".daily-streak")).to_contain_text("1 day")
        expect(page.locator("table.daily-board tr.you")).to_contain_text("Player")
        page.locator('[data-action="share"]').click()
        expect(page.locator("output.daily-shared")).to_be_visible()
        text = page.evaluate("navigator.clipboard.readText()")
        assert text == page.locator("output.daily-shared").text_content()
        assert "Spine" in text and today.isoformat() in text and "easy" in text
        assert "104 moves" in text and "#1" in text and "Time " in text
        assert f"{url}/daily?game=spine&difficulty=easy&day={today.isoformat()}" in text
        # Never the layout: no card code in it.
        assert not any(f"{r}{s}" in text for r in "A23456789TJQK" for s in "CDHS")
