"""Sudoku: grids, the counting solver, the generator, the hardness ladder, symmetrification,
the study config and the CLI."""

from __future__ import annotations

import itertools
import json
import random
import shutil

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ludolab.research.cli import main
from ludolab.research.puzzles import PuzzleError
from ludolab.research.puzzles.sudoku import propagate as prop
from ludolab.research.puzzles.sudoku import solver as solver_module
from ludolab.research.puzzles.sudoku.classify import classify, ladder
from ludolab.research.puzzles.sudoku.generate import (
    Puzzle,
    generate_puzzle,
    generate_puzzles,
    read_puzzles,
    unique_solution,
)
from ludolab.research.puzzles.sudoku.grid import (
    BOXES,
    check_clues,
    format_grid,
    geometry,
    is_solution,
    parse_grid,
)
from ludolab.research.puzzles.sudoku.propagate import LEVELS, TAGS, candidates, propagate_grid
from ludolab.research.puzzles.sudoku.solver import (
    count_solutions,
    has_other_solution,
    is_unique,
    random_fill,
    solve,
    solve_domains,
)
from ludolab.research.puzzles.sudoku.study import load_study, parse_study, run_study
from ludolab.research.puzzles.sudoku.symmetrify import (
    all_pairings,
    asymmetric_cells,
    is_symmetric,
    layout_for,
    rotation_pairing,
    summarise,
    symmetrify_puzzle,
)

# A well-known puzzle (Wikipedia's example) and its solution.
WIKI = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
WIKI_SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
AI_ESCARGOT = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."

# Puzzles that separate consecutive levels: each is solved (no branching) by its level and
# not by the level below, found by `generate_puzzles` (seeds 3 and 11) and, for ds, by adding
# solution clues to Easter Monster in a random order until the ladder first solved it.
SEPARATING = {
    "val": "..6..7....712985...8.53..7..1...27..5.....813..74...25..438.16..3.96..8...8..43.9",
    "bnd": ".3.61..2.1.9.3.......5..8...58...4..2......1.9...2.....65.....8....9.......8..3.7",
    "dom": "..13.7....6.152...8...9..3.35......1..9....2.....6.84......1..4.3.2.....9.5......",
    "bs": "...6...1..6.9.3.....8.5..4.....891.7.4....9..7......3..9.......61.5.4..8..579...2",
    "ds": "1.......2.9.4...5...6...7...5.9.3.7.....7.......85..4.7.....6...3...9.8...2.....1",
    "search": AI_ESCARGOT,
}
SEPARATING_6 = {
    "val": "3.4..55....3..3......6.1..6.1..4....",
    "bnd": "6...1.....3..1.6..3..5....4....2.3..",
    "dom": "...34...6..2.2.....5...33.2..5......",
    "bs": ".1...53..1....64.3.......2.......3..",
}


def _unique_puzzles(size: int, count: int, seed: int, clues: int | None = None) -> list[Puzzle]:
    return list(generate_puzzles(size, count, seed, clues))


# ------------------------------------------------------------------------------ grids


def test_parse_compact_and_numbers_forms_agree():
    compact = parse_grid(WIKI)
    assert len(compact) == 81 and compact[:3] == (5, 3, 0)
    rows = "\n".join(WIKI[i : i + 9] for i in range(0, 81, 9))
    assert parse_grid(rows) == compact
    numbers = " ".join("0" if ch == "." else ch for ch in WIKI)
    assert parse_grid(numbers) == compact
    drawn = "|".join(WIKI[i : i + 9] for i in range(0, 81, 9)) + "\n+---+"
    assert parse_grid(drawn) == compact
    assert format_grid(compact, 9, one_line=True) == WIKI


@pytest.mark.parametrize("n", sorted(BOXES))
def test_format_parse_round_trip_every_size(n):
    solution = random_fill(n, random.Random(n))
    puzzle = tuple(0 if i % 3 == 0 else v for i, v in enumerate(solution))
    for grid in (puzzle, solution):
        assert parse_grid(format_grid(grid, n), n) == grid
        assert parse_grid(format_grid(grid, n, one_line=True), n) == grid


