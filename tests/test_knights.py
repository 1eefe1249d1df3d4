"""Knight's tour case study: the verifier, Warnsdorff search, the MiniZinc model and the CLI."""

from __future__ import annotations

import json
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludolab.research.cli import main
from ludolab.research.puzzles import PuzzleError
from ludolab.research.puzzles.knights.board import (
    check_closed_tour_size,
    is_closed_tour,
    is_knight_move,
    knight_neighbours,
    rotate_to,
    successors_to_tour,
    tour_problems,
)
from ludolab.research.puzzles.knights.minizinc import minizinc_tour
from ludolab.research.puzzles.knights.render import board_text, tour_report
from ludolab.research.puzzles.knights.result import TourNotFound
from ludolab.research.puzzles.knights.warnsdorff import warnsdorff_tour

needs_minizinc = pytest.mark.skipif(
    shutil.which("minizinc") is None or shutil.which("fzn-gecode") is None,
    reason="MiniZinc/Gecode not installed (make setup)",
)

# A closed 6 x 6 tour written out by hand as visit numbers (1 = first), so the verifier tests
# do not depend on any search in the package.
BOARD_6 = """
 1 28 15 12  3 34
16 11  2 35 22 13
27 36 29 14 33  4
10 17  8 23 30 21
 7 26 19 32  5 24
18  9  6 25 20 31
"""
_VISITS_6 = [int(v) for v in BOARD_6.split()]
TOUR_6 = sorted(range(36), key=lambda sq: _VISITS_6[sq])  # squares in visiting order
# An open 5 x 5 tour: every square once, every step a knight's move, but not closed (no 5 x 5
# board has a closed tour).
OPEN_5 = [0, 7, 4, 13, 24, 17, 20, 11, 2, 5, 16, 23, 14, 3, 6, 15, 22, 19, 8, 1, 10, 21, 12, 9, 18]


def independent_check(n: int, tour: list[int]) -> bool:
    """A second, deliberately naive verifier (coordinates, no shared helpers)."""
    if sorted(tour) != list(range(n * n)):
        return False
    for a, b in zip(tour, tour[1:] + tour[:1], strict=True):
        dr, dc = abs(a // n - b // n), abs(a % n - b % n)
        if sorted((dr, dc)) != [1, 2]:
            return False
    return True


# -- geometry and the verifier ----------------------------------------------------------------


def test_knight_neighbours_match_the_seed_examples():
    nb = knight_neighbours(8)
    # The seed (x + y*n numbering) gives {17, 10} for the corner and eight squares for (3, 3);
    # (3, 3) is square 27 in both numberings, and the corner's set is symmetric.
    assert set(nb[0]) == {10, 17}
    assert set(nb[27]) == {17, 33, 10, 42, 12, 44, 21, 37}
    assert sum(len(x) for x in nb) == 2 * 168  # the 8 x 8 knight graph has 168 edges
    assert all(is_knight_move(8, a, b) for a in range(64) for b in nb[a])


def test_verifier_accepts_a_valid_closed_tour():
    assert tour_problems(6, TOUR_6) == []
    assert is_closed_tour(6, TOUR_6)
    assert independent_check(6, TOUR_6)
    # The same cycle read from any square, or backwards, is still a closed tour.
    assert is_closed_tour(6, rotate_to(TOUR_6, 17))
    assert is_closed_tour(6, TOUR_6[::-1])


def test_verifier_rejects_a_repeated_square():
    broken = TOUR_6.copy()
    broken[5] = broken[3]
    problems = tour_problems(6, broken)
    assert any("visited twice" in p for p in problems)
    assert not is_closed_tour(6, broken)


def test_verifier_rejects_a_non_knight_step():
    broken = TOUR_6.copy()
    broken[4], broken[5] = broken[5], broken[4]  # same squares, different order
    assert sorted(broken) == list(range(36))
    problems = tour_problems(6, broken)
    assert any("not a knight's move" in p for p in problems)
    assert not is_closed_tour(6, broken)


def test_verifier_rejects_an_open_tour():
    assert tour_problems(5, OPEN_5, closed=False) == []
    problems = tour_problems(5, OPEN_5)
    assert len(problems) == 1 and "not closed" in problems[0]


def test_verifier_rejects_a_wrong_length_and_off_board_squares():
    assert any("35 squares" in p for p in tour_problems(6, TOUR_6[:-1]))
    assert any("37 squares" in p for p in tour_problems(6, [*TOUR_6, TOUR_6[0]]))
    assert any("off the board" in p for p in tour_problems(6, [*TOUR_6[:-1], 36]))
    assert tour_problems(6, [])


def test_successor_array_with_subcycles_is_caught():
    succ = [0] * 36
    for a, b in zip(TOUR_6, TOUR_6[1:] + TOUR_6[:1], strict=True):
        succ[a] = b
    assert successors_to_tour(succ, 0) == TOUR_6
    # Split the cycle in two: a successor array that is not one circuit.
    i, j = 0, 18
    a, b = TOUR_6[i], TOUR_6[j]
    succ[a], succ[b] = succ[b], succ[a]
    assert not is_closed_tour(6, successors_to_tour(succ, 0))


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7, 9, 11, 101])
def test_no_closed_tour_sizes_are_user_errors(n):
    with pytest.raises(PuzzleError, match="even n >= 6"):
        check_closed_tour_size(n)
    with pytest.raises(PuzzleError):
        warnsdorff_tour(n)


