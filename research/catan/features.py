"""Board features: plain numbers describing a Catan setup, for analysis tables.

Every function takes a :class:`ludolab.envs.catan.board.Board` and returns numbers or numpy arrays;
:func:`board_features` bundles the scalar summaries into one flat ``dict[str, float]`` (one pandas
row per board). Units: *pips* are the dots on number tokens (ways out of 36 to roll the number:
2 and 12 -> 1, 6 and 8 -> 5, none on the desert); the standard board carries 58 pips.

Conventions:
    * The robber is ignored everywhere (it starts on the desert, which produces nothing anyway).
    * An intersection's *pips* is the sum of the pips of the 1-3 land hexes at its corner; its
      *diversity* is the number of distinct resources among those hexes (0-3).
    * "Inland" intersections touch three land hexes (24 on the standard board).

Per-layout index arrays are built once per layout name (``functools.cache``), so a feature row
costs well under a millisecond.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from ludolab.envs.catan.board import DESERT, RESOURCES, Board, pips
from ludolab.envs.catan.topology import load_layout

HOT_SPOT_PIPS = 13
"""An intersection with at least this many pips is a *hot spot* (e.g. 6-8-x with x >= 3 pips,
or 6-5-9): a start so rich that whoever gets it is clearly ahead."""

N_START_PICKS = 8
"""Settlements placed at setup in a 4-player game (4 players x 2)."""

# pips of token value n at index n (index 0 = no token); 7 never appears on a token.
_PIPS = np.array([pips(n) for n in range(13)], dtype=np.int64)


@dataclass(frozen=True)
class _Index:
    """Per-layout index arrays (read-only)."""

    n_hexes: int
    n_intersections: int
    corner_hexes: np.ndarray  # (n_int, 3) hex ids per intersection, padded with n_hexes
    inland: np.ndarray  # (n_int,) bool: touches three land hexes
    pair_a: np.ndarray  # (n_pairs,) first hex of each adjacent pair
    pair_b: np.ndarray  # (n_pairs,) second hex of each adjacent pair
    hex_neighbours: tuple[tuple[int, ...], ...]
    intersection_neighbours: tuple[tuple[int, ...], ...]
    harbor_hex_mask: np.ndarray  # (n_slots, n_hexes) bool: hex touches the slot's intersections
    hex_ring: np.ndarray  # (n_hexes,) hex distance from the axial origin


@cache
def _index(layout_name: str) -> _Index:
    layout = load_layout(layout_name)
    n_hex, n_int = layout.n_hexes, layout.n_intersections
    width = max(len(hs) for hs in layout.intersection_hexes)
    corner_hexes = np.full((n_int, width), n_hex, dtype=np.int64)
    for n, hs in enumerate(layout.intersection_hexes):
        corner_hexes[n, : len(hs)] = hs
    pairs = np.array(layout.adjacent_hex_pairs, dtype=np.int64).reshape(-1, 2)
    harbor_mask = np.zeros((len(layout.harbor_slots), n_hex), dtype=bool)
    for s in range(len(layout.harbor_slots)):
        for n in layout.harbor_intersections(s):
            harbor_mask[s, list(layout.intersection_hexes[n])] = True
    ring = np.array([max(abs(q), abs(r), abs(q + r)) for q, r in layout.hex_axial], dtype=np.int64)
    arrays = (corner_hexes, pairs, harbor_mask, ring)
    for a in arrays:
        a.setflags(write=False)
    inland = np.array([len(hs) == 3 for hs in layout.intersection_hexes], dtype=bool)
    inland.setflags(write=False)
    return _Index(
        n_hexes=n_hex,
        n_intersections=n_int,
        corner_hexes=corner_hexes,
        inland=inland,
        pair_a=pairs[:, 0].copy(),
        pair_b=pairs[:, 1].copy(),
        hex_neighbours=layout.hex_neighbours,
        intersection_neighbours=layout.intersection_neighbours,
        harbor_hex_mask=harbor_mask,
        hex_ring=ring,
    )


# ---------------------------------------------------------------------------------------------
# Per-hex and per-intersection arrays


def hex_pips(board: Board) -> np.ndarray:
    """Pips of each hex's token, shape (n_hexes,), int; 0 on the desert."""
    return _PIPS[np.asarray(board.numbers, dtype=np.int64)]


