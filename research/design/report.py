"""The design search's report (``report.md``): the search, its best candidates, and their
confirmation next to the search's own estimate, then the definitions of the terms it uses.
Every number is written by :mod:`ludolab.research.numbers`: an objective's estimates at one
precision (two significant figures of its typical interval width), p-values as ``0.003`` /
``< 0.001``, counts as counts."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pandas as pd

from ludolab import games
from ludolab.research.design.confirm import Confirmed
from ludolab.research.design.evaluate import Z95, estimate, rung_setups
from ludolab.research.design.figures import (
    history_figure,
    importance_figure,
    pareto_figure,
    setups_figure,
)
from ludolab.research.design.search import best_trials
from ludolab.research.design.spec import DesignSpec
from ludolab.research.files import write_text
from ludolab.research.markdown import pipe_table
from ludolab.research.numbers import (
    count,
    decimals_for,
    fixed,
    interval,
    median_scale,
    p_value,
    plain,
    plural,
)


def _interval(mean: float, se: float, decimals: int, sign: bool = False) -> str:
    """``mean [low, high]``, the normal 95% interval (the mean alone without a standard
    error), at ``decimals``; ``sign`` writes every sign."""
    if not math.isfinite(se):
        return fixed(mean, decimals, sign=sign)
    low, high = mean - Z95 * se, mean + Z95 * se
    return f"{fixed(mean, decimals, sign=sign)} {interval(low, high, decimals, sign=sign)}"


def _decimals(ses: Any) -> int:
    """An objective's decimals: two significant figures of its typical 95% interval width."""
    return decimals_for(2 * Z95 * median_scale(ses))


def _value(x: Any) -> str:
    """A parameter's value as written (``13``, ``0.5``, ``True``)."""
    if isinstance(x, bool) or not isinstance(x, int | float):
        return str(x)
    return plain(x)


def importances(study: Any, spec: DesignSpec) -> dict[str, dict[str, float]]:
    """fANOVA importance of each parameter, per objective (empty when fewer than two complete
    trials or parameters vary)."""
    import optuna
    from optuna.importance import FanovaImportanceEvaluator

    from ludolab.research.design.search import feasible

    complete = feasible(study)
    if len(complete) < 2:
        return {}
    # Infeasible trials carry the baseline's scores as stand-ins: leave them out.
    only = optuna.create_study(directions=study.directions)
    only.add_trials(complete)
    out = {}
    for i, o in enumerate(spec.objectives):
        try:
            out[o.describe()] = optuna.importance.get_param_importances(
                only,
                evaluator=FanovaImportanceEvaluator(seed=spec.seed),
                target=lambda t, i=i: t.values[i],
            )
        except (ValueError, RuntimeError):  # e.g. every complete trial with the same values
            continue
    return out


def best_setups(spec: DesignSpec, folder: Path, params: dict[str, Any], n: int = 4) -> list[Any]:
    """The first ``n`` setups of the candidate's rung 0, drawn again from the same seed."""
    return rung_setups(spec, params, 0, folder)[1][:n]


