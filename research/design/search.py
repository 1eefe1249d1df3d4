"""The search: Optuna asks for candidates, :mod:`.evaluate` plays them, Optuna is told.

**Sampler.** Optuna's TPE (multivariate; with several objectives it is MOTPE), its first
``startup_trials`` trials drawn at random. **Pruning** (one objective only; Optuna prunes no
multi-objective study): after each rung but the last the candidate's score so far is reported,
and Optuna's successive-halving pruner (reduction factor 2) stops a candidate that is not in
the better half of those that reached that rung.

**Reproducible, and resumable to the same trials.** Trials run one after the other (a trial's
games in parallel). Before trial ``k`` (counting the trials that finished: complete, pruned or
infeasible) the sampler is made anew with the seed :func:`trial_seed` of the design's seed and
``k``; it reads the study's history from the storage, so trial ``k``'s parameters depend only
on the seed and the trials before it. A search killed during trial ``k`` left that trial
RUNNING in the storage: the next invocation marks it failed (the study's user attribute
``interrupted`` lists such trials) and enqueues its parameters, so that trial ``k`` is played
again with the same parameters, and the finished trials are those of an uninterrupted search.
(``ludolab design --resume`` repairs; a search started without it does not, so that several
machines can search one study in a shared database, each started without ``--resume``; their
trials are then not reproducible, as they interleave.)

**Storage.** The study lives in SQLite in the design's folder, or in the database that
``[design].storage`` names (any SQLAlchemy URL Optuna takes). A PostgreSQL URL without a driver,
``postgresql://user:password@host/db``, is opened with psycopg (3), the driver that
``pip install 'ludolab[postgres]'`` installs (with psycopg2, SQLAlchemy's default, where only that
one is installed). A storage that cannot be opened (a bad URL, a driver not installed, a server
that does not answer) is a :class:`StorageError`: one line naming the key and what to do.
"""

from __future__ import annotations

import json
import math
import re
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ludolab.research.design.evaluate import Infeasible, RungGames, estimate, write_parquet
from ludolab.research.design.spec import DesignSpec, Parameter
from ludolab.research.experiment.config import ConfigError
from ludolab.research.files import write_json

_TRIAL_TAG = 0x7472_6961_6C  # "trial"
INTERRUPTED = "interrupted"
INFEASIBLE = "infeasible"
REPEAT_OF = "repeat_of"

Evaluate = Callable[[Mapping[str, Any], int], RungGames]
"""Plays rung ``r`` of the candidate with the given parameter values."""


def trial_seed(seed: int, k: int) -> int:
    """The sampler's seed before the ``k``-th finished trial."""
    return int(np.random.SeedSequence([seed, _TRIAL_TAG, k]).generate_state(1)[0])


def distributions(parameters: tuple[Parameter, ...]) -> dict[str, Any]:
    """Optuna's distribution of each parameter, by name."""
    from optuna.distributions import (
        CategoricalDistribution,
        FloatDistribution,
        IntDistribution,
    )

    out: dict[str, Any] = {}
    for p in parameters:
        if p.kind == "int":
            out[p.name] = IntDistribution(int(p.low), int(p.high), step=int(p.step or 1), log=p.log)  # type: ignore[arg-type]
        elif p.kind == "float":
            out[p.name] = FloatDistribution(p.low, p.high, step=p.step, log=p.log)  # type: ignore[arg-type]
        else:
            out[p.name] = CategoricalDistribution(p.choices)
    return out


class StorageError(ConfigError):
    """The study's storage cannot be opened: a bad URL, a database driver that is not
    installed, or a database that does not answer; the message says which and what to do."""


POSTGRES_EXTRA = "pip install 'ludolab[postgres]'"
"""The command that installs the PostgreSQL driver (psycopg 3) a ``postgresql://`` URL needs."""

# Database driver modules whose pip package has another name.
_PIP_NAMES = {"MySQLdb": "mysqlclient", "psycopg2": "psycopg2-binary", "cx_Oracle": "cx-Oracle"}


def storage_url(spec: DesignSpec, folder: Path) -> str:
    """The study's SQLAlchemy URL: ``[design].storage``, or SQLite in ``folder``. A bare
    ``postgresql://`` gets psycopg (3), the driver ``ludolab[postgres]`` installs, unless only
    psycopg2 (which SQLAlchemy would pick) is installed: a URL that worked with psycopg2 keeps
    working, and one with no driver at all is reported as needing the extra's."""
    from importlib.util import find_spec

    if not spec.storage:
        return f"sqlite:///{(folder / 'study.db').resolve()}"
    scheme, sep, rest = spec.storage.partition("://")
    if (
        sep
        and scheme == "postgresql"
        and (find_spec("psycopg") is not None or find_spec("psycopg2") is None)
    ):
        return f"postgresql+psycopg://{rest}"
    return spec.storage


