"""`ludolab` command line: thin subcommands over the library.

Errors people can fix (a bad file, an unknown name, an unsatisfiable set, a missing MiniZinc)
print one message to stderr and exit with status 2; nothing half-written is left behind.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import os
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

# Only what building the parser needs is imported here (no numpy, pandas or solver): the
# library loads inside the subcommand that uses it, so `ludolab --help` starts at once.
from ludolab.research.catan.catalog import (
    COUNT_METHODS,
    OBJECTIVE_NAMES,
    SAMPLERS,
    CountSettings,
    shipped_sets,
)
from ludolab.research.cli_types import add_quiet_option, check_fits, count, seconds, seed

if TYPE_CHECKING:  # the game modules load inside the commands that use them
    from ludolab.envs.gallery.cards import SymbolsTable
    from ludolab.research.plots.style import FigureStyle


class SimulationError(ValueError):
    """A simulate request that cannot run as given."""


# The exceptions a user can cause and fix (one line and exit 2, never a traceback), by module:
# a class whose module is not loaded cannot have been raised, so nothing is imported to check.
USER_ERRORS = (
    ("ludolab.envs.catan.board", "BoardError"),
    ("ludolab.envs.catan.topology", "LayoutError"),
    ("ludolab.envs.gallery.deal", "DealError"),
    ("ludolab.research.catan.constraint_set", "ConstraintSetError"),
    ("ludolab.research.catan.constraints", "ConstraintError"),
    ("ludolab.research.catan.samplers", "SamplingError"),
    ("ludolab.research.experiment.config", "ConfigError"),
    ("ludolab.research.experiment.store", "RunError"),
    ("ludolab.research.puzzles", "PuzzleError"),
    ("ludolab.research.solve", "SolveError"),
)


def is_user_error(exc: BaseException) -> bool:
    """Whether ``exc`` is one of :data:`USER_ERRORS`, a :class:`SimulationError` or a missing,
    misplaced or forbidden file."""
    if isinstance(exc, SimulationError | FileNotFoundError | NotADirectoryError | PermissionError):
        return True
    for module, name in USER_ERRORS:
        loaded = sys.modules.get(module)
        if loaded is not None and isinstance(exc, getattr(loaded, name)):
            return True
    return False


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if (
        len(argv) > 1
        and argv[0] == "puzzle"
        and not argv[1].startswith("-")
        and (argv[1] not in PUZZLES)
    ):  # one line, as for every other bad input (argparse would print its usage first)
        print(
            f"ludolab: error: no puzzle game {argv[1]!r}; the puzzles are {', '.join(PUZZLES)}",
            file=sys.stderr,
        )
        return 2
    parser = _parser(argv)
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help()
        return 2
    try:
        _check_sizes(args)
        _refuse_to_overwrite(args)
        return args.run(args) or 0
    except KeyboardInterrupt:
        print("ludolab: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`ludolab count ... | head`): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so that the exit's flush does not fail again
        return 141  # as a shell reports a process stopped by SIGPIPE
    except Exception as exc:
        if not is_user_error(exc):
            raise
        print(f"ludolab: error: {exc}", file=sys.stderr)
        return 2


SIZE_ARGUMENTS = {"n": "-n", "games": "--games", "draws": "--draws"}


def _check_sizes(args: argparse.Namespace) -> None:
    """Counts at least 1, and small enough to hold in memory (see cli_types.check_fits)."""
    sized = (_generate_catan, _generate_gallery, _simulate_catan, _simulate_gallery, _count)
    if getattr(args, "run", None) not in (*sized, _check_uniformity):
        return  # other commands' -n / --n mean something else (a board size, a count cap)
    for name, flag in SIZE_ARGUMENTS.items():
        value = getattr(args, name, None)
        if not isinstance(value, int):
            continue
        if value < 1:
            raise SimulationError(f"{flag} must be at least 1, got {value}")
        what = {"n": "deals" if args.run is _generate_gallery else "boards"}.get(name, name)
        try:
            check_fits(value, what, flag)
        except ValueError as exc:
            raise SimulationError(str(exc)) from None


def _refuse_to_overwrite(args: argparse.Namespace) -> None:
    """A command that writes one file (``--out``) keeps an existing one unless ``--force``."""
    if not hasattr(args, "force") or not getattr(args, "out", None):
        return
    out = Path(args.out)
    if out.is_dir():
        raise SimulationError(f"--out {out}: is a folder; name the file to write")
    if out.exists() and not args.force:
        raise SimulationError(
            f"--out {out}: the file exists; pass --force to replace it (nothing was written)"
        )


def _add_batches(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--workers", type=int, default=1, help="worker processes (default %(default)s)"
    )
    parser.add_argument(
        "--batch",
        type=int,
        default=1000,
        help="games per batch: each finished batch is saved, so a stopped simulation keeps "
        "it (default %(default)s)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="continue a stopped simulation (same arguments): play only its missing batches",
    )


def _add_force(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--force", action="store_true", help="replace the --out file if it exists")


def _parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The command line's parser. A puzzle's options load only when ``argv`` names that
    puzzle (``puzzle NAME ...``): each brings its solver modules with it."""
    p = argparse.ArgumentParser(
        prog="ludolab",
        description=(
            "Which constraints on a game's setup make the game better to play? Generate setups "
            "with MiniZinc, play them, compare."
        ),
    )
    sub = p.add_subparsers(metavar="COMMAND")

    solve = sub.add_parser("solve", help="MiniZinc smoke tests")
    solve_sub = solve.add_subparsers(metavar="MODEL")
    magic = solve_sub.add_parser("magic-square", help="the seed's 3x3 magic square")
    magic.add_argument("--all", action="store_true", help="all solutions")
    magic.add_argument("--stats", action="store_true", help="print Gecode's statistics")
    magic.add_argument(
        "--break-symmetry",
        action="store_true",
        help="add the seed's two symmetry-breaking constraints (with --stats: "
        "compare the search with and without them)",
    )
    magic.set_defaults(run=_magic_square)

    gen = sub.add_parser("generate", help="generate game setups")
    gen_sub = gen.add_subparsers(metavar="GAME")
    cat = gen_sub.add_parser("catan", help="Catan boards from a constraint set")
    cat.add_argument(
        "--constraints",
        "-c",
        required=True,
        metavar="NAME|FILE",
        help=f"a shipped set ({', '.join(shipped_sets())}) or a .toml file",
    )
    cat.add_argument(
        "-n",
        type=int,
        default=None,
        help="boards to draw (default 1; enumerate: a cap, default all)",
    )
    cat.add_argument("--sampler", choices=SAMPLERS, default="uniform")
    cat.add_argument("--seed", type=seed, default=0, help="master seed (default %(default)s)")
    cat.add_argument("--out", "-o", required=True, help="output .jsonl (one board per line)")
    _add_force(cat)
    cat.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="CONSTRAINT.PARAM=VALUE",
        help="override a parameter of the set, e.g. "
        "seed-2019-marker-threshold.threshold=22 (TOML value syntax)",
    )
    cat.add_argument(
        "--objective",
        choices=sorted(OBJECTIVE_NAMES),
        default="pip-spread",
        help="for --sampler optimise",
    )
    cat.add_argument("--time-limit", type=seconds, default=None, help="seconds of solver search")
    cat.add_argument(
        "--max-draws",
        type=int,
        default=50_000_000,
        help="shuffles the uniform sampler may try (default %(default)s)",
    )
    cat.add_argument("--pictures", metavar="DIR", help="also draw the first boards (PNG) here")
    add_quiet_option(cat)
    cat.set_defaults(run=_generate_catan)

    sim = sub.add_parser("simulate", help="play games between agents")
    sim_sub = sim.add_subparsers(metavar="GAME")
    simc = sim_sub.add_parser(
        "catan",
        help="play Catan games on boards, write one row per game (Parquet)",
        description="Game i is played on board i mod (number of boards) with its own seed "
        "spawned from --seed; game i's dice are the same whatever the boards and agents.",
    )
    simc.add_argument(
        "--boards",
        metavar="FILE",
        help="boards .jsonl or .json (from `ludolab generate catan`); default: fair shuffles",
    )
    simc.add_argument(
        "--agents",
        default="random,random,random,random",
        help="one agent per seat, comma-separated, 2-4 seats: "
        "random, greedy, lookahead, mcts, alphabeta; parameters as name:key=value "
        "(default %(default)s)",
    )
    simc.add_argument("--games", "-n", type=int, default=100)
    simc.add_argument("--seed", type=seed, default=0, help="master seed (default %(default)s)")
    simc.add_argument("--out", "-o", required=True, help="output .parquet")
    _add_force(simc)
    _add_batches(simc)
    simc.add_argument("--vp-to-win", type=int, default=10)
    simc.add_argument("--discard-limit", type=int, default=7)
    simc.add_argument("--friendly-robber", action="store_true")
    simc.add_argument(
        "--turn-limit",
        type=int,
        default=1000,
        help="cut games off (truncated, no winner) after this many turns; 0 for none",
    )
    simc.add_argument(
        "--trade-offers",
        type=int,
        default=2,
        help="domestic trade offers allowed per turn; 0 turns them off (default %(default)s)",
    )
    add_quiet_option(simc)
    simc.set_defaults(run=_simulate_catan)

    simg = sim_sub.add_parser(
        "gallery",
        help="play Masters Gallery games, write one row per game (Parquet)",
        description="Game i is played on deal i mod (number of deals), or on a fair deal "
        "drawn from its own seed; seeds are spawned from --seed.",
    )
    simg.add_argument("--players", "-p", type=int, default=None, help="2-5 (default: agents)")
    simg.add_argument(
        "--agents",
        default=None,
        help="one agent per seat, comma-separated (default: random for every seat); "
        "parameters as name:key=value",
    )
    simg.add_argument("--deals", metavar="FILE", help="deals .jsonl or .json; default: fair")
    simg.add_argument("--games", "-n", type=int, default=100)
    simg.add_argument("--seed", type=seed, default=0, help="master seed (default %(default)s)")
    simg.add_argument("--out", "-o", required=True, help="output .parquet")
    _add_force(simg)
    _add_batches(simg)
    _add_gallery_rules(simg)
    add_quiet_option(simg)
    simg.set_defaults(run=_simulate_gallery)

    lad = sub.add_parser(
        "ladder",
        help="rate agents: a seat-rotated round robin and Plackett-Luce ratings",
        description="Every combination of --players agents from --agents plays --rounds "
        "times, each time in every seat rotation on one setup and game seed; writes "
        "games.parquet, ratings.csv, head_to_head.csv, ladder.md and ladder.png into the "
        "--out folder.",
    )
    lad.add_argument("game", choices=("catan", "gallery"))
    lad.add_argument(
        "--agents",
        required=True,
        help="the agents to rate, comma-separated, parameters as name:key=value "
        "(e.g. random,greedy,mcts:playouts=200)",
    )
    lad.add_argument(
        "--players",
        "-p",
        type=int,
        default=None,
        help="seats per game (default: Catan 4, Masters Gallery 2)",
    )
    lad.add_argument(
        "--rounds", type=int, default=10, help="plays of each lineup (default %(default)s)"
    )
    lad.add_argument("--seed", type=seed, default=0, help="master seed (default %(default)s)")
    lad.add_argument(
        "--setups",
        metavar="FILE",
        help="boards (Catan) or deals (Gallery), .jsonl or one .json; rotation set s plays "
        "setup s mod their number (default: a fair one per rotation set)",
    )
    lad.add_argument("--out", "-o", required=True, help="output folder")
    lad.add_argument(
        "--force", dest="replace", action="store_true", help="replace the --out folder"
    )
    lad.add_argument("--workers", type=int, default=1, help="worker processes")
    add_quiet_option(lad)
    lad.set_defaults(run=_ladder)

    exh = sub.add_parser(
        "exhibits",
        help="Masters Gallery: the best exhibits, with a proven bound, replayed in the engine",
        description="Asks the exhibit model one question within a time limit, prints the "
        "exhibits per round and the scores, the best found, the proven bound and the gap "
        "(optimal only when proven), and replays the game card by card in the rules engine.",
    )
    exh.add_argument("--players", "-p", type=int, default=2, help="2-5 (default %(default)s)")
    exh.add_argument(
        "--objective",
        choices=["max-score", "max-margin", "min-winning-score"],
        default="max-score",
        help="player 1's highest score, largest winning margin, or lowest winning score",
    )
    exh.add_argument("--time-limit", type=seconds, default=60.0, help="seconds (default 60)")
    exh.add_argument(
        "--improving",
        type=count,
        help="stop Gecode's search after this many improving answers, not at the time limit "
        "(with --solver mip: for the first answer HiGHS must beat): the same answer on any "
        "machine",
    )
    exh.add_argument(
        "--nodes",
        type=count,
        help="--solver mip: stop HiGHS after this many branch-and-bound nodes (the time limit "
        "still applies): with --improving, the same answer on any machine",
    )
    exh.add_argument(
        "--open-model",
        action="store_true",
        help="the open 2019 model's rules (no extra card, awards on any artist, one draw-one, "
        "double and award card per artist), to compare with its published 301 (2 players) "
        "and 295 (4 players)",
    )
    _add_gallery_rules(exh)
    exh.add_argument(
        "--solver",
        choices=["mip", "gecode"],
        default="mip",
        help="mip: the model as a mixed-integer programme, HiGHS (best found and a proven "
        "bound; the default); gecode: the MiniZinc model (large neighbourhood search, no bound)",
    )
    exh.add_argument(
        "--complete",
        action="store_true",
        help="with --solver gecode: complete search (can prove optimality; slow) instead of "
        "large neighbourhoods",
    )
    exh.add_argument(
        "--seed", type=seed, default=1, help="--solver gecode: search seed (default %(default)s)"
    )
    exh.add_argument("--plays", action="store_true", help="also print every play in order")
    add_quiet_option(exh)
    exh.set_defaults(run=_exhibits)

    gal = gen_sub.add_parser("gallery", help="Masters Gallery deals from deal constraints")
    gal.add_argument("--players", "-p", type=int, required=True, help="2-5")
    gal.add_argument(
        "--constraints",
        "-c",
        default="fair",
        metavar="NAME|FILE|A,B",
        help="a shipped deal set, a .toml file, or constraint names (default %(default)s)",
    )
    gal.add_argument("-n", type=int, default=1, help="deals to draw (default 1)")
    gal.add_argument("--seed", type=seed, default=0, help="master seed (default %(default)s)")
    gal.add_argument("--out", "-o", required=True, help="output .jsonl (one deal per line)")
    _add_force(gal)
    gal.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="CONSTRAINT.PARAM=VALUE",
        help="override a parameter, e.g. balanced-symbols.tolerance=1",
    )
    gal.add_argument("--method", choices=["auto", "exact", "rejection"], default="auto")
    add_quiet_option(gal)
    gal.set_defaults(run=_generate_gallery)

    show = sub.add_parser("show", help="draw a board (PNG, SVG or PDF by the --out suffix)")
    show.add_argument(
        "board",
        help="a board .json, or a .jsonl (its first board, or FILE:K for board K, counted "
        "from 0 like every index in ludolab's tables)",
    )
    show.add_argument("--out", "-o", required=True)
    _add_force(show)
    show.add_argument("--title", default=None)
    show.set_defaults(run=_show)

    cnt = sub.add_parser(
        "count",
        help="how many boards satisfy a constraint set, and its share of fair shuffles",
        description="Exact where it can be (a depth-first count over the parts the set "
        "constrains), else an estimate with its 95%% interval: the share of fair shuffles that "
        "satisfy the set when rejection finds enough of them, else importance sampling over "
        "random descents of the search tree. Prints the tightness, -log10(share).",
    )
    cnt.add_argument("--constraints", "-c", required=True, metavar="NAME|FILE")
    cnt.add_argument("--param", action="append", default=[], metavar="CONSTRAINT.PARAM=VALUE")
    cnt.add_argument("--method", choices=COUNT_METHODS, default="auto")
    cnt.add_argument("--seed", type=seed, default=0, help="seed of the estimates (default 0)")
    cnt.add_argument(
        "--draws",
        type=int,
        default=CountSettings.draws,
        help="fair shuffles for the rejection estimate (default %(default)s)",
    )
    cnt.add_argument(
        "--list-nodes",
        type=int,
        default=CountSettings.list_nodes,
        help="search nodes allowed for an exact count in auto mode (default %(default)s)",
    )
    cnt.add_argument(
        "--max-descents",
        type=int,
        default=CountSettings.max_descents,
        help="random descents allowed for the importance-sampling estimate (default %(default)s)",
    )
    add_quiet_option(cnt)
    cnt.set_defaults(run=_count)

    cons = sub.add_parser("constraints", help="the constraint library and shipped sets")
    cons_sub = cons.add_subparsers(metavar="ACTION")
    lst = cons_sub.add_parser("list", help="list constraints, their parameters, and sets")
    lst.set_defaults(run=_constraints_list)
    shw = cons_sub.add_parser(
        "show", help="show a constraint set (Catan boards or Gallery deals), its MiniZinc model"
    )
    shw.add_argument("set", metavar="NAME|FILE")
    shw.add_argument("--model", action="store_true", help="print the generated MiniZinc model")
    shw.set_defaults(run=_constraints_show)

    uni = sub.add_parser(
        "check-uniformity",
        help="chi-square test of a sampler against uniform on an enumerable constraint set",
    )
    uni.add_argument("--constraints", "-c", default="seed-2019-tiles", metavar="NAME|FILE")
    uni.add_argument(
        "--sampler", choices=("uniform", "rejection", "chain", "solver"), default="uniform"
    )
    uni.add_argument(
        "--draws",
        type=int,
        default=None,
        help="boards to draw (default: 20,000, or 10 per cell for larger spaces)",
    )
    add_quiet_option(uni)
    uni.add_argument("--seed", type=seed, default=0)
    uni.add_argument(
        "--bins",
        type=int,
        default=None,
        help="test K groups of consecutive listed boards instead of each board (for spaces "
        "with fewer than 5 draws per board)",
    )
    uni.set_defaults(run=_check_uniformity)

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
    run.add_argument("--backend", choices=("local", "dask"), default="local")
    run.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler, e.g. tcp://host:8786")
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

    puzzle = sub.add_parser("puzzle", help="constraint case studies on puzzles")
    puzzle_sub = puzzle.add_subparsers(metavar="PUZZLE")
    chosen = argv[1] if len(argv) > 1 and argv[0] == "puzzle" else None
    everything = bool(argv) and argv[0] == "completion"  # the script covers every option
    for name, help_text in PUZZLES.items():
        # Listed by `ludolab puzzle --help`; a puzzle's options load when it is named.
        if name != chosen and not everything:
            puzzle_sub.add_parser(name, help=help_text)
            continue
        module = importlib.import_module(f"ludolab.research.puzzles.{name}.cli")
        sp = puzzle_sub.add_parser(name, help=help_text, description=module.__doc__)
        module.add_arguments(sp)  # with -q where the puzzle's commands can run long
        sp.set_defaults(run=module.run)

    site = sub.add_parser("site", help="the games page: a static site to play the puzzle packs")
    site_sub = site.add_subparsers(metavar="ACTION", required=True)
    build = site_sub.add_parser(
        "build",
        help="write the static site (HTML, CSS, JavaScript) to a folder",
        description="Write the games page: an index of the puzzle games and a page per game "
        "that plays its pack in the browser (no server, no solver). Each game uses the pack "
        "given for it, or the pack shipped with ludolab; every pack is verified first.",
    )
    build.add_argument(
        "packs",
        nargs="*",
        metavar="PACK.json",
        help="packs to play instead of the shipped ones (from ludolab puzzle GAME generate)",
    )
    build.add_argument("--out", required=True, help="the site's folder, e.g. site/")
    build.add_argument(
        "--force", dest="replace", action="store_true", help="replace the --out folder if it exists"
    )
    build.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    build.set_defaults(run=_site_build)

    comp = sub.add_parser(
        "completion",
        help="print a shell completion script",
        description='Tab completion of commands and options: eval "$(ludolab completion bash)" '
        "in ~/.bashrc (zsh: ludolab completion zsh > ~/.zfunc/_ludolab).",
    )
    comp.add_argument("shell", choices=("bash", "zsh", "tcsh"))
    comp.set_defaults(run=_completion)
    return p


