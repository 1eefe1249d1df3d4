"""What simulating any game needs: game seeds, agent lists, and records as Parquet tables."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ludolab import games as games_registry  # `games` is many functions' argument
from ludolab.research.files import write_parquet

if TYPE_CHECKING:
    import pandas as pd

# The per-game columns each seat's row repeats, where a table has them (a run's games add
# condition, lineup, rotation and setup to the records' fields).
SEAT_ROW_KEYS = (
    "index",
    "condition",
    "lineup",
    "rotation",
    "setup",
    "game",
    "setup_id",
    "seed",
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


def check_lineup(game: str, specs: Sequence[str]) -> None:
    """Every seat's agent spec parses (the agent registry's ValueError names an unknown agent
    or parameter) and the number of seats fits ``game``, before anything is played."""
    described = games_registry.get(game)
    for spec in specs:
        described.agents.parse(spec)
    if len(specs) not in described.players:
        raise ValueError(
            f"{described.title} needs {described.min_players}-{described.max_players} agents, "
            f"one per seat; got {len(specs)}"
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
    """The fair setup of ``game`` for ``players`` seats drawn from ``seed`` (the game's
    :meth:`~ludolab.games.Game.fair_setup`: a fair-shuffle board, a shuffled deal...)."""
    return games_registry.get(game).fair_setup(players, seed)


def play_one(game: str, setup: Any, specs: Sequence[str], seed: int, options: Any = None) -> Any:
    """One game of ``game`` on ``setup`` with fresh agents made from ``specs`` (one per seat,
    in seat order) and game seed ``seed``; the game's record."""
    described = games_registry.get(game)
    agents = [described.agents.parse(s) for s in specs]
    return described.play(setup, agents, seed, options)


def winners(record: Any) -> list[int]:
    """The winning seats of a game's record (its core ``winners``: several for a shared win,
    none for a game cut off)."""
    return list(record.winners)


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

    def won(self) -> np.ndarray:
        """(R,) bool: whether the row's seat is among its game's ``winners`` (the record
        core's list column)."""
        winners = self.table.column("winners").combine_chunks()
        out = np.zeros(len(self.seat), dtype=bool)
        game = np.asarray(pc.list_parent_indices(winners), dtype=np.int64)
        out[self.first_row[game] + np.asarray(pc.list_flatten(winners), dtype=np.int64)] = True
        return out

    def shared_win(self) -> np.ndarray:
        """(R,) bool: the row's seat won, and shared the win with another seat."""
        winners = self.table.column("winners").combine_chunks()
        n_winners = np.asarray(pc.list_value_length(winners))
        return self.won() & (n_winners[self.game_row] > 1)

    def is_seat(self, column: str) -> np.ndarray:
        """(R,) bool: whether a nullable per-game seat column (winner, a holder) names the row's
        seat."""
        holder = self.table.column(column).to_pandas().to_numpy(dtype=float, na_value=np.nan)
        return holder[self.game_row] == self.seat

    def frame(self, columns: dict[str, Any]) -> pd.DataFrame:
        """The keys and ``columns`` (seat-row arrays) as a DataFrame."""
        import pandas as pd

        return pd.DataFrame({**self.keys(), **columns})


# Columns that name a game rather than describe its play: two plays of one game differ in them
# (its row in a file or plan, its seed, the plan's slot, pair key and setup index).
GAME_NAME_COLUMNS = frozenset({"index", "condition_index", "game", "slot", "pair", "seed", "setup"})


@dataclass(frozen=True)
class Repeats:
    """Which games repeat another game of their group record for record.

    A group holds games that could be one game played again: one setup, one lineup and seating,
    one set of rules. Agents that make no random choice play every game of a group the same way
    (a Masters Gallery engine draws nothing; Catan's dice come from the game seed), and such
    copies carry no information beyond the first.

    Attributes:
        group: (G,) int, each game's group (0 .. number of groups - 1).
        first: (G,) int, the row of the first game of its group with the same record (all but
            the columns of :data:`GAME_NAME_COLUMNS`); a game's own row when no earlier game of
            its group matches it.
    """

    group: np.ndarray
    first: np.ndarray

    @property
    def n_games(self) -> int:
        return len(self.first)

    @property
    def n_distinct(self) -> int:
        """Games that repeat no earlier game of their group."""
        return int((self.first == np.arange(self.n_games)).sum())

    @property
    def n_groups(self) -> int:
        return int(self.group.max()) + 1 if self.n_games else 0

    def distinct_per_group(self) -> tuple[np.ndarray, np.ndarray]:
        """(games, distinct games) per group, each (n_groups,) int."""
        sizes = np.bincount(self.group, minlength=self.n_groups)
        own = self.first == np.arange(self.n_games)
        return sizes, np.bincount(self.group[own], minlength=self.n_groups)

    @property
    def every_group_repeats(self) -> bool:
        """Some group has two or more games, and every such group is one game played over and
        over: the mark of agents that make no random choice (when the rules draw nothing)."""
        return self.each_repeats(np.arange(self.n_groups))

    def each_repeats(self, groups: np.ndarray) -> bool:
        """:attr:`every_group_repeats` over ``groups`` (group numbers) only."""
        sizes, distinct = self.distinct_per_group()
        several = sizes[groups] >= 2
        return bool(several.any() and (distinct[groups][several] == 1).all())


