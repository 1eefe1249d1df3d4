"""Topology and the Board type: counts, adjacency, JSON round trips and validation errors."""

from __future__ import annotations

import json
from importlib.resources import files

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludolab.envs.catan.board import (
    DESERT,
    Board,
    BoardError,
    iter_boards,
    read_board,
    write_boards,
)
from ludolab.envs.catan.topology import LayoutError, build_layout, load_layout
from ludolab.research.catan.samplers import fair_board

random_board = fair_board


def test_standard_topology_counts():
    layout = load_layout("standard")
    assert (layout.n_hexes, layout.n_intersections, layout.n_paths) == (19, 54, 72)
    assert len(layout.coast) == 30
    assert len(layout.adjacent_hex_pairs) == 42
    hexes_per_corner = [len(h) for h in layout.intersection_hexes]
    assert hexes_per_corner.count(3) == 24
    assert hexes_per_corner.count(1) == 18
    # The centre hex touches all six hexes of the inner ring.
    centre = layout.hex_axial.index((0, 0))
    assert len(layout.hex_neighbours[centre]) == 6
    # Every intersection has 2 or 3 paths; settlements need neighbours to check distance.
    assert {len(p) for p in layout.intersection_paths} == {2, 3}


def test_harbor_slots_do_not_share_intersections_and_sit_on_the_coast():
    layout = load_layout("standard")
    nodes = [n for s in range(len(layout.harbor_slots)) for n in layout.harbor_intersections(s)]
    assert len(nodes) == len(set(nodes)) == 18
    assert set(layout.harbor_slots) <= set(layout.coast)


def test_layout_errors_name_the_field():
    with pytest.raises(LayoutError, match="bad.json: malformed layout"):
        build_layout({"name": "x"}, "bad.json")
    spec = json.loads((files("ludolab.envs.catan") / "layouts" / "standard.json").read_text())
    spec["resource_counts"]["desert"] = 2
    with pytest.raises(LayoutError, match="'resource_counts' sums to 20"):
        build_layout(spec, "two-deserts.json")
    with pytest.raises(LayoutError, match="unknown layout 'hexagon'"):
        load_layout("hexagon")


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_json_round_trip_keeps_board_and_id(seed):
    board = random_board(seed)
    again = Board.from_json(board.to_json())
    assert again == board
    assert again.id == board.id
    assert board.terrain[board.robber] == DESERT


def test_id_changes_with_content():
    board = random_board(1)
    swapped = list(board.numbers)
    i, j = [k for k, n in enumerate(swapped) if n][:2]
    if swapped[i] == swapped[j]:
        j = next(k for k, n in enumerate(swapped) if n and n != swapped[i])
    swapped[i], swapped[j] = swapped[j], swapped[i]
    other = Board(board.terrain, tuple(swapped), board.harbors, board.robber)
    assert other.id != board.id


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["terrain"].__setitem__(0, "gold"), r"terrain\[0\]' is 'gold'"),
        (lambda d: d["numbers"].__setitem__(d["robber"], 8), "desert, which carries no number"),
        (lambda d: d["numbers"].__setitem__(_producing(d), 7), r"expected one of 2, 3"),
        (lambda d: d["harbors"].pop(), "must be a list of 9"),
        (lambda d: d.pop("robber"), "missing field 'robber'"),
        (lambda d: d.__setitem__("robber", 19), "expected a hex index 0..18"),
        (lambda d: d.__setitem__("id", "0" * 16), "content hashes to"),
        (lambda d: d.__setitem__("schema", "other/9"), "this version reads"),
    ],
)
def test_validation_errors_name_the_field(edit, message):
    data = random_board(3).to_dict()
    edit(data)
    with pytest.raises(BoardError, match=message):
        Board.from_dict(data, "b.json")


def _producing(d: dict) -> int:
    return next(i for i, t in enumerate(d["terrain"]) if t != "desert")


def test_wrong_counts_are_reported():
    data = random_board(4).to_dict()
    data.pop("id")
    lumber = data["terrain"].index("lumber")
    wool = data["terrain"].index("wool")
    data["terrain"][wool] = "lumber"
    with pytest.raises(BoardError, match="has 5 lumber hexes; the standard layout needs 4"):
        Board.from_dict(data, "b.json")
    data["terrain"][wool] = "wool"
    data["numbers"][lumber] = data["numbers"][wool] = 6
    with pytest.raises(BoardError, match="token"):
        Board.from_dict(data, "b.json")


def test_files_round_trip_and_errors_name_file_and_line(tmp_path):
    boards = [random_board(s) for s in range(5)]
    path = tmp_path / "boards.jsonl"
    assert write_boards(boards, path) == 5
    assert list(iter_boards(path)) == boards
    assert read_board(path) == boards[0]
    lines = path.read_text().splitlines()
    lines[2] = lines[2].replace('"wool"', '"sheep"', 1)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(BoardError, match=r"boards.jsonl:3: field 'terrain\[\d+\]' is 'sheep'"):
        list(iter_boards(path))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(BoardError, match="bad.json: not valid JSON"):
        read_board(bad)


def test_write_is_atomic(tmp_path):
    path = tmp_path / "out.jsonl"

    def boards():
        yield random_board(1)
        raise RuntimeError("sampler died")

    with pytest.raises(RuntimeError):
        write_boards(boards(), path)
    assert list(tmp_path.iterdir()) == []
