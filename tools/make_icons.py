"""Make the app's PNG icons (``static/icons``) from the favicon's card and spade, drawn
by Chromium: ``uv run python tools/make_icons.py``. The PNGs are committed; run again
after changing the drawing."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parents[1] / "src" / "pasyans" / "server" / "static"
CARD = (
    '<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{r}" fill="#fff"/>'
    '<path transform="translate({px} {py}) scale({s})" fill="#1b1b1b"'
    ' d="M15 9c-3 4-6 6-6 9a3 3 0 0 0 5 2l-1 4h4l-1-4a3 3 0 0 0 5-2c0-3-3-5-6-9z"/>'
)


def svg(size: int, safe: float) -> str:
    """A card on the table's green; ``safe``: the share of the side the card may use
    (maskable icons keep to the middle 80 %)."""
    h = size * safe * 0.86
    w = h * 0.72
    x, y = (size - w) / 2, (size - h) / 2
    s = w / 14  # the favicon's spade is about 12 units wide, centred at x 15
    card = CARD.format(
        x=x, y=y, w=w, h=h, r=w * 0.08, px=x + w / 2 - 15 * s, py=y + h / 2 - 16.5 * s, s=s
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}">'
        f'<rect width="{size}" height="{size}" fill="#2e6a4f"/>{card}</svg>'
    )


def main() -> None:
    out = STATIC / "icons"
    out.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for name, size, safe in (("icon-192", 192, 1.0), ("icon-512", 512, 1.0),
                                 ("maskable-512", 512, 0.8)):  # fmt: skip
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(f"<body style='margin:0'>{svg(size, safe)}</body>")
            page.screenshot(path=str(out / f"{name}.png"))
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