def find_repeats(
    groups: pd.DataFrame,
    cheap: pd.DataFrame,
    records: pa.Table | str | Path | None,
) -> Repeats:
    """Find the games that repeat an earlier game of their group (:class:`Repeats`).

    Args:
        groups: one row per game (in the order of ``records``), the columns that make a group
            (e.g. ``setup``; or ``condition``, ``lineup``, ``rotation``, ``setup``).
        cheap: one row per game of numbers or booleans computed from the game's record (its
            length, scores, winner): games whose rows differ are different games. Only games
            that share a group and a row here are compared in full, which keeps the full
            comparison (a few tens of microseconds a game) to the few games that need it.
        records: the games' full records, rows in the same order: a table or a Parquet file
            (read one row group at a time, only the row groups holding such games). Every
            column but :data:`GAME_NAME_COLUMNS` is compared (as a 128-bit BLAKE2b digest of
            its values). None when no full records are at hand: ValueError if any game needs
            them.
    """
    import pandas as pd

    n = len(groups)
    group = groups.groupby(list(groups.columns), sort=False, observed=True, dropna=False).ngroup()
    group = group.to_numpy(dtype=np.int64)
    first = np.arange(n, dtype=np.int64)
    if n == 0:
        return Repeats(group, first)
    hashed = pd.util.hash_pandas_object(cheap.reset_index(drop=True), index=False).to_numpy()
    keys = pd.DataFrame({"group": group, "cheap": hashed})
    rows = np.flatnonzero(keys.duplicated(keep=False).to_numpy())
    if not len(rows):
        return Repeats(group, first)
    if records is None:
        raise ValueError(
            f"{len(rows)} games share a setup and their length and scores: telling whether they "
            "are one game repeated needs their full records (pass the games file or table)"
        )
    digests = _row_digests(records, rows)
    seen: dict[tuple[int, bytes], int] = {}
    for row, digest in zip(rows.tolist(), digests, strict=True):
        first[row] = seen.setdefault((int(group[row]), digest), row)
    return Repeats(group, first)


def _row_digests(records: pa.Table | str | Path, rows: np.ndarray) -> list[bytes]:
    """A BLAKE2b digest of each of ``rows`` (sorted row numbers) of ``records``, over every
    column but :data:`GAME_NAME_COLUMNS`, in the columns' order."""
    import pyarrow.parquet as pq

    def digest_all(table: pa.Table) -> list[bytes]:
        columns = [c for c in table.column_names if c not in GAME_NAME_COLUMNS]
        values = [table.column(c).to_pylist() for c in columns]
        # repr of Python ints, strings, bools, None and lists: one text per equal record
        return [
            hashlib.blake2b(repr(row).encode(), digest_size=16).digest()
            for row in zip(*values, strict=True)
        ]

    if isinstance(records, pa.Table):
        return digest_all(records.take(pa.array(rows)))
    file = pq.ParquetFile(records)
    out: list[bytes] = []
    start = 0
    for i in range(file.num_row_groups):
        size = file.metadata.row_group(i).num_rows
        inside = rows[(rows >= start) & (rows < start + size)] - start
        if len(inside):
            out += digest_all(file.read_row_group(i).take(pa.array(inside)))
        start += size
    return out


