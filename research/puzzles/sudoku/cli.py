"""Sudoku of sizes 6x6 to 36x36: generate puzzles, tag their hardness, symmetrify, study.

    ludolab puzzle sudoku generate --size 9 --count 100 --seed 1 [--clues 30] --out p.jsonl
    ludolab puzzle sudoku generate --n 40 --size 9 --difficulty mixed --seed 1 --out pack.json
    ludolab puzzle sudoku verify pack.json
    ludolab puzzle sudoku classify p.jsonl [--out tagged.jsonl]
    ludolab puzzle sudoku classify --grid \
        '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79'
    ludolab puzzle sudoku symmetrify p.jsonl --out sym.jsonl
    ludolab puzzle sudoku study experiments/sudoku-hardness.toml --out results/sudoku

Hardness tags (weakest first): val, bnd, dom, bs, ds -- the weakest propagation level that
solves the puzzle without branching -- or search. Grid text: one character per cell (1-9, then
A-Z for 10-35; . or 0 empty) or whitespace-separated numbers (needed for 36x36).
"""

from __future__ import annotations

import argparse
import collections
import sys

from ludolab.research.cli_types import add_quiet_option, seed
from ludolab.research.puzzles import PuzzleError
from ludolab.research.puzzles.sudoku.classify import classify, ladder
from ludolab.research.puzzles.sudoku.generate import (
    Puzzle,
    generate_puzzles,
    puzzle_from_grid,
    read_puzzles,
    write_puzzles,
)
from ludolab.research.puzzles.sudoku.grid import SIZES, format_grid, parse_grid
from ludolab.research.puzzles.sudoku.propagate import LEVELS, TAGS, candidates, is_solved

PACK_LEVELS = ("easy", "medium", "hard", "expert")  # as sudoku.pack.LEVELS, which loads more


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``generate | classify | symmetrify | study`` sub-actions."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    sub = parser.add_subparsers(metavar="ACTION")

    gen = sub.add_parser(
        "generate",
        help="uniquely solvable puzzles: a corpus (.jsonl) or a pack for the games page (.json)",
    )
    gen.add_argument(
        "--size", type=int, choices=SIZES, default=None,
        help="grid side (a .jsonl corpus: required; a .json pack: 6 or 9, default 9)",
    )
    gen.add_argument("--count", "-n", "--n", type=int, default=1, help="puzzles (default 1)")
    gen.add_argument("--seed", type=seed, default=0, help="master seed (default %(default)s)")
    gen.add_argument(
        "--clues", type=int, help="stop removing at this many clues (default: remove until "
        "minimal; .jsonl only: a pack draws its targets to spread the levels)"
    )
    gen.add_argument(
        "--node-limit",
        type=int,
        default=None,
        help="search nodes per uniqueness check (default by size; .jsonl only)",
    )
    gen.add_argument("--classify", action="store_true", help="also store each hardness tag")
    gen.add_argument(
        "--difficulty", choices=(*PACK_LEVELS, "mixed"), default=None,
        help="a .json pack's level, or mixed (the default): spread evenly over the levels",
    )
    gen.add_argument(
        "--out", "-o", required=True,
        help="output: .jsonl (the hardness study's corpus) or .json (a puzzle pack)",
    )
    add_quiet_option(gen)
    gen.set_defaults(sudoku_action=_generate)

    ver = sub.add_parser("verify", help="check a pack: unique, valid, labels reproduce")
    ver.add_argument("pack", metavar="PACK.json")
    ver.set_defaults(sudoku_action=_verify)

    cls = sub.add_parser("classify", help="hardness tags of puzzles")
    cls.add_argument("file", nargs="?", help="puzzles .jsonl (from generate)")
    cls.add_argument("--grid", help="one puzzle as text instead of a file")
    cls.add_argument("--size", type=int, choices=SIZES, help="check --grid has this size")
    cls.add_argument(
        "--max-level", choices=LEVELS, default="ds", help="climb no higher (default %(default)s)"
    )
    cls.add_argument("--out", "-o", help="write the puzzles with their tags (.jsonl)")
    add_quiet_option(cls)
    cls.set_defaults(sudoku_action=_classify)

    sym = sub.add_parser(
        "symmetrify",
        help="box-preserving layouts + partner clues for 180-degree symmetry, tags unchanged",
    )
    sym.add_argument("file", help="puzzles .jsonl")
    sym.add_argument("--out", "-o", required=True, help="output .jsonl")
    sym.add_argument("--layouts", type=int, default=3, help="best pairings tried (default 3)")
    sym.add_argument(
        "--restarts",
        type=int,
        default=4,
        help="random starts of the pairing search for 16x16 and up (default 4)",
    )
    sym.add_argument("--seed", type=seed, default=0, help="seed of those starts")
    add_quiet_option(sym)
    sym.set_defaults(sudoku_action=_symmetrify)

    study = sub.add_parser("study", help="run a hardness study config (Parquet, CSV, figure)")
    study.add_argument("config", help="study .toml, e.g. experiments/sudoku-hardness.toml")
    study.add_argument("--out", "-o", required=True, help="output folder")
    study.add_argument("--workers", type=int, help="processes (default: the config's)")
    add_quiet_option(study)
    study.set_defaults(sudoku_action=_study)
    # ``ludolab`` sets ``run`` on this parser itself, so the actions live under their own key.
    parser.set_defaults(sudoku_action=None, sudoku_parser=parser)


