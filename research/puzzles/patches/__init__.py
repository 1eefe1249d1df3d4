"""Patches: split the grid into rectangles, each holding one clue of its size and shape."""