def intersection_pips(board: Board) -> np.ndarray:
    """Pips per intersection, shape (n_intersections,), int: the sum of the pips of the
    producing hexes at that corner (robber ignored). Sums to 6 x total pips (348 standard)."""
    idx = _index(board.layout)
    padded = np.append(hex_pips(board), 0)
    return padded[idx.corner_hexes].sum(axis=1)


def intersection_number_sums(board: Board) -> np.ndarray:
    """Sum of the token *values* (2..12, not pips) around each intersection, shape
    (n_intersections,), int; the desert and the sea count 0."""
    idx = _index(board.layout)
    padded = np.append(np.asarray(board.numbers, dtype=np.int64), 0)
    return padded[idx.corner_hexes].sum(axis=1)


def intersection_diversity(board: Board) -> np.ndarray:
    """Number of distinct resources (0-3) produced around each intersection, shape
    (n_intersections,), int. The desert produces nothing and does not count."""
    idx = _index(board.layout)
    t = np.append(np.asarray(board.terrain, dtype=np.int64), DESERT)[idx.corner_hexes]
    valid = t != DESERT
    # a column counts when it is a resource not already seen in an earlier column; a desert or
    # sea cell earlier never equals a resource code, so plain inequality is enough.
    count = valid[:, 0].astype(np.int64)
    for j in range(1, t.shape[1]):
        new = valid[:, j].copy()
        for k in range(j):
            new &= t[:, j] != t[:, k]
        count += new
    return count


def resource_pips(board: Board) -> dict[str, int]:
    """Total pips per resource, ``{resource: pips}`` for the 5 resources (sums to 58 on the
    standard board)."""
    totals = np.bincount(
        np.asarray(board.terrain, dtype=np.int64), weights=hex_pips(board), minlength=len(RESOURCES)
    )
    return {r: int(totals[i]) for i, r in enumerate(RESOURCES)}


def greedy_starts(board: Board, n_picks: int = N_START_PICKS) -> np.ndarray:
    """Intersections chosen by greedy start placement, shape (<= n_picks,), int, in pick order.

    Picks the richest intersection (most pips; ties broken by more distinct resources, then the
    lower index) that respects the distance rule against every earlier pick (not one of them nor
    adjacent to one), ``n_picks`` times: how 4 players x 2 settlements would settle if everyone
    wanted pips. The pips of the picks are non-increasing.
    """
    idx = _index(board.layout)
    ip = intersection_pips(board)
    div = intersection_diversity(board)
    order = np.lexsort((np.arange(idx.n_intersections), -div, -ip))
    blocked = np.zeros(idx.n_intersections, dtype=bool)
    picks: list[int] = []
    for n in order.tolist():
        if blocked[n]:
            continue
        picks.append(n)
        if len(picks) == n_picks:
            break
        blocked[n] = True
        blocked[list(idx.intersection_neighbours[n])] = True
    return np.array(picks, dtype=np.int64)


# ---------------------------------------------------------------------------------------------
# Clustering and adjacency


def resource_clusters(board: Board) -> dict[str, int]:
    """Size (in hexes) of the largest connected group of same-resource hexes, per resource."""
    idx = _index(board.layout)
    terrain = board.terrain
    seen = [False] * idx.n_hexes
    best = [0] * len(RESOURCES)
    for start in range(idx.n_hexes):
        t = terrain[start]
        if seen[start] or t == DESERT:
            continue
        seen[start] = True
        stack, size = [start], 0
        while stack:
            h = stack.pop()
            size += 1
            for g in idx.hex_neighbours[h]:
                if not seen[g] and terrain[g] == t:
                    seen[g] = True
                    stack.append(g)
        best[t] = max(best[t], size)
    return {r: best[i] for i, r in enumerate(RESOURCES)}


