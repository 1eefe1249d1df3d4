"""Game metrics: hand-made trajectories and tables with known answers, scipy cross-checks, and
smoke tests on simulated Catan and Masters Gallery games."""

from __future__ import annotations

import io
import math

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from scipy.stats import binomtest, chisquare

from ludolab import games
from ludolab.envs.catan.engine import GameOptions
from ludolab.envs.catan.gym_env import random_board
from ludolab.envs.catan.record import GameRecord
from ludolab.envs.gallery.record import GalleryRecord
from ludolab.research.catan import simulate as catan_sim
from ludolab.research.catan.features import board_features
from ludolab.research.gallery import simulate as gallery_sim
from ludolab.research.metrics import (
    METRICS,
    balance,
    chi_square_uniform,
    condition_metrics,
    decisiveness,
    decisiveness_threshold,
    drama,
    games_frame,
    gini,
    lead_change,
    lead_change_count,
    metrics_table,
    per_game_metrics,
    score_spread,
    wilson_interval,
    winner_margin,
    winner_trailing,
    with_setup_features,
)
from ludolab.research.metrics.registry import CONDITION_METRICS

# ----------------------------------------------------------------------------------------------
# Scalar formulas


def test_lead_change_two_changes_in_four_turns():
    v = [[3, 2], [3, 2], [2, 3], [2, 3]]  # tie -> 0 leads -> 0 -> 1 leads -> 1
    assert lead_change_count(v) == 2
    assert lead_change(v) == 0.5


def test_lead_change_counts_ties_as_leader_sets():
    v = [[1, 1], [2, 1], [2, 2], [2, 2]]  # {0,1} -> {0} -> {0,1} -> {0,1}: 2 changes
    assert lead_change(v) == 0.5
    assert lead_change([[0, 0, 0]] * 5) == 0.0  # nobody ever ahead
    assert lead_change([[1, 0, 0], [2, 0, 0]]) == 0.5  # the opening tie broken once
    assert math.isnan(lead_change(np.zeros((0, 3))))


def test_drama_zero_when_winner_never_behind():
    v = [[2, 2], [3, 2], [3, 3], [5, 3]]
    assert drama(v, [0]) == 0.0
    assert winner_trailing(v, [0]) == 0.0


def test_drama_relative_gap_over_trailing_turns():
    v = [[2, 4], [4, 4], [6, 4]]  # the winner, seat 0, trails only after turn 1: (4-2)/4
    assert drama(v, [0]) == pytest.approx(0.5)
    assert winner_trailing(v, [0]) == pytest.approx(1 / 3)
    v = [[1, 4], [2, 4], [8, 4]]  # gaps 3/4, 2/4, 0
    assert drama(v, [0]) == pytest.approx(0.625)
    assert winner_trailing(v, [0]) == pytest.approx(2 / 3)


def test_drama_shared_winners_and_edge_cases():
    v = [[0, 4, 2], [5, 5, 3]]  # winners 0 and 1: gap_1 = (4 - 2)/4, gap_2 = 0
    assert drama(v, [0, 1]) == pytest.approx(0.5)
    assert drama([[0, 0], [1, 0]], [0]) == 0.0  # leader score 0 -> gap 0, no division
    assert math.isnan(drama(v, []))
    with pytest.raises(ValueError):
        drama(v, [3])


def test_decisiveness_lead_never_lost():
    v = [[1, 0], [0, 1], [2, 1], [3, 1]]  # seat 0 leads for good from turn 3 of 4
    assert decisiveness(v, [0]) == 0.75
    assert decisiveness([[1, 0], [2, 1], [3, 1]], [0]) == pytest.approx(1 / 3)  # led throughout
    assert decisiveness([[1, 0], [1, 1]], [0]) == 1.0  # not strictly ahead at the end
    assert decisiveness([[0, 0, 1], [3, 3, 1], [4, 4, 1]], [0, 1]) == pytest.approx(2 / 3)
    assert math.isnan(decisiveness(v, []))
    assert math.isnan(decisiveness(v, [0, 1]))  # everyone won: no one to lead


