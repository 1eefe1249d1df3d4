"""Listing a set's boards terrain layout by terrain layout (the token lister): the exact method
behind uniform draws and exact counts for the 2019 seed's set.

The lister is held to two independent enumerations of the same sets: the kernel's general
depth-first search and MiniZinc's (Gecode's) enumeration of the MiniZinc faces, and every board
it lists to the Python faces.
"""

from __future__ import annotations

import numpy as np
import pytest
from boards_util import needs_minizinc
from hypothesis import given, settings
from hypothesis import strategies as st

from ludolab.envs.catan.board import TERRAINS
from ludolab.research.catan.constraint_set import load_constraint_set, parse_constraint_set
from ludolab.research.catan.counting import _with_terrain, count_boards
from ludolab.research.catan.generate import generate_boards
from ludolab.research.catan.samplers import fair_board
from ludolab.research.catan.space import Space, enumerate_space, terrain_layouts
from ludolab.research.catan.terrain_listing import layouts, list_by_terrain

H = 19
TOKEN_RULES = [
    {"name": "no-equal-numbers-adjacent", "neighbourhood": "seed-2019-block"},
    {"name": "red-numbers-apart", "neighbourhood": "seed-2019-block"},
    {"name": "different-numbers-within-resource"},
    {"name": "red-numbers-on-different-resources"},
]


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LUDOLAB_CACHE", str(tmp_path / "cache"))


def on_fair_terrain(seed: int, rules: list[dict], threshold: int = 22):
    """A set on the tokens of fair shuffle ``seed``'s terrain: ``rules`` and the seed's
    marker threshold."""
    terrain = [TERRAINS[t] for t in fair_board(seed).terrain]
    constraints = [
        {"name": "fixed", "terrain": terrain},
        *rules,
        {"name": "seed-2019-marker-threshold", "threshold": threshold},
    ]
    return parse_constraint_set({"name": "t", "constraint": constraints}, "t", "t", {})


def listed(cset, **limits):
    space = Space.of(cset)
    return list_by_terrain(space, layouts(space, None), keep=10**6, node_limit=0, **limits)


def token_rows(boards: np.ndarray) -> set[bytes]:
    return {bytes(row[H : 2 * H]) for row in boards}


@pytest.mark.parametrize(("threshold", "count"), [(21, 0), (22, 1), (23, 11_753)])
def test_the_lister_replicates_the_seeds_marker_counts(threshold, count):
    """The seed's marker model on its own board: no layout at 21, one at 22, 11,753 at 23."""
    cset = load_constraint_set(
        "seed-2019-markers", {"seed-2019-marker-threshold.threshold": threshold}
    )
    listing = listed(cset)
    assert listing.exhausted and listing.count == count == len(token_rows(listing.boards))


def test_the_lister_lists_what_the_general_search_lists():
    cset = on_fair_terrain(2, TOKEN_RULES)
    general = enumerate_space(Space.of(cset), keep=10**6)
    mine = listed(cset)
    assert general.exhausted and mine.exhausted
    assert token_rows(mine.boards) == token_rows(general.boards)
    assert mine.nodes * 20 < general.nodes  # and it is the faster by far


@needs_minizinc
@pytest.mark.parametrize(("seed", "rules", "count"), [(0, [0, 1, 3], 113), (2, [2, 3], 38)])
def test_the_lister_lists_what_gecode_enumerates(seed, rules, count):
    """Sets the general search does not finish within 3 million nodes; Gecode lists them."""
    cset = on_fair_terrain(seed, [TOKEN_RULES[i] for i in rules])
    mine = listed(cset)
    boards, report = generate_boards(cset, None, "enumerate", 0)
    theirs = {bytes(np.array(b.numbers, dtype=np.int8)) for b in boards}
    assert report.exhausted and mine.exhausted
    assert token_rows(mine.boards) == theirs and len(theirs) == count


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    rules=st.lists(st.sampled_from(range(len(TOKEN_RULES))), unique=True),
    threshold=st.integers(21, 24),
)
def test_every_board_listed_satisfies_the_python_faces_once(seed, rules, threshold):
    cset = on_fair_terrain(seed, [TOKEN_RULES[i] for i in rules], threshold)
    listing = listed(cset, layout_node_limit=20_000)
    rows = listing.boards
    assert len(rows) == listing.count or not listing.exhausted
    assert len(token_rows(rows)) == len(rows)
    assert cset.check(rows[:, :H], rows[:, H : 2 * H], rows[:, 2 * H :]).all()


def test_a_list_is_kept_in_the_cache_and_read_back(tmp_path):
    cset = load_constraint_set("seed-2019", {"seed-2019-marker-threshold.threshold": 22})
    space = Space.of(cset)
    terrains = terrain_layouts(space, limit=1000, node_limit=10**6)[:6]
    first = list_by_terrain(space, terrains, keep=100, node_limit=0)
    again = list_by_terrain(space, terrains, keep=100, node_limit=0)
    assert not first.cached and again.cached and again.nodes == 0
    assert (first.boards == again.boards).all() and (first.per_layout == again.per_layout).all()
    other = list_by_terrain(space, terrains[:5], keep=100, node_limit=0)  # another list
    assert not other.cached
    for path in (tmp_path / "cache").glob("boards-*.npz"):
        path.write_bytes(b"not a list")
    damaged = list_by_terrain(space, terrains, keep=100, node_limit=0)
    assert not damaged.cached and damaged.count == first.count


def test_a_listing_past_its_budget_stops_and_says_why():
    space = Space.of(load_constraint_set("balanced"))
    terrains = terrain_layouts(space, limit=10**6, node_limit=10**8)
    listing = list_by_terrain(space, terrains, keep=10, node_limit=10**6, layout_node_limit=5_000)
    assert not listing.exhausted and "search nodes" in listing.reason


def test_the_sampler_and_the_counter_use_it():
    cset = load_constraint_set("seed-2019-markers")
    boards, report = generate_boards(cset, 50, "uniform", 3)
    assert report.method == "enumeration" and report.uniform and len(boards) == 50
    assert any("11,753 boards" in note for note in report.notes)
    count = count_boards(cset, np.random.default_rng(0))
    assert count.exact and count.constrained_count == 11_753
    assert count.method == "depth-first by terrain layout"


def test_the_seed_set_is_listed_whole():
    """The 2019 seed's set: 603,188 boards over its 96 tile layouts (the importance-sampling
    estimate was 5.83e5, 95% 4.9e5 to 6.8e5), counted and drawn from one listing. Seconds
    with the C search (listers.c); a minute and a half in Python."""
    cset = load_constraint_set("seed-2019")
    count = count_boards(cset, np.random.default_rng(0))
    assert count.exact and count.constrained_count == 603_188
    boards, report = generate_boards(cset, 100, "uniform", 1)
    assert report.method == "enumeration" and any("603,188" in n for n in report.notes)
    assert any("read from the cache folder" in n for n in report.notes)


@pytest.mark.slow
def test_the_seed_sets_first_layout_is_what_the_general_search_lists():
    """The first of the seed's tile layouts: the lister's 4,018 token layouts are the general
    search's (about 4 million nodes)."""
    cset = load_constraint_set("seed-2019")
    space = Space.of(cset)
    first = terrain_layouts(space, limit=1000, node_limit=10**6)[:1]
    mine = list_by_terrain(space, first, keep=10**6, node_limit=0)
    one = _with_terrain(cset, [int(t) for t in first[0]])
    general = enumerate_space(Space.of(one), keep=10**6)
    assert mine.count == general.count
    assert token_rows(mine.boards) == token_rows(general.boards)
