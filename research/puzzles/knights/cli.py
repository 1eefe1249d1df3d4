"""Closed knight's tours on n x n boards: Warnsdorff-ordered backtracking or the MiniZinc circuit
model (Gecode). Every tour is verified (n*n distinct squares, knight moves, closed) before it
is printed.

  ludolab puzzle knights --n 8                      # board with visit numbers + statistics
  ludolab puzzle knights --n 50 --format json       # {"n": 50, "tour": [0, 52, 100, ...]}
  ludolab puzzle knights --n 30 --method minizinc --time-limit 20
  ludolab puzzle knights --n 100 --format png --out tour100.png
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ludolab.research.cli_types import add_quiet_option
from ludolab.research.files import write_text
from ludolab.research.puzzles import PuzzleError
from ludolab.research.puzzles.knights.minizinc import SEARCHES, minizinc_tour
from ludolab.research.puzzles.knights.render import save_tour_png, tour_report
from ludolab.research.puzzles.knights.result import TourResult
from ludolab.research.puzzles.knights.warnsdorff import warnsdorff_tour

MINIZINC_DEFAULT_TIME_LIMIT = 60.0  # seconds: Gecode needs ~1-2 s at n = 50, ~45 s at 100


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``ludolab puzzle knights``."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("--n", type=int, required=True, help="board side (even, at least 6)")
    parser.add_argument(
        "--method",
        choices=("warnsdorff", "minizinc"),
        default="warnsdorff",
        help="Warnsdorff-ordered backtracking in Python (default) or the MiniZinc model",
    )
    parser.add_argument(
        "--format",
        choices=("text", "json", "png"),
        default="text",
        help='text: board with visit numbers and statistics; json: {"n", "tour"}; '
        "png: a drawing (needs --out)",
    )
    parser.add_argument("--out", help="write to this file instead of stdout (png: required)")
    parser.add_argument(
        "--start",
        type=int,
        default=0,
        help="the square the tour starts at, row-major 0..n*n-1 (default 0, a corner)",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=None,
        help="seconds; warnsdorff: CPU time (default: none, the node budget bounds it); "
        f"minizinc: Gecode search time (default {MINIZINC_DEFAULT_TIME_LIMIT:g})",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="warnsdorff: break exact ties at random from this seed (default: by square)",
    )
    parser.add_argument(
        "--max-nodes", type=int, default=None, help="warnsdorff: node budget over all restarts"
    )
    add_quiet_option(parser)
    parser.add_argument(
        "--mzn-search",
        choices=tuple(SEARCHES),
        default=None,
        help="minizinc: variable order of the search annotation (default first_fail)",
    )


def find_tour(args: argparse.Namespace) -> TourResult:
    """Run the chosen method with the options given; option misuse is a `PuzzleError`."""
    if args.time_limit is not None and not args.time_limit > 0:
        raise PuzzleError(f"--time-limit {args.time_limit:g}: expected positive seconds")
    if args.method == "warnsdorff":
        if args.mzn_search is not None:
            raise PuzzleError("--mzn-search applies to --method minizinc only")
        return warnsdorff_tour(
            args.n,
            start=args.start,
            max_nodes=args.max_nodes,
            time_limit=args.time_limit,
            seed=args.seed,
        )
    for flag, value in (("--seed", args.seed), ("--max-nodes", args.max_nodes)):
        if value is not None:
            raise PuzzleError(
                f"{flag} applies to --method warnsdorff only (the MiniZinc model's search is "
                f"deterministic and bounded by --time-limit)"
            )
    return minizinc_tour(
        args.n,
        start=args.start,
        time_limit=args.time_limit if args.time_limit is not None else MINIZINC_DEFAULT_TIME_LIMIT,
        search=args.mzn_search or "first_fail",
    )


def run(args: argparse.Namespace) -> int:
    """``ludolab puzzle knights``: find, verify and print (or save) a closed tour."""
    out = Path(args.out) if args.out else None
    if args.format == "png":
        if out is None:
            raise PuzzleError("--format png needs --out FILE.png")
        if out.suffix.lower() != ".png":
            raise PuzzleError(f"--out {args.out}: a PNG drawing needs a file name ending in .png")
    if out is not None and not out.parent.is_dir():
        raise PuzzleError(f"--out {args.out}: the directory {out.parent} does not exist")
    from ludolab.research.progress import Status

    with Status(f"searching for a closed {args.n} x {args.n} tour", quiet=args.quiet):
        result = find_tour(args)
    if args.format == "png":
        assert out is not None
        path = save_tour_png(result, out)
        print(f"wrote {path} ({result.n} x {result.n} closed tour)")
        return 0
    text = json.dumps(result.as_json()) + "\n" if args.format == "json" else tour_report(result)
    if out is None:
        print(text, end="")
    else:
        write_text(out, text)
        print(f"wrote {out} ({result.n} x {result.n} closed tour, {args.format})")
    return 0
