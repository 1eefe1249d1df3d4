"""Paper figures: the right artists for the tables given, paper style without rcParams leaks,
PDF + PNG written atomically with TrueType fonts, and no figure left registered with pyplot."""

from __future__ import annotations

import math

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
import seaborn as sns
from matplotlib.collections import PathCollection
from matplotlib.container import ErrorbarContainer
from matplotlib.figure import Figure
from scipy import stats as st

from ludolab.envs.catan.gym_env import random_board
from ludolab.research.catan import simulate as catan_sim
from ludolab.research.catan.picture import example_boards
from ludolab.research.metrics import (
    condition_metrics,
    per_game_metrics,
    wilson_interval,
    with_setup_features,
)
from ludolab.research.plots import figures as F

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


# ----------------------------------------------------------------------------- fixtures


@pytest.fixture(autouse=True)
def no_figure_leak():
    """Every test: no pyplot figure created, rcParams as before."""
    before_figs = plt.get_fignums()
    before_rc = dict(matplotlib.rcParams)
    yield
    assert plt.get_fignums() == before_figs
    after_rc = dict(matplotlib.rcParams)
    changed = {k for k in before_rc if before_rc[k] != after_rc[k]}
    assert not changed


@pytest.fixture(scope="module")
def synthetic() -> pd.DataFrame:
    """Three conditions of 20 games each, with per-game columns the figures use."""
    rng = np.random.default_rng(3)
    rows = []
    for cond, tight, base in (("official", 0.0, 70), ("balanced", 22.0, 60), ("clumpy", 30.0, 80)):
        for i in range(20):
            rows.append(
                {
                    "condition": cond,
                    "game": i,
                    "tightness": tight,
                    "feature": rng.normal(10 + tight / 10, 1),
                    "turns": int(base + rng.integers(-15, 16)),
                    "truncated": False,
                    "score_spread": float(rng.integers(3, 9)),
                    "drama": float(rng.uniform(0, 0.5)),
                    "final_scores": [int(x) for x in rng.integers(2, 11, size=3)],
                }
            )
    return pd.DataFrame(rows)


def win_table(conditions: dict[str, list[float]], n_decided: int = 40) -> pd.DataFrame:
    """A condition_metrics-like table from win counts per seat (NaN columns for seats a
    condition does not have)."""
    seats = max(len(w) for w in conditions.values())
    rows = []
    for cond, wins in conditions.items():
        row: dict = {"condition": cond, "n_players": len(wins), "n_decided": n_decided}
        for s in range(seats):
            if s < len(wins):
                lo, hi = wilson_interval(wins[s], n_decided)
                row |= {f"win_rate_{s}": wins[s] / n_decided}
                row |= {f"win_rate_{s}_low": lo, f"win_rate_{s}_high": hi}
            else:
                row |= {f"win_rate_{s}{x}": np.nan for x in ("", "_low", "_high")}
        rows.append(row)
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def catan():
    """A few real Catan games on two boards, one condition per board."""
    boards = [random_board(np.random.default_rng(i)) for i in range(2)]
    records = catan_sim.simulate(boards, ["greedy", "random", "greedy"], 10, seed=5)
    games = catan_sim.records_table(records).to_pandas()
    games["condition"] = np.where(games["setup_id"] == boards[0].id, "first", "second")
    per_game = per_game_metrics(games)
    per_game["tightness"] = np.where(per_game["condition"] == "first", 20.0, 25.0)
    return {
        "boards": boards,
        "games": games,
        "per_game": per_game,
        "conditions": condition_metrics(per_game),
    }


def ytick_labels(ax) -> list[str]:
    return [t.get_text() for t in ax.get_yticklabels()]


def point_collections(ax) -> list[PathCollection]:
    return [c for c in ax.collections if isinstance(c, PathCollection)]


# ----------------------------------------------------------------------------- style


