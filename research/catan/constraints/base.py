"""What every constraint shares: the Constraint class with its two faces, parameters and their
coercion by name, the registry and make_constraint, and helpers for writing MiniZinc faces."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ludolab.envs.catan.board import HARBOR_TYPES, NUMBERS, RESOURCES, TERRAINS
from ludolab.research.catan import rules as R
from ludolab.research.catan.geometry import (
    LayoutArrays,
    layout_arrays,
    maximal_cliques,
)
from ludolab.research.suggest import did_you_mean

PARTS = ("terrain", "numbers", "harbors")


class ConstraintError(ValueError):
    """A constraint is unknown or has bad parameters. The message says what is allowed."""


@dataclass(frozen=True)
class Param:
    """One parameter of a constraint: its kind, default and meaning.

    kind: "int", "resource-list", "number-list", "choice", "ring-list", "terrain-list",
    "token-list", "harbor-list", "bool".
    """

    kind: str
    default: Any
    doc: str
    choices: tuple[str, ...] = ()
    unit: str = ""
    """What a number parameter counts ("pips", "pairs"), for axis labels and tables."""


def members(values: Sequence[int], size: int = 13) -> np.ndarray:
    """A boolean lookup table: ``table[code]`` is True for the listed codes. Indexing it with a
    code array tests membership about ten times faster than ``np.isin`` on small arrays, which
    matters to the samplers (they check millions of boards)."""
    table = np.zeros(size, dtype=bool)
    table[list(values)] = True
    return table


def mzn_pairs(pairs: np.ndarray) -> str:
    rows = "|".join(f"{a + 1},{b + 1}" for a, b in pairs)
    return f"[|{rows}|]" if len(pairs) else "array2d(1..0, 1..2, [])"


def mzn_set(values: Sequence[int]) -> str:
    return "{" + ", ".join(str(v) for v in sorted(values)) + "}"


def mzn_hex_sets(groups: Sequence[Sequence[int]]) -> str:
    return "[" + ", ".join(mzn_set([h + 1 for h in g]) for g in groups) + "]"


class Constraint:
    """Base class. Subclasses set the class attributes and implement both faces."""

    name: ClassVar[str]
    summary: ClassVar[str]
    reads: ClassVar[frozenset[str]]
    params: ClassVar[dict[str, Param]] = {}

    def __init__(self, layout: str = "standard", **values: Any) -> None:
        unknown = set(values) - set(self.params)
        if unknown:
            allowed, wrong = ", ".join(self.params) or "none", sorted(unknown)[0]
            raise ConstraintError(
                f"constraint {self.name!r} has no parameter {wrong!r}; "
                f"{did_you_mean(wrong, self.params)}its parameters: {allowed}"
            )
        self.values = {
            k: coerce(self.name, k, p, values.get(k, p.default)) for k, p in self.params.items()
        }
        self.geo: LayoutArrays = layout_arrays(layout)
        self._validate()

    def _validate(self) -> None:
        """Cross-parameter checks; raise ConstraintError."""

    def check(self, terrain: np.ndarray, numbers: np.ndarray, harbors: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def minizinc(self) -> str:
        raise NotImplementedError

    def rules(self) -> list[R.Rule]:
        """The constraint as rules over positions (see :mod:`ludolab.research.catan.rules`), for the
        samplers that check one board at a time."""
        raise NotImplementedError

    def param_unit(self, name: str) -> str:
        """What parameter ``name`` counts ("pips"; "" when it is not a count)."""
        return self.params[name].unit

    def describe(self) -> str:
        """``name(param=value, ...)`` with resources, terrains and harbors by name."""
        shown = ", ".join(
            f"{k}={show_value(v, _NAMES.get(self.params[k].kind))}" for k, v in self.values.items()
        )
        return f"{self.name}({shown})" if shown else self.name

    def __repr__(self) -> str:
        return f"<constraint {self.describe()}>"


REGISTRY: dict[str, type[Constraint]] = {}


def register(cls: type[Constraint]) -> type[Constraint]:
    REGISTRY[cls.name] = cls
    return cls


def make_constraint(name: str, layout: str = "standard", **values: Any) -> Constraint:
    """Instantiate a library constraint by name; unknown names list the known ones."""
    try:
        cls = REGISTRY[name]
    except KeyError:
        raise ConstraintError(
            f"unknown constraint {name!r}; {did_you_mean(name, REGISTRY)}known constraints: "
            f"{', '.join(sorted(REGISTRY))} (see `ludolab constraints list`)"
        ) from None
    return cls(layout, **values)


_NAMES: dict[str, tuple[str, ...]] = {
    "resource-list": RESOURCES,
    "terrain-list": TERRAINS,
    "harbor-list": HARBOR_TYPES,
}
"""Parameter kinds whose values are stored as indices into a list of names."""


def show_value(value: Any, names: tuple[str, ...] | None = None) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(show_value(v, names) for v in value) + "]"
    if names is not None and isinstance(value, int) and not isinstance(value, bool):
        return names[value]
    return str(value)


def coerce(cname: str, key: str, p: Param, value: Any) -> Any:
    where = f"constraint {cname!r}, parameter {key!r}"

    def names_list(allowed: Sequence[str]) -> tuple[int, ...]:
        if not isinstance(value, list) or not all(v in allowed for v in value):
            raise ConstraintError(
                f"{where}: expected a list of names from {', '.join(allowed)}; got {value!r}"
            )
        return tuple(allowed.index(v) for v in value)

    if p.kind == "int" or p.kind == "optional-int":
        if value is None and p.kind == "optional-int":
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise ConstraintError(f"{where}: expected an integer; got {value!r}")
        return value
    if p.kind == "bool":
        if not isinstance(value, bool):
            raise ConstraintError(f"{where}: expected true or false; got {value!r}")
        return value
    if p.kind == "choice":
        if value not in p.choices:
            raise ConstraintError(f"{where}: expected one of {', '.join(p.choices)}; got {value!r}")
        return value
    if p.kind == "resource-list":
        return names_list(RESOURCES)
    if p.kind == "terrain-list":
        return None if value is None else names_list(TERRAINS)
    if p.kind == "harbor-list":
        return None if value is None else names_list(HARBOR_TYPES)
    if p.kind == "number-list":
        if not isinstance(value, list) or not all(v in NUMBERS for v in value):
            raise ConstraintError(
                f"{where}: expected a list of token values from "
                f"{', '.join(map(str, NUMBERS))}; got {value!r}"
            )
        return tuple(value)
    if p.kind == "token-list":
        if value is None:
            return None
        if not isinstance(value, list) or not all(v is None or v in (0, *NUMBERS) for v in value):
            raise ConstraintError(
                f"{where}: expected a list of token values, 0 (TOML has no null) or null on the "
                f"desert; got {value!r}"
            )
        return tuple(0 if v is None else v for v in value)
    if p.kind == "ring-list":
        if not isinstance(value, list) or not all(v in (0, 1, 2) for v in value) or not value:
            raise ConstraintError(
                f"{where}: expected a non-empty list of rings from 0 (centre), "
                f"1, 2 (coast); got {value!r}"
            )
        return tuple(value)
    raise AssertionError(f"unknown parameter kind {p.kind}")


NEIGHBOURHOOD = Param(
    "choice",
    "adjacent",
    "which hex pairs count: 'adjacent' (sharing a side) or 'seed-2019-block' (any two hexes in a "
    "2x2 block of the 2019 seed's 5x5 array, which also pairs some NON-adjacent hexes)",
    ("adjacent", "seed-2019-block"),
)


def neighbour_pairs(c: Constraint) -> np.ndarray:
    return c.geo.adjacent if c.values["neighbourhood"] == "adjacent" else c.geo.seed_block


def mzn_groups_differ(array: str, pairs: np.ndarray) -> str:
    return f"groups_differ({array}, {mzn_hex_sets(maximal_cliques(pairs))})"
