"""A run's figures, read back by code: shapes on their ticks, no interval hidden by another, no
text cut off, units on value axes, whole-number ticks, the lineup named, and on a sweep the
baseline and the tested trend drawn; no box collapsed to a line, no axis a sliver around a
constant, no trend drawn through fewer than three x values (left out, and said so). The checks
themselves are shown to fail on broken figures."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import seaborn as sns
from figure_checks import (
    clipped_text,
    collapsed_shapes,
    hidden_intervals,
    labels_without_units,
    non_integer_ticks,
    shapes_off_their_ticks,
    sliver_axis,
    too_few_x,
)
from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator

from ludolab.research.experiment import figures as run_figures
from ludolab.research.experiment.analysis import condition_table, load_run
from ludolab.research.experiment.runner import run_experiment
from ludolab.research.plots import figures as F
from ludolab.research.plots.figure_kit import quiet_seaborn
from ludolab.research.stats.trend import linear_trend


def config(conditions: list[dict] | None = None, sweep: dict | None = None) -> dict:
    """A small Catan run: 4 boards per condition, 3 games per board, greedy at every seat."""
    cfg: dict = {
        "name": "figs",
        "game": "catan",
        "seed": 5,
        "players": 3,
        "boards": 4,
        "games_per_board": 3,
        "lineups": [{"name": "greedy", "seats": "greedy"}],
        "comparisons": {"metrics": ["turns", "score_spread"], "paired": True},
    }
    if conditions:
        cfg["conditions"] = conditions
        cfg["comparisons"]["baseline"] = conditions[0]["name"]
    if sweep:
        cfg["sweep"] = [sweep]
        cfg["comparisons"]["baseline"] = f"{sweep['name']}=12"
    return cfg


def same_conditions(n: int) -> dict:
    names = "ABCDEF"[:n]
    return config([{"name": c, "constraints": "official", "sampler": "uniform"} for c in names])


SWEEP = config(
    sweep={
        "name": "cap",
        "constraints": "tournament",
        "sampler": "uniform",
        "parameter": "intersection-cap.max",
        "values": [10, 11, 12, 13, 14],
    }
)
GALLERY = {
    "name": "deal-figs",
    "game": "gallery",
    "seed": 3,
    "players": 3,
    "deals": 4,
    "games_per_deal": 3,
    "conditions": [
        {"name": "fair", "constraints": "fair"},
        {"name": "balanced-symbols", "constraints": "balanced-symbols"},
        {"name": "balanced-artists", "constraints": "balanced-artists"},
    ],
    "lineups": [{"name": "greedy", "seats": "greedy"}],
    "comparisons": {"baseline": "fair", "metrics": ["turns", "score_spread"]},
}
RUNS = {"2 conditions": same_conditions(2), "3 conditions": same_conditions(3),
        "6 conditions": same_conditions(6), "sweep": SWEEP, "gallery": GALLERY}


@dataclass
class Drawn:
    """A run's figures as plot_run drew them: by file name, their captions, and what it left
    out."""

    figures: dict[str, Figure]
    captions: dict[str, str]
    left_out: list[str]
    folder: Path


@pytest.fixture(scope="module", params=list(RUNS))
def drawn(request, tmp_path_factory) -> Drawn:
    """Every figure of the run, by file name, as plot_run drew it (and saved it)."""
    out = tmp_path_factory.mktemp("runs")
    result = run_experiment(RUNS[request.param], out=out, analyse=False, quiet=True)
    data = load_run(result.path)
    figures: dict[str, Figure] = {}
    save = run_figures.save_figure

    def keep(fig: Figure, path: Path, *args, **kwargs):
        figures[Path(path).name] = fig
        return save(fig, path, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(run_figures, "save_figure", keep)
        made = run_figures.plot_run(data, condition_table(data))
    captions = {f.stem.name: f.caption for f in made}
    return Drawn(figures, captions, made.left_out, result.path / "figures")


def kind_of(name: str) -> str:
    return name.split("-greedy")[0] if "-greedy" in name else name


TRENDS = ("turns-vs-int_pips_max", "score-spread-vs-tightness")


def test_every_figure_of_a_run_reads_right(drawn: Drawn) -> None:
    problems: list[str] = []
    for name, fig in drawn.figures.items():
        found = clipped_text(fig)
        axes = [ax for ax in fig.axes if ax.get_visible()]
        kind = kind_of(name)
        if kind in ("length", "score-spread"):
            # the caption says what stands for the games; the figure must hold just that
            shaped = "violins:" in drawn.captions[name] or "boxes:" in drawn.captions[name]
            found += shapes_off_their_ticks(axes[0], shapes=shaped)
            found += labels_without_units(axes[0], "x") + collapsed_shapes(axes[0])
            found += sliver_axis(axes[0], "x")
            if "circles:" in drawn.captions[name]:  # counts of whole-number values
                found += non_integer_ticks(axes[0])
        elif kind in ("win-rates", *TRENDS):
            found += hidden_intervals(axes[0]) + labels_without_units(axes[0])
            if kind == "turns-vs-int_pips_max":
                found += non_integer_ticks(axes[0])
            if kind in TRENDS:
                found += too_few_x(axes[0])
        elif kind.startswith("sweep-"):
            for ax in axes:
                found += hidden_intervals(ax) + labels_without_units(ax)
                ticks = [t.get_text() for t in ax.get_xticklabels()]
                assert ticks == ["10", "11", "12\nbaseline", "13", "14"], ticks
                assert any(line.get_label() == "linear trend" for line in ax.lines)
            assert "(pips)" in axes[0].get_xlabel()
        if name != "example-boards":
            texts = [t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text"))]
            if not any("lineup: greedy" in t for t in texts):
                found.append("the lineup is not named in the figure")
        problems += [f"{name}: {p}" for p in found]
    assert not problems, "\n".join(problems)
    kinds = {kind_of(n) for n in drawn.figures}
    assert kinds >= {"length", "score-spread", "win-rates"}


def test_a_trend_figure_is_drawn_or_said_to_be_left_out(drawn: Drawn) -> None:
    trends = [n for n in drawn.figures if kind_of(n) in TRENDS]
    notes = [n for n in drawn.left_out if n.startswith("Not drawn: ")]
    assert bool(trends) != bool(notes), (trends, notes)  # one run, one lineup: one or the other
    for note in notes:
        assert "a trend needs at least 3" in note, note
        for name in ("turns-vs-int_pips_max-greedy", "score-spread-vs-tightness-greedy"):
            assert not (drawn.folder / f"{name}.png").exists()


def test_two_conditions_leave_the_trend_out_and_say_why(tmp_path: Path) -> None:
    # the quickstart's shape: two conditions, so two points on the richest-intersection axis
    result = run_experiment(RUNS["2 conditions"], out=tmp_path, analyse=False, quiet=True)
    data = load_run(result.path)
    stale = result.path / "figures" / "turns-vs-int_pips_max-greedy.png"
    stale.parent.mkdir(parents=True, exist_ok=True)
    stale.write_bytes(b"an older drawing")
    made = run_figures.plot_run(data, condition_table(data))
    assert not any("turns-vs" in f.stem.name for f in made)
    (note,) = made.left_out
    assert note.startswith(
        "Not drawn: game length against the richest intersection (pips), for every lineup. "
        "The conditions sit at "
    ), note
    assert "a trend needs at least 3" in note
    assert not stale.exists()


def test_the_dose_response_draws_the_fit_the_trend_test_makes() -> None:
    rng = np.random.default_rng(1)
    x = np.repeat([10.0, 11.0, 12.0, 13.0], 6)
    means = pd.DataFrame(
        {"value": x, "turns": 90 - 2 * x + rng.normal(0, 1, x.size), "setup": np.tile(range(6), 4)}
    )
    fig = F.dose_response(means, "value", ["turns"], cluster="setup", baseline=12.0)
    (ax,) = [a for a in fig.axes if a.get_visible()]
    (line,) = [a for a in ax.lines if a.get_label() == "linear trend"]
    fit = linear_trend(x, means["turns"].to_numpy(), means["setup"].to_numpy())
    xs, ys = line.get_data()
    assert np.allclose(ys, fit.params[0] + fit.params[1] * np.asarray(xs))
    assert xs[0] == 10.0 and xs[-1] == 13.0


def test_conditions_at_one_x_are_spread_and_the_rest_stay() -> None:
    offsets = F.spread_coincident([11.7, 12.6, 12.6, 10.0], span=2.6)
    assert offsets[0] == 0 and offsets[3] == 0
    assert offsets[1] == -offsets[2] != 0
    table = pd.DataFrame(
        {"condition": np.repeat(["a", "b", "c"], 5), "x": np.repeat([12.0, 12.0, 10.0], 5),
         "y": np.arange(15.0)}
    )
    fig = F.metric_vs_tightness(table, "x", "y", means=True)
    assert not hidden_intervals(fig.axes[0])


@pytest.mark.parametrize(
    ("params", "label"),
    [
        ({"intersection-cap.max": 11}, "intersection-cap max (pips)"),
        ({"intersection-cap.max": 11, "intersection-cap.measure": "numbers"},
         "intersection-cap max (sum of numbers)"),
    ],
)
def test_a_swept_parameter_is_labelled_with_what_it_counts(params, label) -> None:
    condition = {"sweep_parameter": "intersection-cap.max", "constraints": "tournament",
                 "params": params}
    assert run_figures.parameter_label("catan", condition) == label
    option = {"sweep_parameter": "options.vp_to_win"}
    assert run_figures.parameter_label("catan", option) == "vp to win (VP), rule option"


# ----------------------------------------------------------------------------- the checks fail


def test_the_checks_catch_what_they_look_for() -> None:
    df = pd.DataFrame({"c": np.repeat(["A", "B", "C"], 20), "v": np.arange(60.0)})
    dodged = Figure()
    ax = dodged.add_subplot()
    sns.violinplot(data=df, x="v", y="c", hue="c", orient="h", dodge=True, legend=False, ax=ax)
    assert shapes_off_their_ticks(ax)

    stacked = Figure()
    ax = stacked.add_subplot()
    ax.errorbar([1.0, 1.0], [2.0, 2.5], yerr=[1.0, 1.0], fmt="o")
    assert hidden_intervals(ax)

    cut = Figure(figsize=(2, 2), layout="constrained")
    ax = cut.add_subplot()
    ax.set_xlabel("a label far too long for a figure two inches wide, which runs off its edge")
    assert clipped_text(cut)
    assert labels_without_units(ax, "x")
    ax.set_xlabel("game length (player turns)")
    assert labels_without_units(ax, "x") == []

    ax.set_xlim(10, 12)
    ax.xaxis.set_major_locator(FixedLocator([10, 10.5, 11, 12]))
    assert non_integer_ticks(ax) == ["a tick at 10.5 on a whole-number axis"]
    ax.set_ylim(0, 3)
    ax.yaxis.set_major_locator(FixedLocator([0, 1.5, 3]))
    assert non_integer_ticks(ax, "y") == ["a tick at 1.5 on a whole-number axis"]


def test_the_checks_catch_the_quickstart_s_broken_figures() -> None:
    # the score spread of greedy-vs-random as a box: quartiles and median at 8, a line
    games, means = spread_like_the_quickstart()
    box = Figure()
    ax = box.add_subplot()
    with quiet_seaborn():
        sns.boxplot(data=games, x="score_spread", y="condition", showfliers=False, ax=ax)
    ax.scatter(means["score_spread"], means["condition"].map({"official": 0, "balanced": 1}))
    assert collapsed_shapes(ax)
    # a constant on matplotlib's own axis: 7.56 to 8.44, ticks every 0.1
    constant = Figure()
    ax = constant.add_subplot()
    ax.scatter([8.0] * 5, [0, 0, 1, 1, 1])
    constant.draw_without_rendering()
    assert sliver_axis(ax)
    ax.set_xlim(7, 9)
    assert sliver_axis(ax) == []
    # two conditions' means on a pips axis: no trend to read
    two = Figure()
    ax = two.add_subplot()
    ax.errorbar([12.3, 12.4], [71.6, 69.6], yerr=[3.0, 2.5], fmt="o")
    assert too_few_x(ax) == ["points at 2 distinct x value(s); a trend needs 3"]
    ax.errorbar([11.2], [75.0], yerr=[3.0], fmt="o")
    assert too_few_x(ax) == []


def spread_like_the_quickstart(value: float | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Games and board means shaped as the quickstart's greedy-vs-random score spread: 2
    conditions x 20 boards x 60 games, 75% of the games at 8 (or every game at ``value``)."""
    rng = np.random.default_rng(48)
    rows = []
    for condition in ("official", "balanced"):
        for board in range(20):
            spread = rng.choice([5, 6, 7, 8, 9], size=60, p=[0.01, 0.03, 0.15, 0.75, 0.06])
            if value is not None:
                spread = np.full(60, value)
            rows += [{"condition": condition, "setup": board, "score_spread": float(v)}
                     for v in spread]
    games = pd.DataFrame(rows)
    means = games.groupby(["condition", "setup"], sort=False)["score_spread"].mean()
    return games, means.reset_index()


