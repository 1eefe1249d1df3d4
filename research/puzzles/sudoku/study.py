"""The Sudoku hardness study: how the share of each hardness tag moves with clues and size.

A config (TOML; :func:`load_study`) lists sizes, each with target clue counts and a number of
puzzles per target::

    name = "sudoku-hardness"
    question = "How does the share of each hardness tag move with clues and size?"
    seed = 2026            # master seed: puzzle seeds are spawned from it
    workers = 1            # joblib processes (optional); results do not depend on it
    max_level = "ds"       # optional: climb the ladder only this far

    [[sizes]]
    size = 9               # 6, 9, 16, 25 or 36
    clues = [24, 26, 28]   # target clue counts (removal stops there)
    puzzles = 40           # puzzles per target
    node_limit = 20000     # optional: search nodes per uniqueness check (default by size)

Puzzle ``j`` of target ``t`` at size ``n`` has the seed spawned by
``numpy.random.SeedSequence(seed, spawn_key=(n, t, j))``: it does not change when other sizes
or targets are added, nor with the number of workers. A puzzle stops above its target when it
becomes minimal first (no clue can go); so each puzzle is counted in the *clue bucket* of the
largest target not above its actual clue count (bucket ``t`` holds clue counts from ``t`` up
to the next target).

:func:`run_study` writes, into an output folder, each file atomically:

* ``puzzles.parquet`` -- one row per puzzle: size, box, target, clues, bucket, minimal, tag,
  tag_rank, seed, the candidates left after each level climbed (``cand_<level>``, null above
  the tag), seconds to generate and to classify (the only columns that vary between runs),
  and the puzzle text; the config is stored in the schema metadata under ``ludolab``;
* ``summary.csv`` and ``summary.md`` -- tag shares by size and clue bucket, with the number
  of puzzles, their mean clue count, the filled share of the grid and the share of minimal
  puzzles;
* ``hardness.pdf`` / ``hardness.png`` -- stacked tag shares against clue bucket, one panel per
  size.
"""

from __future__ import annotations

import hashlib
import json
import time
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ludolab.research.puzzles import PuzzleError
from ludolab.research.puzzles.sudoku.classify import classify
from ludolab.research.puzzles.sudoku.generate import NODE_LIMITS, generate_puzzle
from ludolab.research.puzzles.sudoku.grid import BOXES, format_grid
from ludolab.research.puzzles.sudoku.propagate import LEVELS, TAGS

_TOP_KEYS = (
    "name",
    "question",
    "description",
    "game",
    "seed",
    "workers",
    "max_level",
    "sizes",
)
_SIZE_KEYS = ("size", "clues", "puzzles", "node_limit")


@dataclass(frozen=True)
class SizeSpec:
    """One size of the study: target clue counts and puzzles per target."""

    size: int
    clues: tuple[int, ...]
    puzzles: int
    node_limit: int


@dataclass(frozen=True)
class StudyConfig:
    """A loaded, checked study config (module docstring)."""

    name: str
    question: str
    seed: int
    workers: int
    max_level: str
    sizes: tuple[SizeSpec, ...]
    source: str = "<config>"

    @property
    def total(self) -> int:
        """Number of puzzles the study generates."""
        return sum(len(s.clues) * s.puzzles for s in self.sizes)

    @property
    def hash(self) -> str:
        """sha256 (hex) of everything that decides the puzzles (not the source's name)."""
        data = {k: v for k, v in asdict(self).items() if k != "source"}
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


# ------------------------------------------------------------------------------ loading


