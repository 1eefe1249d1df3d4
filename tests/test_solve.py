"""Tests for ludolab.research.solve: the MiniZinc/Gecode door (needs `minizinc` and
`fzn-gecode`)."""

from __future__ import annotations

import itertools
import pickle
import shutil

import numpy as np
import pytest

from ludolab.research.solve import (
    CompiledModel,
    ModelError,
    SolveError,
    SolverStats,
    Status,
    ToolchainMissing,
    UnknownResult,
    Unsatisfiable,
    compile_model,
    find_toolchain,
    gecode_seed,
    parse_statistics,
    solve,
)
from ludolab.research.solve.fzn_output import parse_solution_stream, parse_value
from ludolab.research.solve.magic_square import format_magic_square_report, magic_square

needs_minizinc = pytest.mark.skipif(
    shutil.which("minizinc") is None or shutil.which("fzn-gecode") is None,
    reason="MiniZinc/Gecode not installed (make setup)",
)

# A small randomised model: a permutation of 1..6 where neighbours differ by more than 1 and
# the ends are ordered. It has many solutions, and the search order is randomised.
PERMUTATION = """
include "alldifferent.mzn";
int: n;
array[1..n] of var 1..n: x;
constraint alldifferent(x);
constraint forall(i in 1..n-1)(abs(x[i] - x[i+1]) > 1);
constraint x[1] < x[n];
solve :: int_search(x, first_fail, indomain_random) satisfy;
"""


def _valid_permutation(x: list[int], n: int = 6) -> bool:
    return (
        sorted(x) == list(range(1, n + 1))
        and all(abs(a - b) > 1 for a, b in itertools.pairwise(x))
        and x[0] < x[-1]
    )


def _is_magic(sq: list[int]) -> bool:
    rows = [sq[0:3], sq[3:6], sq[6:9]]
    lines = rows + [list(c) for c in zip(*rows, strict=True)]
    lines += [[sq[0], sq[4], sq[8]], [sq[2], sq[4], sq[6]]]
    return sorted(sq) == list(range(1, 10)) and len({sum(line) for line in lines}) == 1


@pytest.fixture
def fresh_toolchain():
    """Clear the toolchain cache before and after (tests that change the environment)."""
    find_toolchain.cache_clear()
    yield
    find_toolchain.cache_clear()


# -- toolchain --------------------------------------------------------------------------------


def test_bogus_minizinc_override_raises_toolchain_missing(monkeypatch, fresh_toolchain):
    monkeypatch.setenv("LUDOLAB_MINIZINC", "/nonexistent/bin/minizinc")
    with pytest.raises(ToolchainMissing) as info:
        find_toolchain()
    message = str(info.value)
    assert "apt-get install minizinc flatzinc" in message
    assert "LUDOLAB_MINIZINC" in message and "/nonexistent/bin/minizinc" in message
    with pytest.raises(ToolchainMissing):  # and through the front door too
        solve("var 1..2: x; solve satisfy;")


def test_bogus_fzn_gecode_override_raises_toolchain_missing(monkeypatch, fresh_toolchain):
    monkeypatch.setenv("LUDOLAB_FZN_GECODE", "/nonexistent/fzn-gecode")
    with pytest.raises(ToolchainMissing, match="apt-get install minizinc flatzinc"):
        find_toolchain()


@needs_minizinc
def test_toolchain_versions():
    tc = find_toolchain()
    assert tc.minizinc.exists() and tc.fzn_gecode.exists()
    assert tc.minizinc_version.count(".") == 2
    assert tc.gecode_version.split(".")[0].isdigit()


# -- magic square smoke test ------------------------------------------------------------------


@needs_minizinc
def test_magic_square_symmetry_breaking():
    plain = magic_square(all_solutions=True, break_symmetry=False)
    broken = magic_square(all_solutions=True, break_symmetry=True)

    assert plain.status is Status.ALL_SOLUTIONS and broken.status is Status.ALL_SOLUTIONS
    assert len(plain.solutions) == 8
    assert len({tuple(s["sq"]) for s in plain.solutions}) == 8
    assert all(_is_magic(s["sq"]) for s in plain.solutions)
    assert [s["sq"] for s in broken.solutions] == [[2, 9, 4, 7, 5, 3, 6, 1, 8]]

    assert plain.stats is not None and broken.stats is not None
    assert plain.stats.solutions == 8 and broken.stats.solutions == 1
    assert broken.stats.nodes < plain.stats.nodes / 10  # seed: 31 vs 2659


