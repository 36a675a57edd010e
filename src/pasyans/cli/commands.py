"""Imports every command module so that its commands are registered on the app."""

from __future__ import annotations

import pasyans.cli.serve  # noqa: F401
from pasyans.cli import analyse as _analyse  # noqa: F401
from pasyans.cli import deal, play  # noqa: F401
from pasyans.cli import solve as _solve  # noqa: F401
from pasyans.cli import winnability as _winnability  # noqa: F401
from pasyans.cli import worker as _worker  # noqa: F401
