"""Do two runs of one config play the same games? Setup for setup, game for game, field for field.

    .venv/bin/python benchmarks/same_games.py BASE_RUN NEW_RUN [BASE_RUN NEW_RUN ...]
    .venv/bin/python benchmarks/same_games.py --root build/baseline-49 --new build/after-49

A run is a folder ``ludolab run`` wrote (``games.parquet`` and the setups file beside it). The
setups must be equal line for line, and ``games.parquet`` equal row for row in every column of
the old run, a column the record core renamed being compared under its new name
(:data:`RENAMED`), and the core fields a game's old record lacked checked against the columns
they follow from (:data:`ADDED`). With ``--root``/``--new``, every run folder under ROOT is
compared with the folder at the same relative path under NEW. Prints one line per pair and
exits 1 if any differs.

This is how a change that must not move a game (the game protocol of issue 49, a refactor of
an engine) is checked against the shipped experiments run before it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from itertools import accumulate
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq


def _same(value: Any) -> Any:
    return value


def _cumulative(rows: list[list[int]]) -> list[list[int]]:
    def add(a: list[int], b: list[int]) -> list[int]:
        return [x + y for x, y in zip(a, b, strict=True)]

    return [list(r) for r in accumulate(rows, add)]


RENAMED: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "board_id": ("setup_id", _same),
    "deal_id": ("setup_id", _same),
    "winner": ("winners", lambda w: [] if w is None else [w]),
    "final_vp": ("final_scores", _same),
    "vp_by_turn": ("score_by_step", _same),
    "round_scores": ("score_by_step", _cumulative),
}
"""Old column -> (its name in the record core, the old value as the new one), for the fields
the game protocol's record core (issue 49) renamed: Catan's single ``winner`` became the list
``winners``; Masters Gallery's money per round became the money earned up to each round."""

ADDED: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "turns": ("turns_per_round", sum),
    "rounds": ("turns_per_round", len),
    "truncated": ("turns_per_round", lambda _: False),
}
"""Core fields a game's old record did not have -> (the old column they follow from, how):
Masters Gallery's ``turns``, ``rounds`` and ``truncated``."""


def setups_file(run: Path) -> Path | None:
    """The run's setups file (``boards.jsonl``, ``deals.jsonl``...): the one .jsonl beside
    ``games.parquet``."""
    found = sorted(run.glob("*.jsonl"))
    return found[0] if len(found) == 1 else None


def compare(base: Path, new: Path) -> list[str]:
    """What differs between the two runs (empty: the same games)."""
    problems = []
    old_setups, new_setups = setups_file(base), setups_file(new)
    if old_setups is None or new_setups is None:
        problems.append("no single setups file (*.jsonl) in one of the runs")
    elif old_setups.read_bytes() != new_setups.read_bytes():
        problems.append(f"setups differ ({old_setups.name} vs {new_setups.name})")
    old, now = pq.read_table(base / "games.parquet"), pq.read_table(new / "games.parquet")
    if old.num_rows != now.num_rows:
        return [*problems, f"{old.num_rows} games before, {now.num_rows} now"]
    checks = [(column, *RENAMED.get(column, (column, _same))) for column in old.column_names]
    checks += [
        (source, column, how)
        for column, (source, how) in ADDED.items()
        if column not in old.column_names and source in old.column_names
    ]
    for column, name, how in checks:
        if name not in now.column_names:
            problems.append(f"column {column!r} ({name!r} now) is gone")
            continue
        expected = [how(v) for v in old.column(column).to_pylist()]
        got = now.column(name).to_pylist()
        rows = [i for i, (a, b) in enumerate(zip(expected, got, strict=True)) if a != b]
        if rows:
            problems.append(
                f"column {name!r} (from {column!r}): {len(rows)} games differ, first row {rows[0]}"
            )
    return problems


def pairs_under(root: Path, new: Path) -> list[tuple[Path, Path]]:
    """Every run folder under ``root`` (one with a games.parquet) and its twin under ``new``."""
    return [
        (games.parent, new / games.parent.relative_to(root))
        for games in sorted(root.rglob("games.parquet"))
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="*", type=Path, help="BASE_RUN NEW_RUN pairs")
    parser.add_argument("--root", type=Path, help="a folder of base runs")
    parser.add_argument("--new", type=Path, help="the folder of new runs, laid out as --root")
    args = parser.parse_args(argv)
    if len(args.runs) % 2 or (args.root is None) != (args.new is None):
        parser.error("give BASE_RUN NEW_RUN pairs, or --root and --new")
    pairs = list(zip(args.runs[::2], args.runs[1::2], strict=True))
    if args.root is not None:
        pairs += pairs_under(args.root, args.new)
    if not pairs:
        parser.error("no runs to compare")
    differ = 0
    for base, new in pairs:
        if not (new / "games.parquet").is_file():
            print(f"MISSING {new}: no games.parquet")
            differ += 1
            continue
        problems = compare(base, new)
        games = pq.read_metadata(base / "games.parquet").num_rows
        columns = len(pq.read_schema(base / "games.parquet").names)
        if problems:
            differ += 1
            print(f"DIFFER  {base} vs {new}: " + "; ".join(problems))
        else:
            print(f"same    {base} vs {new}: {games:,} games, {columns} columns, setups equal")
    print(f"{len(pairs) - differ} of {len(pairs)} runs play the same games")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