def run(args: argparse.Namespace) -> int:
    """Dispatch to the chosen action (``ludolab puzzle sudoku`` alone prints help, exit 2)."""
    if args.sudoku_action is None:
        args.sudoku_parser.print_help(sys.stderr)
        return 2
    return args.sudoku_action(args)


def _generate(args: argparse.Namespace) -> int:
    from ludolab.research.puzzles.sudoku.generate import NODE_LIMITS

    if args.out.endswith(".json"):
        return _generate_pack(args)
    if args.difficulty is not None:
        raise PuzzleError("--difficulty: only for a pack (an --out ending in .json)")
    if args.size is None:
        raise PuzzleError("--size: required for a .jsonl corpus (6, 9, 16, 25 or 36)")
    if args.count < 1:
        raise PuzzleError(f"--count {args.count}: must be at least 1")
    node_limit = args.node_limit if args.node_limit is not None else NODE_LIMITS[args.size]
    if node_limit < 1:
        raise PuzzleError(f"--node-limit {node_limit}: must be at least 1")
    from ludolab.research.progress import bar

    made = generate_puzzles(args.size, args.count, args.seed, args.clues, node_limit)
    shown = bar(made, total=args.count, unit="puzzle", desc="generating", quiet=args.quiet)
    puzzles = list(shown)
    if args.classify:
        shown = bar(puzzles, unit="puzzle", desc="classifying", quiet=args.quiet)
        puzzles = [p.with_tag(classify(p.grid, p.size).tag) for p in shown]
    write_puzzles(puzzles, args.out)
    clues = [p.clues for p in puzzles]
    minimal = sum(p.minimal for p in puzzles)
    print(
        f"{len(puzzles)} {args.size}x{args.size} puzzles (seed {args.seed}) -> {args.out}: "
        f"clues {min(clues)}-{max(clues)} (mean {sum(clues) / len(clues):.1f}), "
        f"{minimal} minimal, every one unique"
    )
    if args.classify:
        _print_tags(puzzles)
    return 0


def _generate_pack(args: argparse.Namespace) -> int:
    from ludolab.research.puzzles import pack_cli
    from ludolab.research.puzzles.sudoku.pack import GAME

    for flag, value in (("--clues", args.clues), ("--node-limit", args.node_limit)):
        if value is not None:
            raise PuzzleError(f"{flag}: only for a .jsonl corpus; a pack draws its own targets")
    if args.classify:
        raise PuzzleError("--classify: a pack always stores each puzzle's level")
    args.command, args.n = "generate", args.count
    args.size = 9 if args.size is None else args.size
    args.difficulty = args.difficulty or "mixed"
    return pack_cli.run(args, GAME)


