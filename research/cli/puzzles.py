"""The puzzle commands: ``puzzle NAME ...`` (each game's own options, loaded when it is named)
and ``site build`` (the games page)."""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Sequence

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


def add_commands(sub: argparse._SubParsersAction, argv: Sequence[str]) -> None:
    """``puzzle`` and ``site``. A puzzle's options load only when ``argv`` names that puzzle
    (``puzzle NAME ...``; every puzzle's for ``completion``): each brings its solver modules."""
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
