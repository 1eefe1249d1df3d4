"""The constraints on hand-made orders, the exact count against brute force, the sets (shipped,
from files, with overrides) and their errors, and the rejection sampler."""

from __future__ import annotations

import itertools
import math
import tomllib
from collections import Counter
from pathlib import Path

import pytest
from scipy.stats import chisquare

from ludolab.games import SetupSetError
from ludolab_goofspiel.constraints import (
    CONSTRAINTS,
    SamplingError,
    count_orders,
    draw_rejection,
    load_prize_set,
)
from ludolab_goofspiel.game import GAME


def make(name: str, cards: int, **values: int):
    cls = CONSTRAINTS[name]
    return cls(cards, {p: values.get(p, d.default) for p, d in cls.params.items()})


def test_back_loaded_sums_the_last_k_prizes() -> None:
    c = make("back-loaded", 13, k=4, min=36)
    assert c.holds((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13))  # 10+11+12+13 = 46
    assert c.holds((2, 3, 4, 5, 6, 7, 8, 9, 11, 13, 12, 10, 1))  # 36: min itself is enough
    assert not c.holds((2, 3, 4, 5, 6, 7, 8, 10, 11, 13, 12, 9, 1))  # 35
    assert not c.holds((13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1))  # 4+3+2+1 = 10


def test_front_loaded_is_the_mirror() -> None:
    c = make("front-loaded", 5, k=2, min=9)
    assert c.holds((4, 5, 1, 2, 3)) and c.holds((5, 4, 3, 2, 1))
    assert not c.holds((5, 3, 4, 2, 1)) and not c.holds((1, 2, 3, 4, 5))


def test_balanced_halves_leave_an_odd_middle_out() -> None:
    c = make("balanced-halves", 5, tolerance=0)
    assert c.holds((1, 4, 5, 2, 3))  # 1+4 vs 2+3; the middle 5 in neither half
    assert not c.holds((1, 4, 3, 2, 5))  # 5 vs 7
    assert make("balanced-halves", 5, tolerance=2).holds((1, 4, 3, 2, 5))
    assert make("balanced-halves", 4, tolerance=0).holds((1, 4, 2, 3))


@pytest.mark.parametrize("cards", [3, 4, 5, 6, 7])
@pytest.mark.parametrize(
    "specs",
    [
        [("back-loaded", {"k": 2, "min": 7})],
        [("front-loaded", {"k": 3, "min": 10})],
        [("balanced-halves", {"tolerance": 0})],
        [("balanced-halves", {"tolerance": 1}), ("back-loaded", {"k": 1, "min": 3})],
        [("back-loaded", {"k": 2, "min": 9}), ("front-loaded", {"k": 2, "min": 6})],
    ],
)
def test_the_exact_count_is_brute_force(cards: int, specs: list) -> None:
    constraints = [make(n, cards, **v) for n, v in specs if v.get("k", 0) <= cards]
    brute = sum(
        all(c.holds(p) for c in constraints) for p in itertools.permutations(range(1, cards + 1))
    )
    assert count_orders(constraints, cards) == brute


def test_the_shipped_sets_load_and_say_how_many_orders_they_allow() -> None:
    assert GAME.shipped_sets() == ["back-loaded", "balanced-halves", "front-loaded", "shuffled"]
    fair = load_prize_set("shuffled", {})
    assert fair.constraints == () and fair.share == 1.0
    back = load_prize_set("back-loaded", {})
    assert back.orders == 809_948_160 and back.share == pytest.approx(0.1301, abs=1e-4)
    # the mirror image of a back-loaded order is front-loaded
    assert load_prize_set("front-loaded", {}).orders == back.orders
    assert load_prize_set("back-loaded", {"back-loaded.min": 40}).orders < back.orders


@pytest.mark.parametrize(
    ("source", "params", "cards", "key", "message"),
    [
        ("late", {}, 13, "constraints", "unknown Goofspiel constraint set 'late'"),
        ("shuffeld", {}, 13, "constraints", "did you mean 'shuffled'"),
        ("missing.toml", {}, 13, "constraints", "no such constraint set file"),
        ("back-loaded", {"back-loaded.mni": 3}, 13, "params", "no parameter 'mni'"),
        ("back-loaded", {"front-loaded.min": 3}, 13, "params", "no constraint 'front-loaded'"),
        ("back-loaded", {"min": 3}, 13, "params", "'constraint.param'"),
        ("back-loaded", {"back-loaded.min": 3.5}, 13, "params", "integer >= 0"),
        ("back-loaded", {"back-loaded.k": 0}, 13, "params", "integer >= 1"),
        ("back-loaded", {"back-loaded.min": 47}, 13, "params", "sum to at most 46"),
        ("back-loaded", {"back-loaded.k": 14}, 13, "params", "only 13 prizes"),
        ("back-loaded", {}, 5, "options.cards", "sum to at most 14"),
        ("balanced-halves", {"balanced-halves.tolerance": 0}, 3, "options.cards", "counted"),
    ],
)
def test_an_unusable_set_names_the_key_to_blame(
    source: str, params: dict, cards: int, key: str, message: str
) -> None:
    with pytest.raises(SetupSetError, match=message) as caught:
        load_prize_set(source, params, cards)
    assert caught.value.key == key


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[constraint]]\nname = "late"\n', "unknown constraint 'late'"),
        ('[[constraint]]\nname = "back-loaded"\nmax = 3\n', "no parameter 'max'"),
        ('[[constraint]]\nname = "back-loaded"\nmin = "high"\n', "integer >= 0"),
        ('colour = "red"\n', "unknown key 'colour'"),
        ("[[constraint]\n", "not a valid TOML"),
        (
            '[[constraint]]\nname = "front-loaded"\nk = 4\nmin = 40\n'
            '[[constraint]]\nname = "back-loaded"\nk = 4\nmin = 40\n',
            "together \\(counted\\)",  # each alone allows orders, not both: 10..13 twice
        ),
    ],
)
def test_a_bad_set_file_is_blamed_on_the_set(tmp_path: Path, text: str, message: str) -> None:
    path = _write(tmp_path / "mine.toml", text)
    with pytest.raises(SetupSetError, match=message) as caught:
        load_prize_set(path, {})
    assert caught.value.key == "constraints"


