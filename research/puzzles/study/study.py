"""How generation parameters move the generated games' difficulty: ``ludolab puzzle study``.

For every game and each of three grid sizes (the game's default, one smaller, one larger, as far
as the generator goes), ``n`` candidates are drawn exactly as ``ludolab puzzle GAME generate``
draws them (no level quota), each from its own seed (``numpy.random.SeedSequence(seed,
spawn_key=(game's index, size, j))``: a draw does not depend on the other games, sizes or the
number of workers). A candidate is *kept* (unique, and finished by the deductions, with its
level) or *discarded* (the generator gave up on it). Per candidate kept, the game's clue measure
(what the generator adds or removes: Sudoku's givens, Loopy's numbers, Zip's numbers and walls,
...) is recorded too, so the table answers both "does a larger grid make harder puzzles?" and
"within a size, do fewer clues make harder ones?" (Spearman's rank correlation of the clue
measure with the level, scipy).

Written, each file atomically into a staging folder moved into place at the end:

* ``draws.csv``: game, size, draw, seed, level (or ``discarded``), clues, clue_name;
* ``summary.csv`` / ``summary.md``: per game and size, the draws, the share discarded, each
  level's share of the kept, the mean clue measure and its Spearman correlation with the level
  (with its p-value; the unit is the puzzle, draws are independent);
* ``difficulty.png`` / ``difficulty.pdf``: per game, the level shares of the kept puzzles by
  size, stacked, with the share discarded beside them.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ludolab.research.puzzles.pack_cli import PuzzleGame

GAMES = ("sudoku", "nonogram", "queens", "zip", "loopy", "tents", "patches", "wend", "swend")
LEVELS = ("easy", "medium", "hard", "expert")
PACK_GAME = {"sudoku": "ludolab.research.puzzles.sudoku.pack"}


def puzzle_game(name: str) -> PuzzleGame:
    module = PACK_GAME.get(name, f"ludolab.research.puzzles.{name}.cli")
    return importlib.import_module(module).GAME


def sizes_of(game: PuzzleGame) -> list[int]:
    """The default size and its neighbours the generator makes."""
    sizes = list(game.sizes)
    k = sizes.index(game.default_size)
    return sizes[max(0, k - 1) : k + 2]


@dataclass(frozen=True)
class Task:
    game: str
    size: int
    seeds: tuple[int, ...]


def tasks(games: list[str], n: int, seed: int) -> list[Task]:
    out = []
    for name in games:
        for size in sizes_of(puzzle_game(name)):
            children = np.random.SeedSequence(seed, spawn_key=(GAMES.index(name), size))
            seeds = tuple(int(c.generate_state(1, np.uint64)[0]) for c in children.spawn(n))
            out.append(Task(name, size, seeds))
    return out


def run_task(task: Task) -> list[dict]:
    """The draws of one game at one size."""
    game = puzzle_game(task.game)
    rows = []
    for j, s in enumerate(task.seeds):
        candidate = game.draw(task.size, random.Random(s))
        kept = candidate is not None
        rows.append({
            "game": task.game,
            "size": task.size,
            "draw": j,
            "seed": s,
            "level": game.level_of(candidate) if kept else "discarded",
            "clues": game.clues(candidate) if kept and game.clues else None,
            "clue_name": game.clue_name,
        })
    return rows


def summarise(draws: pd.DataFrame) -> pd.DataFrame:
    """Per game and size: shares of the levels among the kept, the share discarded, the mean
    clue measure, and Spearman's rho of clues against level rank (with its p-value)."""
    from scipy.stats import spearmanr

    rows = []
    for (game, size), part in draws.groupby(["game", "size"], sort=False):
        kept = part[part["level"] != "discarded"]
        levels = puzzle_game(game).levels
        row = {"game": game, "size": size, "draws": len(part), "kept": len(kept),
               "discarded": 1 - len(kept) / len(part)}
        for level in LEVELS:
            row[level] = (kept["level"] == level).mean() if level in levels and len(kept) else None
        row["clue_name"] = part["clue_name"].iloc[0]
        row["mean_clues"] = kept["clues"].mean() if len(kept) else None
        rank = kept["level"].map({lv: k for k, lv in enumerate(levels)})
        if len(kept) > 2 and kept["clues"].nunique() > 1 and rank.nunique() > 1:
            rho, p = spearmanr(kept["clues"], rank)
            row["rho"], row["p"] = float(rho), float(p)
        else:
            row["rho"] = row["p"] = None
        rows.append(row)
    return pd.DataFrame(rows)