def shown_url(url: str) -> str:
    """``url`` (or a message holding URLs) with each URL's password as ``***``. A password
    runs to the next ``@``, as SQLAlchemy reads it (it may hold a ``/``; an ``@`` or a space
    in it is written ``%40``, ``%20``)."""
    return re.sub(r"(://[^:/@?#\s]*:)[^@\s\"']*@", r"\1***@", url)


def open_study(spec: DesignSpec, folder: Path) -> Any:
    """The design's Optuna study (created, or loaded from the storage). Raises
    :class:`StorageError` when the storage cannot be opened."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    pruner = (
        optuna.pruners.SuccessiveHalvingPruner(min_resource=1, reduction_factor=2)
        if len(spec.objectives) == 1 and spec.rungs > 1
        else optuna.pruners.NopPruner()
    )
    url = storage_url(spec, folder)
    try:
        return optuna.create_study(
            storage=url,
            study_name=spec.name,
            directions=[o.direction for o in spec.objectives],
            pruner=pruner,
            load_if_exists=True,
        )
    except Exception as exc:
        failure = storage_failure(exc, spec, url, folder)
        if failure is None:
            raise
        raise failure from exc


def storage_failure(
    exc: Exception, spec: DesignSpec, url: str, folder: Path
) -> StorageError | None:
    """The one-line :class:`StorageError` for an exception opening the study at ``url``, or
    None when ``exc`` is not a storage failure (a bug, to be raised as it is). No password is
    shown, not even in the file's label (which quotes a ``--set design.storage=...``)."""
    message = _storage_message(exc, spec, url, folder)
    return None if message is None else StorageError(message)


def _storage_message(exc: Exception, spec: DesignSpec, url: str, folder: Path) -> str | None:
    from sqlalchemy import exc as sa

    where = shown_url(
        f"{spec.label}: key 'design.storage'"
        if spec.storage
        else f"{folder / 'study.db'} (the study's SQLite database)"
    )
    shown = shown_url(url)
    scheme = url.partition("://")[0]
    postgres = scheme.partition("+")[0] == "postgresql"
    if isinstance(exc, ImportError):  # Optuna's, raised from the driver's own ImportError
        cause: BaseException = exc
        while cause.__cause__ is not None:
            cause = cause.__cause__
        module = getattr(cause, "name", None)
        if module == "psycopg" or (postgres and not module):
            how = POSTGRES_EXTRA
        elif module:
            how = f"pip install {_PIP_NAMES.get(module, module)}"
            if postgres:
                how += f", or use ludolab's driver: {POSTGRES_EXTRA} and write postgresql://..."
        else:
            how = f"install the Python driver SQLAlchemy's documentation names for {scheme}"
        what = f"the database driver {module}" if module else f"a database driver for {scheme}"
        return (
            f"{where}: {shown} needs {what}, which cannot be imported "
            f"({shown_url(str(cause))}); install it: {how}"
        )
    if isinstance(exc, sa.NoSuchModuleError):
        return (
            f"{where}: SQLAlchemy knows no database {scheme!r} in {shown} (a dialect from another "
            "package may not be installed); expected e.g. postgresql://USER:PASSWORD@HOST/DB "
            f"({POSTGRES_EXTRA}) or sqlite:///PATH/study.db"
        )
    if isinstance(exc, sa.ArgumentError):
        return (
            f"{where}: {shown!r} is not a database URL ({shown_url(str(exc))}); expected e.g. "
            "postgresql://USER:PASSWORD@HOST/DB or sqlite:///PATH/study.db"
        )
    if isinstance(exc, sa.SQLAlchemyError):
        reason = shown_url(" ".join(str(getattr(exc, "orig", None) or exc).split()))
        return (
            f"{where}: cannot open the study at {shown}: {reason}; check that the database "
            "server runs and that the URL's host, port, user, password and database are right"
        )
    return None


def _finished(study: Any) -> list[Any]:
    from optuna.trial import TrialState

    return [
        t
        for t in study.get_trials(deepcopy=False)
        if t.state in (TrialState.COMPLETE, TrialState.PRUNED)
    ]


def _repair_interrupted(study: Any, say: Callable[[str], None]) -> None:
    """Fail the trials a killed search left running, and enqueue their parameters again."""
    from optuna.trial import TrialState

    for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        study.tell(t.number, state=TrialState.FAIL)
        study.set_user_attr(INTERRUPTED, [*study.user_attrs.get(INTERRUPTED, []), t.number])
        study.enqueue_trial(t.params, skip_if_exists=False)
        say(f"trial {t.number} was interrupted: its parameters are played again")


