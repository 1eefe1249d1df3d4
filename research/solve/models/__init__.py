"""MiniZinc models shipped with research.solve (.mzn files)."""
