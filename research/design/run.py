"""``ludolab design CONFIG``: search, confirm, report.

The design's folder, ``<out>/<name>/``, holds:

* ``config.toml`` (the file as given) and ``design.json`` (its digest, for resuming);
* ``study.db``: the Optuna study (SQLite; ``[design].storage`` names another database, e.g.
  PostgreSQL's ``postgresql://USER:PASSWORD@HOST/DB`` with ``pip install 'ludolab[postgres]'``);
* ``baseline.parquet`` and ``trials/NNNN.parquet``: every game the search played, per-game
  metrics, by rung and setup;
* ``trials.csv``: one row per finished trial;
* ``confirm.toml`` and ``confirm/``: the confirmation's config and its ordinary run folder;
* ``figures/`` and ``report.md``.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ludolab.research.design.confirm import (
    Confirmed,
    confirm_data,
    read_confirmed,
    write_config,
)
from ludolab.research.design.evaluate import (
    Infeasible,
    estimate,
    paired_difference,
    play_rung,
    write_parquet,
)
from ludolab.research.design.search import (
    best_trials,
    open_study,
    search,
    trials_frame,
    write_summary,
)
from ludolab.research.design.spec import DesignSpec, load_design
from ludolab.research.experiment.backends import connect_dask
from ludolab.research.experiment.store import RunError
from ludolab.research.files import write_text
from ludolab.research.numbers import plural

DESIGN_SCHEMA = "ludolab.design/1"
# Keys that may change between a search and its resumption: the budget and the confirmation.
_RESUMABLE_KEYS = ("trials", "games", "minutes", "confirm")


@dataclass(frozen=True)
class DesignResult:
    """What :func:`run_design` did: its folder, the trials table, the confirmed comparisons
    (empty when not confirmed) and the report's path."""

    path: Path
    trials: pd.DataFrame
    confirmed: list[Confirmed]
    report: Path | None


def design_digest(path: Path, overrides: Sequence[str]) -> str:
    """A digest of what fixes the trials: the file's contents with ``--set`` applied, less the
    budget and the confirmation (which a resumed search may change)."""
    from ludolab.research.design.spec import design_top_keys
    from ludolab.research.experiment.config import apply_overrides

    data = tomllib.loads(path.read_text())
    data = apply_overrides(data, overrides, design_top_keys(data.get("game")))
    design = {k: v for k, v in data.get("design", {}).items() if k not in _RESUMABLE_KEYS}
    data = {**data, "design": design}
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


def run_design(
    config: str | Path,
    *,
    out: str | Path = "results",
    workers: int = 1,
    scheduler: str | None = None,
    resume: bool = False,
    confirm: bool = True,
    quiet: bool = False,
    overrides: Sequence[str] = (),
) -> DesignResult:
    """Search the design in ``config``, confirm its best candidates, write the report.

    Raises ConfigError for a bad config (nothing written), StorageError (a ConfigError) when
    the study's storage cannot be opened, RunError when the folder holds another search or an
    earlier one and ``resume`` is not set. A start that fails before the search's first trial
    (the storage cannot be opened, the baseline cannot be played) removes the folder it made,
    so that the same command can be run again; a folder that was there before is never
    removed, and one left by an interrupt stays, for ``resume``.
    """

    def say(line: str) -> None:
        if not quiet:
            print(line, file=sys.stderr, flush=True)

    path = Path(config)
    spec = load_design(path, overrides)
    if workers < 1:
        raise RunError(f"--workers must be at least 1, got {workers}")
    folder = Path(out) / spec.name
    digest = design_digest(path, overrides)
    _claim(folder, digest, resume)
    client = connect_dask(scheduler) if scheduler else None  # (RunError before any write)
    try:

        def play(values: Any, rung: int) -> Any:
            return play_rung(spec, values, rung, folder, workers=workers, client=client)

        made = [] if resume else _make_folder(folder, digest)
        try:
            study = open_study(spec, folder)  # first: a failed resume leaves its folder as it was
            write_text(folder / "config.toml", path.read_text())
            write_summary(
                folder / "design.json",
                {
                    "schema": DESIGN_SCHEMA,
                    "digest": digest,
                    "config": str(path),
                    "overrides": list(overrides),
                },
            )
            baseline = _baseline_games(spec, folder, play, say)
        except BaseException as exc:
            # Nothing of value is in a folder this start made (the baseline's games are saved
            # once all are played; a study in a shared database stays there), so a failed
            # start leaves none. An interrupt is a kill: its folder stays, for --resume.
            if isinstance(exc, Exception) or not (folder / "design.json").exists():
                _unmake(made)
            raise
        scores = [o.score(estimate(baseline, o).mean) for o in spec.objectives]
        study = search(spec, folder, play, scores, repair=resume, say=say, study=study)
        trials = trials_frame(study, spec)
        write_text(folder / "trials.csv", trials.to_csv(index=False))
        confirmed: list[Confirmed] = []
        best = best_trials(study, spec, spec.confirm.candidates)
        if confirm and best:
            confirmed = _confirm(spec, folder, best, baseline, workers, scheduler, quiet, say)
        from ludolab.research.design.report import write_report

        report = write_report(spec, folder, study, trials, baseline, best, confirmed)
        say(f"report: {report}")
        return DesignResult(folder, trials, confirmed, report)
    finally:
        if client is not None:
            client.close()


