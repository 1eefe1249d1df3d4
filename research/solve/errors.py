"""Errors raised by `ludolab.research.solve`, written for the person who has to fix the problem.

Every error that concerns a model names it (file name, or the label given with model code) and,
when the caller passed one, the constraint-set label, e.g.
``magic_square.mzn (constraint set 'balanced'): no solution exists ...``.
"""

from __future__ import annotations

INSTALL_HINT = (
    "Install MiniZinc with Gecode: on Debian/Ubuntu `sudo apt-get install minizinc flatzinc`; "
    "in this project `make setup` does it for you; elsewhere take the MiniZinc bundle from "
    "https://www.minizinc.org and put `minizinc` and `fzn-gecode` on PATH "
    "(or point LUDOLAB_MINIZINC / LUDOLAB_FZN_GECODE at them)."
)


def subject(model: str | None, label: str | None) -> str:
    """The words that open a message: ``"model.mzn (constraint set 'x')"``."""
    name = model or "MiniZinc model"
    return f"{name} ({label})" if label else name


class SolveError(Exception):
    """Base of every error raised by `ludolab.research.solve`.

    ``str(err)`` is the full message; `detail` is the part after the model/label prefix.
    """

    def __init__(self, detail: str, *, model: str | None = None, label: str | None = None):
        self.detail = detail
        self.model = model
        self.label = label
        super().__init__(f"{subject(model, label)}: {detail}" if model or label else detail)


class ToolchainMissing(SolveError):
    """`minizinc` or `fzn-gecode` cannot be found or does not run."""

    def __init__(self, tool: str, problem: str):
        self.tool = tool
        super().__init__(f"{tool} {problem}. {INSTALL_HINT}")


class Unsatisfiable(SolveError):
    """The solver proved that no assignment satisfies all constraints."""

    def __init__(self, *, model: str | None = None, label: str | None = None):
        super().__init__(
            "no solution exists: the solver proved the constraints unsatisfiable "
            "(UNSATISFIABLE). Relax or drop a constraint, or check the data.",
            model=model,
            label=label,
        )


class UnknownResult(SolveError):
    """The solver stopped without a solution and without proving there is none."""

    def __init__(
        self,
        *,
        model: str | None = None,
        label: str | None = None,
        time_limit: float | None = None,
    ):
        self.time_limit = time_limit
        if time_limit is not None:
            why = f"the time limit of {time_limit:g} s ran out before any solution was found"
            fix = "Raise time_limit, or loosen the constraints."
        else:
            why = "the solver stopped without a solution and without an unsatisfiability proof"
            fix = "Run again with statistics to see how far the search got."
        super().__init__(f"{why} (UNKNOWN). {fix}", model=model, label=label)


class ModelError(SolveError):
    """MiniZinc rejected the model or data (syntax error, type error, failed assertion...).

    `detail` carries MiniZinc's own message, with the deprecation-warning noise removed.
    """


class MiniZincWarning(UserWarning):
    """A real MiniZinc warning (the harmless Debian deprecation notices are never raised)."""