def drawn_spread(games: pd.DataFrame, means: pd.DataFrame) -> Figure:
    return F.score_distributions(
        games, order=["official", "balanced"], unit_means=means,
        label="final score spread (VP)", title="lineup: greedy-vs-random",
    )


def reads_right(fig: Figure) -> list[str]:
    """The checks a distribution drawn as counts must pass."""
    (ax,) = fig.axes
    return (
        clipped_text(fig) + shapes_off_their_ticks(ax, shapes=False) + collapsed_shapes(ax)
        + sliver_axis(ax) + non_integer_ticks(ax) + labels_without_units(ax, "x")
    )


def test_a_score_of_few_values_is_drawn_as_counts_of_its_games() -> None:
    games, means = spread_like_the_quickstart()
    form = F.distribution_form(games, "score_spread")
    assert form == F.DistributionForm("counts", {})
    fig = drawn_spread(games, means)
    assert reads_right(fig) == []
    (ax,) = fig.axes
    circles = [c for c in ax.collections if len(c.get_sizes()) > 1]  # the means: one size
    assert len(circles) == 2
    for row, circle in enumerate(circles):
        x = circle.get_offsets()[:, 0]
        counts = games[games["condition"] == ["official", "balanced"][row]]
        counts = counts["score_spread"].value_counts()
        assert sorted(x) == sorted(counts.index)  # every value a game took, the rarest too
        sizes = dict(zip(x, circle.get_sizes(), strict=True))
        assert max(sizes, key=sizes.get) == 8.0  # the area follows the share
        assert np.all(circle.get_offsets()[:, 1] == row)
    caption = run_figures._distribution_note(form, "box")
    assert caption.startswith("circles: the single games") and "Constant" not in caption


