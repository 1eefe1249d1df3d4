"""Queens: generate packs of puzzles with unique solutions, and verify packs.

  ludolab puzzle queens generate --n 50 --size 8 --difficulty mixed --seed 1 --out queens.json
  ludolab puzzle queens verify queens.json

Every generated puzzle is unique (the SAT counter finds one solution and proves there is no
second) and its solution passes the rules checker; ``verify`` does both again, and also
repeats the deductions to check each stored difficulty label. Difficulty: the hardest
deduction a solve needs (easy: singles; medium: a region confined to a line; hard: k regions
locked into k lines; expert: trying a cell); ``mixed`` spreads the pack evenly over the four.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from pathlib import Path

from ludolab.research.cli_types import add_quiet_option
from ludolab.research.puzzles import PuzzleError
from ludolab.research.puzzles.pack import Pack, PackPuzzle, read_pack, write_pack
from ludolab.research.puzzles.queens.deduce import LEVELS, RULES, deduce
from ludolab.research.puzzles.queens.generate import SIZES, QueensPuzzle, generate_one
from ludolab.research.puzzles.queens.rules import region_problems, solution_problems
from ludolab.research.puzzles.queens.solve import solutions

GAME = "queens"
DIFFICULTIES = (*LEVELS, "mixed")
ATTEMPTS_PER_PUZZLE = 500  # candidates drawn per puzzle asked for before giving up
MEASURE = "the hardest deduction rule a solve needs: " + " < ".join(RULES)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``ludolab puzzle queens``."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    gen = sub.add_parser("generate", help="generate a pack of unique puzzles")
    gen.add_argument("--n", type=int, required=True, help="puzzles in the pack")
    gen.add_argument(
        "--size", type=int, default=8, help=f"grid side {SIZES.start}..{SIZES.stop - 1} (default 8)"
    )
    gen.add_argument(
        "--difficulty", choices=DIFFICULTIES, default="mixed", help="level (default mixed)"
    )
    gen.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    gen.add_argument("--out", required=True, help="the pack, a .json file")
    add_quiet_option(gen)
    ver = sub.add_parser("verify", help="check a pack: unique, valid, labels reproduce")
    ver.add_argument("pack", metavar="PACK.json")


def run(args: argparse.Namespace) -> int:
    """``ludolab puzzle queens generate|verify``."""
    if args.command == "verify":
        return _verify(Path(args.pack))
    return _generate(args)


def _generate(args: argparse.Namespace) -> int:
    if args.n < 1:
        raise PuzzleError(f"--n must be at least 1, got {args.n}")
    if args.size not in SIZES:
        raise PuzzleError(
            f"--size {args.size}: the Queens generator makes {SIZES.start}..{SIZES.stop - 1} "
            "grids (4 x 4 has no solution)"
        )
    out = Path(args.out)
    if out.suffix != ".json":
        raise PuzzleError(f"--out {args.out}: a pack is a .json file")
    if not out.parent.is_dir():
        raise PuzzleError(f"--out {args.out}: the folder {out.parent} does not exist")
    from ludolab.research.progress import Status

    wanted = list(LEVELS) if args.difficulty == "mixed" else [args.difficulty]
    quota = Counter({level: -(-args.n // len(wanted)) for level in wanted})
    rng = random.Random(args.seed)
    kept: list[tuple[QueensPuzzle, int]] = []
    seen: set[str] = set()
    attempts = 0
    what = f"generating {args.n} {args.size} x {args.size} Queens puzzles ({args.difficulty})"
    with Status(what, quiet=args.quiet):
        while len(kept) < args.n and attempts < ATTEMPTS_PER_PUZZLE * args.n:
            attempts += 1
            puzzle = generate_one(args.size, rng)
            if puzzle is None or puzzle.id in seen:
                continue
            level = puzzle.deduction.level
            if quota[level] <= 0:
                continue
            quota[level] -= 1
            seen.add(puzzle.id)
            kept.append((puzzle, attempts))
    if len(kept) < args.n:
        raise PuzzleError(
            f"only {len(kept)} of {args.n} {args.size} x {args.size} puzzles at difficulty "
            f"{args.difficulty!r} in {attempts} candidates; nothing written. Try another "
            "--size or --difficulty"
        )
    pack = Pack(
        game=GAME,
        generator={
            "seed": args.seed,
            "n": args.n,
            "size": args.size,
            "difficulty": args.difficulty,
            "candidates": attempts,
            "method": "random solution, regions grown around its queens, repaired until "
            "unique (SAT count to two), labelled by deductions",
        },
        puzzles=tuple(_entry(p, attempt, args.seed) for p, attempt in kept),
    )
    write_pack(out, pack)
    levels = Counter(p.deduction.level for p, _ in kept)
    spread = ", ".join(f"{levels[lv]} {lv}" for lv in LEVELS if levels[lv])
    print(f"wrote {out}: {args.n} unique {args.size} x {args.size} puzzles ({spread}) from "
          f"{attempts} candidates, seed {args.seed}")
    return 0


def _entry(p: QueensPuzzle, attempt: int, seed: int) -> PackPuzzle:
    hardest, steps = p.deduction.score
    return PackPuzzle(
        id=p.id,
        size=(len(p.regions), len(p.regions)),
        clues={"regions": [list(row) for row in p.regions]},
        solution={"queens": list(p.queens)},
        difficulty={
            "level": p.deduction.level,
            "score": [hardest, steps],
            "measure": MEASURE,
        },
        provenance={"seed": seed, "candidate": attempt, "repairs": p.repairs},
    )


def verify_pack(path: Path) -> Pack:
    """Check every puzzle of a Queens pack; PuzzleError naming the file, the puzzle and the
    fault at the first one that fails."""
    pack = read_pack(path, GAME)
    for i, p in enumerate(pack.puzzles):
        where = f"{path}: puzzles[{i}] ({p.id})"
        regions = p.clues.get("regions")
        queens = p.solution.get("queens")
        if not isinstance(regions, list) or not all(isinstance(row, list) for row in regions):
            raise PuzzleError(f"{where}: clues.regions: expected rows of region numbers")
        problems = region_problems(regions)
        if problems:
            raise PuzzleError(f"{where}: clues.regions: {problems[0]}")
        if list(p.size) != [len(regions), len(regions)]:
            raise PuzzleError(f"{where}: size {list(p.size)} but the grid is {len(regions)}")
        if not isinstance(queens, list):
            raise PuzzleError(f"{where}: solution.queens: expected a column per row")
        problems = solution_problems(regions, queens)
        if problems:
            raise PuzzleError(f"{where}: the stored solution breaks the rules: {problems[0]}")
        found = solutions(regions, limit=2)
        if len(found) > 1:
            raise PuzzleError(f"{where}: not unique: a second solution {found[1]} exists")
        if found != [queens]:
            raise PuzzleError(f"{where}: the stored solution is not the grid's solution")
        level = deduce(regions).level
        if p.difficulty.get("level") != level:
            raise PuzzleError(
                f"{where}: labelled {p.difficulty.get('level')!r}, the deductions say {level!r}"
            )
    return pack


def _verify(path: Path) -> int:
    pack = verify_pack(path)
    levels = Counter(p.difficulty["level"] for p in pack.puzzles)
    spread = ", ".join(f"{levels[lv]} {lv}" for lv in LEVELS if levels[lv])
    print(
        f"{path}: {len(pack.puzzles)} Queens puzzles, each with exactly one solution that "
        f"passes the rules; difficulty labels reproduce ({spread})"
    )
    return 0