def test_sixteen_uses_letters_and_thirty_six_numbers():
    p = generate_puzzle(16, 1, clues=200)
    text = format_grid(p.solution, 16, one_line=True)
    assert set(text) == set("123456789ABCDEFG")
    assert parse_grid(text.lower(), 16) == p.solution
    geo = geometry(36)
    assert geo.box_rows == geo.box_cols == 6 and len(geo.units) == 108
    assert len(format_grid((0,) * 1296, 36, one_line=True).split()) == 1296


@pytest.mark.parametrize(
    "text, size, message",
    [
        (WIKI[:-1], None, "found 80 cells"),
        (WIKI[:-1] + "x", None, "character 'x' at r9c9"),
        (WIKI[:-1] + "A", None, "expected 1-9"),
        (WIKI[:-1] + "5", None, "appears twice in column 9"),
        ("55" + WIKI[2:], None, "appears twice in row 1"),
        (WIKI, 16, "expected 256 cells for a 16x16"),
        (" ".join(["17"] + ["0"] * 80), None, "token '17' at r1c1"),
        ("", None, "found 0 cells"),
    ],
)
def test_parse_errors_are_clear(text, size, message):
    with pytest.raises(PuzzleError, match=message):
        parse_grid(text, size)


def test_conflicting_clues_name_both_cells():
    grid = list(parse_grid(WIKI))
    grid[8] = 5  # row 1 already holds a 5 at r1c1
    with pytest.raises(PuzzleError, match=r"r1c1 and r1c9"):
        check_clues(tuple(grid), 9)


def test_unsupported_size_is_a_puzzle_error():
    with pytest.raises(PuzzleError, match="must be one of 6 .2x3 boxes"):
        geometry(10)


# ------------------------------------------------------------------------------ solver


def test_known_unique_puzzle_and_its_solution():
    res = solve(parse_grid(WIKI), 9, limit=2)
    assert res.count == 1 and res.complete
    assert format_grid(res.solutions[0], 9, one_line=True) == WIKI_SOLUTION
    assert is_unique(parse_grid(AI_ESCARGOT), 9)


def _deadly_rectangle(sol: tuple[int, ...], n: int = 9) -> list[int] | None:
    """Four cells in two rows of one band and two columns of two stacks holding a, b / b, a:
    swapping them gives a second valid grid (an "unavoidable rectangle")."""
    for r1, r2 in itertools.combinations(range(n), 2):
        if r1 // 3 != r2 // 3:
            continue
        for c1, c2 in itertools.combinations(range(n), 2):
            a, b = sol[r1 * n + c1], sol[r1 * n + c2]
            if c1 // 3 != c2 // 3 and sol[r2 * n + c1] == b and sol[r2 * n + c2] == a:
                return [r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2]
    return None


def test_two_solutions_are_found():
    sol = next(
        p.solution
        for p in generate_puzzles(9, 50, 0, clues=81)
        if _deadly_rectangle(p.solution) is not None
    )
    grid = list(sol)
    for cell in _deadly_rectangle(sol):
        grid[cell] = 0
    assert count_solutions(tuple(grid), 9, limit=5) == 2
    assert not is_unique(tuple(grid), 9)
    empty = (0,) * 81
    assert count_solutions(empty, 9, limit=2) == 2
    assert count_solutions(parse_grid("12" + "." * 79), 9, limit=1) == 1


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), keep=st.floats(0.05, 0.5), n=st.sampled_from([6, 9]))
def test_every_solution_found_is_valid(seed, keep, n):
    """Random clue subsets of a full grid (often several solutions): each solution the search
    reports is a valid grid that agrees with the clues, and they are distinct."""
    full = random_fill(n, random.Random(seed))
    rng = random.Random(seed + 1)
    grid = tuple(v if rng.random() < keep else 0 for v in full)
    res = solve(grid, n, limit=3)
    assert 1 <= res.count <= 3 and len(set(res.solutions)) == res.count
    assert full in res.solutions or res.count == 3
    for sol in res.solutions:
        assert is_solution(sol, n)
        assert all(v in (0, s) for v, s in zip(grid, sol, strict=True))


