"""Is a sampler uniform? A chi-square test on a constraint set small enough to list.

The set's boards (over the parts it constrains) are listed depth-first by the kernel, or by
MiniZinc for a set with raw MiniZinc constraints: the reference list of the space. The sampler
draws many boards; each draw is located in the list by its constrained parts; the counts are
tested against equal frequencies. A draw outside the list means the sampler and the list
disagree about the set, and is reported as such.

Chi-square needs enough draws per cell (at least 5 expected). With fewer draws than 5 per
board, ``bins`` groups the listed boards into that many cells of consecutive boards in the
list (neighbours in the depth-first order, so a sampler that favours a region of the space
shows as an uneven bin).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.stats import chisquare

from ludolab.envs.catan.board import Board
from ludolab.research.catan.constraint_set import ConstraintSet
from ludolab.research.catan.generate import FacesDisagree, generate_boards
from ludolab.research.catan.model import model_parts
from ludolab.research.catan.samplers import SamplingError, enumerate_boards
from ludolab.research.catan.space import Space, enumerate_space

MIN_EXPECTED = 5.0  # draws per cell, for the chi-square approximation to hold


@dataclass(frozen=True)
class UniformityResult:
    """Outcome of :func:`check_uniformity`."""

    constraint_set: str
    sampler: str
    method: str  # what drew the boards (rejection, enumeration, mcmc, solver)
    space: int  # boards (of the constrained parts) in the listed space
    cells: int  # cells of the test (the boards, or bins of them)
    draws: int
    distinct_drawn: int
    chi2: float
    p_value: float
    max_ratio: float  # most frequent cell count / expected count

    def summary(self) -> str:
        verdict = "consistent with uniform" if self.p_value >= 0.01 else "NOT uniform (p < 0.01)"
        cells = (
            "one cell per board"
            if self.cells == self.space
            else f"{self.cells} bins of consecutive listed boards"
        )
        return (
            f"{self.constraint_set}: {self.space:,} boards in the space; {self.draws:,} draws "
            f"from the {self.sampler} sampler ({self.method}) hit {self.distinct_drawn:,} of "
            f"them\nchi-square = {self.chi2:.1f} on {self.cells - 1} degrees of freedom "
            f"({cells}), p = {self.p_value:.3g}; the most drawn cell came {self.max_ratio:.2f}x "
            f"as often as expected\n-> {verdict}"
        )


def check_uniformity(
    cset: ConstraintSet,
    sampler: str,
    draws: int | None,
    seed: int,
    *,
    space_limit: int = 200_000,
    bins: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> UniformityResult:
    """Chi-square test of ``sampler`` against uniform over the listed boards of ``cset``.

    Args:
        draws: boards to draw; None picks ``max(20,000, 10 per cell)`` from the space's size.
        bins: None tests each board as a cell (needs at least 5 draws per board); an integer
            groups the listed boards into that many cells.
        progress: called with a line as each stage starts (listing, drawing, testing).
    """
    say = progress or (lambda line: None)
    say(f"listing the boards of {cset.label} ...")
    listed = _listed(cset, space_limit)
    space = len(listed)
    cells = space if bins is None else bins
    if not 2 <= cells <= space:
        raise SamplingError(f"--bins must lie in 2..{space} (the boards in the space), got {cells}")
    if draws is None:
        draws = max(20_000, 10 * cells)
    if draws < MIN_EXPECTED * cells:
        raise SamplingError(
            f"{cset.label}: {draws:,} draws over {cells:,} cells is fewer than {MIN_EXPECTED:g} "
            f"expected per cell, where the chi-square test does not hold; use --draws "
            f"{int(MIN_EXPECTED * cells):,} or more (at least 5 draws per board), or --bins K "
            f"to test K groups of boards"
        )
    index = {board: i for i, board in enumerate(listed)}
    say(f"{space:,} boards in {cells:,} cells; drawing {draws:,} with the {sampler} sampler ...")
    boards, report = generate_boards(cset, draws, sampler, seed + 1)
    say("testing against uniform ...")
    parts = _parts(cset)
    counts: Counter[int] = Counter()
    for b in boards:
        k = _key(b, parts)
        if k not in index:
            raise FacesDisagree(
                f"{cset.label}: the {sampler} sampler drew board {b.id}, which the list of the "
                f"set does not contain"
            )
        counts[index[k]] += 1
    per_board = np.array([counts[i] for i in range(space)], dtype=float)
    edges = np.linspace(0, space, cells + 1).astype(int)
    observed = np.add.reduceat(per_board, edges[:-1])
    expected = draws * np.diff(edges) / space
    stat = chisquare(observed, expected)
    return UniformityResult(
        cset.name,
        sampler,
        report.method or sampler,
        space,
        cells,
        draws,
        int((per_board > 0).sum()),
        float(stat.statistic),
        float(stat.pvalue),
        float((observed / expected).max()),
    )


def _parts(cset: ConstraintSet) -> tuple[str, ...]:
    return Space.of(cset).parts if cset.has_python_faces else model_parts(cset)


def _listed(cset: ConstraintSet, limit: int) -> list[tuple]:
    """The set's boards, as keys of their constrained parts, in listing order."""
    too_many = SamplingError(
        f"{cset.label} has more than {limit:,} boards; a uniformity check needs a space it can "
        f"list (fix parts of the board, or test a tighter set)"
    )
    if cset.has_python_faces:
        listing = enumerate_space(Space.of(cset), keep=limit, count_limit=limit)
        if not listing.exhausted:
            raise too_many
        if not listing.count:
            raise SamplingError(f"{cset.label} is unsatisfiable: no board satisfies it")
        h = Space.of(cset).geo.layout.n_hexes
        columns = {
            "terrain": slice(0, h),
            "numbers": slice(h, 2 * h),
            "harbors": slice(2 * h, None),
        }
        parts = _parts(cset)
        return [tuple(tuple(row[columns[p]].tolist()) for p in parts) for row in listing.boards]
    boards, report = enumerate_boards(cset, np.random.default_rng(0), limit=limit + 1)
    if not report.exhausted or len(boards) > limit:
        raise too_many
    return [_key(b, model_parts(cset)) for b in boards]


def _key(board: Board, parts: tuple[str, ...]) -> tuple:
    values = {"terrain": board.terrain, "numbers": board.numbers, "harbors": board.harbors}
    return tuple(tuple(values[p]) for p in parts)
