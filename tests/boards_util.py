"""Helpers for the constraint tests: board batches, mutations, and MiniZinc batch evaluation.

Boards are integer arrays as the Python faces take them: terrain (B, 19), numbers (B, 19),
harbors (B, 9), codes as in ``ludolab.envs.catan.board``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from importlib import resources

import numpy as np
import pytest

from ludolab.envs.catan.board import DESERT, HARBOR_TYPES, TERRAINS
from ludolab.envs.catan.topology import load_layout
from ludolab.research.catan.constraints import Constraint
from ludolab.research.solve import compile_model, find_toolchain, solve
from ludolab.research.solve.fzn_output import parse_solution_stream

needs_minizinc = pytest.mark.skipif(
    shutil.which("minizinc") is None or shutil.which("fzn-gecode") is None,
    reason="MiniZinc/Gecode not installed (make setup)",
)

LAYOUT = load_layout("standard")
N_HEXES = LAYOUT.n_hexes
N_SLOTS = len(LAYOUT.harbor_slots)

# The 2019 seed's first board (its tile layout) and its unique marker layout at threshold 22.
SEED_TERRAIN_NAMES = [
    "desert",
    "lumber",
    "wool",
    "brick",
    "grain",
    "ore",
    "lumber",
    "ore",
    "wool",
    "brick",
    "wool",
    "grain",
    "lumber",
    "grain",
    "ore",
    "brick",
    "wool",
    "lumber",
    "grain",
]
SEED_TERRAIN = [TERRAINS.index(t) for t in SEED_TERRAIN_NAMES]
SEED_NUMBERS = [0, 9, 6, 8, 5, 4, 11, 10, 3, 12, 5, 4, 8, 2, 3, 11, 9, 10, 6]


def library_text() -> str:
    return (resources.files("ludolab.research.catan") / "models" / "library.mzn").read_text()


# ----------------------------------------------------------------------------------------------
# Board batches


def tiles() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The standard layout's terrain tiles, number tokens and harbor types (sorted)."""
    terrain = np.repeat(
        np.arange(len(TERRAINS)), [LAYOUT.resource_counts.get(t, 0) for t in TERRAINS]
    )
    values = sorted(LAYOUT.number_counts)
    tokens = np.repeat(values, [LAYOUT.number_counts[v] for v in values])
    harbors = np.repeat(
        np.arange(len(HARBOR_TYPES)), [LAYOUT.harbor_counts.get(h, 0) for h in HARBOR_TYPES]
    )
    return terrain, tokens, harbors


def place_tokens(terrain: np.ndarray, tokens: np.ndarray) -> np.ndarray:
    """(B, 19) numbers: ``tokens`` (B, 18) laid on the producing hexes in reading order."""
    numbers = np.zeros(terrain.shape, dtype=np.int64)
    numbers[terrain != DESERT] = np.asarray(tokens).reshape(-1)
    return numbers