def _games_played(study: Any) -> int:
    return sum(int(t.user_attrs.get("games", 0)) for t in study.get_trials(deepcopy=False))


def _seconds(study: Any) -> float:
    return sum(float(t.user_attrs.get("seconds", 0.0)) for t in study.get_trials(deepcopy=False))


def budget_left(spec: DesignSpec, study: Any) -> str | None:
    """Why the search stops now (the budget reached), or None to go on."""
    if spec.trials is not None and len(_finished(study)) >= spec.trials:
        return f"{spec.trials} trials"
    if spec.games is not None and _games_played(study) >= spec.games:
        return f"{spec.games:,} games"
    if spec.minutes is not None and _seconds(study) >= spec.minutes * 60:
        return f"{spec.minutes:g} minutes"
    return None


def _earlier(study: Any, params: Mapping[str, Any]) -> Any:
    """The first finished trial with these parameters, or None."""
    for t in _finished(study):
        if t.params == dict(params) and REPEAT_OF not in t.user_attrs:
            return t
    return None


def evaluate_trial(
    spec: DesignSpec, study: Any, trial: Any, play: Evaluate, trials_dir: Path
) -> tuple[str, list[float] | None, pd.DataFrame]:
    """Play the trial's rungs (stopping early when pruned); returns the state to tell
    (``complete``, ``pruned`` or ``infeasible``), the scores and the games. A trial whose
    parameters an earlier one had is that trial again (the same setup and game seeds give the
    same games): its results are copied, no game is played, and ``repeat_of`` names it (TPE,
    sure of a region, asks for the same point more than once)."""
    params = dict(trial.params)
    start = time.perf_counter()
    earlier = _earlier(study, params)
    if earlier is not None:  # the same parameters: the same setups and games (same seeds)
        trial.set_user_attr(REPEAT_OF, earlier.number)
        for key, value in earlier.user_attrs.items():
            if key not in ("games", "seconds"):
                trial.set_user_attr(key, value)
        trial.set_user_attr("games", 0)
        trial.set_user_attr("seconds", 0.0)
        if INFEASIBLE in earlier.user_attrs:
            trial.set_constraint("setups drawn", 1.0)
            return "infeasible", None, pd.DataFrame()
        state = "pruned" if earlier.state.name == "PRUNED" else "complete"
        games = pd.read_parquet(trials_dir / f"{earlier.number:04d}.parquet")
        return state, list(earlier.values) if state == "complete" else None, games
    reason = None
    frames: list[pd.DataFrame] = []
    state = "complete"
    try:
        for r in range(spec.rungs):
            rung = play(params, r)
            frames.append(rung.games)
            trial.set_user_attr("sampler", rung.sampler)
            games = pd.concat(frames, ignore_index=True)
            if len(spec.objectives) == 1 and r < spec.rungs - 1:
                objective = spec.objectives[0]
                trial.report(objective.score(estimate(games, objective).mean), r + 1)
                if trial.should_prune():
                    state = "pruned"
                    break
    except Infeasible as exc:
        reason = str(exc)
    games = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    trial.set_user_attr("games", len(games))
    trial.set_user_attr("seconds", round(time.perf_counter() - start, 3))
    if reason is not None:
        trial.set_user_attr(INFEASIBLE, reason)
        trial.set_constraint("setups drawn", 1.0)  # above 0: violated
        return "infeasible", None, games
    scores = []
    for objective in spec.objectives:
        est = estimate(games, objective)
        trial.set_user_attr(f"mean:{objective.metric}", est.mean)
        trial.set_user_attr(f"se:{objective.metric}", est.se)
        scores.append(objective.score(est.mean))
    trial.set_user_attr("rungs", int(games["rung"].nunique()))
    return state, scores, games