PUZZLES = {
    "hexiom": "solve and count Hexiom levels (SAT or MiniZinc)",
    "knights": "closed knight's tours (Warnsdorff search or MiniZinc circuit)",
    "loopy": "generate and verify packs of unique Loopy (Slitherlink) puzzles",
    "nonogram": "generate and verify packs of unique Nonogram puzzles from glyph pictures",
    "patches": "generate and verify packs of unique Patches puzzles (rectangles by shape)",
    "queens": "generate and verify packs of unique Queens puzzles",
    "study": "the generated games' difficulty by grid size and clues (a table and a figure)",
    "sudoku": "generate Sudoku, classify hardness by propagation strength",
    "swend": "generate and verify packs of unique Swend puzzles (Wend in Swedish)",
    "tents": "generate and verify packs of unique Tents puzzles",
    "wend": "generate and verify packs of unique Wend puzzles (words winding through letters)",
    "zip": "generate and verify packs of unique Zip puzzles (one path through every cell)",
}


# ----------------------------------------------------------------------------------------------


def _parse_params(items: list[str]) -> dict:
    from ludolab.research.catan.constraint_set import ConstraintSetError

    out = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or "." not in key:
            raise ConstraintSetError(
                f"--param {item!r}: expected CONSTRAINT.PARAM=VALUE, e.g. "
                f"red-numbers-apart.numbers=[6,8]"
            )
        try:
            out[key.strip()] = tomllib.loads(f"v = {value}")["v"]
        except tomllib.TOMLDecodeError:
            out[key.strip()] = value  # a bare word, e.g. a choice like seed-2019-block
    return out


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
                ("--backend dask", args.backend != "local"),
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
    from ludolab.research.experiment.config import ConfigError
    from ludolab.research.experiment.plan import plan_experiment, plan_text

    for name in ("workers", "pilot_setups", "pilot_games"):
        if getattr(args, name) < 1:
            raise ConfigError(f"--{name.replace('_', '-')} must be at least 1")
    try:  # checked here, not by argparse, so that the message is one line (no usage first)
        pilots = count(args.pilot_seeds)
    except argparse.ArgumentTypeError as exc:
        raise ConfigError(f"--pilot-seeds: {exc}") from None
    if not args.quiet:
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
    from ludolab.research.experiment.plan import plan_experiment, plan_text

    if not quiet:
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


