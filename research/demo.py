"""The main job until the experiment runner exists: boards under two constraint sets, compared.

Generates boards for ``official`` (uniform sampler) and ``balanced`` (solver sampler: uniform
rejection cannot reach it), computes board features, prints a side-by-side summary, and writes
the boards, the feature table, the summary and pictures under the output folder.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from envs.catan.board import write_boards
from research.catan.constraint_set import load_constraint_set
from research.catan.features import board_features
from research.catan.generate import generate_boards

CONDITIONS = (("official", "uniform"), ("balanced", "solver"))
SHOWN = {
    "int_pips_max": "richest intersection (pips)",
    "hot_spot_count": "hot spots (>= 13 pips)",
    "start_seat_pips_spread": "seat start-pips spread (snake picks)",
    "same_resource_adjacent_pairs": "equal-resource neighbour pairs",
    "largest_cluster": "largest one-resource cluster",
    "red_adjacent_pairs": "6/8 neighbour pairs",
    "same_number_adjacent_pairs": "equal-number neighbour pairs",
    "resource_pips_std": "spread of pips over resources (sd)",
    "desert_ring": "desert ring (0 centre .. 2 coast)",
}


def run_demo(out: Path, *, n: int = 100, seed: int = 2019) -> pd.DataFrame:
    """Generate, summarise and draw; return the per-board feature table."""
    from research.plots.board import render_board_grid

    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for name, sampler in CONDITIONS:
        cset = load_constraint_set(name)
        boards, report = generate_boards(cset, n, sampler, seed)
        write_boards(boards, out / f"{name}.jsonl")
        render_board_grid(
            boards[:4], out / f"{name}.png", titles=[f"{name} #{k + 1}" for k in range(4)], ncols=4
        )
        print(
            f"{name:>9}: {len(boards)} boards, {sampler} sampler, "
            f"{len(boards) / report.seconds:,.0f} boards/s"
            f"{'' if report.uniform else ' (not uniform)'}"
        )
        rows += [{"constraint_set": name, "board_id": b.id, **board_features(b)} for b in boards]
    table = pd.DataFrame(rows)
    table.to_csv(out / "features.csv", index=False)
    summary = _summary(table)
    text = (
        f"# Demo: official vs balanced boards\n\n{n} boards each, seed {seed}. Mean (sd) of "
        f"board features.\n\n{_markdown(summary)}\n"
    )
    (out / "summary.md").write_text(text)
    print()
    print(summary.to_string())
    print(f"\nboards, features.csv, summary.md and pictures -> {out}/")
    return table


def _summary(table: pd.DataFrame) -> pd.DataFrame:
    grouped = table.groupby("constraint_set", sort=False)[list(SHOWN)]
    mean, sd = grouped.mean(), grouped.std()
    cells = mean.map("{:.2f}".format) + " (" + sd.map("{:.2f}".format) + ")"
    cells = cells.T
    cells.index = [SHOWN[k] for k in cells.index]
    cells.columns.name = None
    return cells


def _markdown(table: pd.DataFrame) -> str:
    header = "| feature | " + " | ".join(table.columns) + " |"
    rule = "|---|" + "---|" * len(table.columns)
    rows = [
        f"| {k} | " + " | ".join(row) + " |"
        for k, row in zip(table.index, table.values, strict=True)
    ]
    return "\n".join([header, rule, *rows])
