"""Cheap proofs that a constraint set has no board, tried before any sampler or count runs.

A sampler cannot tell an impossible set from a very tight one: it searches until a budget runs
out. Some impossibilities are plain arithmetic, though, and are said at once here, each with the
numbers that prove it:

* **pips**: the ``resource-pips`` bounds of a group of resources must fit what that many hexes
  can carry: at least the pips of the poorest tokens, at most those of the richest (every
  producing hex carries one token, so a group of ``k`` hexes holds ``k`` tokens). Every group of
  resources is tried (32 groups), so bounds that fit one by one but not together are caught.
* **red tokens**: ``red-numbers-on-different-resources`` puts at most one listed token on each
  resource, so the listed tokens must not outnumber the resources.
* **tokens on rings**: ``number-placement`` keeps the listed tokens on some rings, so they must
  not outnumber those rings' hexes.
* **a fixed board**: when ``fixed`` gives every part the set reads, the one board is checked.

These are necessary conditions only: a set that passes may still be impossible, and the
samplers' budgets (and their messages) cover that case.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from ludolab.envs.catan.board import RESOURCES, TERRAINS
from ludolab.research.catan.constraint_set import ConstraintSet
from ludolab.research.catan.geometry import PIPS_TABLE, layout_arrays
from ludolab.research.catan.samplers import ImpossibleSet


def impossibility(cset: ConstraintSet) -> str | None:
    """Why no board can satisfy ``cset`` (one sentence with its numbers), or None when these
    cheap checks find no reason (which does not prove that a board exists)."""
    for check in (_pips, _red_tokens, _tokens_on_rings, _fixed_board):
        reason = check(cset)
        if reason:
            return reason
    return None


def check_possible(cset: ConstraintSet) -> None:
    """Raise :class:`ImpossibleSet` when :func:`impossibility` finds a reason."""
    reason = impossibility(cset)
    if reason:
        raise ImpossibleSet(f"{cset.label} ({cset.source}) has no board: {reason}. Loosen it.")


def _token_pips(cset: ConstraintSet) -> np.ndarray:
    """The pips of the layout's tokens, poorest first."""
    counts = layout_arrays(cset.layout).layout.number_counts
    return np.sort(np.repeat([PIPS_TABLE[v] for v in counts], list(counts.values())))


def _hexes(cset: ConstraintSet) -> dict[int, int]:
    """Resource code -> its number of hexes on the set's layout."""
    counts = layout_arrays(cset.layout).layout.resource_counts
    return {r: counts.get(TERRAINS[r], 0) for r in range(len(RESOURCES))}


def _pips(cset: ConstraintSet) -> str | None:
    bounded = [c for c in cset.constraints if c.name == "resource-pips"]
    if not bounded:
        return None
    low = {r: 0 for r in range(len(RESOURCES))}
    high = {r: int(1e9) for r in range(len(RESOURCES))}
    for c in bounded:
        for r in c.values["resources"]:
            low[r] = max(low[r], c.values["min"])
            high[r] = min(high[r], c.values["max"])
    pips, hexes = _token_pips(cset), _hexes(cset)
    for size in range(1, len(RESOURCES) + 1):
        for group in combinations(range(len(RESOURCES)), size):
            k = sum(hexes[r] for r in group)
            most, least = int(pips[len(pips) - k :].sum()) if k else 0, int(pips[:k].sum())
            need, cap = sum(low[r] for r in group), sum(min(high[r], most) for r in group)
            names = _names(group)
            hex_word = f"{k} hex{'es' * (k != 1)}"
            if need > most:
                return (
                    f"resource-pips asks {names} for at least {need} pips in all, but their "
                    f"{hex_word} can carry at most {most} (the {k} richest tokens)"
                )
            if cap < least:
                return (
                    f"resource-pips allows {names} at most {cap} pips in all, but their "
                    f"{hex_word} carry at least {least} (the {k} poorest tokens)"
                )
    return None


def _tokens(cset: ConstraintSet, values: list[int]) -> int:
    """How many of the layout's tokens carry one of ``values``."""
    counts = layout_arrays(cset.layout).layout.number_counts
    return sum(counts.get(v, 0) for v in values)


def _red_tokens(cset: ConstraintSet) -> str | None:
    producing = sum(1 for k in _hexes(cset).values() if k)
    for c in cset.constraints:
        if c.name != "red-numbers-on-different-resources":
            continue
        listed = sorted(c.values["numbers"])
        tokens = _tokens(cset, listed)
        if tokens > producing:
            shown = ", ".join(str(v) for v in listed)
            return (
                f"red-numbers-on-different-resources puts at most one of the {tokens} tokens "
                f"{shown} on each resource, but there are {producing} resources"
            )
    return None


def _tokens_on_rings(cset: ConstraintSet) -> str | None:
    for c in cset.constraints:
        if c.name != "number-placement":
            continue
        tokens = _tokens(cset, c.values["numbers"])
        room = layout_arrays(cset.layout).layout.n_hexes - len(c.forbidden())
        if tokens > room:
            rings = ", ".join(str(r) for r in c.values["rings"])
            return (
                f"number-placement puts its {tokens} tokens on ring(s) {rings}, which have "
                f"{room} hex{'es' * (room != 1)}"
            )
    return None


def _fixed_board(cset: ConstraintSet) -> str | None:
    fixed = cset.fixed
    if not cset.has_python_faces or not set(cset.reads) <= set(fixed):
        return None
    geo = layout_arrays(cset.layout)
    parts = {
        "terrain": np.zeros(geo.layout.n_hexes, dtype=np.int8),
        "numbers": np.zeros(geo.layout.n_hexes, dtype=np.int8),
        "harbors": np.zeros(len(geo.layout.harbor_slots), dtype=np.int8),
    }
    for part, codes in fixed.items():
        parts[part] = np.array(codes, dtype=np.int8)
    broken = [
        c.describe()
        for c in cset.constraints
        if c.name != "fixed"
        and not c.check(parts["terrain"][None], parts["numbers"][None], parts["harbors"][None])[0]
    ]
    if broken:
        return f"the parts it fixes already break {', '.join(broken)}"
    return None


def _names(group: tuple[int, ...]) -> str:
    words = [RESOURCES[r] for r in group]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