def _site_build(args: argparse.Namespace) -> int:
    from ludolab.research.puzzles import PuzzleError
    from ludolab.research.puzzles.site.build import build_site

    if args.workers < 1:
        raise PuzzleError(f"--workers must be at least 1, got {args.workers}")
    summary = build_site(args.out, args.packs, replace=args.replace, workers=args.workers)
    for game, levels in summary.puzzles.items():
        spread = ", ".join(f"{n} {level}" for level, n in levels.items() if n)
        print(f"{game}: {sum(levels.values())} puzzles ({spread})")
    print(f"-> {summary.out / 'index.html'}")
    return 0


def _completion(args: argparse.Namespace) -> int:
    import shtab

    print(shtab.complete(_parser(["completion"]), shell=args.shell), end="")
    return 0


def _metrics(args: argparse.Namespace) -> int:
    from ludolab.research.markdown import pipe_table
    from ludolab.research.metrics.registry import METRICS

    rows = [(name, m.description, m.formula, m.unit) for name, m in METRICS.items()]
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
    from ludolab.research.experiment.analysis import analyse, load_run, summary_lines, write_tables
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


def _magic_square(args: argparse.Namespace) -> int:
    from ludolab.research.solve.magic_square import run_magic_square_cli

    print(run_magic_square_cli(args.all, args.stats, args.break_symmetry))
    return 0


