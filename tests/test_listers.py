"""The listings in C (research/catan/listers.c) against the Python they stand in for.

The token search must be the token lister's search step for step: the same layouts in the same
order, the same node count, the same stop at a node limit. The terrain listing must give the
kernel's general search's layouts, sorted. Both must give way to the Python when asked to, or
when their source changed since they were built.
"""

from __future__ import annotations

import hashlib
import os
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludolab.envs.catan.board import DESERT, HARBOR_TYPES, TERRAINS
from ludolab.envs.compiled import PURE_PYTHON_ENV
from ludolab.research.catan import listers
from ludolab.research.catan.constraint_set import load_constraint_set, parse_constraint_set
from ludolab.research.catan.samplers import fair_board
from ludolab.research.catan.space import Space, enumerate_space, terrain_layouts
from ludolab.research.catan.token_lister import TokenLister

RUNNING_SOURCE = os.environ.get(PURE_PYTHON_ENV, "") not in ("", "0")
needs_c = pytest.mark.skipif(
    RUNNING_SOURCE or listers.native() is None,
    reason="the C listings are not built, or the Python source runs by request",
)
TOKEN_RULES = [
    {"name": "no-equal-numbers-adjacent", "neighbourhood": "seed-2019-block"},
    {"name": "red-numbers-apart", "neighbourhood": "seed-2019-block"},
    {"name": "different-numbers-within-resource"},
    {"name": "red-numbers-on-different-resources"},
    {"name": "no-equal-numbers-adjacent"},
    {"name": "red-numbers-apart"},
]


def a_set(constraints: list[dict]):
    return parse_constraint_set({"name": "t", "constraint": constraints}, "t", "t", {})


def on_terrain(seed: int, rules: list[dict]) -> tuple[Space, list[int]]:
    terrain = [int(t) for t in fair_board(seed).terrain]
    fixed = {"name": "fixed", "terrain": [TERRAINS[t] for t in terrain]}
    return Space.of(a_set([fixed, *rules])), terrain


def both_searches(space: Space, terrain: list[int], keep: int, node_limit: int):
    _, tokens, harbors = space.multisets

    def lister() -> TokenLister:
        return TokenLister(space.checker, terrain, list(harbors), list(tokens), DESERT)

    c = listers.list_tokens(lister(), keep, node_limit)
    python = listers.list_tokens(lister(), keep, node_limit, use_native=False)
    return c, python


def assert_same(c: listers.Layouts, python: listers.Layouts) -> None:
    assert (c.finished, c.found, c.nodes) == (python.finished, python.found, python.nodes)
    assert c.rows.shape == python.rows.shape and (c.rows == python.rows).all()


@needs_c
def test_the_build_made_the_c_listings() -> None:
    """A failed compile of listers.c does not pass unnoticed (CI installs as users do)."""
    module = listers.native()
    source = hashlib.sha256(listers.SOURCE.read_bytes()).hexdigest()
    assert module is not None and source == module.SOURCE_SHA256


@needs_c
@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    rules=st.lists(st.sampled_from(range(len(TOKEN_RULES))), unique=True),
    threshold=st.integers(20, 25),
    node_limit=st.sampled_from([0, 0, 500, 20_000]),
    keep=st.sampled_from([0, 7, 10**6]),
)
def test_the_c_token_search_is_the_python_search_step_for_step(
    seed, rules, threshold, node_limit, keep
) -> None:
    marker = {"name": "seed-2019-marker-threshold", "threshold": threshold}
    space, terrain = on_terrain(seed, [*(TOKEN_RULES[i] for i in rules), marker])
    c, python = both_searches(space, terrain, keep, node_limit or 200_000)
    assert_same(c, python)


@needs_c
@pytest.mark.parametrize(
    "extra",
    [
        {"name": "resource-pips", "resources": ["ore", "grain"], "min": 9, "max": 12},  # sums
        {"name": "equal-resource-pairs", "max": 9},  # a pair count on terrain: constant here
        {"name": "intersection-cap", "measure": "pips", "max": 11},  # group sums, pruned
    ],
)
def test_rules_the_c_search_does_not_prune_by_are_checked_on_every_layout(extra) -> None:
    marker = {"name": "seed-2019-marker-threshold", "threshold": 23}
    space, terrain = on_terrain(5, [*TOKEN_RULES[:4], marker, extra])
    c, python = both_searches(space, terrain, 10**6, 3_000_000)
    assert_same(c, python)
    assert c.finished and c.found
    rows = np.asarray(c.rows)
    t = np.tile(np.array(terrain, dtype=np.int8), (len(rows), 1))
    harbors = np.tile(np.array(space.template()[2], dtype=np.int8), (len(rows), 1))
    assert space.cset.check(t, rows, harbors).all()


@needs_c
def test_fixed_parts_that_break_a_rule_leave_no_layout() -> None:
    """Rules on the fixed terrain and harbors hold for every token layout or for none: the C
    search checks one layout for them, and must find none where the Python finds none."""
    fixed = load_constraint_set("seed-2019-markers").constraints[0]
    terrain = [int(code) for code in fixed.values["terrain"]]
    seed_board = [TERRAINS[code] for code in terrain]
    harbors = ["generic"] * 4 + ["brick", "lumber", "wool", "grain", "ore"]
    assert sorted(harbors) == sorted(HARBOR_TYPES[i] for i in fair_board(0).harbors)
    rules = [
        *TOKEN_RULES[:4],
        {"name": "seed-2019-marker-threshold", "threshold": 23},
        {"name": "harbor-spacing", "types": ["generic"], "gap": 1},  # four side by side: no
    ]
    broken = Space.of(a_set([{"name": "fixed", "terrain": seed_board, "harbors": harbors}, *rules]))
    c, python = both_searches(broken, terrain, 10, 0)
    assert c.finished and python.finished and c.nodes == python.nodes > 1000
    assert python.found == 0 and c.found == 0 and len(c.rows) == 0
    kept = Space.of(a_set([{"name": "fixed", "terrain": seed_board}, *rules[:-1]]))
    c, python = both_searches(kept, terrain, 10, 0)
    assert c.found == python.found == 11_753 and len(c.rows) == 10


