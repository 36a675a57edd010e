"""The ``pasyans`` Typer app, on which each command module registers its commands."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="pasyans",
    help="Two-deck patience games: play, deal, solve, and run the site.",
    no_args_is_help=True,
    add_completion=False,
)
