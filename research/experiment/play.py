"""Playing one chunk of an experiment's games: a pure function of its task.

A chunk is a run of consecutive games of the plan (:func:`.config.plan_games`). Its result
depends only on the games' setups, seats, seeds and the rule options -- never on which process
or machine plays it, or on what that process played before (every game gets fresh agents) --
which is what makes a run bit-identical whatever the backend and the worker count.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from ludolab import games
from ludolab.research.simulate import records_columns

if TYPE_CHECKING:  # annotations only: a worker imports no experiment config machinery
    from ludolab.research.experiment.config import GameSpec
    from ludolab.research.experiment.setups import Setup

# The plan's columns in each row, before the game record's own fields.
SPEC_COLUMNS = (
    "index",
    "condition",
    "condition_index",
    "lineup",
    "rotation",
    "setup",
    "game",
    "slot",
    "pair",
)


@dataclass(frozen=True)
class ChunkTask:
    """What a worker needs to play one chunk.

    Attributes:
        chunk: the chunk's number (0-based).
        game: the game's registered name (:mod:`ludolab.games`).
        options: the rule options of each condition the chunk's games belong to.
        specs: the chunk's games, consecutive in the plan.
        setups: the setups those games use, by ``(condition, setup index)``.
    """

    chunk: int
    game: str
    options: dict[str, Any]
    specs: tuple[GameSpec, ...]
    setups: dict[tuple[str, int], Setup]


def chunk_ranges(n_games: int, chunk_size: int) -> list[range]:
    """The plan's games cut into consecutive chunks of ``chunk_size`` (the last may be short)."""
    return [range(a, min(a + chunk_size, n_games)) for a in range(0, n_games, chunk_size)]


def make_task(
    chunk: int,
    game: str,
    options: Mapping[str, Any],
    specs: Sequence[GameSpec],
    setups: dict[str, list[Setup]],
) -> ChunkTask:
    """A task carrying only the setups and condition options its games use (tasks travel to
    remote workers)."""
    used = {(s.condition, s.setup) for s in specs}
    conditions = {s.condition for s in specs}
    return ChunkTask(
        chunk,
        game,
        {c: options[c] for c in conditions},
        tuple(specs),
        {key: setups[key[0]][key[1]] for key in used},
    )


def play_chunk(task: ChunkTask) -> pa.Table:
    """Play the chunk's games in plan order; one row per game.

    Columns: :data:`SPEC_COLUMNS` (from the plan), then every field of the game's record
    (which includes the setup's id, the seed and the agents per seat).
    """
    game = games.get(task.game)
    parse, play = game.agents.parse, game.play
    records = []
    for spec in task.specs:
        agents = [parse(seat) for seat in spec.seats]
        options = task.options[spec.condition]
        record = play(task.setups[spec.condition, spec.setup], agents, spec.seed, options)
        if record.seed != spec.seed or tuple(record.agents) != tuple(spec.seats):
            raise AssertionError(f"game {spec.index}: the record does not match its plan entry")
        records.append(record)
    keys = {col: [getattr(spec, col) for spec in task.specs] for col in SPEC_COLUMNS}
    return records_columns(records, keys)