def test_paper_style_sets_and_restores():
    before = matplotlib.rcParams["pdf.fonttype"], matplotlib.rcParams["axes.prop_cycle"]
    with F.paper_style() as rc:
        assert matplotlib.rcParams["pdf.fonttype"] == 42
        assert matplotlib.rcParams["ps.fonttype"] == 42
        colours = matplotlib.rcParams["axes.prop_cycle"].by_key()["color"]
        assert [tuple(c) for c in colours] == list(sns.color_palette("colorblind"))
        assert rc["pdf.fonttype"] == 42
    assert (matplotlib.rcParams["pdf.fonttype"], matplotlib.rcParams["axes.prop_cycle"]) == before


def test_condition_palette_and_labels():
    pal = F.condition_palette(["a", "b"])
    assert pal == {"a": sns.color_palette("colorblind")[0], "b": sns.color_palette("colorblind")[1]}
    assert F.metric_label("score_spread") == "score spread"  # the unit is the game's (game_unit)
    assert F.metric_label("drama") == "drama"  # unit too long for an axis
    assert F.metric_label("drama_mean") == "mean drama"
    assert F.metric_label("turns") == "turns"
    assert F.metric_label("start_top8_mean") == "start top8 mean"  # a feature, not a mean


# ----------------------------------------------------------------------------- distributions


@pytest.mark.parametrize("kind", ["violin", "box"])
def test_length_distributions(synthetic, kind):
    fig = F.length_distributions(synthetic, kind=kind)
    assert isinstance(fig, Figure)
    (ax,) = fig.axes
    assert ytick_labels(ax) == ["official", "balanced", "clumpy"]  # order of appearance
    assert ax.get_xlabel() == "turns"
    # the games as points: one collection per condition, one point per game
    points = [c for c in point_collections(ax) if len(c.get_offsets()) == 20]
    assert len(points) == 3
    xs = np.sort(np.concatenate([c.get_offsets()[:, 0] for c in points]))
    np.testing.assert_array_equal(xs, np.sort(synthetic["turns"].to_numpy(dtype=float)))


def test_length_distributions_order_ecdf_and_errors(synthetic):
    fig = F.length_distributions(synthetic, order=["clumpy", "official"], kind="box")
    assert ytick_labels(fig.axes[0]) == ["clumpy", "official"]
    fig = F.length_distributions(synthetic, kind="ecdf", order=["clumpy", "official"])
    (ax,) = fig.axes
    assert len(ax.get_lines()) == 2
    with pytest.raises(ValueError, match="not found"):
        F.length_distributions(synthetic, order=["nope"])
    with pytest.raises(KeyError):
        F.length_distributions(synthetic, column="nope")
    with pytest.raises(TypeError):
        F.length_distributions(synthetic, column="condition")
    with pytest.raises(ValueError, match="kind"):
        F.length_distributions(synthetic, kind="pie")


def test_length_distributions_marks_turn_limit(synthetic):
    df = synthetic.copy()
    df.loc[:4, "truncated"] = True
    df.loc[:4, "turns"] = 99
    (ax,) = F.length_distributions(df, kind="box").axes
    assert any(line.get_xdata()[0] == 99 for line in ax.get_lines() if line.get_linestyle() == "--")


def test_score_distributions(synthetic):
    (ax,) = F.score_distributions(synthetic).axes
    assert ax.get_xlabel() == "score spread"
    assert ytick_labels(ax) == ["official", "balanced", "clumpy"]
    fig = F.score_distributions(synthetic, column="final_scores")
    (ax,) = fig.axes
    assert ax.get_xlabel() == "final score"
    (legend,) = fig.legends
    assert legend.get_title().get_text() == "seat"
    assert [t.get_text() for t in legend.get_texts()] == ["0", "1", "2"]
    assert len(ax.patches) == 3 * 3  # one box per seat per condition


# ----------------------------------------------------------------------------- win rates


