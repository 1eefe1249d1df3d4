"""Splendor's opening constraints: the exact counts against brute force and against fair deals,
the Python face against the MiniZinc face, the samplers (uniform, seeded, valid), and sets
that cannot be used."""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations

import pytest
from scipy import stats

from ludolab.envs.splendor.cards import CARDS, NOBLES
from ludolab.envs.splendor.engine import fair_deal
from ludolab.games import SetupSetError
from ludolab.research.solve import solve
from ludolab.research.splendor.model import check_deals, draw_minizinc, opening_model
from ludolab.research.splendor.opening import (
    CONSTRAINTS,
    count_openings,
    draw_exact,
    draw_rejection,
    load_opening_set,
)


def _plain_holds(name: str, values: dict[str, int], display, nobles) -> bool:
    """Each constraint restated with plain loops, apart from the module's numpy tests."""
    level1 = display[0] if display else ()
    if name == "level1-prestige":
        return sum(1 for c in level1 if CARDS[c].points > 0) <= values["max"]
    if name == "level1-cost":
        return values["min"] <= sum(sum(CARDS[c].cost) for c in level1) <= values["max"]
    if name == "display-colours":
        counts = Counter(CARDS[c].bonus for row in display for c in row)
        return all(values["min"] <= counts.get(k, 0) <= values["max"] for k in range(5))
    assert name == "noble-colours"
    return all(sum(NOBLES[n].need[k] > 0 for n in nobles) >= values["min"] for k in range(5))


def test_level1_counts_match_brute_force() -> None:
    level1 = [c.id for c in CARDS if c.level == 1]
    for name, values in (("level1-prestige", {"max": 0}), ("level1-cost", {"min": 0, "max": 15})):
        brute = sum(
            _plain_holds(name, values, (shown, (), ()), ()) for shown in combinations(level1, 4)
        )
        count = count_openings([CONSTRAINTS[name](values)], 2)
        others = math.comb(30, 4) * math.comb(20, 4)
        assert count.display == brute * others
    # no prestige among four of the 35 plain level-1 cards: C(35, 4) / C(40, 4)
    share = count_openings([CONSTRAINTS["level1-prestige"]({"max": 0})], 2).share
    assert share == pytest.approx(math.comb(35, 4) / math.comb(40, 4))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_noble_counts_match_brute_force(players: int) -> None:
    for low in (1, 2):
        brute = sum(
            _plain_holds("noble-colours", {"min": low}, (), nobles)
            for nobles in combinations(range(10), players + 1)
        )
        assert count_openings([CONSTRAINTS["noble-colours"]({"min": low})], players).nobles == brute


def test_the_colour_count_agrees_with_fair_deals() -> None:
    """The convolution's exact share against the share of 6,000 fair deals the plainly
    restated constraint accepts (a two-sided binomial test)."""
    oset = load_opening_set("even-opening", {}, 2)
    hits = 0
    for seed in range(6000):
        deal = fair_deal(2, seed)
        hits += all(
            _plain_holds(c.name, c.values, deal.display, deal.nobles) for c in oset.constraints
        )
    colours = load_opening_set("balanced-colours", {}, 2)
    colour_hits = sum(
        _plain_holds("display-colours", {"min": 2, "max": 3}, fair_deal(2, s).display, ())
        for s in range(6000)
    )
    assert stats.binomtest(colour_hits, 6000, colours.count.share).pvalue > 0.001
    assert stats.binomtest(hits, 6000, oset.count.share).pvalue > 0.001


def test_python_and_minizinc_faces_agree_on_deals() -> None:
    """Every constraint, with several parameter values, on fair deals (most fail some) and on
    deals drawn to satisfy the tightest set (all pass)."""
    constraints = [
        CONSTRAINTS["level1-prestige"]({"max": 0}),
        CONSTRAINTS["level1-prestige"]({"max": 1}),
        CONSTRAINTS["level1-cost"]({"min": 14, "max": 16}),
        CONSTRAINTS["display-colours"]({"min": 2, "max": 3}),
        CONSTRAINTS["display-colours"]({"min": 1, "max": 4}),
        CONSTRAINTS["noble-colours"]({"min": 1}),
        CONSTRAINTS["noble-colours"]({"min": 2}),
    ]
    deals = [fair_deal(3, s) for s in range(150)]
    deals += draw_exact(load_opening_set("even-opening", {}, 3), 50, 7)
    by_minizinc = check_deals(deals, constraints)
    by_python = [[c.holds(d) for c in constraints] for d in deals]
    assert by_minizinc == by_python
    # drawn from even-opening: each satisfies its level1-prestige (and so max 1),
    # display-colours (and so the looser 1..4) and noble-colours min 1
    assert all(row[0] and row[1] and row[3] and row[4] and row[5] for row in by_python[150:])
    # the fair deals exercise both answers of every constraint
    assert all(0 < sum(row[j] for row in by_python[:150]) < 150 for j in range(len(constraints)))


