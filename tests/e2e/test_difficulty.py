"""Difficulty everywhere (issue 28, defect 7 and Deliver item 6): the home page, the share
link and New game honour easy, medium and hard in every game, Spine included.

For each game, option set and difficulty: the home page's tile starts a solvable deal of
that difficulty; the table's address, opened in a fresh browser context (another player),
shows the identical layout with the same difficulty; New game there keeps the difficulty.
On main before the fix Spine (whose default kind, solvable, leaves ``kind`` out of the
address) gave medium for easy and hard, and its shared hard link opened another layout.
"""

from __future__ import annotations

import re

import pytest
from e2e_helpers import NO_AUTO_MOVES, dom_piles, game_object, wait_table
from playwright.sync_api import Browser, Page, expect

# (game, the options the tile chooses)
GAME_SETS: list[tuple[str, dict[str, str]]] = [
    ("spine", {}),
    ("backbone", {}),
    ("backbone-classic", {}),
    ("spider", {"suits": "1"}),
    ("spider", {"suits": "2"}),
    ("spider", {"suits": "4"}),
    ("nivernais", {}),
]


MADE = 35_000
"""ms to wait for a solvable deal made inside its request (the e2e server's inline pool,
up to its 30 s answer deadline on a loaded machine)."""


def _play_from_home(page: Page, game: str, options: dict[str, str], difficulty: str) -> None:
    page.goto("/")
    # The daily deals' section comes in above the tiles once its request answers: a click
    # before that could land where the tile was (the tiles move down), leaving it shut.
    expect(page.locator("section.daily")).to_be_visible()
    tile = page.locator(f'li.game-card[data-game="{game}"]')
    tile.locator("summary").click()
    expect(tile.locator("details.more")).to_have_attribute("open", "")
    for name, value in options.items():
        tile.locator(f'input[name="{name}"][value="{value}"]').check()
    solvable = tile.locator('input[name="kind"][value="solvable"]')
    if not solvable.is_checked():
        solvable.check()
    tile.locator('select[name="difficulty"]').select_option(difficulty)
    tile.locator('[data-action="play"]').click()
    wait_table(page, timeout=MADE)


def _layout(page: Page) -> dict[str, list[str | None]]:
    """What the table shows (face-down cards as None), once it has settled."""
    expect(page.locator("section.table")).not_to_have_attribute("data-busy", "true")
    return dom_piles(page)


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
@pytest.mark.parametrize(("game", "options"), GAME_SETS, ids=lambda v: str(v) if v else "")
def test_difficulty_from_home_link_and_new_game(
    page: Page, browser: Browser, base_url: str, game: str, options: dict[str, str], difficulty: str
) -> None:
    _play_from_home(page, game, options, difficulty)
    first = game_object(page)
    assert first["kind"] == "solvable"
    assert first["difficulty"] == difficulty, f"the home page asked {difficulty}"
    assert f"difficulty={difficulty}" in page.url
    for name, value in options.items():
        assert f"{name}={value}" in page.url
    shown = _layout(page)

    # The shared address in a fresh browser (another player, no game in progress).
    other = browser.new_context(base_url=base_url, locale="en-US")
    other.add_init_script(NO_AUTO_MOVES)
    try:
        friend = other.new_page()
        friend.goto(page.url)
        wait_table(friend, timeout=MADE)
        shared = game_object(friend)
        assert shared["id"] != first["id"]
        assert shared["view"]["deal"] == first["view"]["deal"]
        assert shared["difficulty"] == difficulty
        assert _layout(friend) == shown, "the shared link opened another layout"
        # New game keeps the difficulty (at move 0 it does not ask first).
        friend.locator('[data-action="new"]').click()
        table = friend.locator("section.table")
        expect(table).not_to_have_attribute("data-game-id", shared["id"])
        wait_table(friend, timeout=MADE)
        fresh = game_object(friend)
        assert fresh["kind"] == "solvable"
        assert fresh["difficulty"] == difficulty, "New game dropped the difficulty"
        expect(friend).to_have_url(re.compile(f"difficulty={difficulty}"))
    finally:
        other.close()
