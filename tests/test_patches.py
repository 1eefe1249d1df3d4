"""Patches: rules checker, SAT counter, deductions, generator, packs."""

from __future__ import annotations

import random
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st
from puzzle_cli import puzzle_cli, tamperer

from ludolab.research.puzzles.pack import read_pack
from ludolab.research.puzzles.patches.deduce import deduce
from ludolab.research.puzzles.patches.generate import generate_one, random_tiling
from ludolab.research.puzzles.patches.rules import SHAPES, solution_problems
from ludolab.research.puzzles.patches.solve import candidates, solutions


def brute_force(n, clues):
    """Every choice of one candidate per clue that the rules checker accepts."""
    options = candidates(n, clues)
    return [list(choice) for choice in product(*options) if not solution_problems(n, clues, choice)]


clue_sets = st.integers(2, 3).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.lists(
            st.tuples(
                st.integers(0, n - 1),
                st.integers(0, n - 1),
                st.sampled_from(SHAPES),
                st.one_of(st.none(), st.integers(1, 4)),
            ),
            min_size=1,
            max_size=4,
            unique_by=lambda t: (t[0], t[1]),
        ),
    )
)


@settings(max_examples=80, deadline=None)
@given(clue_sets)
def test_sat_counts_as_brute_force(case):
    n, raw = case
    clues = [{"cell": [r, c], "shape": s, "area": a} for r, c, s, a in raw]
    assert sorted(solutions(n, clues, limit=1000)) == sorted(brute_force(n, clues))


def test_random_tilings_cover_the_grid_once():
    rng = random.Random(1)
    for n in (4, 6, 9):
        rects = random_tiling(n, rng)
        cells = [
            (r, c) for t, lft, b, rt in rects for r in range(t, b + 1) for c in range(lft, rt + 1)
        ]
        assert sorted(cells) == [(r, c) for r in range(n) for c in range(n)]


def test_deductions_finish_generated_puzzles_without_contradicting_them():
    rng = random.Random(6)
    made = [p for p in (generate_one(5, rng) for _ in range(10)) if p is not None]
    assert made
    for p in made:
        assert p.deduction.solved and p.deduction.patches == p.patches
        owner = {}
        for k, (t, lft, b, rt) in enumerate(p.patches):
            for r in range(t, b + 1):
                for c in range(lft, rt + 1):
                    owner[r, c] = k
        for step in p.deduction.steps:
            assert all(owner[cell] == k for cell, k in step.give)
            assert all(p.patches[k] != rect for k, rect in step.drop)
        assert solutions(p.size, p.clues, limit=2) == [list(p.patches)]


def test_two_tilings_are_not_finished():
    clues = [
        {"cell": [0, 0], "shape": "any", "area": None},
        {"cell": [1, 1], "shape": "any", "area": None},
    ]
    assert len(solutions(2, clues)) == 2 and not deduce(2, clues).solved


def test_generation_is_reproducible():
    a = [generate_one(5, random.Random(s)) for s in range(4)]
    assert a == [generate_one(5, random.Random(s)) for s in range(4)]


def test_generate_verify_and_catch_tampering(tmp_path):
    out = tmp_path / "p.json"
    done = puzzle_cli(
        "patches",
        "generate",
        "--n",
        "5",
        "--size",
        "5",
        "--difficulty",
        "easy",
        "--seed",
        "2",
        "--out",
        str(out),
        "-q",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert len(read_pack(out, "patches").puzzles) == 5
    done = puzzle_cli("patches", "verify", str(out), cwd=tmp_path)
    assert done.returncode == 0 and "5 Patches puzzles" in done.stdout, done.stderr
    tampered = tamperer("patches", out)

    def vague(d):  # every clue says nothing: many tilings
        for clue in d["puzzles"][0]["clues"]["clues"]:
            clue.update(shape="any", area=None)

    assert "puzzles[0]" in tampered(vague)
    assert "shape must be one of" in tampered(
        lambda d: d["puzzles"][1]["clues"]["clues"][0].update(shape="round")
    )
    assert "puzzles[2]" in tampered(lambda d: d["puzzles"][2]["solution"]["patches"].reverse())
    for args, says in [(["--size", "3"], "4..9"), (["--size", "10"], "4..9")]:
        done = puzzle_cli(
            "patches",
            "generate",
            "--n",
            "2",
            "--out",
            str(tmp_path / "x.json"),
            *args,
            cwd=tmp_path,
        )
        assert done.returncode == 2 and says in done.stderr and not (tmp_path / "x.json").exists()