def win_interval(
    won: np.ndarray, clusters: np.ndarray, confidence: float = 0.95
) -> tuple[float, float]:
    """The Wilson interval of a win rate whose games are not independent within a cluster.

    ``won``: (n,) each game's win, in [0, 1] (1/k for a win shared by k); ``clusters``: (n,)
    labels, the unit games are not independent within (the setup; or, with one setup, the
    distinct game). Wilson's score interval on Kish's effective number of games
    (:func:`ludolab.research.metrics.core.effective_sample_size`: n over the design effect of
    the cluster-robust variance of the mean; the same as statsmodels' clustered standard
    error of an intercept-only OLS). A cluster of identical games then counts once, and the
    interval stays inside [0, 1] where a t interval or a percentile bootstrap over clusters
    would collapse to one point (a seat that never wins). One cluster: the games are one unit,
    so the interval is Wilson's on one observation. (NaN, NaN) without games.

    The cluster-robust variance rests on C - 1 degrees of freedom for C clusters, so the
    effective size is also scaled by (z / t_{C-1})^2 (Korn & Graubard 1998): by 0.024 with two
    clusters, 0.95 with 50. Without the scaling, two boards of 1,000 games gave a seat with one
    win [0.009%, 0.28%]; with it, [0.0003%, 7.6%].
    """
    from scipy.stats import norm
    from scipy.stats import t as student_t

    from ludolab.research.metrics.core import effective_sample_size, wilson_interval

    won = np.asarray(won, dtype=float)
    if not len(won):
        return float("nan"), float("nan")
    units = len(np.unique(clusters))
    if units == 1:
        return wilson_interval(float(won.mean()), 1.0, confidence)
    if units == len(won):  # one game per cluster: independent games, nothing to estimate
        return wilson_interval(float(won.sum()), float(len(won)), confidence)
    q = 0.5 + confidence / 2
    n_eff = effective_sample_size(won, clusters) * (norm.ppf(q) / student_t.ppf(q, units - 1)) ** 2
    return wilson_interval(float(won.mean()) * n_eff, n_eff, confidence)


@dataclass(frozen=True)
class SummaryUnit:
    """The unit of a simulation summary's intervals (:func:`summary_unit`).

    Attributes:
        clusters: (G,) int, each game's unit (its setup's number, or its distinct game's row).
        name: the unit in words ("deal", "board", "distinct game").
        lines: two summary lines: how many games are distinct, and the intervals' unit.
    """

    clusters: np.ndarray
    name: str
    lines: list[str]


def summary_unit(setups: np.ndarray, repeats: Repeats, kind: str) -> SummaryUnit:
    """The unit of a simulation summary's intervals, and the lines that say so.

    ``setups``: (G,) each game's setup (its board or deal id); ``repeats``: the games' repeats
    within their setup (:func:`find_repeats`); ``kind``: ``"board"`` or ``"deal"``. With two or
    more setups the unit is the setup: games on one board or deal are repeated measurements of
    it, not independent samples of the set it came from (and copies of one game are one
    observation), so the intervals are over setups (:func:`win_interval`). With a single setup
    the unit is the distinct game, and the intervals hold for that setup only.
    """
    import pandas as pd

    n, distinct = repeats.n_games, repeats.n_distinct
    labels, uniques = pd.factorize(np.asarray(setups))
    n_setups = len(uniques)
    plural = f"{kind}s"
    if distinct == n:
        lines = [f"  distinct games: all {n:,}"]
    elif repeats.every_group_repeats:
        lines = [
            f"  distinct games: {distinct:,} of {n:,}: every game on a {kind} repeats that "
            f"{kind}'s first game record for record (the agents made no random choice); "
            f"{n_setups:,} game{'s' if n_setups > 1 else ''}, one per {kind}, would tell as much"
        ]
    else:
        lines = [
            f"  distinct games: {distinct:,} of {n:,} ({n - distinct:,} repeat an earlier game "
            f"on the same {kind})"
        ]
    if n_setups >= 2:
        how = "one game on each" if n_setups == n else f"games on one {kind} are not independent"
        lines.append(
            f"  intervals: the unit is the {kind} ({n_setups:,} {plural}; {how}): Wilson 95% "
            f"on the effective number of games, from the cluster-robust variance over {plural} "
            f"({n_setups - 1:,} degrees of freedom)"
        )
        return SummaryUnit(labels, kind, lines)
    lines.append(
        f"  intervals: the unit is the distinct game ({distinct:,}): all games are on one "
        f"{kind}, so the intervals hold for that {kind} only"
    )
    return SummaryUnit(repeats.first, "distinct game", lines)


def per_seat_table(games: pa.Table, game: str) -> pd.DataFrame:
    """One row per seat of every game of ``game`` (a tidy long table): the game's keys
    (``condition``, ``setup``, ``game``, ``seed``... where ``games`` has them), ``seat``
    (0-based), ``agent``, ``won`` (bool; every seat of a shared win; none in a game cut off),
    ``shared_win`` (bool), ``final_score`` (the game's score unit), then the game's own per-seat
    columns (:meth:`ludolab.games.Game.own_seat_values`). ``games``: a games table (records
    or a run's games)."""
    rows = SeatRows.of(games)
    return rows.frame(
        {
            "agent": rows.per_seat("agents"),
            "won": rows.won(),
            "shared_win": rows.shared_win(),
            "final_score": rows.per_seat("final_scores"),
            **games_registry.get(game).own_seat_values(rows.table),
        }
    )


def records_schema(game: str) -> str:
    """The schema name ``ludolab simulate`` writes into its Parquet file's metadata:
    ``ludolab.<game>.games/2``, version 2 being the records with the record core first."""
    return f"ludolab.{game}.games/2"


