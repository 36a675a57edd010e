"""Pasyans: two-deck patience games, their rules engine, an exact solver and a web table."""

from __future__ import annotations

__version__ = "0.1.0"
