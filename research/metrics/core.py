"""Scalar metric functions on plain arrays: score trajectories, incomes and win counts.

Notation used in every formula below:

    n          number of seats.
    T          number of time steps of a score trajectory (Catan: player turns; Masters Gallery:
               rounds).
    V[t, s]    score of seat s after step t, t = 1..T (Catan: victory points, hidden victory
               point cards included; Gallery: money earned so far). Before step 1 every seat has
               the same score (Catan: 2 VP from setup; Gallery: no money), so
               ``V[0, :]`` is treated as an all-way tie.
    W          the set of eventual winners (one seat, or several when a win is shared).
    L_t        the leader set after step t: ``{s : V[t, s] = max_q V[t, q]}``; ``L_0`` = all seats.

The game-evaluation metrics follow the Ludii system's implementations (Ludeme/Ludii,
``Evaluation/src/metrics``; Browne's aesthetic criteria as implemented there by Stephenson et
al.), with the players' state evaluations replaced by the in-game score, which is all a game
record holds. Deviations are stated per function.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def _trajectory(scores: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
    v = np.asarray(scores, dtype=float)
    if v.ndim != 2:
        raise ValueError(f"a score trajectory must be 2-D (steps, seats), got shape {v.shape}")
    return v


def _winner_index(winners: Sequence[int], n: int) -> np.ndarray:
    w = np.asarray(sorted(set(int(s) for s in winners)), dtype=np.int64)
    if w.size and (w.min() < 0 or w.max() >= n):
        raise ValueError(f"winner seats {list(w)} out of range for {n} seats")
    return w


def _others(n: int, w: np.ndarray) -> np.ndarray:
    """The seats 0..n-1 not in ``w`` (np.setdiff1d's answer, without its sorting)."""
    keep = np.ones(n, dtype=bool)
    keep[w] = False
    return np.flatnonzero(keep)


def leader_sets(scores: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
    """(T, n) bool: ``[t, s]`` is True when seat s is among the leaders after step t + 1."""
    v = _trajectory(scores)
    if v.shape[0] == 0:
        return np.zeros(v.shape, dtype=bool)
    return v == v.max(axis=1, keepdims=True)


def lead_change_count(scores: np.ndarray | Sequence[Sequence[float]]) -> int:
    """Steps that change the leader set: ``#{t in 1..T : L_t != L_{t-1}}`` with ``L_0`` = all
    seats (an all-way tie before the first step), so a step that breaks the opening tie counts."""
    lead = leader_sets(scores)
    if lead.shape[0] == 0:
        return 0
    prev = np.vstack([np.ones((1, lead.shape[1]), dtype=bool), lead[:-1]])
    return int(np.count_nonzero((lead != prev).any(axis=1)))


def lead_change(scores: np.ndarray | Sequence[Sequence[float]]) -> float:
    """Share of steps that change the leader set (Ludii's *Lead Change*), in [0, 1].

    ``lead_change = #{t in 1..T : L_t != L_{t-1}} / T``, ``L_0`` = all seats; NaN when T = 0.

    Ludii (``metrics/single/stateEvaluation/LeadChange.java``) compares the set of players with
    the highest state evaluation before each move with the set before the previous move,
    starting from an empty set, and divides the count by the number of moves. We use the score
    instead of an evaluation and start from the all-way tie of the opening position instead of
    the empty set, so a game in which nobody ever pulls ahead scores 0, not 1/T.
    """
    v = _trajectory(scores)
    if v.shape[0] == 0:
        return float("nan")
    return lead_change_count(v) / v.shape[0]


def _gap(v: np.ndarray, w: np.ndarray) -> np.ndarray:
    """(T,) relative distance of the winners' mean score below the leader's score."""
    top = v.max(axis=1)
    behind = top - v[:, w].mean(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(top > 0, behind / np.where(top > 0, top, 1.0), 0.0)


def winner_trailing(
    scores: np.ndarray | Sequence[Sequence[float]], winners: Sequence[int]
) -> float:
    """Share of steps after which the eventual winner was behind the leader, in [0, 1].

    ``winner_trailing = #{t in 1..T : gap_t > 0} / T`` (``gap_t`` as in :func:`drama`); NaN when
    there is no winner or T = 0. This is the "number of moves" half of Ludii's description of
    Drama ("number of moves/severity where the eventual winner was behind").
    """
    v = _trajectory(scores)
    w = _winner_index(winners, v.shape[1])
    if w.size == 0 or v.shape[0] == 0:
        return float("nan")
    return float(np.count_nonzero(_gap(v, w) > 0)) / v.shape[0]


def drama(scores: np.ndarray | Sequence[Sequence[float]], winners: Sequence[int]) -> float:
    """How far behind the eventual winner was, on average over the steps it was behind; [0, 1].

    ``gap_t = (max_s V[t, s] - mean_{w in W} V[t, w]) / max_s V[t, s]`` (0 when the leader's
    score is 0): the winners' shortfall relative to the leader's score. With
    ``R = {t in 1..T : gap_t > 0}`` (the winner's trailing steps),
    ``drama = mean_{t in R} gap_t``, 0 when R is empty (the winner never trailed), NaN when
    there is no winner or T = 0.

    Ludii (``metrics/multiple/metrics/Drama.java``) records, before every move, the leader's
    state evaluation minus the winners' mean evaluation, and its *Drama Average* is the mean
    over all moves. Deviations: scores instead of evaluations, normalised by the leader's score
    so games with different score scales compare; and the mean is over trailing steps only
    (severity), with the share of trailing steps kept separately as :func:`winner_trailing`.
    Ludii's Drama Average corresponds to ``drama * winner_trailing``.
    """
    v = _trajectory(scores)
    w = _winner_index(winners, v.shape[1])
    if w.size == 0 or v.shape[0] == 0:
        return float("nan")
    gap = _gap(v, w)
    trailing = gap[gap > 0]
    return float(trailing.mean()) if trailing.size else 0.0


def decisiveness(scores: np.ndarray | Sequence[Sequence[float]], winners: Sequence[int]) -> float:
    """When the winner took a lead it never lost, as a share of the game; in (0, 1].

    ``ahead_t = min_{w in W} V[t, w] > max_{s not in W} V[t, s]`` (every winner strictly ahead
    of every other seat); ``t* = min{t : ahead_u for all u in t..T}``;
    ``decisiveness = t* / T`` — 1/T when the winner led from the first step, 1 when the lead
    was only taken on the last step (or never held strictly, e.g. through hidden points).
    Smaller = decided earlier. NaN when there is no winner, every seat won, or T = 0.

    Ludii's *Decisiveness Moves* (``metrics/single/stateEvaluation/decisiveness/``) is the
    share of moves played before a winner's evaluation first exceeds the *decisiveness
    threshold* (see :func:`decisiveness_threshold`); this variant asks instead for a lead that
    is never lost, which on score trajectories needs no threshold.
    """
    v = _trajectory(scores)
    w = _winner_index(winners, v.shape[1])
    others = _others(v.shape[1], w)
    t = v.shape[0]
    if w.size == 0 or others.size == 0 or t == 0:
        return float("nan")
    ahead = v[:, w].min(axis=1) > v[:, others].max(axis=1)
    not_ahead = np.flatnonzero(~ahead)
    start = 1 if not_ahead.size == 0 else min(int(not_ahead[-1]) + 2, t)
    return start / t


def decisiveness_threshold(
    scores: np.ndarray | Sequence[Sequence[float]], winners: Sequence[int]
) -> float:
    """Ludii's *Decisiveness Moves* on scores: when a winner first out-scored the best score any
    other seat ever reached, as a share of the game; in (0, 1].

    ``theta = max_{t in 1..T, s not in W} V[t, s]`` (Ludii's *Decisiveness Threshold*);
    ``t_theta = min{t : max_{w in W} V[t, w] > theta}``; ``decisiveness_threshold = t_theta / T``
    (1 if no winner ever exceeds theta). NaN when there is no winner, every seat won, or T = 0.
    In Catan this is usually late: other seats often reach 8-9 VP.
    """
    v = _trajectory(scores)
    w = _winner_index(winners, v.shape[1])
    others = _others(v.shape[1], w)
    t = v.shape[0]
    if w.size == 0 or others.size == 0 or t == 0:
        return float("nan")
    theta = v[:, others].max()
    above = np.flatnonzero(v[:, w].max(axis=1) > theta)
    return (int(above[0]) + 1) / t if above.size else 1.0


# ----------------------------------------------------------------------------- Ludii's own
# Ludii (Evaluation/src/metrics/...) evaluates the state *before* every move, s_0 (the start)
# to s_{T-1}, never the final state, and divides by T. Its state value is a heuristic squashed
# by tanh; here it is the score (VP / money), so values are in score units. Where Ludii's code
# and its documentation part (it reads the winners from the initial state, so W = every
# player), these follow the documentation: W = the game's winners.


def _pre_move_states(v: np.ndarray) -> np.ndarray:
    """(T, n): the scores before each step, s_0 = zeros (the start), s_t = V[t] for t < T."""
    return np.vstack([np.zeros((1, v.shape[1])), v[:-1]]) if v.shape[0] else v


def lead_change_ludii(scores: np.ndarray | Sequence[Sequence[float]]) -> float:
    """Ludii's *Lead Change* exactly (``LeadChange.java``): the share of the T pre-move states
    whose leader set differs from the previous state's, the first compared with an *empty* set
    (so it always counts: the value is at least 1/T). NaN when T = 0."""
    v = _trajectory(scores)
    if v.shape[0] == 0:
        return float("nan")
    states = _pre_move_states(v)
    lead = states == states.max(axis=1, keepdims=True)
    changes = 1 + int(np.count_nonzero((lead[1:] != lead[:-1]).any(axis=1)))
    return changes / v.shape[0]


def drama_ludii(scores: np.ndarray | Sequence[Sequence[float]], winners: Sequence[int]) -> float:
    """Ludii's *Drama Average* (``Drama.java`` with ``MultiMetricValue.Average``): over the T
    pre-move states, the mean of ``max_s s_t[s] - mean_{w in W} s_t[w]`` (absolute, in score
    units; states where a winner leads count as 0). NaN when there is no winner or T = 0."""
    v = _trajectory(scores)
    w = _winner_index(winners, v.shape[1])
    if w.size == 0 or v.shape[0] == 0:
        return float("nan")
    states = _pre_move_states(v)
    return float((states.max(axis=1) - states[:, w].mean(axis=1)).mean())


def decisiveness_ludii(
    scores: np.ndarray | Sequence[Sequence[float]], winners: Sequence[int]
) -> float:
    """Ludii's *Decisiveness Moves* (``DecisivenessMoves.java``, with its intended division):
    ``theta`` = the highest score a non-winner has in any pre-move state (-1 when there is no
    such seat, Ludii's start value); ``t`` = the first pre-move state (0-based) in which a
    winner scores above ``theta`` (T if none); the value is ``t / T``, in [0, 1]. NaN when there
    is no winner or T = 0."""
    v = _trajectory(scores)
    w = _winner_index(winners, v.shape[1])
    if w.size == 0 or v.shape[0] == 0:
        return float("nan")
    states = _pre_move_states(v)
    others = _others(v.shape[1], w)
    theta = max(-1.0, float(states[:, others].max())) if others.size else -1.0
    above = np.flatnonzero(states[:, w].max(axis=1) > theta)
    return (int(above[0]) if above.size else v.shape[0]) / v.shape[0]


def gini(values: np.ndarray | Sequence[float]) -> float:
    """Gini coefficient of non-negative amounts, in [0, (n - 1)/n].

    ``G = sum_i sum_j |x_i - x_j| / (2 n^2 mean(x))``; 0 when all amounts are equal or all are
    0; NaN for an empty input.
    """
    x = np.asarray(values, dtype=float).ravel()
    if x.size == 0:
        return float("nan")
    total = x.sum()
    if total == 0:
        return 0.0
    return float(np.abs(x[:, None] - x[None, :]).sum() / (2 * x.size * total))


def winner_margin(final: Sequence[float], winners: Sequence[int]) -> float:
    """The single winner's final score minus the best final score of any other seat; 0 for a
    shared win (the best other is a co-winner); NaN without a winner."""
    f = np.asarray(final, dtype=float)
    w = _winner_index(winners, f.size)
    if w.size == 0:
        return float("nan")
    if w.size > 1 or f.size < 2:
        return 0.0
    return float(f[w[0]] - np.delete(f, w[0]).max())


def score_spread(final: Sequence[float]) -> float:
    """``max_s F[s] - min_s F[s]`` of the final scores F."""
    f = np.asarray(final, dtype=float)
    return float(f.max() - f.min()) if f.size else float("nan")


def effective_sample_size(values: np.ndarray, clusters: np.ndarray) -> float:
    """How many independent observations ``values`` (shape (n,), each in [0, 1], e.g. a seat's
    share of each game's win) are worth for their mean when observations in one cluster
    (``clusters``, shape (n,), any labels: the board or deal a game was played on) are not
    independent.

    Kish's effective size n / deff, with the design effect deff = (the cluster-robust variance
    of the mean, with the small-sample factor C / (C - 1) for C clusters) / (its variance for
    independent observations, p (1 - p) / n), at least 1. A mean of 0 or 1 (no variance to
    measure) counts the clusters (Korn & Graubard 1998). One observation per cluster, or a
    single cluster: n.
    """
    values = np.asarray(values, dtype=float)
    n = len(values)
    labels, cluster = np.unique(np.asarray(clusters).astype(str), return_inverse=True)
    c = len(labels)
    if n == 0 or c == n or c < 2:
        return float(n)
    p = float(values.mean())
    if not 0.0 < p < 1.0:
        return float(c)
    totals = np.bincount(cluster, weights=values - p, minlength=c)
    robust = c / (c - 1) * float(np.sum(totals**2)) / n**2
    return n / max(1.0, robust / (p * (1.0 - p) / n))


def wilson_interval(successes: float, n: float, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a proportion (no continuity correction).

    With ``p = k / n`` and ``z`` the two-sided normal quantile:
    ``(p + z^2/(2n) -/+ z sqrt(p(1 - p)/n + z^2/(4n^2))) / (1 + z^2/n)``. ``successes`` may
    be fractional (shared wins count 1/k); (NaN, NaN) when n = 0. Equals scipy's
    ``binomtest(k, n).proportion_ci(confidence, method="wilson")`` for integer k.
    """
    if n <= 0:
        return float("nan"), float("nan")
    from statistics import NormalDist  # scipy.stats would cost 0.5 s to import

    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return float(max(0.0, centre - half)), float(min(1.0, centre + half))


def balance(win_rates: Sequence[float]) -> float:
    """Ludii's *Balance*: ``1 - max_{a<b} |r_a - r_b|`` over per-seat win rates r; in [0, 1].

    Ludii (``metrics/single/outcome/Balance.java``) counts draws and shared results as partial
    wins, as we do (1/k per winner of a k-way shared win).
    """
    r = np.asarray(win_rates, dtype=float)
    if r.size < 2 or np.isnan(r).any():
        return float("nan")
    return float(1.0 - (r.max() - r.min()))


def chi_square_uniform(wins: Sequence[float]) -> tuple[float, float]:
    """Pearson chi-square test of per-seat win counts against a uniform distribution over seats.

    ``chi2 = sum_s (O_s - E)^2 / E`` with ``E = sum_s O_s / n``, ``n - 1`` degrees of freedom
    (``scipy.stats.chisquare``); returns (statistic, p-value), (NaN, NaN) with no wins.
    Fractional counts from shared wins make the test approximate.
    """
    o = np.asarray(wins, dtype=float)
    if o.size < 2 or o.sum() <= 0:
        return float("nan"), float("nan")
    from scipy.stats import chisquare

    res = chisquare(o)
    return float(res.statistic), float(res.pvalue)


__all__ = [
    "balance",
    "chi_square_uniform",
    "decisiveness",
    "decisiveness_ludii",
    "decisiveness_threshold",
    "drama",
    "drama_ludii",
    "gini",
    "lead_change",
    "lead_change_count",
    "lead_change_ludii",
    "leader_sets",
    "score_spread",
    "wilson_interval",
    "winner_margin",
    "winner_trailing",
]