def adjacent_pair_counts(board: Board) -> dict[str, int]:
    """Counts over unordered pairs of adjacent land hexes (42 pairs on the standard board).

    Keys: ``same_resource`` (both the same resource; the desert never counts),
    ``red`` (both carry a 6 or an 8, forbidden by the official variable setup),
    ``same_number`` (both carry the same token value).
    """
    idx = _index(board.layout)
    t = np.asarray(board.terrain, dtype=np.int64)
    n = np.asarray(board.numbers, dtype=np.int64)
    ta, tb = t[idx.pair_a], t[idx.pair_b]
    na, nb = n[idx.pair_a], n[idx.pair_b]
    red_a = (na == 6) | (na == 8)
    red_b = (nb == 6) | (nb == 8)
    return {
        "same_resource": int(np.count_nonzero((ta == tb) & (ta != DESERT))),
        "red": int(np.count_nonzero(red_a & red_b)),
        "same_number": int(np.count_nonzero((na == nb) & (na != 0))),
    }


# ---------------------------------------------------------------------------------------------
# Harbors and desert


def harbor_pips(board: Board) -> dict[str, np.ndarray]:
    """Per harbor slot, shape (n_slots,) each, int:

    ``touch``: pips of the distinct land hexes touching the harbor's two intersections
        (what a settlement on the harbor can produce, over both spots);
    ``own``: of those, the pips of hexes of the harbor's own resource (0 for a 3:1 harbor);
    ``resource``: total board pips of the harbor's resource (0 for a 3:1 harbor);
    ``type``: the harbor-type code (0 = generic 3:1, k = 2:1 of ``RESOURCES[k - 1]``).
    """
    idx = _index(board.layout)
    hp = hex_pips(board)
    mask = idx.harbor_hex_mask
    htype = np.asarray(board.harbors, dtype=np.int64)
    terrain = np.asarray(board.terrain, dtype=np.int64)
    own_mask = mask & (terrain[None, :] == (htype[:, None] - 1))  # generic: -1 matches nothing
    res_totals = np.bincount(terrain, weights=hp, minlength=DESERT + 1).astype(np.int64)
    return {
        "touch": mask.astype(np.int64) @ hp,
        "own": own_mask.astype(np.int64) @ hp,
        "resource": np.where(htype > 0, res_totals[np.maximum(htype - 1, 0)], 0),
        "type": htype,
    }


def hex_ring(board: Board, hex_id: int) -> int:
    """Ring of a hex: hex distance from the axial origin (standard board: 0 = centre,
    1 = inner ring, 2 = coast)."""
    return int(_index(board.layout).hex_ring[hex_id])


def desert_ring(board: Board) -> int:
    """Ring (see :func:`hex_ring`) of the first desert hex; -1 if the board has no desert."""
    if DESERT not in board.terrain:
        return -1
    return hex_ring(board, board.terrain.index(DESERT))


# ---------------------------------------------------------------------------------------------
# The feature row

FEATURE_DOCS: dict[str, str] = {
    **{f"resource_pips_{r}": f"total pips on {r} hexes" for r in RESOURCES},
    "resource_pips_std": "population std of the 5 per-resource pip totals",
    "int_pips_max": "most pips at any intersection (= the best single start)",
    "int_pips_std": "std of pips over all intersections",
    "inland_pips_max": "most pips at a three-hex (inland) intersection",
    "inland_pips_std": "std of pips over the three-hex (inland) intersections",
    "int_number_sum_max": "largest sum of token values (not pips) around an intersection",
    "hot_spot_count": f"intersections with at least {HOT_SPOT_PIPS} pips",
    "diverse3_count": "intersections touching three different resources",
    "start_top8_mean": "mean pips of the 8 greedy distance-rule starts (see greedy_starts)",
    "start_top8_std": "population std of the pips of those 8 starts",
    "start_top8_spread": "pips of the 1st greedy start minus pips of the 8th",
    "start_pick8_pips": "pips of the 8th greedy start (the worst of the 8)",
    "start_top8_diversity_mean": "mean distinct resources (0-3) at the 8 greedy starts",
    "start_seat_pips_spread": (
        "max - min over 4 seats of summed start pips when the 8 greedy starts are dealt "
        "in snake order (seat 0 gets picks 1 and 8, seat 3 picks 4 and 5)"
    ),
    "same_resource_adjacent_pairs": "adjacent hex pairs with the same resource",
    "largest_cluster": "largest connected group of same-resource hexes (hexes)",
    **{f"cluster_max_{r}": f"largest connected group of {r} hexes" for r in RESOURCES},
    "red_adjacent_pairs": "adjacent hex pairs both carrying a 6 or an 8",
    "same_number_adjacent_pairs": "adjacent hex pairs carrying the same number",
    "harbor_touch_pips_mean": "mean over all harbors of the pips of hexes touching the harbor",
    "generic_harbor_touch_pips_mean": "same, over the 3:1 harbors",
    "special_harbor_touch_pips_mean": "same, over the 2:1 harbors",
    "special_harbor_own_count": "2:1 harbors touching at least one hex of their own resource",
    "special_harbor_own_pips_mean": (
        "mean over 2:1 harbors of the pips of own-resource hexes touching the harbor"
    ),
    "special_harbor_own_pips_max": "the best such 2:1 harbor-and-own-resource combination (pips)",
    "desert_ring": "ring of the desert: 0 centre, 1 inner ring, 2 coast",
}
"""Every key of :func:`board_features` with a one-line meaning (units: pips unless stated)."""