def _verify(args: argparse.Namespace) -> int:
    from ludolab.research.puzzles import pack_cli
    from ludolab.research.puzzles.sudoku.pack import GAME

    args.command = "verify"
    return pack_cli.run(args, GAME)


def _print_tags(puzzles: list[Puzzle]) -> None:
    counts = collections.Counter(p.tag for p in puzzles)
    print("tags: " + ", ".join(f"{t} {counts[t]}" for t in TAGS))


def _classify(args: argparse.Namespace) -> int:
    if (args.file is None) == (args.grid is None):
        raise PuzzleError("classify: give either a puzzles FILE or --grid TEXT (one of them)")
    if args.grid is not None:
        grid = parse_grid(args.grid, args.size, "--grid")
        n = int(round(len(grid) ** 0.5))
        puzzle = puzzle_from_grid(grid, n, "--grid")
        print(format_grid(grid, n))
        print(f"{n}x{n}, {puzzle.clues} clues; candidates left by each level from scratch:")
        for level, doms in ladder(grid, n).items():
            assert doms is not None  # a unique puzzle never wipes out
            state = "solved" if is_solved(doms) else "open"
            print(f"  {level:<4} {candidates(doms):>6}  {state}")
        result = classify(grid, n, args.max_level)
        print(f"tag: {result.tag}")
        if args.out:
            write_puzzles([puzzle.with_tag(result.tag)], args.out)
        return 0
    from ludolab.research.progress import bar

    puzzles = read_puzzles(args.file)
    tagged = []
    seconds = collections.Counter()
    for p in bar(puzzles, unit="puzzle", desc="classifying", quiet=args.quiet):
        result = classify(p.grid, p.size, args.max_level)
        seconds.update(result.seconds)
        tagged.append(p.with_tag(result.tag))
    sizes = sorted({p.size for p in puzzles})
    print(f"{len(tagged)} puzzles ({', '.join(f'{s}x{s}' for s in sizes)}) from {args.file}")
    _print_tags(tagged)
    print("seconds per level: " + ", ".join(f"{lv} {seconds[lv]:.2f}" for lv in LEVELS))
    if args.out:
        write_puzzles(tagged, args.out)
        print(f"tagged puzzles -> {args.out}")
    return 0


def _symmetrify(args: argparse.Namespace) -> int:
    from ludolab.research.puzzles.sudoku.symmetrify import summarise, symmetrify_puzzle

    if args.layouts < 1:
        raise PuzzleError(f"--layouts {args.layouts}: must be at least 1")
    if args.restarts < 0:
        raise PuzzleError(f"--restarts {args.restarts}: must be 0 or more")
    from ludolab.research.progress import bar

    puzzles = read_puzzles(args.file)
    shown = bar(puzzles, unit="puzzle", desc="symmetrifying", quiet=args.quiet)
    results = [symmetrify_puzzle(p, args.layouts, args.restarts, args.seed) for p in shown]
    write_puzzles([r.puzzle for r in results], args.out)
    print(summarise(results, puzzles).text())
    print(f"-> {args.out}")
    return 0


def _study(args: argparse.Namespace) -> int:
    from ludolab.research.puzzles.sudoku.study import load_study, run_study, summary_markdown

    config = load_study(args.config)
    if args.workers is not None and args.workers < 1:
        raise PuzzleError(f"--workers {args.workers}: must be at least 1")
    print(
        f"{config.name}: {config.total} puzzles over sizes "
        f"{', '.join(str(s.size) for s in config.sizes)}",
        flush=True,
    )
    from ludolab.research.progress import Status

    with Status(f"{config.name}: classifying {config.total} puzzles", quiet=args.quiet):
        result = run_study(config, args.out, args.workers)
    print(summary_markdown(result.summary, config))
    print(
        f"{len(result.table)} puzzles in {result.seconds:.1f} s -> "
        + ", ".join(str(p) for p in result.paths)
    )
    return 0
