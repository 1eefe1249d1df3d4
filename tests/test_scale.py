"""Memory flat in the number of games: the plan is computed on demand, games.parquet is
assembled and analysed in batches, `ludolab simulate` streams its games to disk in resumable
batches. Each test checks that the streamed result is the one the whole-table way gives."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ludolab.research.cli import main
from ludolab.research.experiment.config import (
    ConfigError,
    GamePlan,
    GameSpec,
    condition_game_seeds,
    parse_experiment,
    slot_seed,
)
from ludolab.research.experiment.runner import run_experiment
from ludolab.research.experiment.store import RunDir

PLAN = """
name = "plan"
game = "catan"
seed = 5
players = 4
boards = 3
games_per_board = 2
[[conditions]]
name = "a"
constraints = "random"
[[conditions]]
name = "b"
constraints = "official"
[[lineups]]
name = "same"
seats = "random"
[[lineups]]
name = "mixed"
seats = ["greedy", "random", "greedy", "random"]
[comparisons]
paired = PAIRED
"""


def _reference_plan(config) -> list[GameSpec]:
    """The plan as nested loops over a list of every slot's seed (the module docstring's
    order), independent of GamePlan's index arithmetic."""
    specs: list[GameSpec] = []
    for ci, cond in enumerate(config.conditions):
        seeds = condition_game_seeds(config, cond.name)
        for lineup in config.lineups:
            for setup in range(config.setups):
                for game in range(config.games_per_setup):
                    slot = game * config.setups + setup
                    for r in lineup.rotations:
                        specs.append(
                            GameSpec(
                                len(specs),
                                cond.name,
                                ci,
                                setup,
                                lineup.name,
                                r,
                                game,
                                slot,
                                seeds[slot],
                                lineup.seats_for(r),
                                f"{lineup.name}|{r}|{slot}",
                            )
                        )
    return specs


@pytest.mark.parametrize("paired", ["true", "false"])
def test_the_plan_computed_on_demand_is_the_listed_plan(paired) -> None:
    import tomllib

    config = parse_experiment(tomllib.loads(PLAN.replace("PAIRED", paired)), "plan.toml")
    plan = GamePlan(config)
    reference = _reference_plan(config)
    assert len(plan) == len(reference) == config.n_games == 2 * 6 * (1 + 2)
    assert plan.games(range(len(plan))) == reference
    assert plan[len(plan) - 1] == reference[-1]
    with pytest.raises(IndexError):
        plan[len(plan)]
    seeds = condition_game_seeds(config, "b")
    assert [slot_seed(config, "b", j) for j in range(config.slots)] == seeds
    # unpaired conditions have their own seeds, paired ones share them
    assert (seeds == condition_game_seeds(config, "a")) == (paired == "true")


def test_chunks_are_streamed_into_one_row_group_each_with_one_schema(tmp_path) -> None:
    run = RunDir(tmp_path / "run")
    run.chunks_dir.mkdir(parents=True)
    # a chunk whose games all lack a winner has a null column where the others have integers
    chunks = [
        pa.table({"index": [0, 1], "winner": pa.array([1, None], pa.int64())}),
        pa.table({"index": [2, 3], "winner": pa.array([None, None], pa.null())}),
        pa.table({"index": [4], "winner": pa.array([0], pa.int64())}),
    ]
    ranges = (range(0, 2), range(2, 4), range(4, 5))
    for c, (table, games) in enumerate(zip(chunks, ranges, strict=True)):
        run.write_chunk(c, games, table, "h")
    run.assemble(3, 5, {"play_hash": "h"})
    games = pq.ParquetFile(run.games_path)
    assert games.metadata.num_row_groups == 3
    table = games.read()
    assert table.column("winner").to_pylist() == [1, None, None, None, 0]
    assert table.schema.field("winner").type == pa.int64()
    assert json.loads(table.schema.metadata[b"ludolab"])["play_hash"] == "h"
    assert not run.chunks_dir.exists()


def test_chunks_that_miss_a_game_are_refused_and_kept(tmp_path) -> None:
    from ludolab.research.experiment.store import RunError

    run = RunDir(tmp_path / "run")
    run.chunks_dir.mkdir(parents=True)
    run.write_chunk(0, range(0, 2), pa.table({"index": [0, 1]}), "h")
    run.write_chunk(1, range(2, 4), pa.table({"index": [2, 2]}), "h")
    with pytest.raises(RunError, match="exactly once"):
        run.assemble(2, 4, {})
    assert not run.games_path.exists() and len(list(run.chunks_dir.iterdir())) == 2


