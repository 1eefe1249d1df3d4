"""Parts of the board given outright (Fixed), and the seed model's symmetry breaking and marker
threshold."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from ludolab.envs.catan.board import HARBOR_TYPES
from ludolab.research.catan import rules as R
from ludolab.research.catan.constraints.base import (
    PARTS,
    Constraint,
    ConstraintError,
    Param,
    register,
)


@register
class Fixed(Constraint):
    name = "fixed"
    summary = (
        "Fix parts of the board to given values (e.g. the seed's tile layout, to place "
        "numbers on it). Samplers draw only the parts left free."
    )
    reads = frozenset()  # set per instance in _validate
    params = {
        "terrain": Param("terrain-list", None, "terrain name per hex (reading order)"),
        "numbers": Param("token-list", None, "token per hex, 0 (or null) on the desert"),
        "harbors": Param("harbor-list", None, "harbor type per slot"),
    }

    def _validate(self):
        fixed = {part for part in PARTS if self.values[part] is not None}
        if not fixed:
            raise ConstraintError(
                "constraint 'fixed': give at least one of terrain, numbers, harbors"
            )
        lengths = {
            "terrain": self.geo.layout.n_hexes,
            "numbers": self.geo.layout.n_hexes,
            "harbors": len(self.geo.layout.harbor_slots),
        }
        for part in fixed:
            if len(self.values[part]) != lengths[part]:
                raise ConstraintError(
                    f"constraint 'fixed', parameter {part!r}: expected "
                    f"{lengths[part]} entries, got {len(self.values[part])}"
                )
        self.reads = frozenset(fixed)  # type: ignore[misc]

    def check(self, terrain, numbers, harbors):
        ok = np.ones(terrain.shape[0], dtype=bool)
        for part, arr in zip(PARTS, (terrain, numbers, harbors), strict=True):
            if self.values[part] is not None:
                ok &= (arr == np.array(self.values[part])).all(axis=1)
        return ok

    def minizinc(self):
        names = {"terrain": "terrain", "numbers": "number", "harbors": "harbor"}
        return " /\\ ".join(
            f"{names[part]} = [{', '.join(map(str, self.values[part]))}]"
            for part in PARTS
            if self.values[part] is not None
        )

    def rules(self):
        size = {"terrain": 6, "numbers": 13, "harbors": len(HARBOR_TYPES)}
        return [
            R.Unary(part, position, np.arange(size[part]) == value)
            for part in PARTS
            if self.values[part] is not None
            for position, value in enumerate(self.values[part])
        ]


@register
class SeedSymmetryBreaking(Constraint):
    name = "seed-2019-symmetry-breaking"
    summary = (
        "The 2019 seed's 'break rotational symmetry': the corners at array cells (1,1), "
        "(3,5), (5,3) have increasing seed resource codes. It also removes boards that "
        "are not rotations of a kept one."
    )
    reads = frozenset({"terrain"})

    SEED_CODE: ClassVar[np.ndarray] = np.array([7, 5, 4, 3, 6, 2])

    def _cells(self) -> list[int]:
        if not self.geo.seed_cells:
            raise ConstraintError(f"constraint {self.name!r} needs a layout with a seed grid")
        return [self.geo.seed_cells[rc] for rc in ((1, 1), (3, 5), (5, 3))]

    def check(self, terrain, numbers, harbors):
        codes = self.SEED_CODE[terrain[:, self._cells()]]
        return (codes[:, 0] < codes[:, 1]) & (codes[:, 1] < codes[:, 2])

    def minizinc(self):
        return f"seed_increasing(terrain, [{', '.join(str(h + 1) for h in self._cells())}])"

    def rules(self):
        a, b, c = np.meshgrid(*[self.SEED_CODE] * 3, indexing="ij")
        return [R.TripleRule("terrain", np.array([self._cells()]), ~((a < b) & (b < c)))]


@register
class SeedMarkerThreshold(Constraint):
    name = "seed-2019-marker-threshold"
    summary = (
        "The 2019 seed's marker threshold, exactly as stated: over the triangles of its "
        "5x5 array, number sums < threshold, water cells counting 1 and the desert 7."
    )
    reads = frozenset({"numbers"})
    params = {
        "threshold": Param("int", 23, "sums must stay strictly below this", unit="sum of numbers")
    }

    def check(self, terrain, numbers, harbors):
        tri = self.geo.seed_triangles()
        seed_values = np.where(numbers == 0, 7, numbers)
        padded = np.concatenate([seed_values, np.ones((len(numbers), 1), numbers.dtype)], axis=1)
        return (padded[:, tri].sum(axis=2) < self.values["threshold"]).all(axis=1)  # -1 = water

    def minizinc(self):
        rows = "|".join(",".join(str(h + 1) for h in tri) for tri in self.geo.seed_triangles())
        return f"seed_marker_threshold(number, [|{rows}|], {self.values['threshold']})"

    def rules(self):
        tri = self.geo.seed_triangles().tolist()
        groups = tuple(tuple(h for h in t if h >= 0) for t in tri)
        water = tuple(sum(h < 0 for h in t) for t in tri)  # a water cell counts 1
        seed_value = np.where(np.arange(13) == 0, 7, np.arange(13))  # the desert counts 7
        return [R.GroupSum(groups, water, seed_value, self.values["threshold"] - 1)]
