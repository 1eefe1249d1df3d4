"""Uniform boards for tight sets: the kernel's checks and search, the Markov chains, the sampler
that chooses between rejection, enumeration and chains.

The chains are held to the truth where it is known: sets small enough to list depth-first
(and, for the depth-first lists, MiniZinc's enumeration of the same sets) give exact
frequencies that the chains' draws are tested against.
"""

from __future__ import annotations

import numpy as np
import pytest
from boards_util import SEED_NUMBERS, SEED_TERRAIN_NAMES, needs_minizinc
from scipy.stats import chisquare

from ludolab.research.catan import kernel
from ludolab.research.catan.chain import ChainSettings, run_chains
from ludolab.research.catan.constraint_set import load_constraint_set, parse_constraint_set
from ludolab.research.catan.generate import generate_boards
from ludolab.research.catan.samplers import (
    ImpossibleSet,
    SamplingError,
    Shuffle,
    UniformSettings,
    sample_uniform,
)
from ludolab.research.catan.space import Space, enumerate_space, random_boards
from ludolab.research.catan.uniformity import check_uniformity

H = 19


def make_set(name: str, constraints: list[dict]):
    return parse_constraint_set({"name": name, "constraint": constraints}, name, name, {})


# Small sets whose boards can be listed: the test bed of the samplers.
SMALL = {
    # 46 harbor arrangements: every 2:1 harbor next to its own resource on the seed's tiles
    "harbors-require": [
        {"name": "fixed", "terrain": SEED_TERRAIN_NAMES},
        {"name": "harbor-resource-access", "mode": "require"},
    ],
    # 2,434 harbor arrangements: no 2:1 harbor next to its own resource
    "harbors-forbid": [
        {"name": "fixed", "terrain": SEED_TERRAIN_NAMES},
        {"name": "harbor-resource-access", "mode": "forbid"},
    ],
    # 411 harbor arrangements on the seed's board: no 2:1 harbor beside its resource's richest
    # hex, no two 3:1 harbors on neighbouring slots
    "harbors-best-spaced": [
        {"name": "fixed", "terrain": SEED_TERRAIN_NAMES, "numbers": [0, *SEED_NUMBERS[1:]]},
        {"name": "harbor-best-hex"},
        {"name": "harbor-spacing"},
    ],
    # 9,870 tile layouts under the seed's tokens (the desert stays where the token is missing)
    "tiles-under-tokens": [
        {"name": "fixed", "numbers": [None, *SEED_NUMBERS[1:]]},
        {"name": "no-equal-resources-adjacent"},
        {"name": "resources-never-adjacent"},
    ],
}
SMALL_COUNTS = {
    "harbors-require": 46,
    "harbors-forbid": 2434,
    "harbors-best-spaced": 411,
    "tiles-under-tokens": 9870,
}


def _rows(boards) -> np.ndarray:
    return np.array([[*b.terrain, *b.numbers, *b.harbors] for b in boards], dtype=np.int8)


# ----------------------------------------------------------------------------------------------
# The kernel


@pytest.mark.parametrize("name", ["balanced", "seed-2019", "tournament", "clumpy", "official"])
def test_a_change_is_judged_as_a_whole_board_check_would(name):
    """From satisfying boards, thousands of random swaps and relabellings: the incremental
    check after the change agrees with checking the whole board."""
    cset = load_constraint_set(name)
    space = Space.of(cset)
    ck = space.checker
    rng = np.random.default_rng(1)
    starts = random_boards(space, 4, rng)
    assert len(starts)
    disagreements = 0
    for row in starts:
        t, n, hb = row[:H].tolist(), row[H : 2 * H].tolist(), row[2 * H :].tolist()
        for _ in range(3000):
            i, j = rng.choice(H, 2, replace=False)
            a, b = rng.choice(9, 2, replace=False)
            which = rng.integers(4)
            t2, n2, h2 = list(t), list(n), list(hb)
            if which == 0:
                t2[i], t2[j], n2[i], n2[j] = t[j], t[i], n[j], n[i]
            elif which == 1:
                t2[i], t2[j] = t[j], t[i]
            elif which == 2:
                n2[i], n2[j] = n[j], n[i]
            else:
                h2[a], h2[b] = hb[b], hb[a]
            hexes, slots = ([int(i), int(j)], []) if which < 3 else ([], [int(a), int(b)])
            disagreements += ck.changed(t2, n2, h2, hexes, slots) != ck.full(t2, n2, h2)
            if ck.full(t2, n2, h2):
                t, n, hb = t2, n2, h2  # walk on, so that changes meet many configurations
    assert disagreements == 0


