"""Sudoku packs for the games page: generation by level, verification, the hints' path."""

from __future__ import annotations

import pytest
from puzzle_cli import puzzle_cli, tamperer

from ludolab.research.puzzles.pack import read_pack
from ludolab.research.puzzles.site.build import shipped_packs
from ludolab.research.puzzles.sudoku import cli as sudoku_cli
from ludolab.research.puzzles.sudoku.classify import classify
from ludolab.research.puzzles.sudoku.pack import LEVEL_OF_TAG, LEVELS, deduction_path


def shipped() -> list:
    return [p for path in shipped_packs("sudoku") for p in read_pack(path, "sudoku").puzzles]


def test_the_cli_names_the_pack_levels_without_loading_them():
    assert sudoku_cli.PACK_LEVELS == LEVELS


def test_hints_solve_every_shipped_puzzle_and_never_contradict_it():
    puzzles = shipped()
    assert {p.size[0] for p in puzzles} == {6, 9}
    for p in puzzles:
        n = p.size[0]
        grid = [v for row in p.clues["grid"] for v in row]
        solution = [v for row in p.solution["grid"] for v in row]
        steps = deduction_path(tuple(grid), n)
        assert len(steps) == grid.count(0), p.id  # one cell a step, to the end
        assert all(solution[s.cell] == s.value for s in steps), p.id
        rules = {s.rule for s in steps}
        if p.difficulty["level"] == "easy":  # val: naked singles finish it
            assert rules == {"naked single"}, p.id
        else:  # a harder level needs more than naked singles somewhere
            assert rules != {"naked single"}, p.id


def test_levels_follow_the_propagation_tags():
    for p in shipped()[:12]:
        grid = tuple(v for row in p.clues["grid"] for v in row)
        assert LEVEL_OF_TAG[classify(grid, p.size[0]).tag] == p.difficulty["level"]


def test_generate_a_pack_then_verify_and_catch_tampering(tmp_path):
    out = tmp_path / "sudoku.json"
    done = puzzle_cli(
        "sudoku",
        "generate",
        "--n",
        "8",
        "--size",
        "6",
        "--seed",
        "2",
        "--out",
        str(out),
        "-q",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    pack = read_pack(out, "sudoku")
    assert len(pack.puzzles) == 8 and {p.difficulty["level"] for p in pack.puzzles} == set(LEVELS)
    again = tmp_path / "again.json"
    puzzle_cli(
        "sudoku",
        "generate",
        "--n",
        "8",
        "--size",
        "6",
        "--seed",
        "2",
        "--out",
        str(again),
        "-q",
        cwd=tmp_path,
    )
    assert again.read_text() == out.read_text()
    done = puzzle_cli("sudoku", "verify", str(out), cwd=tmp_path)
    assert done.returncode == 0 and "8 Sudoku puzzles" in done.stdout, done.stderr

    tampered = tamperer("sudoku", out)

    def drop_givens(d):  # remove every given of the first two rows: no longer unique
        d["puzzles"][0]["clues"]["grid"][0] = [0] * 6
        d["puzzles"][0]["clues"]["grid"][1] = [0] * 6

    def swap_solution(d):
        g = d["puzzles"][1]["solution"]["grid"]
        g[0], g[1] = g[1], g[0]

    def relabel(d):
        level = d["puzzles"][2]["difficulty"]["level"]
        d["puzzles"][2]["difficulty"]["level"] = "easy" if level != "easy" else "expert"

    assert "puzzles[0]" in tampered(drop_givens)
    assert "puzzles[1]" in tampered(swap_solution)
    assert "the deductions say" in tampered(relabel)
    assert "9 rows of 9" in tampered(lambda d: d["puzzles"][3].update(size=[9, 9]))


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--size", "16"], "6 or 9"),
        (["--clues", "20"], "--clues: only for a .jsonl corpus"),
        (["--classify"], "--classify"),
        (["--n", "0"], "at least 1"),
    ],
)
def test_bad_pack_requests_exit_2_and_write_nothing(tmp_path, args, says):
    out = tmp_path / "p.json"
    done = puzzle_cli("sudoku", "generate", "--n", "3", "--out", str(out), *args, cwd=tmp_path)
    assert done.returncode == 2 and says in done.stderr and not out.exists(), done.stderr


def test_a_corpus_still_needs_its_size_and_takes_no_difficulty(tmp_path):
    out = tmp_path / "p.jsonl"
    done = puzzle_cli("sudoku", "generate", "--count", "2", "--out", str(out), cwd=tmp_path)
    assert done.returncode == 2 and "--size: required" in done.stderr and not out.exists()
    done = puzzle_cli(
        "sudoku", "generate", "--size", "6", "--difficulty", "easy", "--out", str(out), cwd=tmp_path
    )
    assert done.returncode == 2 and "only for a pack" in done.stderr and not out.exists()
