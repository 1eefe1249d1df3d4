"""MiniZinc models of the knight's tour case study (.mzn files, shipped as package data)."""
