"""Tents: the rules checker, the SAT counter against brute force, the deductions against the
solution, and the pack commands."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludolab.research.puzzles.pack import read_pack
from ludolab.research.puzzles.tents.deduce import deduce, next_step
from ludolab.research.puzzles.tents.generate import generate_one, random_pairs
from ludolab.research.puzzles.tents.rules import orthogonal, solution_problems
from ludolab.research.puzzles.tents.solve import solutions


def counts(n: int, tents) -> tuple[list[int], list[int]]:
    return (
        [sum(1 for t in tents if t[0] == r) for r in range(n)],
        [sum(1 for t in tents if t[1] == c) for c in range(n)],
    )


def brute_force(n: int, trees, rows, cols) -> list[list[tuple[int, int]]]:
    near = sorted({nb for t in trees for nb in orthogonal(t, n, n)} - set(trees))
    return [
        sorted(combo)
        for combo in itertools.combinations(near, len(trees))
        if not solution_problems(n, n, trees, rows, cols, list(combo))
    ]


def test_the_rules_checker_names_each_broken_rule():
    trees = [(0, 0), (2, 2)]
    tents = [(0, 1), (2, 3)]
    rows, cols = counts(4, tents)
    assert solution_problems(4, 4, trees, rows, cols, tents) == []
    touching = solution_problems(4, 4, trees, rows, cols, [(0, 1), (1, 2)])
    assert any("touches" in p for p in touching)
    on_tree = solution_problems(4, 4, trees, rows, cols, [(0, 0), (2, 3)])
    assert any("on a tree" in p for p in on_tree)
    # a tent beside no tree cannot be paired
    far = [(0, 1), (3, 0)]
    r2, c2 = counts(4, far)
    assert any("paired" in p for p in solution_problems(4, 4, trees, r2, c2, far))
    assert any("count" in p for p in solution_problems(4, 4, trees, rows, cols, [(1, 0), (2, 3)]))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6))
def test_sat_counts_as_brute_force_does(seed):
    n = 5
    tents, trees = random_pairs(n, random.Random(seed))
    rows, cols = counts(n, tents)
    expected = brute_force(n, sorted(trees), rows, cols)
    assert sorted(tents) in expected
    assert sorted(solutions(n, n, sorted(trees), rows, cols, limit=10_000)) == sorted(expected)


@settings(max_examples=30, deadline=None)
@given(st.integers(5, 9), st.integers(0, 10**6))
def test_deductions_never_contradict_the_solution(n, seed):
    puzzle = generate_one(n, random.Random(seed))
    if puzzle is None:
        return
    answer = set(puzzle.tents)
    for step in puzzle.deduction.steps:
        assert set(step.tents) <= answer and not set(step.grass) & answer, step
    assert puzzle.deduction.tents == puzzle.tents
    clues = (n, n, puzzle.trees, puzzle.row_counts, puzzle.col_counts)
    again = deduce(*clues)
    assert again.level == puzzle.deduction.level
    # the hint from the start, and after the first step, continues the same solve
    steps = puzzle.deduction.steps
    assert next_step(*clues) == steps[0]
    if len(steps) > 1:
        assert next_step(*clues, steps[0].tents, steps[0].grass) == steps[1]


def ludolab(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ludolab.research.cli", "puzzle", "tents", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
    )


def test_generate_then_verify_and_catch_tampering(tmp_path):
    out = tmp_path / "tents.json"
    done = ludolab("generate", "--n", "9", "--size", "8", "--seed", "2", "--out", str(out), "-q",
                   cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    pack = read_pack(out, "tents")
    assert len(pack.puzzles) == 9 and {p.difficulty["level"] for p in pack.puzzles} == {
        "easy", "medium", "hard"
    }
    assert ludolab("verify", str(out), cwd=tmp_path).returncode == 0
    data = json.loads(out.read_text())
    data["puzzles"][2]["solution"]["tents"].pop()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    done = ludolab("verify", str(bad), cwd=tmp_path)
    assert done.returncode == 2 and "puzzles[2]" in done.stderr and done.stderr.count("\n") == 1


def test_a_size_the_generator_cannot_do_exits_2_and_writes_nothing(tmp_path):
    out = tmp_path / "p.json"
    done = ludolab("generate", "--n", "2", "--size", "3", "--out", str(out), cwd=tmp_path)
    assert done.returncode == 2 and "5..12" in done.stderr and not out.exists()
    with pytest.raises(ValueError, match="5..12"):
        generate_one(13, random.Random(0))
