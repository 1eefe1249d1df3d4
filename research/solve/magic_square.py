"""Magic-square smoke test: does the toolchain work, and what does symmetry breaking buy?

The seed's first example: 8 magic squares without symmetry breaking, exactly 1 with the two
corner constraints, and a much smaller search tree (seed: 2659 vs 31 nodes).
"""

from __future__ import annotations

from pathlib import Path

from ludolab.research.solve.result import SolveResult, SolverStats
from ludolab.research.solve.run import solve

MODEL = Path(__file__).parent / "models" / "magic_square.mzn"

PLAIN = "no symmetry breaking"
BROKEN = "symmetry breaking"

_SQUARES_PER_ROW = 4  # squares printed side by side


def magic_square(*, all_solutions: bool, break_symmetry: bool) -> SolveResult:
    """Solve the 3x3 magic square (first solution, or all) with or without symmetry breaking."""
    return solve(
        MODEL,
        {"break_symmetry": break_symmetry},
        all_solutions=all_solutions,
        label=BROKEN if break_symmetry else PLAIN,
    )


def _squares(result: SolveResult) -> list[str]:
    """The solutions as 3x3 grids, several side by side."""
    grids = [
        [" ".join(f"{v}" for v in sol["sq"][row * 3 : row * 3 + 3]) for row in range(3)]
        for sol in result.solutions
    ]
    lines: list[str] = []
    for start in range(0, len(grids), _SQUARES_PER_ROW):
        block = grids[start : start + _SQUARES_PER_ROW]
        if start:
            lines.append("")
        lines += ["  " + "   ".join(g[row] for g in block) for row in range(3)]
    return lines


def _heading(result: SolveResult) -> str:
    count = len(result.solutions)
    done = " (search complete)" if result.status.name == "ALL_SOLUTIONS" else ""
    plural = "s" if count != 1 else ""
    return f"Magic square, {result.label or PLAIN}: {count} solution{plural}{done}"


_STAT_ROWS: list[tuple[str, str]] = [
    ("solutions", "solutions"),
    ("nodes", "nodes"),
    ("failures", "failures"),
    ("propagations", "propagations"),
    ("peak depth", "peak_depth"),
    ("solve time (ms)", "solve_time"),
]


def _stat(stats: SolverStats | None, field: str) -> str:
    if stats is None:
        return "-"
    value = getattr(stats, field)
    return f"{value * 1000:.3f}" if field == "solve_time" else str(value)


def _stats_table(columns: list[tuple[str, SolveResult]]) -> list[str]:
    first = max(len(name) for name, _ in _STAT_ROWS)
    widths = [max(len(title), 10) for title, _ in columns]
    head = " " * first + "".join(f"  {t:>{w}}" for (t, _), w in zip(columns, widths, strict=True))
    rows = [head]
    for name, field in _STAT_ROWS:
        cells = "".join(
            f"  {_stat(r.stats, field):>{w}}" for (_, r), w in zip(columns, widths, strict=True)
        )
        rows.append(f"{name:<{first}}{cells}")
    return rows


def format_magic_square_report(
    plain: SolveResult, broken: SolveResult | None = None, *, stats: bool = True
) -> str:
    """The squares of each run (3 rows each) and Gecode's statistics.

    With both runs, the statistics are set side by side ("no symmetry breaking" vs
    "symmetry breaking"); with one run, `stats` decides whether its statistics are shown.
    """
    runs = [plain] + ([broken] if broken is not None else [])
    lines: list[str] = []
    for run in runs:
        lines += [_heading(run), *_squares(run), ""]
    if broken is not None:
        lines += _stats_table([(PLAIN, plain), (BROKEN, broken)])
    elif stats:
        lines += _stats_table([(plain.label or PLAIN, plain)])
    return "\n".join(lines).rstrip() + "\n"


def run_magic_square_cli(all_solutions: bool, stats: bool, break_symmetry: bool) -> str:
    """Text for ``ludolab solve magic-square [--all] [--stats] [--break-symmetry]``.

    ``--stats --break-symmetry`` solves both variants and compares their statistics;
    ``--stats`` alone shows the plain run's statistics; without ``--stats`` only squares.
    """
    if stats and break_symmetry:
        plain = magic_square(all_solutions=all_solutions, break_symmetry=False)
        broken = magic_square(all_solutions=all_solutions, break_symmetry=True)
        return format_magic_square_report(plain, broken)
    result = magic_square(all_solutions=all_solutions, break_symmetry=break_symmetry)
    return format_magic_square_report(result, stats=stats)