def test_decisiveness_threshold_ludii_style():
    # best non-winner score ever: 4; the winner first exceeds it at turn 1 of 3
    assert decisiveness_threshold([[5, 1], [5, 3], [6, 4]], [0]) == pytest.approx(1 / 3)
    # best non-winner score 4 (seat 2 at turn 3); the winner exceeds it only at turn 4
    v = [[3, 0, 0], [3, 2, 0], [3, 2, 4], [5, 2, 4]]
    assert decisiveness_threshold(v, [0]) == 1.0
    assert decisiveness(v, [0]) == 1.0
    assert decisiveness_threshold([[4, 5], [5, 5]], [0]) == 1.0  # never above: 1
    assert math.isnan(decisiveness_threshold(v, []))


def test_gini():
    assert gini([5, 5, 5, 5]) == 0.0
    assert gini([0, 0, 0]) == 0.0
    assert gini([0, 0, 0, 1]) == pytest.approx(0.75)  # the maximum (n - 1)/n
    assert gini([1, 3]) == pytest.approx(0.25)
    rng = np.random.default_rng(0)
    for _ in range(20):  # against the sorted-rank form of the same coefficient
        x = np.sort(rng.integers(0, 50, size=rng.integers(2, 6)).astype(float))
        if x.sum() == 0:
            continue
        n = x.size
        ranked = (2 * np.arange(1, n + 1) - n - 1) @ x / (n * x.sum())
        assert gini(rng.permutation(x)) == pytest.approx(ranked)
    assert math.isnan(gini([]))


def test_balance():
    assert balance([0.5, 0.5]) == 1.0
    assert balance([1.0, 0.0]) == 0.0
    assert balance([0.5, 0.3, 0.2]) == pytest.approx(0.7)
    assert math.isnan(balance([float("nan"), 0.5]))


def test_margin_and_spread():
    assert winner_margin([10, 7, 8], [0]) == 2.0
    assert winner_margin([40, 40, 10], [0, 1]) == 0.0
    assert math.isnan(winner_margin([9, 8], []))
    assert score_spread([10, 7, 3]) == 7.0


@pytest.mark.parametrize("k,n", [(0, 10), (3, 10), (10, 10), (17, 40), (1, 1), (250, 997)])
@pytest.mark.parametrize("confidence", [0.95, 0.9])
def test_wilson_matches_scipy(k, n, confidence):
    ci = binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
    lo, hi = wilson_interval(k, n, confidence)
    assert lo == pytest.approx(ci.low, abs=1e-12)
    assert hi == pytest.approx(ci.high, abs=1e-12)


def test_wilson_fractional_and_empty():
    lo, hi = wilson_interval(2.5, 10)
    lo2, _ = wilson_interval(2, 10)
    _, hi3 = wilson_interval(3, 10)
    assert lo2 < lo < hi < hi3
    assert all(math.isnan(x) for x in wilson_interval(0, 0))


@pytest.mark.parametrize("wins", [[10, 10], [30, 20, 10], [5, 0, 0, 1], [2.5, 1.5]])
def test_chi_square_matches_scipy(wins):
    expected = chisquare(wins)
    stat, p = chi_square_uniform(wins)
    assert stat == pytest.approx(expected.statistic)
    assert p == pytest.approx(expected.pvalue)
    assert all(math.isnan(x) for x in chi_square_uniform([0, 0]))


# ----------------------------------------------------------------------------------------------
# Hand-made records