def write_report(
    spec: DesignSpec,
    folder: Path,
    study: Any,
    trials: pd.DataFrame,
    baseline: pd.DataFrame,
    best: list[Any],
    confirmed: list[Confirmed],
) -> Path:
    """Write ``folder/report.md`` and its figures; return the report's path."""
    figures = folder / "figures"
    noun, nouns = spec.described.setup_noun, spec.described.setup_plural
    lines = [f"# Design search: {spec.name}", ""]
    question = spec.experiment.get("question")
    if question:
        lines += [f"*{question}*", ""]
    base_means = {o.metric: estimate(baseline, o).mean for o in spec.objectives}
    counts = trials["state"].value_counts() if len(trials) else pd.Series(dtype=int)
    played = int(trials["games"].sum()) + len(baseline) if len(trials) else len(baseline)
    lines += [
        "## The search",
        "",
        f"- Base set `{spec.constraints}`, sampler `{spec.sampler}`; baseline: "
        + (", ".join(f"`{k}` = {v!r}" for k, v in spec.baseline.items()) or "the base set as it is")
        + ".",
        "- Objectives: " + "; ".join(o.describe() for o in spec.objectives) + " (the mean over a "
        f"candidate's games; the unit of analysis is the {noun}).",
        f"- Each candidate: up to {plural(spec.rungs, 'rung')} of {plural(spec.setups, noun)}"
        f" x {plural(spec.games_per_setup, 'game')} (every candidate on the same setup and game "
        f"seeds, rung by rung: common random numbers). Master seed {spec.seed}.",
        f"- Trials: {count(counts.get('complete', 0))} complete, "
        f"{count(counts.get('pruned', 0))} stopped early, "
        f"{count(counts.get('infeasible', 0))} infeasible; {plural(played, 'game')} played, "
        f"{fixed(trials['seconds'].sum() if len(trials) else 0, 0)} s of trials.",
        "",
        "| parameter | searched over |",
        "|---|---|",
    ]
    for p in spec.parameters:
        span = (
            ", ".join(map(str, p.choices))
            if p.choices
            else f"{plain(p.low)} to {plain(p.high)}" + (f" step {plain(p.step)}" if p.step else "")
        )
        lines.append(f"| `{p.name}` | {span} |")
    lines.append("")
    if len(trials):
        history_figure(spec, trials, base_means, figures / "history")
        lines += ["![history](figures/history.png)", ""]
    imp = importances(study, spec)
    if imp:
        importance_figure(imp, figures / "importance")
        lines += [
            "![importance](figures/importance.png)",
            "",
            "Parameter importance: Optuna's fANOVA over the complete trials (a random forest "
            "fitted to the scores; shares of their variance).",
            "",
        ]
    if len(spec.objectives) >= 2 and len(trials):
        from ludolab.research.design.search import pareto_front

        front = [t.number for t in pareto_front(study)]
        pareto_figure(spec, trials, front, figures / "pareto")
        lines += ["![Pareto front](figures/pareto.png)", ""]
    complete = (
        trials[(trials["state"] == "complete") & (trials["repeat_of"] < 0)]
        if len(trials)
        else trials
    )
    if len(complete):
        if len(spec.objectives) > 1:  # the Pareto front, nearest its ideal point first
            order = [t.number for t in best_trials(study, spec, len(complete))]
            ranked = complete.set_index("number", drop=False).loc[
                [n for n in order if n in set(complete["number"])]
            ]
            which = "The Pareto front, nearest its ideal point first"
        else:
            first = spec.objectives[0]
            ranked = complete.assign(_s=complete[f"mean:{first.metric}"].map(first.score))
            ranked = ranked.sort_values("_s", ascending=first.direction != "maximize").head(10)
            which = "The ten best complete trials"
        header = ["trial", *[p.name for p in spec.parameters]]
        header += [f"{o.metric} [95% CI]" for o in spec.objectives]
        dec = {o.metric: _decimals(ranked[f"se:{o.metric}"]) for o in spec.objectives}
        n_obj = len(spec.objectives)
        rows = []
        for _, r in ranked.iterrows():
            cells = [str(int(r["number"])), *[_value(r.get(p.name, "")) for p in spec.parameters]]
            for o in spec.objectives:
                m = o.metric
                cells.append(_interval(r[f"mean:{m}"], r[f"se:{m}"], dec[m]))
            rows.append(cells)
        shipped = spec.baseline_values()
        base_cells = ["baseline", *[_value(shipped[p.name]) for p in spec.parameters]]
        for o in spec.objectives:
            e = estimate(baseline, o)
            base_cells.append(_interval(e.mean, e.se, dec[o.metric]))
        rows.append(base_cells)
        lines += [
            f"{which} (the search's estimates, which favour the winners: see the "
            "confirmation; a candidate asked for twice is listed once):",
            "",
            pipe_table(header, rows, [True] + [False] * len(spec.parameters) + [True] * n_obj),
            "",
        ]
    infeasible = trials[trials["state"] == "infeasible"] if len(trials) else trials
    if len(infeasible):
        lines += [f"Infeasible candidates (no {noun} drawn):", ""]
        for _, r in infeasible.iterrows():
            shown = ", ".join(f"{p.name}={r.get(p.name)!r}" for p in spec.parameters)
            lines.append(f"- trial {int(r['number'])} ({shown}): {r['reason']}")
        lines.append("")
    if best:
        lines += ["## The best candidate", ""]
        t = best[0]
        lines.append(
            "Trial "
            + str(t.number)
            + ": "
            + ", ".join(f"`{k}` = {v!r}" for k, v in t.params.items())
            + "."
        )
        lines.append("")
        try:
            drawn = setups_figure(
                spec.described,
                {f"trial {t.number}": best_setups(spec, folder, dict(t.params))},
                figures / f"best-{nouns}",
            )
            if drawn is not None:
                lines += [f"![best {nouns}](figures/best-{nouns}.png)", ""]
        except Exception as exc:  # a drawing must not lose the report
            lines += [f"(its {nouns} could not be drawn: {exc})", ""]
    if confirmed:
        lines += _confirmation_lines(spec, folder, confirmed)
    elif best:
        lines += [
            "## Confirmation",
            "",
            "Not run (`--no-confirm`): the search's estimates "
            "above are biased towards the winners and confirm nothing.",
            "",
        ]
    lines += definition_lines(spec, "\n".join(lines), len(confirmed))
    path = folder / "report.md"
    write_text(path, "\n".join(lines))
    return path


