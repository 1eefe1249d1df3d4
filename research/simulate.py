"""What simulating any game needs: game seeds, agent lists, and records as Parquet tables."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ludolab.research.files import write_parquet

if TYPE_CHECKING:
    import pandas as pd

# The per-game columns each seat's row repeats, where a table has them (a run's games add
# condition, lineup, rotation and setup to the records' fields).
SEAT_ROW_KEYS = (
    "index", "condition", "lineup", "rotation", "setup", "game", "board_id", "deal_id", "seed",
)


def game_seeds(master_seed: int | Sequence[int], n: int) -> list[int]:
    """``n`` independent 63-bit game seeds spawned from ``master_seed`` (numpy SeedSequence).

    Game ``i`` gets the same seed — hence the same chance events — whatever the setups and
    agents, so two conditions run with one master seed are paired by common random numbers.
    """
    return [seed_of(child) for child in np.random.SeedSequence(master_seed).spawn(n)]


def seed_of(seq: np.random.SeedSequence) -> int:
    """A 63-bit integer seed drawn from ``seq``."""
    return int(seq.generate_state(1, np.uint64)[0] >> np.uint64(1))


def split_agent_list(text: str) -> list[str]:
    """Split ``"greedy:trade=false,offers=false,random"`` into one spec per seat.

    Commas separate seats, except that a ``key=value`` item (a plain name before the ``=``, as
    in ``algo=sb3_contrib:MaskablePPO``) belongs to the spec before it.
    """
    specs: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        key, eq, _ = item.partition("=")
        if eq and key.strip().replace("-", "_").isidentifier() and specs:
            specs[-1] += "," + item
        elif item:
            specs.append(item)
    return specs


# Seats each game allows, and its name in messages.
SEATS = {"catan": (2, 4), "gallery": (2, 5)}
TITLES = {"catan": "Catan", "gallery": "Masters Gallery"}


def check_lineup(game: str, specs: Sequence[str]) -> None:
    """Every seat's agent spec parses (the agent registry's ValueError names an unknown agent
    or parameter) and the number of seats fits ``game``, before anything is played."""
    from ludolab.envs.registries import registry_of

    registry = registry_of(game)
    for spec in specs:
        registry.parse(spec)
    low, high = SEATS[game]
    if not low <= len(specs) <= high:
        raise ValueError(
            f"{TITLES[game]} needs {low}-{high} agents, one per seat; got {len(specs)}"
        )


def records_table(records: Sequence[Any], schema: str, metadata: dict | None = None) -> pa.Table:
    """One row per game: every field of the records' ``to_dict()`` plus ``game`` (0-based).

    ``metadata`` (JSON-serialisable) is stored in the Parquet schema under ``ludolab``, with
    ``schema`` naming the record type.
    """
    table = records_columns(records, {"game": list(range(len(records)))})
    meta = {"schema": schema, **(metadata or {})}
    return table.replace_schema_metadata({"ludolab": json.dumps(meta)})


def records_columns(records: Sequence[Any], keys: dict[str, list]) -> pa.Table:
    """One row per record: the ``keys`` columns (one value per record each), then every field
    of the records (dataclasses, all of one type), built column by column: four times faster
    than a dict per row, which matters for the shortest games."""
    columns = dict(keys)
    if records:
        for field in dataclasses.fields(records[0]):
            columns[field.name] = [getattr(record, field.name) for record in records]
    return pa.Table.from_pydict(columns)


def write_table(table: pa.Table, path: str | Path) -> None:
    """Write ``table`` to ``path`` atomically (a temporary file renamed into place)."""
    write_parquet(path, table)


def game_seed(entropy: int | Sequence[int], i: int) -> int:
    """``game_seeds(entropy, n)[i]`` for any ``n > i``, without the list: child ``i`` of
    ``SeedSequence(entropy)`` is ``SeedSequence(entropy, spawn_key=(i,))``."""
    return seed_of(np.random.SeedSequence(entropy, spawn_key=(i,)))


@dataclass(frozen=True)
class BatchTask:
    """A batch of ``ludolab simulate``'s games, as a worker needs it.

    Attributes:
        chunk: the batch's number (0-based).
        game: ``"catan"`` or ``"gallery"``.
        games: the game indices (game ``i`` has seed ``game_seed(seed, i)``).
        seed: the master seed.
        agent_specs: one agent spec per seat.
        options: the game's rule options.
        setups: the boards / deals the batch's games use, by index into the full list (game
            ``i`` plays setup ``i % n_setups``); None: a fair shuffle per game (a board or a
            deal) from the game's seed.
        n_setups: how many setups the full list has.
    """

    chunk: int
    game: str
    games: range
    seed: int
    agent_specs: tuple[str, ...]
    options: Any
    setups: dict[int, Any] | None
    n_setups: int


def batch_tasks(
    game: str,
    games: int,
    seed: int,
    agent_specs: Sequence[str],
    options: Any,
    setups: Sequence[Any] | None,
    batch: int,
    skip: set[int] = frozenset(),  # type: ignore[assignment]
) -> Iterator[BatchTask]:
    """The tasks of a simulation of ``games`` games in batches of ``batch``, except the
    batches in ``skip`` (already played), made one at a time."""
    for chunk, start in enumerate(range(0, games, batch)):
        if chunk in skip:
            continue
        indices = range(start, min(start + batch, games))
        used = None
        if setups is not None:
            used = {i % len(setups): setups[i % len(setups)] for i in indices}
        yield BatchTask(
            chunk,
            game,
            indices,
            seed,
            tuple(agent_specs),
            options,
            used,
            0 if setups is None else len(setups),
        )


def fair_setup(game: str, players: int, seed: int) -> Any:
    """The fair setup of ``game`` drawn from ``seed``: a fair-shuffle Catan board
    (:func:`ludolab.research.catan.samplers.fair_board`), or a shuffled Masters Gallery deal
    for ``players`` seats."""
    if game == "catan":
        from ludolab.research.catan.samplers import fair_board

        return fair_board(seed)
    from ludolab.envs.gallery.deal import shuffled_deal

    return shuffled_deal(players, seed)


def play_one(game: str, setup: Any, specs: Sequence[str], seed: int, options: Any = None) -> Any:
    """One game of ``game`` on ``setup`` (a board or a deal) with fresh agents made from
    ``specs`` (one per seat, in seat order) and game seed ``seed``; the game's record (Catan's
    or Masters Gallery's ``GameRecord``)."""
    from ludolab.envs.registries import registry_of

    agents = [registry_of(game).parse(s) for s in specs]
    if game == "catan":
        from ludolab.envs.catan.play import play_game
    else:
        from ludolab.envs.gallery.play import play_game  # type: ignore[assignment]
    return play_game(setup, agents, seed, options)  # type: ignore[arg-type]


