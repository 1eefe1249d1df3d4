"""The one door to MiniZinc: find the toolchain, solve, compile once and sample many times.

    from ludolab.research.solve import solve, compile_model
    result = solve("model.mzn", {"n": 5}, all_solutions=True, label="constraint set 'x'")
    boards = compile_model("board.mzn", data).sample(seed=7, n=100)

See DESIGN.md ("MiniZinc on this platform") for the Debian 12 toolchain's quirks.
"""

from ludolab.research.solve.errors import (
    MiniZincWarning,
    ModelError,
    SolveError,
    ToolchainMissing,
    UnknownResult,
    Unsatisfiable,
)
from ludolab.research.solve.flatzinc import CompiledModel, compile_model
from ludolab.research.solve.result import SolveResult, SolverStats, Status, parse_statistics
from ludolab.research.solve.run import solve
from ludolab.research.solve.seeds import gecode_seed
from ludolab.research.solve.toolchain import Toolchain, find_toolchain

__all__ = [
    "CompiledModel",
    "MiniZincWarning",
    "ModelError",
    "SolveError",
    "SolveResult",
    "SolverStats",
    "Status",
    "Toolchain",
    "ToolchainMissing",
    "UnknownResult",
    "Unsatisfiable",
    "compile_model",
    "find_toolchain",
    "gecode_seed",
    "parse_statistics",
    "solve",
]