def catan_record(vp_by_turn, winner, produced=None, first_city=None, **kw) -> GameRecord:
    vp = tuple(tuple(r) for r in vp_by_turn)
    n = len(vp[0])
    fields = dict(
        setup_id="b0",
        seed=0,
        agents=("random",) * n,
        winners=() if winner is None else (winner,),
        final_scores=vp[-1],
        score_by_step=vp,
        turns=len(vp),
        rounds=math.ceil(len(vp) / n),
        n_actions=3 * len(vp),
        truncated=winner is None,
        produced=tuple(tuple(r) for r in (produced or [(1, 1, 1, 1, 1)] * n)),
        dice=(7,) * len(vp),
        robber_moves=2,
        sevens=1,
        maritime_trades=3,
        domestic_trades=4,
        knights_played=(0,) * n,
        first_settlement_turn=(None,) * n,
        first_city_turn=tuple(first_city or (None,) * n),
        longest_road=None,
        largest_army=None,
    )
    fields.update(kw)
    return GameRecord(**fields)


def gallery_record(round_scores, winners, deck_ran_out=False) -> GalleryRecord:
    rs = tuple(tuple(r) for r in round_scores)
    n, rounds = len(rs[0]), len(rs)
    final = tuple(int(x) for x in np.sum(rs, axis=0))
    zeros5 = ((0,) * 5,) * rounds
    return GalleryRecord(
        setup_id="d0",
        seed=0,
        agents=("random",) * n,
        winners=tuple(winners),
        final_scores=final,
        score_by_step=tuple(tuple(int(x) for x in row) for row in np.cumsum(rs, axis=0)),
        turns=5 * rounds,
        rounds=rounds,
        n_actions=30,
        truncated=False,
        exhibits=(((0,) * 5,) * n,) * rounds,
        extra_cards=zeros5,
        awards=zeros5,
        rankings=((0, 1, 2),) * rounds,
        artist_values=zeros5,
        round_starters=(0,) * rounds,
        round_closers=(0,) * rounds,
        turns_per_round=(5,) * rounds,
        cards_dealt=(10,) * n,
        cards_drawn=(0,) * n,
        missed_draws=1,
        deck_left=0,
        deck_ran_out=deck_ran_out,
    )


def test_catan_per_game_by_hand():
    won = catan_record(
        [[2, 3, 2], [3, 3, 2], [4, 3, 5], [10, 3, 5]],
        winner=0,
        produced=[(2, 2, 2, 2, 2), (2, 2, 2, 2, 2), (2, 2, 2, 2, 2)],
        first_city=[2, None, 1],
    )
    cut = catan_record([[2, 2, 2], [3, 2, 2]], winner=None, produced=[(1, 0, 0, 0, 0)] * 3)
    pg = per_game_metrics([won, cut], "catan")
    a, b = pg.iloc[0], pg.iloc[1]
    assert list(pg["game"]) == [0, 1]
    assert a["turns"] == 4 and a["rounds"] == 2 and not a["truncated"]
    assert a["winner"] == 0 and a["winners"] == (0,) and not a["shared_win"]
    assert a["score_spread"] == 7 and a["winner_margin"] == 5
    # leaders: {1} {0,1} {2} {0} -> 4 changes in 4 turns
    assert a["lead_changes"] == 4 and a["lead_change"] == 1.0
    # seat 0 trails after turns 1 ((3-2)/3) and 3 ((5-4)/5)
    assert a["drama"] == pytest.approx((1 / 3 + 1 / 5) / 2)
    assert a["winner_trailing"] == 0.5
    assert a["decisiveness"] == 1.0 and a["decisiveness_threshold"] == 1.0
    assert a["income_gini"] == 0.0
    assert a["trades"] == 7 and a["sevens"] == 1 and a["robber_moves"] == 2
    assert a["first_city_turn"] == 1 and a["winner_first_city_turn"] == 2
    assert a["agents"] == ("random",) * 3
    assert b["truncated"] and pd.isna(b["winner"]) and b["winners"] == ()
    for col in ("winner_margin", "drama", "decisiveness", "decisiveness_threshold"):
        assert math.isnan(b[col])
    assert b["lead_change"] == 0.5 and b["income_gini"] == 0.0
    assert math.isnan(b["first_city_turn"]) and math.isnan(b["winner_first_city_turn"])


