"""Loopy (Slitherlink): one closed loop along the grid's edges, cell numbers count its edges."""
