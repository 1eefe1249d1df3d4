"""A mixed-effects check of condition comparisons made on setup means.

The comparisons test setup means; this fits the games themselves with
:class:`statsmodels.regression.mixed_linear_model.MixedLM` (REML)::

    metric ~ condition + (1 | setup) + (1 | game seed)

* paired designs (setup ``s`` of every condition is played with the same game seeds): groups
  are the setup index ``s``; inside a group, a variance component for the board (one per
  condition) and one for the game seed (shared by the conditions and the seat rotations);
* independent designs: groups are the boards; a game-seed component only when a seed is played
  more than once on a board (seat rotations).

Each contrast (condition1 - condition2) is a Wald test on the fixed effects. It is a
sensitivity analysis: it uses every game, assumes normal random effects and residuals, and
should tell the same story as the setup-mean test; where it does not, the report says so.
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Sequence

import numpy as np
import pandas as pd
import statsmodels.formula.api as smf

MIXED_COLUMNS = ("condition1", "condition2", "mixed_diff", "mixed_low", "mixed_high", "mixed_p")


def mixed_contrasts(
    games: pd.DataFrame,
    metric: str,
    pairs: Sequence[tuple[Hashable, Hashable]],
    *,
    paired: bool,
    condition: str = "condition",
    setup: str = "setup",
    seed: str = "game",
    level: float = 0.95,
) -> tuple[pd.DataFrame, str]:
    """Contrasts ``condition1 - condition2`` of ``metric`` (in its unit) from one mixed model.

    ``games``: one row per game with the ``condition``, ``setup`` (index within the condition)
    and ``seed`` (game index within the setup: games with equal ``setup`` and ``seed`` share
    dice) columns. Returns a table with :data:`MIXED_COLUMNS` (estimate, ``level`` Wald
    interval, p) and a note (empty when the fit converged; NaN rows when it failed).
    """
    conds = list(dict.fromkeys(c for pair in pairs for c in pair))
    df = games.loc[games[condition].isin(conds), [condition, setup, seed, metric]].dropna()
    df = df.rename(columns={condition: "cond", setup: "setup", seed: "seed", metric: "y"})
    df["cond"] = pd.Categorical(df["cond"].astype(str), categories=[str(c) for c in conds])
    df["y"] = df["y"].astype(float)
    nan_rows = pd.DataFrame(
        [(c1, c2, np.nan, np.nan, np.nan, np.nan) for c1, c2 in pairs], columns=MIXED_COLUMNS
    )
    if df["cond"].nunique() < 2 or df["y"].nunique() < 2:
        return nan_rows, "mixed model not fitted: fewer than two conditions or a constant metric"
    if paired:
        groups = df["setup"]
        vc = {"board": "0 + C(cond)", "seed": "0 + C(seed)"}
    else:
        df["board"] = df["cond"].astype(str) + ":" + df["setup"].astype(str)
        groups = df["board"]
        repeated = df.duplicated(["board", "seed"]).any()
        vc = {"seed": "0 + C(seed)"} if repeated else None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = smf.mixedlm("y ~ cond", df, groups=groups, vc_formula=vc)
            fit = model.fit(reml=True, method=["lbfgs", "powell"])
    except (np.linalg.LinAlgError, ValueError) as exc:
        return nan_rows, f"mixed model did not fit ({exc})"
    names = list(fit.fe_params.index)
    rows = []
    for c1, c2 in pairs:
        contrast = np.zeros((1, len(names)))
        for c, sign in ((c1, 1.0), (c2, -1.0)):
            term = f"cond[T.{c}]"
            if term in names:
                contrast[0, names.index(term)] += sign
        test = fit.t_test(contrast)
        low, high = np.asarray(test.conf_int(alpha=1 - level)).ravel()
        rows.append(
            (c1, c2, float(np.ravel(test.effect)[0]), float(low), float(high), float(test.pvalue))
        )
    note = "" if fit.converged else "the mixed model's fit did not converge"
    return pd.DataFrame(rows, columns=MIXED_COLUMNS), note
