"""Swend: Wend with Swedish words (the code is research/puzzles/wend)."""
