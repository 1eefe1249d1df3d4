"""The rules of Patches, checked directly (independent of the solver and the deductions).

Rules as playpatchesunlimited.com and patchesgame.app state them (LinkedIn's *Patches*, after
Nikoli's *Shikaku*): cover the whole grid with rectangles (patches) that do not overlap; every
patch holds exactly one clue; a clue's shape says whether its patch is a ``square`` (width =
height), ``wide`` (wider than tall), ``tall`` (taller than wide) or ``any``, and its number,
when it shows one, is the patch's area in cells.

A puzzle: ``size`` (n x n) and ``clues``, each ``{"cell": [r, c], "shape": ..., "area": k or
null}``. A solution: ``patches``, one rectangle per clue in the same order, each
``[top, left, bottom, right]`` (inclusive).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

SHAPES = ("square", "wide", "tall", "any")
Rect = tuple[int, int, int, int]


def shape_of(rect: Sequence[int]) -> str:
    top, left, bottom, right = rect
    h, w = bottom - top + 1, right - left + 1
    return "square" if h == w else "wide" if w > h else "tall"


def fits(clue: Mapping[str, Any], rect: Sequence[int]) -> bool:
    """Whether ``rect`` matches the clue's shape and area (not where it lies)."""
    top, left, bottom, right = rect
    area = (bottom - top + 1) * (right - left + 1)
    if clue.get("area") is not None and clue["area"] != area:
        return False
    return clue["shape"] == "any" or clue["shape"] == shape_of(rect)


def clue_problems(n: int, clues: Sequence[Mapping[str, Any]]) -> list[str]:
    """What is wrong with a puzzle's clues (empty when they make a puzzle)."""
    seen = set()
    for i, clue in enumerate(clues):
        cell = clue.get("cell") if isinstance(clue, Mapping) else None
        if (not isinstance(cell, list) or len(cell) != 2
                or not all(isinstance(k, int) and 0 <= k < n for k in cell)):
            return [f"clue {i}: cell must be [row, column] inside the {n} x {n} grid"]
        if clue.get("shape") not in SHAPES:
            return [f"clue {i}: shape must be one of {', '.join(SHAPES)}"]
        area = clue.get("area")
        if area is not None and (not isinstance(area, int) or isinstance(area, bool)
                                 or not 1 <= area <= n * n):
            return [f"clue {i}: area must be a number of cells 1..{n * n}, or null"]
        if tuple(cell) in seen:
            return [f"clue {i}: a second clue on cell {cell}"]
        seen.add(tuple(cell))
    return [] if clues else ["a puzzle needs at least one clue"]


def solution_problems(n: int, clues: Sequence[Mapping[str, Any]],
                      patches: Sequence[Sequence[int]]) -> list[str]:
    """Every way ``patches`` breaks the puzzle (empty when it solves it)."""
    if len(patches) != len(clues):
        return [f"one patch per clue: {len(clues)} clues, {len(patches)} patches"]
    owner: dict[tuple[int, int], int] = {}
    problems = []
    for i, rect in enumerate(patches):
        top, left, bottom, right = rect
        if not (0 <= top <= bottom < n and 0 <= left <= right < n):
            return [f"patch {i} {list(rect)} is not a rectangle inside the grid"]
        for r in range(top, bottom + 1):
            for c in range(left, right + 1):
                if (r, c) in owner:
                    problems.append(f"patches {owner[r, c]} and {i} overlap at {[r, c]}")
                owner[r, c] = i
        if not fits(clues[i], rect):
            problems.append(f"patch {i} {list(rect)} does not match its clue {dict(clues[i])}")
    if len(owner) != n * n:
        problems.append("some cells are in no patch")
    for i, clue in enumerate(clues):
        if owner.get(tuple(clue["cell"])) != i:
            problems.append(f"clue {i} is not inside its own patch")
    return problems


__all__ = ["SHAPES", "Rect", "clue_problems", "fits", "shape_of", "solution_problems"]
