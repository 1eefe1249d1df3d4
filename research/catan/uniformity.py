"""Is a sampler uniform? A chi-square test on a constraint set small enough to enumerate.

The set's constrained parts are enumerated with MiniZinc (the reference list of the space);
the sampler draws many boards; each draw is located in the list by its constrained parts; the
counts are tested against equal frequencies. A draw outside the list is a disagreement between
the Python and MiniZinc faces and is reported as such.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np
from scipy.stats import chisquare

from envs.catan.board import Board
from research.catan.constraint_set import ConstraintSet
from research.catan.generate import FacesDisagree, generate_boards
from research.catan.model import model_parts
from research.catan.samplers import SamplingError, enumerate_boards


@dataclass(frozen=True)
class UniformityResult:
    """Outcome of :func:`check_uniformity`."""

    constraint_set: str
    sampler: str
    space: int  # boards (of the constrained parts) in the enumerated space
    draws: int
    distinct_drawn: int
    chi2: float
    p_value: float
    max_ratio: float  # most frequent cell count / expected count

    def summary(self) -> str:
        verdict = "consistent with uniform" if self.p_value >= 0.01 else "NOT uniform (p < 0.01)"
        return (
            f"{self.constraint_set}: {self.space} boards in the space; {self.draws} draws "
            f"from the {self.sampler} sampler hit {self.distinct_drawn} of them\n"
            f"chi-square = {self.chi2:.1f} on {self.space - 1} degrees of freedom, "
            f"p = {self.p_value:.3g}; the most drawn board came {self.max_ratio:.2f}x as "
            f"often as expected\n-> {verdict}"
        )


def check_uniformity(
    cset: ConstraintSet, sampler: str, draws: int, seed: int, *, space_limit: int = 100_000
) -> UniformityResult:
    """Chi-square test of ``sampler`` against uniform over the enumerated space of ``cset``."""
    parts = model_parts(cset)
    listed, report = enumerate_boards(cset, np.random.default_rng(seed), limit=space_limit + 1)
    if not report.exhausted or len(listed) > space_limit:
        raise SamplingError(
            f"{cset.label} has more than {space_limit:,} boards; a uniformity "
            f"check needs a space it can enumerate"
        )
    index = {_key(b, parts): i for i, b in enumerate(listed)}
    boards, _ = generate_boards(cset, draws, sampler, seed + 1)
    counts = Counter()
    for b in boards:
        k = _key(b, parts)
        if k not in index:
            raise FacesDisagree(
                f"{cset.label}: the {sampler} sampler drew board {b.id}, which "
                f"the MiniZinc enumeration does not contain"
            )
        counts[index[k]] += 1
    observed = np.array([counts[i] for i in range(len(listed))], dtype=float)
    stat = chisquare(observed)
    expected = draws / len(listed)
    return UniformityResult(
        cset.name,
        sampler,
        len(listed),
        draws,
        int((observed > 0).sum()),
        float(stat.statistic),
        float(stat.pvalue),
        float(observed.max() / expected),
    )


def _key(board: Board, parts: tuple[str, ...]) -> tuple:
    values = {"terrain": board.terrain, "numbers": board.numbers, "harbors": board.harbors}
    return tuple(values[p] for p in parts)
