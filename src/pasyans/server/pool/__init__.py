"""The solvable-deal pool: layouts made ahead of time, and the worker that makes them."""
