"""The exact search over the full-information game, and layouts read from JSON."""