@needs_minizinc
def test_stats_are_positive_ints():
    stats = magic_square(all_solutions=True, break_symmetry=False).stats
    assert isinstance(stats, SolverStats)
    for name in ("nodes", "failures", "propagations", "peak_depth", "solutions", "variables"):
        value = getattr(stats, name)
        assert isinstance(value, int) and value > 0, name
    assert stats.variables == 9
    assert isinstance(stats.solve_time, float) and 0 < stats.solve_time < 5


@needs_minizinc
def test_magic_square_report_shows_both_runs_side_by_side():
    plain = magic_square(all_solutions=True, break_symmetry=False)
    broken = magic_square(all_solutions=True, break_symmetry=True)
    text = format_magic_square_report(plain, broken)
    assert "2 9 4" in text and "6 1 8" in text
    nodes_row = next(line for line in text.splitlines() if line.startswith("nodes"))
    assert nodes_row.split()[1:] == [str(plain.stats.nodes), str(broken.stats.nodes)]
    header = next(line for line in text.splitlines() if "no symmetry breaking" in line.strip()[:30])
    assert "symmetry breaking" in header


# -- solve: errors ----------------------------------------------------------------------------


@needs_minizinc
def test_unsatisfiable_names_model_and_label():
    code = "var 1..3: x; var 1..3: y; constraint x + y > 2 * x + 3; solve satisfy;"
    with pytest.raises(Unsatisfiable) as info:
        solve(code, model_name="tiny_unsat.mzn", label="constraint set 'impossible'")
    assert "tiny_unsat.mzn" in str(info.value)
    assert "constraint set 'impossible'" in str(info.value)


@needs_minizinc
def test_unsatisfiable_found_by_search():
    code = (
        "array[1..5] of var 1..4: x;"
        "constraint forall(i, j in 1..5 where i < j)(x[i] != x[j]); solve satisfy;"
    )
    with pytest.raises(Unsatisfiable, match="pigeons.mzn"):
        solve(code, model_name="pigeons.mzn")


@needs_minizinc
def test_syntax_error_carries_minizinc_message():
    with pytest.raises(ModelError) as info:
        solve("var 1..3: x\nconstraint x > 1;\nsolve satisfy;", model_name="broken.mzn")
    message = str(info.value)
    assert message.startswith("broken.mzn")
    assert "syntax error" in message and "broken.mzn:2" in message
    assert "overrides a global" not in message and "/tmp" not in message


@needs_minizinc
def test_type_error_and_missing_data():
    with pytest.raises(ModelError, match="type error"):
        solve('var 1..3: x; constraint x = "a"; solve satisfy;', label="constraint set 'x'")
    with pytest.raises(ModelError, match="n' must be defined"):
        solve(PERMUTATION, model_name="perm.mzn")


# -- solve: satisfaction and optimisation ------------------------------------------------------


@needs_minizinc
def test_data_dict_and_numpy_values_and_n_solutions():
    result = solve(PERMUTATION, {"n": np.int64(6)}, n_solutions=3, random_seed=5)
    assert result.status is Status.SATISFIED and not result.time_limit_hit
    assert len(result.solutions) == 3
    assert all(_valid_permutation(s["x"]) for s in result.solutions)


@needs_minizinc
def test_optimisation_is_optimal():
    code = """
    array[1..4] of var 0..10: x;
    constraint x[1] + 2 * x[2] <= 10;
    constraint x[3] < x[4];
    constraint sum(x) <= 25;
    solve maximize sum(i in 1..4)(i * x[i]);
    """
    result = solve(code)
    assert result.status is Status.OPTIMAL
    assert result.objective == 77
    x = result.solution["x"]
    assert x[0] + 2 * x[1] <= 10 and x[2] < x[3] and sum(x) <= 25
    assert sum((i + 1) * v for i, v in enumerate(x)) == 77
    assert "_objective" not in result.solution


GOLOMB = """
include "alldifferent.mzn";
int: m = 12;
array[1..m] of var 0..m*m: mark;
array[1..(m*(m-1)) div 2] of var 1..m*m: diffs = [mark[j] - mark[i] | i in 1..m, j in i+1..m];
constraint mark[1] = 0;
constraint forall(i in 1..m-1)(mark[i] < mark[i+1]);
constraint alldifferent(diffs);
solve :: int_search(mark, input_order, indomain_min) minimize mark[m];
"""