def test_gallery_per_game_by_hand():
    shared = gallery_record([[10, 0, 5], [0, 10, 5], [10, 10, 0]], winners=(0, 1))
    single = gallery_record([[0, 10], [30, 0]], winners=(0,), deck_ran_out=True)
    pg = per_game_metrics([shared, single])  # game inferred from its own columns
    a, b = pg.iloc[0], pg.iloc[1]
    assert a["turns"] == 15 and a["rounds"] == 3 and not a["truncated"]
    assert pd.isna(a["winner"]) and a["winners"] == (0, 1) and a["shared_win"]
    assert a["n_winners"] == 2 and a["winner_margin"] == 0 and a["score_spread"] == 10
    # cumulative: [10,0,5] [10,10,10] [20,20,10]: leaders {0} {0,1,2} {0,1}
    assert a["lead_change"] == 1.0
    # winners' mean vs leader: (10-5)/10, 0, 0
    assert a["drama"] == pytest.approx(0.5) and a["winner_trailing"] == pytest.approx(1 / 3)
    assert a["decisiveness"] == 1.0  # winners strictly ahead of seat 2 only after round 3
    assert a["income_gini"] == pytest.approx(gini([20, 20, 10]))
    assert b["winner"] == 0 and b["winner_margin"] == 20 and b["deck_ran_out"]
    assert b["drama"] == 1.0 and b["decisiveness"] == 1.0 and b["lead_changes"] == 2


def test_records_and_parquet_give_the_same_metrics():
    records = [
        catan_record([[2, 3], [4, 3], [10, 3]], winner=0, first_city=[1, None]),
        catan_record([[2, 2], [2, 3]], winner=None),
    ]
    table = catan_sim.records_table(records)
    buf = io.BytesIO()
    pq.write_table(table, buf)
    from_parquet = per_game_metrics(pq.read_table(io.BytesIO(buf.getvalue())).to_pandas())
    from_records = per_game_metrics(records)
    pd.testing.assert_frame_equal(from_parquet, from_records, check_dtype=False)
    assert games_frame(from_records) is from_records


def test_per_game_rejects_wrong_tables():
    with pytest.raises(ValueError, match="cannot tell"):
        per_game_metrics(pd.DataFrame({"x": [1]}))
    with pytest.raises(ValueError, match="not a catan games table: missing columns"):
        per_game_metrics(pd.DataFrame({"setup_id": ["b"]}), "catan")
    with pytest.raises(ValueError, match="unknown game 'chess'; the registered games are catan"):
        per_game_metrics([catan_record([[2, 3]], winner=1)], "chess")


# ----------------------------------------------------------------------------------------------
# Per-condition aggregates


def _two_seat_games() -> pd.DataFrame:
    win0 = gallery_record([[10, 0]], winners=(0,))
    win1 = gallery_record([[0, 10]], winners=(1,))
    tie = gallery_record([[10, 10]], winners=(0, 1))
    df = games_frame([win0, win0, win1, tie, win0, win1])
    df["condition"] = ["a", "a", "a", "a", "b", "b"]
    return df


def test_condition_metrics_by_hand():
    cm = condition_metrics(_two_seat_games(), "gallery").set_index("condition")
    a, b = cm.loc["a"], cm.loc["b"]
    assert a["n_games"] == 4 and a["n_decided"] == 4 and a["completion_rate"] == 1.0
    assert a["wins_0"] == 2.5 and a["wins_1"] == 1.5  # the shared win counts 1/2 each
    assert a["win_rate_0"] == pytest.approx(0.625) and a["win_rate_1"] == pytest.approx(0.375)
    assert a["balance"] == pytest.approx(0.75)
    assert a["first_player_advantage"] == pytest.approx(0.125)
    expected = chisquare([2.5, 1.5])
    assert a["chi2"] == pytest.approx(expected.statistic)
    assert a["chi2_p"] == pytest.approx(expected.pvalue)
    assert a["shared_win_mean"] == 0.25 and a["turns_mean"] == 5.0 and a["turns_sd"] == 0.0
    # the per-game first_seat_win averages to seat 0's win rate, shared wins split
    assert a["first_seat_win_mean"] == pytest.approx(a["win_rate_0"])
    assert b["balance"] == 1.0 and b["first_player_advantage"] == 0.0
    ci = binomtest(1, 2).proportion_ci(method="wilson")
    assert b["win_rate_0_low"] == pytest.approx(ci.low)
    assert b["win_rate_0_high"] == pytest.approx(ci.high)
    # per-game tables are accepted too, and by=None pools everything
    per = per_game_metrics(_two_seat_games())
    pd.testing.assert_frame_equal(condition_metrics(per, "gallery"), cm.reset_index())
    pooled = condition_metrics(per, by=None)
    assert len(pooled) == 1 and pooled.loc[0, "n_games"] == 6
    assert pooled.loc[0, "wins_0"] == 3.5


