"""The commands of experiments: ``run``, ``plan``, ``metrics``, and ``compare``, ``plot`` and
``report`` on a finished run."""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

from ludolab.research.cli.common import SimulationError
from ludolab.research.cli_types import add_quiet_option, count

if TYPE_CHECKING:
    from ludolab.research.plots.style import FigureStyle


def add_commands(sub: argparse._SubParsersAction) -> None:
    """``run``, ``plan``, ``metrics``, ``compare``, ``plot``, ``report``."""
    run = sub.add_parser(
        "run",
        help="run an experiment config: setups, games, metrics, comparisons, figures, report",
    )
    run.add_argument("config", help="experiment config (.toml), e.g. experiments/quickstart.toml")
    run.add_argument(
        "--out",
        default="results",
        help="results root (default %(default)s); the run goes to OUT/<experiment>/<run-id>/",
    )
    run.add_argument("--workers", type=int, default=1, help="local worker processes (default 1)")
    run.add_argument(
        "--backend",
        choices=("local", "dask"),
        default=None,
        help="where the games are played (default: dask with --scheduler, else local)",
    )
    run.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="Dask scheduler, e.g. tcp://host:8786 (plays on the cluster)",
    )
    run.add_argument(
        "--resume",
        nargs="?",
        const=True,
        default=False,
        metavar="RUN_DIR",
        help="continue an interrupted run: the given run folder, or the newest "
        "unfinished run of this config under --out",
    )
    run.add_argument("--run-id", help="name of a new run's folder (default: time and config hash)")
    run.add_argument(
        "--no-analysis",
        action="store_true",
        help="play the games only; analyse later with 'ludolab report RUN'",
    )
    add_quiet_option(run)
    run.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="PATH=VALUE",
        dest="overrides",
        help="change the config without copying it, e.g. --set boards=100 --set "
        "conditions.balanced.sampler=uniform --set options.vp_to_win=9 (repeatable)",
    )
    run.add_argument(
        "--dry-run",
        action="store_true",
        help="write nothing: print the games, the estimated time and the minimum detectable "
        "differences (as 'ludolab plan')",
    )
    run.set_defaults(run=_run)

    plan = sub.add_parser(
        "plan",
        help="before a run: games, estimated time from short pilots, what the design can "
        "detect (minimum detectable difference per metric) and the setups per condition to "
        "play (for the declared margins, else for Cohen's d = 0.5 on setup means)",
    )
    plan.add_argument("config", help="experiment config (.toml)")
    plan.add_argument("--workers", type=int, default=1, help="workers the run will use")
    plan.add_argument(
        "--pilot-setups", type=int, default=20, help="setups per condition in the pilot (20)"
    )
    plan.add_argument("--pilot-games", type=int, default=4, help="games per setup in the pilot (4)")
    plan.add_argument(
        "--pilot-seeds",
        default="3",
        metavar="N",
        help="pilots to play, each with its own seed derived from the config's seed (change "
        "that with --set seed=N); the plan recommends the most setups any of them needs (3)",
    )
    plan.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="PATH=VALUE",
        dest="overrides",
        help="as for 'ludolab run'",
    )
    add_quiet_option(plan)
    plan.set_defaults(run=_plan)

    met = sub.add_parser("metrics", help="every game-quality metric with its formula")
    met.set_defaults(run=_metrics)

    for name, what, func in (
        ("compare", "statistics of a finished run (tables: Markdown, CSV, LaTeX)", _compare),
        ("plot", "figures of a finished run (PDF and PNG under RUN/figures)", _plot),
        ("report", "redo a finished run's tables, figures and report", _report),
    ):
        cmd = sub.add_parser(name, help=what)
        cmd.add_argument(
            "run_dir", metavar="RUN", help="a run folder, e.g. results/quickstart/<run-id>"
        )
        if name != "compare":
            cmd.add_argument(
                "--style",
                metavar="NAME",
                help="the figures' style: paper (3.3 / 7 in columns) or screen; default: the "
                "config's [report] style, else paper",
            )
        add_quiet_option(cmd)
        cmd.set_defaults(run=func)


def _run(args: argparse.Namespace) -> int:
    from ludolab.research.experiment.config import ConfigError
    from ludolab.research.experiment.runner import run_experiment
    from ludolab.research.experiment.store import new_run_id

    if _config_game(args.config) == "sudoku":  # a puzzle study, not a game experiment
        from ludolab.research.experiment.store import folder_name
        from ludolab.research.puzzles.sudoku.study import load_study, run_study

        given = [
            flag
            for flag, on in (
                ("--resume", args.resume),
                ("--dry-run", args.dry_run),
                ("--set", args.overrides),
                ("--backend dask / --scheduler", args.backend == "dask" or args.scheduler),
                ("--no-analysis", args.no_analysis),
            )
            if on
        ]
        if given:
            raise ConfigError(
                f"{args.config}: a Sudoku study takes --out, --run-id and --workers only, not "
                f"{', '.join(given)}; run it again instead (it takes about a minute)"
            )
        study = load_study(args.config)
        out = (
            Path(args.out)
            / folder_name(study.name, "name")
            / folder_name(args.run_id or new_run_id(study.hash), "run id")
        )
        from ludolab.research.progress import Status

        with Status(f"{study.name}: classifying {study.total} puzzles", quiet=args.quiet):
            result = run_study(study, out, args.workers)
        print(f"{len(result.table)} puzzles in {result.seconds:.1f} s -> {out}")
        return 0

    if args.dry_run:
        return _print_plan(args.config, args.overrides, args.workers, 20, 4, args.quiet)
    result = run_experiment(
        args.config,
        out=args.out,
        workers=args.workers,
        backend=args.backend,
        scheduler=args.scheduler,
        resume=args.resume,
        run_id=args.run_id,
        analyse=not args.no_analysis,
        quiet=args.quiet,
        overrides=args.overrides,
    )
    print(f"{result.n_games:,} games ({result.played:,} played now) -> {result.path}")
    if not args.no_analysis:
        print(f"report: {result.path / 'report.md'} (and report.html)")
    return 0


