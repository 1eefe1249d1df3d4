"""Zip: one path through every cell, visiting the numbered cells in order (walls optional)."""
