"""The README's and docs/ui.md's screenshots, taken again from the current table.

    uv run python tests/e2e/shoot.py [OUT_DIR]   (default: docs)

Serves the real app (``e2e_server.serve_app``: a throwaway SQLite database under /tmp,
127.0.0.1, a free port; solvable deals are made in the request, so a Spine deal is never
"Loading…"), opens each table in headless Chromium and writes ``screenshot-desktop.png``,
``screenshot-phone.png`` and ``ui/*.png`` under OUT_DIR. With ``pngquant`` and ``optipng``
on the PATH the files are then made small (256 colours, lossless repacking).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))  # devtools, as in pytest

from e2e_helpers import NO_AUTO_MOVES, device_context, settle, wait_table
from e2e_server import serve_app
from playwright.sync_api import sync_playwright

# name: (path, width, height, device scale factor, touch, large, language)
SHOTS: dict[str, tuple[str, int, int, float, bool, bool, str]] = {
    "screenshot-desktop.png": ("/play/backbone?deal=5", 1366, 768, 1, False, False, "en-US"),
    "screenshot-phone.png": ("/play/spine?deal=5", 390, 844, 2, True, False, "en-US"),
    "ui/phone-360-spine-large.png": ("/play/spine?deal=5", 360, 640, 2, True, True, "ru-RU"),
    "ui/phone-landscape-backbone.png": ("/play/backbone?deal=5", 844, 390, 2, True, False, "en-US"),
    "ui/phone-landscape-spine-large.png": (
        "/play/spine?spine=24&deal=5&kind=random",
        844,
        390,
        2,
        True,
        True,
        "ru-RU",
    ),
    "ui/tablet-nivernais.png": ("/play/nivernais?deal=5", 768, 1024, 2, True, False, "en-US"),
    "ui/home-phone.png": ("/", 390, 844, 2, True, False, "en-US"),
    "ui/phone-360-ten-digits.png": (
        "/play/spider?suits=2&deal=2147483647",
        360,
        640,
        2,
        True,
        False,
        "ru-RU",
    ),
    "ui/desktop-large-nivernais.png": (
        "/play/nivernais?deal=31",
        1366,
        768,
        1,
        False,
        True,
        "en-US",
    ),
}

LARGE = """(() => {
  const p = JSON.parse(localStorage.getItem("pasyans.prefs") || "{}");
  localStorage.setItem("pasyans.prefs", JSON.stringify({ ...p, large: true }));
})();"""


def shoot(out: Path) -> None:
    with (
        tempfile.TemporaryDirectory(prefix="pasyans-shots-") as data,
        serve_app(Path(data)) as url,
        sync_playwright() as pw,
    ):
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for name, (path, w, h, dpr, touch, large, locale) in SHOTS.items():
            ctx = device_context(browser, url, (w, h), dpr, touch, locale)
            ctx.add_init_script(NO_AUTO_MOVES)
            if large:
                ctx.add_init_script(LARGE)
            page = ctx.new_page()
            page.goto(path)
            if path.startswith("/play/"):
                wait_table(page)
                page.wait_for_function(
                    "() => !document.querySelector('section.table[data-busy=\"true\"]')"
                )
            else:
                page.wait_for_selector("li.game-card svg.mini")
            settle(page)  # the deal's glide, however long a busy machine makes it
            page.wait_for_function("() => document.getAnimations().length === 0")
            target = out / name
            target.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(target))
            ctx.close()
        browser.close()
    for png in [out / n for n in SHOTS]:
        if shutil.which("pngquant"):
            subprocess.run(
                ["pngquant", "--force", "--skip-if-larger", "--ext", ".png", "256", str(png)],
                check=False,
            )
        if shutil.which("optipng"):
            subprocess.run(["optipng", "-quiet", "-o2", str(png)], check=True)
        print(png, png.stat().st_size)


if __name__ == "__main__":
    shoot(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs"))
