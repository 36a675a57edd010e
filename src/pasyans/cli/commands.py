"""Imports every command module so that its commands are registered on the app."""

from __future__ import annotations

import pasyans.cli.serve  # noqa: F401
import pasyans.cli.solve
from pasyans.cli import deal, play  # noqa: F401
