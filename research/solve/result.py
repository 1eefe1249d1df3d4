"""What a solver run returns: a status, the solutions, and Gecode's search statistics.

Also the parsers for Gecode's statistics, which arrive in three dialects:

- MiniZinc's ``%%%mzn-stat: nodes=2499`` lines (MiniZinc >= 2.5, and fzn-gecode 6.x ``-s``),
- the older ``%%%mzn-stat nodes=2499`` without the colon,
- the Gecode 5-era fzn-gecode ``-s`` block (``%%  nodes:         2499``,
  ``%%  runtime:       0.005 (5.231 ms)``, ``%%  peak depth:    7``),

plus the ``{"type": "statistics", ...}`` objects of ``minizinc --json-stream``.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ludolab.research.solve.errors import UnknownResult, Unsatisfiable


class Status(enum.Enum):
    """How a run ended."""

    SATISFIED = "satisfied"  # at least one solution; search not complete (or not asked to be)
    ALL_SOLUTIONS = "all_solutions"  # search complete, every solution was returned
    OPTIMAL = "optimal"  # optimisation with optimality proven
    UNSATISFIABLE = "unsatisfiable"  # proven: no solution exists
    UNKNOWN = "unknown"  # no solution and no proof (e.g. the time limit ran out first)


@dataclass(frozen=True)
class SolverStats:
    """Gecode's search statistics for one run (or the sum over the runs of a batch).

    Times are in seconds; `init_time` is None when the solver does not report it.
    `variables` and `propagators` describe the FlatZinc problem (None if not reported).
    """

    nodes: int
    failures: int
    propagations: int
    peak_depth: int
    solve_time: float
    init_time: float | None
    solutions: int
    restarts: int
    variables: int | None
    propagators: int | None

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any]) -> SolverStats | None:
        """Build from a key -> value mapping in any of the dialects; None if no search stats."""
        norm: dict[str, Any] = {}
        for key, value in raw.items():
            field = _FIELD_FOR_KEY.get(key.strip().lower().replace(" ", "").replace("_", ""))
            if field is not None:
                norm[field] = value
        if "nodes" not in norm:  # e.g. only MiniZinc's flattening statistics
            return None
        solve_time = norm.get("solve_time", norm.get("run_time", 0.0))

        def opt_int(name: str) -> int | None:
            return int(norm[name]) if name in norm else None

        return cls(
            nodes=int(norm["nodes"]),
            failures=int(norm.get("failures", 0)),
            propagations=int(norm.get("propagations", 0)),
            peak_depth=int(norm.get("peak_depth", 0)),
            solve_time=float(solve_time),
            init_time=float(norm["init_time"]) if "init_time" in norm else None,
            solutions=int(norm.get("solutions", 0)),
            restarts=int(norm.get("restarts", 0)),
            variables=opt_int("variables"),
            propagators=opt_int("propagators"),
        )


# Statistic names (lower-cased, spaces and underscores removed) -> SolverStats field.
_FIELD_FOR_KEY = {
    "nodes": "nodes",
    "failures": "failures",
    "propagations": "propagations",
    "peakdepth": "peak_depth",
    "solvetime": "solve_time",
    "runtime": "run_time",  # Gecode 5 total time; used only when solvetime is absent
    "inittime": "init_time",
    "solutions": "solutions",
    "restarts": "restarts",
    "variables": "variables",
    "propagators": "propagators",
}

# `%%%mzn-stat: nodes=31` and the colon-less `%%%mzn-stat nodes=31`.
_MZN_STAT = re.compile(r"^%%%mzn-stat:?\s+([A-Za-z_][\w ]*?)\s*=\s*(\S+)\s*$")
# Gecode 5: `%%  runtime:       0.005 (5.231 ms)`, `%%  peak depth:    7`.
_GECODE_STAT = re.compile(
    r"^%%\s+([a-z][a-z ]*?):\s+(-?[\d.eE+-]+)(?:\s+\(([\d.eE+-]+)\s*ms\))?\s*$"
)


def _number(text: str) -> int | float | str:
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text.strip('"')


def parse_statistics_lines(lines: Iterable[str]) -> dict[str, int | float | str]:
    """Collect statistics from solver output lines in any text dialect (later lines win)."""
    found: dict[str, int | float | str] = {}
    for line in lines:
        line = line.strip()
        if match := _MZN_STAT.match(line):
            found[match.group(1)] = _number(match.group(2))
        elif match := _GECODE_STAT.match(line):
            key, value, millis = match.groups()
            # The millisecond figure in brackets is the more precise one.
            found[key] = float(millis) / 1000.0 if millis else _number(value)
    return found


def parse_statistics(text: str) -> SolverStats | None:
    """Parse Gecode statistics from solver output text; None if there are none."""
    return SolverStats.from_mapping(parse_statistics_lines(text.splitlines()))


@dataclass
class SolveResult:
    """The outcome of one solve, sample or enumeration.

    `solutions` holds one dict per solution: each MiniZinc output variable by name; arrays as
    (nested) lists, ints as int, bools as bool, sets as ``set``. For optimisation the
    solutions are in the order found (each better than the last) and `objective` is the best.
    """

    status: Status
    solutions: list[dict[str, Any]]
    objective: int | float | None
    stats: SolverStats | None
    model: str
    label: str | None
    time_limit_hit: bool = False
    time_limit: float | None = None  # seconds, as requested (for messages)

    @property
    def solution(self) -> dict[str, Any]:
        """The best solution (optimisation) or the first one (satisfaction).

        Raises `Unsatisfiable` or `UnknownResult` when there is none.
        """
        if not self.solutions:
            if self.status is Status.UNSATISFIABLE:
                raise Unsatisfiable(model=self.model, label=self.label)
            raise UnknownResult(model=self.model, label=self.label, time_limit=self.time_limit)
        return self.solutions[-1] if self.objective is not None else self.solutions[0]
