"""Imports every command module so that its commands are registered on the app."""

from __future__ import annotations

from pasyans.cli import deal, play  # noqa: F401
