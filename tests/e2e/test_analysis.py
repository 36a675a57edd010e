"""The analysis in a real browser (docs/analysis.md): a Spider (one suit) game the simple
player lost, given up, analysed from the history page: the chart and the verdict show,
"Show the way" plays the solver's line to a win from chunks of the line (a request for
many moves, not one a move), a fast drag of the slider stays within the history limit,
"Try again from here" opens a practice game, and the stuck dialog's "Analyse" gives a
stuck game up and opens its analysis. The analysis runs in a runner beside the live
server, as the deal worker runs it. Screenshots at 390x844 and 1366x768 go to the shots
directory."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import open_stuck, wait_table
from playwright.sync_api import Page, expect

from pasyans.analysis import CODES
from pasyans.analysis.simple import play_simply
from pasyans.server.pool.analyses import AnalysisRunner
from pasyans.server.storage.db import make_engine, make_sessionmaker


@pytest.fixture
def runner(live_server: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The analysis runner on the live server's database, until the test ends."""
    made = tmp_path_factory.getbasetemp().glob("e2e-data*/e2e.sqlite3")
    db = max(made, key=lambda p: p.stat().st_mtime)  # the session's server wrote last
    engine = make_engine(f"sqlite:///{db}", pool_size=1)
    stop = threading.Event()
    run = AnalysisRunner(make_sessionmaker(engine), seconds=120, nice=0, stop=stop)

    def loop() -> None:
        while not stop.is_set():
            if not run.step():
                stop.wait(0.2)

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    yield
    stop.set()
    thread.join(30)
    engine.dispose()


def lose(page: Page) -> str:
    """The simple player's game of Spider (one suit) deal 3, played through the API, then
    given up (its 30th move threw the win away)."""
    played = play_simply("spider", 3, {"suits": "1"}, seed=3)
    r = page.request.post("/api/games", data={"game": "spider", "options": {"suits": "1"},
                                             "deal": 3, "solvable": False})  # fmt: skip
    assert r.status == 201, r.text()
    g: dict[str, Any] = r.json()
    for text in played.saved_moves():
        if text.startswith("+"):
            continue  # the server plays the safe auto-moves itself
        body = {"move": text, "version": g["version"]}
        r = page.request.post(f"/api/games/{g['id']}/moves", data=body)
        assert r.ok, r.text()
        g = r.json()
    r = page.request.post(f"/api/games/{g['id']}/giveup", data={"version": g["version"]})
    assert r.ok, r.text()
    return str(g["id"])


def test_lose_analyse_show_the_way_and_try_again(page: Page, runner: None, shots: Path) -> None:
    page.emulate_media(reduced_motion="reduce")  # the way's steps without animation
    gid = lose(page)
    page.goto("/history")
    row = page.locator(f'tr[data-id="{gid}"]')
    row.locator('[data-action="analyse"]').click()
    expect(page).to_have_url(re.compile(r"/analysis/[\w-]+$"))
    chart = page.locator('svg[data-chart="chance"]')
    expect(chart).to_be_visible(timeout=60000)
    verdict = page.locator(".analysis-verdict")
    expect(verdict).to_have_attribute("data-verdict", "lost_at")
    expect(verdict).to_contain_text("It was winnable until move 30, when you played 7♠ → t9.")
    expect(chart.locator(".lost-here")).to_have_attribute("data-lost-at", "30")
    expect(page.locator('.analysis-marks li[data-move="30"]')).to_be_visible()
    # some positions' samples were left undecided: their chance is a band, not a 0% line,
    # and the lost move's chance reads as a range (7 of 8 won, 1 undecided)
    expect(chart.locator("polygon.band").first).to_be_attached()
    expect(page.locator(".analysis-figure [data-band]")).to_be_visible()
    expect(page.locator('.analysis-marks li[data-move="30"]')).to_contain_text("88–100% → 0%")
    table = page.locator("section.table")
    expect(table).to_have_attribute("data-step", "29")  # the position before the worst move
    expect(table.locator(".card").first).to_be_attached()
    page.set_viewport_size({"width": 1366, "height": 768})
    page.screenshot(path=str(shots / "analysis-desktop.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(shots / "analysis-phone.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})

    # One step of the way, then play it to the end: a win, from chunks of the line.
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/analyses/" in r.url else None)
    page.locator('[data-action="step"]').click()
    expect(table).to_have_attribute("data-along", "1")
    page.locator('[data-action="way"]').click()
    expect(page.locator('[data-action="way"]')).to_have_attribute("aria-pressed", "true")
    expect(table).to_have_attribute("data-won", "true", timeout=120000)
    along = int(table.get_attribute("data-along") or 0)
    ways = [u for u in asked if "/way?" in u]
    assert along > 10 and 1 <= len(ways) <= along // 60 + 2, (along, ways)
    assert not [u for u in asked if "/position?" in u]  # no request a move

    # A fast drag of the slider: a few requests, no 429, and the table ends where it stops.
    answers: list[int] = []
    page.on("response", lambda r: answers.append(r.status) if "/position?" in r.url else None)
    asked.clear()
    slider = page.locator('input[type="range"]')
    box = slider.bounding_box()
    assert box is not None
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + 2, y)
    page.mouse.down()
    began = time.monotonic()
    for i in range(120):  # back and forth over the whole game, about 2 s
        f = abs((i % 40) - 20) / 20
        page.mouse.move(box["x"] + 2 + f * (box["width"] - 4), y)
        page.wait_for_timeout(15)
    page.mouse.move(box["x"] + box["width"] / 2, y)
    page.mouse.up()
    dragged = time.monotonic() - began
    end = int(slider.input_value())
    expect(table).to_have_attribute("data-step", str(end), timeout=10000)
    expect(table).to_have_attribute("data-along", "0")
    positions = [u for u in asked if "/position?" in u]
    # One request per 0.6 s of dragging at most (120 input events), and the last one.
    assert 1 <= len(positions) <= dragged / 0.6 + 2 and 429 not in answers, (dragged, positions)

    # Try again from the position before the worst move: a practice game at the table.
    page.locator(".analysis-marks li[data-move='30'] button").click()
    expect(table).to_have_attribute("data-step", "29")
    page.locator('[data-action="practice"]').click()
    expect(page).to_have_url(re.compile(r"/play/spider\?.*id="))
    practice = wait_table(page)
    assert practice != gid
    game = page.request.get(f"/api/games/{practice}").json()
    assert game["kind"] == "practice" and game["status"] == "playing"
    expect(page.get_by_text("Practice")).to_be_visible()


def test_the_stuck_dialog_analyses_the_game(page: Page, runner: None) -> None:
    """A stuck game's "Analyse" gives it up and opens its analysis, which comes."""
    dialog = open_stuck(page)
    gid = page.locator("section.table").get_attribute("data-game-id")
    dialog.locator('[data-answer="analyse"]').click()
    expect(page).to_have_url(re.compile(r"/analysis/[\w-]+$"))
    expect(page.locator('svg[data-chart="chance"]')).to_be_visible(timeout=90000)
    expect(page.locator(".analysis-verdict")).not_to_be_empty()
    a = page.request.get(f"/api/games/{gid}/analysis").json()
    assert a["status"] == "done" and a["game"]["status"] == "lost", a
    assert a["game"]["game"] == "nivernais" and a["result"]["verdict"]["code"] in CODES
