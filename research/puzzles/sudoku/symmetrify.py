"""Symmetrification: make generated puzzles look like published ones (180-degree symmetry).

The seed's offline pass, with its two freedoms:

1. **Box-preserving layouts.** Rows may be permuted within a band and bands among themselves
   (columns within a stack, stacks among themselves) without changing the puzzle's solution
   structure or its hardness (every propagator works unit by unit, and these permutations map
   units to units). Under a layout, the 180-degree rotation pairs original row ``r`` with
   ``sigma_r(r)`` and column ``c`` with ``sigma_c(c)``, where ``sigma`` is the rotation
   conjugated by the layout: an involution that pairs bands as the rotation does (outer bands
   in pairs, the middle band with itself when the count is odd), rows of paired bands by any
   bijection, and rows of the middle band in pairs around one fixed row. Only this *pairing*
   matters, so the pass searches pairings, not layouts.
2. **Partner clues.** An empty cell whose partner is a clue may be filled from the stored
   solution. That only adds information (the puzzle stays unique) but may make it easier, so a
   partner is kept only when the hardness tag stays the same.

The *asymmetric cells* of a puzzle under a pairing are its empty cells whose partner is a
clue -- the clues still missing for exact symmetry (0: symmetric). Pairings are ranked by
that count: exhaustively when there are at most 5,000 row-and-column pairings (6x6: 36,
9x9: 2,916), otherwise by alternating optimisation (best row pairing for the current column
pairing and back: band pairings enumerated, row bijections of paired bands by the assignment
algorithm, the middle band's pairings enumerated) from the rotation itself and from
``restarts`` seeded random pairings. For the ``layouts`` best pairings (3, as in the seed) the
pass first adds every missing partner; if that changes the tag, it adds partners one at a
time (in cell order), keeping those that leave the tag unchanged. The layout with the fewest
asymmetric cells left wins (ties: the better-ranked one).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass, replace

import numpy as np
from scipy.optimize import linear_sum_assignment

from ludolab.research.puzzles.sudoku.classify import classify
from ludolab.research.puzzles.sudoku.generate import Puzzle
from ludolab.research.puzzles.sudoku.grid import Grid, geometry

Pairing = tuple[int, ...]
"""An involution on rows (or columns): ``p[r]`` is the row paired with ``r``."""

EXHAUSTIVE_LIMIT = 5_000


@dataclass(frozen=True)
class SymmetrifyResult:
    """One puzzle before and after: asymmetric cells in the original layout and in the
    chosen one, partner clues added, and the row/column layouts applied (new index -> old)."""

    puzzle: Puzzle
    asymmetric_before: int
    asymmetric_after: int
    clues_added: int
    rows: tuple[int, ...]
    cols: tuple[int, ...]

    @property
    def symmetric(self) -> bool:
        """Exactly 180-degree rotationally symmetric after the pass."""
        return self.asymmetric_after == 0


@dataclass(frozen=True)
class SymmetrifyReport:
    """Totals over a set of puzzles, as the seed reports them."""

    puzzles: int
    symmetric_before: int
    symmetric_after: int
    asymmetric_before: int
    asymmetric_after: int
    clues_added: int

    def text(self) -> str:
        """Two lines for people."""
        return (
            f"{self.symmetric_after} of {self.puzzles} puzzles exactly rotationally symmetric "
            f"(before: {self.symmetric_before}); asymmetric cells {self.asymmetric_before} -> "
            f"{self.asymmetric_after}\n{self.clues_added} partner clues added from the "
            "solutions; every tag unchanged"
        )


def rotation_pairing(n: int) -> Pairing:
    """The pairing of the rotation itself (identity layout): ``r <-> n - 1 - r``."""
    return tuple(n - 1 - r for r in range(n))


def asymmetric_cells(grid: Grid, n: int, rows: Pairing, cols: Pairing) -> int:
    """Empty cells whose partner under the pairing (``rows[r]``, ``cols[c]``) is a clue."""
    count = 0
    for r in range(n):
        pr = rows[r] * n
        base = r * n
        for c in range(n):
            if not grid[base + c] and grid[pr + cols[c]]:
                count += 1
    return count


def is_symmetric(grid: Grid, n: int) -> bool:
    """180-degree rotational symmetry of the clue pattern in the grid's own layout."""
    return all(bool(grid[i]) == bool(grid[n * n - 1 - i]) for i in range(n * n))


# ------------------------------------------------------------------------------ pairings