def test_two_hidden_singles_in_one_cell_is_a_contradiction():
    """Row 1 of a 6x6: cell r1c1 is the only place for both 1 and 2 -- no solution (a solver
    that took the cell as "fixed" would report a false one)."""
    geo = geometry(6)
    doms = [geo.full] * geo.cells
    doms[0] = 0b11
    for c in range(1, 6):
        doms[c] = geo.full & ~0b11
    res = solve_domains(doms, 6, limit=2)
    assert res.count == 0 and res.complete
    state = list(doms)
    dirty = bytearray(b"\x01" * len(geo.units))
    assert not solver_module._propagate(state, geo, [], [False] * geo.cells, dirty)


needs_minizinc = pytest.mark.skipif(
    shutil.which("minizinc") is None or shutil.which("fzn-gecode") is None,
    reason="MiniZinc/Gecode not installed (make setup)",
)


@needs_minizinc
def test_uniqueness_agrees_with_gecode():
    """The model's two faces: Gecode (sudoku.mzn) and the Python solver count alike."""
    from ludolab.research.puzzles.sudoku.model import count_solutions_minizinc

    puzzles = _unique_puzzles(6, 2, 5) + _unique_puzzles(9, 2, 5) + _unique_puzzles(16, 1, 5, 120)
    for p in puzzles:
        assert count_solutions_minizinc(p.grid, p.size) == (1, [p.solution])
    sol = next(
        p.solution
        for p in generate_puzzles(9, 50, 0, clues=81)
        if _deadly_rectangle(p.solution) is not None
    )
    grid = tuple(0 if i in _deadly_rectangle(sol) else v for i, v in enumerate(sol))
    count, found = count_solutions_minizinc(grid, 9, limit=3)
    assert count == 2 and sorted(found) == sorted(solve(grid, 9, limit=3).solutions)
    assert count_solutions_minizinc(parse_grid(AI_ESCARGOT), 9)[0] == 1


def test_has_other_solution_matches_counting():
    grid = list(parse_grid(WIKI))
    sol = parse_grid(WIKI_SOLUTION)
    for cell in range(81):
        if grid[cell]:
            v = grid[cell]
            grid[cell] = 0
            other = has_other_solution(tuple(grid), 9, cell, v)
            assert other == (count_solutions(tuple(grid), 9) > 1)
            assert solve(tuple(grid), 9, 1).solutions[0] == sol or other
            grid[cell] = v


# ------------------------------------------------------------------------------ generator


@pytest.mark.parametrize(
    "n, count, clues", [(6, 8, None), (9, 6, None), (16, 2, 130), (25, 1, 480), (36, 1, 1150)]
)
def test_generated_puzzles_are_unique_consistent_and_reproducible(n, count, clues):
    puzzles = _unique_puzzles(n, count, 42, clues)
    assert puzzles == _unique_puzzles(n, count, 42, clues)
    assert len({p.grid for p in puzzles}) == count
    for p in puzzles:
        assert is_solution(p.solution, n)
        assert all(v in (0, s) for v, s in zip(p.grid, p.solution, strict=True))
        assert is_unique(p.grid, n)
        if clues is None:
            assert p.minimal
        else:
            assert p.clues == clues and not p.minimal


def test_minimal_means_no_clue_can_go():
    for p in _unique_puzzles(9, 2, 3):
        assert p.minimal
        for cell, v in enumerate(p.grid):
            if v:
                grid = list(p.grid)
                grid[cell] = 0
                assert count_solutions(tuple(grid), 9) == 2


def test_puzzle_json_round_trip_and_errors(tmp_path):
    p = generate_puzzle(9, 1).with_tag("dom")
    assert Puzzle.from_json(p.to_json()) == p
    d = json.loads(p.to_json())
    del d["solution"]
    assert Puzzle.from_json(json.dumps(d)).solution == p.solution
    with pytest.raises(PuzzleError, match="more than one solution"):
        Puzzle.from_json(json.dumps({"grid": "." * 81}))
    with pytest.raises(PuzzleError, match="disagrees"):
        bad = dict(json.loads(p.to_json()))
        cell = next(i for i, v in enumerate(p.grid) if v)
        a, b = str(p.grid[cell]), str(p.grid[cell] % 9 + 1)
        # Swap two digits everywhere: still a valid grid, but not this puzzle's solution.
        bad["solution"] = bad["solution"].replace(a, "x").replace(b, a).replace("x", b)
        Puzzle.from_json(json.dumps(bad), "x.jsonl:3")
    f = tmp_path / "bad.jsonl"
    f.write_text(p.to_json() + "\n{not json\n")
    with pytest.raises(PuzzleError, match=r"bad.jsonl:2: not valid JSON"):
        read_puzzles(f)


