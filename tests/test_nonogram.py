"""Nonogram: rules checker, SAT counter, line logic and deductions, generator, packs."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from puzzle_cli import puzzle_cli, tamperer

from ludolab.research.puzzles.nonogram.deduce import UNKNOWN, deduce, line_solve, overlap
from ludolab.research.puzzles.nonogram.generate import clues_of, generate_one
from ludolab.research.puzzles.nonogram.images import GLYPHS, rasterise
from ludolab.research.puzzles.nonogram.rules import runs, solution_problems
from ludolab.research.puzzles.nonogram.solve import solutions
from ludolab.research.puzzles.pack import read_pack

grids = st.integers(2, 4).flatmap(
    lambda n: st.lists(st.lists(st.integers(0, 1), min_size=n, max_size=n), min_size=n, max_size=n)
)


def brute_force(rows, cols):
    """Every grid the rules checker accepts: of all 2^m lines, those that fit each row's clue,
    then every combination of them (the grids that break a row clue could not pass)."""
    lines = list(itertools.product((0, 1), repeat=len(cols)))
    fitting = [[list(line) for line in lines if runs(line) == list(clue)] for clue in rows]
    return [
        list(grid)
        for grid in itertools.product(*fitting)
        if not solution_problems(rows, cols, list(grid))
    ]


@settings(max_examples=60, deadline=None)
@given(grids)
def test_sat_counts_as_brute_force(grid):
    rows, cols = clues_of(grid)
    expected = brute_force(rows, cols)
    found = solutions(rows, cols, limit=100)
    assert sorted(found) == sorted(expected)
    assert grid in found


lines = st.integers(1, 9).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 1), min_size=n, max_size=n),
        st.lists(st.sampled_from([UNKNOWN, UNKNOWN, 0, 1]), min_size=n, max_size=n),
    )
)


@settings(max_examples=300, deadline=None)
@given(lines)
def test_line_logic_against_every_placement(case):
    truth, known = case
    clue = tuple(runs(truth))
    cells = tuple(known)
    fits = [
        p
        for p in itertools.product((0, 1), repeat=len(cells))
        if runs(p) == list(clue) and all(k in (UNKNOWN, v) for k, v in zip(cells, p, strict=True))
    ]
    full = line_solve(clue, cells)
    slide = overlap(clue, cells)
    if not fits:
        assert full is None and slide is None
        return
    expected = tuple(
        fits[0][i] if all(p[i] == fits[0][i] for p in fits) else UNKNOWN for i in range(len(cells))
    )
    assert full == expected
    # The overlap rule is sound (never says more than every placement) and keeps what is known.
    assert slide is not None
    for i, v in enumerate(slide):
        assert v == UNKNOWN or v == expected[i]
        assert cells[i] == UNKNOWN or v == cells[i]


def test_deductions_finish_generated_puzzles_without_contradicting_them():
    rng = random.Random(5)
    made = [p for p in (generate_one(8, rng) for _ in range(20)) if p is not None]
    assert made
    for p in made:
        assert p.deduction.solved and p.deduction.grid == p.grid
        for step in p.deduction.steps:
            assert all(p.grid[r][c] == 1 for r, c in step.shade)
            assert all(p.grid[r][c] == 0 for r, c in step.blank)
        assert solutions(p.rows, p.cols, limit=2) == [list(map(list, p.grid))]


def test_the_checker_names_each_broken_row_and_column():
    rows, cols = clues_of([[1, 0], [0, 1]])
    assert solution_problems(rows, cols, [[1, 0], [0, 1]]) == []
    assert solution_problems(rows, cols, [[1, 1], [0, 0]]) == [
        "row 0 has blocks [2], its clue says [1]",
        "row 1 has blocks [], its clue says [1]",
    ]
    assert solution_problems(rows, cols, [[1, 1], [1, 0]]) == [
        "row 0 has blocks [2], its clue says [1]",
        "column 0 has blocks [2], its clue says [1]",
    ]


def test_a_picture_with_two_solutions_is_not_finished():
    rows, cols = clues_of([[1, 0], [0, 1]])  # the diagonal and the antidiagonal
    assert len(solutions(rows, cols)) == 2
    assert not deduce(rows, cols).solved


def test_every_glyph_draws_a_picture():
    for glyph in GLYPHS:
        grid = rasterise(glyph, 10)
        assert 15 <= sum(map(sum, grid)) <= 80, glyph


def test_generation_is_reproducible():
    a = [generate_one(9, random.Random(s)) for s in range(5)]
    b = [generate_one(9, random.Random(s)) for s in range(5)]
    assert a == b
    with pytest.raises(ValueError, match="8..15"):
        generate_one(7, random.Random(0))


def test_generate_verify_and_catch_tampering(tmp_path):
    out = tmp_path / "n.json"
    done = puzzle_cli(
        "nonogram",
        "generate",
        "--n",
        "4",
        "--size",
        "8",
        "--difficulty",
        "easy",
        "--seed",
        "3",
        "--out",
        str(out),
        "-q",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    pack = read_pack(out, "nonogram")
    assert len(pack.puzzles) == 4 and all(p.difficulty["level"] == "easy" for p in pack.puzzles)
    assert all(p.provenance["glyph"] in GLYPHS for p in pack.puzzles)
    done = puzzle_cli("nonogram", "verify", str(out), cwd=tmp_path)
    assert done.returncode == 0 and "4 Nonogram puzzles" in done.stdout, done.stderr
    tampered = tamperer("nonogram", out)

    def flip(d):
        d["puzzles"][1]["solution"]["grid"][0][0] ^= 1

    def widen(d):
        d["puzzles"][0]["clues"]["rows"][0] = [9]

    assert "puzzles[1]" in tampered(flip)
    assert "do not fit" in tampered(widen)
    assert "the deductions say" in tampered(
        lambda d: d["puzzles"][2]["difficulty"].update(level="hard")
    )
    for args, says in [(["--size", "7"], "8..15"), (["--size", "16"], "8..15")]:
        done = puzzle_cli(
            "nonogram",
            "generate",
            "--n",
            "2",
            "--out",
            str(tmp_path / "x.json"),
            *args,
            cwd=tmp_path,
        )
        assert done.returncode == 2 and says in done.stderr and not (tmp_path / "x.json").exists()