def test_the_set_hooks_give_parameters_constraints_and_sets_without(tmp_path: Path) -> None:
    assert GAME.set_parameters("back-loaded") == ["back-loaded.k", "back-loaded.min"]
    assert GAME.set_parameters("shuffled") == []
    assert GAME.set_constraints("balanced-halves") == {"balanced-halves": {"tolerance": 3}}
    both = _write(
        tmp_path / "both.toml",
        'name = "both"\n[[constraint]]\nname = "back-loaded"\n'
        '[[constraint]]\nname = "balanced-halves"\ntolerance = 5\n',
    )
    # a parameter the file leaves out has its default
    assert GAME.set_constraints(both) == {
        "back-loaded": {"k": 4, "min": 36},
        "balanced-halves": {"tolerance": 5},
    }
    text = GAME.set_without(both, ["back-loaded"])
    data = tomllib.loads(text)
    assert data["name"] == "both-without-back-loaded"
    assert [c["name"] for c in data["constraint"]] == ["balanced-halves"]
    out = _write(tmp_path / f"without{GAME.set_suffix}", text)
    assert load_prize_set(out, {}).entries() == [("balanced-halves", {"tolerance": 5})]
    assert tomllib.loads(GAME.set_without("back-loaded", ["back-loaded"]))["constraint"] == []
    assert GAME.owns_set("shuffled") and GAME.owns_set(both)
    assert not GAME.owns_set(_write(tmp_path / "catan.toml", '[[constraint]]\nname = "fixed"\n'))
    with pytest.raises(SetupSetError) as caught:
        GAME.set_constraints("no-such-set")
    assert caught.value.key == "constraints"
    assert GAME.parameter_unit("back-loaded", {}, "back-loaded.min") == "points"
    assert GAME.parameter_unit("back-loaded", {}, "back-loaded.k") == "prizes"


def test_rejection_draws_only_satisfying_orders_from_the_seed() -> None:
    pset = load_prize_set("back-loaded", {"back-loaded.min": 40})
    orders, report = draw_rejection(pset, 50, seed=11)
    assert len(orders) == 50 and all(pset.holds(o.prizes) for o in orders)
    again, _ = draw_rejection(pset, 50, seed=11)
    assert again == orders and draw_rejection(pset, 50, seed=12)[0] != orders
    assert report.hits == 50 and report.acceptance == 50 / report.draws
    draw = GAME.draw_setups(pset, 5, "rejection", 3, players=2, options=None, settings={})
    assert draw.uniform and 0 < draw.acceptance <= 1 and len(draw.setups) == 5
    assert any("measured acceptance" in note for note in draw.notes)


def test_rejection_is_uniform_over_the_satisfying_orders() -> None:
    """K = 4, the last prize at least 3: 12 of the 24 orders, each drawn equally often."""
    pset = load_prize_set("back-loaded", {"back-loaded.k": 1, "back-loaded.min": 3}, cards=4)
    assert pset.orders == 12
    orders, report = draw_rejection(pset, 2400, seed=5)
    counts = Counter(o.prizes for o in orders)
    assert len(counts) == 12
    assert chisquare(list(counts.values())).pvalue > 0.001
    assert report.acceptance == pytest.approx(0.5, abs=0.05)


def test_rejection_refuses_a_set_too_tight_to_draw() -> None:
    pset = load_prize_set("back-loaded", {"back-loaded.min": 46})  # 10..13 last: 0.14%
    assert pset.share == pytest.approx(math.factorial(4) * math.factorial(9) / math.factorial(13))
    with pytest.raises(SamplingError, match="counted"):
        draw_rejection(pset, 100, seed=0, max_draws=10_000)


def test_the_library_lists_every_constraint_and_parameter() -> None:
    from ludolab_goofspiel.constraints import describe_constraints

    text = describe_constraints()
    assert all(len(line) <= 100 for line in text.splitlines())
    for name, cls in CONSTRAINTS.items():
        assert f"  {name}: " in text
        assert all(f"    {p} ({param.unit}" in text for p, param in cls.params.items())
