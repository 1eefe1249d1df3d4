"""Turn a constraint set into a MiniZinc board model.

The model declares only the board parts the set's constraints read (the rest are drawn by a fair
shuffle in Python afterwards), the tile/token/harbor counts of the layout, every constraint's
MiniZinc face, and a solve item for the job: randomised search for sampling, the solver's own
order for enumeration, or an objective for optimisation.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from ludolab.envs.catan.board import DESERT, HARBOR_TYPES, TERRAINS
from ludolab.envs.catan.topology import load_layout
from ludolab.research.catan.constraint_set import ConstraintSet
from ludolab.research.catan.constraints import Objective
from ludolab.research.catan.geometry import layout_arrays

SEARCH_RANDOM = "random"
SEARCH_DEFAULT = "default"


@cache
def _library() -> str:
    return (resources.files("ludolab.research.catan") / "models" / "library.mzn").read_text()


def model_parts(cset: ConstraintSet) -> tuple[str, ...]:
    """Board parts that become decision variables, in order terrain, numbers, harbors.

    Numbers bring the terrain with them: the desert is where the token is missing.
    """
    reads = set(cset.reads)
    if "numbers" in reads:
        reads.add("terrain")
    return tuple(p for p in ("terrain", "numbers", "harbors") if p in reads)


def board_model(
    cset: ConstraintSet, *, search: str = SEARCH_RANDOM, objective: Objective | None = None
) -> str:
    """MiniZinc source for ``cset``: variables, counts, constraints and the solve item."""
    layout = load_layout(cset.layout)
    parts = model_parts(cset)
    if not parts:
        raise ValueError(f"{cset.label} constrains nothing: there is nothing to solve for")
    lines = [
        f"% ludolab board model for {cset.label} on the {layout.name} layout",
        'include "global_cardinality.mzn";',
        'include "alldifferent.mzn";',
        _library(),
        f"int: H = {layout.n_hexes};",
        f"int: S = {len(layout.harbor_slots)};",
    ]
    arrays = []
    fixed = cset.fixed
    if "terrain" in parts:
        counts = [layout.resource_counts.get(t, 0) for t in TERRAINS]
        lines += [
            _declare("terrain", "1..H", f"0..{len(TERRAINS) - 1}", fixed.get("terrain")),
            f"constraint global_cardinality(terrain, {list(range(len(TERRAINS)))}, {counts});",
        ]
        if "terrain" not in fixed:
            arrays.append("terrain")
    if "numbers" in parts:
        values = sorted(layout.number_counts)
        counts = [layout.number_counts[v] for v in values]
        n_desert = layout.resource_counts.get("desert", 0)
        lines += [
            _declare(
                "number", "1..H", f"{{0, {', '.join(map(str, values))}}}", fixed.get("numbers")
            ),
            # Counted with sums of reified equalities, not global_cardinality: Gecode 6.2.0 can
            # hang inside global_cardinality on the tokens, ignoring its time limit.
            *(
                f"constraint sum(h in 1..H)(bool2int(number[h] = {v})) = {k};"
                for v, k in zip([0, *values], [n_desert, *counts], strict=True)
            ),
            f"constraint forall(h in 1..H)(number[h] = 0 <-> terrain[h] = {DESERT});",
        ]
        if "numbers" not in fixed:
            arrays.append("number")
    if "harbors" in parts:
        counts = [layout.harbor_counts.get(t, 0) for t in HARBOR_TYPES]
        lines += [
            _declare("harbor", "1..S", f"0..{len(HARBOR_TYPES) - 1}", fixed.get("harbors")),
            f"constraint global_cardinality(harbor, {list(range(len(HARBOR_TYPES)))}, {counts});",
        ]
        if "harbors" not in fixed:
            arrays.append("harbor")
    for c in cset.constraints:
        lines.append(f"% {c.describe()}\nconstraint {c.minizinc()};")
    for r in cset.raw:
        lines.append(f"% raw MiniZinc from {cset.source}\nconstraint {r.code};")
    if not arrays:
        raise ValueError(f"{cset.label} fixes every part it constrains: nothing to solve for")
    decision = " ++ ".join(arrays)
    if objective is not None:
        lines.append(f"var int: objective = {objective.minizinc(layout_arrays(cset.layout))};")
        lines.append(
            f"solve :: int_search({decision}, first_fail, indomain_min) "
            f"{objective.sense} objective;"
        )
    elif search == SEARCH_RANDOM:
        # Part by part (terrain, then numbers, then harbors), first-fail with random values;
        # indomain_random is seeded by fzn-gecode -r. MiniZinc has no random variable choice.
        # Deciding the terrain first lets a restart abandon a terrain the numbers cannot fit.
        phases = ", ".join(f"int_search({a}, first_fail, indomain_random)" for a in arrays)
        lines.append(f"solve :: seq_search([{phases}]) satisfy;")
    else:
        # Complete search for enumeration and counting. Splitting domains lets the sum bounds
        # (thresholds, caps) prune: on the seed's marker model it proves uniqueness in about a
        # second, where value-by-value branching or Gecode's default runs for minutes.
        lines.append(f"solve :: int_search({decision}, dom_w_deg, indomain_split) satisfy;")
    return "\n".join(lines) + "\n"


def _declare(name: str, index: str, domain: str, values: tuple[int, ...] | None) -> str:
    """A decision array, or a parameter array when a ``fixed`` constraint gives its values.

    Given parts are declared as data so that flattening resolves everything that depends on
    them (the per-terrain all-different, the desert's missing token) before search starts.
    """
    if values is None:
        return f"array[{index}] of var {domain}: {name};"
    return f"array[{index}] of {domain}: {name} = [{', '.join(map(str, values))}];"
