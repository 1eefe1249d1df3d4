"""Generate boards for a constraint set with a chosen sampler, and check every one of them.

This is the function the CLI, the demo and (later) the experiment runner call. Whatever the
sampler, each board is validated against the layout and checked by the Python face of every
constraint before it is returned: a solver board that a Python face rejects means the two faces
disagree, which is a bug and stops the run.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ludolab.envs.catan.board import Board
from ludolab.research.catan.constraint_set import ConstraintSet
from ludolab.research.catan.feasibility import check_possible
from ludolab.research.catan.samplers import (
    SAMPLERS,
    SampleReport,
    SamplingError,
    UniformSettings,
    enumerate_boards,
    optimise_board,
    sample_solver,
    sample_uniform,
)


class FacesDisagree(RuntimeError):
    """A board from the solver violates a constraint's Python face."""


def generate_boards(
    cset: ConstraintSet,
    n: int | None,
    sampler: str,
    seed: int,
    *,
    objective: str = "pip-spread",
    time_limit: float | None = None,
    max_draws: int = 50_000_000,
    status: Callable[[str], None] | None = None,
) -> tuple[list[Board], SampleReport]:
    """Boards for ``cset`` from ``sampler``, reproducible from ``seed``.

    Args:
        cset: the constraint set.
        n: number of boards (``enumerate``: a cap, None = all; ``optimise``: must be 1 or None).
        sampler: one of ``uniform`` (exact where it can be, else Markov chains; never the
            solver), ``rejection`` or ``chain`` (one uniform method forced), ``solver`` (NOT
            uniform), ``enumerate``, ``optimise``.
        seed: the master seed; every random choice (shuffles, Gecode seeds) derives from it.
        objective: for ``optimise``.
        time_limit: seconds of solver search (``optimise`` defaults to 10 s; ``uniform`` and
            ``chain``: the search for the chains' starting boards). Without it, ``solver``,
            ``enumerate`` and the chains' starting boards search for the first board for at
            most :data:`~ludolab.research.catan.samplers.FIRST_BOARD_SECONDS`, then stop with
            an error that says the set may be impossible.
        max_draws: fair shuffles rejection may try.
        status: called with a line on what the uniform sampler is doing.

    Raises :class:`~ludolab.research.catan.samplers.ImpossibleSet` when the set provably has no
    board (:mod:`ludolab.research.catan.feasibility`'s checks, first; or Gecode's proof), and
    :class:`~ludolab.research.catan.samplers.SamplingError` when a sampler cannot deliver.
    """
    if sampler not in SAMPLERS:
        raise SamplingError(f"unknown sampler {sampler!r}; choose one of {', '.join(SAMPLERS)}")
    if n is not None and n < 1:
        raise SamplingError(f"the number of boards must be at least 1, got {n}")
    check_possible(cset)
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    if sampler in ("uniform", "rejection", "chain"):
        method = "auto" if sampler == "uniform" else sampler
        settings = UniformSettings(max_draws=max_draws, start_seconds=time_limit)
        boards, report = sample_uniform(
            cset, n or 1, rng, method=method, settings=settings, status=status
        )
    elif sampler == "solver":
        boards, report = sample_solver(cset, n or 1, rng, time_limit=time_limit)
    elif sampler == "enumerate":
        boards, report = enumerate_boards(cset, rng, limit=n, time_limit=time_limit)
    else:
        if n not in (None, 1):
            raise SamplingError(
                "the optimise sampler returns one board: the best it finds (use -n 1)"
            )
        boards, report = optimise_board(cset, objective, rng, time_limit=time_limit or 10.0)
    verify_boards(cset, boards)
    return boards, report


def verify_boards(cset: ConstraintSet, boards: list[Board]) -> None:
    """Validate each board and check it with every Python face; raise on the first failure."""
    if not boards:
        return
    for board in boards:
        board.validate(f"board {board.id}")
    terrain = np.array([b.terrain for b in boards])
    numbers = np.array([b.numbers for b in boards])
    harbors = np.array([b.harbors for b in boards])
    ok = cset.check(terrain, numbers, harbors)
    if not ok.all():
        i = int(np.flatnonzero(~ok)[0])
        broken = cset.violated(terrain[i], numbers[i], harbors[i])
        raise FacesDisagree(
            f"{cset.label}: board {boards[i].id} from the solver violates the Python face of "
            f"{', '.join(broken)}; the MiniZinc and Python faces disagree (a bug: please "
            f"report it with the constraint set)"
        )