@needs_minizinc
def test_hard_optimisation_returns_best_so_far_at_time_limit():
    # A first ruler is found within milliseconds; proving the optimum (85) takes Gecode minutes.
    # The 3 s leave a loaded machine ample time for the first ruler; no 3 s could see the proof.
    result = solve(GOLOMB, time_limit=3, model_name="golomb12.mzn")
    assert result.status is Status.SATISFIED
    assert result.time_limit_hit
    marks = result.solution["mark"]
    assert result.objective == marks[-1] >= 85  # 85 is the optimum for 12 marks
    diffs = [b - a for a, b in itertools.combinations(marks, 2)]
    assert len(set(diffs)) == len(diffs) and marks == sorted(marks)


@needs_minizinc
def test_no_solution_within_time_limit_is_unknown():
    code = (
        "array[1..13] of var 1..12: x;"
        "constraint forall(i, j in 1..13 where i < j)(x[i] != x[j]); solve satisfy;"
    )
    with pytest.raises(UnknownResult, match="time limit of 0.2 s"):
        solve(code, time_limit=0.2, model_name="pigeons13.mzn")


# -- compile once, sample many ----------------------------------------------------------------


@pytest.fixture(scope="module")
def permutation_model() -> CompiledModel:
    if shutil.which("minizinc") is None:
        pytest.skip("MiniZinc not installed")
    return compile_model(PERMUTATION, {"n": 6}, model_name="perm.mzn", label="constraint set 'p'")


@needs_minizinc
def test_sample_twenty_seeds_valid_and_varied(permutation_model):
    draws = [permutation_model.sample(seed)[0]["x"] for seed in range(20)]
    assert all(_valid_permutation(x) for x in draws)
    assert len({tuple(x) for x in draws}) > 1


@needs_minizinc
def test_sample_is_reproducible_and_prefix_stable(permutation_model):
    assert permutation_model.sample(123) == permutation_model.sample(123)
    many = permutation_model.sample(123, n=25)
    assert len(many) == 25
    assert many[:5] == permutation_model.sample(123, n=5)
    assert all(_valid_permutation(s["x"]) for s in many)
    assert len({tuple(s["x"]) for s in many}) > 1  # one process, different draws
    assert permutation_model.sample(124, n=5) != many[:5]


@needs_minizinc
def test_sample_result_stats_show_restart_per_solution(permutation_model):
    result = permutation_model.sample_result(7, n=40)
    assert result.stats is not None and result.stats.solutions == 40
    # one restart after each solution, none cut off by the failure limit
    assert 40 <= result.stats.restarts <= 41


@needs_minizinc
def test_compiled_model_pickles(permutation_model):
    clone = pickle.loads(pickle.dumps(permutation_model))
    assert clone.sample(9, n=3) == permutation_model.sample(9, n=3)


@needs_minizinc
def test_solve_all_enumerates(permutation_model):
    everything = permutation_model.solve_all()
    assert everything.status is Status.ALL_SOLUTIONS
    perms = [p for p in itertools.permutations(range(1, 7)) if _valid_permutation(list(p))]
    assert sorted(tuple(s["x"]) for s in everything.solutions) == sorted(perms)
    some = permutation_model.solve_all(max_solutions=3)
    assert some.status is Status.SATISFIED and len(some.solutions) == 3


@needs_minizinc
def test_sample_on_unsat_compiled_model_raises():
    code = (
        "array[1..5] of var 1..4: x;"
        "constraint forall(i, j in 1..5 where i < j)(x[i] != x[j]);"
        "solve :: int_search(x, input_order, indomain_random) satisfy;"
    )
    model = compile_model(code, model_name="pigeons.mzn", label="constraint set 'tight'")
    with pytest.raises(Unsatisfiable) as info:
        model.sample(1)
    assert "pigeons.mzn" in str(info.value) and "constraint set 'tight'" in str(info.value)


@needs_minizinc
def test_sample_refuses_model_without_random_search():
    model = compile_model("array[1..3] of var 1..3: x; solve satisfy;")
    with pytest.raises(ValueError, match="indomain_random"):
        model.sample(1)


