"""The rules of Wend (and Swend), checked directly (independent of the solver and deductions).

Rules as wendplay.com and puzzlegames.fun state them for LinkedIn's *Wend*: the grid's letters
hide words, each a path through side-by-side cells (no diagonals); every cell belongs to exactly
one word; the puzzle lists how many words there are and their lengths. Swend is the same game
with Swedish words. A word is one of the game's word list (:mod:`.words`).

A puzzle: ``letters`` (rows of one-letter strings) and ``lengths`` (the words' lengths). A
solution: ``paths``, each a list of [r, c] spelling its word in order.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence


def spell(letters: Sequence[Sequence[str]], path: Sequence[Sequence[int]]) -> str:
    return "".join(letters[r][c] for r, c in path)


def solution_problems(letters: Sequence[Sequence[str]], lengths: Sequence[int],
                      paths: Sequence[Sequence[Sequence[int]]],
                      words: Collection[str]) -> list[str]:
    """Every way ``paths`` break the puzzle (empty when they solve it)."""
    n_rows, n_cols = len(letters), len(letters[0]) if letters else 0
    cells = [tuple(c) for path in paths for c in path]
    if sorted(cells) != [(r, c) for r in range(n_rows) for c in range(n_cols)]:
        return ["the words must cover every cell exactly once"]
    problems = []
    if sorted(len(p) for p in paths) != sorted(lengths):
        problems.append(f"the words' lengths {sorted(len(p) for p in paths)} are not the "
                        f"puzzle's {sorted(lengths)}")
    for path in paths:
        for (r1, c1), (r2, c2) in zip(path, path[1:], strict=False):
            if abs(r1 - r2) + abs(c1 - c2) != 1:
                problems.append(f"a word jumps from {[r1, c1]} to {[r2, c2]}")
        if spell(letters, path) not in words:
            problems.append(f"{spell(letters, path)!r} is not in the word list")
    return problems


__all__ = ["solution_problems", "spell"]