# -- Warnsdorff search ------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(6, 31, 2))
def test_warnsdorff_finds_closed_tours(n):
    result = warnsdorff_tour(n)
    assert is_closed_tour(n, result.tour)
    assert independent_check(n, result.tour)
    assert result.tour[0] == 0
    stats = result.stats
    assert stats.method == "warnsdorff"
    assert stats.nodes >= n * n
    assert stats.backtracks == stats.nodes - n * n  # every node beyond the tour was undone
    assert stats.time >= 0


@pytest.mark.slow
def test_warnsdorff_finds_closed_tours_up_to_200():
    for n in range(6, 201, 2):
        result = warnsdorff_tour(n)
        assert independent_check(n, result.tour), n


def test_warnsdorff_is_reproducible():
    assert warnsdorff_tour(20).tour == warnsdorff_tour(20).tour
    assert warnsdorff_tour(20, seed=3).tour == warnsdorff_tour(20, seed=3).tour


def test_warnsdorff_budget_exhausted_is_reported():
    with pytest.raises(TourNotFound, match="node budget of 50 ran out") as info:
        warnsdorff_tour(30, max_nodes=50)
    assert info.value.stats is not None and info.value.stats.nodes == 50
    assert isinstance(info.value, PuzzleError)  # the CLI prints it and exits 2


def test_warnsdorff_time_limit_is_reported():
    # 100 x 100 needs more than 10,000 nodes; the clock is read every 4,096 nodes.
    with pytest.raises(TourNotFound, match="time limit"):
        warnsdorff_tour(100, time_limit=1e-9)


def test_warnsdorff_restarts_after_a_failed_attempt():
    # Seed 0 on 10 x 10 sends the first attempt (12,000-node budget) into a dead subtree;
    # a restart with a derived tie-break finds a tour.
    result = warnsdorff_tour(10, seed=0)
    assert result.stats.restarts >= 1
    assert is_closed_tour(10, result.tour)


@settings(max_examples=40, deadline=None)
@given(
    n=st.sampled_from([6, 8, 10, 12, 14]),
    data=st.data(),
    seed=st.none() | st.integers(0, 10_000),
)
def test_warnsdorff_any_start_any_seed(n, data, seed):
    start = data.draw(st.integers(0, n * n - 1), label="start")
    search_start = data.draw(st.integers(0, n * n - 1), label="search_start")
    result = warnsdorff_tour(n, start=start, seed=seed, search_start=search_start)
    assert result.tour[0] == start
    assert independent_check(n, result.tour)


def test_bad_start_square_is_a_user_error():
    with pytest.raises(PuzzleError, match=r"0\.\.35"):
        warnsdorff_tour(6, start=36)
    with pytest.raises(PuzzleError, match=r"0\.\.35"):
        minizinc_tour(6, start=-1)


# -- MiniZinc model ---------------------------------------------------------------------------