TERRAIN_SETS = {
    "balanced": None,
    "seed-2019-tiles": None,
    "desert in the centre, brick and lumber apart, no resource triangles": [
        {"name": "desert-placement", "rings": [0, 1]},
        {"name": "resources-never-adjacent", "resources": ["brick", "lumber"]},
        {"name": "no-equal-resources-adjacent", "resources": ["ore", "grain", "wool"]},
        {"name": "no-resource-triangles"},
    ],
}


@needs_c
@pytest.mark.parametrize("name", TERRAIN_SETS)
def test_the_c_terrain_listing_is_the_general_search_sorted(name) -> None:
    constraints = TERRAIN_SETS[name]
    cset = load_constraint_set(name) if constraints is None else a_set(constraints)
    space = Space.of(cset).terrain_only()
    assert listers.lists_terrain(space.checker)
    c = listers.list_terrain(space.checker, space.multisets[0], len(TERRAINS), 10**6, 0)
    general = enumerate_space(space, keep=10**6)
    rows = general.boards[:, : len(space.multisets[0])]
    rows = rows[np.lexsort(rows.T[::-1])]
    assert c is not None and c.finished and general.exhausted
    assert c.found == general.count == len(c.rows) and (c.rows == rows).all()
    assert space.cset.check(c.rows, np.zeros_like(c.rows), np.zeros((len(c.rows), 9))).all()


@needs_c
def test_the_c_terrain_listing_stops_at_its_limits_and_leaves_counts_to_the_kernel() -> None:
    space = Space.of(a_set([{"name": "desert-placement", "rings": [0]}])).terrain_only()
    tiles = space.multisets[0]
    many = listers.list_terrain(space.checker, tiles, len(TERRAINS), 1000, 0)
    assert many is not None and not many.finished and len(many.rows) == 1000
    slow = listers.list_terrain(space.checker, tiles, len(TERRAINS), 10**9, 5000)
    assert slow is not None and not slow.finished and slow.nodes == 5001
    counts = Space.of(a_set([{"name": "equal-resource-pairs", "max": 2}])).terrain_only()
    assert not listers.lists_terrain(counts.checker)
    assert listers.list_terrain(counts.checker, tiles, len(TERRAINS), 10**6, 0) is None


def test_both_ways_of_listing_terrain_give_one_list(tmp_path, monkeypatch) -> None:
    """The cached list is the same whichever search made it: the chains' terrain redraws and
    the listing by terrain draw by index into it."""
    space = Space.of(load_constraint_set("seed-2019"))
    monkeypatch.setenv("LUDOLAB_CACHE", str(tmp_path / "a"))
    here = terrain_layouts(space, limit=10**6, node_limit=10**7)
    monkeypatch.setenv("LUDOLAB_CACHE", str(tmp_path / "b"))
    monkeypatch.setenv(PURE_PYTHON_ENV, "1")
    listers.native.cache_clear()
    try:
        kernel = terrain_layouts(space, limit=10**6, node_limit=10**7)
    finally:
        listers.native.cache_clear()
    assert here is not None and kernel is not None and len(here) == 96
    assert (here == kernel).all()


def test_the_python_runs_on_request_and_when_the_c_source_changed(tmp_path, monkeypatch):
    monkeypatch.setenv(PURE_PYTHON_ENV, "1")
    listers.native.cache_clear()
    assert listers.native() is None
    monkeypatch.delenv(PURE_PYTHON_ENV)
    listers.native.cache_clear()
    if listers.native() is None:
        pytest.skip("the C listings are not built")
    edited = tmp_path / "listers.c"
    edited.write_text(listers.SOURCE.read_text() + "\n/* an edit */\n")
    monkeypatch.setattr(listers, "SOURCE", edited)
    listers.native.cache_clear()
    try:
        with pytest.warns(RuntimeWarning, match="listers.c changed since it was compiled"):
            assert listers.native() is None
    finally:
        listers.native.cache_clear()
    monkeypatch.undo()
    monkeypatch.delenv(PURE_PYTHON_ENV, raising=False)  # (a suite run with the switch set)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert listers.native() is not None
    listers.native.cache_clear()


def test_a_terrain_listing_out_of_nodes_goes_to_the_general_search(tmp_path, monkeypatch):
    """The C listing prunes less per node than the kernel's search: past its node budget the
    kernel gets the same budget, and the list is the same."""
    monkeypatch.setenv("LUDOLAB_CACHE", str(tmp_path))
    space = Space.of(load_constraint_set("seed-2019"))
    tiles = space.multisets[0]
    checker = space.terrain_only().checker
    c = listers.list_terrain(checker, tiles, len(TERRAINS), 10**6, 400_000)
    general = enumerate_space(space.terrain_only(), keep=10**6, node_limit=400_000)
    assert c is None or (not c.finished and c.found <= 10**6)  # 834,508 nodes in C
    assert general.exhausted  # 179,258 nodes
    layouts = terrain_layouts(space, limit=10**6, node_limit=400_000)
    assert layouts is not None and len(layouts) == 96