TINY = """
name = "tiny"
game = "catan"
seed = 2
players = 4
boards = 3
games_per_board = 3
chunk_size = 7
[[conditions]]
name = "a"
constraints = "random"
[[conditions]]
name = "b"
constraints = "official"
[[lineups]]
name = "mixed"
seats = ["greedy", "random", "greedy", "random"]
[comparisons]
baseline = "a"
n_boot = 50
metrics = ["turns"]
MIXED
"""


def test_the_analysis_reads_the_games_in_batches_to_the_same_metrics(tmp_path) -> None:
    from ludolab.research.experiment.analysis import _per_game_from_file
    from ludolab.research.metrics import per_game_metrics

    cfg = tmp_path / "tiny.toml"
    cfg.write_text(TINY.replace("MIXED", ""))
    result = run_experiment(cfg, out=tmp_path, quiet=True, analyse=False)
    path = result.path / "games.parquet"
    assert pq.ParquetFile(path).metadata.num_row_groups == 36 // 7 + 1  # one per chunk
    whole = per_game_metrics(pq.read_table(path), "catan")
    pd.testing.assert_frame_equal(_per_game_from_file(path, "catan", batch_rows=5), whole)
    pd.testing.assert_frame_equal(per_game_metrics(pq.read_table(path).to_pandas()), whole)


def test_the_mixed_model_is_skipped_above_its_game_limit(tmp_path) -> None:
    import tomllib

    cfg = tmp_path / "tiny.toml"
    cfg.write_text(TINY.replace("MIXED", "mixed_max_games = 20"))
    result = run_experiment(cfg, out=tmp_path, quiet=True)
    table = pd.read_csv(result.path / "comparisons.csv")
    assert table["mixed_diff"].isna().all()
    assert "36 games exceed comparisons.mixed_max_games (20)" in table["note"].iloc[0]
    body = tomllib.loads(TINY.replace("MIXED", "mixed_max_games = -1"))
    with pytest.raises(ConfigError, match="mixed_max_games"):
        parse_experiment(body, "tiny.toml")


# --- ludolab simulate: batches on disk


def _simulate(out: Path, *extra: str) -> int:
    return main(
        [
            "simulate",
            "gallery",
            "--agents",
            "greedy,random,greedy",
            "-n",
            "50",
            "--seed",
            "4",
            "--out",
            str(out),
            *extra,
        ]
    )


@pytest.fixture(scope="module")
def one_batch(tmp_path_factory) -> pa.Table:
    out = tmp_path_factory.mktemp("sim") / "one.parquet"
    assert _simulate(out, "--batch", "1000") == 0
    return pq.read_table(out)


def test_batches_and_workers_give_the_same_games(one_batch, tmp_path, capsys) -> None:
    from ludolab.research.gallery.simulate import records_table, simulate

    out = tmp_path / "games.parquet"
    assert _simulate(out, "--batch", "7", "--workers", "2") == 0
    streamed = pq.read_table(out)
    assert streamed.equals(one_batch)
    assert streamed.schema.metadata == one_batch.schema.metadata
    assert pq.ParquetFile(out).metadata.num_row_groups == 8
    assert not (tmp_path / ".games.parquet.parts").exists()
    # the records of the in-memory API, field for field
    records = simulate(None, ["greedy", "random", "greedy"], 50, 4)
    assert records_table(records).equals(streamed.drop_columns(["setup"]))
    assert streamed.column("setup").to_pylist() == list(range(50))  # a fair deal per game
    assert "outright win rate" in capsys.readouterr().out


def test_a_stopped_simulation_resumes_to_the_same_file(one_batch, tmp_path, monkeypatch, capsys):
    import ludolab.research.simulate_file as sf

    out = tmp_path / "games.parquet"
    write = sf.write_parquet
    written: list[str] = []

    def write_then_stop(path, table, **options):
        write(path, table, **options)
        written.append(str(path))
        if len(written) == 3:
            raise KeyboardInterrupt

    with monkeypatch.context() as m:
        m.setattr(sf, "write_parquet", write_then_stop)
        assert _simulate(out, "--batch", "7") == 130
    parts = tmp_path / ".games.parquet.parts"
    assert len(list(parts.glob("part-*.parquet"))) == 3 and not out.exists()
    assert "3 of 8 batches saved" in capsys.readouterr().err
    # without --resume: refused, nothing touched
    assert _simulate(out, "--batch", "7") == 2
    assert "--resume" in capsys.readouterr().err
    # another request's batches are not mixed in
    assert _simulate(out, "--batch", "7", "--resume", "--seed", "5") == 2
    assert "another request" in capsys.readouterr().err
    # a batch cut short by a crash is played again
    (parts / "part-00001.parquet").write_bytes(b"PAR1 cut short")
    assert _simulate(out, "--batch", "7", "--resume") == 0
    assert pq.read_table(out).equals(one_batch) and not parts.exists()


