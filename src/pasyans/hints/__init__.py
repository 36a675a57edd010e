"""Hints that never cheat: the known position, samples of the hidden cards, the search of
each, and the choice of a move."""
