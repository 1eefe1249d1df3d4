"""Does a report's **Across skill** section hold up under the null? An A/A calibration.

    .venv/bin/python benchmarks/skill_calibration.py [--seeds 30] [--workers 2]
        [--out build/skill-calibration] [--figure docs/images/skill-calibration.png]

Runs the A/A configs in ``benchmarks/aa-skill/`` (each: three conditions drawn from one set,
so every effect and every change with skill is zero; two or three lineups of different skill)
once per master seed 1..N, with the full analysis, and reads each run's ``skill.csv``,
``skill-effects.csv`` and ``comparisons.csv``. The configs cover Catan paired and unpaired,
with and without seat rotation, boards from exact rejection and from Markov chains, and Masters
Gallery deals; each tests one discrete, one continuous and one binary metric.

Printed, per metric kind (discrete, continuous, binary):

* the share of interaction tests with raw p < 0.05 (the p-value reports give: the larger of the
  randomisation test's and the t-test's; target at most 6% over at least 200 tests per kind),
  with its Wilson 95% interval; beside it, the randomisation test alone and the t-test on the
  same setup contrasts (the test the reports used before), from the same ``skill.csv``;
* the share of reports that state an interaction (a verdict of grows, shrinks, reverses, changes
  or present for one lineup only; target at most 1 in 20);
* verdicts that assert an effect (holds, grows, shrinks, reverses, present for one lineup)
  without a finding in the report's corrected main comparisons (target: none); and how many
  lines the rule used before (an effect "holds across skill" when some lineup's uncorrected t
  interval excludes zero) would have worded as holding.

Finished runs are kept under ``--out`` (games, setups and tables; no figures or report), so a
second call only adds seeds, and ``--reanalyse`` redoes their tables after a change to the
analysis without replaying a game. The figure plots the interaction p-values' empirical distribution
per metric kind against the uniform one (up to p = 0.2), for the reported p and the t-test.
Figures, not asserts. About 15 s per config and seed on two cores.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.stats as st
from statsmodels.stats.proportion import proportion_confint

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ludolab.research.catan.samplers import SamplingError  # noqa: E402
from ludolab.research.experiment.analysis import analyse, load_run  # noqa: E402
from ludolab.research.experiment.config.parse import read_toml  # noqa: E402
from ludolab.research.experiment.result_tables import write_tables  # noqa: E402
from ludolab.research.experiment.runner import run_experiment  # noqa: E402
from ludolab.research.stats.interaction import (  # noqa: E402
    asserts_an_effect,
    states_an_interaction,
)

CONFIGS = ROOT / "benchmarks" / "aa-skill"
KIND = {
    "turns": "discrete",
    "score_spread": "discrete",
    "income_gini": "continuous",
    "drama": "continuous",
    "first_seat_win": "binary",
}


def play(config: Path, seed: int, workers: int, out: Path) -> Path:
    """Run ``config`` at master ``seed`` under ``out`` (its games, setups and tables; no
    figures or report) and return the run folder. A folder left unfinished is played again."""
    run_id = f"seed-{seed}"
    name = read_toml(config, "A/A config")["name"]
    run = out / name / run_id
    if (run / "skill.csv").exists():
        return run
    if run.exists():
        shutil.rmtree(run)
    result = run_experiment(
        config,
        out=out,
        workers=workers,
        quiet=True,
        run_id=run_id,
        analyse=False,
        overrides=[f"seed={seed}"],
    )
    analysed = analyse(load_run(result.path))
    write_tables(analysed)
    analysed.data.by_setup.to_parquet(result.path / "setup-means.parquet")
    return result.path


def reanalyse(run: Path) -> None:
    """Redo a kept run's tables with the analysis of this checkout (no game is replayed)."""
    analysed = analyse(load_run(run))
    write_tables(analysed)
    analysed.data.by_setup.to_parquet(run / "setup-means.parquet")