def _generate_catan(args: argparse.Namespace) -> int:
    from ludolab.envs.catan.board import write_boards
    from ludolab.research.catan.constraint_set import load_constraint_set
    from ludolab.research.catan.generate import generate_boards

    out = Path(args.out)
    if not out.parent.is_dir():
        raise NotADirectoryError(f"--out {out}: the folder {out.parent} does not exist")
    from ludolab.research.progress import Status

    cset = load_constraint_set(args.constraints, _parse_params(args.param))
    with Status(f"{cset.name}: {args.sampler} sampler", quiet=args.quiet) as line:
        boards, report = generate_boards(
            cset,
            args.n,
            args.sampler,
            args.seed,
            objective=args.objective,
            time_limit=args.time_limit,
            max_draws=args.max_draws,
            status=line.set,
        )
    count = write_boards(boards, out)
    print(f"{count} boards for {cset.label} ({args.sampler} sampler, seed {args.seed}) -> {out}")
    print(_report_lines(report, count))
    if args.pictures:
        from ludolab.research.plots.board import render_board

        folder = Path(args.pictures)
        folder.mkdir(parents=True, exist_ok=True)
        for k, board in enumerate(boards[:8], 1):
            render_board(board, folder / f"{cset.name}-{k}.png", title=f"{cset.name} #{k}")
        print(f"pictures of the first {min(8, len(boards))} boards -> {folder}/")
    return 0


