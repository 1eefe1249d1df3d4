"""Masters Gallery on the research side: the exhibit model (MiniZinc) with its Python scorer and
engine replay, constrained deals, and simulations."""