@needs_minizinc
@pytest.mark.parametrize("n", [6, 8])
@pytest.mark.parametrize("search", ["first_fail", "input_order"])
def test_minizinc_finds_closed_tours(n, search):
    result = minizinc_tour(n, search=search)
    assert is_closed_tour(n, result.tour)
    assert independent_check(n, result.tour)
    assert result.tour[0] == 0
    assert result.tour[1] == 2 * n + 1  # the seed's fixed first move
    assert result.stats.method == "minizinc"
    assert result.stats.nodes >= 1 and result.stats.failures is not None


@needs_minizinc
def test_minizinc_start_and_free_first_move():
    result = minizinc_tour(6, start=17, fix_first_move=False)
    assert result.tour[0] == 17 and is_closed_tour(6, result.tour)


@needs_minizinc
def test_minizinc_time_limit_is_reported():
    # Gecode needs seconds for 60 x 60 (about 2 s at 50 x 50); 10 ms is never enough.
    with pytest.raises(TourNotFound, match="time limit of 0.01 s"):
        minizinc_tour(60, time_limit=0.01)


def test_minizinc_rejects_unknown_search_and_sizes():
    with pytest.raises(PuzzleError, match="first_fail"):
        minizinc_tour(6, search="dom_w_deg")
    with pytest.raises(PuzzleError, match="odd board"):
        minizinc_tour(5)


# -- output and the CLI -----------------------------------------------------------------------


def test_text_board_shows_visit_numbers():
    assert board_text(6, TOUR_6) == BOARD_6.strip("\n")


def test_text_report_numbers_every_square_once():
    result = warnsdorff_tour(6)
    numbers = [int(x) for x in board_text(6, result.tour).split()]
    assert sorted(numbers) == list(range(1, 37))
    assert numbers[0] == 1  # square 0 is visited first
    report = tour_report(result)
    assert "6 x 6" in report and "backtracks" in report and "closed" in report


def test_cli_json_shape(capsys):
    assert main(["puzzle", "knights", "--n", "8", "--format", "json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert set(payload) == {"n", "tour"}
    assert payload["n"] == 8 and payload["tour"][0] == 0
    assert all(isinstance(s, int) for s in payload["tour"])
    assert independent_check(8, payload["tour"])


def test_cli_json_start_and_out_file(tmp_path, capsys):
    out = tmp_path / "tour.json"
    args = ["puzzle", "knights", "--n", "10", "--start", "55", "--format", "json"]
    assert main([*args, "--out", str(out)]) == 0
    payload = json.loads(out.read_text())
    assert payload["tour"][0] == 55 and independent_check(10, payload["tour"])
    assert "wrote" in capsys.readouterr().out
    assert [p.name for p in tmp_path.iterdir()] == ["tour.json"]  # no temporary left


def test_cli_text(capsys):
    assert main(["puzzle", "knights", "--n", "6"]) == 0
    out = capsys.readouterr().out
    assert "Closed knight's tour, 6 x 6, by Warnsdorff search: verified" in out
    assert "nodes" in out and "backtracks" in out


@needs_minizinc
def test_cli_minizinc_text(capsys):
    assert main(["puzzle", "knights", "--n", "6", "--method", "minizinc"]) == 0
    out = capsys.readouterr().out
    assert "MiniZinc" in out and "failures" in out and "first_fail" in out


def test_cli_png(tmp_path, capsys):
    out = tmp_path / "tour.png"
    assert main(["puzzle", "knights", "--n", "12", "--format", "png", "--out", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir()] == ["tour.png"]
    capsys.readouterr()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--n", "5"], "odd board"),
        (["--n", "4"], "smaller than 6 x 6"),
        (["--n", "7", "--method", "minizinc"], "odd board"),
        (["--n", "6", "--format", "png"], "needs --out"),
        (["--n", "6", "--format", "png", "--out", "tour.jpg"], "ending in .png"),
        (["--n", "6", "--out", "/nonexistent-dir/t.json"], "does not exist"),
        (["--n", "6", "--start", "36"], "off the board"),
        (["--n", "6", "--time-limit", "-1"], "positive seconds"),
        (["--n", "6", "--method", "minizinc", "--seed", "3"], "warnsdorff only"),
        (["--n", "6", "--mzn-search", "input_order"], "minizinc only"),
        (["--n", "30", "--max-nodes", "100"], "node budget"),
    ],
)
def test_cli_bad_input_exits_2(args, message, capsys):
    assert main(["puzzle", "knights", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ludolab: error:") and message in err
    assert err.count("\n") == 1  # one line
