"""Every board of a set, terrain layout by terrain layout: the exact list behind uniform draws
and exact counts for sets whose terrain layouts are few and whose tokens are tight.

A set like the 2019 seed's (96 tile layouts, then sums of three tokens below 23, different
numbers within a resource, ...) has too few boards for rejection from fair shuffles (one in
10^19) and too many search nodes for the kernel's general search (about 16 s per terrain
layout, some 25 minutes for its 603,188 boards). Split by terrain, each layout's tokens are
listed by :class:`~ludolab.research.catan.token_lister.TokenLister` (value by value, with a
matching check; its search runs in C, :mod:`~ludolab.research.catan.listers`), in well
under a tenth of a second per layout. Draws from the complete list are exactly uniform, and
its length is the exact count.

A complete list is kept in the cache folder (:func:`~ludolab.research.catan.space.cache_folder`)
under a digest of the set's rules and the layouts listed, so later runs on the same set read it
instead of searching.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ludolab.envs.catan.board import DESERT
from ludolab.research.catan.listers import list_tokens
from ludolab.research.catan.space import Space, cache_folder, rules_digest
from ludolab.research.catan.token_lister import TokenLister

LAYOUT_SLACK = 10  # one layout may take this many times its share of the node budget


@dataclass(frozen=True)
class TerrainListing:
    """What listing a set terrain layout by terrain layout found.

    Attributes:
        exhausted: every layout was searched to the end (``count`` is exact).
        count: boards found (all of them when ``exhausted``).
        boards: (k, 2 * n_hexes + n_slots) int8 rows (terrain, tokens, harbors), up to ``keep``.
        layouts: terrain layouts searched; ``per_layout``: boards found on each of them.
        nodes: search nodes visited in all.
        seconds: time spent searching (0 when the list was read from the cache).
        cached: the list was read from the cache folder.
        reason: why the listing stopped early, when it did.
    """

    exhausted: bool
    count: int
    boards: np.ndarray
    layouts: int
    per_layout: np.ndarray
    nodes: int
    seconds: float
    cached: bool = False
    reason: str = ""


def applies(space: Space) -> bool:
    """Whether the set searches the tokens, and the terrain or not, but not the harbors (free
    or given): the shape the terrain-by-terrain listing handles."""
    return space.numbers and not space.harbors and not space.tokens_given


def layouts(space: Space, listed: np.ndarray | None) -> np.ndarray | None:
    """The terrain layouts to list the tokens of: the ``listed`` ones when the set searches
    the terrain, else its one given terrain; None when the listing does not apply."""
    if not applies(space):
        return None
    if space.terrain:
        return listed
    return np.array([space.template()[0]], dtype=np.int8)


def list_by_terrain(
    space: Space,
    terrains: np.ndarray,
    *,
    keep: int,
    node_limit: int,
    layout_node_limit: int | None = None,
    board_limit: int = 0,
    status: Callable[[str], None] | None = None,
) -> TerrainListing:
    """List the boards of ``space`` over each of ``terrains`` ((m, n_hexes) terrain codes).

    Stops early (``exhausted`` False) when the search passes ``node_limit`` nodes in all or
    ``layout_node_limit`` on one layout (by default ``LAYOUT_SLACK`` times a layout's share of
    ``node_limit``), when after a few layouts the nodes spent so far say
    the whole would pass ``node_limit``, or when it has found more than ``board_limit`` boards
    (each 0 = no limit). Keeps up to ``keep`` boards. Reads a complete list from the cache when
    there is one, and writes one there when the search completes with every board kept.
    """
    if not applies(space):
        raise ValueError(
            f"{space.cset.label}: the terrain-by-terrain listing needs a set that searches "
            f"the tokens, and not the harbors"
        )
    say = status or (lambda line: None)
    if layout_node_limit is None:
        layout_node_limit = max(node_limit // len(terrains) * LAYOUT_SLACK, 1) if node_limit else 0
    terrains = np.ascontiguousarray(terrains, dtype=np.int8)
    key = hashlib.sha256(rules_digest(space, "boards-by-terrain/1").encode() + terrains.tobytes())
    path = cache_folder() / f"boards-{key.hexdigest()[:32]}.npz"
    with contextlib.suppress(OSError, ValueError, KeyError):
        with np.load(path) as saved:
            tokens, per_layout = saved["tokens"], saved["per_layout"]
        if len(per_layout) == len(terrains) and len(tokens) == per_layout.sum():
            terrain_rows = np.repeat(terrains, per_layout, axis=0)
            rows = _rows(space, terrain_rows[:keep], tokens[:keep])
            return TerrainListing(
                True, len(tokens), rows, len(terrains), per_layout, 0, 0.0, cached=True
            )
    _, multiset, _ = space.multisets
    harbors = space.template()[2]
    n_hexes = space.geo.layout.n_hexes
    start = time.perf_counter()
    kept: list[np.ndarray] = []
    owners: list[int] = []  # the layout of each kept block
    per_layout = np.zeros(len(terrains), dtype=np.int64)
    nodes = kept_count = 0
    reason = ""
    gc_was_on = gc.isenabled()
    gc.disable()  # the search allocates no cycles; collections only cost time here
    try:
        for i, row in enumerate(terrains):
            if i and i % 8 == 0:
                say(
                    f"listing boards by terrain layout: {i:,} of {len(terrains):,} layouts, "
                    f"{int(per_layout.sum()):,} boards"
                )
            terrain = [int(x) for x in row]
            lister = TokenLister(space.checker, terrain, list(harbors), list(multiset), DESERT)
            left = max(node_limit - nodes, 1) if node_limit else 0
            limit = min([x for x in (left, layout_node_limit) if x], default=0)  # 0: none
            found = list_tokens(lister, max(keep - kept_count, 0), limit)
            nodes += found.nodes
            per_layout[i] = found.found
            if len(found.rows):
                kept.append(found.rows)
                owners.append(i)
                kept_count += len(kept[-1])
            searched = i + 1
            if not found.finished:
                reason = f"layout {i} passed {limit:,} search nodes"
            elif board_limit and per_layout.sum() > board_limit:
                reason = f"more than {board_limit:,} boards"
            elif node_limit and searched >= 4 and nodes / searched * len(terrains) > node_limit:
                reason = (
                    f"{searched} layouts took {nodes:,} search nodes: all {len(terrains):,} "
                    f"would take about {nodes / searched * len(terrains):,.0f}, past "
                    f"{node_limit:,}"
                )
            if reason:
                break
    finally:
        if gc_was_on:
            gc.enable()
    tokens = np.concatenate(kept) if kept else np.zeros((0, n_hexes), dtype=np.int8)
    sizes = [len(k) for k in kept]
    terrain_rows = np.repeat(terrains[owners], sizes, axis=0) if kept else tokens
    count = int(per_layout.sum())
    listing = TerrainListing(
        not reason,
        count,
        _rows(space, terrain_rows, tokens),
        len(terrains),
        per_layout,
        nodes,
        time.perf_counter() - start,
        reason=reason,
    )
    if not reason and len(tokens) == count:
        with contextlib.suppress(OSError):
            from ludolab.research.files import write_atomic

            def save(tmp: str) -> None:
                with open(tmp, "wb") as out:
                    np.savez(out, tokens=tokens, per_layout=per_layout)

            write_atomic(path, save)
    return listing


def _rows(space: Space, terrain: np.ndarray, tokens: np.ndarray) -> np.ndarray:
    """(k, 2 * n_hexes + n_slots) int8 board rows: terrain, tokens, the set's harbors."""
    harbors = space.template()[2]
    n_hexes = space.geo.layout.n_hexes
    rows = np.empty((len(tokens), 2 * n_hexes + len(harbors)), dtype=np.int8)
    rows[:, :n_hexes] = terrain
    rows[:, n_hexes : 2 * n_hexes] = tokens
    rows[:, 2 * n_hexes :] = harbors
    return rows
