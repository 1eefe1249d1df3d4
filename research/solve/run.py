"""`solve`: flatten a MiniZinc model and solve it with Gecode, in one front-end call.

Why a plain subprocess and not the `minizinc` Python package (0.10.0, installed): the package
runs ``minizinc --model-interface-only`` before every solve and drives the solver through
asyncio, so one magic-square solve costs about 0.10 s against 0.055 s for one direct
``minizinc --json-stream`` call (measured here, MiniZinc 2.6.4), and its asyncio loop clashes
with callers that run their own (Jupyter, Dask workers). The JSON stream is MiniZinc's stable
machine interface and gives us typed errors, statuses and statistics directly.

For many solves of one model with different seeds use `ludolab.research.solve.compile_model`, which
flattens once and then calls fzn-gecode only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ludolab.research.solve.errors import SolveError, UnknownResult, Unsatisfiable
from ludolab.research.solve.frontend import base_args, model_source, run_minizinc, staged
from ludolab.research.solve.result import SolveResult, SolverStats, Status
from ludolab.research.solve.seeds import gecode_seed
from ludolab.research.solve.toolchain import find_toolchain


def _from_json(value: Any) -> Any:
    """MiniZinc JSON values -> Python: sets {"set": [[1, 3], 5]} -> set, enums -> their name."""
    if isinstance(value, list):
        return [_from_json(v) for v in value]
    if isinstance(value, dict):
        if "set" in value:
            out: set[Any] = set()
            for part in value["set"]:
                if isinstance(part, list):  # an inclusive range [lo, hi]
                    out.update(range(part[0], part[1] + 1))
                else:
                    out.add(_from_json(part))
            return out
        if "e" in value:
            return value["e"]
    return value


def solver_time_limit_args(time_limit: float | None) -> list[str]:
    """``-t ms`` for Gecode: the limit covers search only, not MiniZinc's flattening."""
    if time_limit is None:
        return []
    if time_limit <= 0:
        raise ValueError(f"time_limit must be positive seconds, got {time_limit!r}")
    return ["-t", str(max(1, round(time_limit * 1000)))]


def solve(
    model: str | Path,
    data: Mapping[str, Any] | None = None,
    *,
    extra_code: str = "",
    all_solutions: bool = False,
    n_solutions: int | None = None,
    improving: int | None = None,
    time_limit: float | None = None,
    random_seed: int | None = None,
    label: str | None = None,
    model_name: str | None = None,
    include_dirs: Sequence[str | Path] = (),
) -> SolveResult:
    """Solve a MiniZinc model with Gecode.

    Args:
        model: a ``.mzn`` file (a `Path`, or a string naming an existing file / ending in
            ``.mzn``) or a string of MiniZinc code.
        data: parameter values, passed as a JSON data file (numpy values are fine).
        extra_code: MiniZinc appended to the model (e.g. a constraint set's snippets).
        all_solutions: satisfaction: every solution; optimisation: every improving solution.
        n_solutions: stop after this many solutions (satisfaction).
        improving: optimisation: stop after this many improving solutions (Gecode's own
            solution limit), the last being the answer; unlike ``time_limit`` the answer does
            not depend on the machine's speed (with ``random_seed`` fixed for random search).
        time_limit: seconds of search (flattening not included).
        random_seed: Gecode's ``-r`` seed; matters only for models with random search.
        label: e.g. ``"constraint set 'balanced'"``; named in every error message.
        model_name: how messages call a model given as code (default ``model.mzn``).
        include_dirs: extra MiniZinc include directories.

    Returns a `SolveResult`. Satisfaction: `Status.SATISFIED`, or `Status.ALL_SOLUTIONS` when
    the search completed. Optimisation: `Status.OPTIMAL` when proven; when the time limit
    stops it first, the best solution so far with `Status.SATISFIED` and ``time_limit_hit``.

    Raises `Unsatisfiable` (proven no solution), `UnknownResult` (no solution before the
    time limit), `ModelError` (MiniZinc rejected model or data), `ToolchainMissing`.
    """
    if sum((all_solutions, n_solutions is not None, improving is not None)) > 1:
        raise ValueError("give one of all_solutions, n_solutions and improving")
    if improving is not None and improving < 1:
        raise ValueError(f"improving must be at least 1, got {improving}")
    if n_solutions is not None and n_solutions < 1:
        raise ValueError(f"n_solutions must be at least 1, got {n_solutions}")
    toolchain = find_toolchain()
    source = model_source(model, model_name)
    args = [*base_args(toolchain), "--output-objective", "-s"]
    if all_solutions:
        args.append("-a")
    elif n_solutions is not None:
        args += ["-n", str(n_solutions)]
    elif improving is not None:
        # MiniZinc 2.6.4's own -n counts solutions of satisfaction problems only.
        args += ["-a", "--fzn-flags", f"-n {improving}"]
    args += solver_time_limit_args(time_limit)
    if random_seed is not None:
        args += ["-r", str(gecode_seed(random_seed))]

    with staged(source, data, extra_code, include_dirs, toolchain) as files:
        args += [*files.include_args, *(str(f) for f in files.files)]
        messages = run_minizinc(toolchain, args, files, model=source.name, label=label)

    solutions: list[dict[str, Any]] = []
    objective: int | float | None = None
    status: str | None = None
    method = "satisfy"
    raw_stats: dict[str, Any] = {}
    for msg in messages:
        kind = msg.get("type")
        if kind == "solution":
            output = msg.get("output", {}).get("json", {})
            if isinstance(output, str):
                output = json.loads(output)
            solution = {k: _from_json(v) for k, v in output.items() if not k.startswith("_")}
            if "_objective" in output:
                objective = output["_objective"]
            solutions.append(solution)
        elif kind == "status":
            status = msg.get("status")
        elif kind == "statistics":
            stats = msg.get("statistics", {})
            method = str(stats.get("method", method)).strip('"')
            raw_stats.update(stats)

    name, optimising = source.name, method in ("minimize", "maximize")
    if status == "UNSATISFIABLE":
        raise Unsatisfiable(model=name, label=label)
    if status in ("UNBOUNDED", "UNSAT_OR_UNBOUNDED"):
        raise SolveError(f"the objective is unbounded ({status})", model=name, label=label)
    if status == "UNKNOWN" or not solutions:
        raise UnknownResult(model=name, label=label, time_limit=time_limit)

    if status == "OPTIMAL_SOLUTION":
        final = Status.OPTIMAL
    elif status == "ALL_SOLUTIONS":
        final = Status.ALL_SOLUTIONS
    else:
        # MiniZinc 2.6.4 prints no status at all when the search stopped early (time limit or
        # solution count), so "wanted a complete search and did not get one" is the signal.
        final = Status.SATISFIED
    incomplete = final is Status.SATISFIED and (
        optimising or all_solutions or (n_solutions is not None and len(solutions) < n_solutions)
    )
    return SolveResult(
        status=final,
        solutions=solutions,
        objective=objective if optimising else None,
        stats=SolverStats.from_mapping(raw_stats),
        model=name,
        label=label,
        time_limit_hit=incomplete and time_limit is not None,
        time_limit=time_limit,
    )