def test_random_numbers_are_uniform_and_reproducible():
    a, b = kernel.Random(1, 2, 3, 4), kernel.Random(1, 2, 3, 4)
    draws = [a.below(7) for _ in range(70_000)]
    assert draws[:50] == [b.below(7) for _ in range(50)]
    assert chisquare(np.bincount(draws, minlength=7)).pvalue > 1e-4


@pytest.mark.parametrize(
    ("name", "params", "count"),
    [
        ("seed-2019-tiles", {}, 96),  # the seed's 96 tile layouts
        ("seed-2019-markers", {"seed-2019-marker-threshold.threshold": 21}, 0),
        ("seed-2019-markers", {"seed-2019-marker-threshold.threshold": 22}, 1),
    ],
)
def test_depth_first_counts_replicate_the_seed(name, params, count):
    listing = enumerate_space(Space.of(load_constraint_set(name, params)), keep=200)
    assert listing.exhausted and listing.count == count
    assert len(np.unique(listing.boards, axis=0)) == min(count, 200)


@pytest.mark.slow
def test_depth_first_count_at_the_seed_threshold_23():
    """The seed counted 11,753 marker layouts at threshold 23."""
    cset = load_constraint_set("seed-2019-markers")
    listing = enumerate_space(Space.of(cset), keep=0)
    assert listing.exhausted and listing.count == 11_753


@needs_minizinc
@pytest.mark.parametrize("name", sorted(SMALL))
def test_depth_first_lists_what_minizinc_enumerates(name):
    """Two independent enumerations of the same set (the kernel's rules, the MiniZinc faces
    with Gecode) list the same boards."""
    cset = make_set(name, SMALL[name])
    listing = enumerate_space(Space.of(cset), keep=20_000)
    assert listing.exhausted and listing.count == SMALL_COUNTS[name]
    boards, report = generate_boards(cset, None, "enumerate", 0)
    assert report.exhausted and len(boards) == listing.count
    parts = Space.of(cset).parts
    index = {"terrain": slice(0, H), "numbers": slice(H, 2 * H), "harbors": slice(2 * H, None)}
    mine = {tuple(np.concatenate([r[index[p]] for p in parts])) for r in listing.boards}
    theirs = {tuple(np.concatenate([r[index[p]] for p in parts])) for r in _rows(boards)}
    assert mine == theirs


def test_symmetries_keep_symmetric_sets_and_only_them():
    for name in ("balanced", "tournament", "clumpy", "official"):
        space = Space.of(load_constraint_set(name))
        assert all(space.symmetry_safe), name
        rows = random_boards(space, 3, np.random.default_rng(0))
        for perm in space.geo.symmetries:
            for row in rows:
                t, n = np.empty(H, np.int8), np.empty(H, np.int8)
                t[perm], n[perm] = row[:H], row[H : 2 * H]
                assert space.checker.full(t.tolist(), n.tolist(), row[2 * H :].tolist())
    for name in ("seed-2019", "seed-2019-tiles"):  # the seed's 5x5 array is not a hexagon
        assert Space.of(load_constraint_set(name)).symmetry_safe == [True] + [False] * 11


# ----------------------------------------------------------------------------------------------
# The chains against exact frequencies


