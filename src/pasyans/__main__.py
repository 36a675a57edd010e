"""``python -m pasyans``: the ``pasyans`` command line."""

from pasyans.cli import app

app()
