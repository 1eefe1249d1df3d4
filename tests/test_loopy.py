"""Loopy (Slitherlink): rules checker, SAT counter, deductions, generator, packs."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from puzzle_cli import puzzle_cli, tamperer

from ludolab.research.puzzles.loopy.deduce import deduce
from ludolab.research.puzzles.loopy.generate import boundary, generate_one, random_region
from ludolab.research.puzzles.loopy.rules import all_edges, loop_problems
from ludolab.research.puzzles.loopy.solve import solutions
from ludolab.research.puzzles.pack import read_pack


def brute_force(rows, cols, clues):
    edges = all_edges(rows, cols)
    out = []
    for bits in itertools.product((0, 1), repeat=len(edges)):
        loop = {e for e, b in zip(edges, bits, strict=True) if b}
        if loop and not loop_problems(rows, cols, clues, loop):
            out.append(loop)
    return out


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from([None, None, 0, 1, 2, 3]), min_size=4, max_size=4))
def test_sat_counts_as_brute_force_on_2x2(flat):
    clues = [flat[:2], flat[2:]]
    expected = brute_force(2, 2, clues)
    found = solutions(2, 2, clues, limit=100)
    assert sorted(map(sorted, found)) == sorted(map(sorted, expected))


def test_loop_counts_of_empty_grids():
    # Cycles of the grid graph of (n + 1) x (n + 1) dots: OEIS A140517 (1, 13, 213).
    assert [len(solutions(n, n, [[None] * n] * n, limit=1000)) for n in (1, 2, 3)] == [1, 13, 213]


def test_random_regions_have_one_loop_as_boundary():
    rng = random.Random(4)
    for n in (4, 6, 8):
        for _ in range(5):
            loop = boundary(random_region(n, rng))
            assert not loop_problems(n, n, [[None] * n] * n, loop)


def test_deductions_finish_generated_puzzles_without_contradicting_them():
    rng = random.Random(2)
    made = [p for p in (generate_one(5, rng) for _ in range(10)) if p is not None]
    assert made
    for p in made:
        assert p.deduction.solved and p.deduction.loop == p.loop
        for step in p.deduction.steps:
            assert set(step.use) <= p.loop and not set(step.close) & p.loop
        assert solutions(p.size, p.size, p.clues, limit=2) == [set(p.loop)]


def test_generation_is_reproducible():
    a = [generate_one(5, random.Random(s)) for s in range(4)]
    assert a == [generate_one(5, random.Random(s)) for s in range(4)]


def test_two_loops_are_not_finished():
    clues = [[None, None], [None, None]]
    assert len(solutions(2, 2, clues)) == 2 and not deduce(2, 2, clues).solved


def test_generate_verify_and_catch_tampering(tmp_path):
    out = tmp_path / "l.json"
    done = puzzle_cli(
        "loopy",
        "generate",
        "--n",
        "6",
        "--size",
        "5",
        "--seed",
        "2",
        "--out",
        str(out),
        "-q",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert len(read_pack(out, "loopy").puzzles) == 6
    done = puzzle_cli("loopy", "verify", str(out), cwd=tmp_path)
    assert done.returncode == 0 and "6 Loopy puzzles" in done.stdout, done.stderr
    tampered = tamperer("loopy", out)

    def blank(d):
        d["puzzles"][0]["clues"]["numbers"] = [[None] * 5 for _ in range(5)]

    assert "puzzles[0]" in tampered(blank)
    assert "puzzles[1]" in tampered(lambda d: d["puzzles"][1]["solution"]["loop"].pop())
    assert "a clue is 0, 1, 2, 3" in tampered(
        lambda d: d["puzzles"][2]["clues"]["numbers"][0].__setitem__(0, 4)
    )
    for args, says in [(["--size", "3"], "4..10"), (["--size", "11"], "4..10")]:
        done = puzzle_cli(
            "loopy", "generate", "--n", "2", "--out", str(tmp_path / "x.json"), *args, cwd=tmp_path
        )
        assert done.returncode == 2 and says in done.stderr and not (tmp_path / "x.json").exists()
