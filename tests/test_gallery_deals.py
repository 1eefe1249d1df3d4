"""Constrained Masters Gallery deals: constraints, samplers, distributions, errors."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chi2_contingency, chisquare

from ludolab.envs.gallery.cards import OPEN_MODEL_SYMBOLS
from ludolab.envs.gallery.deal import Deal, iter_deals
from ludolab.research.gallery.deals import (
    DEAL_CONSTRAINTS,
    DealConstraintError,
    DealContext,
    DealSamplingError,
    _list_plan,
    as_deal_set,
    check_deals,
    describe_constraints,
    exact_plan,
    generate_deals,
    load_deal_set,
    make_deal_constraint,
    shipped_deal_sets,
    violated,
    write_deals_jsonl,
)

# The hand-made deals use the open model's symbols table: in each artist's id block the first
# three cards are draw, double, award (``ok`` checks them under that table).
LM, YOKO, CHRISTIN, KARL, KRYPTO = 0, 17, 35, 54, 74  # first id of each artist
PLAIN = [c for a in (LM, YOKO, CHRISTIN, KARL, KRYPTO) for c in range(a + 3, a + 17)]


def deal_from(hands: list[list[int]]) -> Deal:
    used = {c for h in hands for c in h}
    return Deal.from_hands(hands, [c for c in range(95) if c not in used])


def fill(hand: list[int], avoid: set[int], pool=PLAIN) -> list[int]:
    """Complete a hand to 13 cards with plain cards not in ``avoid``."""
    extra = [c for c in pool if c not in avoid and c not in hand]
    return hand + extra[: 13 - len(hand)]


def ok(name: str, deal: Deal, **params) -> bool:
    ctx = DealContext(deal.n_players, symbols=OPEN_MODEL_SYMBOLS)
    c = make_deal_constraint(name, ctx, **params)
    return bool(check_deals([c], [deal])[0])


# ------------------------------------------------------------------ constraints on hand-made deals


def test_balanced_symbols_hand_made():
    a = [LM + 0, LM + 1]  # draw, double
    b = [YOKO + 0, YOKO + 1]  # draw, double
    h0 = fill(a, set(b))
    h1 = fill(b, set(h0))
    deal = deal_from([h0, h1])
    assert ok("balanced-symbols", deal)
    # seat 1 gets an award card instead of its double: unequal per kind, equal in total
    b2 = [YOKO + 0, YOKO + 2]
    h1 = fill(b2, set(h0))
    deal = deal_from([h0, h1])
    assert not ok("balanced-symbols", deal)
    assert ok("balanced-symbols", deal, by="total")
    assert ok("balanced-symbols", deal, tolerance=1)
    # seat 1 with no symbol cards at all
    h1 = fill([], set(h0))
    deal = deal_from([h0, h1])
    assert not ok("balanced-symbols", deal, by="total", tolerance=1)
    assert ok("balanced-symbols", deal, by="total", tolerance=2)


def test_balanced_artists_hand_made():
    # 13 cards: artists 3,3,3,2,2 for both seats (plain cards)
    def hand(offset):
        return (
            list(range(LM + 3 + offset, LM + 6 + offset))
            + list(range(YOKO + 3 + offset, YOKO + 6 + offset))
            + list(range(CHRISTIN + 3 + offset, CHRISTIN + 6 + offset))
            + list(range(KARL + 3 + offset, KARL + 5 + offset))
            + list(range(KRYPTO + 3 + offset, KRYPTO + 5 + offset))
        )

    deal = deal_from([hand(0), hand(5)])
    assert ok("balanced-artists", deal, tolerance=0)
    h1 = hand(5)
    h1[-1] = LM + 12  # a Krypto swapped for a Lite Metal: LM 3 vs 4, Krypto 2 vs 1
    deal = deal_from([hand(0), h1])
    assert not ok("balanced-artists", deal, tolerance=0)
    assert ok("balanced-artists", deal, tolerance=1)


def test_skewed_artists_hand_made():
    krypto7 = list(range(KRYPTO + 3, KRYPTO + 10))
    h0 = krypto7 + list(range(YOKO + 3, YOKO + 9))  # 7 Krypto, 6 Yoko
    h1 = (
        list(range(LM + 3, LM + 6))
        + list(range(CHRISTIN + 3, CHRISTIN + 7))
        + list(range(KARL + 3, KARL + 7))
        + [KRYPTO + 12, KRYPTO + 13]
    )  # at most 4 of any
    deal = deal_from([h0, h1])
    assert ok("skewed-artists", deal)
    assert ok("skewed-artists", deal, seat=0, artist="Krypto")
    assert ok("skewed-artists", deal, seat=0, artist=4)
    assert not ok("skewed-artists", deal, seat=1)
    assert not ok("skewed-artists", deal, artist="Karl Gitter")
    assert ok("skewed-artists", deal, artist="Yoko", min_count=6)
    assert not ok("skewed-artists", deal, min_count=8)


def test_no_symbols_and_symbol_cards_hand_made():
    h0 = fill([], set())
    h1 = fill([LM, YOKO + 2], set(h0))  # a draw and an award
    h2 = fill([KARL + 1], set(h0) | set(h1))  # a double
    deal = deal_from([h0, h1, h2])
    assert ok("no-symbols-for-seat", deal, seat=0)
    assert not ok("no-symbols-for-seat", deal, seat=1)
    assert ok("no-symbols-for-seat", deal, seat=2, symbols=["draw", "award"])
    assert not ok("no-symbols-for-seat", deal, seat=2, symbols=["double"])
    assert ok("symbol-cards", deal, min=0, max=2)
    assert not ok("symbol-cards", deal, min=1)
    assert ok("symbol-cards", deal, min=1, seat=2)
    c = make_deal_constraint("symbol-cards", DealContext(3, symbols=OPEN_MODEL_SYMBOLS), min=1)
    assert violated([c], deal) == [c.describe()]


# ------------------------------------------------------------------ generated deals


CASES = [
    ("balanced-symbols", 4, {}),
    ("balanced-symbols", 5, {"balanced-symbols": {"tolerance": 1}}),
    ("balanced-symbols", 3, {"balanced-symbols.by": "total"}),
    ("balanced-artists", 3, {}),
    ("balanced-artists", 5, {"balanced-artists.tolerance": 0}),
    ("skewed-artists", 4, {}),
    ("skewed-artists", 2, {"skewed-artists": {"seat": 1, "artist": "Yoko", "min_count": 6}}),
    ("no-symbols-for-seat", 5, {"no-symbols-for-seat.seat": 4}),
    ("symbol-cards", 4, {"symbol-cards": {"min": 2, "max": 5}}),
    ("balanced-symbols,no-symbols-for-seat", 3, {}),
]


@pytest.mark.parametrize(("spec", "players", "params"), CASES)
@pytest.mark.parametrize("method", ["auto", "rejection", "exact"])
def test_generated_deals_satisfy_and_validate(spec, players, params, method):
    ctx = DealContext(players)
    bound = as_deal_set(spec, params).bind(ctx)
    # exact only where the planner applies; rejection only where acceptance allows
    if method == "exact" and exact_plan(bound, ctx) is None:
        with pytest.raises(DealSamplingError, match="exact sampler cannot"):
            generate_deals(spec, players, 5, 0, params, method=method)
        return
    try:
        deals, report = generate_deals(
            spec, players, 40, 7, params, method=method, max_draws=400_000
        )
    except DealSamplingError as exc:
        assert method == "rejection" and "too slow" in str(exc)
        return
    assert len(deals) == 40 and report.accepted == 40
    assert report.uniform
    for d in deals:
        d.validate()
        assert d.n_players == players
        assert Deal.from_json(d.to_json()) == d
    assert check_deals(bound, deals).all()
    assert report.method == ("exact" if method == "exact" else report.method)


def test_fair_set_and_empty_list():
    deals, report = generate_deals("fair", 3, 10, 1)
    assert report.method == "fair" and len(deals) == 10
    deals2, _ = generate_deals([], 3, 10, 1)
    assert [d.id for d in deals] == [d.id for d in deals2]


def test_reproducible_from_seed():
    for spec, method in [("balanced-symbols", "exact"), ("skewed-artists", "rejection")]:
        a, _ = generate_deals(spec, 3, 20, 11, method=method)
        b, _ = generate_deals(spec, 3, 20, 11, method=method)
        c, _ = generate_deals(spec, 3, 20, 12, method=method)
        assert [d.id for d in a] == [d.id for d in b]
        assert [d.id for d in a] != [d.id for d in c]
    # a set of names is order-free
    a, _ = generate_deals({"balanced-symbols", "no-symbols-for-seat"}, 3, 5, 1)
    b, _ = generate_deals(["balanced-symbols", "no-symbols-for-seat"], 3, 5, 1)
    assert [d.id for d in a] == [d.id for d in b]


def test_write_jsonl_round_trip(tmp_path):
    deals, _ = generate_deals("balanced-symbols", 4, 7, 3)
    path = tmp_path / "deals.jsonl"
    assert write_deals_jsonl(deals, path) == 7
    assert list(iter_deals(path)) == deals
    assert not list(tmp_path.glob(".*partial"))
    with pytest.raises(DealConstraintError, match="does not exist"):
        write_deals_jsonl(deals, tmp_path / "nope" / "d.jsonl")


def test_shipped_sets_load_and_generate():
    names = shipped_deal_sets()
    assert {"fair", "balanced-symbols", "balanced-artists"} <= set(names)
    for name in names:
        deals, _ = generate_deals(name, 4, 3, 0)
        assert len(deals) == 3


# ------------------------------------------------------------------ distributions


@pytest.mark.parametrize(
    ("spec", "players", "params"),
    [
        ("balanced-symbols", 2, {}),
        ("balanced-symbols", 3, {"balanced-symbols.tolerance": 1}),
        ("balanced-artists", 2, {}),
        ("skewed-artists", 2, {"skewed-artists": {"seat": 0, "artist": "Krypto", "min_count": 5}}),
        ("symbol-cards", 3, {"symbol-cards": {"min": 1, "max": 3}}),
    ],
)
def test_exact_probability_matches_rejection_rate(spec, players, params):
    _, report = generate_deals(spec, players, 300, 5, params, method="rejection")
    dset_bound = as_deal_set(spec, params).bind(DealContext(players))
    plan = exact_plan(dset_bound, DealContext(players))
    p, rate, draws = plan.exact_probability, report.acceptance, report.draws
    sd = np.sqrt(p * (1 - p) / draws)
    assert abs(rate - p) < 5 * sd + 1e-9, (rate, p)


def test_dp_and_list_plans_agree():
    ctx = DealContext(3, symbols=OPEN_MODEL_SYMBOLS)  # few enough count matrices to list
    for name, params in [
        ("balanced-symbols", {}),
        ("balanced-symbols", {"tolerance": 1}),
        ("no-symbols-for-seat", {"seat": 1}),
    ]:
        c = [make_deal_constraint(name, ctx, **params)]
        dp = exact_plan(c, ctx)
        listed = _list_plan(c, ctx, c[0].labelling(), 10**7)
        assert dp.kind == "dp" and listed.kind == "list"
        assert dp.exact_probability == pytest.approx(listed.exact_probability, rel=1e-9)


def test_exact_matches_rejection_in_distribution():
    """Two-sample chi-square: where card 0 (a draw card) lands, and seat 0's draw count."""
    n = 3000
    ex, _ = generate_deals("balanced-symbols", 2, n, 21, method="exact")
    rj, _ = generate_deals("balanced-symbols", 2, n, 22, method="rejection")

    def where(deals, card):
        pos = np.array([d.order.index(card) for d in deals])
        return np.minimum(pos // 13, 2)  # seat 0, seat 1, rest

    def draws0(deals):
        return np.array([sum(1 for c in d.order[:13] if c in (0, 17, 35, 54, 74)) for d in deals])

    for f in (lambda ds: where(ds, 0), lambda ds: where(ds, 40), draws0):
        a, b = f(ex), f(rj)
        cats = np.union1d(a, b)
        table = np.array([[np.sum(a == k) for k in cats], [np.sum(b == k) for k in cats]])
        table = table[:, table.min(axis=0) > 0]
        if table.shape[1] > 1:
            assert chi2_contingency(table).pvalue > 1e-3


def test_seat_of_a_symbol_card_is_uniform_under_balanced_symbols():
    deals, _ = generate_deals("balanced-symbols", 4, 4000, 3, {"balanced-symbols.by": "total"})
    seats = np.array([d.order.index(17) // 13 for d in deals])  # Yoko's draw card
    in_hands = seats[seats < 4]
    assert len(in_hands) > 500
    assert chisquare(np.bincount(in_hands, minlength=4)).pvalue > 1e-3
    # which of the five draw cards seat 0 holds first: uniform over the artists
    first = [next((c for c in d.order[:13] if c in (0, 17, 35, 54, 74)), None) for d in deals]
    counts = np.array([sum(1 for f in first if f == c) for c in (0, 17, 35, 54, 74)])
    assert counts.sum() > 500 and chisquare(counts).pvalue > 1e-3


def test_exact_sampler_is_uniform_on_a_small_space():
    """A tiny space: hand_size 1, 5 players, skewed-artists seat 0 >= 1 Krypto card."""
    deals, report = generate_deals(
        ["skewed-artists"],
        5,
        6000,
        4,
        {"skewed-artists": {"seat": 0, "artist": "Krypto", "min_count": 1}},
        hand_size=1,
        method="exact",
    )
    assert report.exact_probability == pytest.approx(21 / 95)
    # seat 0's card: uniform over the 21 Krypto cards; seat 1's: uniform over the other 94
    first = np.array([d.order[0] for d in deals])
    assert set(first) <= set(range(74, 95))
    assert chisquare(np.bincount(first - 74, minlength=21)).pvalue > 1e-3
    second = np.array([d.order[1] for d in deals])
    krypto_rate = np.mean(second >= 74)
    assert abs(krypto_rate - 20 / 94) < 0.03


# ------------------------------------------------------------------ errors


def test_errors_are_clear():
    with pytest.raises(DealConstraintError, match="unknown deal set or constraint 'nope'"):
        generate_deals("nope", 3, 1, 0)
    with pytest.raises(DealConstraintError, match="unknown deal constraint 'nope'"):
        generate_deals(["nope"], 3, 1, 0)
    with pytest.raises(DealConstraintError, match="has no parameter 'tol'"):
        generate_deals("balanced-symbols", 3, 1, 0, {"balanced-symbols.tol": 1})
    with pytest.raises(DealConstraintError, match="expected an integer >= 0"):
        generate_deals("balanced-symbols", 3, 1, 0, {"balanced-symbols.tolerance": -1})
    with pytest.raises(DealConstraintError, match="expected one of 'kind', 'total'"):
        generate_deals("balanced-symbols", 3, 1, 0, {"balanced-symbols.by": "all"})
    with pytest.raises(DealConstraintError, match=r"expected a seat 0\.\.2"):
        generate_deals("no-symbols-for-seat", 3, 1, 0, {"no-symbols-for-seat.seat": 3})
    with pytest.raises(DealConstraintError, match="artist name"):
        generate_deals("skewed-artists", 3, 1, 0, {"skewed-artists.artist": "Picasso"})
    with pytest.raises(DealConstraintError, match="impossible"):
        generate_deals("skewed-artists", 3, 1, 0, {"skewed-artists.min_count": 14})
    with pytest.raises(DealConstraintError, match="min .* exceeds max"):
        generate_deals("symbol-cards", 3, 1, 0, {"symbol-cards": {"min": 3, "max": 2}})
    with pytest.raises(
        DealConstraintError,
        match="params balanced-artists.tolerance: .* has no constraint 'balanced-artists'",
    ):
        generate_deals("balanced-symbols", 3, 1, 0, {"balanced-artists.tolerance": 1})
    with pytest.raises(DealConstraintError, match="n_players"):
        generate_deals("fair", 6, 1, 0)
    with pytest.raises(DealConstraintError, match="unknown method"):
        generate_deals("fair", 3, 1, 0, method="mcmc")
    with pytest.raises(DealConstraintError, match="number of deals"):
        generate_deals("fair", 3, 0, 0)
    with pytest.raises(DealSamplingError, match="no deal for 5 players"):
        generate_deals("symbol-cards", 5, 1, 0, {"symbol-cards.min": 7})  # 35 of 30
    with pytest.raises(DealSamplingError, match="too slow"):
        generate_deals(
            "balanced-artists",
            5,
            5,
            0,
            {"balanced-artists.tolerance": 0},
            method="rejection",
            max_draws=100_000,
        )


def test_toml_errors(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[constraint]]\nname = "balanced-symbols"\ntolerance = "x"\n')
    with pytest.raises(DealConstraintError, match=r"bad\.toml: constraint\[0\].*tolerance"):
        generate_deals(str(bad), 3, 1, 0)
    bad.write_text('[[constraint]]\nname = "balanced-symbolz"\n')
    with pytest.raises(DealConstraintError, match="unknown deal constraint 'balanced-symbolz'"):
        load_deal_set(bad)
    bad.write_text("colour = 1\n")
    with pytest.raises(DealConstraintError, match="unknown key 'colour'"):
        load_deal_set(bad)


def test_describe_lists_every_constraint():
    text = describe_constraints()
    for name in DEAL_CONSTRAINTS:
        assert name in text