# ------------------------------------------------------------------------------ propagators


def _gac_bruteforce(doms: list[int], n: int) -> list[int] | None:
    """Domain consistency of one all-different by enumerating every assignment."""
    support = [0] * len(doms)
    values = range(n)
    for perm in itertools.permutations(values, len(doms)):
        if all(doms[i] >> v & 1 for i, v in enumerate(perm)):
            for i, v in enumerate(perm):
                support[i] |= 1 << v
    return None if not all(support) else support


def _bc_bruteforce(doms: list[int], n: int) -> list[int] | None:
    """``val`` + bounds(Z) consistency of one all-different, by enumeration, to a fixpoint."""
    doms = list(doms)
    while True:
        fixed = [d for d in doms if d & (d - 1) == 0]
        if len(set(fixed)) < len(fixed):
            return None
        mask = sum(set(fixed))
        new = [d if d & (d - 1) == 0 else d & ~mask for d in doms]
        if not all(new):
            return None
        lo = [(d & -d).bit_length() - 1 for d in new]
        hi = [d.bit_length() - 1 for d in new]
        for i in range(len(new)):
            for b in {lo[i], hi[i]}:
                others = [j for j in range(len(new)) if j != i]
                ok = any(
                    len(set(vals)) == len(vals) and b not in vals
                    for vals in itertools.product(*(range(lo[j], hi[j] + 1) for j in others))
                )
                if not ok:
                    new[i] &= ~(1 << b)
        if not all(new):
            return None
        if new == doms:
            return doms
        doms = new


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(1, 63), min_size=6, max_size=6))
def test_dom_is_exactly_domain_consistency(doms):
    unit = tuple(range(6))
    mine = list(doms)
    changed = prop._dom_unit(mine, unit)
    expected = _gac_bruteforce(doms, 6)
    # GAC of the unit after val: val may fail where a matching also fails, and vice versa not.
    if expected is None:
        assert changed is None
    else:
        assert changed is not None and mine == expected


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(1, 63), min_size=6, max_size=6))
def test_bnd_is_exactly_bounds_consistency(doms):
    unit = tuple(range(6))
    mine = list(doms)
    changed = prop._bnd_unit(mine, unit)
    expected = _bc_bruteforce(doms, 6)
    if expected is None:
        assert changed is None
    else:
        assert changed is not None and mine == expected


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.sampled_from([6, 9]),
    seed=st.integers(0, 2**32),
    extra=st.integers(0, 12),
    knock=st.floats(0, 0.6),
)
def test_propagators_never_remove_the_solution(n, seed, extra, knock):
    """Soundness: from the clues, and from random domains that still hold the solution."""
    p = generate_puzzle(n, seed, clues=None if extra == 0 else n * n // 3 + extra)
    rng = random.Random(seed)
    geo = geometry(n)
    start = prop.initial_domains(p.grid, n)
    # Knock random non-solution values out: states the ladder meets during shaving trials.
    for cell in range(geo.cells):
        sol = 1 << (p.solution[cell] - 1)
        for v in range(n):
            if rng.random() < knock:
                start[cell] &= ~(1 << v) | sol
    for level in LEVELS:
        doms = list(start)
        assert prop.propagate(doms, n, level), level
        for cell, v in enumerate(p.solution):
            assert doms[cell] >> (v - 1) & 1, (level, cell)


@settings(max_examples=20, deadline=None)
@given(n=st.sampled_from([6, 9]), seed=st.integers(0, 2**32))
def test_ladder_is_monotone(n, seed):
    """A stronger level never leaves a value a weaker one removed (so never more candidates)."""
    p = generate_puzzle(n, seed)
    fix = ladder(p.grid, n)
    for weak, strong in itertools.pairwise(LEVELS):
        a, b = fix[weak], fix[strong]
        assert a is not None and b is not None
        assert all(y & ~x == 0 for x, y in zip(a, b, strict=True)), (weak, strong)
        assert candidates(b) <= candidates(a)


def test_incremental_climb_equals_levels_from_scratch():
    for p in _unique_puzzles(9, 6, 8):
        result = classify(p.grid, 9)
        fix = ladder(p.grid, 9)
        for level, cands in result.candidates.items():
            assert cands == candidates(fix[level])


@pytest.mark.parametrize("tag", TAGS)
def test_separating_examples_9x9(tag):
    grid = parse_grid(SEPARATING[tag])
    assert is_unique(grid, 9)
    assert classify(grid, 9).tag == tag
    fix = ladder(grid, 9)
    k = TAGS.index(tag)
    if k > 0:  # not solved one level down, from scratch
        assert not prop.is_solved(fix[LEVELS[k - 1]])
    if tag != "search":
        assert prop.is_solved(fix[tag])


@pytest.mark.parametrize("tag", sorted(SEPARATING_6))
def test_separating_examples_6x6(tag):
    grid = parse_grid(SEPARATING_6[tag])
    assert classify(grid, 6).tag == tag


def test_classify_max_level_and_errors():
    grid = parse_grid(SEPARATING["bs"])
    assert classify(grid, 9, max_level="dom").tag == "search"
    with pytest.raises(PuzzleError, match="must be one of val, bnd"):
        classify(grid, 9, max_level="gac")
    with pytest.raises(PuzzleError, match="no solution"):
        # Row 1 is full but for one cell whose only value is used in its column.
        classify(parse_grid("12345678." + "." * 8 + "9" + "." * 63), 9)
    assert propagate_grid(parse_grid("12345678." + "." * 8 + "9" + "." * 63), 9, "val") is None


def test_bounds_pruning_that_fixes_two_cells_to_one_value_fails():
    # Cells 0 and 1 hold {1, 2} between them (a Hall interval), so cells 2 and 3 both drop to
    # {3}: the values check that follows the pruning must see the clash.
    assert prop._bnd_unit([0b11, 0b11, 0b101, 0b101], (0, 1, 2, 3)) is None
    doms = [0b11, 0b11, 0b101, 0b1001]
    assert prop._bnd_unit(doms, (0, 1, 2, 3)) == [2, 3]
    assert doms[2:] == [0b100, 0b1000]


# ------------------------------------------------------------------------------ symmetrify


def test_pairings_come_from_box_preserving_layouts():
    for n in (6, 9):
        geo = geometry(n)
        for h in (geo.box_rows, geo.box_cols):
            pairings = list(all_pairings(n, h))
            assert len(set(pairings)) == len(pairings)
            assert rotation_pairing(n) in pairings
            for p in pairings:
                assert all(p[p[r]] == r for r in range(n))
                layout = layout_for(p, n, h)
                assert sorted(layout) == list(range(n))
                # bands stay whole, and the rotation pairs lines as p says
                assert all(
                    len({x // h for x in layout[g * h : (g + 1) * h]}) == 1 for g in range(n // h)
                )
                assert all(layout[n - 1 - i] == p[layout[i]] for i in range(n))
    assert len(list(all_pairings(9, 3))) == 54


def test_symmetrify_keeps_uniqueness_tag_and_reports_consistently():
    originals = [p.with_tag(classify(p.grid, p.size).tag) for p in _unique_puzzles(9, 6, 2)]
    originals += [p.with_tag(classify(p.grid, 6).tag) for p in _unique_puzzles(6, 6, 2)]
    results = [symmetrify_puzzle(p) for p in originals]
    for before, r in zip(originals, results, strict=True):
        n = before.size
        after = r.puzzle
        assert is_unique(after.grid, n)
        assert unique_solution(after.grid, n) == after.solution
        assert classify(after.grid, n).tag == before.tag == after.tag
        assert after.clues == before.clues + r.clues_added
        rot = rotation_pairing(n)
        assert asymmetric_cells(after.grid, n, rot, rot) == r.asymmetric_after
        assert asymmetric_cells(before.grid, n, rot, rot) == r.asymmetric_before
        assert is_symmetric(after.grid, n) == r.symmetric
        assert r.asymmetric_after <= r.asymmetric_before
    report = summarise(results, originals)
    assert report.symmetric_after == sum(
        is_symmetric(r.puzzle.grid, r.puzzle.size) for r in results
    )
    assert report.asymmetric_after == sum(r.asymmetric_after for r in results)
    assert report.asymmetric_after < report.asymmetric_before
    assert report.symmetric_after >= 1


def test_symmetrify_16x16_uses_the_pairing_search():
    p = generate_puzzle(16, 4, clues=120)
    r = symmetrify_puzzle(p, layouts=2, restarts=1)
    assert r.asymmetric_after < r.asymmetric_before
    assert is_unique(r.puzzle.grid, 16) and r.puzzle.tag == classify(p.grid, 16).tag


# ------------------------------------------------------------------------------ study config


def _config(**over):
    base = {"seed": 1, "sizes": [{"size": 6, "clues": [10, 14], "puzzles": 3}]}
    base.update(over)
    return base


@pytest.mark.parametrize(
    "data, message",
    [
        (_config(seeds=1), "key 'seeds': unknown key; allowed keys: name, question"),
        ({"sizes": [{"size": 6, "clues": [10], "puzzles": 1}]}, "key 'seed': missing"),
        (_config(seed="x"), "key 'seed': expected an integer"),
        (_config(max_level="gac"), "'gac' is not one of val, bnd, dom, bs, ds"),
        (_config(sizes=[]), "key 'sizes': expected one or more"),
        (
            _config(sizes=[{"size": 10, "clues": [1], "puzzles": 1}]),
            "key 'sizes\\[0\\].size': 10 is not one of 6, 9, 16, 25, 36",
        ),
        (_config(sizes=[{"size": 6, "clues": [40], "puzzles": 1}]), "40 is outside 0..36"),
        (
            _config(sizes=[{"size": 6, "clues": "10", "puzzles": 1}]),
            "sizes\\[0\\].clues': expected a list",
        ),
        (
            _config(sizes=[{"size": 6, "clues": [10], "puzzles": 0}]),
            "sizes\\[0\\].puzzles': 0 is below the minimum 1",
        ),
        (
            _config(sizes=[{"size": 6, "clues": [10], "puzzles": 1, "count": 2}]),
            "sizes\\[0\\].count': unknown key; allowed keys: size, clues, puzzles, node_limit",
        ),
        (_config(workers=0), "key 'workers': 0 is below the minimum 1"),
    ],
)
def test_study_config_errors_name_the_key(data, message):
    with pytest.raises(PuzzleError, match=message):
        parse_study(data, "exp.toml")


def test_load_study_file_errors(tmp_path):
    with pytest.raises(PuzzleError, match="no such study config"):
        load_study(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("seed = \n")
    with pytest.raises(PuzzleError, match="bad.toml: not valid TOML"):
        load_study(bad)


def test_shipped_config_loads():
    config = load_study("experiments/sudoku-hardness.toml")
    assert [s.size for s in config.sizes] == [6, 9, 16, 25, 36]
    assert config.max_level == "ds"


def test_study_writes_tables_and_figure_independent_of_workers(tmp_path):
    config = parse_study(
        _config(
            sizes=[
                {"size": 6, "clues": [9, 11, 14], "puzzles": 4},
                {"size": 9, "clues": [26, 34], "puzzles": 2},
            ]
        ),
        "tiny.toml",
    )
    one = run_study(config, tmp_path / "a", workers=1)
    two = run_study(config, tmp_path / "b", workers=2)
    names = {p.name for p in one.paths}
    assert names == {"puzzles.parquet", "summary.csv", "summary.md", "hardness.pdf", "hardness.png"}
    table = pd.read_parquet(tmp_path / "a" / "puzzles.parquet")
    assert len(table) == 3 * 4 + 2 * 2
    keep = [c for c in table.columns if not c.startswith("seconds")]
    pd.testing.assert_frame_equal(
        table[keep], pd.read_parquet(tmp_path / "b" / "puzzles.parquet")[keep]
    )
    assert (table["bucket"] <= table["clues"]).all()
    assert (table["clues"] >= table["target"]).all()
    summary = pd.read_csv(tmp_path / "a" / "summary.csv")
    shares = summary[list(TAGS)].sum(axis=1)
    assert shares.round(6).eq(1).all()
    assert summary["puzzles"].sum() == len(table)
    assert not list(tmp_path.glob("*/.*"))  # no temporaries left behind
    assert (two.summary == one.summary).all().all()


# ------------------------------------------------------------------------------ CLI


GENERATE = ["puzzle", "sudoku", "generate", "--size", "9"]


def test_cli_generate_classify_symmetrify(tmp_path, capsys):
    out = tmp_path / "p.jsonl"
    assert main([*GENERATE, "--count", "4", "--seed", "3", "--classify", "--out", str(out)]) == 0
    text = out.read_text()
    assert main([*GENERATE, "--count", "4", "--seed", "3", "--classify", "--out", str(out)]) == 0
    assert out.read_text() == text
    puzzles = read_puzzles(out)
    assert len(puzzles) == 4 and all(p.tag in TAGS for p in puzzles)
    assert "4 9x9 puzzles (seed 3)" in capsys.readouterr().out
    tagged = tmp_path / "t.jsonl"
    assert main(["puzzle", "sudoku", "classify", str(out), "--out", str(tagged)]) == 0
    assert [p.tag for p in read_puzzles(tagged)] == [p.tag for p in puzzles]
    assert "seconds per level" in capsys.readouterr().out
    sym = tmp_path / "s.jsonl"
    assert main(["puzzle", "sudoku", "symmetrify", str(out), "--out", str(sym)]) == 0
    assert "exactly rotationally symmetric" in capsys.readouterr().out
    assert [p.tag for p in read_puzzles(sym)] == [p.tag for p in puzzles]


def test_cli_classify_grid(capsys):
    assert main(["puzzle", "sudoku", "classify", "--grid", SEPARATING["ds"]]) == 0
    out = capsys.readouterr().out
    assert "tag: ds" in out and "bs " in out


def test_cli_study(tmp_path, capsys):
    cfg = tmp_path / "s.toml"
    cfg.write_text('name = "tiny"\nseed = 3\n[[sizes]]\nsize = 6\nclues = [10, 16]\npuzzles = 3\n')
    assert main(["puzzle", "sudoku", "study", str(cfg), "--out", str(tmp_path / "r")]) == 0
    assert "| 6x6 | 16 | 3 |" in capsys.readouterr().out
    assert (tmp_path / "r" / "hardness.png").exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (["classify", "--grid", "123"], "found 3 cells"),
        (["classify", "--grid", "." * 81], "more than one solution"),
        (["classify"], "give either a puzzles FILE or --grid"),
        (["generate", "--size", "9", "--count", "0", "--out", "x.jsonl"], "--count 0"),
        (["generate", "--size", "9", "--clues", "99", "--out", "x.jsonl"], "clues 99"),
        (["study", "no-such.toml", "--out", "x"], "no such study config"),
        (["symmetrify", "missing.jsonl", "--out", "y.jsonl"], "cannot read the puzzle file"),
    ],
)
def test_cli_bad_input_exits_2(args, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["puzzle", "sudoku", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ludolab: error:") and message in err
    assert len(err.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())


def test_cli_bad_size_and_no_action_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["puzzle", "sudoku", "generate", "--size", "10", "--out", "x.jsonl"])
    assert exc.value.code == 2
    assert main(["puzzle", "sudoku"]) == 2


# ------------------------------------------------------------------------------ slow


@pytest.mark.slow
def test_many_generated_9x9_tags_are_consistent():
    """Every generated puzzle's tag: its level solves it from scratch, the one below does not."""
    for p in _unique_puzzles(9, 150, 99):
        result = classify(p.grid, 9)
        fix = ladder(p.grid, 9)
        k = TAGS.index(result.tag)
        if result.tag != "search":
            assert prop.is_solved(fix[result.tag])
        if k > 0:
            assert not prop.is_solved(fix[LEVELS[k - 1]])
