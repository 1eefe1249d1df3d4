"""The two faces of every library constraint agree: Python ``check`` and MiniZinc ``minizinc()``.

For each registered constraint, with representative parameters, a batch of a few thousand
boards is judged by both faces: the Python face in one numpy call, the MiniZinc face in ONE
MiniZinc call (a model that wraps the expression in a predicate and reifies it once per board,
see ``boards_util.minizinc_face``). The batch mixes fair shuffles with boards that satisfy the
constraint (found by Gecode for the MiniZinc face, and fair shuffles the Python face accepts)
and small mutations of those, so that both verdicts are well represented even for tight
constraints.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pytest
from boards_util import (
    N_HEXES,
    N_SLOTS,
    SEED_NUMBERS,
    SEED_TERRAIN_NAMES,
    assert_valid,
    face_keys,
    minizinc_face,
    mutate,
    needs_minizinc,
    overloaded_predicates,
    predicate_definitions,
    rejection_boards,
    shuffles,
    solver_boards,
)

from ludolab.research.catan.constraint_set import load_constraint_set, shipped_sets
from ludolab.research.catan.constraints import REGISTRY, Constraint, make_constraint
from ludolab.research.catan.rules import evaluate
from ludolab.research.catan.space import checker_for

pytestmark = needs_minizinc

N_SHUFFLES = 1000  # fair shuffles per batch
N_SOLVED = 200  # satisfying boards: from Gecode, topped up by accepted fair shuffles
N_MUTANTS = 4  # mutants per satisfying board
MIN_GECODE = 20  # Gecode must find at least this many boards for the MiniZinc faces
MIN_SATISFYING = 40
MIN_EACH = 50  # each verdict (True / False) must occur at least this often in a batch

# (case id, constraint name, parameters)
CASES: list[tuple[str, str, dict]] = [
    ("no-equal-resources-adjacent", "no-equal-resources-adjacent", {}),
    (
        "no-equal-resources-adjacent/seed-block",
        "no-equal-resources-adjacent",
        {"neighbourhood": "seed-2019-block"},
    ),
    (
        "no-equal-resources-adjacent/brick-ore",
        "no-equal-resources-adjacent",
        {"resources": ["brick", "ore"]},
    ),
    (
        "no-equal-resources-adjacent/brick-ore/seed-block",
        "no-equal-resources-adjacent",
        {"resources": ["brick", "ore"], "neighbourhood": "seed-2019-block"},
    ),
    ("resources-never-adjacent", "resources-never-adjacent", {}),
    (
        "resources-never-adjacent/seed-block",
        "resources-never-adjacent",
        {"neighbourhood": "seed-2019-block"},
    ),
    ("resources-never-adjacent/ore", "resources-never-adjacent", {"resources": ["ore"]}),
    ("equal-resource-pairs/min11", "equal-resource-pairs", {"min": 11}),
    ("equal-resource-pairs/max2", "equal-resource-pairs", {"max": 2}),
    ("equal-resource-pairs/5-6", "equal-resource-pairs", {"min": 5, "max": 6}),
    ("no-resource-triangles", "no-resource-triangles", {}),
    ("desert-placement/0", "desert-placement", {"rings": [0]}),
    ("desert-placement/1", "desert-placement", {"rings": [1]}),
    ("desert-placement/2", "desert-placement", {"rings": [2]}),
    ("desert-placement/0-2", "desert-placement", {"rings": [0, 2]}),
    ("desert-placement/0-1", "desert-placement", {"rings": [0, 1]}),
    ("number-placement", "number-placement", {}),
    ("number-placement/2-12-coast", "number-placement", {"numbers": [2, 12], "rings": [2]}),
    ("red-numbers-apart", "red-numbers-apart", {}),
    ("red-numbers-apart/seed-block", "red-numbers-apart", {"neighbourhood": "seed-2019-block"}),
    ("red-numbers-apart/2-6-8-12", "red-numbers-apart", {"numbers": [2, 6, 8, 12]}),
    ("red-numbers-apart/6", "red-numbers-apart", {"numbers": [6]}),
    ("no-equal-numbers-adjacent", "no-equal-numbers-adjacent", {}),
    (
        "no-equal-numbers-adjacent/seed-block",
        "no-equal-numbers-adjacent",
        {"neighbourhood": "seed-2019-block"},
    ),
    ("red-numbers-on-different-resources", "red-numbers-on-different-resources", {}),
    (
        "red-numbers-on-different-resources/2-5-12",
        "red-numbers-on-different-resources",
        {"numbers": [2, 5, 12]},
    ),
    ("different-numbers-within-resource", "different-numbers-within-resource", {}),
    ("intersection-cap/pips/all/11", "intersection-cap", {"max": 11}),
    ("intersection-cap/pips/all/12", "intersection-cap", {}),
    ("intersection-cap/pips/all/13", "intersection-cap", {"max": 13}),
    ("intersection-cap/pips/three-hex/11", "intersection-cap", {"max": 11, "scope": "three-hex"}),
    ("intersection-cap/numbers/all/22", "intersection-cap", {"measure": "numbers", "max": 22}),
    (
        "intersection-cap/numbers/three-hex/22",
        "intersection-cap",
        {"measure": "numbers", "max": 22, "scope": "three-hex"},
    ),
    (
        "intersection-cap/numbers/three-hex/24",
        "intersection-cap",
        {"measure": "numbers", "max": 24, "scope": "three-hex"},
    ),
    ("resource-pips/9-13", "resource-pips", {"min": 9, "max": 13}),
    ("resource-pips/ore-min12", "resource-pips", {"resources": ["ore"], "min": 12}),
    (
        "resource-pips/wool-grain-max10",
        "resource-pips",
        {"resources": ["wool", "grain"], "max": 10},
    ),
    ("harbor-resource-access/forbid", "harbor-resource-access", {"mode": "forbid"}),
    ("harbor-resource-access/require", "harbor-resource-access", {"mode": "require"}),
    ("harbor-best-hex", "harbor-best-hex", {}),
    ("harbor-spacing", "harbor-spacing", {}),
    ("harbor-spacing/brick-ore-gap-2", "harbor-spacing", {"types": ["brick", "ore"], "gap": 2}),
    ("fixed/terrain", "fixed", {"terrain": SEED_TERRAIN_NAMES}),
    ("fixed/numbers", "fixed", {"numbers": [None, *SEED_NUMBERS[1:]]}),
    (
        "fixed/harbors",
        "fixed",
        {
            "harbors": [
                "ore",
                "generic",
                "wool",
                "generic",
                "brick",
                "generic",
                "lumber",
                "generic",
                "grain",
            ]
        },
    ),
    (
        "fixed/terrain+numbers",
        "fixed",
        {"terrain": SEED_TERRAIN_NAMES, "numbers": [None, *SEED_NUMBERS[1:]]},
    ),
    ("seed-2019-symmetry-breaking", "seed-2019-symmetry-breaking", {}),
    ("seed-2019-marker-threshold/22", "seed-2019-marker-threshold", {"threshold": 22}),
    ("seed-2019-marker-threshold/25", "seed-2019-marker-threshold", {"threshold": 25}),
    ("seed-2019-marker-threshold/30", "seed-2019-marker-threshold", {"threshold": 30}),
]


SOLVABLE_SETS = [s for s in shipped_sets() if s != "random"]

# Extra constraints for Gecode only, when it finds few boards for a case within its failure
# cutoffs; the batch is still judged by the case's constraint alone.
HELPERS: dict[str, list[tuple[str, dict]]] = {
    "seed-2019-marker-threshold/22": [("fixed", {"terrain": SEED_TERRAIN_NAMES})],
}


# Near twins: for these cases the batch also holds boards that satisfy the case but violate
# its twin (found by Gecode), the configurations where the two differ and a face that mixes
# them up is caught, e.g. the seed's 2x2-block neighbourhood pairs hexes that are NOT
# adjacent. (intersection-cap's scopes "all" and "three-hex" have no such boards on the
# standard layout: every coastal intersection's hexes lie around an inland one.)
TWINS: dict[str, str] = {
    "no-equal-resources-adjacent": "no-equal-resources-adjacent/seed-block",
    "no-equal-resources-adjacent/brick-ore": "no-equal-resources-adjacent/brick-ore/seed-block",
    "resources-never-adjacent": "resources-never-adjacent/seed-block",
    "red-numbers-apart": "red-numbers-apart/seed-block",
    "no-equal-numbers-adjacent": "no-equal-numbers-adjacent/seed-block",
    "intersection-cap/pips/all/12": "intersection-cap/pips/all/11",
    "harbor-resource-access/forbid": "harbor-resource-access/require",
    "desert-placement/0-1": "desert-placement/1",
    "resource-pips/9-13": "resource-pips/ore-min12",
}
N_TWIN = 100  # boards that tell a case from its twin
MIN_TWIN = 10


def _case(cid: str) -> Constraint:
    (params,) = [(name, params) for c, name, params in CASES if c == cid]
    return make_constraint(params[0], **params[1])


@dataclass
class Outcome:
    constraints: tuple[Constraint, ...]  # the batch is judged by their conjunction
    from_gecode: int  # the first rows: boards Gecode found for the MiniZinc faces
    twin_rows: int  # the first of those: boards that violate the twin, if there is one
    satisfying: int  # the first rows: those, then fair shuffles the Python faces accept
    terrain: np.ndarray
    numbers: np.ndarray
    harbors: np.ndarray
    python: np.ndarray
    minizinc: dict[str, np.ndarray]

    @property
    def label(self) -> str:
        return " & ".join(c.describe() for c in self.constraints)


def _evaluate(
    constraints: tuple[Constraint, ...],
    helpers: tuple[Constraint, ...],
    twin: Constraint | None,
    seed: int,
) -> Outcome:
    """Build a batch for ``constraints`` and judge it by both faces of their conjunction."""
    rng = np.random.default_rng(seed)
    contrast = shuffles(rng, 0)
    if twin is not None:
        contrast = solver_boards((*constraints, *helpers), N_TWIN, seed + 1, violating=(twin,))
    accepted = rejection_boards(constraints, N_SOLVED // 2, seed)
    gecode = solver_boards((*constraints, *helpers), N_SOLVED - len(accepted[0]), seed)
    gecode = tuple(np.concatenate(p) for p in zip(contrast, gecode, strict=True))
    satisfying = tuple(np.concatenate(p) for p in zip(gecode, accepted, strict=True))
    mutants = mutate(rng, *satisfying, N_MUTANTS)
    fair = shuffles(rng, N_SHUFFLES)
    t, n, h = (np.concatenate(p) for p in zip(satisfying, mutants, fair, strict=True))
    python = np.ones(len(t), dtype=bool)
    for c in constraints:
        python &= c.check(t, n, h)
    expr = " /\\ ".join(f"({c.minizinc()})" for c in constraints)
    mzn = minizinc_face(expr, t, n, h)
    return Outcome(
        constraints, len(gecode[0]), len(contrast[0]), len(satisfying[0]), t, n, h, python, mzn
    )


@pytest.fixture(scope="module")
def outcomes() -> dict[str, Outcome]:
    """Every case and shipped set evaluated; the solver and MiniZinc calls are subprocesses,
    so a few threads keep the cores busy."""
    jobs = {
        cid: (
            (make_constraint(name, **params),),
            tuple(make_constraint(hn, **hp) for hn, hp in HELPERS.get(cid, [])),
            _case(TWINS[cid]) if cid in TWINS else None,
            1000 + 10 * i,
        )
        for i, (cid, name, params) in enumerate(CASES)
    }
    for i, set_name in enumerate(SOLVABLE_SETS):
        jobs[f"set:{set_name}"] = (
            load_constraint_set(set_name).constraints,
            (),
            None,
            2000 + 10 * i,
        )
    with ThreadPoolExecutor(max_workers=(os.cpu_count() or 1) + 1) as pool:
        futures = {key: pool.submit(_evaluate, *job) for key, job in jobs.items()}
        return {key: f.result() for key, f in futures.items()}


def _disagreements(out: Outcome, key: str) -> str:
    bad = np.flatnonzero(out.python != out.minizinc[key])
    lines = [
        f"{out.label}: {len(bad)} of {len(out.python)} boards differ ({key}); first "
        f"ones (terrain / numbers / harbors, Python verdict):"
    ]
    for i in bad[:5]:
        lines.append(
            f"  board {i}: {out.terrain[i].tolist()} / {out.numbers[i].tolist()} / "
            f"{out.harbors[i].tolist()}, python={bool(out.python[i])}"
        )
    return "\n".join(lines)


def _check(out: Outcome) -> None:
    assert_valid(out.terrain, out.numbers, out.harbors)
    assert out.from_gecode >= MIN_GECODE, f"{out.label}: Gecode found {out.from_gecode} boards"
    assert out.satisfying >= MIN_SATISFYING, f"{out.label}: {out.satisfying} satisfying boards"
    # Gecode's boards satisfy the MiniZinc faces (posted as model constraints, propagated and
    # searched by Gecode): the Python faces must accept every one of them.
    assert out.python[: out.from_gecode].all(), (
        f"{out.label}: the Python face rejects boards found for the MiniZinc face: rows "
        f"{np.flatnonzero(~out.python[: out.from_gecode])[:5].tolist()}"
    )
    expr = " ".join(c.minizinc() for c in out.constraints)
    assert sorted(out.minizinc) == sorted(face_keys(expr))
    for key in sorted(out.minizinc):
        assert (out.python == out.minizinc[key]).all(), _disagreements(out, key)
    n_true = int(out.python.sum())
    assert MIN_EACH <= n_true <= len(out.python) - MIN_EACH, (
        f"{out.label}: {n_true} of {len(out.python)} boards satisfy it; the batch needs both "
        f"verdicts to be able to catch a disagreement"
    )


def test_every_registered_constraint_is_covered():
    covered = {name for _, name, _ in CASES}
    assert covered == set(REGISTRY), f"cases missing for {sorted(set(REGISTRY) - covered)}"
    assert len({cid for cid, _, _ in CASES}) == len(CASES)


def test_every_choice_of_every_parameter_is_covered():
    for cname, cls in REGISTRY.items():
        for key, p in cls.params.items():
            if p.kind != "choice":
                continue
            used = {params.get(key, p.default) for _, name, params in CASES if name == cname}
            assert used == set(p.choices), f"{cname}.{key}: cases cover {used}, not {p.choices}"


def test_both_overloads_of_distinct_numbers_per_terrain_are_judged():
    """The library defines it twice: for a var terrain (decision variables) and for a given
    terrain (a set that fixes the tiles). Which one MiniZinc picks depends on the arguments
    at hand, so the batch model judges each definition on its own as well."""
    name = "distinct_numbers_per_terrain"
    assert name in overloaded_predicates()
    definitions = predicate_definitions(name)
    assert len(definitions) == 2
    assert [("array[int] of int: terrain" in d) for d in definitions] == [False, True]
    expr = make_constraint("different-numbers-within-resource").minizinc()
    assert face_keys(expr) == ["ok", f"ok_{name}_0", f"ok_{name}_1"]
    assert "different-numbers-within-resource" in {name for _, name, _ in CASES}


@pytest.mark.parametrize("case", [cid for cid, _, _ in CASES])
def test_faces_agree(outcomes, case):
    _check(outcomes[case])


@pytest.mark.parametrize("case", sorted(TWINS))
def test_twins_are_told_apart(outcomes, case):
    """The batch holds boards on which the case and its twin differ, and the twin's Python
    face rejects them (the case's own faces are held to agree on them as on all others)."""
    out, twin = outcomes[case], _case(TWINS[case])
    assert out.twin_rows >= MIN_TWIN, f"{case}: only {out.twin_rows} boards tell it from {twin}"
    rows = slice(0, out.twin_rows)
    assert out.python[rows].all()
    assert not twin.check(out.terrain[rows], out.numbers[rows], out.harbors[rows]).any()


@pytest.mark.parametrize("set_name", SOLVABLE_SETS)
def test_shipped_sets_faces_agree(outcomes, set_name):
    """Whole shipped sets: the conjunction of the MiniZinc faces against the Python faces, and
    every board of the set's own model passes the Python faces."""
    _check(outcomes[f"set:{set_name}"])


@pytest.mark.parametrize(
    "case",
    [
        "red-numbers-apart",
        "intersection-cap/numbers/all/22",
        "seed-2019-marker-threshold/25",
        "resource-pips/9-13",
    ],
)
def test_python_face_is_dtype_independent(outcomes, case):
    """The samplers hand the Python faces int8 arrays; the verdicts must not change."""
    out = outcomes[case]
    (c,) = out.constraints
    small = [a.astype(np.int8) for a in (out.terrain, out.numbers, out.harbors)]
    assert (c.check(*small) == out.python).all()


# ----------------------------------------------------------------------------------------------
# The rules (ludolab.research.catan.rules): the form the samplers check one board at a time.


@pytest.mark.parametrize("key", [cid for cid, _, _ in CASES] + [f"set:{s}" for s in SOLVABLE_SETS])
def test_rules_agree_with_the_python_face(outcomes, key):
    """Each constraint's rules, evaluated with numpy and by the compiled kernel one board at a
    time, judge the batch (satisfying boards, their mutants, fair shuffles) as its Python face
    does."""
    out = outcomes[key]
    rules = [r for c in out.constraints for r in c.rules()]
    assert (evaluate(rules, out.terrain, out.numbers, out.harbors) == out.python).all(), key
    checker = checker_for(list(out.constraints), N_HEXES, N_SLOTS)
    one_by_one = np.array(
        [
            checker.full(t.tolist(), n.tolist(), h.tolist())
            for t, n, h in zip(out.terrain, out.numbers, out.harbors, strict=True)
        ]
    )
    bad = np.flatnonzero(one_by_one != out.python)
    assert not bad.size, (
        f"{out.label}: the kernel and the Python face disagree on {bad.size} boards, e.g. "
        f"{out.terrain[bad[0]].tolist()} / {out.numbers[bad[0]].tolist()} / "
        f"{out.harbors[bad[0]].tolist()} (python: {bool(out.python[bad[0]])})"
    )


def test_every_constraint_has_rules():
    for cid, name, params in CASES:
        assert make_constraint(name, **params).rules(), cid
