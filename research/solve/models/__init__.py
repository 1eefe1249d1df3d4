"""MiniZinc models shipped with ludolab.research.solve (.mzn files)."""
