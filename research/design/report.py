"""The design search's report (``report.md``): the search, its best candidates, and their
confirmation next to the search's own estimate."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pandas as pd

from ludolab.research.design.confirm import Confirmed
from ludolab.research.design.evaluate import Z95, estimate, rung_boards
from ludolab.research.design.figures import (
    boards_figure,
    history_figure,
    importance_figure,
    pareto_figure,
)
from ludolab.research.design.search import best_trials
from ludolab.research.design.spec import DesignSpec
from ludolab.research.files import write_text
from ludolab.research.markdown import pipe_table


def _interval(mean: float, se: float, sign: str = "+") -> str:
    """``mean [low, high]``, the normal 95% interval (the mean alone without a standard
    error); ``sign="+"`` writes every sign, ``""`` only minus signs."""
    if not math.isfinite(se):
        return f"{mean:{sign}.3f}"
    return f"{mean:{sign}.3f} [{mean - Z95 * se:{sign}.3f}, {mean + Z95 * se:{sign}.3f}]"


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


def best_boards(spec: DesignSpec, folder: Path, params: dict[str, Any], n: int = 4) -> list[Any]:
    """The first ``n`` boards of the candidate's rung 0, drawn again from the same seed."""
    return rung_boards(spec, params, 0, folder)[1][:n]


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
        "candidate's games; the unit of analysis is the board).",
        f"- Each candidate: up to {spec.rungs} rung(s) of {spec.setups} boards x "
        f"{spec.games_per_setup} games (every candidate on the same setup and game seeds, "
        f"rung by rung: common random numbers). Master seed {spec.seed}.",
        f"- Trials: {int(counts.get('complete', 0))} complete, {int(counts.get('pruned', 0))} "
        f"stopped early, {int(counts.get('infeasible', 0))} infeasible; {played:,} games "
        f"played, {trials['seconds'].sum() if len(trials) else 0:.0f} s of trials.",
        "",
        "| parameter | searched over |",
        "|---|---|",
    ]
    for p in spec.parameters:
        span = (
            ", ".join(map(str, p.choices))
            if p.choices
            else f"{p.low:g} to {p.high:g}" + (f" step {p.step:g}" if p.step else "")
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
        header += [f"{o.metric} [95%]" for o in spec.objectives]
        rows = []
        for _, r in ranked.iterrows():
            cells = [str(int(r["number"])), *[str(r.get(p.name, "")) for p in spec.parameters]]
            for o in spec.objectives:
                cells.append(_interval(r[f"mean:{o.metric}"], r[f"se:{o.metric}"], ""))
            rows.append(cells)
        shipped = spec.baseline_values()
        base_cells = ["baseline", *[str(shipped[p.name]) for p in spec.parameters]]
        for o in spec.objectives:
            e = estimate(baseline, o)
            base_cells.append(_interval(e.mean, e.se, ""))
        rows.append(base_cells)
        lines += [
            f"{which} (the search's estimates, which favour the winners: see the "
            "confirmation; a candidate asked for twice is listed once):",
            "",
            pipe_table(header, rows),
            "",
        ]
    infeasible = trials[trials["state"] == "infeasible"] if len(trials) else trials
    if len(infeasible):
        lines += ["Infeasible candidates (no board drawn):", ""]
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
            boards = best_boards(spec, folder, dict(t.params))
            boards_figure(
                boards,
                [f"trial {t.number}, board {i}" for i in range(len(boards))],
                figures / "best-boards",
            )
            lines += ["![best boards](figures/best-boards.png)", ""]
        except Exception as exc:  # a drawing must not lose the report
            lines += [f"(its boards could not be drawn: {exc})", ""]
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
    path = folder / "report.md"
    write_text(path, "\n".join(lines))
    return path


def _confirmation_lines(spec: DesignSpec, folder: Path, confirmed: list[Confirmed]) -> list[str]:
    import json

    plan_path = folder / "confirm-plan.json"
    sized = ""
    if plan_path.exists():
        plan = json.loads(plan_path.read_text())
        sized = (
            f" Sized by `ludolab plan` ({plan['basis']}): it recommended "
            f"{plan['recommended']:.0f} boards per condition; the run played {plan['boards']} "
            f"(kept within {plan['min_boards']}-{plan['max_boards']})."
        )
    runs = sorted((folder / "confirm").glob("*/*/report.md"))
    link = f" Its report: `{runs[-1].relative_to(folder)}`." if runs else ""
    lines = [
        "## Confirmation",
        "",
        "The baseline and the best candidate(s) rerun as an ordinary experiment "
        f"(`confirm.toml`) on fresh setup and game seeds, {spec.confirm.games_per_setup} games "
        "per board, tested as the run tests (paired; Holm over the objectives)." + sized + link,
        "",
        "| trial | metric | search's estimate [95%] | confirmed [95%] | shrinkage | p (Holm) | "
        "improvement confirmed |",
        "|---|---|---|---|---|---|---|",
    ]
    for c in confirmed:
        shrink = c.search_diff - c.diff
        lines.append(
            f"| {c.trial} | {c.objective.metric} | {_interval(c.search_diff, c.search_se)} | "
            f"{c.diff:+.3f} [{c.low:+.3f}, {c.high:+.3f}] | {shrink:+.3f} | {c.p_adj:.3g} | "
            f"{'yes' if c.improved else 'no'} |"
        )
    lines += [
        "",
        "Differences are candidate minus baseline, in the metric's unit (board means; the unit "
        "of analysis is the board). The search's estimate is the best of many noisy ones, so it "
        "overstates the effect (the winner's curse); the shrinkage column is how much.",
        "",
    ]
    return lines
