"""``python -m pasyans``: the ``pasyans`` command line."""

from pasyans.cli import app

if __name__ == "__main__":
    app()