def _perfect_matchings(items: list[int]) -> Iterator[list[tuple[int, int]]]:
    """All ways to split ``items`` (even length) into pairs."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for k, other in enumerate(rest):
        for m in _perfect_matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *m]


def _matchings(items: list[int]) -> Iterator[tuple[list[tuple[int, int]], int | None]]:
    """Pairings of ``items`` leaving one item fixed when the count is odd (as the rotation)."""
    if len(items) % 2 == 0:
        for m in _perfect_matchings(items):
            yield m, None
        return
    for k, fixed in enumerate(items):
        for m in _perfect_matchings(items[:k] + items[k + 1 :]):
            yield m, fixed


def _groups(n: int, h: int) -> list[list[int]]:
    """The ``n`` lines in their groups of ``h`` (bands of rows or stacks of columns), in order."""
    return [list(range(g * h, (g + 1) * h)) for g in range(n // h)]


def all_pairings(n: int, h: int) -> Iterator[Pairing]:
    """Every pairing obtainable from box-preserving layouts, for lines of ``n`` in groups of
    ``h`` (rows in bands: ``h`` = box rows; columns in stacks: ``h`` = box columns)."""
    groups = _groups(n, h)
    for band_pairs, middle in _matchings(list(range(len(groups)))):
        middle_options = list(_matchings(groups[middle])) if middle is not None else [([], None)]
        bijections = [list(itertools.permutations(groups[b])) for _, b in band_pairs]
        for choice in itertools.product(*bijections):
            for mid_pairs, mid_fixed in middle_options:
                p = list(range(n))
                for (a, _), image in zip(band_pairs, choice, strict=True):
                    for x, y in zip(groups[a], image, strict=True):
                        p[x], p[y] = y, x
                for x, y in mid_pairs:
                    p[x], p[y] = y, x
                if mid_fixed is not None:
                    p[mid_fixed] = mid_fixed
                yield tuple(p)


def _best_pairing(cost: np.ndarray, n: int, h: int) -> tuple[int, Pairing]:
    """The pairing minimising ``sum cost[r, p[r]]`` over lines (``cost[r, r]`` for a fixed
    line): band pairings and middle-band pairings enumerated, bijections by assignment."""
    groups = _groups(n, h)
    best: tuple[int, Pairing] | None = None
    sym = cost + cost.T
    for band_pairs, middle in _matchings(list(range(len(groups)))):
        p = list(range(n))
        total = 0
        for a, b in band_pairs:
            sub = sym[np.ix_(groups[a], groups[b])]
            ri, ci = linear_sum_assignment(sub)
            total += int(sub[ri, ci].sum())
            for i, j in zip(ri, ci, strict=True):
                x, y = groups[a][i], groups[b][j]
                p[x], p[y] = y, x
        if middle is not None:
            mid_best: tuple[int, list[tuple[int, int]], int | None] | None = None
            for pairs, fixed in _matchings(groups[middle]):
                c = sum(int(sym[x, y]) for x, y in pairs)
                c += int(cost[fixed, fixed]) if fixed is not None else 0
                if mid_best is None or c < mid_best[0]:
                    mid_best = (c, pairs, fixed)
            assert mid_best is not None
            total += mid_best[0]
            for x, y in mid_best[1]:
                p[x], p[y] = y, x
        if best is None or total < best[0]:
            best = (total, tuple(p))
    assert best is not None
    return best


def _pair_costs(clue: np.ndarray, empty: np.ndarray, cols: Pairing) -> np.ndarray:
    """``cost[r, r2]``: empty cells of row ``r`` whose partner in row ``r2`` is a clue."""
    partner = clue[:, list(cols)]  # partner[r2, c] = clue at (r2, cols[c])
    return empty.astype(np.int64) @ partner.T.astype(np.int64)


def ranked_pairings(
    grid: Grid, n: int, count: int = 3, restarts: int = 4, seed: int = 0
) -> list[tuple[int, Pairing, Pairing]]:
    """The ``count`` best (asymmetric cells, row pairing, column pairing), best first."""
    geo = geometry(n)
    clue = np.array([bool(v) for v in grid], dtype=bool).reshape(n, n)
    empty = ~clue
    row_ps = list(all_pairings(n, geo.box_rows)) if n <= 9 else None
    col_ps = list(all_pairings(n, geo.box_cols)) if n <= 9 else None
    found: dict[tuple[Pairing, Pairing], int] = {}
    if row_ps is not None and col_ps is not None and len(row_ps) * len(col_ps) <= EXHAUSTIVE_LIMIT:
        cols_idx = np.array(col_ps)  # (C, n)
        for rp in row_ps:
            partner = clue[list(rp)]  # partner[r, c'] = clue at (rp[r], c')
            sub = partner[:, cols_idx]  # (n, C, n): clue at (rp[r], cp[c])
            costs = (empty[:, None, :] & sub).sum(axis=(0, 2))
            for k, cp in enumerate(col_ps):
                found[(rp, cp)] = int(costs[k])
    else:
        rng = random.Random(seed)
        starts = [rotation_pairing(n)]
        for _ in range(restarts):
            starts.append(_random_pairing(n, geo.box_cols, rng))
        for cols in starts:
            rows: Pairing = rotation_pairing(n)
            last = None
            for _ in range(20):
                _, rows = _best_pairing(_pair_costs(clue, empty, cols), n, geo.box_rows)
                c, cols = _best_pairing(_pair_costs(clue.T, empty.T, rows), n, geo.box_cols)
                found[(rows, cols)] = c
                if c == last:
                    break
                last = c
    ranked = sorted(found.items(), key=lambda kv: kv[1])
    return [(c, rp, cp) for (rp, cp), c in ranked[:count]]


def _random_pairing(n: int, h: int, rng: random.Random) -> Pairing:
    """The rotation conjugated by a random box-preserving layout."""
    layout = random_layout(n, h, rng)
    inverse = [0] * n
    for new, old in enumerate(layout):
        inverse[old] = new
    return tuple(layout[n - 1 - inverse[r]] for r in range(n))


def random_layout(n: int, h: int, rng: random.Random) -> tuple[int, ...]:
    """A random box-preserving order of lines (new index -> old line)."""
    groups = _groups(n, h)
    rng.shuffle(groups)
    for g in groups:
        rng.shuffle(g)
    return tuple(x for g in groups for x in g)


def layout_for(pairing: Pairing, n: int, h: int) -> tuple[int, ...]:
    """A box-preserving layout (new index -> old line) under which the rotation pairs lines as
    ``pairing`` does: paired bands go to mirror band positions (outer first), partner lines to
    mirror positions, the middle band's fixed line to the centre."""
    groups = _groups(n, h)
    band_of = [r // h for r in range(n)]
    count = len(groups)
    layout = [-1] * n
    placed: set[int] = set()
    k = 0
    for g, lines in enumerate(groups):
        partner_band = band_of[pairing[lines[0]]]
        if g in placed or partner_band == g:
            continue
        placed |= {g, partner_band}
        for i, line in enumerate(lines):
            layout[k * h + i] = line
            layout[(count - 1 - k) * h + (h - 1 - i)] = pairing[line]
        k += 1
    if count % 2:
        middle = next(g for g in range(count) if g not in placed)
        base = (count // 2) * h
        lines = groups[middle]
        pos = 0
        for line in lines:
            partner = pairing[line]
            if partner == line:
                layout[base + h // 2] = line
            elif line < partner:
                layout[base + pos] = line
                layout[base + h - 1 - pos] = partner
                pos += 1
    return tuple(layout)


def apply_layout(grid: Grid, n: int, rows: tuple[int, ...], cols: tuple[int, ...]) -> Grid:
    """The grid with new row ``i`` = old row ``rows[i]``, new column ``j`` = old ``cols[j]``."""
    return tuple(grid[rows[i] * n + cols[j]] for i in range(n) for j in range(n))


# ------------------------------------------------------------------------------ the pass


def symmetrify_puzzle(
    puzzle: Puzzle, layouts: int = 3, restarts: int = 4, seed: int = 0
) -> SymmetrifyResult:
    """The seed's pass on one puzzle (module docstring); the tag is computed if missing."""
    n = puzzle.size
    geo = geometry(n)
    tag = puzzle.tag or classify(puzzle.grid, n).tag
    before = asymmetric_cells(puzzle.grid, n, rotation_pairing(n), rotation_pairing(n))
    best: tuple[int, int, Grid, Pairing, Pairing] | None = None
    for _, rp, cp in ranked_pairings(puzzle.grid, n, layouts, restarts, seed):
        grid = list(puzzle.grid)
        missing = [
            r * n + c
            for r in range(n)
            for c in range(n)
            if not grid[r * n + c] and grid[rp[r] * n + cp[c]]
        ]
        for cell in missing:
            grid[cell] = puzzle.solution[cell]
        if missing and classify(tuple(grid), n).tag != tag:
            grid = list(puzzle.grid)
            for cell in missing:
                grid[cell] = puzzle.solution[cell]
                if classify(tuple(grid), n).tag != tag:
                    grid[cell] = 0
        left = asymmetric_cells(tuple(grid), n, rp, cp)
        added = sum(1 for a, b in zip(grid, puzzle.grid, strict=True) if a != b)
        if best is None or left < best[0]:
            best = (left, added, tuple(grid), rp, cp)
        if left == 0:
            break
    assert best is not None
    left, added, grid, rp, cp = best
    rows = layout_for(rp, n, geo.box_rows)
    cols = layout_for(cp, n, geo.box_cols)
    new = replace(
        puzzle,
        grid=apply_layout(grid, n, rows, cols),
        solution=apply_layout(puzzle.solution, n, rows, cols),
        minimal=puzzle.minimal and added == 0,
        tag=tag,
    )
    return SymmetrifyResult(new, before, left, added, rows, cols)


def summarise(results: list[SymmetrifyResult], originals: list[Puzzle]) -> SymmetrifyReport:
    """Totals of a pass: puzzles symmetric before/after, asymmetric cells before/after."""
    return SymmetrifyReport(
        puzzles=len(results),
        symmetric_before=sum(1 for p in originals if is_symmetric(p.grid, p.size)),
        symmetric_after=sum(1 for r in results if r.symmetric),
        asymmetric_before=sum(r.asymmetric_before for r in results),
        asymmetric_after=sum(r.asymmetric_after for r in results),
        clues_added=sum(r.clues_added for r in results),
    )
