"""Does a report's Findings section hold up under the null? An A/A calibration of ludolab run.

    .venv/bin/python benchmarks/calibration.py [--part null|power] [--seeds N] [--workers 2]

**null** (default 20 seeds). Runs ``experiments/aa-official.toml`` (three conditions drawn
from the same set, two lineups, the shipped metric list) once per master seed 1..N, each with
its full analysis, and counts the reports whose comparisons list a finding (a test
significant after the report's correction). Every true difference is zero, so with Holm at
alpha = 0.05 over the whole family at most 5% of reports should list one: about 1 of 20, and
at most 2 of 20 is the target (more than 3 of 20 has a chance below 2% if the error control
holds).

Also printed, from the same runs: how many reports would list a finding had each lineup and
metric been corrected on its own (the analysis before one family per run), and the median
minimum detectable difference per metric (what such a design could detect at all).

**power** (default 10 seeds). A real difference: ``experiments/clumpy-vs-official.toml``
(greedy players; primary metric trades, margin 2.5 trades a game). ``ludolab plan`` is run on it
first, and the config is then run at the boards it recommends under each master seed; printed:
in how many runs the primary comparison is detected (the plan promises at least 80% for a true
difference of the margin's size), and the differences found.

Figures, not asserts; run it after any change to the comparisons. The null part takes about
16 s per seed on two cores, the power part a few seconds per seed.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ludolab.research.experiment.plan import plan_experiment  # noqa: E402
from ludolab.research.experiment.runner import run_experiment  # noqa: E402
from ludolab.research.stats.multiple import adjust_pvalues  # noqa: E402


def with_seed(text: str, seed: int) -> str:
    """The config text with its master seed replaced."""
    out, n = re.subn(r"(?m)^seed\s*=\s*\d+", f"seed = {seed}", text)
    if n != 1:
        raise SystemExit("the config must set 'seed = N' on one line of its own")
    return out


def null_part(config: Path, seeds: int, workers: int) -> None:
    text = config.read_text()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, seeds + 1):
            # beside the config, so that the set files it names resolve as they do for it
            path = config.parent / f".calibration-{seed}-{config.name}"
            path.write_text(with_seed(text, seed))
            start = time.perf_counter()
            try:
                result = run_experiment(path, out=Path(tmp) / "runs", workers=workers, quiet=True)
            finally:
                path.unlink()
            table = pd.read_csv(result.path / "comparisons.csv")
            confirm = table[table["family"] != "exploratory"]
            per_metric = confirm.groupby(["lineup", "metric"])["p"].transform(
                lambda p: adjust_pvalues(p.to_numpy(float), "holm")
            )
            rows.append(
                {
                    "seed": seed,
                    "tests": len(confirm),
                    "findings": int(confirm["significant"].sum()),
                    "old": int((per_metric < 0.05).sum()),
                    "seconds": round(time.perf_counter() - start, 1),
                    "mde": table.groupby(["lineup", "metric"])["mde"].median(),
                }
            )
            r = rows[-1]
            print(
                f"seed {seed:>2}: {r['findings']} finding(s) of {r['tests']} tests; per-metric "
                f"correction would list {r['old']} ({r['seconds']} s)",
                flush=True,
            )
    df = pd.DataFrame(rows)
    n = len(df)
    print()
    print(f"A/A on {config.name}, {n} master seeds, {int(df['tests'].iloc[0])} tests per report:")
    print(
        f"  reports with a finding (one family, Holm):     {int((df['findings'] > 0).sum())} "
        f"of {n}  (target <= 2)"
    )
    print(f"  reports with a finding (corrected per metric): {int((df['old'] > 0).sum())} of {n}")
    mdes = pd.concat(list(df["mde"]), axis=1).median(axis=1)
    print("  median minimum detectable difference (80% power) per lineup and metric:")
    for (lineup, metric), value in mdes.items():
        print(f"    {lineup:<18} {metric:<16} {value:.3g}")


def power_part(config: Path, seeds: int, workers: int) -> None:
    plan = plan_experiment(config, workers=workers)
    family = plan.table[plan.table["family"] != "exploratory"]
    boards = int(family["setups_needed"].max())
    print(f"ludolab plan {config.name}: family of {plan.family_size}, recommends {boards} boards")
    text = config.read_text()
    hits, rows = 0, []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, seeds + 1):
            path = Path(tmp) / config.name
            path.write_text(with_seed(text, seed))
            result = run_experiment(
                path,
                out=Path(tmp) / "runs",
                workers=workers,
                quiet=True,
                overrides=[f"boards={boards}"],
            )
            table = pd.read_csv(result.path / "comparisons.csv")
            primary = table[table["family"] == "primary"]
            found = bool(primary["significant"].all())
            hits += found
            for _, r in primary.iterrows():
                rows.append(r)
                print(
                    f"seed {seed:>2}: {r['metric']} {r['condition1']} vs {r['condition2']}: "
                    f"difference {r['diff']:+.2f} [{r['diff_low']:+.2f}, {r['diff_high']:+.2f}], "
                    f"p adj. {r['p_adj']:.2g} -> {'detected' if found else 'not detected'}",
                    flush=True,
                )
    print()
    print(
        f"Power on {config.name} at the planned {boards} boards per condition: detected in "
        f"{hits} of {seeds} runs (the plan promises at least 80% for a true difference as large "
        "as the margin)."
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--part", choices=("null", "power"), default="null")
    ap.add_argument("--config", help="default: aa-official.toml (null), clumpy-vs-official.toml")
    ap.add_argument("--seeds", type=int, help="master seeds 1..N (default 20 null, 10 power)")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    experiments = ROOT / "experiments"
    if args.part == "null":
        config = Path(args.config or experiments / "aa-official.toml")
        null_part(config, args.seeds or 20, args.workers)
    else:
        config = Path(args.config or experiments / "clumpy-vs-official.toml")
        power_part(config, args.seeds or 10, args.workers)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
