"""Rules text placeholder."""

from __future__ import annotations


def rules_for(game_id: str) -> dict[str, list[tuple[str, list[str]]]]:
    return {"en": [], "ru": []}
