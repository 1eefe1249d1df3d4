"""Board features: hand-checked values on hand-built boards, properties over random boards."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludolab.envs.catan.board import DESERT, RESOURCES, TERRAINS, Board, pips
from ludolab.envs.catan.topology import load_layout
from ludolab.research.catan import features as F
from ludolab.research.catan.samplers import fair_board

LAYOUT = load_layout("standard")
L, W, G, B, O, D = range(6)  # noqa: E741 -- terrain codes: lumber wool grain brick ore desert
assert TERRAINS[D] == "desert" and D == DESERT


def make_board(terrain, numbers, harbors=None) -> Board:
    harbors = harbors or (0, 1, 0, 2, 0, 3, 0, 4, 5)
    board = Board(tuple(terrain), tuple(numbers), tuple(harbors), list(terrain).index(D))
    board.validate()
    return board


def random_board(rng: random.Random) -> Board:
    return fair_board(rng.getrandbits(32))


boards = st.integers(0, 2**32 - 1).map(lambda s: random_board(random.Random(s)))

# The beginner board, hexes in reading order (rows of 3, 4, 5, 4, 3).
BEGINNER_TERRAIN = (O, W, L, G, B, W, G, B, L, D, L, O, L, O, G, W, B, G, W)
BEGINNER_NUMBERS = (10, 2, 9, 12, 6, 4, 10, 9, 11, 0, 3, 8, 8, 3, 4, 5, 5, 6, 11)


@pytest.fixture
def beginner() -> Board:
    return make_board(BEGINNER_TERRAIN, BEGINNER_NUMBERS)


# ---------------------------------------------------------------------------------------------
# hand-checked values


def test_hex_and_resource_pips_by_hand(beginner):
    expected = [3, 1, 4, 1, 5, 3, 3, 4, 2, 0, 2, 5, 5, 2, 3, 4, 4, 5, 2]
    assert F.hex_pips(beginner).tolist() == expected
    # lumber: 9,11,3,8 -> 4+2+2+5; wool: 2,4,5,11 -> 1+3+4+2; grain: 12,10,4,6 -> 1+3+3+5;
    # brick: 6,9,5 -> 5+4+4; ore: 10,8,3 -> 3+5+2
    assert F.resource_pips(beginner) == {
        "lumber": 13,
        "wool": 10,
        "grain": 12,
        "brick": 13,
        "ore": 10,
    }


def test_intersection_pips_by_hand(beginner):
    # Intersection 18 is the top corner of the centre hex 9, the lower-right corner of hex 4 and
    # the lower-left corner of hex 5: brick 6 (5 pips) + wool 4 (3 pips) + desert = 8.
    assert LAYOUT.intersection_hexes[18] == (4, 5, 9)
    ip = F.intersection_pips(beginner)
    assert ip.shape == (54,)
    assert ip[18] == 8
    # Intersection 13: wool 2 (hex 1) + brick 6 (hex 4) + wool 4 (hex 5) = 1 + 5 + 3.
    assert LAYOUT.intersection_hexes[13] == (1, 4, 5)
    assert ip[13] == 9
    # Intersection 0: the top corner of hex 0 only (ore 10).
    assert LAYOUT.intersection_hexes[0] == (0,)
    assert ip[0] == 3
    div = F.intersection_diversity(beginner)
    assert (div[18], div[13], div[0]) == (2, 2, 1)
    sums = F.intersection_number_sums(beginner)
    assert (sums[18], sums[13], sums[0]) == (6 + 4, 2 + 6 + 4, 10)


def test_clusters_on_clumped_board():
    terrain = (L, L, L, B, B, G, L, O, B, D, W, W, O, G, W, W, O, G, G)
    numbers = (2, 3, 3, 4, 4, 5, 5, 6, 6, 0, 8, 8, 9, 9, 10, 10, 11, 11, 12)
    board = make_board(terrain, numbers)
    # lumber {0,1,2,6}, wool {10,11,14,15}, brick {3,4,8}, ore {7,12,16}, grain {13,17,18}+{5}
    assert F.resource_clusters(board) == {"lumber": 4, "wool": 4, "grain": 3, "brick": 3, "ore": 3}
    # lumber 0-1 1-2 2-6; brick 3-4 3-8 4-8; ore 7-12 12-16; wool 10-11 10-14 10-15 11-15 14-15;
    # grain 13-17 17-18
    assert F.adjacent_pair_counts(board)["same_resource"] == 3 + 3 + 2 + 5 + 2
    feats = F.board_features(board)
    assert feats["largest_cluster"] == 4
    assert feats["same_resource_adjacent_pairs"] == 15
    assert feats["desert_ring"] == 0


def test_red_and_equal_number_adjacency_by_hand(beginner):
    # The beginner board keeps 6s and 8s apart, and no two equal numbers touch. Same-resource
    # neighbours: wool 1-5, lumber 8-12, grain 14-17, wool 15-18.
    assert F.adjacent_pair_counts(beginner) == {"same_resource": 4, "red": 0, "same_number": 0}
    # Reds on 4 (6), 5 (8), 8 (6), 13 (8): adjacent pairs 4-5, 4-8, 8-13 -> 3 red pairs.
    numbers = (2, 3, 3, 4, 6, 8, 4, 5, 6, 0, 5, 9, 9, 8, 10, 10, 11, 11, 12)
    board = make_board(BEGINNER_TERRAIN, numbers)
    counts = F.adjacent_pair_counts(board)
    assert counts["red"] == 3
    # equal neighbours: 3-3 (hexes 1,2), 6-6 (4,8), 10-10 (14,15), 11-11 (16,17)
    assert counts["same_number"] == 4
    feats = F.board_features(board)
    assert feats["red_adjacent_pairs"] == 3
    # intersection 13 = hexes 1, 4, 5: 3 + 6 + 8 -> 2 + 5 + 5 = 12 pips; 18 = hexes 4, 5, 9: 10
    assert F.intersection_pips(board)[13] == 12


def test_harbor_pips_by_hand(beginner):
    # slot 0: path (0, 3), the upper-left side of hex 0 (ore 10 = 3 pips) -> only hex 0 touches.
    assert LAYOUT.harbor_intersections(0) == (0, 3)
    assert {h for n in (0, 3) for h in LAYOUT.intersection_hexes[n]} == {0}
    # slot 2: path (6, 10), the right side of hex 2 (lumber 9 = 4 pips); 10 also touches hex 6
    # (grain 10 = 3 pips).
    assert LAYOUT.harbor_intersections(2) == (6, 10)
    assert {h for n in (6, 10) for h in LAYOUT.intersection_hexes[n]} == {2, 6}
    harbors = (5, 0, 1, 0, 2, 0, 3, 0, 4)  # slot 0 ore 2:1, slot 2 lumber 2:1
    board = make_board(BEGINNER_TERRAIN, BEGINNER_NUMBERS, harbors)
    hq = F.harbor_pips(board)
    assert hq["touch"][0] == 3 and hq["own"][0] == 3 and hq["resource"][0] == 10
    assert hq["touch"][2] == 7 and hq["own"][2] == 4 and hq["resource"][2] == 13
    assert hq["own"][1] == 0 and hq["resource"][1] == 0  # generic
    feats = F.board_features(board)
    assert feats["special_harbor_own_count"] >= 2
    assert feats["harbor_touch_pips_mean"] == pytest.approx(hq["touch"].mean())


def test_desert_ring():
    terrain = list(BEGINNER_TERRAIN)
    numbers = list(BEGINNER_NUMBERS)
    for desert_hex, ring in ((0, 2), (4, 1), (9, 0), (11, 2), (13, 1)):
        t, n = terrain.copy(), numbers.copy()
        t[9], t[desert_hex] = t[desert_hex], t[9]
        n[9], n[desert_hex] = n[desert_hex], n[9]
        assert F.desert_ring(make_board(t, n)) == ring


def test_greedy_starts_on_beginner(beginner):
    picks = F.greedy_starts(beginner)
    ip = F.intersection_pips(beginner)
    assert len(picks) == 8
    assert ip[picks[0]] == ip.max()
    feats = F.board_features(beginner)
    assert feats["start_top8_mean"] == pytest.approx(ip[picks].mean())
    assert feats["start_pick8_pips"] == ip[picks[-1]]
    seats = [ip[picks[i]] + ip[picks[7 - i]] for i in range(4)]
    assert feats["start_seat_pips_spread"] == max(seats) - min(seats)


def test_feature_names_documented(beginner):
    feats = F.board_features(beginner)
    assert tuple(feats) == F.FEATURE_NAMES
    assert set(F.FEATURE_DOCS) == set(feats)
    assert all(k == k.lower() and " " not in k for k in feats)


# ---------------------------------------------------------------------------------------------
# properties over random boards


@settings(max_examples=60, deadline=None)
@given(boards)
def test_totals(board):
    board.validate()
    assert sum(F.resource_pips(board).values()) == 58
    ip = F.intersection_pips(board)
    assert ip.sum() == 6 * 58
    brute = [sum(pips(board.numbers[h]) for h in hs) for hs in LAYOUT.intersection_hexes]
    assert ip.tolist() == brute
    div = [len({board.terrain[h] for h in hs} - {D}) for hs in LAYOUT.intersection_hexes]
    assert F.intersection_diversity(board).tolist() == div


@settings(max_examples=60, deadline=None)
@given(boards)
def test_clusters_and_pairs_match_brute_force(board):
    clusters = F.resource_clusters(board)
    for r, size in clusters.items():
        assert 1 <= size <= LAYOUT.resource_counts[r]
    # brute force: flood fill via repeated relaxation of component labels
    label = list(range(LAYOUT.n_hexes))
    changed = True
    while changed:
        changed = False
        for a, b in LAYOUT.adjacent_hex_pairs:
            if board.terrain[a] == board.terrain[b] and label[a] != label[b]:
                label[a] = label[b] = min(label[a], label[b])
                changed = True
    for code, r in enumerate(RESOURCES):
        sizes = [
            sum(1 for h in range(LAYOUT.n_hexes) if label[h] == lab)
            for lab in {label[h] for h in range(LAYOUT.n_hexes) if board.terrain[h] == code}
        ]
        assert clusters[r] == max(sizes)
    pairs = F.adjacent_pair_counts(board)
    red = sum(
        1
        for a, b in LAYOUT.adjacent_hex_pairs
        if board.numbers[a] in (6, 8) and board.numbers[b] in (6, 8)
    )
    same = sum(1 for a, b in LAYOUT.adjacent_hex_pairs if board.terrain[a] == board.terrain[b] != D)
    assert pairs["red"] == red
    assert pairs["same_resource"] == same


@settings(max_examples=60, deadline=None)
@given(boards)
def test_greedy_starts_respect_distance_rule(board):
    picks = F.greedy_starts(board).tolist()
    ip = F.intersection_pips(board)
    assert len(picks) == len(set(picks)) == 8
    for i, a in enumerate(picks):
        for b in picks[i + 1 :]:
            assert b not in LAYOUT.intersection_neighbours[a]
    assert all(ip[a] >= ip[b] for a, b in zip(picks, picks[1:], strict=False))
    assert ip[picks[0]] == ip.max()


@settings(max_examples=60, deadline=None)
@given(boards)
def test_features_finite_and_bounded(board):
    feats = F.board_features(board)
    assert tuple(feats) == F.FEATURE_NAMES
    assert all(isinstance(v, float) and math.isfinite(v) for v in feats.values())
    assert feats["largest_cluster"] == max(feats[f"cluster_max_{r}"] for r in RESOURCES)
    assert 0 <= feats["special_harbor_own_count"] <= 5
    assert feats["desert_ring"] in (0, 1, 2)
    assert feats["int_pips_max"] >= feats["inland_pips_max"]
    assert feats["int_pips_max"] <= 15
    assert feats["start_top8_spread"] == feats["int_pips_max"] - feats["start_pick8_pips"]
    h = F.harbor_pips(board)
    assert np.all(h["own"] <= h["touch"])
    assert sum(feats[f"resource_pips_{r}"] for r in RESOURCES) == 58
