"""The saved games shown in the docs replay (issue 33, finding 12: docs/notation.md's
did not)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pasyans import deals

DOCS = Path(__file__).resolve().parents[1] / "docs"


def saved_games() -> list[tuple[str, dict[str, object]]]:
    found = []
    for doc in sorted(DOCS.glob("*.md")):
        for block in re.findall(r"```json\n(.*?)```", doc.read_text(), re.S):
            try:
                value = json.loads(block)
            except ValueError:
                continue
            # A saved game: the record with its rules version (the API's game objects,
            # also with "moves", are not).
            if (
                isinstance(value, dict)
                and {"moves", "deal", "rules_version"} <= set(value)
                and "piles" not in value
            ):
                found.append((doc.name, value))
    return found


def test_the_docs_show_a_saved_game() -> None:
    assert any(name == "notation.md" for name, _ in saved_games())


@pytest.mark.parametrize(("doc", "saved"), saved_games())
def test_a_saved_game_in_the_docs_replays(doc: str, saved: dict[str, object]) -> None:
    game = deals.load_game(saved)
    assert game.saved_moves() == saved["moves"]
