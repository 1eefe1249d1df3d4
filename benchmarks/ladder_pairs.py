"""Head to head from a ladder folder that is already played: how often each agent finished
ahead of each other one, and their rating difference, from the folder's own games.

    .venv/bin/python benchmarks/ladder_pairs.py FOLDER [--seed S]

FOLDER is a ``ludolab ladder --out`` folder (games.parquet, ratings.csv). ``ludolab ladder``
writes the same table into ladder.md and head_to_head.csv; this reads folders written before it
did. ``--seed``: the ladder's ``--seed`` (default 0), so that the ratings' bootstrap is the
ladder's own.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from ludolab.research.ladder import head_to_head, head_to_head_markdown


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    games = pd.read_parquet(args.folder / "games.parquet")
    agents = list(pd.read_csv(args.folder / "ratings.csv").agent)  # stronger first
    print(head_to_head_markdown(head_to_head(games, agents, args.seed)))


if __name__ == "__main__":
    main()