def test_condition_metrics_timeouts_and_length():
    games = [
        catan_record([[2, 3], [10, 3]], winner=0),
        catan_record([[2, 3], [2, 4], [2, 10]], winner=1),
        catan_record([[2, 3], [3, 3], [3, 3], [3, 4]], winner=None),
        catan_record([[2, 3], [10, 3]], winner=0),
    ]
    cm = condition_metrics(games, "catan", by=None).iloc[0]
    assert cm["n_games"] == 4 and cm["n_decided"] == 3
    assert cm["completion_rate"] == 0.75 and cm["timeout_rate"] == 0.25
    assert cm["win_rate_0"] == pytest.approx(2 / 3) and cm["win_rate_1"] == pytest.approx(1 / 3)
    assert cm["balance"] == pytest.approx(2 / 3)
    assert cm["turns_mean"] == 2.75 and cm["turns_median"] == 2.5
    assert cm["turns_sd"] == pytest.approx(np.std([2, 3, 4, 2], ddof=1))
    # drama: 1/3 (seat 0 trails 2 vs 3 after turn 1), 0, NaN (timeout, skipped), 1/3
    assert cm["drama_mean"] == pytest.approx(2 / 9)
    per = per_game_metrics(games, "catan")
    assert per["first_seat_win"].tolist()[:2] == [1.0, 0.0] and np.isnan(per["first_seat_win"][2])


def test_condition_metrics_errors():
    df = _two_seat_games()
    with pytest.raises(KeyError):
        condition_metrics(df, "gallery", by="setup")
    three = games_frame([gallery_record([[1, 2, 3]], winners=(2,))])
    three["condition"] = "a"
    mixed = pd.concat([df, three], ignore_index=True)
    with pytest.raises(ValueError, match="mixes seat counts"):
        condition_metrics(mixed, "gallery")
    three["condition"] = "c"  # a separate 3-seat condition is fine; 2-seat rows get NaN seat 2
    cm = condition_metrics(pd.concat([df, three], ignore_index=True), "gallery")
    assert cm.set_index("condition").loc["c", "win_rate_2"] == 1.0
    assert math.isnan(cm.set_index("condition").loc["a", "win_rate_2"])


# ----------------------------------------------------------------------------------------------
# Registry and board features


def test_registry_documents_every_column():
    per = per_game_metrics(_two_seat_games())
    computed = set(per.columns) - {"game", "condition", "setup_id", "seed", "agents", "winner"}
    computed -= {"winners"}
    names = {k.split(".", 1)[-1] for k in METRICS}
    assert computed <= names
    assert set(games.get("catan").metrics) | set(games.get("gallery").metrics) <= names
    cm = condition_metrics(_two_seat_games(), "gallery")
    for col in cm.columns:
        if col in ("condition", "n_players") or col.endswith("_mean") and col[:-5] in names:
            continue
        generic = col.replace("_0", "_<s>").replace("_1", "_<s>")
        assert col in CONDITION_METRICS or generic in CONDITION_METRICS, col
    for name, (description, formula, unit) in METRICS.items():
        assert description and formula and unit, name
    assert list(metrics_table().columns) == ["description", "formula", "unit"]


