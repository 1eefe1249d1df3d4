"""The rules of Tents, checked directly (independent of the solver and the deductions).

A puzzle: ``rows`` x ``cols``, ``trees`` (a list of [r, c]), ``row_counts`` and
``col_counts``. A solution: ``tents`` (a list of [r, c]). The one-to-one pairing of trees and
tents is a bipartite matching (scipy's maximum_bipartite_matching).
"""

from __future__ import annotations

from collections.abc import Sequence

Cell = tuple[int, int]


def orthogonal(cell: Cell, rows: int, cols: int) -> list[Cell]:
    r, c = cell
    return [
        (rr, cc)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        if 0 <= rr < rows and 0 <= cc < cols
    ]


def pairing_size(trees: Sequence[Cell], tents: Sequence[Cell], rows: int, cols: int) -> int:
    """The most tree-tent pairs (tent beside its tree) that can be made at once."""
    # scipy loads here, not with the module: `ludolab completion` imports every puzzle's CLI
    import numpy as np
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import maximum_bipartite_matching

    if not trees or not tents:
        return 0
    index = {t: j for j, t in enumerate(tents)}
    data, ri, ci = [], [], []
    for i, tree in enumerate(trees):
        for nb in orthogonal(tree, rows, cols):
            if nb in index:
                data.append(1)
                ri.append(i)
                ci.append(index[nb])
    if not data:
        return 0
    graph = csr_matrix((data, (ri, ci)), shape=(len(trees), len(tents)))
    match = maximum_bipartite_matching(graph, perm_type="column")
    return int(np.sum(match >= 0))


def puzzle_problems(
    rows: int,
    cols: int,
    trees: Sequence[Cell],
    row_counts: Sequence[int],
    col_counts: Sequence[int],
) -> list[str]:
    """What is wrong with a puzzle's clues (empty when they are well formed)."""
    problems = []
    if len(row_counts) != rows or len(col_counts) != cols:
        problems.append(f"{rows} row counts and {cols} column counts expected")
    if any(not (0 <= r < rows and 0 <= c < cols) for r, c in trees):
        problems.append("a tree lies outside the grid")
    if len(set(trees)) != len(trees):
        problems.append("a tree is listed twice")
    if sum(row_counts) != len(trees) or sum(col_counts) != len(trees):
        problems.append(
            f"the counts add up to {sum(row_counts)} (rows) and {sum(col_counts)} (columns), "
            f"not the {len(trees)} trees"
        )
    return problems


def solution_problems(
    rows: int,
    cols: int,
    trees: Sequence[Cell],
    row_counts: Sequence[int],
    col_counts: Sequence[int],
    tents: Sequence[Cell],
) -> list[str]:
    """What breaks the rules in ``tents``; empty if none."""
    problems = []
    tree_set, tent_set = set(trees), set(tents)
    if len(tent_set) != len(tents):
        problems.append("a tent is listed twice")
    if any(not (0 <= r < rows and 0 <= c < cols) for r, c in tents):
        return problems + ["a tent lies outside the grid"]
    if tent_set & tree_set:
        problems.append("a tent stands on a tree")
    for r, c in tent_set:
        if any((r + dr, c + dc) in tent_set for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc):
            problems.append(f"the tent at ({r}, {c}) touches another tent")
            break
    for r in range(rows):
        got = sum(1 for t in tent_set if t[0] == r)
        if got != row_counts[r]:
            problems.append(f"row {r} has {got} tents, its count is {row_counts[r]}")
    for c in range(cols):
        got = sum(1 for t in tent_set if t[1] == c)
        if got != col_counts[c]:
            problems.append(f"column {c} has {got} tents, its count is {col_counts[c]}")
    if len(tent_set) != len(tree_set):
        problems.append(f"{len(tent_set)} tents for {len(tree_set)} trees")
    elif pairing_size(list(tree_set), list(tent_set), rows, cols) != len(tree_set):
        problems.append("the tents cannot be paired one to one with trees beside them")
    return problems


__all__ = ["Cell", "orthogonal", "pairing_size", "puzzle_problems", "solution_problems"]
