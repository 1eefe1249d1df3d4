"""``ludolab run``: generate the setups, play every game of the plan in chunks, analyse.

The run's folder and its files are described in :mod:`.store`; how games are enumerated and
seeded in :mod:`.config`; why results do not depend on the backend in :mod:`.play`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import shutil
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa

from ludolab import games
from ludolab.research import progress
from ludolab.research.cli_types import check_fits
from ludolab.research.experiment import provenance
from ludolab.research.experiment.backends import BACKENDS, connect_dask, run_dask, run_local
from ludolab.research.experiment.config import (
    ConfigError,
    ExperimentConfig,
    GamePlan,
    apply_overrides,
    config_hash,
    load_experiment,
    parse_experiment,
    play_hashes,
    resolved_dict,
)
from ludolab.research.experiment.play import chunk_ranges, make_task
from ludolab.research.experiment.setups import (
    ConditionSetups,
    Setup,
    generate_setups,
    read_setups,
    write_setups,
)
from ludolab.research.experiment.store import (
    COMPLETE,
    RUNNING,
    STATE_SCHEMA,
    RunDir,
    RunError,
    file_sha256,
    find_resumable,
    folder_name,
    new_run_id,
)
from ludolab.research.files import write_json, write_text

GAMES_SCHEMA = "ludolab.experiment.games/2"


@dataclass(frozen=True)
class RunResult:
    """What one invocation of the runner did.

    Attributes:
        path: the run's folder.
        n_games: games in the plan.
        played: games played by this invocation (the rest came from an earlier one).
        seconds: wall-clock time of this invocation's playing (setups excluded).
        resumed: whether an unfinished run was resumed.
    """

    path: Path
    n_games: int
    played: int
    seconds: float
    resumed: bool


@dataclass(frozen=True)
class ConfigSource:
    """An experiment config as given: ``label`` names it in messages and in ``run.json`` (the
    file's path, or "a config dict"); ``text`` is what the run folder keeps as config.toml."""

    label: str
    text: str


def read_config(
    config: str | Path | Mapping[str, Any], overrides: Sequence[str] = ()
) -> tuple[ExperimentConfig, ConfigSource]:
    """The validated config and its source, from a TOML file's path or from a dict with the
    file's contents (as ``tomllib.load`` gives them; relative paths resolve against the
    working directory). ConfigError names what is wrong."""
    if not isinstance(config, Mapping):
        path = Path(config)
        parsed = load_experiment(path, overrides)
        return parsed, ConfigSource(str(path), path.read_text())
    import tomli_w

    label = "the config dict"
    if "name" not in config:
        raise ConfigError(f"{label}: name: missing; give the experiment a name (its folder's)")
    try:
        text = tomli_w.dumps(dict(config))
    except (TypeError, ValueError) as exc:
        raise ConfigError(
            f"{label}: cannot be written as TOML ({exc}); use TOML's types: strings, numbers, "
            "booleans, lists and tables (dicts), no None"
        ) from None
    data = apply_overrides(dict(config), overrides)
    return parse_experiment(data, label, Path.cwd()), ConfigSource(label, text)


def _say(message: str, quiet: bool) -> None:
    if not quiet:
        print(message, file=sys.stderr, flush=True)


def run_experiment(
    config_path: str | Path | Mapping[str, Any],
    *,
    out: str | Path = "results",
    workers: int = 1,
    backend: str | None = None,
    scheduler: str | None = None,
    resume: bool | str | Path = False,
    run_id: str | None = None,
    analyse: bool = True,
    quiet: bool = False,
    overrides: Sequence[str] = (),
) -> RunResult:
    """Run the experiment in ``config_path`` under ``<out>/<name>/<run id>/``.

    Args:
        config_path: a TOML config file, or its contents as a dict (see :func:`read_config`).
        out: the results root.
        workers: local worker processes (``local`` backend; 1 plays in this process).
        backend: ``local`` or ``dask`` (then ``scheduler`` is the scheduler's address); None:
            ``dask`` when a ``scheduler`` is given, else ``local``.
        resume: False starts a new run; True resumes the newest unfinished run of this config
            under ``out``; a path resumes that run folder.
        run_id: the new run's folder name (default: UTC time and the config hash).
        analyse: compute metrics, comparisons, figures and the report at the end.
        quiet: no progress bar or messages (stderr).
        overrides: ``PATH=VALUE`` changes to the config (``ludolab run --set``; see
            :func:`ludolab.research.experiment.config.apply_overrides`), recorded in ``run.json``.

    Raises ConfigError for a bad config, RunError for a run that cannot start or resume, and
    lets KeyboardInterrupt through after saving every finished chunk (a message on stderr says
    how to resume).
    """
    backend = backend or ("dask" if scheduler else "local")
    if backend not in BACKENDS:
        raise RunError(f"--backend {backend!r}: choose one of {', '.join(BACKENDS)}")
    if backend == "dask" and not scheduler:
        raise RunError("--backend dask needs --scheduler ADDRESS (e.g. tcp://127.0.0.1:8786)")
    if backend == "local" and scheduler:
        raise RunError(
            f"--scheduler {scheduler} is for the dask backend, and --backend local plays here: "
            "drop --backend local to play on the cluster, or drop --scheduler"
        )
    if workers < 1:
        raise RunError(f"--workers must be at least 1, got {workers}")
    config, source = read_config(config_path, overrides)
    try:
        check_fits(config.n_games, "planned games", f"{source.label}: games")
        check_fits(config.setups * len(config.conditions), config.setup_kind, "setups")
    except ValueError as exc:
        raise RunError(str(exc)) from None
    if overrides:
        config = dataclasses.replace(config, overrides=tuple(overrides))
    client = connect_dask(scheduler or "") if backend == "dask" else None
    try:
        return _run(config, source, Path(out), workers, client, resume, run_id, analyse, quiet)
    finally:
        if client is not None:
            client.close()


def _run(
    config: ExperimentConfig,
    source: ConfigSource,
    root: Path,
    workers: int,
    client: Any,
    resume: bool | str | Path,
    run_id: str | None,
    analyse: bool,
    quiet: bool,
) -> RunResult:
    backend = "local" if client is None else "dask"
    if client is not None:  # for the provenance: the cluster's workers at the start
        workers = len(client.scheduler_info().get("workers", {}))
    if resume:
        run = (
            RunDir(Path(resume))
            if not isinstance(resume, bool)
            else find_resumable(root, config.name, play_hashes(config))
        )
    else:
        run = RunDir(
            root
            / folder_name(config.name, "name")
            / folder_name(run_id or new_run_id(config_hash(config)), "run id")
        )
        if run.path.exists():
            raise RunError(
                f"{run.path} already exists; give another --run-id or resume it "
                f"(--resume {run.path})"
            )
    created = [p for p in (root, run.path.parent, run.path) if not p.exists()]
    try:
        return _run_in(run, config, source, workers, client, resume, analyse, quiet, backend)
    except Exception:
        # A new run that fails before its first game (its setups cannot be drawn, say) leaves
        # nothing behind, so that the corrected config starts afresh instead of meeting a
        # half-made folder. Anything that holds games is kept, to be resumed.
        if not resume and created and not _holds_games(run):
            # Only the run's own folder goes whole; a parent it created goes only if it is still
            # empty (another run may have started in it meanwhile).
            shutil.rmtree(run.path, ignore_errors=True)
            for folder in created[:-1][::-1]:
                with contextlib.suppress(OSError):
                    folder.rmdir()
        raise


def _holds_games(run: RunDir) -> bool:
    """Whether ``run`` has saved any game (a chunk or the assembled table)."""
    return run.games_path.exists() or any(run.path.glob("chunks/*"))


def _run_in(
    run: RunDir,
    config: ExperimentConfig,
    source: ConfigSource,
    workers: int,
    client: Any,
    resume: bool | str | Path,
    analyse: bool,
    quiet: bool,
    backend: str,
) -> RunResult:
    chash, (phash, phash_before_report) = config_hash(config), play_hashes(config)
    if resume:
        state = run.read_state()
    with run.locked():
        if resume:
            if state.get("play_hash") == phash_before_report:  # a run from an older version
                state["play_hash"] = phash
            if state.get("play_hash") != phash:
                raise RunError(
                    f"{run.path}: started from a config that plays other games (play hash "
                    f"{state.get('play_hash', '?')[:12]}, now {phash[:12]}); resume with the "
                    f"config it started from, or start a new run"
                )
            if state.get("config_hash") != chash:  # only question/metrics/comparisons changed
                _say("the config's analysis settings changed: the report will use them", quiet)
                write_text(run.path / "config.toml", source.text)
                write_json(run.path / "config.resolved.json", resolved_dict(config))
                state["config_hash"] = chash
                run.write_state(state)
            if state.get("status") == COMPLETE and not run.games_path.exists():
                # games.parquet was deleted from a finished run: its chunk files are gone too,
                # so replay every game (same setups, same seeds: the same games) and assemble.
                _say(f"{run.path}: games.parquet is missing; replaying its games", quiet)
                state["status"] = RUNNING
                run.write_state(state)
            if state.get("status") == COMPLETE:
                _say(f"{run.path}: already complete; nothing to play", quiet)
                if analyse:
                    _analyse(run, quiet)
                return RunResult(run.path, state["n_games"], 0, 0.0, True)
            _say(f"resuming {run.path}", quiet)
        else:
            state = _start(run, config, source, chash, phash)
        # The code that plays, recorded as the invocation starts (files may change later).
        state.setdefault("git", []).append(provenance.git_state())
        state["invocations"] = state.get("invocations", 0) + 1
        run.write_state(state)
        setups = _setups(run, config, state, quiet)
        played, seconds = 0, 0.0
        if not run.assembled(phash, config.n_games):  # else: stopped after assembling
            start = time.perf_counter()
            try:
                played = _play(run, config, phash, setups, workers, client, quiet)
            finally:  # interrupted invocations count too
                seconds = time.perf_counter() - start
                state = run.read_state()
                state["play_seconds"] = round(state.get("play_seconds", 0.0) + seconds, 3)
                run.write_state(state)
        _finish(run, config, chash, phash, run.read_state(), backend, workers)
    if analyse:
        _analyse(run, quiet)
    return RunResult(run.path, config.n_games, played, seconds, bool(resume))


def _start(
    run: RunDir, config: ExperimentConfig, source: ConfigSource, chash: str, phash: str
) -> dict:
    try:
        write_text(run.path / "config.toml", source.text)
        write_json(run.path / "config.resolved.json", resolved_dict(config))
        ranges = chunk_ranges(config.n_games, config.chunk_size)
        state = {
            "schema": STATE_SCHEMA,
            "experiment": config.name,
            "run_id": run.path.name,
            "config": source.label,
            "overrides": list(config.overrides),
            "config_hash": chash,
            "play_hash": phash,
            "game": config.game,
            "n_games": config.n_games,
            "chunk_size": config.chunk_size,
            "n_chunks": len(ranges),
            "status": RUNNING,
            "created": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        run.write_state(state)
    except BaseException:
        shutil.rmtree(run.path, ignore_errors=True)  # nothing played yet: leave nothing behind
        raise
    return state


def _setups(
    run: RunDir, config: ExperimentConfig, state: dict, quiet: bool
) -> dict[str, list[Setup]]:
    path = run.path / games.get(config.game).setups_file
    if path.exists():
        recorded = state.get("setups_sha256")
        if recorded and file_sha256(path) != recorded:
            raise RunError(
                f"{path} changed since the run drew its setups (its sha256 no longer matches "
                f"run.json), so resuming would play other games than the run's: restore the "
                f"file, or start a new run"
            )
        setups = read_setups(path, config.game)
        missing = [c.name for c in config.conditions if not setups.get(c.name)]
        if missing:
            raise RunError(
                f"{path}: no setups for condition(s) {missing}; the run folder was altered"
            )
        return setups
    start = time.perf_counter()
    generated: dict[str, ConditionSetups] = generate_setups(
        config, lambda name: _say(f"generating {config.setup_kind} for {name!r}", quiet)
    )
    # The summaries first: a stop between the two writes then regenerates the same setups.
    state["setups"] = [cs.summary() for cs in generated.values()]
    state["setup_seconds"] = round(time.perf_counter() - start, 3)
    run.write_state(state)
    write_setups(generated, path)
    state["setups_sha256"] = file_sha256(path)
    run.write_state(state)
    return {name: cs.setups for name, cs in generated.items()}


def _play(
    run: RunDir,
    config: ExperimentConfig,
    phash: str,
    setups: dict[str, list[Setup]],
    workers: int,
    client: Any,
    quiet: bool,
) -> int:
    plan = GamePlan(config)
    ranges = chunk_ranges(len(plan), config.chunk_size)
    done = run.finished_chunks(phash, ranges)
    todo = [c for c in range(len(ranges)) if c not in done]
    wrapped = {name: _cycle(config, s) for name, s in setups.items()}
    options = {c.name: c.options or config.options for c in config.conditions}
    tasks = (
        make_task(c, config.game, options, plan.games(ranges[c]), wrapped) for c in todo
    )
    results: Iterator[tuple[int, pa.Table]] = (
        run_local(tasks, workers) if client is None else run_dask(tasks, client)
    )
    already = sum(len(ranges[c]) for c in done)
    played = 0
    # Through the one helper: drawn on a terminal only (a log or a pipe gets no bar).
    bar = progress.bar(
        total=len(plan),
        initial=already,
        unit="game",
        desc=config.name,
        quiet=quiet,
        leave=True,
        smoothing=0.1,
    )
    try:
        for chunk, table in results:
            run.write_chunk(chunk, ranges[chunk], table, phash)
            played += len(ranges[chunk])
            bar.update(len(ranges[chunk]))
    except KeyboardInterrupt:
        bar.close()
        _say(_resume_hint(run, "interrupted", _saved(run, phash, ranges), len(plan)), quiet=False)
        raise
    except RunError as exc:
        bar.close()
        hint = _resume_hint(run, "stopped", _saved(run, phash, ranges), len(plan))
        raise RunError(f"{exc}. {hint}") from exc
    except Exception as exc:
        bar.close()
        hint = _resume_hint(run, "stopped", _saved(run, phash, ranges), len(plan))
        raise RunError(f"a chunk failed: {type(exc).__name__}: {exc}. {hint}") from exc
    bar.close()
    return played


def _cycle(config: ExperimentConfig, setups: list[Setup]) -> list[Setup]:
    """The plan indexes ``config.setups`` setups; a sampler that gave fewer (enumerate,
    optimise) has its setups reused in turn."""
    return [setups[s % len(setups)] for s in range(config.setups)]


def _saved(run: RunDir, phash: str, ranges: list[range]) -> int:
    """Games in the chunk files on disk now."""
    return sum(len(ranges[c]) for c in run.finished_chunks(phash, ranges))


def _resume_hint(run: RunDir, what: str, saved: int, total: int) -> str:
    return (
        f"{what}: {saved} of {total} games saved in {run.path}; continue with "
        f"'ludolab run CONFIG --resume {run.path}'"
    )


def _finish(
    run: RunDir,
    config: ExperimentConfig,
    chash: str,
    phash: str,
    state: dict,
    backend: str,
    workers: int,
) -> None:
    meta = {
        "schema": GAMES_SCHEMA,
        "experiment": config.name,
        "game": config.game,
        "play_hash": phash,
    }
    if not run.assembled(phash, state["n_games"]):
        run.assemble(state["n_chunks"], state["n_games"], meta)
    state["games_sha256"] = file_sha256(run.games_path)
    prov = provenance.collect(
        chash,
        {
            "master": config.seed,
            "setups": {s["condition"]: s["seed"] for s in state.get("setups", [])},
            "games": "per game in games.parquet (column seed); see research/experiment/config "
            "for their derivation",
        },
    )
    prov["game"] = games.source(config.game)  # an outside game's own distribution and version
    played_by = state.get("git", [])
    if played_by:  # the code of the invocations that played, not of the one finishing
        prov["git"] = played_by[0] if len({json.dumps(g) for g in played_by}) == 1 else played_by
    prov |= {
        "play_hash": phash,
        "run_id": state["run_id"],
        "created": state["created"],
        "finished": datetime.now(UTC).isoformat(timespec="seconds"),
        "backend": backend,
        "workers": workers,
        "invocations": state.get("invocations", 1),
        "setup_seconds": state.get("setup_seconds"),
        "play_seconds": state.get("play_seconds"),
        "games_per_second": round(state["n_games"] / state["play_seconds"], 1)
        if state.get("play_seconds")
        else None,
        "setups": state.get("setups", []),
    }
    write_json(run.path / "provenance.json", prov)
    state["status"] = COMPLETE
    state["finished"] = prov["finished"]
    run.write_state(state)


def _analyse(run: RunDir, quiet: bool) -> None:
    from ludolab.research.experiment.report import analyse_run

    _say("analysing: metrics, comparisons, figures, report", quiet)
    state = run.read_state()
    state["analysed"] = False  # until the report is written: `--resume` finishes it
    run.write_state(state)
    analyse_run(run.path)
    state = run.read_state()
    state["analysed"] = True
    run.write_state(state)
    # the report's path is the caller's to print (`ludolab run` does, once): RunResult.path