def _count(args: argparse.Namespace) -> int:
    import numpy as np

    from ludolab.research.catan.constraint_set import load_constraint_set
    from ludolab.research.catan.counting import count_boards

    for name in ("draws", "list_nodes", "max_descents"):
        if getattr(args, name) < 1:
            raise SimulationError(f"--{name.replace('_', '-')} must be at least 1")
    if args.seed < 0:
        raise SimulationError(f"--seed must be a non-negative integer, got {args.seed}")
    cset = load_constraint_set(args.constraints, _parse_params(args.param))
    settings = CountSettings(
        draws=args.draws, list_nodes=args.list_nodes, max_descents=args.max_descents
    )
    from ludolab.research.progress import Status

    with Status(f"counting the boards of {cset.name}", quiet=args.quiet) as line:
        result = count_boards(
            cset, np.random.default_rng(args.seed), settings, method=args.method, status=line.set
        )
    print(result.summary())
    return 0


def _simulate_catan(args: argparse.Namespace) -> int:
    import pyarrow.parquet as pq

    from ludolab.envs.catan.board import BoardError, iter_boards, read_board
    from ludolab.envs.catan.engine import GameOptions
    from ludolab.research.catan.samplers import fair_board
    from ludolab.research.catan.simulate import SCHEMA, SUMMARY_COLUMNS, summarise
    from ludolab.research.simulate import split_agent_list

    out = _parquet_out(args.out)
    _check_batches(args)
    try:
        options = GameOptions(
            vp_to_win=args.vp_to_win,
            discard_limit=args.discard_limit,
            friendly_robber=args.friendly_robber,
            turn_limit=args.turn_limit or None,
            trade_offers_per_turn=args.trade_offers,
        )
    except ValueError as exc:
        raise SimulationError(str(exc).replace("GameOptions.", "option ")) from exc
    if args.boards:
        boards = (
            list(iter_boards(args.boards))
            if args.boards.endswith(".jsonl")
            else [read_board(args.boards)]
        )
        if not boards:
            raise BoardError(f"{args.boards}: no boards in the file")
        source = f"{len(boards)} boards from {args.boards}"
    else:
        boards = [fair_board(args.seed)]
        source = f"a fair shuffle (seed {args.seed})"
    specs = split_agent_list(args.agents)
    _check_agents(specs, "catan")
    metadata = {
        "agents": specs,
        "seed": args.seed,
        "boards": args.boards,
        "options": dataclasses.asdict(options),
    }
    seconds = _simulate(args, "catan", out, specs, options, boards, SCHEMA, metadata)
    print(
        f"{args.games} games on {source}, agents {','.join(specs)}, seed {args.seed} "
        f"-> {out} ({seconds:.1f} s, {args.games / seconds:,.0f} games/s)"
    )
    print(summarise(pq.read_table(out, columns=list(SUMMARY_COLUMNS))))
    return 0


def _simulate_gallery(args: argparse.Namespace) -> int:
    import pyarrow.parquet as pq

    from ludolab.envs.gallery.deal import DealError, iter_deals, read_deal
    from ludolab.envs.gallery.engine import GalleryOptions
    from ludolab.research.gallery.simulate import SCHEMA, SUMMARY_COLUMNS, summarise
    from ludolab.research.simulate import split_agent_list

    out = _parquet_out(args.out)
    _check_batches(args)
    if args.agents is None and args.players is None:
        raise SimulationError("give --players P or --agents A,B,... (one per seat)")
    specs = split_agent_list(args.agents) if args.agents else ["random"] * args.players
    if args.players is not None and len(specs) != args.players:
        raise SimulationError(f"--players {args.players} but --agents names {len(specs)} seats")
    _check_agents(specs, "gallery")
    deals = None
    try:
        if args.deals:
            path = Path(args.deals)
            deals = list(iter_deals(path)) if path.suffix == ".jsonl" else [read_deal(path)]
    except DealError as exc:
        raise SimulationError(str(exc)) from exc
    if deals is not None:
        if not deals:
            raise SimulationError(f"--deals {args.deals}: no deals in the file")
        wrong = [d.id for d in deals if d.n_players != len(specs)]
        if wrong:
            raise SimulationError(
                f"--deals {args.deals}: {len(wrong)} deals (e.g. {wrong[0]}) are not for "
                f"{len(specs)} players"
            )
    symbols = _read_symbols(args.symbols)
    options = GalleryOptions(
        extra_card=not args.no_extra_card,
        extra_card_each_round=not args.extra_card_at_setup_only,
        award_choice=not args.award_own_artist,
        **({} if symbols is None else {"symbols": symbols}),
    )
    metadata = {
        "agents": specs,
        "seed": args.seed,
        "deals": args.deals,
        "options": {
            "extra_card": options.extra_card,
            "extra_card_each_round": options.extra_card_each_round,
            "award_choice": options.award_choice,
            "symbols": [list(row) for row in options.symbols],
        },
    }
    seconds = _simulate(args, "gallery", out, specs, options, deals, SCHEMA, metadata)
    source = f"deals from {args.deals}" if args.deals else "fair deals"
    print(
        f"{args.games} games of {len(specs)} players on {source}, agents {','.join(specs)}, "
        f"seed {args.seed} -> {out} ({seconds:.1f} s, {args.games / seconds:,.0f} games/s)"
    )
    print(summarise(pq.read_table(out, columns=list(SUMMARY_COLUMNS))))
    return 0