@needs_minizinc
def test_fixed_and_2d_outputs_survive_flattening():
    code = """
    array[1..2, 1..2] of var 0..1: grid;
    var 1..9: y;
    var bool: flag;
    constraint y = 2 /\\ grid[1, 1] = 1 /\\ flag = (grid[2, 2] = 1);
    solve :: int_search([grid[i, j] | i, j in 1..2], input_order, indomain_random) satisfy;
    """
    model = compile_model(code)
    sample = model.sample(3)[0]
    assert list(sample) == ["grid", "y", "flag"]
    assert sample["y"] == 2 and sample["grid"][0][0] == 1
    assert sample["flag"] == (sample["grid"][1][1] == 1)
    # the same names, order and value types as the front end gives
    front = solve(code, random_seed=3).solution
    assert list(front) == list(sample)
    assert [type(v) for v in front.values()] == [type(v) for v in sample.values()]


@needs_minizinc
def test_alldifferent_uses_gecode_propagator():
    fzn = compile_model(PERMUTATION, {"n": 6}).fzn
    if find_toolchain().compat_include_dirs:
        assert "all_different_int" in fzn
    assert "int_lin_ne" not in fzn


# -- parsers (no solver needed) ---------------------------------------------------------------


def test_parse_statistics_all_dialects():
    mzn = "%%%mzn-stat: nodes=31\n%%%mzn-stat: peakDepth=5\n%%%mzn-stat: solveTime=0.0002\n"
    old = "%%%mzn-stat nodes=31\n%%%mzn-stat failures=15\n%%%mzn-stat-end\n"
    gecode5 = (
        "%%  runtime:       0.005 (5.231 ms)\n%%  solvetime:     0.004 (4.178 ms)\n"
        "%%  solutions:     1\n%%  variables:     9\n%%  propagators:   6\n"
        "%%  propagations:  221\n%%  nodes:         31\n%%  failures:      15\n"
        "%%  restarts:      0\n%%  peak depth:    5\n"
    )
    a, b, c = parse_statistics(mzn), parse_statistics(old), parse_statistics(gecode5)
    assert a is not None and (a.nodes, a.peak_depth, a.solve_time) == (31, 5, 0.0002)
    assert b is not None and (b.nodes, b.failures) == (31, 15)
    assert c == SolverStats(
        nodes=31,
        failures=15,
        propagations=221,
        peak_depth=5,
        solve_time=0.004178,
        init_time=None,
        solutions=1,
        restarts=0,
        variables=9,
        propagators=6,
    )
    assert parse_statistics("%%%mzn-stat: flatTime=0.03\n") is None


def test_parse_flatzinc_values():
    assert parse_value("array1d(1..3, [4, -1, 0])") == [4, -1, 0]
    assert parse_value("array2d(1..2, 1..3, [1, 2, 3, 4, 5, 6])") == [[1, 2, 3], [4, 5, 6]]
    assert parse_value("array1d(1..2, [true, false])") == [True, False]
    assert parse_value("{1,3}") == {1, 3} and parse_value("2..4") == {2, 3, 4}
    assert parse_value("array1d(1..2, [{}, 1..2])") == [set(), {1, 2}]
    assert parse_value("1.5") == 1.5 and parse_value("array1d(1..0, [])") == []


def test_parse_solution_stream_statuses():
    run = parse_solution_stream("x = 1;\n----------\nx = 2;\n----------\n==========\n")
    assert [s["x"] for s in run.solutions] == [1, 2] and run.complete
    assert parse_solution_stream("=====UNSATISFIABLE=====\n").unsatisfiable
    unknown = parse_solution_stream("=====UNKNOWN=====\n%%%mzn-stat: nodes=9\n")
    assert unknown.unknown and not unknown.solutions and unknown.stats.nodes == 9


def test_gecode_seed_folding():
    assert gecode_seed(0) == 1 and gecode_seed(1) == 2
    assert gecode_seed(2**31 - 3) == 2**31 - 2  # largest distinct Gecode seed
    assert gecode_seed(np.uint32(5)) == 6
    with pytest.raises(TypeError):
        gecode_seed(1.5)


def test_solve_error_is_the_base():
    assert issubclass(Unsatisfiable, SolveError) and issubclass(ToolchainMissing, SolveError)
