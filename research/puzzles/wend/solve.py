"""Wend as SAT (python-sat): the ways to cover a letter grid with listed-length words.

First every *placement*: a path through side-by-side cells, visiting none twice, that spells a
word of the list with one of the puzzle's lengths (a depth-first search from every cell, cut
where the letters so far begin no word). Then a variable per placement: each cell is covered by
exactly one chosen placement, and for each length exactly as many placements of it are chosen
as the puzzle lists (pysat's cardinality encodings).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from ludolab.research.puzzles.wend.words import prefixes, word_list

Cell = tuple[int, int]
Path = tuple[Cell, ...]


def placements(game: str, letters: Sequence[Sequence[str]], lengths: Sequence[int]) -> list[Path]:
    """Every path that spells a word of ``game``'s list with a length in ``lengths``."""
    words = set(word_list(game))
    starts = prefixes(game)
    wanted = set(lengths)
    longest = max(wanted)
    rows, cols = len(letters), len(letters[0])
    found: list[Path] = []

    def extend(path: list[Cell], text: str) -> None:
        if len(path) in wanted and text in words:
            found.append(tuple(path))
        if len(path) == longest:
            return
        r, c = path[-1]
        for nb in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= nb[0] < rows and 0 <= nb[1] < cols and nb not in path:
                more = text + letters[nb[0]][nb[1]]
                if more in starts:
                    path.append(nb)
                    extend(path, more)
                    path.pop()

    for r in range(rows):
        for c in range(cols):
            if letters[r][c] in starts:
                extend([(r, c)], letters[r][c])
    return found


def _exactly(lits: list[int], k: int, pool: IDPool) -> list[list[int]]:
    if k == 1 and len(lits) <= 6:
        return [lits, *([-a, -b] for a, b in combinations(lits, 2))]
    return CardEnc.equals(lits=lits, bound=k, vpool=pool, encoding=EncType.seqcounter).clauses


def solutions(game: str, letters: Sequence[Sequence[str]], lengths: Sequence[int],
              limit: int = 2, options: list[Path] | None = None) -> list[list[Path]]:
    """Up to ``limit`` covers (lists of paths, sorted); ``limit=2``: is the puzzle unique?"""
    options = placements(game, letters, lengths) if options is None else options
    rows, cols = len(letters), len(letters[0])
    pool = IDPool()
    var = {p: pool.id(("p", p)) for p in options}
    cnf: list[list[int]] = []
    for r in range(rows):
        for c in range(cols):
            lits = [v for p, v in var.items() if (r, c) in p]
            if not lits:
                return []
            cnf += _exactly(lits, 1, pool)
    for length, count in Counter(lengths).items():
        lits = [v for p, v in var.items() if len(p) == length]
        if len(lits) < count:
            return []
        cnf += _exactly(lits, count, pool)
    found: list[list[Path]] = []
    with Solver(name="minisat22", bootstrap_with=cnf) as s:
        while len(found) < limit and s.solve():
            model = set(v for v in s.get_model() if v > 0)
            chosen = sorted(p for p, v in var.items() if v in model)
            found.append(chosen)
            s.add_clause([-var[p] for p in chosen])
    return found


__all__ = ["Path", "placements", "solutions"]