def winners(record: Any) -> list[int]:
    """The winning seats of a Catan or Masters Gallery record (several for a shared Gallery
    win; none for a Catan game cut off at the turn limit)."""
    if hasattr(record, "winners"):
        return list(record.winners)
    return [] if record.winner is None else [record.winner]


def play_batch(task: BatchTask) -> pa.Table:
    """Play a batch's games; one row per game: ``setup`` (the index of its setup in the list;
    the game's own index when each game has a fair shuffle), ``game`` (its index) and the
    record's fields.
    Every game gets fresh agents, so a batch's games do not depend on what else a process
    played (the same games whatever the batch size or the number of workers)."""
    players = len(task.agent_specs)
    records = []
    for i in task.games:
        seed = game_seed(task.seed, i)
        if task.setups is None:
            setup = fair_setup(task.game, players, seed)
        else:
            setup = task.setups[i % task.n_setups]
        records.append(play_one(task.game, setup, task.agent_specs, seed, task.options))
    games = list(task.games)
    setups = games if task.setups is None else [i % task.n_setups for i in games]
    return records_columns(records, {"setup": setups, "game": games})


@dataclass(frozen=True)
class SeatRows:
    """The long (game, seat) layout of a games table: one row per seat of every game.

    Attributes:
        table: the games table, its chunks combined.
        game_row: (R,) int, the games-table row of each seat row.
        seat: (R,) int, the seat (0-based) of each seat row.
        n_seats: (G,) int, seats per game.
        first_row: (G,) int, the seat row of each game's seat 0.
    """

    table: pa.Table
    game_row: np.ndarray
    seat: np.ndarray
    n_seats: np.ndarray
    first_row: np.ndarray

    @classmethod
    def of(cls, table: pa.Table) -> SeatRows:
        """Lay out ``table`` (one row per game, with its per-seat ``agents`` list column)."""
        table = table.combine_chunks()
        agents = table.column("agents").combine_chunks()
        game_row = np.asarray(pc.list_parent_indices(agents), dtype=np.int64)
        n_seats = np.asarray(pc.list_value_length(agents), dtype=np.int64)
        first_row = np.cumsum(n_seats) - n_seats
        seat = np.arange(len(game_row), dtype=np.int64) - first_row[game_row]
        return cls(table, game_row, seat, n_seats, first_row)

    def keys(self) -> dict[str, Any]:
        """The per-game key columns (:data:`SEAT_ROW_KEYS` present), repeated per seat, and
        ``seat``."""
        columns: dict[str, Any] = {}
        for key in SEAT_ROW_KEYS:
            if key in self.table.column_names:
                columns[key] = self.table.column(key).take(pa.array(self.game_row)).to_pandas()
        columns["seat"] = self.seat
        return columns

    def per_seat(self, column: str) -> np.ndarray:
        """A list column with one value per seat, as a (R,) array in seat-row order (None ->
        NaN for numbers)."""
        values = pc.list_flatten(self.table.column(column).combine_chunks())
        return values.to_numpy(zero_copy_only=False)

    def per_seat_vectors(self, column: str, width: int) -> np.ndarray:
        """A list column holding one ``width``-long list per seat, as a (R, width) array."""
        seats = pc.list_flatten(self.table.column(column).combine_chunks())
        return np.asarray(pc.list_flatten(seats)).reshape(-1, width)

    def is_seat(self, column: str) -> np.ndarray:
        """(R,) bool: whether a nullable per-game seat column (winner, a holder) names the row's
        seat."""
        holder = self.table.column(column).to_pandas().to_numpy(dtype=float, na_value=np.nan)
        return holder[self.game_row] == self.seat

    def frame(self, columns: dict[str, Any]) -> pd.DataFrame:
        """The keys and ``columns`` (seat-row arrays) as a DataFrame."""
        import pandas as pd

        return pd.DataFrame({**self.keys(), **columns})