def shuffles(rng: np.random.Generator, b: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``b`` fair shuffles (terrain, numbers, harbors), int64."""
    t0, n0, h0 = tiles()
    terrain = rng.permuted(np.broadcast_to(t0, (b, t0.size)), axis=1)
    numbers = place_tokens(terrain, rng.permuted(np.broadcast_to(n0, (b, n0.size)), axis=1))
    harbors = rng.permuted(np.broadcast_to(h0, (b, h0.size)), axis=1)
    return terrain, numbers, harbors


# A model whose solutions are the parts of a board that {expr} reads (numbers bring the
# terrain: the desert is where the token is missing), with the layout's counts, and a
# randomised search. Not ludolab.research.catan.model.board_model: there Gecode 6.2.0's
# global_cardinality on the number tokens can spin forever inside propagation (ignoring -t
# and SIGINT), so the token counts here are sums.
GENERATOR_PARTS = {
    "terrain": """\
array[1..{H}] of var 0..{T}: terrain;
constraint global_cardinality(terrain, {terrain_values}, {terrain_counts});
""",
    "numbers": """\
array[1..{H}] of var {{{values}}}: number;
constraint forall(k in index_set({number_values}))(
  sum(h in 1..{H})(bool2int(number[h] = {number_values}[k])) = {number_counts}[k]);
constraint forall(h in 1..{H})(number[h] = 0 <-> terrain[h] = {desert});
""",
    "harbors": """\
array[1..{S}] of var 0..{T}: harbor;
constraint global_cardinality(harbor, {harbor_values}, {harbor_counts});
""",
}
VARIABLES = {"terrain": "terrain", "numbers": "number", "harbors": "harbor"}


def generator_model(expr: str, parts: list[str], restarts: bool) -> str:
    values = sorted(LAYOUT.number_counts)
    n_desert = LAYOUT.resource_counts.get("desert", 0)
    fields = dict(
        H=N_HEXES,
        S=N_SLOTS,
        T=len(TERRAINS) - 1,
        values=", ".join(map(str, [0, *values])),
        terrain_values=list(range(len(TERRAINS))),
        terrain_counts=[LAYOUT.resource_counts.get(t, 0) for t in TERRAINS],
        number_values=[0, *values],
        number_counts=[n_desert, *(LAYOUT.number_counts[v] for v in values)],
        harbor_values=list(range(len(HARBOR_TYPES))),
        harbor_counts=[LAYOUT.harbor_counts.get(h, 0) for h in HARBOR_TYPES],
        desert=DESERT,
    )
    names = [VARIABLES[p] for p in parts]
    if restarts:
        search = f"int_search({' ++ '.join(names)}, dom_w_deg, indomain_random)"
    else:
        search = (
            "seq_search(["
            + ", ".join(f"int_search({v}, first_fail, indomain_random)" for v in names)
            + "])"
        )
    return "\n".join(
        [
            'include "alldifferent.mzn";',
            'include "global_cardinality.mzn";',
            library_text(),
            *(GENERATOR_PARTS[p].format(**fields) for p in parts),
            f"constraint {expr};",
            f"solve :: {search} satisfy;",
            "",
        ]
    )


def solver_boards(
    constraints: tuple[Constraint, ...],
    n: int,
    seed: int,
    *,
    violating: tuple[Constraint, ...] = (),
    runs: int = 3,
    max_runs: int = 16,
    per_run: int = 50,
    failures: int = 20_000,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Up to ``n`` boards whose parts read by ``constraints`` satisfy their MiniZinc faces, found
    by Gecode (fzn-gecode straight on the flattened model) and distinct in those parts; parts
    no constraint reads are fair shuffles (and then there are ``n`` boards, repeating
    solutions when there are fewer).

    Deterministic: fixed seeds, and each run is cut by a failure count, not by time. Which
    search finds boards fast depends on the constraint, so first ``runs`` runs of each of two
    searches: randomised depth-first search (solutions within a run are alike, so several
    seeds) and dom_w_deg with Luby restarts (more diverse, slow on some constraints); then
    more runs of the one that found more, up to ``max_runs`` runs in all.

    With ``violating``, the boards also violate (the conjunction of) those constraints.
    """
    reads = set().union(*(c.reads for c in (*constraints, *violating)))
    if "numbers" in reads:
        reads.add("terrain")
    parts = [p for p in VARIABLES if p in reads]
    expr = " /\\ ".join(f"({c.minizinc()})" for c in constraints)
    if violating:
        expr += " /\\ not (" + " /\\ ".join(f"({c.minizinc()})" for c in violating) + ")"
    rng = np.random.default_rng(seed)
    fzn = {
        restarts: compile_model(generator_model(expr, parts, restarts), label="test boards").fzn
        for restarts in (False, True)
    }
    found: dict[tuple, dict] = {}
    yields = {False: 0, True: 0}
    schedule = [False] * runs + [True] * runs
    for i in range(max_runs):
        if len(found) >= n:
            break
        restarts = schedule[i] if i < len(schedule) else max(yields, key=yields.__getitem__)
        flags = [
            "-r",
            str(int(rng.integers(1, 2**31 - 2))),
            "-n",
            str(per_run),
            "-fail",
            str(failures),
        ]
        if restarts:
            flags += ["-restart", "luby", "-restart-scale", "100"]
        before = len(found)
        for sol in _fzn_run(fzn[restarts], flags):
            found.setdefault(tuple(tuple(sol[VARIABLES[p]]) for p in parts), sol)
        yields[restarts] += len(found) - before
    solutions = list(found.values())
    solutions = [solutions[i] for i in sorted(rng.permutation(len(solutions))[:n])]
    if solutions and len(parts) < len(VARIABLES):
        # Parts no constraint reads are shuffled: repeat solutions (e.g. a fixed terrain, which
        # has one) to give n boards that differ there.
        solutions += [solutions[i] for i in rng.integers(0, len(solutions), n - len(solutions))]
    b = len(solutions)
    terrain, numbers, harbors = shuffles(rng, b)
    decided = {p: np.array([s[VARIABLES[p]] for s in solutions], dtype=np.int64) for p in parts}
    terrain = decided["terrain"].reshape(b, N_HEXES) if "terrain" in decided else terrain
    if "numbers" in decided:
        numbers = decided["numbers"].reshape(b, N_HEXES)
    else:  # re-lay the shuffled tokens on this terrain's producing hexes
        numbers = place_tokens(terrain, numbers[numbers != 0].reshape(b, -1))
    harbors = decided["harbors"].reshape(b, N_SLOTS) if "harbors" in decided else harbors
    return terrain, numbers, harbors


def _fzn_run(fzn: str, flags: list[str], timeout: float = 300.0) -> list[dict]:
    """Solutions of one fzn-gecode run, which a failure count ends (a run takes well under a
    second). The timeout is a guard against a hang only."""
    cmd = [str(find_toolchain().fzn_gecode), *flags, "-"]
    proc = subprocess.run(cmd, input=fzn, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stderr
    return parse_solution_stream(proc.stdout).solutions


def rejection_boards(
    constraints: tuple[Constraint, ...], n: int, seed: int, draws: int = 50_000
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Up to ``n`` fair shuffles (of ``draws``) that the Python faces accept."""
    t, nu, h = shuffles(np.random.default_rng(seed), draws)
    ok = np.ones(draws, dtype=bool)
    for c in constraints:
        ok &= c.check(t, nu, h)
    keep = np.flatnonzero(ok)[:n]
    return t[keep], nu[keep], h[keep]


def mutate(
    rng: np.random.Generator,
    terrain: np.ndarray,
    numbers: np.ndarray,
    harbors: np.ndarray,
    copies: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``copies`` mutants of every board, each one to three small swaps that keep it valid:
    two hexes' terrain and number, two producing hexes' numbers, two producing hexes' terrain,
    or two harbor slots."""
    t = np.repeat(terrain, copies, axis=0)
    n = np.repeat(numbers, copies, axis=0)
    h = np.repeat(harbors, copies, axis=0)
    for i in range(len(t)):
        for _ in range(rng.integers(1, 4)):
            kind = rng.integers(0, 4)
            if kind == 0:
                a, b = rng.choice(N_HEXES, 2, replace=False)
                t[i, [a, b]] = t[i, [b, a]]
                n[i, [a, b]] = n[i, [b, a]]
            elif kind in (1, 2):
                a, b = rng.choice(np.flatnonzero(t[i] != DESERT), 2, replace=False)
                arr = n if kind == 1 else t
                arr[i, [a, b]] = arr[i, [b, a]]
            else:
                a, b = rng.choice(N_SLOTS, 2, replace=False)
                h[i, [a, b]] = h[i, [b, a]]
    return t, n, h


def assert_valid(terrain: np.ndarray, numbers: np.ndarray, harbors: np.ndarray) -> None:
    """Every board has the standard counts and tokens exactly on the producing hexes."""
    t0, n0, h0 = tiles()
    assert (np.sort(terrain, axis=1) == t0).all()
    assert ((numbers == 0) == (terrain == DESERT)).all()
    assert (np.sort(numbers, axis=1)[:, 1:] == n0).all()
    assert (np.sort(harbors, axis=1) == h0).all()


# ----------------------------------------------------------------------------------------------
# The MiniZinc face on a batch, in one MiniZinc call

BATCH_MODEL = """\
include "alldifferent.mzn";
include "global_cardinality.mzn";
{library}
int: B;
array[1..B, 1..{H}] of int: T;
array[1..B, 1..{H}] of int: N;
array[1..B, 1..{S}] of int: HB;
{wrappers}
solve satisfy;
"""

WRAPPER = """
{definitions}
predicate face_{key}(array[int] of {terrain_type}int: terrain, array[int] of var int: number,
                   array[int] of var int: harbor) =
  {expr};
array[1..B] of var bool: {key};
constraint forall(b in 1..B)({key}[b] <-> face_{key}(
  [T[b, h] | h in 1..{H}], [N[b, h] | h in 1..{H}], [HB[b, s] | s in 1..{S}]));
"""


def _items(text: str) -> list[str]:
    """The items of a MiniZinc text (comments dropped; items end with ';')."""
    code = "\n".join(line.split("%", 1)[0] for line in text.splitlines())
    return [item.strip() for item in code.split(";") if item.strip()]


def predicate_definitions(name: str) -> list[str]:
    """Every definition of library predicate ``name`` (one per overload), without the ';'."""
    return [item for item in _items(library_text()) if re.match(rf"predicate\s+{name}\s*\(", item)]


def overloaded_predicates() -> set[str]:
    """Library predicates defined more than once (e.g. a par-terrain overload)."""
    names = re.findall(r"^\s*predicate\s+(\w+)\s*\(", library_text(), re.MULTILINE)
    return {n for n in names if names.count(n) > 1}


def face_keys(expr: str) -> list[str]:
    """The verdicts :func:`minizinc_face` returns for ``expr``: ``ok`` (the library as it is)
    and ``ok_<predicate>_<k>`` for each definition k of an overloaded predicate it calls."""
    return ["ok"] + [
        f"ok_{name}_{k}"
        for name in sorted(overloaded_predicates())
        if re.search(rf"\b{name}\(", expr)
        for k in range(len(predicate_definitions(name)))
    ]


def batch_model(expr: str) -> str:
    """A model that judges every board of the data by ``expr``, see :func:`minizinc_face`."""
    fields = {"H": N_HEXES, "S": N_SLOTS}
    wrappers = [WRAPPER.format(key="ok", definitions="", terrain_type="var ", expr=expr, **fields)]
    for key in face_keys(expr)[1:]:
        name, k = key[3:].rsplit("_", 1)
        renamed = f"{name}__{k}"
        definition = re.sub(
            rf"predicate\s+{name}\s*\(",
            f"predicate {renamed}(",
            predicate_definitions(name)[int(k)],
            count=1,
        )
        # The terrain typed par, so that both a var- and a par-terrain definition apply.
        wrappers.append(
            WRAPPER.format(
                key=key,
                definitions=definition + ";",
                terrain_type="",
                expr=re.sub(rf"\b{name}\(", f"{renamed}(", expr),
                **fields,
            )
        )
    return BATCH_MODEL.format(library=library_text(), wrappers="".join(wrappers), **fields)


def minizinc_face(
    expr: str,
    terrain: np.ndarray,
    numbers: np.ndarray,
    harbors: np.ndarray,
    *,
    label: str | None = None,
) -> dict[str, np.ndarray]:
    """Judge every board of the batch by the MiniZinc expression ``expr``, in ONE call.

    The boards are data, so MiniZinc evaluates ``expr`` (via the library's predicates) while
    flattening. Returns {key: (B,) bool} for the keys of :func:`face_keys`: for an overloaded
    predicate MiniZinc picks the overload from the arguments at hand (here all data), so
    each definition is also judged on its own, under another name.
    """
    data = {
        "B": len(terrain),
        "T": np.asarray(terrain, dtype=np.int64),
        "N": np.asarray(numbers, dtype=np.int64),
        "HB": np.asarray(harbors, dtype=np.int64),
    }
    result = solve(batch_model(expr), data, label=label, model_name="faces.mzn")
    (solution,) = result.solutions
    return {k: np.array(v, dtype=bool) for k, v in solution.items() if k.startswith("ok")}