def test_a_simulation_that_fails_before_a_batch_leaves_nothing(one_batch, tmp_path, monkeypatch):
    """A game that raises (a bug in a game's engine, say) before any batch is saved leaves no
    folder of parts behind, so the next attempt starts afresh, without --resume."""
    import ludolab.research.simulate_file as sf

    out = tmp_path / "games.parquet"

    def broken(path, table, **options):
        raise RuntimeError("a bug in the game")

    with monkeypatch.context() as m:
        m.setattr(sf, "write_parquet", broken)
        with pytest.raises(RuntimeError, match="a bug in the game"):
            _simulate(out, "--batch", "7")
    assert not any(tmp_path.iterdir())
    assert _simulate(out, "--batch", "7") == 0
    assert pq.read_table(out).equals(one_batch)


def test_simulate_refuses_bad_batches_and_agents_before_playing(tmp_path, capsys) -> None:
    out = tmp_path / "games.parquet"
    for extra, message in (
        (["--batch", "0"], "--batch must be at least 1"),
        (["--workers", "0"], "--workers must be at least 1"),
        (["--agents", "greedy,nobody,greedy"], "nobody"),
    ):
        assert _simulate(out, *extra) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1
    assert not any(tmp_path.iterdir())


def test_the_summary_reads_only_small_columns(one_batch) -> None:
    from ludolab.research.simulate import SUMMARY_COLUMNS, summarise

    small = one_batch.select(list(SUMMARY_COLUMNS))
    assert summarise(small, "gallery") == summarise(one_batch, "gallery")


def test_many_exact_deals_are_drawn_in_batches(monkeypatch) -> None:
    import ludolab.research.gallery.deals as deals

    monkeypatch.setattr(deals, "EXACT_BATCH", 7)
    some, report = deals.generate_deals("balanced-symbols", 4, 20, seed=3, method="exact")
    assert report.method == "exact" and len(some) == 20  # every deal re-checked by the set
    first, _ = deals.generate_deals("balanced-symbols", 4, 7, seed=3, method="exact")
    assert some[:7] == first  # the batches continue one random stream


def test_deals_are_made_a_batch_at_a_time_as_they_are_written(monkeypatch, tmp_path) -> None:
    import ludolab.research.gallery.deals as deals

    monkeypatch.setattr(deals, "EXACT_BATCH", 7)
    stream, report = deals.stream_deals("skewed-seat0", 4, 20, seed=2, method="rejection")
    first = next(stream)
    assert report.accepted == 7  # one batch made so far
    rest = list(stream)
    assert report.accepted == 20 and report.hits >= 20 and report.draws > 0
    listed, _ = deals.generate_deals("skewed-seat0", 4, 20, seed=2, method="rejection")
    assert [first, *rest] == listed
    # a stream that fails part-way leaves no file behind
    stream, _ = deals.stream_deals("balanced-symbols", 4, 20, seed=2, method="exact")

    def broken():
        yield from list(stream)[:9]
        raise deals.DealSamplingError("stopped")

    out = tmp_path / "deals.jsonl"
    with pytest.raises(deals.DealSamplingError):
        deals.write_deals_jsonl(broken(), out)
    assert not any(tmp_path.iterdir())


def test_a_record_as_a_dict_is_what_asdict_gives() -> None:
    from dataclasses import asdict

    from ludolab.envs.catan.agents import parse_agent_spec
    from ludolab.envs.catan.play import play_game
    from ludolab.research.catan.samplers import fair_board
    from ludolab.research.gallery.simulate import simulate

    catan = play_game(fair_board(3), [parse_agent_spec("random") for _ in range(3)], 11, None)
    for record in (catan, *simulate(None, ["greedy", "random"], 3, 5)):
        assert record.to_dict() == asdict(record)
        assert list(record.to_dict()) == list(asdict(record))