def _frequencies(cset, rows: np.ndarray) -> tuple[np.ndarray, int]:
    """Counts of each listed board of ``cset`` among ``rows`` (by the parts it constrains)."""
    space = Space.of(cset)
    listing = enumerate_space(space, keep=100_000)
    cols = {"terrain": range(0, H), "numbers": range(H, 2 * H), "harbors": range(2 * H, 2 * H + 9)}
    use = [c for p in space.parts for c in cols[p]]
    index = {tuple(r[use]): i for i, r in enumerate(listing.boards)}
    hits = [index[tuple(r[use])] for r in rows]  # a KeyError = a board outside the set
    return np.bincount(hits, minlength=listing.count), listing.count


@pytest.mark.parametrize("name", ["harbors-require", "harbors-forbid", "harbors-best-spaced"])
def test_chains_draw_uniformly_from_small_harbor_sets(name):
    cset = make_set(name, SMALL[name])
    boards, report = sample_uniform(cset, 3000, np.random.default_rng(5), method="chain")
    assert report.method == "mcmc" and report.uniform
    counts, cells = _frequencies(cset, _rows(boards))
    bins = min(cells, 3000 // 10)  # at least ten expected draws per cell
    binned = np.add.reduceat(counts, np.linspace(0, cells, bins + 1).astype(int)[:-1])
    assert (
        chisquare(
            binned,
            np.full(bins, 3000 / cells) * np.diff(np.linspace(0, cells, bins + 1).astype(int)),
        ).pvalue
        > 1e-3
    )


def test_chains_draw_uniformly_when_the_tokens_are_given():
    """The terrain moves around given tokens (the desert stays where the token is missing)."""
    cset = make_set("tiles-under-tokens", SMALL["tiles-under-tokens"])
    boards, report = sample_uniform(cset, 3000, np.random.default_rng(6), method="chain")
    assert report.method == "mcmc"
    counts, cells = _frequencies(cset, _rows(boards))
    edges = np.linspace(0, cells, 101).astype(int)  # 100 bins of listed boards, ~30 draws each
    binned = np.add.reduceat(counts, edges[:-1])
    assert chisquare(binned, 3000 * np.diff(edges) / cells).pvalue > 1e-3


@pytest.mark.parametrize(("thin_taus", "repeats"), [(2.0, False), (1.0, True)])
def test_consecutive_boards_of_a_chain_are_nearly_independent(thin_taus, repeats):
    """On the seed's 96 tile layouts, two independent draws are the same board 1/96 = 1.0% of
    the time. Boards of one chain two autocorrelation times apart repeat about that often (0.9
    to 1.4% in 6,000 draws over six seeds); one autocorrelation time apart, 2.8 to 3.5% (5.4%
    in 20,000): the reason the default spaces them by two (the second case shows that the test
    sees the difference)."""
    cset = load_constraint_set("seed-2019-tiles")
    settings = UniformSettings(chain=ChainSettings(thin_taus=thin_taus))
    rng = np.random.default_rng(11)
    boards, report = sample_uniform(cset, 6000, rng, method="chain", settings=settings)
    chains = report.chain["chains"]
    terrain = np.array([b.terrain for b in boards], dtype=np.int8)
    terrain = terrain[: len(terrain) // chains * chains].reshape(-1, chains, len(terrain[0]))
    repeat = (terrain[1:] == terrain[:-1]).all(axis=2).mean()
    assert (repeat > 0.02) == repeats, repeat


def test_chains_that_cannot_mix_say_so():
    """Without the terrain list, swaps cannot connect the seed's 96 layouts (three groups of
    them are six or more hexes apart): started in different groups, the chains disagree and the
    sampler refuses to answer."""
    cset = load_constraint_set("seed-2019-tiles")
    space = Space.of(cset)
    listing = enumerate_space(space, keep=100)
    settings = ChainSettings(chains=16, starts=8, max_steps=64_000)
    with pytest.raises(Exception, match="did not converge"):
        run_chains(cset, 10, listing.boards[::12], np.random.default_rng(0), settings=settings)


def test_the_same_seed_draws_the_same_chain_boards():
    cset = make_set("harbors-forbid", SMALL["harbors-forbid"])
    a, _ = sample_uniform(cset, 50, np.random.default_rng(3), method="chain")
    b, _ = sample_uniform(cset, 50, np.random.default_rng(3), method="chain")
    c, _ = sample_uniform(cset, 50, np.random.default_rng(4), method="chain")
    assert [x.id for x in a] == [x.id for x in b] != [x.id for x in c]


# ----------------------------------------------------------------------------------------------
# The sampler's choice


@pytest.mark.parametrize(
    ("name", "method"),
    [("official", "rejection"), ("tournament", "rejection"), ("seed-2019-tiles", "enumeration")],
)
def test_the_uniform_sampler_picks_an_exact_method_where_it_can(name, method):
    boards, report = generate_boards(load_constraint_set(name), 200, "uniform", 1)
    assert report.method == method and report.uniform and len(boards) == 200


def test_a_terrain_search_under_given_tokens_is_listed_not_chained():
    """With the tokens given the terrain is all there is to place: its 9,870 boards are listed
    although the terrain rules alone allow 188,160 layouts."""
    cset = make_set("tiles-under-tokens", SMALL["tiles-under-tokens"])
    boards, report = generate_boards(cset, 100, "uniform", 1)
    assert report.method == "enumeration" and any("9,870 boards" in n for n in report.notes)


def test_tight_sets_get_chains_with_their_diagnostics():
    boards, report = generate_boards(load_constraint_set("balanced"), 40, "uniform", 1)
    assert report.method == "mcmc" and report.uniform
    chain = report.chain
    assert chain["max_rhat"] <= 1.01 and chain["min_ess"] >= 400 and chain["thin"] >= 1
    assert any("188,160 layouts" in note for note in report.notes)
    assert len({b.id for b in boards}) == 40


def test_parts_no_constraint_reads_are_fair_shuffles():
    """A set on terrain and harbors: the tokens come from fair shuffles (6 and 8 apart about as
    often as in fair shuffles, 14%)."""
    cset = make_set("h", [{"name": "harbor-resource-access", "mode": "forbid"}])
    boards, _ = sample_uniform(cset, 2000, np.random.default_rng(2), method="chain")
    rows = _rows(boards)
    apart = load_constraint_set("official").check(rows[:, :H], rows[:, H : 2 * H], rows[:, 2 * H :])
    assert 0.11 < apart.mean() < 0.17


def test_a_set_the_uniform_sampler_cannot_check_is_refused_with_the_fallback():
    cset = make_set("raw", [{"name": "minizinc", "code": "terrain[1] != terrain[19]"}])
    with pytest.raises(SamplingError, match="no Python face.*--sampler solver"):
        sample_uniform(cset, 5, np.random.default_rng(0))


def test_an_unsatisfiable_set_is_named():
    cset = load_constraint_set("seed-2019-markers", {"seed-2019-marker-threshold.threshold": 21})
    with pytest.raises(ImpossibleSet, match="has no board: a complete depth-first listing"):
        sample_uniform(cset, 5, np.random.default_rng(0))


# ----------------------------------------------------------------------------------------------
# check-uniformity


def test_check_uniformity_refuses_too_few_draws_per_board():
    cset = load_constraint_set("seed-2019-tiles")
    with pytest.raises(SamplingError, match="at least 5 draws per board"):
        check_uniformity(cset, "uniform", 100, 0, bins=None)


@needs_minizinc
def test_check_uniformity_passes_the_sampler_and_catches_the_solver():
    cset = load_constraint_set("seed-2019-tiles")
    uniform = check_uniformity(cset, "uniform", 4800, 1)
    assert uniform.p_value > 1e-3 and uniform.space == 96
    # The solver's search order is far from uniform: 480 draws (the test's minimum of 5 per
    # board; each draw is a Gecode run) give chi-square about 2,200 on 95 degrees of freedom.
    solver = check_uniformity(cset, "solver", 480, 1)
    assert solver.p_value < 1e-6


def test_fair_shuffles_are_fair():
    shuffle = Shuffle()
    t = shuffle.draw_terrain(np.random.default_rng(0), 10_000)
    assert abs((t[:, 9] == 5).mean() - 1 / 19) < 0.01