def summary_markdown(summary: pd.DataFrame, command: str) -> str:
    def pct(x: object) -> str:
        return "" if x is None or pd.isna(x) else f"{100 * float(x):.0f}"

    lines = [
        "# Puzzle games: difficulty by grid size and clues",
        "",
        f"Command: `{command}`. Shares of the kept puzzles (%), the share discarded, the mean "
        "clue measure of the kept, and Spearman's rho of that measure with the level (negative:"
        " fewer clues, harder), with its p-value; the unit is the puzzle.",
        "",
        "| game | size | draws | discarded | easy | medium | hard | expert | clue measure | "
        "mean | rho | p |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|",
    ]
    for r in summary.itertuples():
        rho = "" if r.rho is None or pd.isna(r.rho) else f"{r.rho:+.2f}"
        p = "" if r.p is None or pd.isna(r.p) else f"{r.p:.2g}"
        mean = "" if r.mean_clues is None or pd.isna(r.mean_clues) else f"{r.mean_clues:.1f}"
        lines.append(
            f"| {r.game} | {r.size} | {r.draws} | {pct(r.discarded)} | {pct(r.easy)} | "
            f"{pct(r.medium)} | {pct(r.hard)} | {pct(r.expert)} | {r.clue_name} | {mean} | "
            f"{rho} | {p} |"
        )
    return "\n".join(lines) + "\n"


def difficulty_figure(summary: pd.DataFrame):  # -> matplotlib Figure
    """Per game, the level shares of the kept puzzles by size, stacked; the share discarded
    as a grey bar beside each."""
    import seaborn as sns
    from matplotlib.figure import Figure

    from ludolab.research.plots.figures import PALETTE, TWO_COLUMN, paper_style

    games = list(dict.fromkeys(summary["game"]))
    colours = dict(zip(LEVELS, sns.color_palette(PALETTE, len(LEVELS)), strict=True))
    ncols = 3
    nrows = -(-len(games) // ncols)
    with paper_style():
        fig = Figure(figsize=(TWO_COLUMN, 1.9 * nrows), layout="constrained")
        axes = fig.subplots(nrows, ncols, squeeze=False)
        for ax, game in zip(axes.flat, games, strict=False):
            part = summary[summary["game"] == game]
            x = np.arange(len(part))
            bottom = np.zeros(len(part))
            for level in LEVELS:
                values = part[level].astype(float).fillna(0).to_numpy()
                ax.bar(x - 0.18, values, bottom=bottom, width=0.34, color=colours[level],
                       label=level)
                bottom += values
            ax.bar(x + 0.2, part["discarded"].to_numpy(dtype=float), width=0.22,
                   color="0.7", label="discarded (share of draws)")
            ax.set_xticks(x, [f"{s}x{s}" for s in part["size"]])
            ax.set_ylim(0, 1)
            ax.set_title(f"{game} (n={int(part['draws'].sum())})")
            ax.set_ylabel("share")
        for ax in list(axes.flat)[len(games) :]:
            ax.set_visible(False)
        handles, labels = axes.flat[0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside lower center", ncols=5)
    return fig


__all__ = ["GAMES", "Task", "difficulty_figure", "run_task", "sizes_of", "summarise",
           "summary_markdown", "tasks"]
