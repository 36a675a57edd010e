"""Every relative link in README.md and docs/ resolves: the file exists, and an anchor
names a heading of that file (GitHub's heading ids)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML = re.compile(r"""<(?:a|img)\s[^>]*?(?:href|src)=["']([^"']+)["']""", re.I)
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$", re.M)


def _prose(text: str) -> str:
    return CODE.sub("", FENCE.sub("", text))


def slug(heading: str) -> str:
    """GitHub's id for a heading: lower case, markup and punctuation dropped, spaces to
    hyphens.

    >>> slug("Hints (`solver/hints.py`, `solver/sampling.py`)")
    'hints-solverhintspy-solversamplingpy'
    >>> slug('Pruning rules, and why "lost" stays true')
    'pruning-rules-and-why-lost-stays-true'
    """
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = re.sub(r"<[^>]+>", "", text).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: Counter[str] = Counter()
    out: set[str] = set()
    for _, title in HEADING.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        base = slug(title)
        out.add(base if seen[base] == 0 else f"{base}-{seen[base]}")
        seen[base] += 1
    return out


def links(page: Path) -> list[str]:
    text = _prose(page.read_text(encoding="utf-8"))
    return LINK.findall(text) + HTML.findall(text)


def broken(page: Path) -> list[str]:
    bad = []
    for target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("//"):
            continue  # http:, https:, mailto:: not ours to check
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            bad.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            bad.append(f"{target}: no heading #{anchor} in {dest.name}")
    return bad


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    assert broken(page) == []


def test_the_check_finds_a_broken_link(tmp_path: Path) -> None:
    (tmp_path / "b.md").write_text("# Title here\n\n## Second (`x.py`)\n", encoding="utf-8")
    page = tmp_path / "a.md"
    page.write_text(
        "[ok](b.md#second-xpy) [top](b.md#title-here) `[code](nowhere.md)`\n"
        "[gone](missing.md) [no anchor](b.md#third) ![img](pic.png)\n"
        "```\n[fenced](also-missing.md)\n```\n",
        encoding="utf-8",
    )
    assert broken(page) == [
        "missing.md: no such file",
        "b.md#third: no heading #third in b.md",
        "pic.png: no such file",
    ]
