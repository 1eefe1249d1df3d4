"""The commands about setups: ``generate`` (Catan boards, Masters Gallery deals), ``count``,
``show``, ``constraints``, ``check-uniformity``, and ``solve`` (MiniZinc smoke tests)."""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

from ludolab.research.catan.catalog import (
    COUNT_METHODS,
    FIRST_BOARD_SECONDS,
    OBJECTIVE_NAMES,
    SAMPLERS,
    CountSettings,
    shipped_sets,
)
from ludolab.research.cli.common import SimulationError, add_force, parse_params
from ludolab.research.cli_types import add_quiet_option, seconds, seed


def add_commands(sub: argparse._SubParsersAction) -> None:
    """``solve``, ``generate``, ``show``, ``count``, ``constraints``, ``check-uniformity``."""
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
    add_force(cat)
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
    cat.add_argument(
        "--time-limit",
        type=seconds,
        default=None,
        help="seconds of solver search (default: the search for a first board stops after "
        f"{FIRST_BOARD_SECONDS:g} s and says the set may be impossible; optimise: 10 s)",
    )
    cat.add_argument(
        "--max-draws",
        type=int,
        default=50_000_000,
        help="shuffles the uniform sampler may try (default %(default)s)",
    )
    cat.add_argument("--pictures", metavar="DIR", help="also draw the first boards (PNG) here")
    add_quiet_option(cat)
    cat.set_defaults(run=_generate_catan, sized="boards")

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
    add_force(gal)
    gal.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="CONSTRAINT.PARAM=VALUE",
        help="override a parameter, e.g. balanced-symbols.tolerance=1",
    )
    gal.add_argument("--method", choices=["auto", "exact", "rejection"], default="auto")
    add_quiet_option(gal)
    gal.set_defaults(run=_generate_gallery, sized="deals")

    show = sub.add_parser("show", help="draw a board (PNG, SVG or PDF by the --out suffix)")
    show.add_argument(
        "board",
        help="a board .json, or a .jsonl (its first board, or FILE:K for board K, counted "
        "from 0 like every index in ludolab's tables)",
    )
    show.add_argument("--out", "-o", required=True)
    add_force(show)
    show.add_argument("--title", default=None)
    show.set_defaults(run=_show)

    cnt = sub.add_parser(
        "count",
        help="how many boards satisfy a constraint set, and its share of fair shuffles",
        description="Exact where it can be (a depth-first count over the parts the set "
        "constrains), else an estimate with its 95% interval: the share of fair shuffles that "
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
    cnt.add_argument(
        "--time-limit",
        type=seconds,
        default=CountSettings.first_board_seconds,
        help="seconds the estimate's descents may search for a first board before the count "
        "stops and says the set may be impossible (default %(default)g)",
    )
    add_quiet_option(cnt)
    cnt.set_defaults(run=_count, sized="boards")

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
    uni.set_defaults(run=_check_uniformity, sized="boards")


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

    cset = load_constraint_set(args.constraints, parse_params(args.param))
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
        from ludolab.research.catan.picture import render_board

        folder = Path(args.pictures)
        folder.mkdir(parents=True, exist_ok=True)
        for k, board in enumerate(boards[:8], 1):
            render_board(board, folder / f"{cset.name}-{k}.png", title=f"{cset.name} #{k}")
        print(f"pictures of the first {min(8, len(boards))} boards -> {folder}/")
    return 0


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


def _generate_gallery(args: argparse.Namespace) -> int:
    from ludolab.research.gallery.deals import (
        DealConstraintError,
        DealSamplingError,
        as_deal_set,
        stream_deals,
        write_deals_jsonl,
    )
    from ludolab.research.progress import bar

    try:
        dset = as_deal_set(args.constraints, parse_params(args.param) or None, "--param")
        deals, report = stream_deals(dset, args.players, args.n, args.seed, method=args.method)
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


def _count(args: argparse.Namespace) -> int:
    import numpy as np

    from ludolab.research.catan.constraint_set import load_constraint_set
    from ludolab.research.catan.counting import count_boards

    for name in ("draws", "list_nodes", "max_descents"):
        if getattr(args, name) < 1:
            raise SimulationError(f"--{name.replace('_', '-')} must be at least 1")
    if args.seed < 0:
        raise SimulationError(f"--seed must be a non-negative integer, got {args.seed}")
    cset = load_constraint_set(args.constraints, parse_params(args.param))
    settings = CountSettings(
        draws=args.draws,
        list_nodes=args.list_nodes,
        max_descents=args.max_descents,
        first_board_seconds=args.time_limit,
    )
    from ludolab.research.progress import Status

    with Status(f"counting the boards of {cset.name}", quiet=args.quiet) as line:
        result = count_boards(
            cset, np.random.default_rng(args.seed), settings, method=args.method, status=line.set
        )
    print(result.summary())
    return 0


def _show(args: argparse.Namespace) -> int:
    from ludolab.envs.catan.board import BoardError, iter_boards, read_board
    from ludolab.research.catan.picture import render_board

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
