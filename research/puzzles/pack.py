"""Puzzle packs: generated puzzles with their stored solutions, as one JSON file.

The browser games page plays packs without a solver, so a pack carries everything: each
puzzle's clues, its one solution, a difficulty label from the generator's deductions, and
where it came from. Format ``ludolab.puzzle-pack/1``::

    {
      "format": "ludolab.puzzle-pack/1",
      "game": "queens",
      "generator": {"seed": 7, "n": 50, "difficulty": "mixed", "params": {...},
                    "ludolab": "0.1.0"},
      "puzzles": [
        {"id": "queens-8-0a1b2c3d", "size": [8, 8],
         "clues": {...},        # what the player sees (per game)
         "solution": {...},     # the one answer (per game)
         "difficulty": {"level": "easy", "score": 2, "measure": "..."},
         "provenance": {"seed": 7, "attempt": 3}}
      ]
    }

``clues`` and ``solution`` are game-specific (each game's module documents them); the rest is
common. `read_pack` checks the common structure and names the file and field at fault;
whether a puzzle is unique and its solution valid is the game's ``verify`` (which reruns the
counting solver and the independent rules checker, so a tampered pack fails there).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ludolab.research.files import write_json
from ludolab.research.puzzles import PuzzleError

FORMAT = "ludolab.puzzle-pack/1"


@dataclass(frozen=True)
class PackPuzzle:
    """One puzzle of a pack (see the module docstring for the fields)."""

    id: str
    size: tuple[int, int]
    clues: dict[str, Any]
    solution: dict[str, Any]
    difficulty: dict[str, Any]
    provenance: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Pack:
    """A game's puzzles and how they were generated."""

    game: str
    generator: dict[str, Any]
    puzzles: tuple[PackPuzzle, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "generator": self.generator,
            "puzzles": [{**asdict(p), "size": list(p.size)} for p in self.puzzles],
        }


def write_pack(path: str | Path, pack: Pack) -> None:
    """Write ``pack`` to ``path`` atomically (a failed write leaves no partial file)."""
    write_json(path, pack.to_json())


def read_pack(path: str | Path, game: str | None = None) -> Pack:
    """The pack in ``path``; PuzzleError naming the file and the field when it is not a pack
    (of ``game``, when given)."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise PuzzleError(f"{path}: no such file") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise PuzzleError(f"{path}: not a JSON file ({exc})") from None

    def fail(where: str, expected: str) -> PuzzleError:
        return PuzzleError(f"{path}: {where}: expected {expected}")

    if not isinstance(data, dict):
        raise fail("the top level", f"an object with format {FORMAT!r}")
    if data.get("format") != FORMAT:
        raise fail("format", f"{FORMAT!r}, got {data.get('format')!r}")
    if not isinstance(data.get("game"), str):
        raise fail("game", "the game's name")
    if game is not None and data["game"] != game:
        raise PuzzleError(f"{path}: a pack of {data['game']!r} puzzles, not {game!r}")
    if not isinstance(data.get("generator"), dict):
        raise fail("generator", "an object")
    puzzles = data.get("puzzles")
    if not isinstance(puzzles, list) or not puzzles:
        raise fail("puzzles", "a non-empty list")
    out = []
    seen: set[str] = set()
    for i, p in enumerate(puzzles):
        where = f"puzzles[{i}]"
        if not isinstance(p, dict):
            raise fail(where, "an object")
        if not isinstance(p.get("id"), str) or not p["id"]:
            raise fail(f"{where}.id", "a non-empty string")
        if p["id"] in seen:
            raise fail(f"{where}.id", f"a new id; {p['id']!r} is used twice")
        seen.add(p["id"])
        size = p.get("size")
        if (
            not isinstance(size, list)
            or len(size) != 2
            or not all(isinstance(k, int) and not isinstance(k, bool) and k > 0 for k in size)
        ):
            raise fail(f"{where}.size", f"[rows, columns] of positive integers, got {size!r}")
        for key in ("clues", "solution", "difficulty"):
            if not isinstance(p.get(key), dict):
                raise fail(f"{where}.{key}", "an object")
        if not isinstance(p["difficulty"].get("level"), str):
            raise fail(f"{where}.difficulty.level", "a difficulty level's name")
        provenance = p.get("provenance", {})
        if not isinstance(provenance, dict):
            raise fail(f"{where}.provenance", "an object")
        out.append(
            PackPuzzle(
                id=p["id"],
                size=(size[0], size[1]),
                clues=p["clues"],
                solution=p["solution"],
                difficulty=p["difficulty"],
                provenance=provenance,
            )
        )
    return Pack(game=data["game"], generator=data["generator"], puzzles=tuple(out))


__all__ = ["FORMAT", "Pack", "PackPuzzle", "read_pack", "write_pack"]
