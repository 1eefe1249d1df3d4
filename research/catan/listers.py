"""Depth-first listings run in C (the extension ``_listers``, built from ``listers.c``) when it
is built and current, else by the Python they stand in for.

* :func:`list_tokens`: a :class:`~ludolab.research.catan.token_lister.TokenLister`'s search,
  the same search over the same tables, listing the same layouts in the same order
  (``tests/test_listers.py``), ten to twenty times faster: the 2019 seed's 603,188 boards
  take seconds to list on a new machine, not a minute and a half.
* :func:`list_terrain`: the terrain layouts of a set whose terrain rules are pairs, triples and
  single hexes (``balanced``: 188,160 layouts), hex by hex in increasing order, where the
  kernel's general search (:func:`~ludolab.research.catan.space.enumerate_space`) would take
  seconds; ``space.terrain_layouts`` sorts that search's layouts so that both give one list.

``LUDOLAB_PURE_PYTHON=1`` runs the Python, as it does for the mypyc modules; so does a C source
edited since the extension was built (with a warning), the source being the reference.

In :func:`list_tokens`, every layout the search completes is checked by every rule of the set
(``Checker.full``) when the set has rules on tokens that the search does not prune by (triples,
counts, per-resource sums, best hexes). Otherwise a complete layout satisfies every rule on
tokens by construction, and the rules left (on terrain and harbors, both fixed there) hold for
all of the layout's boards or for none: one board is checked for them all.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType

import numpy as np

from ludolab.envs.compiled import c_extension
from ludolab.research.catan.kernel import (
    KIND_TERRAIN,
    PART_HARBORS,
    PART_NUMBERS,
    PART_TERRAIN,
    Checker,
)
from ludolab.research.catan.token_lister import TokenLister

SOURCE = Path(__file__).with_name("listers.c")


@dataclass(frozen=True)
class Layouts:
    """What one search found: ``finished`` (False: it stopped at a limit), the layouts that
    count (``found``), the search nodes, and up to the asked number of layouts, ``rows``
    (k, n_hexes) int8 (tokens or terrain codes)."""

    finished: bool
    found: int
    nodes: int
    rows: np.ndarray


@cache
def native() -> ModuleType | None:
    """The C extension, when it is built, current and not switched off; else None."""
    return c_extension(
        "ludolab.research.catan._listers", SOURCE, "the listings run in Python"
    )


def prunes_every_token_rule(ck: Checker, deserts: list[int]) -> bool:
    """Whether every rule of ``ck`` that reads tokens is one the search prunes by exactly
    (pair rules forbidding token or tile pairs, upper bounds on group sums, token domains), so
    that a layout it completes needs no check of its own."""
    if any(k != KIND_TERRAIN and lo >= 0 for k, lo in zip(ck.pair_kind, ck.pair_lo, strict=True)):
        return False  # counts of token pairs
    if any(k != KIND_TERRAIN for k in ck.tri_kind) or ck.res_list or ck.best_touch:
        return False
    # The deserts' 0 is placed without a look at the domain the unary rules give.
    return all(allowed[0] for h in deserts for allowed in ck.unary[PART_NUMBERS][h])


def token_tables(lister: TokenLister) -> tuple[array, ...]:
    """The lister's tables, flat int32 arrays in the order ``_listers.tokens`` reads them."""
    partner_start, partner_list = _flat(lister.partners)
    g_hex_start, g_hex_list = _flat(lister.g_hexes)
    g_cap_start, g_cap_list = _flat(lister.g_cap_mask)
    hexg_start, hexg_list = _flat(lister.hex_groups)
    return (
        _i32(lister.left),
        _i32(lister.dom),
        _i32([int(x) for x in lister.open]),
        _i32(lister.deserts),
        _i32(lister.forbid),
        partner_start,
        partner_list,
        g_hex_start,
        g_hex_list,
        _i32(lister.g_const),
        _i32([w for weight in lister.g_weight for w in weight]),
        _i32([v for order in lister.g_order for v in order]),
        _i32(lister.g_hi),
        _i32(lister.g_top),
        g_cap_start,
        g_cap_list,
        hexg_start,
        hexg_list,
        _i32(lister.priority),
        _i32(lister.clash),
    )


def _flat(rows: list[list[int]]) -> tuple[array, array]:
    """Ragged rows as (starts, values): row i is values[starts[i]:starts[i + 1]]."""
    starts = array("i", [0])
    for row in rows:
        starts.append(starts[-1] + len(row))
    return starts, array("i", [x for row in rows for x in row])


def _i32(values: list[int]) -> array:
    return array("i", values)


