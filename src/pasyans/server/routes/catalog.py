"""``GET /api/catalog``: the games, their options, deal kinds and rules text."""

from __future__ import annotations

from functools import cache

from fastapi import APIRouter

from pasyans import caches, deals
from pasyans.engine import MAX_DEAL
from pasyans.rules import GAMES
from pasyans.rules.registry import variants
from pasyans.server.rules_text import rules_for
from pasyans.server.schemas import (
    CatalogGame,
    CatalogOut,
    OptionOut,
    OptionValueOut,
    RulesSection,
    RulesText,
    Titles,
)

router = APIRouter(prefix="/api", tags=["catalog"])


def deal_kinds(game_id: str) -> list[str]:
    """The deal kinds a game offers (``pasyans.deals.kinds_for`` when it exists)."""
    kinds_for = getattr(deals, "kinds_for", None)
    return list(kinds_for(game_id)) if kinds_for is not None else list(deals.KINDS)


def solvable_options(game_id: str) -> list[dict[str, str]]:
    """Every option set of the game for which "solvable only" deals are offered."""
    return [
        opts
        for gid, opts in variants()
        if gid == game_id and "solvable" in deals.kinds_for(gid, opts)
    ]


@cache
def catalog() -> CatalogOut:
    games = []
    for spec in GAMES.values():
        options = [
            OptionOut(
                name=o.name,
                titles=Titles(en=o.title_en, ru=o.title_ru),
                default=o.default,
                values=[
                    OptionValueOut(
                        value=v,
                        titles=Titles(
                            en=o.value_titles_en[i] if i < len(o.value_titles_en) else v,
                            ru=o.value_titles_ru[i] if i < len(o.value_titles_ru) else v,
                        ),
                    )
                    for i, v in enumerate(o.values)
                ],
            )
            for o in spec.options
        ]
        text = rules_for(spec.id)
        games.append(
            CatalogGame(
                id=spec.id,
                titles=Titles(en=spec.title_en, ru=spec.title_ru),
                options=options,
                deal_kinds=deal_kinds(spec.id),
                default_deal_kind=deals.default_kind(spec.id),
                solvable_options=solvable_options(spec.id),
                max_deal=MAX_DEAL,
                difficulties=list(deals.DIFFICULTIES),
                default_difficulty=deals.DEFAULT_DIFFICULTY,
                rules=RulesText(
                    en=[RulesSection(title=t, paragraphs=list(p)) for t, p in text["en"]],
                    ru=[RulesSection(title=t, paragraphs=list(p)) for t, p in text["ru"]],
                ),
            )
        )
    return CatalogOut(games=games)


caches.register("server.catalog", catalog, bound=1, memory=False)


@router.get("/catalog")
def get_catalog() -> CatalogOut:
    """Every game with its titles, options, deal kinds and rules (RU and EN)."""
    return catalog()
