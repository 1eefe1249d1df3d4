"""Queens: the rules checker, the SAT counter against brute force, the deductions against the
solution, the generator, and the pack commands."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludolab.research.puzzles import PuzzleError
from ludolab.research.puzzles.pack import read_pack
from ludolab.research.puzzles.queens.deduce import deduce, next_step
from ludolab.research.puzzles.queens.generate import generate_one, grow_regions, random_solution
from ludolab.research.puzzles.queens.rules import region_problems, solution_problems
from ludolab.research.puzzles.queens.solve import solutions

# A 5 x 5 grid (from generate_one(5, random.Random(0))); its one solution is columns
# 2, 0, 3, 1, 4, and the deductions need a confined region (medium).
GRID = [
    [1, 1, 0, 0, 2],
    [1, 1, 1, 1, 2],
    [1, 1, 1, 2, 2],
    [3, 3, 3, 3, 4],
    [3, 3, 3, 3, 4],
]
ANSWER = [2, 0, 3, 1, 4]


def brute_force(regions: list[list[int]]) -> list[list[int]]:
    n = len(regions)
    return [
        list(p)
        for p in itertools.permutations(range(n))
        if not solution_problems(regions, list(p))
    ]


def test_the_rules_checker_names_each_broken_rule():
    assert region_problems(GRID) == []
    assert solution_problems(GRID, ANSWER) == []
    assert "share a column" in solution_problems(GRID, [2, 0, 3, 1, 1])[0]
    assert any("touch" in p for p in solution_problems(GRID, [2, 3, 0, 1, 4]))
    assert any("share a region" in p for p in solution_problems(GRID, [3, 0, 2, 4, 1]))
    assert "one column" in solution_problems(GRID, [2, 0, 3])[0]
    split = [row[:] for row in GRID]
    split[0][0], split[1][1] = 4, 4  # region 4 in two pieces
    assert any("not connected" in p for p in region_problems(split))
    assert "no cell" in region_problems([[0, 0], [0, 0]])[0]


def test_the_hand_made_grid_has_one_solution():
    assert solutions(GRID, limit=5) == brute_force(GRID) == [ANSWER]


@settings(max_examples=40, deadline=None)
@given(st.integers(5, 7), st.integers(0, 10**6))
def test_sat_counts_as_brute_force_does(n, seed):
    """Regions grown at random around a random solution: SAT finds exactly the brute-force
    solutions (there is at least the one the regions grew from)."""
    rng = random.Random(seed)
    regions = grow_regions(random_solution(n, rng), rng)
    expected = brute_force(regions)
    assert expected
    assert sorted(solutions(regions, limit=10_000)) == sorted(expected)


@settings(max_examples=40, deadline=None)
@given(st.integers(5, 8), st.integers(0, 10**6))
def test_deductions_never_rule_out_the_solution(n, seed):
    """On every generated puzzle the deductions finish with the unique solution, and no step
    removes a cell of it or places a queen off it."""
    puzzle = generate_one(n, random.Random(seed))
    if puzzle is None:
        return
    answer = {(r, c) for r, c in enumerate(puzzle.queens)}
    for step in puzzle.deduction.steps:
        assert not answer & set(step.remove), step
        assert step.place is None or step.place in answer, step
    assert puzzle.deduction.queens == puzzle.queens
    assert solutions(puzzle.regions, limit=2) == [list(puzzle.queens)]


def test_the_hint_is_the_next_deduction():
    result = deduce(GRID)
    assert result.solved and list(result.queens) == ANSWER and result.level == "medium"
    first = next_step(GRID)
    assert first == result.steps[0]
    # after the first steps, the hint continues the solve
    placed = [s.place for s in result.steps[:2] if s.place]
    removed = [c for s in result.steps[:2] for c in s.remove]
    assert next_step(GRID, placed, removed) == result.steps[2]


def test_generation_is_reproducible_and_levels_are_labelled():
    a = [generate_one(7, random.Random(s)) for s in range(6)]
    b = [generate_one(7, random.Random(s)) for s in range(6)]
    assert a == b
    kept = [p for p in a if p is not None]
    assert kept and all(p.deduction.level in ("easy", "medium", "hard", "expert") for p in kept)
    with pytest.raises(ValueError, match="5..12"):
        generate_one(4, random.Random(0))


def ludolab(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ludolab.research.cli", "puzzle", "queens", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
    )


def test_generate_then_verify_a_pack(tmp_path):
    out = tmp_path / "queens.json"
    done = ludolab("generate", "--n", "12", "--size", "6", "--seed", "3", "--out", str(out),
                   "-q", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    pack = read_pack(out, "queens")
    assert len(pack.puzzles) == 12 and len({p.id for p in pack.puzzles}) == 12
    levels = {p.difficulty["level"] for p in pack.puzzles}
    assert len(levels) >= 3  # mixed: spread over the levels
    again = tmp_path / "again.json"
    ludolab("generate", "--n", "12", "--size", "6", "--seed", "3", "--out", str(again), "-q",
            cwd=tmp_path)
    assert again.read_text() == out.read_text()  # the seed fixes the pack
    done = ludolab("verify", str(out), cwd=tmp_path)
    assert done.returncode == 0 and "12 Queens puzzles" in done.stdout, done.stderr


def test_verify_catches_a_tampered_pack_in_one_line(tmp_path):
    out = tmp_path / "queens.json"
    ludolab("generate", "--n", "4", "--size", "6", "--seed", "1", "--out", str(out), "-q",
            cwd=tmp_path)
    good = json.loads(out.read_text())

    def tampered(change) -> str:
        data = json.loads(json.dumps(good))
        change(data)
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(data))
        done = ludolab("verify", str(path), cwd=tmp_path)
        assert done.returncode == 2 and done.stdout == "", done
        assert done.stderr.count("\n") == 1, done.stderr
        return done.stderr

    def move_queen(d):
        q = d["puzzles"][1]["solution"]["queens"]
        q[0], q[1] = q[1], q[0]

    def merge_regions(d):  # two regions become one: more than one solution, or none
        grid = d["puzzles"][0]["clues"]["regions"]
        d["puzzles"][0]["clues"]["regions"] = [[0 if k == 1 else k for k in row] for row in grid]

    assert "puzzles[1]" in tampered(move_queen)
    assert "puzzles[0]" in tampered(merge_regions)
    def relabel(d):
        level = d["puzzles"][2]["difficulty"]["level"]
        d["puzzles"][2]["difficulty"]["level"] = "expert" if level != "expert" else "easy"

    assert "the deductions say" in tampered(relabel)
    assert "format" in tampered(lambda d: d.update(format="other/1"))
    assert "not 'queens'" in tampered(lambda d: d.update(game="sudoku"))
    assert "used twice" in tampered(lambda d: d["puzzles"].append(d["puzzles"][0]))


def test_bad_requests_exit_2_and_write_nothing(tmp_path):
    for args, says in [
        (["--size", "4"], "5..12"),
        (["--size", "13"], "5..12"),
        (["--n", "0"], "at least 1"),
    ]:
        out = tmp_path / "p.json"
        argv = ["generate", "--n", "3", "--size", "6", "--out", str(out), *args]
        done = ludolab(*argv, cwd=tmp_path)
        assert done.returncode == 2 and says in done.stderr and not out.exists(), done.stderr
    done = ludolab("verify", str(tmp_path / "missing.json"), cwd=tmp_path)
    assert done.returncode == 2 and "no such file" in done.stderr


def test_read_pack_names_the_field(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"format": "ludolab.puzzle-pack/1", "game": "queens",
                                "generator": {}, "puzzles": [{"id": "a", "size": [5]}]}))
    with pytest.raises(PuzzleError, match=r"puzzles\[0\]\.size: expected \[rows, columns\]"):
        read_pack(path)
