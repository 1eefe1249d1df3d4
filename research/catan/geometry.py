"""Index arrays derived from a layout, shared by the two faces of every constraint.

Python faces use them as numpy index arrays (0-based); MiniZinc faces print them as literals
(1-based). Computing them in one place is what keeps the two faces looking at the same hexes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from ludolab.envs.catan.board import DESERT
from ludolab.envs.catan.topology import Layout, load_layout


@dataclass(frozen=True)
class LayoutArrays:
    """Numpy views of a layout for vectorised checks over batches of boards.

    Attributes:
        adjacent: (n_pairs, 2) adjacent land-hex pairs.
        seed_block: (n, 2) pairs inside a 2x2 block of the 2019 seed's 5x5 array: the adjacent
            pairs plus the anti-diagonal pairs, which are NOT adjacent on the board.
        all_pairs: (n_hexes choose 2, 2) every pair of hexes.
        triples: (n_inland, 3) hexes around each intersection that touches three land hexes.
        intersections: (n_intersections, 3) hexes around each intersection, padded with n_hexes
            (an index that points to a zero column the checks append).
        three_hex: (n_intersections,) bool, intersection touches three land hexes.
        ring: (n_hexes,) distance of each hex from the centre hex (0, 1, 2).
        harbor_touch: per harbor slot, the hexes at its two intersections.
        seed_cells: {(row, col): hex} for the seed's 5x5 array (land cells only), or empty.
        symmetries: (n_sym, n_hexes) the rotations and reflections of the hex grid about its
            centre that map the land hexes onto themselves (12 on the standard board), as hex
            permutations: row g sends the content of hex h to hex ``symmetries[g, h]``; row 0
            is the identity.
    """

    layout: Layout
    adjacent: np.ndarray
    seed_block: np.ndarray
    all_pairs: np.ndarray
    triples: np.ndarray
    intersections: np.ndarray
    three_hex: np.ndarray
    ring: np.ndarray
    harbor_touch: tuple[tuple[int, ...], ...]
    seed_cells: dict[tuple[int, int], int]
    symmetries: np.ndarray

    def seed_triangles(self) -> np.ndarray:
        """The 2019 seed's marker-threshold triangles: (n, 3) hex indices, -1 for a water cell.

        For every array cell (r, c), r, c in 1..4, that is land: the cells (r,c), (r+1,c),
        (r+1,c+1) and (r,c), (r,c+1), (r+1,c+1) — exactly the seed's loops.
        """
        cells, tris = self.seed_cells, []
        for r in range(1, 5):
            for c in range(1, 5):
                if (r, c) not in cells:
                    continue
                for other in (((r + 1, c), (r + 1, c + 1)), ((r, c + 1), (r + 1, c + 1))):
                    tris.append([cells[(r, c)], *(cells.get(p, -1) for p in other)])
        return np.array(tris, dtype=np.int64).reshape(-1, 3)


@cache
def layout_arrays(name: str = "standard") -> LayoutArrays:
    """Index arrays for the named layout (cached)."""
    layout = load_layout(name)
    n = layout.n_hexes
    adjacent = np.array(layout.adjacent_hex_pairs, dtype=np.int64)
    seed_cells = {rc: h for h, rc in enumerate(layout.seed_grid)} if layout.seed_grid else {}
    block = set(layout.adjacent_hex_pairs)
    for (r, c), h in seed_cells.items():
        other = seed_cells.get((r + 1, c - 1))  # the anti-diagonal of a 2x2 block
        if other is not None:
            block.add((min(h, other), max(h, other)))
    padded = np.full((layout.n_intersections, 3), n, dtype=np.int64)
    for i, hexes in enumerate(layout.intersection_hexes):
        padded[i, : len(hexes)] = hexes
    three = np.array([len(hs) == 3 for hs in layout.intersection_hexes])
    ring = np.array([max(abs(q), abs(r), abs(q + r)) for q, r in layout.hex_axial])
    touch = tuple(
        tuple(
            sorted(
                {
                    h
                    for node in layout.harbor_intersections(s)
                    for h in layout.intersection_hexes[node]
                }
            )
        )
        for s in range(len(layout.harbor_slots))
    )
    return LayoutArrays(
        layout=layout,
        adjacent=adjacent,
        seed_block=np.array(sorted(block), dtype=np.int64),
        all_pairs=np.array([(i, j) for i in range(n) for j in range(i + 1, n)], dtype=np.int64),
        triples=padded[three],
        intersections=padded,
        three_hex=three,
        ring=ring,
        harbor_touch=touch,
        seed_cells=seed_cells,
        symmetries=_symmetries(layout.hex_axial),
    )


def _symmetries(axial: tuple[tuple[int, int], ...]) -> np.ndarray:
    """The hex permutations of the 6 rotations and 6 reflections that keep the land in place."""
    index = {h: i for i, h in enumerate(axial)}
    found: list[tuple[int, ...]] = []
    for reflect in (False, True):
        for turns in range(6):
            image = []
            for q, r in axial:
                if reflect:
                    q, r = r, q  # swaps cube coordinates x and z: a mirror through the centre
                for _ in range(turns):
                    q, r = -r, q + r  # 60 degrees about the centre
                image.append(index.get((q, r)))
            if None not in image and tuple(image) not in found:
                found.append(tuple(image))  # type: ignore[arg-type]
    return np.array(found, dtype=np.int64)


def maximal_cliques(pairs: np.ndarray) -> tuple[tuple[int, ...], ...]:
    """Maximal cliques of the graph given by ``pairs`` (Bron-Kerbosch; the graphs are tiny).

    Every pair lies in at least one clique, so "different within every clique" is the same
    constraint as "different on every pair", in a form all-different propagators work well on.
    """
    neighbours: dict[int, set[int]] = {}
    for a, b in pairs.tolist():
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    cliques: list[tuple[int, ...]] = []

    def expand(r: set[int], p: set[int], x: set[int]) -> None:
        if not p and not x:
            cliques.append(tuple(sorted(r)))
            return
        pivot = max(p | x, key=lambda v: len(neighbours[v] & p))
        for v in sorted(p - neighbours[pivot]):
            expand(r | {v}, p & neighbours[v], x & neighbours[v])
            p = p - {v}
            x = x | {v}

    expand(set(), set(neighbours), set())
    return tuple(sorted(cliques))


PIPS_TABLE = np.array([0, 0, 1, 2, 3, 4, 5, 0, 5, 4, 3, 2, 1], dtype=np.int64)
"""Pips of a token value, indexable by the value (0 = no token)."""


def with_zero_column(numbers: np.ndarray) -> np.ndarray:
    """(B, n_hexes) -> (B, n_hexes + 1) with a trailing 0 for padded intersection indices."""
    return np.concatenate([numbers, np.zeros((numbers.shape[0], 1), numbers.dtype)], axis=1)


__all__ = [
    "DESERT",
    "LayoutArrays",
    "PIPS_TABLE",
    "layout_arrays",
    "maximal_cliques",
    "with_zero_column",
]