def test_win_rates_by_seat_one_errorbar_per_seat_per_condition():
    table = win_table({"b": [20, 10, 6, 4], "a": [10, 10, 10, 10]})
    fig = F.win_rates_by_seat(table, order=["a", "b"])
    (ax,) = fig.axes
    bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert [c.get_label() for c in bars] == ["a (n=40)", "b (n=40)"]
    for bar, cond in zip(bars, ["a", "b"], strict=True):
        row = table.set_index("condition").loc[cond]
        line, _, (segments,) = bar.lines
        np.testing.assert_allclose(line.get_ydata(), [row[f"win_rate_{s}"] for s in range(4)])
        segs = segments.get_segments()
        assert len(segs) == 4  # one interval per seat
        for s, seg in enumerate(segs):
            np.testing.assert_allclose(
                sorted(seg[:, 1]), [row[f"win_rate_{s}_low"], row[f"win_rate_{s}_high"]]
            )
    fair = [ln for ln in ax.get_lines() if ln.get_linestyle() == "--"]
    assert [ln.get_ydata()[0] for ln in fair] == [0.25]
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["a (n=40)", "b (n=40)"]


def test_win_rates_mixed_seat_counts():
    table = win_table({"two": [25, 15], "three": [20, 10, 10]})
    (ax,) = F.win_rates_by_seat(table).axes
    bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert [len(c.lines[2][0].get_segments()) for c in bars] == [2, 3]
    fair = sorted(ln.get_ydata()[0] for ln in ax.get_lines() if ln.get_linestyle() == "--")
    np.testing.assert_allclose(fair, [1 / 3, 1 / 2])
    with pytest.raises(KeyError, match="win_rate"):
        F.win_rates_by_seat(table[["condition", "n_players"]])
    with pytest.raises(ValueError, match="more than one row"):
        F.win_rates_by_seat(pd.concat([table, table]))


# ----------------------------------------------------------------------------- metric vs tightness


def test_metric_vs_tightness_means(synthetic):
    fig = F.metric_vs_tightness(synthetic, "tightness", "drama")  # one value per condition
    (ax,) = fig.axes
    bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert [c.get_label() for c in bars] == ["official", "balanced", "clumpy"]
    g = synthetic[synthetic["condition"] == "balanced"]["drama"].to_numpy()
    half = st.t.ppf(0.975, g.size - 1) * g.std(ddof=1) / math.sqrt(g.size)
    line, _, (segments,) = bars[1].lines
    assert line.get_xdata()[0] == 22.0
    assert line.get_ydata()[0] == pytest.approx(g.mean())
    np.testing.assert_allclose(
        sorted(segments.get_segments()[0][:, 1]), [g.mean() - half, g.mean() + half]
    )
    assert ax.get_ylabel() == "drama, mean ± 95% CI"


def test_metric_vs_tightness_points_and_fit(synthetic):
    fig = F.metric_vs_tightness(synthetic, "feature", "turns", ylabel="length")
    (ax,) = fig.axes
    points = point_collections(ax)
    assert [len(c.get_offsets()) for c in points] == [20, 20, 20]
    assert not any(isinstance(c, ErrorbarContainer) for c in ax.containers)
    assert len(ax.get_lines()) == 1  # the regression line, with its band
    assert len(ax.collections) == 4
    assert ax.get_ylabel() == "length"
    (ax,) = F.metric_vs_tightness(synthetic, "feature", "turns", hue=None).axes
    assert len(point_collections(ax)) == 1
    with pytest.raises(KeyError):
        F.metric_vs_tightness(synthetic, "feature", "nope")


def test_metric_vs_tightness_from_condition_table(catan):
    table = catan["conditions"].assign(tightness=[20.0, 25.0])
    (ax,) = F.metric_vs_tightness(table, "tightness", "turns_mean").axes
    bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(bars) == 2 and not any(c.has_yerr for c in bars)  # one row: no interval
    assert ax.get_ylabel() == "mean turns"


# ----------------------------------------------------------------------------- boards


def test_example_boards(catan):
    boards = catan["boards"]
    extra = random_board(np.random.default_rng(9))
    fig = example_boards({"first": [boards[0], extra, boards[1], extra], "second": [boards[1]]})
    assert len(fig.axes) == 3 + 1  # n=3 boards of the first condition, 1 of the second
    texts = [t.get_text() for t in fig.texts]
    assert "first" in texts and "second" in texts
    tokens = [t.get_text() for ax in fig.axes for t in ax.texts if t.get_text().isdigit()]
    assert len(tokens) == 4 * 18
    assert fig.get_figwidth() == F.TWO_COLUMN
    with pytest.raises(ValueError, match="at least one board"):
        example_boards({"a": []})
    with pytest.raises(ValueError, match="n must"):
        example_boards({"a": boards}, n=0)


