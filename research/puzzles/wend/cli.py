"""Wend (English) and Swend (Swedish): generate packs of puzzles with unique solutions, verify.

  ludolab puzzle wend generate --n 40 --size 5 --difficulty mixed --seed 1 --out wend.json
  ludolab puzzle swend generate --n 40 --size 5 --seed 1 --out swend.json
  ludolab puzzle wend verify wend.json

Word lists: Debian's wamerican and wswedish (research/puzzles/wend/words.py). A winding path
through the grid cut into words; kept when the SAT counter finds that cover alone among every
placement of every word of the listed lengths (counting to two). Difficulty: easy (a letter
that only one word can take, again and again), hard (a word tried and refuted).
"""

from __future__ import annotations

from functools import partial

from ludolab.research.puzzles import pack_cli
from ludolab.research.puzzles.pack import PackPuzzle
from ludolab.research.puzzles.wend.deduce import LEVELS, RULES, deduce
from ludolab.research.puzzles.wend.generate import SIZES, WendPuzzle, generate_one
from ludolab.research.puzzles.wend.rules import solution_problems
from ludolab.research.puzzles.wend.solve import solutions
from ludolab.research.puzzles.wend.words import LANGUAGES, word_list

MEASURE = "the hardest deduction a solve needs: " + " < ".join(RULES)


def _entry(p: WendPuzzle, attempt: int, seed: int) -> PackPuzzle:
    hardest, steps = p.deduction.score
    lang = LANGUAGES[p.game]
    return PackPuzzle(
        id=p.id,
        size=(p.size, p.size),
        clues={"letters": ["".join(row) for row in p.letters], "lengths": list(p.lengths)},
        solution={"paths": [[list(c) for c in path] for path in p.paths]},
        difficulty={"level": p.deduction.level, "score": [hardest, steps], "measure": MEASURE},
        provenance={"seed": seed, "candidate": attempt,
                    "words": f"Debian {lang.package} ({lang.path})"},
    )


def _letters(p: PackPuzzle) -> list[list[str]] | str:
    rows = p.clues.get("letters")
    n = p.size[0]
    if list(p.size) != [n, n] or n not in SIZES:
        return f"size {list(p.size)}: Wend packs are square, {SIZES.start}..{SIZES.stop - 1}"
    if not isinstance(rows, list) or len(rows) != n or not all(
        isinstance(row, str) and len(row) == n for row in rows
    ):
        return f"clues.letters: expected {n} strings of {n} letters"
    return [list(row) for row in rows]


def check(game: str, p: PackPuzzle) -> str | None:
    """The first problem of a Wend or Swend pack record, or None."""
    letters = _letters(p)
    if isinstance(letters, str):
        return letters
    lengths, paths = p.clues.get("lengths"), p.solution.get("paths")
    if not isinstance(lengths, list) or not all(isinstance(k, int) and k > 0 for k in lengths):
        return "clues.lengths: expected the words' lengths"
    if not isinstance(paths, list) or not all(
        isinstance(path, list) and all(isinstance(c, list) and len(c) == 2 for c in path)
        for path in paths
    ):
        return "solution.paths: expected a list of paths of [row, column]"
    problems = solution_problems(letters, lengths, paths, set(word_list(game)))
    if problems:
        return f"the stored solution breaks the rules: {problems[0]}"
    found = solutions(game, letters, lengths, limit=2)
    if len(found) > 1:
        return "not unique: a second cover by words exists"
    if [[list(map(list, path)) for path in found[0]]] != [sorted(paths)]:
        return "the stored solution is not the puzzle's solution"
    return None


def game_of(name: str, title: str) -> pack_cli.PuzzleGame:
    return pack_cli.PuzzleGame(
        name=name,
        title=title,
        sizes=SIZES,
        default_size=5,
        levels=LEVELS,
        method=f"a winding path through the grid cut into {LANGUAGES[name].name} words, kept "
        "when unique (SAT exact cover with the listed lengths, count to two)",
        draw=lambda n, rng: generate_one(name, n, rng),
        level_of=lambda p: p.deduction.level,
        entry=_entry,
        check=partial(check, name),
        relabel=lambda p: deduce(name, [list(r) for r in p.clues["letters"]],
                                 p.clues["lengths"]).level,
        clues=lambda p: len(p.lengths),
        clue_name="words",
    )


GAME = game_of("wend", "Wend")
add_arguments, run = pack_cli.commands(GAME)

__all__ = ["GAME", "add_arguments", "check", "game_of", "run"]