def search(
    spec: DesignSpec,
    folder: Path,
    play: Evaluate,
    baseline_scores: list[float],
    *,
    repair: bool = True,
    say: Callable[[str], None] = lambda line: print(line, file=sys.stderr, flush=True),
    study: Any = None,
) -> Any:
    """Run (or resume) the search until its budget is spent; returns the Optuna study. Each
    finished trial's games go to ``folder/trials/NNNN.parquet``. ``baseline_scores`` (one per
    objective) are told for infeasible trials, marked infeasible by a violated constraint.
    ``repair``: treat trials left running as interrupted (see the module docstring); False when
    other processes may be searching the same study (a shared database) right now. ``study``:
    the study :func:`open_study` opened (None: open it here)."""
    import optuna
    from optuna.trial import TrialState

    trials_dir = folder / "trials"
    trials_dir.mkdir(parents=True, exist_ok=True)
    if study is None:
        study = open_study(spec, folder)
    if repair:
        _repair_interrupted(study, say)
    space = distributions(spec.parameters)
    while (why := budget_left(spec, study)) is None:
        k = len(_finished(study))
        study.sampler = optuna.samplers.TPESampler(
            seed=trial_seed(spec.seed, k),
            n_startup_trials=spec.startup_trials,
            multivariate=True,
        )
        trial = study.ask(space)
        state, scores, games = evaluate_trial(spec, study, trial, play, trials_dir)
        shown = ", ".join(f"{k_}={v!r}" for k_, v in trial.params.items())
        if state == "infeasible":
            # Told as complete with the baseline's scores and a violated constraint: the
            # constrained TPE then ranks it below every feasible trial and steers away from
            # it (a failed trial would be ignored, and asked for again).
            study.tell(trial, baseline_scores)
            say(f"trial {trial.number} ({shown}): infeasible ({trial.user_attrs[INFEASIBLE]})")
            continue
        write_parquet(games, trials_dir / f"{trial.number:04d}.parquet")
        if state == "pruned":
            study.tell(trial, state=TrialState.PRUNED)
        else:
            study.tell(trial, scores)
        means = ", ".join(
            f"{o.metric} {trial.user_attrs[f'mean:{o.metric}']:.3f}" for o in spec.objectives
        )
        say(f"trial {trial.number} ({shown}): {state}, {means}, {len(games)} games")
    say(f"search stopped: budget of {why} reached")
    return study


def trials_frame(study: Any, spec: DesignSpec) -> pd.DataFrame:
    """One row per trial that finished: ``number``, ``state`` (complete, pruned, infeasible),
    each parameter, each objective's ``mean:``/``se:``/``score:`` columns, ``games``,
    ``seconds`` and, for infeasible ones, the reason."""
    rows = []
    for t in _finished(study):
        state = INFEASIBLE if INFEASIBLE in t.user_attrs else t.state.name.lower()
        row: dict[str, Any] = {"number": t.number, "state": state, **t.params}
        for i, o in enumerate(spec.objectives):
            row[f"mean:{o.metric}"] = t.user_attrs.get(f"mean:{o.metric}", math.nan)
            row[f"se:{o.metric}"] = t.user_attrs.get(f"se:{o.metric}", math.nan)
            row[f"score:{o.metric}"] = t.values[i] if state == "complete" else math.nan
        row["games"] = t.user_attrs.get("games", 0)
        row["seconds"] = t.user_attrs.get("seconds", 0.0)
        row["rungs"] = t.user_attrs.get("rungs", 0)
        row["sampler"] = t.user_attrs.get("sampler", "")
        row["reason"] = t.user_attrs.get(INFEASIBLE, "")
        row["repeat_of"] = t.user_attrs.get(REPEAT_OF, -1)
        rows.append(row)
    return pd.DataFrame(rows)


def best_trials(study: Any, spec: DesignSpec, n: int) -> list[Any]:
    """Up to ``n`` best complete trials: by score for one objective; for several, the Pareto
    front ordered by distance to its ideal point (each score scaled by its range on the
    front)."""

    complete = feasible(study)
    if not complete:
        return []
    if len(spec.objectives) == 1:
        sign = -1.0 if spec.objectives[0].direction == "maximize" else 1.0
        return sorted(complete, key=lambda t: (sign * t.values[0], t.number))[:n]
    front = pareto_front(study)
    values = np.array([t.values for t in front], dtype=float)
    signs = np.array([-1.0 if o.direction == "maximize" else 1.0 for o in spec.objectives])
    v = values * signs
    span = np.ptp(v, axis=0)
    span[span == 0] = 1.0
    distance = np.linalg.norm((v - v.min(axis=0)) / span, axis=1)
    order = sorted(range(len(front)), key=lambda i: (distance[i], front[i].number))
    return [front[i] for i in order[:n]]


def feasible(study: Any) -> list[Any]:
    """The complete trials that were not infeasible."""
    from optuna.trial import TrialState

    return [
        t
        for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
        if INFEASIBLE not in t.user_attrs
    ]


def pareto_front(study: Any) -> list[Any]:
    """The feasible complete trials no other feasible one dominates."""
    trials = feasible(study)
    signs = [-1.0 if d.name == "MAXIMIZE" else 1.0 for d in study.directions]

    def dominates(a: Any, b: Any) -> bool:
        pa = [s * v for s, v in zip(signs, a.values, strict=True)]
        pb = [s * v for s, v in zip(signs, b.values, strict=True)]
        return all(x <= y for x, y in zip(pa, pb, strict=True)) and pa != pb

    return [t for t in trials if not any(dominates(o, t) for o in trials)]


def write_summary(path: Path, data: dict[str, Any]) -> None:
    """``data`` as indented JSON (atomic)."""
    write_json(path, json.loads(json.dumps(data, default=float)))
