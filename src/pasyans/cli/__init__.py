"""The ``pasyans`` command line (Typer): :data:`app`, with every command registered.

Each command module (``deal``, ``play``, ``solve``, ``winnability``, ``serve``,
``worker``) adds its commands to :data:`pasyans.cli.app.app`; :mod:`pasyans.cli.commands`
imports them all.
"""

from __future__ import annotations

from pasyans.cli import commands  # noqa: F401  (registers every command on app)
from pasyans.cli.app import app

__all__ = ["app"]