FEATURE_NAMES: tuple[str, ...] = tuple(FEATURE_DOCS)


def board_features(board: Board) -> dict[str, float]:
    """All scalar features of one board as a flat dict (keys: :data:`FEATURE_NAMES`, meanings:
    :data:`FEATURE_DOCS`); values are finite floats."""
    idx = _index(board.layout)
    out: dict[str, float] = {}

    rp = resource_pips(board)
    for r, v in rp.items():
        out[f"resource_pips_{r}"] = v
    out["resource_pips_std"] = float(np.std(list(rp.values())))

    ip = intersection_pips(board)
    inland = ip[idx.inland]
    out["int_pips_max"] = int(ip.max())
    out["int_pips_std"] = float(ip.std())
    out["inland_pips_max"] = int(inland.max()) if inland.size else 0
    out["inland_pips_std"] = float(inland.std()) if inland.size else 0.0
    out["int_number_sum_max"] = int(intersection_number_sums(board).max())
    out["hot_spot_count"] = int(np.count_nonzero(ip >= HOT_SPOT_PIPS))
    div = intersection_diversity(board)
    out["diverse3_count"] = int(np.count_nonzero(div == 3))

    picks = greedy_starts(board, N_START_PICKS)
    pp = ip[picks]
    out["start_top8_mean"] = float(pp.mean())
    out["start_top8_std"] = float(pp.std())
    out["start_top8_spread"] = int(pp.max() - pp.min())
    out["start_pick8_pips"] = int(pp[-1])
    out["start_top8_diversity_mean"] = float(div[picks].mean())
    if len(pp) == N_START_PICKS:
        seats = pp[:4] + pp[::-1][:4]
        out["start_seat_pips_spread"] = int(seats.max() - seats.min())
    else:  # fewer legal starts than settlements: cannot happen on real layouts
        out["start_seat_pips_spread"] = float("nan")

    pairs = adjacent_pair_counts(board)
    clusters = resource_clusters(board)
    out["same_resource_adjacent_pairs"] = pairs["same_resource"]
    out["largest_cluster"] = max(clusters.values())
    for r, v in clusters.items():
        out[f"cluster_max_{r}"] = v
    out["red_adjacent_pairs"] = pairs["red"]
    out["same_number_adjacent_pairs"] = pairs["same_number"]

    hq = harbor_pips(board)
    generic = hq["type"] == 0
    special = ~generic
    out["harbor_touch_pips_mean"] = float(hq["touch"].mean())
    out["generic_harbor_touch_pips_mean"] = _mean(hq["touch"][generic])
    out["special_harbor_touch_pips_mean"] = _mean(hq["touch"][special])
    own = hq["own"][special]
    out["special_harbor_own_count"] = int(np.count_nonzero(own > 0))
    out["special_harbor_own_pips_mean"] = _mean(own)
    out["special_harbor_own_pips_max"] = int(own.max()) if own.size else 0

    out["desert_ring"] = desert_ring(board)
    return {k: float(out[k]) for k in FEATURE_NAMES}


def _mean(a: np.ndarray) -> float:
    return float(a.mean()) if a.size else 0.0