def _check_agents(specs: list[str], game: str) -> None:
    """Every seat's agent spec parses and the seats fit ``game``, before anything is played."""
    from ludolab.research.simulate import check_lineup

    try:
        check_lineup(game, specs)
    except ValueError as exc:
        raise SimulationError(f"--agents {','.join(specs)}: {exc}") from exc


def _check_batches(args: argparse.Namespace) -> None:
    for name in ("games", "workers", "batch"):
        if getattr(args, name) < 1:
            raise SimulationError(f"--{name} must be at least 1, got {getattr(args, name)}")


def _simulate(
    args: argparse.Namespace,
    game: str,
    out: Path,
    specs: list[str],
    options: Any,
    setups: list | None,
    schema: str,
    metadata: dict[str, Any],
) -> float:
    """Play the games in batches into ``out``; the seconds it took."""
    import time

    from ludolab.research.simulate import batch_tasks
    from ludolab.research.simulate_file import SimulationStopped, request_key, simulate_to_file

    ids = None if setups is None else [s.id for s in setups]
    key = request_key(
        {"game": game, "games": args.games, "batch": args.batch, "ids": ids, **metadata}
    )
    start = time.perf_counter()
    try:
        simulate_to_file(
            out,
            lambda skip: batch_tasks(
                game, args.games, args.seed, specs, options, setups, args.batch, skip
            ),
            args.games,
            args.batch,
            key=key,
            metadata={"schema": schema, **metadata},
            workers=args.workers,
            resume=args.resume,
            progress=not args.quiet,
        )
    except SimulationStopped as exc:
        raise SimulationError(str(exc)) from None
    return time.perf_counter() - start


def _generate_gallery(args: argparse.Namespace) -> int:
    from ludolab.research.gallery.deals import (
        DealConstraintError,
        DealSamplingError,
        stream_deals,
        write_deals_jsonl,
    )
    from ludolab.research.progress import bar

    try:
        deals, report = stream_deals(
            args.constraints,
            args.players,
            args.n,
            args.seed,
            _parse_params(args.param) or None,
            method=args.method,
        )
        shown = bar(deals, total=args.n, unit="deal", desc=str(args.constraints), quiet=args.quiet)
        count = write_deals_jsonl(shown, args.out)
    except (DealConstraintError, DealSamplingError) as exc:
        raise SimulationError(str(exc)) from exc
    print(
        f"{count} deals for {args.players} players ({args.constraints}, seed {args.seed}) "
        f"-> {args.out}"
    )
    print(report.summary())
    return 0