def test_minizinc_counts_the_allowed_nobles_and_cards_as_python_does() -> None:
    oset = load_opening_set("nobles-cover", {}, 2)
    model = opening_model(oset).replace("indomain_random", "indomain_min")
    assert len(solve(model, all_solutions=True).solutions) == oset.count.nobles == 75
    tight = load_opening_set("cheap-level1", {"level1-cost.max": 13}, 2)
    model = opening_model(tight).replace("indomain_random", "indomain_min")
    listed = solve(model, all_solutions=True).solutions
    per_other = math.comb(30, 4) * math.comb(20, 4)
    assert len(listed) * per_other == tight.count.display


def test_samplers_draw_valid_seeded_deals() -> None:
    oset = load_opening_set("even-opening", {}, 2)
    exact = draw_exact(oset, 40, 3)
    assert exact == draw_exact(oset, 40, 3) and exact != draw_exact(oset, 40, 4)
    rejected, report = draw_rejection(oset, 5, 3)
    assert report.draws > 5 and rejected == draw_rejection(oset, 5, 3)[0]
    solved, _ = draw_minizinc(oset, 10, 3)
    assert solved == draw_minizinc(oset, 10, 3)[0]
    for deal in exact + rejected + solved:
        assert oset.holds(deal) and deal.n_players == 2
        assert all(
            _plain_holds(c.name, c.values, deal.display, deal.nobles) for c in oset.constraints
        )


def test_the_exact_sampler_is_uniform() -> None:
    """Noble sets: every allowed set equally often (chi-square). Display: the level-1 cost of
    exact draws against rejection draws from fair deals (two-sample KS on 600 each)."""
    nobles = load_opening_set("nobles-cover", {}, 2)
    drawn = Counter(tuple(sorted(d.nobles)) for d in draw_exact(nobles, 3000, 1))
    assert len(drawn) == 75
    assert stats.chisquare(list(drawn.values())).pvalue > 0.001
    oset = load_opening_set("balanced-colours", {}, 2)
    exact = [sum(sum(CARDS[c].cost) for c in d.display[0]) for d in draw_exact(oset, 600, 2)]
    rejected = [
        sum(sum(CARDS[c].cost) for c in d.display[0]) for d in draw_rejection(oset, 600, 2)[0]
    ]
    assert stats.ks_2samp(exact, rejected).pvalue > 0.001


def test_sets_that_allow_no_deal_or_are_malformed_say_which_key(tmp_path) -> None:
    with pytest.raises(SetupSetError) as caught:
        load_opening_set("nobles-cover", {"noble-colours.min": 3}, 2)
    assert caught.value.key == "params" and "no set of 3 nobles" in str(caught.value)
    with pytest.raises(SetupSetError) as caught:
        load_opening_set("cheap-level1", {"level1-cost.min": 16}, 2)
    assert caught.value.key == "params" and "above level1-cost.max" in str(caught.value)
    bad = tmp_path / "bad.toml"
    bad.write_text('[[constraint]]\nname = "level1-prestiges"\n')
    with pytest.raises(SetupSetError, match="did you mean 'level1-prestige'") as caught:
        load_opening_set(bad, {}, 2)
    assert caught.value.key == "constraints"
    empty = tmp_path / "empty.toml"
    empty.write_text('[[constraint]]\nname = "display-colours"\nmin = 3\nmax = 3\n')
    with pytest.raises(SetupSetError, match="no display satisfies display-colours"):
        load_opening_set(empty, {}, 2)
    with pytest.raises(SetupSetError, match="has no constraint 'level1-cost'") as caught:
        load_opening_set("nobles-cover", {"level1-cost.max": 14}, 2)
    assert caught.value.key == "params"