SUMMARY_COLUMNS = (
    "setup_id", "agents", "winners", "final_scores", "turns", "rounds", "n_actions", "truncated",
)  # fmt: skip
"""The record core's columns :func:`summarise` reads (not the per-step traces)."""


def summarise(games: pa.Table, game: str, source: str | Path | None = None) -> str:
    """A few lines on the games of ``game`` in ``games`` (a table of its records with at least
    :data:`SUMMARY_COLUMNS`; read a large file with ``pq.read_table(path,
    columns=SUMMARY_COLUMNS)``): how they ended, how many are distinct, their length, each
    seat's outright win rate (Wilson 95%, the setup as the unit), the final scores, their
    spread and the winner's margin, in the game's units.

    Games on one setup that repeat each other record for record are found
    (:func:`find_repeats`) and no interval counts them as independent: with two or more setups
    the intervals are over setups, with one over the distinct games (:func:`summary_unit`).
    Telling repeats apart needs the full records: ``games`` with every record field, or
    ``source``, the Parquet file ``games`` was read from (ValueError without either when games
    share a setup and an outcome). A win shared by several seats is nobody's outright win; a
    game cut off (``truncated``) has no winner and counts in no win rate."""
    import pandas as pd

    described = games_registry.get(game)
    n = games.num_rows
    turns = games.column("turns").to_numpy().astype(float)
    rounds = games.column("rounds").to_numpy().astype(float)
    n_actions = games.column("n_actions").to_numpy()
    truncated = games.column("truncated").to_numpy(zero_copy_only=False).astype(bool)
    winners = games.column("winners").combine_chunks()
    n_winners = np.asarray(pc.list_value_length(winners))
    winner = np.full(n, -1)  # each game's first winning seat, -1 for none
    parents = np.asarray(pc.list_parent_indices(winners))
    # reversed, so that the last write, the one that stays, is each game's first winner
    winner[parents[::-1]] = np.asarray(pc.list_flatten(winners))[::-1]
    scores = np.asarray(pc.list_flatten(games.column("final_scores")), dtype=float).reshape(n, -1)
    agents = games.column("agents")[0].as_py()
    setups = games.column("setup_id").to_numpy(zero_copy_only=False)
    cheap = pd.DataFrame(scores).assign(
        turns=turns, rounds=rounds, actions=n_actions, cut=truncated, won=winner, ties=n_winners
    )
    fields = {f.name for f in dataclasses.fields(described.record_type)}
    full = games if fields <= set(games.column_names) else None
    repeats = find_repeats(
        pd.DataFrame({"setup": setups}), cheap, source if source is not None else full
    )
    unit = summary_unit(setups, repeats, described.setup_noun)
    outright = n_winners == 1
    finished = ~truncated
    lines = [
        f"  games {n}: won outright {int(outright.sum())}, shared wins "
        f"{int((n_winners > 1).sum())}, cut off (no winner) {int(truncated.sum())}",
        *unit.lines,
        f"  {described.turn_unit} per game: mean {turns.mean():.1f}, median "
        f"{np.median(turns):g}, sd {turns.std():.1f}; rounds: mean {rounds.mean():.1f}; "
        f"decisions per game {n_actions.mean():.1f}",
    ]
    if finished.any():
        parts = []
        for seat in range(scores.shape[1]):
            won = (outright & (winner == seat))[finished]
            low, high = win_interval(won, unit.clusters[finished])
            parts.append(f"seat {seat} ({agents[seat]}) {won.mean():.1%} [{low:.1%}, {high:.1%}]")
        which = "finished games, " if truncated.any() else ""
        lines.append(
            f"  outright win rate ({which}Wilson 95%, unit: the {unit.name}): " + "; ".join(parts)
        )
    lines.append(_score_line(scores, winner, described.score_unit))
    return "\n".join(lines)


def _score_line(scores: np.ndarray, winner: np.ndarray, unit: str) -> str:
    """Mean final score by seat, mean spread (max - min), and the winner's mean margin over
    the best other seat in the games won (0 for a shared win). ``scores``: (G, seats) in
    ``unit``; ``winner``: (G,) a winning seat of each game, -1 for none."""
    spread = (scores.max(axis=1) - scores.min(axis=1)).mean()
    won = winner >= 0
    done = scores[won]
    seat = winner[won]
    best = done[np.arange(len(done)), seat]
    others = done.copy()
    others[np.arange(len(done)), seat] = -np.inf
    margins = best - others.max(axis=1)
    return (
        f"  final score by seat ({unit}): "
        + " ".join(f"{v:.2f}" for v in scores.mean(axis=0))
        + f"; {unit} spread (max - min) mean {spread:.2f}"
        + (f"; winner's margin mean {margins.mean():.2f}" if len(margins) else "")
    )
