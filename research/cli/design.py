"""The ``design`` command: search a constraint set's parameters for an aim, then confirm."""

from __future__ import annotations

import argparse

from ludolab.research.cli_types import add_quiet_option, count


def add_commands(sub: argparse._SubParsersAction) -> None:
    """``design``."""
    cmd = sub.add_parser(
        "design",
        help="search constraint parameters for an aim (Optuna), then confirm the best on fresh "
        "seeds",
        description="Search the [design] block's parameters for its objectives, within its "
        "budget; rerun the best candidate(s) and the baseline as an ordinary experiment on fresh "
        "seeds, sized by `ludolab plan`; write OUT/<name>/report.md. The study lives in "
        "OUT/<name>/study.db, or in the database [design].storage names (PostgreSQL, "
        "postgresql://USER:PASSWORD@HOST/DB, needs pip install 'ludolab[postgres]'). Format: "
        "ludolab.research.design.",
    )
    cmd.add_argument(
        "config", help="design config (.toml), e.g. experiments/design-fair-start.toml"
    )
    cmd.add_argument(
        "--out", default="results", help="results root (default %(default)s); OUT/<name>/"
    )
    cmd.add_argument("--workers", type=count, default=1, help="local worker processes (default 1)")
    cmd.add_argument(
        "--scheduler", metavar="ADDRESS", help="play the games on a Dask cluster (tcp://host:8786)"
    )
    cmd.add_argument(
        "--resume",
        action="store_true",
        help="continue the search in OUT/<name>/ (after a kill, or with a larger budget)",
    )
    cmd.add_argument("--no-confirm", action="store_true", help="search only: no confirmation run")
    cmd.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="PATH=VALUE",
        help="change a value of the config, e.g. --set design.trials=10 (repeatable)",
    )
    add_quiet_option(cmd)
    cmd.set_defaults(run=_design)


def _design(args: argparse.Namespace) -> int:
    from ludolab.research.design.run import run_design

    result = run_design(
        args.config,
        out=args.out,
        workers=args.workers,
        scheduler=args.scheduler,
        resume=args.resume,
        confirm=not args.no_confirm,
        quiet=args.quiet,
        overrides=args.overrides,
    )
    done = (result.trials["state"] == "complete").sum() if len(result.trials) else 0
    print(f"{len(result.trials)} trials ({done} complete) -> {result.path}")
    for c in result.confirmed:
        verdict = "confirmed" if c.improved else "not confirmed"
        print(
            f"trial {c.trial}, {c.objective.metric}: search {c.search_diff:+.3f}, confirmed "
            f"{c.diff:+.3f} [{c.low:+.3f}, {c.high:+.3f}] ({verdict})"
        )
    return 0
