"""Board topology: hexes, intersections, paths and the coast, derived from layout data.

A layout is data (a JSON file under ``envs/catan/layouts/``): the axial coordinates of the land
hexes, the tile and token counts, and where the harbors sit on the coast. Everything else —
54 intersections, 72 paths, adjacency, the 30 coastal paths of the standard board — is derived
here, so a new layout (the 5-6 player board, say) is a new JSON file, not new code.

Geometry: pointy-top hexes in axial coordinates (q, r) with r growing downward. Positions use
exact integers: a hex centre is at (2q + r, 3r) in units of (sqrt(3)/2, 1/2) hex radii, so
corners land on integer points and can be matched without floating-point tolerance.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from math import sqrt
from pathlib import Path

# Corner offsets of a hex, clockwise from the top, in the integer units above.
_CORNER_OFFSETS = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))
# Axial neighbour directions, clockwise from the east.
_NEIGHBOUR_DIRECTIONS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


class LayoutError(ValueError):
    """A layout file is malformed."""


@dataclass(frozen=True)
class Layout:
    """The static facts of one board shape. All indices are 0-based ints; tuples are immutable.

    Attributes:
        name: layout name, e.g. ``"standard"``.
        hex_axial: (q, r) of each land hex; hexes are numbered in reading order.
        hex_neighbours: for each hex, the adjacent land hexes (sorted).
        hex_intersections: for each hex, its 6 corners clockwise from the top.
        intersection_hexes: for each intersection, the 1-3 land hexes touching it (sorted).
        intersection_neighbours: for each intersection, the intersections one path away.
        intersection_paths: for each intersection, the paths ending there.
        paths: (a, b) intersection pairs with a < b.
        path_hexes: for each path, the 1-2 land hexes it borders.
        coast: coastal paths (bordering one land hex) in clockwise order.
        harbor_slots: the coastal paths where harbors sit (indices into ``paths``).
        resource_counts: terrain name -> number of hexes (desert included).
        number_counts: token value -> number of tokens.
        harbor_counts: harbor type -> number of harbors.
        seed_grid: (row, col), 1-based, of each hex in the 2019 seed's 5x5 array, or None.
        intersection_xy / hex_xy: drawing positions in hex radii (x right, y down).
    """

    name: str
    hex_axial: tuple[tuple[int, int], ...]
    hex_neighbours: tuple[tuple[int, ...], ...]
    hex_intersections: tuple[tuple[int, ...], ...]
    intersection_hexes: tuple[tuple[int, ...], ...]
    intersection_neighbours: tuple[tuple[int, ...], ...]
    intersection_paths: tuple[tuple[int, ...], ...]
    paths: tuple[tuple[int, int], ...]
    path_hexes: tuple[tuple[int, ...], ...]
    coast: tuple[int, ...]
    harbor_slots: tuple[int, ...]
    resource_counts: dict[str, int]
    number_counts: dict[int, int]
    harbor_counts: dict[str, int]
    seed_grid: tuple[tuple[int, int], ...] | None
    hex_xy: tuple[tuple[float, float], ...]
    intersection_xy: tuple[tuple[float, float], ...]

    @property
    def n_hexes(self) -> int:
        return len(self.hex_axial)

    @property
    def n_intersections(self) -> int:
        return len(self.intersection_hexes)

    @property
    def n_paths(self) -> int:
        return len(self.paths)

    @property
    def adjacent_hex_pairs(self) -> tuple[tuple[int, int], ...]:
        """Every unordered pair of adjacent land hexes, (a, b) with a < b."""
        return tuple((a, b) for a, ns in enumerate(self.hex_neighbours) for b in ns if a < b)

    def harbor_intersections(self, slot: int) -> tuple[int, int]:
        """The two coastal intersections served by harbor slot ``slot``."""
        return self.paths[self.harbor_slots[slot]]


def build_layout(spec: dict, source: str = "<layout>") -> Layout:
    """Derive a :class:`Layout` from its JSON description (see ``layouts/standard.json``)."""
    try:
        axial = tuple((int(q), int(r)) for q, r in spec["hexes"]["axial"])
        resource_counts = {str(k): int(v) for k, v in spec["resource_counts"].items()}
        number_counts = {int(k): int(v) for k, v in spec["number_counts"].items()}
        harbor_counts = {str(k): int(v) for k, v in spec["harbor_counts"].items()}
        slot_positions = [int(i) for i in spec["harbor_slots"]["printed_frame"]]
        name = str(spec["name"])
    except (KeyError, TypeError, ValueError) as exc:
        raise LayoutError(
            f"{source}: malformed layout ({exc!r}); see layouts/standard.json"
        ) from exc
    if len(set(axial)) != len(axial):
        raise LayoutError(f"{source}: field 'hexes.axial' lists a hex twice")
    if sum(resource_counts.values()) != len(axial):
        raise LayoutError(
            f"{source}: field 'resource_counts' sums to {sum(resource_counts.values())}, "
            f"but there are {len(axial)} hexes"
        )
    n_producing = len(axial) - resource_counts.get("desert", 0)
    if sum(number_counts.values()) != n_producing:
        raise LayoutError(
            f"{source}: field 'number_counts' sums to {sum(number_counts.values())}, "
            f"but {n_producing} hexes produce"
        )

    index = {h: i for i, h in enumerate(axial)}
    hex_neighbours = tuple(
        tuple(
            sorted(
                index[(q + dq, r + dr)]
                for dq, dr in _NEIGHBOUR_DIRECTIONS
                if (q + dq, r + dr) in index
            )
        )
        for q, r in axial
    )

    # Corners as exact integer points; intersections numbered top to bottom, left to right.
    centres = [(2 * q + r, 3 * r) for q, r in axial]
    corner_points = [[(x + dx, y + dy) for dx, dy in _CORNER_OFFSETS] for x, y in centres]
    points = sorted({p for corners in corner_points for p in corners}, key=lambda p: (p[1], p[0]))
    point_index = {p: i for i, p in enumerate(points)}
    hex_intersections = tuple(tuple(point_index[p] for p in cs) for cs in corner_points)

    intersection_hexes_l: list[list[int]] = [[] for _ in points]
    for h, corners in enumerate(hex_intersections):
        for n in corners:
            intersection_hexes_l[n].append(h)

    path_set: dict[tuple[int, int], list[int]] = {}
    for h, corners in enumerate(hex_intersections):
        for k in range(6):
            a, b = corners[k], corners[(k + 1) % 6]
            path_set.setdefault((min(a, b), max(a, b)), []).append(h)
    paths = tuple(sorted(path_set))
    path_hexes = tuple(tuple(sorted(path_set[p])) for p in paths)

    intersection_neighbours_l: list[set[int]] = [set() for _ in points]
    intersection_paths_l: list[list[int]] = [[] for _ in points]
    for e, (a, b) in enumerate(paths):
        intersection_neighbours_l[a].add(b)
        intersection_neighbours_l[b].add(a)
        intersection_paths_l[a].append(e)
        intersection_paths_l[b].append(e)

    coast = _walk_coast(paths, path_hexes, hex_intersections)
    if any(not 0 <= i < len(coast) for i in slot_positions):
        raise LayoutError(
            f"{source}: field 'harbor_slots.printed_frame' must index 0..{len(coast) - 1}"
        )
    harbor_slots = tuple(coast[i] for i in slot_positions)
    if len(harbor_slots) != sum(harbor_counts.values()):
        raise LayoutError(
            f"{source}: {len(harbor_slots)} harbor slots but 'harbor_counts' sums to "
            f"{sum(harbor_counts.values())}"
        )
    used = [n for e in harbor_slots for n in paths[e]]
    if len(set(used)) != len(used):
        raise LayoutError(f"{source}: two harbor slots share an intersection")

    seed_grid = None
    if "seed_grid_offset" in spec:
        row0, col0 = int(spec["seed_grid_offset"]["row"]), int(spec["seed_grid_offset"]["col"])
        seed_grid = tuple((r + row0, q + r + col0) for q, r in axial)

    unit_x, unit_y = sqrt(3) / 2, 0.5
    return Layout(
        name=name,
        hex_axial=axial,
        hex_neighbours=hex_neighbours,
        hex_intersections=hex_intersections,
        intersection_hexes=tuple(tuple(sorted(hs)) for hs in intersection_hexes_l),
        intersection_neighbours=tuple(tuple(sorted(ns)) for ns in intersection_neighbours_l),
        intersection_paths=tuple(tuple(ps) for ps in intersection_paths_l),
        paths=paths,
        path_hexes=path_hexes,
        coast=coast,
        harbor_slots=harbor_slots,
        resource_counts=resource_counts,
        number_counts=number_counts,
        harbor_counts=harbor_counts,
        seed_grid=seed_grid,
        hex_xy=tuple((x * unit_x, y * unit_y) for x, y in centres),
        intersection_xy=tuple((x * unit_x, y * unit_y) for x, y in points),
    )


def _walk_coast(
    paths: tuple[tuple[int, int], ...],
    path_hexes: tuple[tuple[int, ...], ...],
    hex_intersections: tuple[tuple[int, ...], ...],
) -> tuple[int, ...]:
    """Coastal paths in clockwise order, starting at the upper-left side of hex 0."""
    coastal = [e for e, hs in enumerate(path_hexes) if len(hs) == 1]
    by_node: dict[int, list[int]] = {}
    for e in coastal:
        for n in paths[e]:
            by_node.setdefault(n, []).append(e)
    # Hex 0's corners run clockwise from the top: its upper-left side joins corner 5 to corner 0,
    # and walking it from corner 5 towards corner 0 goes clockwise around the island.
    upper_left, top = hex_intersections[0][5], hex_intersections[0][0]
    start = paths.index((min(upper_left, top), max(upper_left, top)))
    order, node, edge = [start], top, start
    while True:
        nxt = next(e for e in by_node[node] if e != edge)
        if nxt == start:
            break
        order.append(nxt)
        a, b = paths[nxt]
        node, edge = (b if a == node else a), nxt
    if len(order) != len(coastal):
        raise LayoutError("the land hexes do not form one island with a single coastline")
    return tuple(order)


@cache
def load_layout(name_or_path: str = "standard") -> Layout:
    """Load a layout by name (a file shipped in ``envs/catan/layouts``) or by path."""
    path = Path(name_or_path)
    if path.suffix == ".json" and path.exists():
        text, source = path.read_text(), str(path)
    else:
        shipped = resources.files("ludolab.envs.catan") / "layouts" / f"{name_or_path}.json"
        if not shipped.is_file():
            known = sorted(
                p.name.removesuffix(".json")
                for p in (resources.files("ludolab.envs.catan") / "layouts").iterdir()
                if p.name.endswith(".json")
            )
            raise LayoutError(f"unknown layout {name_or_path!r}; known layouts: {', '.join(known)}")
        text, source = shipped.read_text(), f"layouts/{name_or_path}.json"
    try:
        spec = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LayoutError(f"{source}: not valid JSON: {exc}") from exc
    return build_layout(spec, source)
