"""The ``generate`` and ``verify`` commands every generated puzzle game shares.

A game module gives a `PuzzleGame`: its name, sizes and difficulty levels, ``draw(size,
rng)`` (one candidate puzzle, which has an ``id``, or None), ``level_of(candidate)``,
``entry(candidate, attempt, seed)`` (its pack record), ``check(record)`` (the first problem
of a pack record, or None: the rules checker, uniqueness by counting to two) and
``relabel(record)`` (the difficulty level the deductions give it, which must match the
stored label), and optionally ``clues(candidate)``, how much information a candidate gives
(``clue_name`` says what it counts), for the difficulty study.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ludolab.research.cli_types import add_quiet_option
from ludolab.research.puzzles import PuzzleError
from ludolab.research.puzzles.pack import Pack, PackPuzzle, read_pack, write_pack

ATTEMPTS_PER_PUZZLE = 500  # candidates drawn per puzzle asked for before giving up


@dataclass(frozen=True)
class PuzzleGame:
    """What the shared commands need from a game (see the module docstring)."""

    name: str
    title: str
    sizes: range
    default_size: int
    levels: Sequence[str]
    method: str
    draw: Callable[[int, random.Random], Any]
    level_of: Callable[[Any], str]
    entry: Callable[[Any, int, int], PackPuzzle]
    check: Callable[[PackPuzzle], str | None]
    relabel: Callable[[PackPuzzle], str]
    # The information a candidate gives (what generation adds or removes), for the study of
    # difficulty against it (research/puzzles/study): a count and what it counts.
    clues: Callable[[Any], int] | None = None
    clue_name: str = ""


def commands(
    game: PuzzleGame,
) -> tuple[Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]:
    """The ``add_arguments`` and ``run`` a game's ``cli`` module exports."""

    def add(parser: argparse.ArgumentParser) -> None:
        add_arguments(parser, game)

    def run_game(args: argparse.Namespace) -> int:
        return run(args, game)

    return add, run_game


def add_arguments(parser: argparse.ArgumentParser, game: PuzzleGame) -> None:
    """``generate`` and ``verify`` under ``ludolab puzzle GAME``."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    gen = sub.add_parser("generate", help="generate a pack of unique puzzles")
    gen.add_argument("--n", type=int, required=True, help="puzzles in the pack")
    gen.add_argument(
        "--size", type=int, default=game.default_size,
        help=f"grid side {sizes_text(game.sizes)} (default {game.default_size})",
    )
    gen.add_argument(
        "--difficulty", choices=(*game.levels, "mixed"), default="mixed",
        help="level, or mixed: spread evenly over the levels (default)",
    )
    gen.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    gen.add_argument("--out", required=True, help="the pack, a .json file")
    add_quiet_option(gen)
    ver = sub.add_parser("verify", help="check a pack: unique, valid, labels reproduce")
    ver.add_argument("pack", metavar="PACK.json")


def run(args: argparse.Namespace, game: PuzzleGame) -> int:
    if args.command == "verify":
        return _verify(Path(args.pack), game)
    return _generate(args, game)


def sizes_text(sizes: range) -> str:
    """``6..12``, or ``6 or 9`` for a range with steps."""
    if sizes.step == 1:
        return f"{sizes.start}..{sizes.stop - 1}"
    *rest, last = map(str, sizes)
    return f"{', '.join(rest)} or {last}" if rest else last


def _spread(levels: Counter[str], order: Sequence[str]) -> str:
    return ", ".join(f"{levels[lv]} {lv}" for lv in order if levels[lv])


def _generate(args: argparse.Namespace, game: PuzzleGame) -> int:
    if args.n < 1:
        raise PuzzleError(f"--n must be at least 1, got {args.n}")
    if args.size not in game.sizes:
        raise PuzzleError(
            f"--size {args.size}: the {game.title} generator makes "
            f"{sizes_text(game.sizes)} grids"
        )
    out = Path(args.out)
    if out.suffix != ".json":
        raise PuzzleError(f"--out {args.out}: a pack is a .json file")
    if not out.parent.is_dir():
        raise PuzzleError(f"--out {args.out}: the folder {out.parent} does not exist")
    from ludolab.research.progress import Status

    wanted = list(game.levels) if args.difficulty == "mixed" else [args.difficulty]
    quota = Counter({level: -(-args.n // len(wanted)) for level in wanted})
    rng = random.Random(args.seed)
    kept: list[tuple[Any, int]] = []
    seen: set[str] = set()
    attempts = 0
    what = f"generating {args.n} {args.size} x {args.size} {game.title} puzzles"
    with Status(f"{what} ({args.difficulty})", quiet=args.quiet):
        while len(kept) < args.n and attempts < ATTEMPTS_PER_PUZZLE * args.n:
            attempts += 1
            puzzle = game.draw(args.size, rng)
            if puzzle is None or puzzle.id in seen:
                continue
            level = game.level_of(puzzle)
            if quota[level] <= 0:
                continue
            quota[level] -= 1
            seen.add(puzzle.id)
            kept.append((puzzle, attempts))
    if len(kept) < args.n:
        raise PuzzleError(
            f"only {len(kept)} of {args.n} {args.size} x {args.size} {game.title} puzzles at "
            f"difficulty {args.difficulty!r} in {attempts} candidates; nothing written. Try "
            "another --size or --difficulty"
        )
    pack = Pack(
        game=game.name,
        generator={
            "seed": args.seed,
            "n": args.n,
            "size": args.size,
            "difficulty": args.difficulty,
            "candidates": attempts,
            "method": game.method,
        },
        puzzles=tuple(game.entry(p, attempt, args.seed) for p, attempt in kept),
    )
    write_pack(out, pack)
    spread = _spread(Counter(game.level_of(p) for p, _ in kept), game.levels)
    print(
        f"wrote {out}: {args.n} unique {args.size} x {args.size} {game.title} puzzles "
        f"({spread}) from {attempts} candidates, seed {args.seed}"
    )
    return 0


def verify_pack(path: Path, game: PuzzleGame) -> Pack:
    """Check every puzzle of a pack; PuzzleError naming the file, the puzzle and the fault at
    the first one that fails."""
    pack = read_pack(path, game.name)
    for i, p in enumerate(pack.puzzles):
        problem = game.check(p)
        if problem is None and p.difficulty["level"] != (level := game.relabel(p)):
            problem = f"labelled {p.difficulty['level']!r}, the deductions say {level!r}"
        if problem is not None:
            raise PuzzleError(f"{path}: puzzles[{i}] ({p.id}): {problem}")
    return pack


def _verify(path: Path, game: PuzzleGame) -> int:
    pack = verify_pack(path, game)
    spread = _spread(Counter(p.difficulty["level"] for p in pack.puzzles), game.levels)
    print(
        f"{path}: {len(pack.puzzles)} {game.title} puzzles, each with exactly one solution "
        f"that passes the rules; difficulty labels reproduce ({spread})"
    )
    return 0


__all__ = ["ATTEMPTS_PER_PUZZLE", "PuzzleGame", "add_arguments", "commands", "run", "verify_pack"]
