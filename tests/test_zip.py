"""Zip: rules checker, SAT counter, deductions, generator, packs."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from puzzle_cli import puzzle_cli, tamperer

from ludolab.research.puzzles.pack import read_pack
from ludolab.research.puzzles.zip.deduce import deduce
from ludolab.research.puzzles.zip.generate import generate_one, random_path
from ludolab.research.puzzles.zip.rules import solution_problems
from ludolab.research.puzzles.zip.solve import solutions


def brute_force(n, numbers, walls):
    """Every path through the grid by depth-first search over cells, kept by the rules."""
    out = []
    start = tuple(numbers[0])

    def extend(path, seen):
        if len(path) == n * n:
            if not solution_problems(n, numbers, walls, path):
                out.append(list(path))
            return
        r, c = path[-1]
        for nxt in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= nxt[0] < n and 0 <= nxt[1] < n and nxt not in seen:
                seen.add(nxt)
                path.append(nxt)
                extend(path, seen)
                path.pop()
                seen.discard(nxt)

    extend([start], {start})
    return out


cases = st.integers(2, 4).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.lists(
            st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)),
            min_size=2,
            max_size=4,
            unique=True,
        ),
        st.lists(
            st.tuples(st.integers(0, n - 1), st.integers(0, n - 2), st.booleans()), max_size=3
        ),
    )
)


@settings(max_examples=80, deadline=None)
@given(cases)
def test_sat_counts_as_brute_force(case):
    n, numbers, raw_walls = case
    walls = []
    for a, b, across in raw_walls:  # a wall right of (a, b), or below (b, a)
        walls.append([[a, b], [a, b + 1]] if across else [[b, a], [b + 1, a]])
    numbers = [list(c) for c in numbers]
    expected = brute_force(n, numbers, walls)
    found = solutions(n, numbers, walls, limit=1000)
    assert sorted(found) == sorted(expected)


def test_random_paths_pass_every_cell_once():
    rng = random.Random(3)
    for n in (4, 5, 7):
        path = random_path(n, rng)
        assert not solution_problems(n, [list(path[0]), list(path[-1])], [], path)


def test_deductions_finish_generated_puzzles_without_contradicting_them():
    rng = random.Random(8)
    made = [p for p in (generate_one(5, rng) for _ in range(12)) if p is not None]
    assert made
    for p in made:
        assert p.deduction.solved and p.deduction.path == p.path
        on_path = {tuple(sorted(pair)) for pair in itertools.pairwise(p.path)}
        for step in p.deduction.steps:
            assert all(link in on_path for link in step.use)
            assert not any(link in on_path for link in step.close)
        assert solutions(p.size, p.numbers, p.walls, limit=2) == [list(p.path)]


def test_two_paths_are_not_finished():
    # A 2 x 2 grid from the top left to the bottom left: one way round; with the end on the
    # right, two.
    assert len(solutions(2, [[0, 0], [1, 0]])) == 1
    assert deduce(2, [[0, 0], [1, 0]]).solved
    numbers = [[0, 0], [1, 1]]
    assert solutions(3, numbers) and not deduce(3, [[0, 0], [2, 2]]).solved


def test_generation_is_reproducible():
    a = [generate_one(5, random.Random(s)) for s in range(4)]
    assert a == [generate_one(5, random.Random(s)) for s in range(4)]


def test_generate_verify_and_catch_tampering(tmp_path):
    out = tmp_path / "z.json"
    done = puzzle_cli(
        "zip",
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
    pack = read_pack(out, "zip")
    assert len(pack.puzzles) == 6
    done = puzzle_cli("zip", "verify", str(out), cwd=tmp_path)
    assert done.returncode == 0 and "6 Zip puzzles" in done.stdout, done.stderr
    tampered = tamperer("zip", out)

    def keep_ends_only(d):  # the first and last number alone: many paths
        numbers = d["puzzles"][0]["clues"]["numbers"]
        d["puzzles"][0]["clues"]["numbers"] = [numbers[0], numbers[-1]]
        d["puzzles"][0]["clues"]["walls"] = []

    def reverse(d):
        d["puzzles"][1]["solution"]["path"].reverse()

    assert "not unique" in tampered(keep_ends_only)
    assert "puzzles[1]" in tampered(reverse)
    assert "expected a list" in tampered(lambda d: d["puzzles"][2]["clues"].update(walls=5))
    for args, says in [(["--size", "3"], "4..9"), (["--size", "10"], "4..9")]:
        done = puzzle_cli(
            "zip", "generate", "--n", "2", "--out", str(tmp_path / "x.json"), *args, cwd=tmp_path
        )
        assert done.returncode == 2 and says in done.stderr and not (tmp_path / "x.json").exists()


def test_the_unique_small_cases_by_hand():
    # 3 x 3 from a corner to the opposite corner: exactly two paths (by symmetry).
    assert len(solutions(3, [[0, 0], [2, 2]], limit=10)) == 2
    # (0, 2) second does not tell them apart (both pass it before the end); the centre before
    # the bottom left does: one goes down the left side first.
    assert len(solutions(3, [[0, 0], [0, 2], [2, 2]], limit=10)) == 2
    numbers = [[0, 0], [1, 1], [2, 0], [2, 2]]
    assert list(itertools.chain.from_iterable(solutions(3, numbers, limit=10))) == [
        (0, 0),
        (0, 1),
        (0, 2),
        (1, 2),
        (1, 1),
        (1, 0),
        (2, 0),
        (2, 1),
        (2, 2),
    ]
    assert deduce(3, numbers).solved
