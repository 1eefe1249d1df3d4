"""The confirmation: the best candidates and the baseline rerun as an ordinary ``ludolab run``
on fresh seeds, sized by ``ludolab plan``.

The search's estimate of the best candidate is biased upwards: it is the best of many noisy
estimates (the winner's curse). The confirmation plays setups and games the search never saw
(the master seed :func:`confirm_seed`, unrelated to every rung's), so its difference from the
baseline is an unbiased estimate, tested like any experiment's (its ``[comparisons]``: the
objectives' metrics are the primary family, Holm-corrected). The report sets the two side by
side; the gap between them is the curse, measured.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ludolab.research.design.evaluate import set_file
from ludolab.research.design.spec import DesignSpec, Objective
from ludolab.research.files import write_text

_CONFIRM_TAG = 0x636F_6E66  # "conf"
BASELINE = "baseline"


def confirm_seed(seed: int) -> int:
    """The confirmation's master seed: ``SeedSequence([seed, tag])``'s first 32 bits."""
    return int(np.random.SeedSequence([seed, _CONFIRM_TAG]).generate_state(1)[0])


def candidate_name(number: int) -> str:
    """The confirmation's condition name of trial ``number``."""
    return f"trial-{number}"


def confirm_data(
    spec: DesignSpec, candidates: list[tuple[int, dict[str, Any]]], folder: Path, setups: int
) -> dict[str, Any]:
    """The confirmation config's contents: the baseline and each ``(trial number, parameter
    values)``, ``setups`` setups per condition."""
    conditions = []
    for name, values in [
        (BASELINE, dict(spec.baseline)),
        *((candidate_name(n), v) for n, v in candidates),
    ]:
        _, _, off = spec.split(values)
        conditions.append(spec.condition(values, name, set_file(spec, off, folder)))
    metrics = [o.metric for o in spec.objectives]
    comparisons: dict[str, Any] = {
        "baseline": BASELINE,
        "paired": True,
        "metrics": metrics,
        "primary": metrics,
    }
    margins = {o.metric: o.margin for o in spec.objectives if o.margin is not None}
    if margins:
        comparisons["margins"] = margins
    return spec.experiment_data(
        conditions,
        name=f"{spec.name}-confirm",
        seed=confirm_seed(spec.seed),
        **{
            spec.described.setups_key: setups,
            spec.described.games_per_setup_key: spec.confirm.games_per_setup,
        },
        comparisons=comparisons,
    )


def write_config(path: Path, data: dict[str, Any], header: str) -> None:
    """``data`` as a TOML file with a comment ``header``."""
    import tomli_w

    comment = "".join(f"# {line}\n" for line in header.splitlines())
    write_text(path, comment + tomli_w.dumps(data))


@dataclass(frozen=True)
class Confirmed:
    """One objective of one confirmed candidate.

    Attributes:
        trial: the candidate's trial number.
        objective: the objective.
        search_diff, search_se: the search's paired estimate of candidate minus baseline (its
            rungs' setups), metric units.
        diff, low, high: the confirmation's difference and its 95% interval (the run's
            comparisons table: condition minus baseline).
        p_adj: its Holm-adjusted p-value; ``significant`` at the run's alpha.
        improved: significant, and in the direction the objective wants (for a target: towards
            the target from the baseline's confirmed mean).
        mean_baseline, mean_candidate: the confirmation's means.
        verdict: the run's wording of the comparison.
    """

    trial: int
    objective: Objective
    search_diff: float
    search_se: float
    diff: float
    low: float
    high: float
    p_adj: float
    significant: bool
    improved: bool
    mean_baseline: float
    mean_candidate: float
    verdict: str


def wanted_sign(objective: Objective, baseline_mean: float) -> float:
    """+1 when the objective wants the mean up from the baseline's, -1 when down."""
    if objective.goal == "maximize":
        return 1.0
    if objective.goal == "minimize":
        return -1.0
    return 1.0 if (objective.target or 0.0) > baseline_mean else -1.0


def read_confirmed(
    run: Path,
    spec: DesignSpec,
    trial: int,
    search: dict[str, tuple[float, float]],
) -> list[Confirmed]:
    """The confirmation run's comparison of trial ``trial`` with the baseline, per objective
    (from its ``comparisons.csv``); ``search`` maps each metric to the search's (difference,
    standard error)."""
    table = pd.read_csv(run / "comparisons.csv")
    name = candidate_name(trial)
    out = []
    for o in spec.objectives:
        rows = table[(table["metric"] == o.column) | (table["metric"] == o.metric)]
        rows = rows[(rows["condition1"] == name) & (rows["condition2"] == BASELINE)]
        if rows.empty:
            raise ValueError(
                f"{run}: comparisons.csv has no row {name} vs {BASELINE} on {o.metric}"
            )
        row = rows.iloc[0]
        diff = float(row["diff"])
        significant = bool(row["significant"])
        sign = wanted_sign(o, float(row["mean2"]))
        out.append(
            Confirmed(
                trial,
                o,
                *search.get(o.metric, (math.nan, math.nan)),
                diff,
                float(row["diff_low"]),
                float(row["diff_high"]),
                float(row["p_adj"]),
                significant,
                significant and diff * sign > 0,
                float(row["mean2"]),
                float(row["mean1"]),
                str(row.get("verdict", "")),
            )
        )
    return out
