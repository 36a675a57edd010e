"""The ``pasyans`` command line (Typer). Each sub-module adds its commands to :data:`app`."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="pasyans",
    help="Two-deck patience games: play, deal, solve, and run the site.",
    no_args_is_help=True,
    add_completion=False,
)


def _register() -> None:
    # Imported for their side effect: each module decorates its commands onto ``app``.
    from pasyans.cli import commands  # noqa: F401


_register()
