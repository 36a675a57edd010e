"""The web site (FastAPI): ``app.py`` builds it; ``routes/`` are the endpoints; ``games/``
what they do with a game; ``limits/`` the costly requests and their rate limits;
``storage/`` the database; ``stats/`` the players' records; ``players/`` their linked
devices and data; ``pool/`` the solvable-deal pool and its worker; ``static/`` the
browser's files. See docs/architecture.md."""
