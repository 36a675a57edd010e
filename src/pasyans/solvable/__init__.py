"""Solvable deals: the generator, its difficulty bands and the ways of making a layout
that is won."""
