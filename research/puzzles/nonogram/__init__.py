"""Nonogram: generated puzzles from glyph images, made line-solvable, with packs and hints."""