def test_a_constant_score_is_drawn_and_said_to_be_constant() -> None:
    games, means = spread_like_the_quickstart(value=8.0)
    form = F.distribution_form(games, "score_spread")
    assert form == F.DistributionForm("counts", {"official": 8.0, "balanced": 8.0})
    fig = drawn_spread(games, means)
    assert reads_right(fig) == []
    (ax,) = fig.axes
    lo, hi = ax.get_xlim()
    assert lo <= 7 and hi >= 9  # a whole number either side: it reads as the one value 8
    caption = run_figures._distribution_note(form, "box")
    assert caption.endswith(
        "Constant: every game of official had 8; every game of balanced had 8."
    )


def test_many_values_at_one_point_are_drawn_as_a_strip_of_the_games() -> None:
    rng = np.random.default_rng(4)
    turns = np.where(rng.random(300) < 0.8, 70.0, rng.integers(30, 130, 300).astype(float))
    games = pd.DataFrame({"condition": np.repeat(["a", "b"], 150), "turns": turns})
    games.loc[games["condition"] == "b", "turns"] += rng.integers(-20, 20, 150)
    assert F.distribution_form(games, "turns").kind == "strip"
    fig = F.length_distributions(games, label="game length (player turns)")
    (ax,) = fig.axes
    assert shapes_off_their_ticks(ax, shapes=False) == [] and collapsed_shapes(ax) == []
    drawn_points = sum(len(c.get_offsets()) for c in ax.collections)
    assert drawn_points == len(games)  # every game, and nothing else
    # spread-out values keep their violin
    games["turns"] = rng.normal(75, 15, len(games)).round()
    assert F.distribution_form(games, "turns").kind == "shape"
    (ax,) = F.length_distributions(games).axes
    assert shapes_off_their_ticks(ax) == [] and collapsed_shapes(ax) == []