def test_with_setup_features():
    boards = [random_board(np.random.default_rng(i)) for i in range(2)]
    records = [
        catan_record([[2, 3], [10, 3]], winner=0, setup_id=boards[i % 2].id) for i in range(3)
    ]
    records.append(catan_record([[2, 3], [10, 3]], winner=0, setup_id="unknown"))
    per = per_game_metrics(records)
    joined = with_setup_features(per, boards + boards[:1], "catan")  # duplicates are dropped
    assert len(joined) == 4 and list(joined["game"]) == [0, 1, 2, 3]
    feats = board_features(boards[1])
    for k, v in feats.items():
        assert joined.loc[1, k] == pytest.approx(v)
    assert joined.loc[3, list(feats)].isna().all()
    with pytest.raises(KeyError):
        with_setup_features(per.drop(columns="setup_id"), boards, "catan")


# ----------------------------------------------------------------------------------------------
# Smoke tests on simulated games

_SHARES = ["lead_change", "winner_trailing", "drama", "decisiveness", "decisiveness_threshold"]


def _check_ranges(per: pd.DataFrame) -> None:
    for col in _SHARES:
        x = per[col].dropna()
        assert ((x >= 0) & (x <= 1)).all(), col
    n = per["n_players"]
    assert ((per["income_gini"] >= 0) & (per["income_gini"] <= (n - 1) / n + 1e-12)).all()
    assert (per["score_spread"] >= 0).all()


def test_smoke_catan_simulated():
    boards = [random_board(np.random.default_rng(i)) for i in range(3)]
    records = catan_sim.simulate(boards, ["greedy", "random", "greedy", "random"], 30, seed=7)
    games = catan_sim.records_table(records).to_pandas()
    games["condition"] = np.where(games["game"] < 15, "x", "y")
    per = per_game_metrics(games, "catan")
    assert len(per) == 30
    _check_ranges(per)
    done = per[~per["truncated"]]
    assert len(done) > 0
    outcome = ["winner_margin", *_SHARES, "income_gini", "score_spread", "lead_changes"]
    assert not done[outcome].isna().any().any()
    assert (done["winner_margin"] >= 0).all()
    assert (per["trades"] == per["maritime_trades"] + per["domestic_trades"]).all()
    cm = condition_metrics(per, "catan")
    assert list(cm["condition"]) == ["x", "y"] and cm["n_games"].sum() == 30
    for s in range(4):
        assert (cm[f"win_rate_{s}_low"] <= cm[f"win_rate_{s}"]).all()
        assert (cm[f"win_rate_{s}"] <= cm[f"win_rate_{s}_high"]).all()
    rates = cm[[f"win_rate_{s}" for s in range(4)]].sum(axis=1)
    assert np.allclose(rates, 1.0)
    assert cm[["balance", "chi2_p", "completion_rate"]].apply(lambda c: c.between(0, 1)).all().all()
    joined = with_setup_features(per, boards, "catan")
    assert not joined["desert_ring"].isna().any()


def test_smoke_catan_timeouts():
    boards = [random_board(np.random.default_rng(0))]
    records = catan_sim.simulate(
        boards, ["random", "random", "random"], 4, seed=1, options=GameOptions(turn_limit=12)
    )
    per = per_game_metrics(records)
    assert per["truncated"].all() and per["winner"].isna().all()
    assert per[["drama", "decisiveness", "winner_margin"]].isna().all().all()
    assert not per[["lead_change", "income_gini", "score_spread"]].isna().any().any()
    cm = condition_metrics(per, by=None).iloc[0]
    assert cm["completion_rate"] == 0.0 and cm["timeout_rate"] == 1.0
    assert math.isnan(cm["balance"]) and math.isnan(cm["chi2_p"])


