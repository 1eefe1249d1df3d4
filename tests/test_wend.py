"""Wend and Swend: word lists, placements, SAT counter against a brute-force cover, deductions,
generator, packs."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from puzzle_cli import puzzle_cli, tamperer

from ludolab.research.puzzles import PuzzleError
from ludolab.research.puzzles.pack import read_pack
from ludolab.research.puzzles.wend import words as wordlists
from ludolab.research.puzzles.wend.generate import cut, generate_one
from ludolab.research.puzzles.wend.rules import solution_problems
from ludolab.research.puzzles.wend.solve import placements, solutions
from ludolab.research.puzzles.wend.words import word_list


def test_word_lists_hold_lower_case_words_of_their_alphabet():
    english, swedish = word_list("wend"), word_list("swend")
    assert len(english) > 20_000 and len(swedish) > 20_000
    assert "vacuum" in english and "Paris" not in english and "don't" not in english
    assert "böjning" in swedish and any("å" in w for w in swedish)
    assert all(3 <= len(w) <= 8 for w in english + swedish)


def test_a_missing_word_list_says_which_package(monkeypatch, tmp_path):
    lang = wordlists.LANGUAGES["wend"]
    monkeypatch.setitem(wordlists.LANGUAGES, "wend",
                        wordlists.Language("wend", "English", tmp_path / "none", "wamerican",
                                           lang.alphabet, lang.encoding))
    wordlists.word_list.cache_clear()
    try:
        with pytest.raises(PuzzleError, match="apt-get install wamerican"):
            word_list("wend")
    finally:
        wordlists.word_list.cache_clear()


def brute_force(game, letters, lengths):
    """Every cover by placements with the listed lengths, by plain backtracking."""
    options = placements(game, letters, lengths)
    cells = {(r, c) for r in range(len(letters)) for c in range(len(letters[0]))}
    need = Counter(lengths)
    out = []

    def cover(left, chosen, need):
        if not left:
            if not +need:
                out.append(sorted(chosen))
            return
        first = min(left)
        for p in options:
            if first in p and set(p) <= left and need[len(p)] > 0:
                need[len(p)] -= 1
                cover(left - set(p), [*chosen, p], need)
                need[len(p)] += 1

    cover(cells, [], need)
    return sorted(out)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["wend", "swend"]))
def test_sat_counts_as_brute_force(seed, game):
    rng = random.Random(seed)
    n = rng.choice((3, 4))
    path = [(r, c if r % 2 == 0 else n - 1 - c) for r in range(n) for c in range(n)]
    lengths = [3, 3, 3] if n == 3 else cut(16, rng)
    pool = wordlists.words_by_length(game)
    letters = [[""] * n for _ in range(n)]
    k = 0
    for length in lengths:
        for (r, c), ch in zip(path[k : k + length], rng.choice(pool[length]), strict=True):
            letters[r][c] = ch
        k += length
    expected = brute_force(game, letters, lengths)
    assert sorted(solutions(game, letters, lengths, limit=1000)) == expected
    assert expected  # the words laid along the path are one cover
    words = set(word_list(game))
    assert all(not solution_problems(letters, lengths, cover, words) for cover in expected)


def test_generated_puzzles_are_unique_and_the_deductions_sound():
    for game in ("wend", "swend"):
        rng = random.Random(3)
        made = [p for p in (generate_one(game, 5, rng) for _ in range(8)) if p is not None]
        assert made
        for p in made:
            assert p.deduction.solved and p.deduction.paths == p.paths
            for step in p.deduction.steps:
                assert step.take is None or step.take in p.paths
                assert not set(step.drop) & set(p.paths)
            letters = [list(r) for r in p.letters]
            assert solutions(game, letters, p.lengths) == [list(p.paths)]
    assert [generate_one("wend", 5, random.Random(s)) for s in range(3)] == [
        generate_one("wend", 5, random.Random(s)) for s in range(3)
    ]


@pytest.mark.parametrize("game", ["wend", "swend"])
def test_generate_verify_and_catch_tampering(tmp_path, game):
    out = tmp_path / f"{game}.json"
    done = puzzle_cli(game, "generate", "--n", "4", "--seed", "2", "--out", str(out), "-q",
                      cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(read_pack(out, game).puzzles) == 4
    done = puzzle_cli(game, "verify", str(out), cwd=tmp_path)
    assert done.returncode == 0 and "4 " in done.stdout, done.stderr
    tampered = tamperer(game, out)

    def swap_letters(d):
        rows = d["puzzles"][0]["clues"]["letters"]
        rows[0] = rows[0][::-1]

    assert "puzzles[0]" in tampered(swap_letters)
    assert "lengths" in tampered(lambda d: d["puzzles"][1]["clues"].update(lengths=[25]))
    for args, says in [(["--size", "3"], "4..7"), (["--size", "8"], "4..7")]:
        done = puzzle_cli(game, "generate", "--n", "2", "--out", str(tmp_path / "x.json"), *args,
                          cwd=tmp_path)
        assert done.returncode == 2 and says in done.stderr and not (tmp_path / "x.json").exists()
