"""What simulating any game needs: game seeds, agent lists, and records as Parquet tables."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from research.files import write_parquet


def game_seeds(master_seed: int, n: int) -> list[int]:
    """``n`` independent 63-bit game seeds spawned from ``master_seed`` (numpy SeedSequence).

    Game ``i`` gets the same seed — hence the same chance events — whatever the setups and
    agents, so two conditions run with one master seed are paired by common random numbers.
    """
    children = np.random.SeedSequence(master_seed).spawn(n)
    return [int(c.generate_state(1, np.uint64)[0] >> np.uint64(1)) for c in children]


def split_agent_list(text: str) -> list[str]:
    """Split ``"greedy:trade=false,offers=false,random"`` into one spec per seat.

    Commas separate seats, except that a ``key=value`` item without its own agent name belongs
    to the spec before it.
    """
    specs: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if "=" in item and ":" not in item and specs:
            specs[-1] += "," + item
        elif item:
            specs.append(item)
    return specs


def records_table(records: Sequence[Any], schema: str, metadata: dict | None = None) -> pa.Table:
    """One row per game: every field of the records' ``to_dict()`` plus ``game`` (0-based).

    ``metadata`` (JSON-serialisable) is stored in the Parquet schema under ``ludolab``, with
    ``schema`` naming the record type.
    """
    rows = [{"game": i, **record.to_dict()} for i, record in enumerate(records)]
    table = pa.Table.from_pylist(rows)
    meta = {"schema": schema, **(metadata or {})}
    return table.replace_schema_metadata({"ludolab": json.dumps(meta)})


def write_table(table: pa.Table, path: str | Path) -> None:
    """Write ``table`` to ``path`` atomically (a temporary file renamed into place)."""
    write_parquet(path, table)