def test_smoke_gallery_simulated():
    records = gallery_sim.simulate(None, ["greedy", "random", "greedy"], 30, seed=3)
    games = gallery_sim.records_table(records).to_pandas()
    for r in records:  # the cumulative round scores end at the final scores
        assert tuple(np.sum(r.round_scores, axis=0)) == r.final_scores
    per = per_game_metrics(games)
    assert len(per) == 30 and not per["truncated"].any()
    _check_ranges(per)
    cols = ["winner_margin", "drama", "lead_change", "income_gini", "winner_trailing"]
    assert not per[cols].isna().any().any()
    cm = condition_metrics(games, "gallery", by=None).iloc[0]
    assert cm["completion_rate"] == 1.0 and cm["n_games"] == 30
    assert cm["wins_0"] + cm["wins_1"] + cm["wins_2"] == pytest.approx(30)
    assert 0 <= cm["balance"] <= 1


def test_ludii_metrics_on_a_hand_computed_game():
    from ludolab.research.metrics.core import decisiveness_ludii, drama_ludii, lead_change_ludii

    # Scores after each of 4 steps; seat 2 wins. The states before each step are
    # s0 = (0,0,0), s1 = (1,0,0), s2 = (1,2,0), s3 = (3,2,0); the final (3,2,4) is never seen.
    v = [[1, 0, 0], [1, 2, 0], [3, 2, 0], [3, 2, 4]]
    # leader sets {0,1,2}, {0}, {1}, {0}: each differs from the one before (the first from {})
    assert lead_change_ludii(v) == 1.0
    # the winner's shortfall 0, 1, 2, 3 -> mean 1.5 (ours, relative and over trailing steps: 1)
    assert drama_ludii(v, [2]) == 1.5 and drama(v, [2]) == pytest.approx(1.0)
    # theta = 3 (seat 0 in s3); the winner never exceeds it before a step -> T / T
    assert decisiveness_ludii(v, [2]) == 1.0
    # a game nobody leads until the last step: Ludii counts the first state as a change
    assert lead_change_ludii([[0, 0], [0, 0], [1, 0]]) == pytest.approx(1 / 3)
    assert lead_change([[0, 0], [0, 0], [1, 0]]) == pytest.approx(1 / 3)
    assert lead_change_ludii([[0, 0], [0, 0], [0, 0]]) == pytest.approx(1 / 3)
    assert lead_change([[0, 0], [0, 0], [0, 0]]) == 0.0
    # a winner ahead from the first state on: decided at once
    assert decisiveness_ludii([[2, 0], [3, 1], [5, 1]], [0]) == pytest.approx(1 / 3)
    assert np.isnan(drama_ludii(v, []))


# ------------------------------------------------------------------ win rates over setups


def _decided(winners: list[tuple[int, ...]], setups: list[str] | None) -> pd.DataFrame:
    frame = pd.DataFrame({"winners": winners})
    if setups is not None:
        frame["setup"] = setups
    return frame


def test_win_rate_intervals_count_setups_not_copies_of_one_game():
    from ludolab.research.metrics.games import _effective_sizes

    rng = np.random.default_rng(0)
    one_each = [(int(w),) for w in rng.integers(0, 2, 40)]
    # one game per setup, or no setups known: every game counts
    assert list(_effective_sizes(_decided(one_each, None), 2)) == [40, 40]
    setups = [f"d{i}" for i in range(40)]
    assert list(_effective_sizes(_decided(one_each, setups), 2)) == [40, 40]
    # every setup's game played five times with the same result (greedy on one deal): the
    # 200 games are worth the 40 setups (39: the cluster-robust variance's small-sample factor)
    copies = [w for w in one_each for _ in range(5)]
    n_eff = _effective_sizes(_decided(copies, [s for s in setups for _ in range(5)]), 2)
    assert n_eff == pytest.approx([39, 39])
    # within a setup one win each (negatively correlated): no narrower than independent games
    split = [(0,), (1,)] * 20
    n_eff = _effective_sizes(_decided(split, [f"d{i // 2}" for i in range(40)]), 2)
    assert list(n_eff) == [40, 40]
    # a rate of 0 counts the setups
    zero = _effective_sizes(_decided([(0,)] * 10, [f"d{i // 5}" for i in range(10)]), 2)
    assert list(zero) == [2, 2]