def _ladder(args: argparse.Namespace) -> int:
    import shutil
    import tempfile

    import pyarrow as pa
    import pyarrow.parquet as pq

    from ludolab.envs.agents import AgentSpecError
    from ludolab.research.experiment.backends import run_local
    from ludolab.research.ladder import (
        fit_ladder,
        fit_ratings,
        head_to_head,
        head_to_head_markdown,
        ladder_figure,
        ladder_markdown,
        ladder_tasks,
        play_ladder_task,
    )
    from ludolab.research.progress import bar
    from ludolab.research.simulate import TITLES, split_agent_list

    out = Path(args.out)
    if out.exists() and not args.replace:
        raise SimulationError(
            f"--out {out}: exists; pass --force to replace it (nothing was written)"
        )
    if args.rounds < 1 or args.workers < 1:
        raise SimulationError("--rounds and --workers must be at least 1")
    players = args.players or (4 if args.game == "catan" else 2)
    agents = split_agent_list(args.agents)
    setups = _ladder_setups(args.game, args.setups, players) if args.setups else None
    try:
        tasks = ladder_tasks(args.game, agents, players, args.rounds, args.seed, setups)
    except (AgentSpecError, ValueError) as exc:
        raise SimulationError(str(exc)) from None
    n_games = sum(len(task.sets) for task in tasks) * players
    tables = {}
    with bar(total=n_games, unit="game", desc="ladder", quiet=args.quiet) as shown:
        for chunk, table in run_local(tasks, args.workers, play_ladder_task):
            tables[chunk] = table
            shown.update(table.num_rows)
    games = pa.concat_tables([tables[k] for k in sorted(tables)])
    frame = games.to_pandas()
    fit = fit_ladder(frame, agents, args.seed)
    ratings = fit_ratings(frame, agents, args.seed, fit)
    # Stronger first in each pair: the ratings' order.
    pairs = head_to_head(frame, list(ratings.agent), args.seed, fit)
    title = f"{TITLES[args.game]} ladder, {players} players"
    source = f"setups from {args.setups}" if args.setups else "a fair setup per rotation set"
    how = (
        f"{n_games:,} games: every {players} of the {len(agents)} agents, {args.rounds} "
        f"rounds, all {players} seat rotations on one setup and seed; {source}; seed "
        f"{args.seed} (`ludolab ladder {args.game} --agents {','.join(agents)} --players "
        f"{players} --rounds {args.rounds} --seed {args.seed}"
        + (f" --setups {args.setups}" if args.setups else "")
        + "`)."
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        pq.write_table(games, staging / "games.parquet")
        ratings.to_csv(staging / "ratings.csv", index=False)
        report = ladder_markdown(ratings, title, how) + "\n" + head_to_head_markdown(pairs)
        (staging / "ladder.md").write_text(report)
        pairs.to_csv(staging / "head_to_head.csv", index=False)
        ladder_figure(ratings, title, staging / "ladder.png")
        if out.exists():
            shutil.rmtree(out)
        staging.rename(out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    print(report)
    print(f"-> {out}")
    return 0


def _ladder_setups(game: str, path: str, players: int) -> list:
    """The boards or deals of ``--setups`` (.jsonl, or one in a .json file)."""
    one = not path.endswith(".jsonl")
    if game == "catan":
        from ludolab.envs.catan.board import BoardError, iter_boards, read_board

        boards = [read_board(path)] if one else list(iter_boards(path))
        if not boards:
            raise BoardError(f"{path}: no boards in the file")
        return boards
    from ludolab.envs.gallery.deal import iter_deals, read_deal

    deals = [read_deal(path)] if one else list(iter_deals(path))
    wrong = [d for d in deals if d.n_players != players]
    if not deals or wrong:
        raise SimulationError(
            f"--setups {path}: needs deals for {players} players"
            + (f"; deal {wrong[0].id} is for {wrong[0].n_players}" if wrong else " (none found)")
        )
    return deals


def _add_gallery_rules(parser: argparse.ArgumentParser) -> None:
    """The Masters Gallery rule flags shared by `simulate gallery` and `exhibits`."""
    parser.add_argument(
        "--symbols",
        metavar="FILE.toml",
        help="the symbols table: per artist a table of symbol counts, e.g. [Yoko] draw = 2 "
        "(symbols draw, double, award, face-down, simultaneous; artists left out carry none). "
        "Default: 1 draw-one, 2 doubles and one of each other symbol per artist",
    )
    parser.add_argument(
        "--no-extra-card", action="store_true", help="no face-up extra card (published: one)"
    )
    parser.add_argument(
        "--extra-card-at-setup-only",
        action="store_true",
        help="the face-up extra card only at setup, for round 1 (default: a new one each round)",
    )
    parser.add_argument(
        "--award-own-artist",
        action="store_true",
        help="an award card's token goes on the card's own artist (published: an artist of "
        "the player's choice)",
    )


def _read_symbols(path: str | None) -> SymbolsTable | None:
    """The ``--symbols`` file's table, or None; errors name the file, the artist, the symbol."""
    from ludolab.envs.gallery.cards import symbols_from_mapping

    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except tomllib.TOMLDecodeError as exc:
        raise SimulationError(f"--symbols {path}: not valid TOML ({exc})") from None
    except FileNotFoundError:
        raise SimulationError(f"--symbols {path}: no such file") from None
    try:
        return symbols_from_mapping(data, where=path)
    except ValueError as exc:
        raise SimulationError(f"--symbols {exc}") from None


def _exhibits(args: argparse.Namespace) -> int:
    from ludolab.research.gallery.exhibits import ExhibitRules, solve_exhibits, to_play_sequence
    from ludolab.research.gallery.replay import replay_in_engine

    if not 2 <= args.players <= 5:
        raise SimulationError(f"--players must be 2..5, got {args.players}")
    if args.time_limit <= 0:
        raise SimulationError(f"--time-limit must be positive, got {args.time_limit}")
    if args.complete and args.solver != "gecode":
        raise SimulationError("--complete is a Gecode search: give it with --solver gecode")
    if args.nodes is not None and args.solver != "mip":
        raise SimulationError("--nodes counts HiGHS' branch and bound: give it with --solver mip")
    players = args.players
    symbols = _read_symbols(args.symbols)
    rules = ExhibitRules.open_model(players) if args.open_model else ExhibitRules(players)
    changes: dict[str, Any] = {}
    if symbols is not None:
        changes["symbols"] = symbols
    if args.no_extra_card:
        changes["extra_card"] = False
    if args.extra_card_at_setup_only:
        changes["extra_card_each_round"] = False
    if args.award_own_artist:
        changes["award_any"] = False
    rules = dataclasses.replace(rules, **changes)
    from ludolab.research.progress import Status

    how = "HiGHS, branch and bound" if args.solver == "mip" else "Gecode"
    stops = [f"time limit {args.time_limit:g} s"]
    if args.improving is not None:
        stops.append(f"{args.improving} improving answers")
    if args.nodes is not None:
        stops.append(f"{args.nodes} nodes")
    what = f"searching for the best exhibits ({how}, {', '.join(stops)})"
    with Status(what, quiet=args.quiet):
        solution = solve_exhibits(
            players,
            args.objective,
            rules=rules,
            time_limit=args.time_limit,
            solver=args.solver,
            search="complete" if args.complete else "lns",
            random_seed=args.seed,
            improving=args.improving,
            nodes=args.nodes,
        )
    print(solution.describe())
    found = f"best found {solution.objective_value} in {solution.elapsed:.1f} s"
    if solution.optimal:
        print(f"{found}: proven optimal")
    elif solution.bound is not None:
        print(f"{found}; proven bound {solution.bound}, gap {solution.gap}: not proven optimal")
    else:
        print(
            f"{found} by {'complete search' if args.complete else 'large neighbourhood search'}"
            ": not proven optimal, and no bound (--solver mip gives one)"
        )
    plan = to_play_sequence(solution)
    if args.plays:
        print(plan.describe())
    replay = replay_in_engine(plan)
    if replay.ok:
        print(f"replay: the rules engine accepted all {replay.plays} plays, scores {replay.scores}")
        return 0
    print(f"replay FAILED: {replay.problem}", file=sys.stderr)
    return 1


def _parquet_out(text: str) -> Path:
    out = Path(text)
    if out.suffix != ".parquet":
        raise SimulationError(f"--out {out}: expected a .parquet file name")
    if not out.parent.is_dir():
        raise NotADirectoryError(f"--out {out}: the folder {out.parent} does not exist")
    return out


def _report_lines(report, count: int) -> str:
    lines = [
        f"  {count / report.seconds:,.0f} boards/s ({report.seconds:.2f} s)"
        if report.seconds
        else ""
    ]
    if report.acceptance is not None:
        lines.append(
            f"  acceptance {report.acceptance:.2e} ({report.accepted:,} of "
            f"{report.draws:,} fair shuffles)"
        )
    if report.method:
        exact = {"rejection": ", exact", "enumeration": ", exact", "mcmc": ", Markov chains"}
        lines.append(
            f"  distribution: {'uniform' if report.uniform else 'NOT uniform'} "
            f"({report.method}{exact.get(report.method, '')})"
        )
    if report.exhausted is not None:
        lines.append(f"  enumeration {'complete' if report.exhausted else 'NOT complete'}")
    lines += [f"  note: {n}" for n in report.notes]
    return "\n".join(line for line in lines if line)


def _show(args: argparse.Namespace) -> int:
    from ludolab.envs.catan.board import BoardError, iter_boards, read_board
    from ludolab.research.plots.board import render_board

    source, _, index = args.board.rpartition(":")
    if source and index.isdigit() and source.endswith(".jsonl"):
        k = int(index)  # 0-based, as the setup and game columns of every run table
        boards = list(iter_boards(source))
        if k >= len(boards):
            raise BoardError(
                f"{source}: asked for board {k} (0-based), the file holds {len(boards)}: "
                f"0 to {len(boards) - 1}"
            )
        board = boards[k]
    else:
        board = read_board(args.board)
    path = render_board(board, args.out, title=args.title or f"board {board.id}")
    print(f"board {board.id} -> {path}")
    return 0


def _constraints_list(args: argparse.Namespace) -> int:
    import textwrap

    from ludolab.research.catan.constraint_set import load_constraint_set
    from ludolab.research.catan.constraints import OBJECTIVES, REGISTRY
    from ludolab.research.gallery.deals import DEAL_CONSTRAINTS, load_deal_set, shipped_deal_sets

    def say(text: str, indent: str = "    ") -> None:
        print(
            textwrap.fill(
                " ".join(text.split()), 96, initial_indent=indent, subsequent_indent=indent + "  "
            )
        )

    print('Catan board constraints (in a set\'s [[constraint]] table as name = "..."):\n')
    for name in sorted(REGISTRY):
        cls = REGISTRY[name]
        print(f"{name}  [reads {', '.join(sorted(cls.reads)) or 'what it fixes'}]")
        say(cls.summary)
        for pname, p in cls.params.items():
            default = "none" if p.default is None else p.default
            say(f"- {pname} (default {default}): {p.doc}")
    print('minizinc  [raw MiniZinc: code = "...", reads = [...]; solver samplers only]')
    print("\nObjectives (--sampler optimise --objective NAME):")
    for o in OBJECTIVES.values():
        say(f"{o.name}: {o.sense} {o.summary}", "  ")
    print("\nShipped Catan constraint sets (ludolab constraints show NAME):")
    for name in shipped_sets():
        say(f"{name}: {load_constraint_set(name).description}", "  ")
    print("\nMasters Gallery deal constraints (on the round-1 hands; ludolab generate gallery):\n")
    for name in sorted(DEAL_CONSTRAINTS):
        cls = DEAL_CONSTRAINTS[name]
        print(name)
        say(cls.summary)
        for pname, p in cls.params.items():
            say(f"- {pname} ({p.kind}, default {p.default}): {p.doc}")
    print("\nShipped Masters Gallery deal sets (ludolab constraints show NAME):")
    for name in shipped_deal_sets():
        say(f"{name}: {load_deal_set(name).description or '(no description)'}", "  ")
    return 0


def _constraints_show(args: argparse.Namespace) -> int:
    from ludolab.research.catan.constraint_set import load_constraint_set
    from ludolab.research.gallery.deals import load_deal_set, shipped_deal_sets

    if args.set in shipped_deal_sets() or _is_deal_set_file(args.set):
        if args.model:
            raise SimulationError(
                f"--model: {args.set} is a Masters Gallery deal set; deal sets are sampled "
                f"exactly or by rejection, without a MiniZinc model"
            )
        from ludolab.research.gallery.deals import DealConstraintError

        try:
            dset = load_deal_set(args.set)
        except DealConstraintError as exc:
            raise SimulationError(str(exc)) from None
        print(f"{dset.name}: {dset.description}".rstrip(": "))
        for cname, values in dset.entries:
            shown = ", ".join(f"{k}={v!r}" for k, v in values.items())
            print(f"  - {cname}({shown})" if shown else f"  - {cname}")
        if not dset.entries:
            print("  (no constraints: a fair shuffle)")
        return 0
    cset = load_constraint_set(args.set)
    print(cset.describe())
    if args.model:
        from ludolab.research.catan.model import SEARCH_DEFAULT, board_model

        try:
            model = board_model(cset, search=SEARCH_DEFAULT)
        except ValueError as exc:  # a set that constrains nothing has no model to show
            raise SimulationError(f"--model: {exc}") from None
        print("\n" + model)
    return 0


def _is_deal_set_file(text: str) -> bool:
    """A .toml file whose constraints are deal constraints (a Catan set file has Catan ones)."""
    path = Path(text)
    if path.suffix != ".toml" or not path.is_file():
        return False
    from ludolab.research.gallery.deals import DEAL_CONSTRAINTS

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return False
    names = [c.get("name") for c in data.get("constraint", []) if isinstance(c, dict)]
    return bool(names) and all(n in DEAL_CONSTRAINTS for n in names)


def _check_uniformity(args: argparse.Namespace) -> int:
    from ludolab.research.catan.constraint_set import load_constraint_set
    from ludolab.research.catan.uniformity import check_uniformity

    result = check_uniformity(
        load_constraint_set(args.constraints),
        args.sampler,
        args.draws,
        args.seed,
        bins=args.bins,
        progress=None if args.quiet else lambda line: print(line, file=sys.stderr, flush=True),
    )
    print(result.summary())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