def list_tokens(
    lister: TokenLister, keep: int, node_limit: int, *, use_native: bool = True
) -> Layouts:
    """Run ``lister``'s search (keeping up to ``keep`` layouts; ``node_limit`` 0 = none), in C
    when it can (``use_native``) and in Python otherwise."""
    h_count = lister.h_count
    ck, t, hb = lister.ck, lister.t, lister.hb
    module = native() if use_native else None
    if module is None:
        finished = lister.run(keep, node_limit)
        tokens = np.array(lister.kept, dtype=np.int8).reshape(-1, h_count)
        return Layouts(finished, lister.found, lister.nodes, tokens)
    exact = prunes_every_token_rule(ck, lister.deserts)
    check = None if exact else (lambda n: ck.full(t, n, hb))
    finished, found, nodes, kept = module.tokens(
        h_count, token_tables(lister), max(keep, 1) if exact else keep, node_limit, check
    )
    tokens = np.frombuffer(kept, dtype=np.int8).reshape(-1, h_count)
    if exact and found and not ck.full(t, [int(x) for x in tokens[0]], hb):
        found, tokens = 0, tokens[:0]  # the fixed terrain or harbors break a rule
    return Layouts(finished, found, nodes, tokens[:keep].copy())


def lists_terrain(ck: Checker) -> bool:
    """Whether :func:`list_terrain` takes the rules of ``ck`` (a set's terrain-only rules):
    pair rules and triples on terrain codes, and single hexes, nothing else."""
    if any(k != KIND_TERRAIN or lo >= 0 for k, lo in zip(ck.pair_kind, ck.pair_lo, strict=True)):
        return False
    if any(k != KIND_TERRAIN for k in ck.tri_kind) or ck.group_hi or ck.res_list:
        return False
    if ck.touch or ck.slot_table or ck.best_touch:
        return False
    return not any(here for part in (PART_NUMBERS, PART_HARBORS) for here in ck.unary[part])


def terrain_tables(ck: Checker, tiles: list[int], codes: int) -> tuple[array, ...]:
    """The tables ``_listers.terrain`` reads, from the checker of terrain-only rules ``ck``
    (:func:`lists_terrain`) and the layout's tiles (a multiset of ``codes`` terrain codes)."""
    h_count = ck.n_hexes
    left = [0] * codes
    for c in tiles:
        left[c] += 1
    dom = []
    for h in range(h_count):
        mask = (1 << codes) - 1
        for allowed in ck.unary[PART_TERRAIN][h]:
            mask &= sum(1 << c for c in range(codes) if allowed[c])
        dom.append(mask)
    # forbid[(p * codes + c) * h_count + q], for q after p: what c at p forbids at q.
    forbid = [0] * (h_count * codes * h_count)
    for r in range(len(ck.pair_kind)):
        size, table = ck.pair_size[r], ck.pair_table[r]
        for a, b in zip(ck.pair_a[r], ck.pair_b[r], strict=True):
            for c in range(codes):
                for d in range(codes):
                    if a < b and table[c * size + d]:
                        forbid[(a * codes + c) * h_count + b] |= 1 << d
                    elif b < a and table[d * size + c]:
                        forbid[(b * codes + c) * h_count + a] |= 1 << d
    partners = [
        [
            q
            for q in range(p + 1, h_count)
            if any(forbid[(p * codes + c) * h_count + q] for c in range(codes))
        ]
        for p in range(h_count)
    ]
    # Triples: each instance is checked when its last hex is placed.
    completes: list[list[int]] = [[] for _ in range(h_count)]
    instances: list[int] = []
    flags: list[int] = []
    for r in range(len(ck.tri_kind)):
        size, table = ck.tri_size[r], ck.tri_table[r]
        offset = len(flags)
        flags += [
            int(table[(a * size + b) * size + c])
            for a in range(codes)
            for b in range(codes)
            for c in range(codes)
        ]
        hexes = ck.tri_hexes[r]
        for k in range(len(hexes) // 3):
            x, y, z = hexes[3 * k : 3 * k + 3]
            completes[max(x, y, z)].append(len(instances) // 4)
            instances += [x, y, z, offset]
    partner_start, partner_list = _flat(partners)
    tri_start, tri_list = _flat(completes)
    return (
        _i32(left),
        _i32(dom),
        _i32(forbid),
        partner_start,
        partner_list,
        tri_start,
        tri_list,
        _i32(instances),
        _i32(flags),
    )


def list_terrain(
    ck: Checker, tiles: list[int], codes: int, limit: int, node_limit: int
) -> Layouts | None:
    """Every terrain layout of the rules of ``ck`` (terrain-only; see :func:`lists_terrain`)
    over the multiset ``tiles``, in increasing order, up to ``limit`` of them (``finished``
    False past ``limit`` layouts or ``node_limit`` nodes, 0 = none); None when the C extension
    does not run or the rules are not of the kinds it takes."""
    module = native()
    if module is None or not lists_terrain(ck):
        return None
    finished, found, nodes, kept = module.terrain(
        ck.n_hexes, codes, terrain_tables(ck, tiles, codes), limit, node_limit
    )
    rows = np.frombuffer(kept, dtype=np.int8).reshape(-1, ck.n_hexes).copy()
    return Layouts(finished, found, nodes, rows)
