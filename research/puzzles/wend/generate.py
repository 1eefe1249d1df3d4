"""Generating Wend and Swend puzzles: a winding path through the grid cut into words.

1. A path through every cell (:func:`ludolab.research.puzzles.zip.generate.random_path`), cut
   into stretches of 4 to 7 cells.
2. Each stretch gets a random word of its length from the game's list (:mod:`.words`), its
   letters laid along it.
3. Kept when the SAT counter finds that cover alone (counting to two, over every placement of
   every listed-length word of the list) and the deductions finish it; otherwise the words are
   drawn again, ``TRIES`` times, before the candidate goes.

Every random choice comes from the ``random.Random`` passed in.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass

from ludolab.research.puzzles.wend.deduce import Deduction, deduce
from ludolab.research.puzzles.wend.solve import Path, solutions
from ludolab.research.puzzles.wend.words import words_by_length
from ludolab.research.puzzles.zip.generate import random_path

SIZES = range(4, 8)
TRIES = 4


@dataclass(frozen=True)
class WendPuzzle:
    game: str
    size: int
    letters: tuple[tuple[str, ...], ...]
    lengths: tuple[int, ...]
    paths: tuple[Path, ...]  # sorted
    deduction: Deduction

    @property
    def id(self) -> str:
        key = json.dumps([self.size, self.letters, self.lengths], ensure_ascii=False)
        return f"{self.game}-{self.size}-{hashlib.sha1(key.encode()).hexdigest()[:10]}"


def cut(total: int, rng: random.Random) -> list[int]:
    """Lengths of 4 to 7 that add up to ``total`` (>= 4)."""
    out = []
    while total > 7:
        k = rng.randint(4, min(7, total - 4))
        out.append(k)
        total -= k
    return [*out, total]


def generate_one(game: str, n: int, rng: random.Random) -> WendPuzzle | None:
    """One candidate of ``game`` (wend or swend) of side ``n``; None when no draw of words is
    unique and finished by the deductions."""
    if n not in SIZES:
        raise ValueError(f"the Wend generator makes {SIZES.start}..{SIZES.stop - 1} grids, not {n}")
    path = random_path(n, rng)
    lengths = cut(n * n, rng)
    stretches, k = [], 0
    for length in lengths:
        stretches.append(tuple(path[k : k + length]))
        k += length
    pool = words_by_length(game)
    for _ in range(TRIES):
        letters = [[""] * n for _ in range(n)]
        for stretch in stretches:
            for (r, c), ch in zip(stretch, rng.choice(pool[len(stretch)]), strict=True):
                letters[r][c] = ch
        intended = sorted(stretches)
        if solutions(game, letters, lengths, limit=2) != [intended]:
            continue
        result = deduce(game, letters, lengths)
        if result.solved:
            assert list(result.paths or ()) == intended
            return WendPuzzle(game, n, tuple(map(tuple, letters)), tuple(lengths),
                              tuple(intended), result)
    return None


__all__ = ["SIZES", "TRIES", "WendPuzzle", "cut", "generate_one"]
