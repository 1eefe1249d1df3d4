"""The Python API: generate setups, simulate games, run experiments, load finished runs.

Everything here is also reachable as ``ludolab.<name>``. Each function is a thin layer over the
modules the command line uses, so a script and ``ludolab run`` give the same numbers for the
same seeds. Tables are pandas DataFrames; setups, seats and games count from 0 everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ludolab import games as _games  # the registry (``games`` is a count below)

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

GAMES = tuple(_games.names())
"""The registered games' names (:mod:`ludolab.games`): the built-in ones, Settlers of Catan
(``catan``) and Modern Art: Masters Gallery (``gallery``), and any an installed package adds."""


def register_envs() -> dict[str, tuple[str, ...]]:
    """Register every game's Gymnasium environments (idempotent) and return their ids by game,
    e.g. ``{"catan": ("ludolab/Catan-v0",), ...}``, so that ``gymnasium.make(id, ...)``
    works."""
    return {name: _games.get(name).register_envs() for name in _games.names()}


def constraint_sets() -> dict[str, list[str]]:
    """The shipped constraint sets by game, e.g. ``{"catan": ["balanced", ...], "gallery":
    [...]}``. ``ludolab constraints show NAME`` describes one."""
    return {name: list(_games.get(name).shipped_sets()) for name in _games.names()}


class Setups(list):  # type: ignore[type-arg]
    """The setups (boards, deals...) :func:`generate` drew: a list, plus ``report``, what the
    sampler did (a :class:`ludolab.games.SetupDraw`: ``report.uniform`` says whether they are
    uniform draws from the setups that satisfy the set)."""

    def __init__(self, items: Sequence[Any], report: Any) -> None:
        super().__init__(items)
        self.report = report


def generate(
    constraints: str | Path,
    n: int,
    seed: int = 0,
    *,
    game: str | None = None,
    players: int | None = None,
    sampler: str | None = None,
    params: Mapping[str, Any] | None = None,
) -> Setups:
    """``n`` setups satisfying a constraint set, reproducible from ``seed``.

    Args:
        constraints: a shipped set's name (see :func:`constraint_sets`) or a ``.toml`` file.
        n: how many setups (a sampler that lists a small set may give fewer).
        seed: every random choice derives from it.
        game: the game the set is for; None: the game that ships the set or knows all of its
            constraints (the one that ships it, or knows every constraint its file lists).
        players: the seats the setups are for (default: the game's ``default_players``; a
            Masters Gallery deal is dealt for a number of seats, a Catan board is not).
        sampler: one of the game's samplers (default: its ``default_sampler``; for Catan
            ``uniform``: exact, or Markov chains whose diagnostics passed, never the solver;
            see ``ludolab generate catan --help`` for the others).
        params: parameter values, ``{"constraint": {"param": value}}`` or flat
            ``{"constraint.param": value}``, e.g. ``{"balanced-symbols": {"tolerance": 1}}``.

    Raises ValueError (:class:`ludolab.games.SetupSetError` for the set itself) and the
    samplers' errors, each with a message that says what to change.
    """
    described = _games.get(game if game is not None else _games.game_of_set(constraints))
    players = described.default_players if players is None else players
    described.check_players(players)
    sampler = described.default_sampler if sampler is None else sampler
    if sampler not in described.samplers:
        raise ValueError(
            f"sampler {sampler!r}: {described.title} samplers are {', '.join(described.samplers)}"
        )
    flat: dict[str, Any] = {}
    for key, value in (params or {}).items():
        if isinstance(value, Mapping):
            flat.update({f"{key}.{p}": v for p, v in value.items()})
        else:
            flat[key] = value
    options = described.default_options()
    cset = described.load_set(constraints, flat, players=players, options=options)
    settings = described.sampler_settings(cset, sampler, {}, n)
    draw = described.draw_setups(
        cset, n, sampler, seed, players=players, options=options, settings=settings
    )
    return Setups(draw.setups, draw)


@dataclass(eq=False)
class Games:
    """Games as tables: what :func:`simulate` returns, and a finished run's games.

    Attributes:
        game: the registered game's name (:mod:`ludolab.games`).
        table: the games as an Arrow table, one row per game, every field of the game records
            (per-turn traces included) plus the keys (``condition``, ``setup``, ``game``...).
    """

    game: str
    table: pa.Table

    @cached_property
    def games(self) -> pd.DataFrame:
        """One row per game: keys, then the record core (``setup_id``, ``seed``, ``agents``
        per seat, ``winners``, ``final_scores``, ``score_by_step``, ``turns``, ``rounds``,
        ``n_actions``, ``truncated``) and the game's own record fields (per-seat and per-step
        fields as lists)."""
        return self.table.to_pandas()

    @cached_property
    def per_seat(self) -> pd.DataFrame:
        """The tidy long table: one row per seat of every game (``seat`` 0-based, ``agent``,
        ``won``, ``shared_win``, ``final_score`` and the game's own per-seat columns; see
        :func:`ludolab.research.simulate.per_seat_table`)."""
        from ludolab.research.simulate import per_seat_table

        return per_seat_table(self.table, self.game)

    @cached_property
    def metrics(self) -> pd.DataFrame:
        """The game-quality metrics, one row per game (``ludolab metrics`` lists them;
        :data:`ludolab.research.metrics.METRICS` holds their definitions)."""
        from ludolab.research.metrics.games import per_game_metrics

        return per_game_metrics(self.table, game=self.game)

    def __len__(self) -> int:
        return self.table.num_rows


def simulate(
    game: str,
    agents: Sequence[str] | str,
    games: int,
    *,
    setups: Sequence[Any] | None = None,
    seed: int = 0,
    options: Mapping[str, Any] | Any = None,
    condition: str = "",
    workers: int = 1,
    players: int | None = None,
) -> Games:
    """Play ``games`` games and return them as tables.

    Args:
        game: ``"catan"`` or ``"gallery"``.
        agents: one agent spec per seat (``["greedy", "random", "random"]``, or the command
            line's ``"greedy,random,random"``); ``ludolab simulate catan --help`` lists them.
            One spec alone (``"greedy"``) sits at every seat, as in a config's ``seats``:
            ``players`` seats, or as many as the setups' deals have.
        games: how many games.
        setups: Boards / Deals (e.g. from :func:`generate`); game ``i`` is played on
            ``setups[i % len(setups)]``. None: a fair shuffle per game, drawn from its seed.
        seed: the master seed; game ``i``'s seed is
            :func:`ludolab.research.simulate.game_seed` ``(seed, i)`` whatever the setups, so
            two conditions simulated with one seed are paired by common random numbers.
        options: rule options, a dict of GameOptions / GalleryOptions fields or one of them.
        condition: a label for the ``condition`` column (e.g. the set's name), to stack the
            tables of several conditions with ``pd.concat``.
        workers: local worker processes (the games are the same for any number).
        players: with one agent spec, how many seats it fills (default: the deals' players
            for Masters Gallery setups; otherwise it must be given).

    The tables get a ``condition``, a ``setup`` (the index into ``setups``; with None, the
    game's own index) and a ``game`` (0-based) column. Raises ValueError for unknown agents or
    options, a seat count the game does not allow, or setups of the wrong game or size.
    """
    import pyarrow as pa

    from ludolab.research.experiment.backends import run_local
    from ludolab.research.simulate import batch_tasks, play_batch, split_agent_list

    if not _games.known(game):
        raise ValueError(_games.unknown_game_message(game))
    specs = split_agent_list(agents) if isinstance(agents, str) else list(agents)
    specs = _one_per_seat(game, specs, players, setups)
    if games < 1 or workers < 1:
        raise ValueError(f"games and workers must be at least 1, got {games} and {workers}")
    rules = _options(game, options)
    _check_lineup(game, specs, setups)
    batch = max(1, min(1000, -(-games // (4 * workers))))
    tasks = batch_tasks(game, games, seed, specs, rules, list(setups or []) or None, batch)
    parts = [table for _, table in sorted(run_local(tasks, workers, play=play_batch))]
    table = pa.concat_tables(parts, promote_options="permissive")
    table = table.add_column(0, "condition", pa.array([condition] * table.num_rows, pa.string()))
    return Games(game, table)


def _options(game: str, options: Mapping[str, Any] | Any) -> Any:
    Options = _games.get(game).options_type  # noqa: N806 (a class)
    if options is None:
        return Options()
    if isinstance(options, Options):
        return options
    if not isinstance(options, Mapping):
        raise ValueError(
            f"options: give a dict of {Options.__name__} fields or one, not {options!r}"
        )
    import dataclasses

    known = [f.name for f in dataclasses.fields(Options)]
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise ValueError(
            f"options: {Options.__name__} has no field {unknown[0]!r}; its fields: "
            f"{', '.join(known)}"
        )
    return Options(**options)


def _one_per_seat(
    game: str, specs: list[str], players: int | None, setups: Sequence[Any] | None
) -> list[str]:
    """``specs`` with a lone spec repeated at every seat (``players`` of them, or the deals')."""
    if players is not None and len(specs) != 1 and len(specs) != players:
        raise ValueError(
            f"players={players} but {len(specs)} agent specs: give one, or one per seat"
        )
    if len(specs) != 1:
        return specs
    if players is None and setups:  # setups dealt for a number of seats say how many
        players = getattr(setups[0], "n_players", None)
    if players is None:
        described = _games.get(game)
        raise ValueError(
            f"one agent spec ({specs[0]!r}) for every seat: say how many seats with "
            f"players={described.min_players}..{described.max_players}, or give one spec per "
            f"seat"
        )
    return specs * players


def _check_lineup(game: str, specs: list[str], setups: Sequence[Any] | None) -> None:
    """Every agent spec parses, the seat count fits the game, the setups are the game's."""
    from ludolab.research.simulate import check_lineup

    check_lineup(game, specs)
    described = _games.get(game)
    Setup = described.setup_type  # noqa: N806 (a class)
    if setups is not None:
        if not len(setups):
            raise ValueError("setups: the list is empty (give None for fair shuffles)")
        wrong = next((s for s in setups if not isinstance(s, Setup)), None)
        if wrong is not None:
            raise ValueError(f"setups: {type(wrong).__name__} is not a {game} {Setup.__name__}")
        # A setup dealt for a number of seats (``n_players``) fits only that many agents.
        other = next(
            (s for s in setups if getattr(s, "n_players", len(specs)) != len(specs)), None
        )
        if other is not None:
            raise ValueError(
                f"setups: {described.setup_noun} {other.id} is for {other.n_players} players, "
                f"the agents are {len(specs)}"
            )


def compare(
    games: pd.DataFrame,
    metrics: Sequence[str] | str,
    *,
    baseline: str | None = None,
    by: str = "condition",
    unit: str = "setup",
    paired: bool = False,
    correction: str = "holm",
    alpha: float = 0.05,
    n_boot: int = 2000,
    seed: int = 0,
    margins: Mapping[str, float] | None = None,
) -> pd.DataFrame:
    """Compare conditions on your own table of games, with the statistics a run's report uses.

    Each metric is averaged over the games on one ``unit`` (the setup: games on one board are
    repeated measurements of it), then every pair of conditions (or every condition against
    ``baseline``) is compared on those means: the difference of means in the metric's unit with
    its bootstrap 95% interval (per test, not corrected), a rank test (Mann-Whitney U; with
    ``paired``, Wilcoxon signed-rank on the setups paired by index, for conditions simulated
    with one seed on as many setups, so that setup k of each saw the same dice: checked on the
    ``seed`` column where there is one), p-values corrected together over every row
    (``correction``: ``holm``, ``bonferroni``, ``bh`` or ``none``), the minimum detectable
    difference (MDE) at 80% power and level ``alpha / m``, and the verdict a report would print.

    Args:
        games: one row per game, with the ``by`` and ``unit`` columns and the metrics (e.g.
            ``pd.concat([a.metrics, b.metrics])`` of two :func:`simulate` results), all played
            by one lineup (a run compares each lineup apart: filter a ``lineup`` column first).
        metrics: the metric columns to compare.
        baseline: compare every condition with this one only (rows oriented *condition vs
            baseline*: positive differences are larger under the condition).
        margins: per metric, the equivalence margin in its unit: a TOST says "equivalent
            within ±margin" where the data show it.

    Returns one row per metric and pair: ``metric``, ``condition1``, ``condition2``, ``n1``,
    ``n2`` (units), ``mean1``, ``mean2``, ``diff``, ``diff_low``, ``diff_high``, ``p``,
    ``p_adj``, ``mde``, ``equivalence_p_adj``, ``significant``, ``verdict`` and the rest of
    :data:`ludolab.research.stats.compare.PAIRWISE_COLUMNS`. Raises ValueError for a missing
    column or an unknown baseline.
    """
    import numpy as np
    import pandas as pd

    from ludolab.research.experiment.analysis import adjust_families, orient
    from ludolab.research.stats.compare import pairwise

    names = [metrics] if isinstance(metrics, str) else list(metrics)
    missing = [c for c in (by, unit, *names) if c not in games.columns]
    if missing:
        raise ValueError(f"games has no column(s) {missing}; its columns: {list(games.columns)}")
    if baseline is not None and baseline not in set(games[by]):
        raise ValueError(f"baseline {baseline!r} is not a value of column {by!r}")
    if "lineup" in games.columns and games["lineup"].nunique() > 1:
        raise ValueError(
            "games holds several lineups; compare one at a time (games[games.lineup == NAME]): "
            "games played by other agents are not pooled"
        )
    if paired and "seed" in games.columns:
        seeds = games.groupby([unit, by], observed=True)["seed"].apply(frozenset).unstack()
        if not seeds.apply(lambda row: row.dropna().nunique() <= 1, axis=1).all():
            raise ValueError(
                f"paired=True, but setup k of each condition was not played with the same game "
                f"seeds (the {unit} column's index does not pair the dice); simulate the "
                f"conditions with one seed, or compare them with paired=False"
            )
    means = games.groupby([by, unit], observed=True, sort=True)[names].mean().reset_index()
    means = means.rename(columns={by: "condition"})
    tables = []
    for i, metric in enumerate(names):
        table = pairwise(
            means,
            metric,
            paired_on=unit if paired else None,
            correction="none",
            n_boot=n_boot,
            seed=[seed, i],
            alpha=alpha,
            baseline=baseline,
            margin=(margins or {}).get(metric),
        )
        tables.append(orient(table, baseline) if baseline is not None else table)
    out = pd.concat(tables, ignore_index=True)
    out["mixed_p"] = np.nan
    return adjust_families(
        out,
        alpha=alpha,
        correction=correction,
        paired=paired,
        family_of=dict.fromkeys(names, "all"),
        margin_of=dict(margins or {}),
    )


@dataclass(eq=False)
class Run:
    """A finished experiment run (the folder ``ludolab run`` wrote), as tables.

    Attributes:
        path: the run's folder.
        config: the config with every default filled in (``config.resolved.json``).
        state: ``run.json`` (hashes, status, timings).
    The tables load on first use: ``games`` and ``per_seat`` (see :class:`Games`, with the
    run's ``condition``, ``lineup``, ``rotation`` and ``setup`` columns), ``metrics`` (one row
    per game), ``conditions`` (one row per lineup and condition), ``comparisons`` (every
    pairwise comparison, with intervals, adjusted p-values and the design's MDE) and
    ``seat_advantage`` (first-seat advantage per condition).
    """

    path: Path
    config: dict[str, Any] = field(repr=False)
    state: dict[str, Any] = field(repr=False)

    @property
    def game(self) -> str:
        """The registered game's name (:mod:`ludolab.games`)."""
        return str(self.config["game"])

    @cached_property
    def _games(self) -> Games:
        import pyarrow.parquet as pq

        return Games(self.game, pq.read_table(self.path / "games.parquet"))

    @property
    def games(self) -> pd.DataFrame:
        """One row per game (``games.parquet``), in plan order: ``condition``, ``lineup``,
        ``rotation``, ``setup`` (0-based within the condition), ``game``, ``seed`` and the
        record's fields."""
        return self._games.games

    @property
    def per_seat(self) -> pd.DataFrame:
        """One row per seat of every game (see :attr:`Games.per_seat`)."""
        return self._games.per_seat

    @cached_property
    def metrics(self) -> pd.DataFrame:
        """The game-quality metrics, one row per game (``metrics/per_game.parquet``), with the
        board features for Catan."""
        return self._analysed_table("metrics/per_game.parquet")

    @cached_property
    def conditions(self) -> pd.DataFrame:
        """One row per lineup and condition: completion, win rates with Wilson intervals,
        balance, and each metric's mean (``metrics/conditions.csv``)."""
        return self._analysed_table("metrics/conditions.csv")

    @cached_property
    def comparisons(self) -> pd.DataFrame:
        """Every pairwise comparison (``comparisons.csv``): raw difference with its bootstrap
        interval, test, Holm-adjusted p-value, the design's MDE, and the verdict."""
        return self._analysed_table("comparisons.csv")

    @cached_property
    def seat_advantage(self) -> pd.DataFrame:
        """First-seat advantage per lineup and condition, with its interval and test
        (``seats.csv``)."""
        return self._analysed_table("seats.csv")

    def _analysed_table(self, name: str) -> pd.DataFrame:
        import pandas as pd

        from ludolab.research.experiment.store import RunError

        path = self.path / name
        if not path.exists():
            raise RunError(
                f"{path} is missing: the run was not analysed; analyse it with "
                f"'ludolab run CONFIG --resume {self.path}'"
            )
        return pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)


def run(
    config: str | Path | Mapping[str, Any],
    *,
    out: str | Path = "results",
    workers: int = 1,
    quiet: bool = True,
    **options: Any,
) -> Run:
    """Run an experiment and return the finished run.

    Args:
        config: a TOML config file, or its contents as a dict (with a ``name``).
        out: the results root; the run goes to ``<out>/<name>/<run id>/``.
        workers: local worker processes.
        quiet: no progress bar or messages.
        options: the other keywords of
            :func:`ludolab.research.experiment.runner.run_experiment` (``resume``,
            ``run_id``, ``analyse``, ``overrides``, ``backend``, ``scheduler``).

    Raises ConfigError for a bad config (naming the key) and RunError for a run that cannot
    start or resume.
    """
    from ludolab.research.experiment.runner import run_experiment

    result = run_experiment(config, out=out, workers=workers, quiet=quiet, **options)
    return load_run(result.path)


def load_run(path: str | Path) -> Run:
    """A finished run's folder as a :class:`Run`. Raises RunError if the folder is not a
    finished run, or if its games file is not the one the run wrote."""
    from ludolab.research.experiment.store import open_finished

    folder, state, config = open_finished(path)
    return Run(folder.path, config, state)