def definition_lines(spec: DesignSpec, text: str, tests: int) -> list[str]:
    """The report's last section: the objectives' metrics (from the metrics registry) and
    every statistical term ``text`` uses, with which numbers are corrected."""
    from ludolab.research.experiment.report_terms import (
        context,
        corrected_sentence,
        metric_lines,
        term_lines,
    )

    alpha = spec.experiment.get("comparisons", {}).get("alpha", 0.05)
    families = (
        f"the confirmation's tests of the objectives ({plural(tests, 'test')})"
        if tests
        else "none (no confirmation was run)"
    )
    game = spec.experiment["game"]  # the spec's reader checked it is a registered game
    metrics = metric_lines(game, [o.metric for o in spec.objectives])
    kind = games.get(game).setup_plural
    terms = term_lines(text, context(alpha, "holm", families, kind))
    out = ["## Definitions", "", corrected_sentence(alpha, "holm"), ""]
    if metrics:
        out += ["**Metrics** (formulas: `ludolab metrics`):", ""]
        out += [f"- {m}" for m in metrics] + [""]
    if terms:
        out += ["**Terms:**", ""] + [f"- {t}" for t in terms] + [""]
    return out


def _confirmation_lines(spec: DesignSpec, folder: Path, confirmed: list[Confirmed]) -> list[str]:
    import json

    noun, nouns = spec.described.setup_noun, spec.described.setup_plural
    plan_path = folder / "confirm-plan.json"
    sized = ""
    if plan_path.exists():
        plan = json.loads(plan_path.read_text())
        sized = (
            f" Sized by `ludolab plan` ({plan['basis']}): it recommended "
            f"{count(round(plan['recommended']))} {nouns} per condition; the run played "
            f"{count(plan['setups'])} (kept within {count(plan['min_setups'])}-"
            f"{count(plan['max_setups'])})."
        )
    runs = sorted((folder / "confirm").glob("*/*/report.md"))
    link = f" Its report: `{runs[-1].relative_to(folder)}`." if runs else ""
    lines = [
        "## Confirmation",
        "",
        "The baseline and the best candidate(s) rerun as an ordinary experiment "
        f"(`confirm.toml`) on fresh setup and game seeds, {spec.confirm.games_per_setup} games "
        f"per {noun}, tested as the run tests (paired; Holm over the objectives)." + sized + link,
        "",
        "| trial | metric | search's estimate [95% CI] | confirmed [95% CI] | shrinkage | "
        "p (Holm) | improvement confirmed |",
        "|---:|---|---:|---:|---:|---:|---|",
    ]
    # one precision per objective: two significant figures of the confirmed interval's width
    widths: dict[str, list[float]] = {}
    for c in confirmed:
        widths.setdefault(c.objective.metric, []).append(c.high - c.low)
    dec = {m: decimals_for(median_scale(w)) for m, w in widths.items()}
    for c in confirmed:
        shrink = c.search_diff - c.diff
        d = dec[c.objective.metric]
        lines.append(
            f"| {c.trial} | {c.objective.metric} | "
            f"{_interval(c.search_diff, c.search_se, d, sign=True)} | "
            f"{fixed(c.diff, d, sign=True)} {interval(c.low, c.high, d, sign=True)} | "
            f"{fixed(shrink, d, sign=True)} | {p_value(c.p_adj)} | "
            f"{'yes' if c.improved else 'no'} |"
        )
    lines += [
        "",
        f"Differences are candidate minus baseline, in the metric's unit ({noun} means; the unit "
        f"of analysis is the {noun}). The search's estimate is the best of many noisy ones, so it "
        "overstates the effect (the winner's curse); the shrinkage column is how much.",
        "",
    ]
    return lines