# ----------------------------------------------------------------------------- the style


@pytest.fixture(scope="module")
def small_run(tmp_path_factory) -> Path:
    """A finished two-condition run, not analysed: no figures yet."""
    out = tmp_path_factory.mktemp("styled")
    return run_experiment(RUNS["2 conditions"], out=out, analyse=False, quiet=True).path


def test_a_style_sets_every_figure_s_size(small_run: Path) -> None:
    from PIL import Image

    from ludolab.research.cli import main

    assert main(["plot", str(small_run), "--style", "screen", "-q"]) == 0
    with Image.open(small_run / "figures" / "length-greedy.png") as png:
        assert png.width == round(5.0 * F.PNG_DPI)  # screen: 5 in for a one-column figure
    assert main(["plot", str(small_run), "-q"]) == 0  # the config has none: paper
    with Image.open(small_run / "figures" / "length-greedy.png") as png:
        assert png.width == round(3.3 * F.PNG_DPI)


@pytest.mark.parametrize("command", ["plot", "report"])
def test_an_unknown_style_is_one_line_and_writes_nothing(
    small_run: Path, command: str, capsys
) -> None:
    from ludolab.research.cli import main

    before = sorted(p.name for p in small_run.rglob("*"))
    assert main([command, str(small_run), "--style", "poster"]) == 2
    err = capsys.readouterr().err
    assert err == "ludolab: error: --style: expected one of paper, screen, got 'poster'\n"
    assert sorted(p.name for p in small_run.rglob("*")) == before


def test_a_config_with_a_bad_style_option_runs_nothing(tmp_path: Path, capsys) -> None:
    import tomli_w

    from ludolab.research.cli import main

    cfg = tmp_path / "styled.toml"
    cfg.write_text(tomli_w.dumps(same_conditions(2) | {"report": {"font_scale": "big"}}))
    assert main(["run", str(cfg), "--out", str(tmp_path / "results")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"ludolab: error: {cfg}: key 'report.font_scale': expected a number > 0, got 'big'"
    ]
    assert not (tmp_path / "results").exists()