# ----------------------------------------------------------------------------- real games, saving


def test_real_games_every_figure_saves(catan, tmp_path):
    per_game, conditions = catan["per_game"], catan["conditions"]
    featured = with_setup_features(per_game, catan["boards"], "catan")
    order = ["second", "first"]
    figs = {
        "lengths": F.length_distributions(per_game, order=order),
        "wins": F.win_rates_by_seat(conditions, order=order),
        "spread": F.score_distributions(per_game, order=order),
        "final": F.score_distributions(catan["games"], column="final_scores", order=order),
        "drama": F.metric_vs_tightness(per_game, "tightness", "drama", order=order),
        "feature": F.metric_vs_tightness(featured, "start_top8_mean", "turns"),
        "boards": example_boards({"first": catan["boards"][:1], "second": catan["boards"][1:]}),
    }
    (wins_ax,) = figs["wins"].axes
    bars = [c for c in wins_ax.containers if isinstance(c, ErrorbarContainer)]
    assert [len(c.lines[2][0].get_segments()) for c in bars] == [3, 3]
    assert ytick_labels(figs["lengths"].axes[0]) == order
    for name, fig in figs.items():
        paths = F.save_figure(fig, tmp_path / name)
        assert paths == [tmp_path / f"{name}.pdf", tmp_path / f"{name}.png"]
        pdf, png = (p.read_bytes() for p in paths)
        assert pdf.startswith(b"%PDF") and png.startswith(PNG_MAGIC)
        assert b"/FontFile2" in pdf  # TrueType font program embedded
        assert b"/Type1" not in pdf and b"/Type3" not in pdf
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        f"{n}.{x}" for n in figs for x in ("pdf", "png")
    )


def test_colours_follow_condition_not_row_order(catan):
    wins = F.win_rates_by_seat(catan["conditions"])  # sorted rows
    lengths = F.length_distributions(catan["per_game"].iloc[::-1], kind="ecdf")
    bar_colour = {
        c.get_label().split(" ")[0]: c.lines[0].get_color() for c in wins.axes[0].containers
    }
    legend = lengths.axes[0].get_legend()
    line_colour = {
        t.get_text(): h.get_color()
        for t, h in zip(legend.get_texts(), legend.legend_handles, strict=True)
    }
    for cond in ("first", "second"):
        assert matplotlib.colors.same_color(bar_colour[cond], line_colour[cond])


def test_save_figure_suffix_and_formats(synthetic, tmp_path):
    fig = F.length_distributions(synthetic)
    paths = F.save_figure(fig, tmp_path / "sub" / "lengths.pdf", formats=("png",))
    assert paths == [tmp_path / "sub" / "lengths.png"]
    assert F.save_figure(fig, tmp_path / "fig.v2") == [
        tmp_path / "fig.v2.pdf",
        tmp_path / "fig.v2.png",
    ]
    with pytest.raises(ValueError, match="cannot save"):
        F.save_figure(fig, tmp_path / "bad", formats=("pdf", "jpg"))
    assert not list(tmp_path.glob("bad*"))


def test_failed_save_leaves_no_files(synthetic, tmp_path, monkeypatch):
    fig = F.length_distributions(synthetic)
    real = Figure.savefig

    def fail_on_png(self, fname, *args, **kwargs):
        if kwargs.get("format") == "png":
            raise RuntimeError("disk full")
        return real(self, fname, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", fail_on_png)
    with pytest.raises(RuntimeError, match="disk full"):
        F.save_figure(fig, tmp_path / "lengths")
    assert list(tmp_path.iterdir()) == []  # neither the finished PDF nor any temporary
    (tmp_path / "old.pdf").write_bytes(b"old")
    with pytest.raises(RuntimeError):
        F.save_figure(fig, tmp_path / "old")
    assert [p.name for p in tmp_path.iterdir()] == ["old.pdf"]
    assert (tmp_path / "old.pdf").read_bytes() == b"old"  # the previous figure is kept
