"""Daily deals in Chromium: win today's deal from the home page, share the result from the
won dialog, see the rank and the streak on its leaderboard, share a text that holds the
result but not the layout, then link a second browser context and see the same history
and the same won deal there."""

from __future__ import annotations

from pathlib import Path

from devtools import pool_collectable
from e2e_helpers import device_context, wait_table
from e2e_server import serve_app
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from pasyans import deals
from pasyans.server.daily import names
from pasyans.server.pool import daily
from pasyans.server.storage import store
from pasyans.server.storage.models import DailyBoard, DailyResult

SPINE_KEY = "empty=kings&runs=single&spine=56"


def seed(data: Path, others: int = 0) -> int:
    """Today's easy Spine deal becomes a layout one autocollect wins (a real one never
    is); ``others`` players with names get results on its leaderboard. Its number."""
    today = daily.today()
    number = deals.daily_number(today, "spine", SPINE_KEY, "easy")
    engine = create_engine(f"sqlite:///{data / 'e2e.sqlite3'}")
    with Session(engine) as s:
        pool_collectable(s, number, "easy", deals.daily_generator(today))
        t = store.now()
        for i in range(others):
            player = store.ensure_player(s, store.hash_token(f"{i:043d}"))
            if i % 3:
                names.set_name(s, player, NAMES[i % len(NAMES)])
            row = store.add_game(
                s, player, game="spine", options=dict(p.split("=") for p in SPINE_KEY.split("&")),
                deal=number, kind="solvable", rules_version=1, summary={}, difficulty="easy",
                daily=today.isoformat(),
            )  # fmt: skip
            row.status, row.finished_at, row.time_ms = "won", t, 95_000 + 7_300 * i
            row.first_move_at = t
            s.add(DailyResult(day=today.isoformat(), game="spine", options_key=SPINE_KEY,
                              difficulty="easy", player_id=player, game_id=row.id,
                              clean=i % 5 != 4, time_ms=row.time_ms, moves=104 + 3 * (i % 4),
                              finished_at=t))  # fmt: skip
        if others:  # the board's count, as the server keeps it
            clean = sum(i % 5 != 4 for i in range(others))
            board = {"day": today.isoformat(), "game": "spine", "options_key": SPINE_KEY}
            s.add(DailyBoard(**board, difficulty="easy", clean_wins=clean))
        s.commit()
    engine.dispose()
    return number


NAMES = ["Анна К.", "solitaire_fan", "Mikhail", "Zoë", "Kasia-77", "Иван"]


def no_layout(text: str, number: int) -> None:
    """The share text gives nothing of the layout away: no card code, no deal number."""
    assert not any(f"{r}{s}" in text for r in "A23456789TJQK" for s in "CDHS")
    assert str(number) not in text


def test_win_today_see_rank_and_streak_then_share(
    page: Page, browser: Browser, tmp_path: Path, console_errors: list[str]
) -> None:
    with serve_app(tmp_path) as url:
        today = daily.today()
        number = seed(tmp_path)
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
        won_dialog = page.locator('dialog[data-dialog="won"]')
        expect(won_dialog).to_be_visible(timeout=20000)
        # The won dialog offers the share: one tap copies the text, which it then shows.
        won_dialog.get_by_role("button", name="Share result").click()
        expect(won_dialog.locator("output.daily-shared")).to_be_visible()
        expect(won_dialog.locator(".daily-copied")).to_have_text("Copied: paste it anywhere.")
        shared = page.evaluate("navigator.clipboard.readText()")
        assert shared == won_dialog.locator("output.daily-shared").text_content()
        assert shared.startswith(f"Pasyans · Spine · {today.isoformat()} · easy\nTime ")
        assert "104 moves · #1\n" in shared
        assert shared.endswith(f"{url}/daily?game=spine&difficulty=easy&day={today.isoformat()}&"
                               f"{SPINE_KEY}")  # fmt: skip
        no_layout(shared, number)
        won_dialog.get_by_role("button", name="Close").click()
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
        assert text == shared  # the same text as the won dialog's
        no_layout(text, number)
        # A second device: linked with a code from the devices page, it sees the same
        # history and the same won daily deal and streak.
        history = page.request.get(url + "/api/history").json()["items"]
        assert len(history) == 1  # the daily game won
        page.goto(url + "/devices")
        page.locator('[data-action="code"]').click()
        code = page.locator(".code-value").inner_text()
        other = device_context(browser, url, (390, 844), scale=2, touch=True)
        try:
            second = other.new_page()
            assert second.request.get(url + "/api/history").json()["items"] == []
            second.goto(f"{url}/devices#code={code}")
            second.locator('[data-action="link"]').click()
            second.locator('dialog[data-dialog="confirm"] [data-action="confirm"]').click()
            expect(second.locator("li.device")).to_have_count(2)
            assert second.request.get(url + "/api/history").json()["items"] == history
            second.goto(url + "/")
            cell = second.locator('section.daily .daily-row[data-game="spine"] [data-band="easy"]')
            expect(cell).to_have_attribute("data-status", "won")
            expect(second.locator("section.daily .daily-streak")).to_have_attribute(
                "data-streak", "1"
            )
            second.goto(f"{url}/history")
            expect(second.locator("tr[data-id]")).to_have_count(len(history))
        finally:
            other.close()


def test_screenshots_phone_and_desktop(page: Page, tmp_path: Path, shots: Path) -> None:
    """The home page's daily deals and a leaderboard at 390x844 and 1366x768 (written to
    the screenshot directory; docs/daily.md shows them): nothing wider than the screen."""
    with serve_app(tmp_path) as url:
        seed(tmp_path, others=12)
        page.goto(url + "/")
        page.locator('section.daily .daily-row[data-game="spine"] [data-band="easy"]').click()
        page.wait_for_url("**/play/spine?**")
        wait_table(page)
        page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
        page.set_viewport_size({"width": 390, "height": 844})
        page.locator('[data-action="autocollect"]').click()
        won = page.locator('dialog[data-dialog="won"]')
        expect(won).to_be_visible(timeout=20000)
        won.get_by_role("button", name="Share result").click()
        expect(won.locator("output.daily-shared")).to_be_visible()
        page.screenshot(path=str(shots / "daily-won-390.png"))
        for width, height in ((390, 844), (1366, 768)):
            page.set_viewport_size({"width": width, "height": height})
            page.goto(url + "/")
            expect(page.locator("section.daily .daily-calendar a.won")).to_have_count(1)
            page.screenshot(path=str(shots / f"daily-home-{width}.png"))
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            # Every cell inside the section's box (none cut off at its edge on a phone).
            assert page.evaluate(
                """() => {
                  const box = document.querySelector("section.daily").getBoundingClientRect();
                  const cells = [...document.querySelectorAll("section.daily .daily-cell")];
                  return cells.length === 15
                    && cells.every((c) => c.getBoundingClientRect().right <= box.right - 1);
                }"""
            )
            page.goto(url + f"/daily?game=spine&difficulty=easy&{SPINE_KEY}")
            expect(page.locator(".daily-result .big")).to_have_text("Your rank: 1 of 11")
            expect(page.locator("table.daily-board tbody tr")).to_have_count(11)
            page.screenshot(path=str(shots / f"daily-board-{width}.png"), full_page=True)
            assert page.evaluate("document.documentElement.scrollWidth") <= width
