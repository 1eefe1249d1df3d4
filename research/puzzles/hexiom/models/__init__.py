"""MiniZinc models of the Hexiom case study (.mzn files)."""