def _make_folder(folder: Path, digest: str) -> list[Path]:
    """Create ``folder`` (claimed by :func:`_claim` as new) and the parents it lacks; returns
    them, deepest first, for :func:`_unmake`. The folder itself is made with ``exist_ok`` off,
    so that of two starts racing for it only one owns it (the other is refused, as a second
    start is)."""
    missing = [p for p in (folder, *folder.parents) if not p.exists()]
    for parent in reversed(missing[1:]):
        parent.mkdir(exist_ok=True)
    try:
        folder.mkdir()
    except FileExistsError:
        _claim(folder, digest, resume=False)  # raises: another start made it meanwhile
        raise
    return missing


def _unmake(made: list[Path]) -> None:
    """Remove what :func:`_make_folder` made: the design's folder, then each parent it made
    while that is empty (another process may have written there since)."""
    if not made:
        return
    shutil.rmtree(made[0], ignore_errors=True)
    for parent in made[1:]:
        try:
            parent.rmdir()
        except OSError:
            break


def _claim(folder: Path, digest: str, resume: bool) -> None:
    """Check that ``folder`` may hold this search: new, or (with ``resume``) the same one."""
    saved = folder / "design.json"
    if not folder.exists():
        if resume:
            raise RunError(f"--resume: {folder} holds no search to resume; run without --resume")
        return
    if not saved.exists():
        raise RunError(f"{folder} exists and holds no design search: choose another --out")
    if not resume:
        raise RunError(
            f"{folder} holds a search already: add --resume to continue it (a larger budget "
            "plays more trials), or give another --out"
        )
    if json.loads(saved.read_text()).get("digest") != digest:
        raise RunError(
            f"{folder} holds a search of another config (only the budget and [design.confirm] "
            "may change on --resume): give another --out"
        )


def _baseline_games(
    spec: DesignSpec, folder: Path, play: Callable[[Any, int], Any], say: Callable[[str], None]
) -> pd.DataFrame:
    path = folder / "baseline.parquet"
    if path.exists():
        return pd.read_parquet(path)
    say(f"baseline: {spec.rungs} rung(s) of {plural(spec.setups, spec.described.setup_noun)}")
    try:
        frames = [play(dict(spec.baseline), r).games for r in range(spec.rungs)]
    except Infeasible as exc:
        raise RunError(
            f"{spec.label}: the baseline's setups cannot be drawn ({exc}); change "
            "design.baseline or the base set (design.constraints)"
        ) from None
    games = pd.concat(frames, ignore_index=True)
    write_parquet(games, path)
    return games


def search_differences(
    spec: DesignSpec, folder: Path, number: int, baseline: pd.DataFrame
) -> dict[str, tuple[float, float]]:
    """The search's paired estimate (candidate minus baseline, standard error) of trial
    ``number`` on each objective's metric."""
    games = pd.read_parquet(folder / "trials" / f"{number:04d}.parquet")
    out = {}
    for o in spec.objectives:
        est = paired_difference(games, baseline, o)
        out[o.metric] = (est.mean, est.se)
    return out


def _confirm(
    spec: DesignSpec,
    folder: Path,
    best: list[Any],
    baseline: pd.DataFrame,
    workers: int,
    scheduler: str | None,
    quiet: bool,
    say: Callable[[str], None],
) -> list[Confirmed]:
    from ludolab.research.experiment.plan import plan_experiment
    from ludolab.research.experiment.runner import run_experiment

    candidates = [(t.number, dict(t.params)) for t in best]
    path = folder / "confirm.toml"
    setups = spec.confirm.setups
    header = (
        f"The confirmation of design {spec.name!r}: the baseline and its best candidate(s) on "
        "fresh seeds.\nWritten by ludolab design; run it again with `ludolab run` on this file."
    )
    if setups is None:
        pilot = spec.confirm.min_setups
        write_config(path, confirm_data(spec, candidates, folder, pilot), header)
        say(f"confirmation: planning its size ({spec.confirm.pilots} pilot(s))")
        plan = plan_experiment(
            path, pilot_setups=min(20, pilot), pilot_seeds=spec.confirm.pilots, workers=workers
        )
        wanted = plan.recommended
        setups = int(wanted) if wanted == wanted else spec.confirm.max_setups
        setups = max(spec.confirm.min_setups, min(spec.confirm.max_setups, setups))
        write_summary(
            folder / "confirm-plan.json",
            {
                "recommended": wanted,
                "interval": list(plan.interval),
                "setups": setups,
                "basis": plan.basis,
                "min_setups": spec.confirm.min_setups,
                "max_setups": spec.confirm.max_setups,
            },
        )
    write_config(path, confirm_data(spec, candidates, folder, setups), header)
    runs = folder / "confirm"
    if runs.exists():  # an unfinished confirmation is played again from the start
        shutil.rmtree(runs)
    say(f"confirmation: {setups} {spec.described.setup_plural} per condition")
    result = run_experiment(
        path,
        out=runs,
        workers=workers,
        backend="dask" if scheduler else "local",
        scheduler=scheduler,
        quiet=quiet,
    )
    confirmed = []
    for number, _ in candidates:
        search = search_differences(spec, folder, number, baseline)
        confirmed += read_confirmed(result.path, spec, number, search)
    return confirmed