def load_study(path: str | Path) -> StudyConfig:
    """Read and check a study config; :class:`PuzzleError` names the file, key and fix."""
    path = Path(path)
    try:
        text = path.read_text()
    except FileNotFoundError:
        raise PuzzleError(f"{path}: no such study config file") from None
    except OSError as exc:
        raise PuzzleError(f"{path}: cannot read the study config ({exc.strerror})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PuzzleError(f"{path}: not valid TOML: {exc}") from None
    return parse_study(data, str(path))


def parse_study(data: Mapping[str, Any], source: str = "<config>") -> StudyConfig:
    """Check a parsed config mapping (as from TOML); errors name ``source`` and the key."""

    def err(key: str, message: str) -> PuzzleError:
        return PuzzleError(f"{source}: key {key!r}: {message}")

    unknown = sorted(set(data) - set(_TOP_KEYS))
    if unknown:
        raise err(unknown[0], f"unknown key; allowed keys: {', '.join(_TOP_KEYS)}")
    if data.get("game", "sudoku") != "sudoku":
        raise err("game", f'{data["game"]!r}: a Sudoku study has game = "sudoku"')
    name = data.get("name", Path(source).stem)
    question = data.get("question", "")
    for key, value in (("name", name), ("question", question)):
        if not isinstance(value, str):
            raise err(key, f"expected a string, got {value!r}")
    seed = _int(data, "seed", err, required=True, minimum=0)
    workers = _int(data, "workers", err, default=1, minimum=1)
    max_level = data.get("max_level", "ds")
    if max_level not in LEVELS:
        raise err("max_level", f"{max_level!r} is not one of {', '.join(LEVELS)}")
    tables = data.get("sizes")
    if not isinstance(tables, list) or not tables or not all(isinstance(t, dict) for t in tables):
        raise err("sizes", "expected one or more [[sizes]] tables, each with size, clues, puzzles")
    specs: list[SizeSpec] = []
    for i, table in enumerate(tables):
        where = f"sizes[{i}]"
        unknown = sorted(set(table) - set(_SIZE_KEYS))
        if unknown:
            raise err(
                f"{where}.{unknown[0]}", f"unknown key; allowed keys: {', '.join(_SIZE_KEYS)}"
            )
        size = table.get("size")
        if size not in BOXES or isinstance(size, bool):
            raise err(f"{where}.size", f"{size!r} is not one of {', '.join(map(str, BOXES))}")
        clues = table.get("clues")
        cells = size * size
        if (
            not isinstance(clues, list)
            or not clues
            or not all(isinstance(c, int) and not isinstance(c, bool) for c in clues)
        ):
            raise err(f"{where}.clues", f"expected a list of target clue counts, got {clues!r}")
        bad = [c for c in clues if not 0 <= c <= cells]
        if bad:
            raise err(f"{where}.clues", f"{bad[0]} is outside 0..{cells} (a {size}x{size} grid)")
        if len(set(clues)) != len(clues):
            raise err(f"{where}.clues", "targets repeat; list each clue count once")
        puzzles = _int(table, "puzzles", err, required=True, minimum=1, where=where)
        node_limit = _int(
            table, "node_limit", err, default=NODE_LIMITS[size], minimum=1, where=where
        )
        if any(s.size == size for s in specs):
            raise err(f"{where}.size", f"size {size} appears twice; merge its clue targets")
        specs.append(SizeSpec(size, tuple(sorted(clues)), puzzles, node_limit))
    return StudyConfig(name, question, seed, workers, max_level, tuple(specs), source)


def _int(
    table: Mapping[str, Any],
    key: str,
    err: Callable[[str, str], PuzzleError],
    *,
    required: bool = False,
    default: int = 0,
    minimum: int | None = None,
    where: str = "",
) -> int:
    """An integer option, checked."""
    full = f"{where}.{key}" if where else key
    if key not in table:
        if required:
            raise err(full, "missing; it is required")
        return default
    value = table[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise err(full, f"expected an integer, got {value!r}")
    if minimum is not None and value < minimum:
        raise err(full, f"{value} is below the minimum {minimum}")
    return value


# ------------------------------------------------------------------------------ running


def item_seed(master: int, size: int, target: int, index: int) -> int:
    """The 63-bit seed of puzzle ``index`` of ``target`` clues at ``size`` (module docstring)."""
    ss = np.random.SeedSequence(master, spawn_key=(size, target, index))
    return int(ss.generate_state(1, np.uint64)[0] >> np.uint64(1))


def _run_item(size: int, target: int, seed: int, node_limit: int, max_level: str) -> dict:
    """Generate and classify one puzzle; one table row."""
    start = time.perf_counter()
    puzzle = generate_puzzle(size, seed, target, node_limit)
    generated = time.perf_counter()
    result = classify(puzzle.grid, size, max_level)
    done = time.perf_counter()
    row: dict[str, Any] = {
        "size": size,
        "box": "{}x{}".format(*BOXES[size]),
        "target": target,
        "clues": puzzle.clues,
        "minimal": puzzle.minimal,
        "tag": result.tag,
        "tag_rank": result.rank,
        "seed": seed,
    }
    for level in LEVELS:
        row[f"cand_{level}"] = result.candidates.get(level)
    row["seconds_generate"] = generated - start
    row["seconds_classify"] = done - generated
    row["grid"] = format_grid(puzzle.grid, size, one_line=True)
    return row


def study_items(config: StudyConfig) -> list[tuple[int, int, int, int, str]]:
    """Every puzzle of the study as (size, target, seed, node_limit, max_level), in order."""
    return [
        (
            spec.size,
            target,
            item_seed(config.seed, spec.size, target, j),
            spec.node_limit,
            config.max_level,
        )
        for spec in config.sizes
        for target in spec.clues
        for j in range(spec.puzzles)
    ]


def run_table(config: StudyConfig, workers: int | None = None) -> pd.DataFrame:
    """Generate and classify every puzzle; one row per puzzle, in config order."""
    items = study_items(config)
    workers = config.workers if workers is None else workers
    if workers > 1:
        from joblib import Parallel, delayed

        rows = Parallel(n_jobs=workers)(delayed(_run_item)(*item) for item in items)
    else:
        rows = [_run_item(*item) for item in items]
    table = pd.DataFrame(rows)
    table["bucket"] = [
        _bucket(row.clues, spec_clues)
        for row, spec_clues in zip(
            table.itertuples(),
            [s.clues for s in config.sizes for _ in s.clues for _ in range(s.puzzles)],
            strict=True,
        )
    ]
    table["tag"] = pd.Categorical(table["tag"], categories=list(TAGS))
    for level in LEVELS:  # null above a puzzle's tag: a nullable integer column
        table[f"cand_{level}"] = table[f"cand_{level}"].astype("Int64")
    cols = ["size", "box", "target", "clues", "bucket"]
    return table[cols + [c for c in table.columns if c not in cols]]


def _bucket(clues: int, targets: tuple[int, ...]) -> int:
    """The largest target not above ``clues``."""
    return max(t for t in targets if t <= clues)


def summarise(table: pd.DataFrame) -> pd.DataFrame:
    """Tag shares (0-1) by size and clue bucket, with counts and mean clues."""
    groups = table.groupby(["size", "bucket"], observed=True)
    counts = groups["tag"].value_counts().unstack(fill_value=0)
    counts = counts.reindex(columns=list(TAGS), fill_value=0)
    n = counts.sum(axis=1)
    shares = counts.div(n, axis=0)
    mean = groups["clues"].mean()
    cells = pd.Series(mean.index.get_level_values("size"), index=mean.index) ** 2
    out = pd.DataFrame({"puzzles": n, "mean_clues": mean, "filled": mean / cells})
    out = out.join(shares)
    out["minimal"] = groups["minimal"].mean()
    return out.reset_index()


def summary_markdown(summary: pd.DataFrame, config: StudyConfig) -> str:
    """The summary as a Markdown table (shares in per cent)."""
    head = ["size", "clues", "puzzles", "mean clues", "filled %", *TAGS, "minimal"]
    lines = [
        f"# {config.name}",
        "",
        config.question,
        "",
        "Share of puzzles (%) whose weakest solving level is each tag; `clues` is the bucket "
        "(from this target up to the next).",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "|".join("---:" for _ in head) + "|",
    ]
    for row in summary.itertuples(index=False):
        d = row._asdict()
        cells = [
            f"{d['size']}x{d['size']}",
            f"{d['bucket']}",
            f"{d['puzzles']}",
            f"{d['mean_clues']:.1f}",
            f"{100 * d['filled']:.0f}",
            *(f"{100 * d[t]:.0f}" for t in TAGS),
            f"{100 * d['minimal']:.0f}",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def hardness_figure(summary: pd.DataFrame):  # -> matplotlib Figure
    """Stacked tag shares against clue bucket, one panel per size (paper style)."""
    import seaborn as sns
    from matplotlib.figure import Figure

    from ludolab.research.plots.figures import PALETTE, TWO_COLUMN, paper_style

    sizes = list(dict.fromkeys(summary["size"]))
    colours = dict(zip(TAGS, sns.color_palette(PALETTE, len(TAGS)), strict=True))
    ncols = min(len(sizes), 3)
    nrows = -(-len(sizes) // ncols)
    with paper_style():
        fig = Figure(figsize=(TWO_COLUMN, 2.2 * nrows), layout="constrained")
        axes = fig.subplots(nrows, ncols, squeeze=False)
        for ax, size in zip(axes.flat, sizes, strict=False):
            part = summary[summary["size"] == size].sort_values("bucket")
            x = np.arange(len(part))
            bottom = np.zeros(len(part))
            for tag in TAGS:
                values = part[tag].to_numpy(dtype=float)
                ax.bar(x, values, bottom=bottom, color=colours[tag], width=0.85, label=tag)
                bottom += values
            labels = [str(b) for b in part["bucket"]]
            crowded = len(labels) * max(len(label) for label in labels) > 14
            ax.set_xticks(x, labels, rotation=90 if crowded else 0)
            ax.set_title(f"{size}x{size} (n={int(part['puzzles'].sum())})")
            ax.set_xlabel("clues (bucket)")
            ax.set_ylim(0, 1)
            ax.set_ylabel("share of puzzles")
        for ax in list(axes.flat)[len(sizes) :]:
            ax.set_visible(False)
        handles, labels = axes.flat[0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside right center", title="tag")
    return fig


@dataclass(frozen=True)
class StudyResult:
    """What a study run produced."""

    table: pd.DataFrame
    summary: pd.DataFrame
    paths: tuple[Path, ...]
    seconds: float


def run_study(config: StudyConfig, out: str | Path, workers: int | None = None) -> StudyResult:
    """Run the study and write its files into ``out`` (module docstring).

    Everything is computed before the first file is written, and each file is written
    atomically, so an interrupted run leaves no partial file.
    """
    import pyarrow as pa

    from ludolab.research.files import write_parquet, write_text
    from ludolab.research.plots.figures import save_figure

    start = time.perf_counter()
    table = run_table(config, workers)
    summary = summarise(table)
    markdown = summary_markdown(summary, config)
    fig = hardness_figure(summary)
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise PuzzleError(f"--out {out}: exists and is not a folder")
    out.mkdir(parents=True, exist_ok=True)
    meta = {"schema": "sudoku-hardness", "config": asdict(config)}
    arrow = pa.Table.from_pandas(table, preserve_index=False)
    arrow = arrow.replace_schema_metadata(
        {**(arrow.schema.metadata or {}), b"ludolab": json.dumps(meta).encode()}
    )
    paths = [out / "puzzles.parquet", out / "summary.csv", out / "summary.md"]
    write_parquet(paths[0], arrow)
    write_text(paths[1], summary.to_csv(index=False, float_format="%.4f"))
    write_text(paths[2], markdown)
    paths += save_figure(fig, out / "hardness")
    return StudyResult(table, summary, tuple(paths), time.perf_counter() - start)
