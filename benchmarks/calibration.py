"""Does a report's Findings section hold up under the null? An A/A calibration of ludolab run.

    .venv/bin/python benchmarks/calibration.py [--seeds 20] [--workers 2] [--config PATH]

Runs ``experiments/aa-official.toml`` (three conditions drawn from the same set, two lineups,
the shipped metric list) once per master seed 1..N, each with its full analysis, and counts
the reports whose comparisons list a finding (a test significant after the report's
correction). Every true difference is zero, so with Holm at alpha = 0.05 over the whole
family at most 5% of reports should list one: about 1 of 20, and at most 2 of 20 is the
target (more than 3 of 20 has a chance below 2% if the error control holds).

Also printed, from the same runs: how many reports would list a finding had each lineup and
metric been corrected on its own (the analysis before one family per run), and the median
minimum detectable difference per metric (what such a design could detect at all).

Figures, not asserts; run it after any change to the comparisons. It takes about
20 s per seed on two cores.
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

from research.experiment.runner import run_experiment  # noqa: E402
from research.stats.multiple import adjust_pvalues  # noqa: E402


def with_seed(text: str, seed: int) -> str:
    """The config text with its master seed replaced."""
    out, n = re.subn(r"(?m)^seed\s*=\s*\d+", f"seed = {seed}", text)
    if n != 1:
        raise SystemExit("the config must set 'seed = N' on one line of its own")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--config", default=str(ROOT / "experiments" / "aa-official.toml"))
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    config = Path(args.config)
    text = config.read_text()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, args.seeds + 1):
            path = Path(tmp) / config.name
            path.write_text(with_seed(text, seed))
            start = time.perf_counter()
            result = run_experiment(path, out=Path(tmp) / "runs", workers=args.workers, quiet=True)
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
                    "smallest p (raw)": float(confirm["p"].min()),
                    "findings if corrected per metric": int((per_metric < 0.05).sum()),
                    "seconds": round(time.perf_counter() - start, 1),
                }
            )
            mde = table.groupby(["lineup", "metric"])["mde"].median()
            rows[-1]["mde"] = mde
            print(
                f"seed {seed:>2}: {rows[-1]['findings']} finding(s) of {len(confirm)} tests; "
                f"per-metric correction would list {rows[-1]['findings if corrected per metric']}"
                f" ({rows[-1]['seconds']} s)",
                flush=True,
            )
    df = pd.DataFrame(rows)
    n = len(df)
    hit = int((df["findings"] > 0).sum())
    old = int((df["findings if corrected per metric"] > 0).sum())
    print()
    print(f"A/A on {config.name}, {n} master seeds, {int(df['tests'].iloc[0])} tests per report:")
    print(f"  reports with a finding (one family, Holm):        {hit} of {n}  (target <= 2)")
    print(f"  reports with a finding (corrected per metric):    {old} of {n}")
    mdes = pd.concat(list(df["mde"]), axis=1).median(axis=1)
    print("  median minimum detectable difference (80% power) per lineup and metric:")
    for (lineup, metric), value in mdes.items():
        print(f"    {lineup:<18} {metric:<16} {value:.3g}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
