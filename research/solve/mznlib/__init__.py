"""MiniZinc include directory (compatibility redefinitions); holds .mzn files only."""