def old_holds(means: pd.DataFrame, metric: str, skill: list[str], paired: bool) -> set[str]:
    """Conditions the rule used before would have said "holds across skill" of, when its
    interaction was not detected: some lineup's uncorrected 95% t interval of the effect
    excludes zero (with one sign)."""
    out = set()
    by = means.pivot_table(index=["condition", "setup"], columns="lineup", values=metric)
    base = by.xs("a", level="condition")
    for condition in {c for c, _ in by.index} - {"a"}:
        cond = by.xs(condition, level="condition")
        signs = set()
        for lineup in skill:
            x, y = cond[lineup].dropna(), base[lineup].dropna()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                if paired:
                    shared = x.index.intersection(y.index)
                    ci = st.ttest_rel(x[shared], y[shared]).confidence_interval()
                else:
                    ci = st.ttest_ind(x, y, equal_var=False).confidence_interval()
            if ci.low > 0 or ci.high < 0:
                signs.add(ci.low > 0)
        if len(signs) == 1:
            out.add(condition)
    return out


def collect(out: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(one row per interaction test, one row per report) over every finished run."""
    tests, reports = [], []
    for run in sorted(out.glob("*/seed-*")):
        if not (run / "skill.csv").exists():
            continue
        config, seed = (
            run.parent.name.removeprefix("aa-skill-"),
            int(run.name.removeprefix("seed-")),
        )
        skill_table = pd.read_csv(run / "skill.csv")
        pairs = pd.read_csv(run / "comparisons.csv")
        means = pd.read_parquet(run / "setup-means.parquet")
        means["condition"] = means["condition"].astype(str)
        resolved = pd.read_json(run / "config.resolved.json", typ="series")
        skill = list(resolved["comparisons"]["skill"])
        paired = bool(resolved["comparisons"]["paired"])
        for metric, rows in skill_table.groupby("metric", sort=False):
            holds_before = old_holds(means, str(metric), skill, paired)
            for r in rows.itertuples(index=False):
                found = pairs[
                    (pairs["metric"] == metric)
                    & (pairs["condition1"] == r.condition)
                    & pairs["significant"]
                ]
                asserts = asserts_an_effect(str(r.verdict))
                tests.append(
                    {
                        "config": config,
                        "seed": seed,
                        "metric": metric,
                        "kind": KIND[str(metric)],
                        "condition": r.condition,
                        "p": r.p,
                        "p_randomisation": r.p_randomisation,
                        "p_t": r.p_t,
                        "p_adj": r.p_adj,
                        "verdict": r.verdict,
                        "asserts_effect": asserts,
                        "unsupported": asserts and found.empty,
                        "holds_before": (r.condition in holds_before) and r.p_adj >= 0.05,
                    }
                )
        reports.append(
            {
                "config": config,
                "seed": seed,
                "states_interaction": bool(skill_table["verdict"].map(states_an_interaction).any()),
                "main_finding": bool(pairs["significant"].any()),
            }
        )
    return pd.DataFrame(tests), pd.DataFrame(reports)


def share(hits: int, n: int) -> str:
    low, high = proportion_confint(hits, n, alpha=0.05, method="wilson")
    return f"{hits:>4} of {n:<5} {hits / n:6.1%} [{low:5.1%}, {high:5.1%}]"


def summarise(tests: pd.DataFrame, reports: pd.DataFrame) -> None:
    print(f"\n{len(reports)} A/A reports, {len(tests)} interaction tests:")
    for config, rows in reports.groupby("config"):
        print(f"  {config}: {len(rows)} runs, {int((tests['config'] == config).sum())} tests")
    print("\nRaw p < 0.05 per metric kind (target at most 6%, over at least 200 tests per kind):")
    columns = (
        ("p", "reported p (now)"),
        ("p_randomisation", "randomisation alone"),
        ("p_t", "t-test (before)"),
    )
    print(f"  {'kind':<11} " + " ".join(f"{label:<34}" for _, label in columns))
    for kind, rows in [*tests.groupby("kind"), ("all", tests)]:
        counts = [share(int((rows[c] < 0.05).sum()), len(rows)) for c, _ in columns]
        print(f"  {kind:<11} " + " ".join(f"{c:<34}" for c in counts))
    print("  per config and metric (reported p):")
    for (config, metric), rows in tests.groupby(["config", "metric"]):
        print(f"    {config:<26} {metric:<15} {share(int((rows['p'] < 0.05).sum()), len(rows))}")
    r = len(reports)
    print(
        "\nReports that state an interaction (target at most 1 in 20): "
        f"{share(int(reports['states_interaction'].sum()), r)}"
    )
    print(
        "Reports whose main comparisons list a finding (for reference):    "
        f"{share(int(reports['main_finding'].sum()), r)}"
    )
    asserted = int(tests["asserts_effect"].sum())
    print(
        f"Verdicts asserting an effect: {asserted}; without a finding in the main comparisons: "
        f"{int(tests['unsupported'].sum())} (target 0)"
    )
    print(
        'Lines the rule used before would have worded "holds across skill" (an uncorrected '
        f"interval in some lineup): {share(int(tests['holds_before'].sum()), len(tests))}"
    )
    print("Verdicts given:", tests["verdict"].value_counts().to_dict())


def figure(tests: pd.DataFrame, path: Path) -> None:
    """The share of interaction tests with p at most x, for x up to 0.2, per metric kind: a
    calibrated test follows the diagonal, within the grey band (where 95% of such shares fall
    for that many tests of a uniform p-value)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    kinds = ["discrete", "continuous", "binary"]
    fig, axes = plt.subplots(1, 3, figsize=(9.0, 3.2), sharey=True, constrained_layout=True)
    grid = np.linspace(0, 0.2, 201)
    for ax, kind in zip(axes, kinds, strict=True):
        rows = tests[tests["kind"] == kind]
        n = len(rows)
        low, high = st.binom.ppf([[0.025], [0.975]], n, grid) / n
        ax.fill_between(grid, low, high, color="0.88", step="post", label="95% band, uniform p")
        ax.plot(grid, grid, color="0.5", lw=0.8)
        for column, label, style in (
            ("p", "reported p (now)", "-"),
            ("p_t", "t-test (before)", "--"),
        ):
            p = rows[column].to_numpy(float)
            share = (p[None, :] <= grid[:, None]).mean(axis=1)
            ax.step(grid, share, style, where="post", label=label)
        ax.axvline(0.05, color="0.7", lw=0.8, ls=":")
        ax.set_title(f"{kind} metrics ({n} tests)", fontsize=9)
        ax.set_xlabel("x (a p-value threshold)")
        ax.set_xlim(0, 0.2)
        ax.set_ylim(0, 0.2)
    axes[0].set_ylabel("share of tests with p at most x")
    axes[0].legend(fontsize=7, loc="upper left")
    fig.suptitle("Interaction tests on A/A runs (identical conditions)", fontsize=10)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=150)
    plt.close(fig)
    print(f"\nfigure: {path}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seeds", type=int, default=30, help="master seeds 1..N per config")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=ROOT / "build" / "skill-calibration")
    ap.add_argument("--figure", type=Path, help="where to draw the p-value figure (PNG)")
    ap.add_argument("--configs", nargs="*", type=Path, help="default: benchmarks/aa-skill/*.toml")
    ap.add_argument(
        "--reanalyse",
        action="store_true",
        help="redo the kept runs' tables with this checkout's analysis (no game replayed)",
    )
    args = ap.parse_args()
    configs = args.configs or sorted(CONFIGS.glob("*.toml"))
    for config in configs:
        for seed in range(1, args.seeds + 1):
            run = args.out / read_toml(config, "A/A config")["name"] / f"seed-{seed}"
            if (run / "skill.csv").exists():
                if args.reanalyse:
                    reanalyse(run)
                continue
            if (run.parent / f"seed-{seed}.failed").exists():
                continue
            try:
                play(config, seed, args.workers, args.out)
            except SamplingError as exc:  # e.g. Markov chains that did not converge: no boards
                shutil.rmtree(run, ignore_errors=True)
                (run.parent / f"seed-{seed}.failed").write_text(f"{exc}\n")
                print(f"{config.stem} seed {seed}: no run, its setups could not be drawn: {exc}")
                continue
            print(f"{config.stem} seed {seed}: played", flush=True)
    for failed in sorted(args.out.glob("*/seed-*.failed")):
        print(f"skipped: {failed.parent.name} {failed.stem}: {failed.read_text().strip()}")
    tests, reports = collect(args.out)
    if tests.empty:
        raise SystemExit(f"no finished run under {args.out}")
    tests.to_csv(args.out / "tests.csv", index=False)
    summarise(tests, reports)
    if args.figure:
        figure(tests, args.figure)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