def _plan(args: argparse.Namespace) -> int:
    from ludolab.research.experiment.config import ConfigError, load_experiment
    from ludolab.research.experiment.plan import plan_experiment, plan_text

    for name in ("workers", "pilot_setups", "pilot_games"):
        if getattr(args, name) < 1:
            raise ConfigError(f"--{name.replace('_', '-')} must be at least 1")
    try:  # checked here, not by argparse, so that the message is one line (no usage first)
        pilots = count(args.pilot_seeds)
    except argparse.ArgumentTypeError as exc:
        raise ConfigError(f"--pilot-seeds: {exc}") from None
    if not args.quiet:
        load_experiment(args.config, args.overrides)  # a bad config: its error, no "running"
        print(f"running {pilots} pilot(s) of {args.config} ...", file=sys.stderr, flush=True)
    plan = plan_experiment(
        args.config,
        overrides=args.overrides,
        pilot_setups=args.pilot_setups,
        pilot_games=args.pilot_games,
        pilot_seeds=pilots,
        workers=args.workers,
        quiet=args.quiet,
    )
    print(plan_text(plan))
    return 0


def _print_plan(
    config: str,
    overrides: list[str],
    workers: int,
    pilot_setups: int,
    pilot_games: int,
    quiet: bool,
) -> int:
    from ludolab.research.experiment.config import load_experiment
    from ludolab.research.experiment.plan import plan_experiment, plan_text

    if not quiet:
        load_experiment(config, overrides)  # a bad config: its error, no "running"
        print(f"running a pilot of {config} ...", file=sys.stderr, flush=True)
    plan = plan_experiment(
        config,
        overrides=overrides,
        pilot_setups=pilot_setups,
        pilot_games=pilot_games,
        workers=max(workers, 1),
        quiet=quiet,
    )
    print(plan_text(plan))
    return 0


def _metrics(args: argparse.Namespace) -> int:
    from ludolab.research.markdown import pipe_table
    from ludolab.research.metrics.registry import METRICS, registry_unit

    rows = [(name, m.description, m.formula, registry_unit(name)) for name, m in METRICS.items()]
    print(pipe_table(("name", "description", "formula", "unit"), rows), end="")
    return 0


def _config_game(path: str) -> object:
    """The ``game`` key of a TOML config, or None when it cannot be read (the loader that
    follows then reports the problem properly)."""
    try:
        return tomllib.loads(Path(path).read_text()).get("game")
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return None


def _compare(args: argparse.Namespace) -> int:
    from ludolab.research.experiment.analysis import analyse, load_run
    from ludolab.research.experiment.result_tables import summary_lines, write_tables
    from ludolab.research.progress import Status

    with Status(f"comparing the conditions of {args.run_dir}", quiet=args.quiet):
        analysis = analyse(load_run(args.run_dir))
        files = write_tables(analysis)
    print("\n".join(summary_lines(analysis)))
    print("wrote " + ", ".join(str(f) for f in files))
    return 0


def _plot(args: argparse.Namespace) -> int:
    from ludolab.research.experiment.analysis import condition_table, load_run
    from ludolab.research.experiment.figures import plot_run
    from ludolab.research.progress import Status

    style = _figure_style(args.style)
    with Status(f"drawing the figures of {args.run_dir}", quiet=args.quiet):
        data = load_run(args.run_dir)
        figures = plot_run(data, condition_table(data), style)
    for fig in figures:
        print(f"{fig.stem}.pdf / .png: {fig.caption}")
    for note in figures.left_out:
        print(note)
    return 0


def _report(args: argparse.Namespace) -> int:
    from ludolab.research.experiment.report import analyse_run
    from ludolab.research.progress import Status

    style = _figure_style(args.style)
    with Status(f"analysing {args.run_dir}", quiet=args.quiet):
        report = analyse_run(args.run_dir, style=style)
    print(f"report: {report}")
    return 0


def _figure_style(name: str | None) -> FigureStyle | None:
    """The style ``--style`` names (None: the run's config decides), checked before anything
    is read or written."""
    if name is None:
        return None
    from ludolab.research.plots.style import STYLES

    if name not in STYLES:
        raise SimulationError(f"--style: expected one of {', '.join(STYLES)}, got {name!r}")
    return STYLES[name]
