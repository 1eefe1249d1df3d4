"""The exhibit model as a mixed-integer linear programme, solved by HiGHS (``highspy``): best
exhibits with a proven bound.

The MiniZinc model (``models/exhibits.mzn``, solved by Gecode) finds good exhibits by large
neighbourhood search but proves nothing: a reader cannot tell its best from the optimum. This is
the same model, constraint for constraint, written linearly, so that a MIP solver's
branch-and-bound gives the best exhibits it found *and* a bound no exhibit can pass: the gap
between them says how far from optimal the answer can be, and a gap of zero is a proof. The
answer comes back in the MiniZinc model's variable names (``raw``), so that
:func:`~ludolab.research.gallery.exhibits.parse_solution`, the Python scoring and the replay in
the engine check it exactly as they check the MiniZinc answer.

How the non-linear parts of the model are made linear:

* the first player, the closer and the closing artist of each round are one-hot binaries; the
  players who get the round's extra turn (clockwise from the first player to the closer) come
  from one binary per (first player, closer) pair;
* the ranking: for every pair of artists a < b one binary says whether a is ahead (at least as
  many cards: ties go to the earlier artist); an artist's place is one plus the artists ahead
  of it, one-hot over places 1..5, and it wins a token only with a card on display;
* the scored value (the artist's value when it ranks, else 0) and the score, the sum of cards
  times scored value: each count of cards is one-hot over 0..M, and each (count, value) product
  is a bounded variable tied to the value by big-M rows.

Every bound is tight (no big-M larger than the variable's range), which is what makes the
relaxation useful.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import highspy
import numpy as np

from ludolab.envs.gallery.cards import N_ARTISTS, N_CARDS

N_ROUNDS = 4


class Expr:
    """A linear expression over the programme's variables: {index: coefficient} + constant."""

    __slots__ = ("const", "terms")

    def __init__(self, terms: dict[int, float] | None = None, const: float = 0.0) -> None:
        self.terms = terms or {}
        self.const = const

    @staticmethod
    def of(value: Expr | float) -> Expr:
        return value if isinstance(value, Expr) else Expr({}, float(value))

    def __add__(self, other: Expr | float) -> Expr:
        other = Expr.of(other)
        terms = dict(self.terms)
        for k, v in other.terms.items():
            terms[k] = terms.get(k, 0.0) + v
        return Expr(terms, self.const + other.const)

    __radd__ = __add__

    def __neg__(self) -> Expr:
        return Expr({k: -v for k, v in self.terms.items()}, -self.const)

    def __sub__(self, other: Expr | float) -> Expr:
        return self + (-Expr.of(other))

    def __rsub__(self, other: Expr | float) -> Expr:
        return Expr.of(other) - self

    def __mul__(self, k: float) -> Expr:
        return Expr({i: v * k for i, v in self.terms.items()}, self.const * k)

    __rmul__ = __mul__


def total(items: Iterable[Expr | float]) -> Expr:
    """The sum of expressions (one dictionary, not a chain of copies)."""
    terms: dict[int, float] = {}
    const = 0.0
    for item in items:
        item = Expr.of(item)
        const += item.const
        for k, v in item.terms.items():
            terms[k] = terms.get(k, 0.0) + v
    return Expr(terms, const)


class Programme:
    """Variables with bounds and integrality, and rows lo <= expression <= hi."""

    def __init__(self) -> None:
        self.lb: list[float] = []
        self.ub: list[float] = []
        self.integer: list[int] = []
        self.rows: list[tuple[dict[int, float], float, float]] = []

    def var(self, shape: tuple[int, ...], lo: float, hi: float, integer: bool = True) -> np.ndarray:
        """An array of new variables (as expressions) of ``shape``, each in lo..hi."""
        n = math.prod(shape)
        first = len(self.lb)
        self.lb += [lo] * n
        self.ub += [hi] * n
        self.integer += [int(integer)] * n
        out = np.empty(n, dtype=object)
        for i in range(n):
            out[i] = Expr({first + i: 1.0})
        return out.reshape(shape)

    def add(self, expr: Expr, lo: float = -np.inf, hi: float = np.inf) -> None:
        """lo <= expr <= hi."""
        self.rows.append((expr.terms, lo - expr.const, hi - expr.const))

    def eq(self, left: Expr | float, right: Expr | float) -> None:
        self.add(Expr.of(left) - Expr.of(right), 0.0, 0.0)

    def le(self, left: Expr | float, right: Expr | float) -> None:
        self.add(Expr.of(left) - Expr.of(right), hi=0.0)

    def ge(self, left: Expr | float, right: Expr | float) -> None:
        self.add(Expr.of(left) - Expr.of(right), lo=0.0)

    def solve(
        self,
        objective: Expr,
        *,
        maximise: bool,
        time_limit: float | None,
        max_solutions: int | None = None,
        max_nodes: int | None = None,
    ) -> Solved:
        """HiGHS on the programme (its own Python interface, which reports the bound also
        when it stops before finding a solution)."""
        n = len(self.lb)
        cost = np.zeros(n)
        for k, v in objective.terms.items():
            cost[k] = v
        starts, index, value = [0], [], []
        for terms, _, _ in self.rows:
            index += list(terms)
            value += list(terms.values())
            starts.append(len(index))
        lp = highspy.HighsLp()
        lp.num_col_, lp.num_row_ = n, len(self.rows)
        lp.col_cost_ = cost
        lp.col_lower_, lp.col_upper_ = np.array(self.lb), np.array(self.ub)
        lp.row_lower_ = np.array([row[1] for row in self.rows])
        lp.row_upper_ = np.array([row[2] for row in self.rows])
        lp.sense_ = highspy.ObjSense.kMaximize if maximise else highspy.ObjSense.kMinimize
        lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
        lp.a_matrix_.start_ = np.array(starts, dtype=np.int32)
        lp.a_matrix_.index_ = np.array(index, dtype=np.int32)
        lp.a_matrix_.value_ = np.array(value, dtype=float)
        lp.integrality_ = [
            highspy.HighsVarType.kInteger if i else highspy.HighsVarType.kContinuous
            for i in self.integer
        ]
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        h.setOptionValue("mip_rel_gap", 0.0)
        h.setOptionValue("random_seed", 0)
        if time_limit is not None:
            h.setOptionValue("time_limit", float(time_limit))
        if max_solutions is not None:  # stop after so many improving solutions
            h.setOptionValue("mip_max_improving_sols", int(max_solutions))
        if max_nodes is not None:  # stop after so many branch-and-bound nodes
            h.setOptionValue("mip_max_nodes", int(max_nodes))
        h.passModel(lp)
        h.run()
        status = h.getModelStatus()
        info = h.getInfo()
        found = info.primal_solution_status == 2  # kSolutionStatusFeasible
        return Solved(
            x=np.array(h.getSolution().col_value) if found else None,
            value=info.objective_function_value + objective.const if found else None,
            bound=info.mip_dual_bound + objective.const,
            optimal=status == highspy.HighsModelStatus.kOptimal,
            infeasible=status == highspy.HighsModelStatus.kInfeasible,
            time_limit_hit=status == highspy.HighsModelStatus.kTimeLimit,
            nodes=int(info.mip_node_count),
        )


@dataclass(frozen=True)
class Solved:
    """What HiGHS returned, in the objective's own sign: the solution (None if none found),
    its value, the bound on the optimum (infinite when it has none), and the status."""

    x: np.ndarray | None
    value: float | None
    bound: float
    optimal: bool
    infeasible: bool
    time_limit_hit: bool
    nodes: int


@dataclass(frozen=True)
class MipAnswer:
    """What HiGHS returned: the model's variables (``raw``, None when it found no exhibit), the
    best objective found, the bound no exhibit passes (None when HiGHS gave none), and whether
    the best is proven."""

    raw: dict[str, Any] | None
    value: int | None
    bound: int | None
    optimal: bool
    infeasible: bool
    time_limit_hit: bool
    elapsed: float
    nodes: int


def solve_mip(
    data: Mapping[str, Any],
    *,
    better_than: int | None = None,
    fixed: Mapping[str, Any] | None = None,
    time_limit: float | None = 60.0,
    max_solutions: int | None = None,
    max_nodes: int | None = None,
) -> MipAnswer:
    """The exhibit model's question as a MIP, solved by HiGHS within ``time_limit`` seconds.

    ``data``: the MiniZinc model's parameters, as
    :func:`~ludolab.research.gallery.exhibits.model_data` gives them (``P``, ``deal``,
    ``extra``, ``award_any``, ``award_tokens``, the symbols table ``n_draw``, ``n_double``,
    ``n_award``, ``n_plain``; ``objective`` 1 max-score, 2 max-margin, 3 min-winning-score;
    ``shared_win``; ``first_player`` 1-based, 0 = free; ``min_score``; the search settings
    are not read).

    ``better_than``: only answers strictly better than this objective value (an answer found
    another way): "infeasible" then proves that answer optimal, and the bound still bounds
    every answer. ``fixed``: decisions given in the MiniZinc model's names and shapes (``x``,
    ``dr``, ``db``, ``aw``, ``ex``, ``awd``, ``T``; ``fp``, ``cl``, ``ca`` 1-based; None
    leaves one free), to check an answer found another way against this formulation.
    ``max_solutions``: stop after that many improving solutions; ``max_nodes``: after that many
    branch-and-bound nodes (either is a search that ends the same way on any machine, unlike a
    time limit; HiGHS' MIP search is deterministic)."""
    P, R, A = int(data["P"]), N_ROUNDS, N_ARTISTS
    deal = [int(k) for k in data["deal"]]
    extra = [bool(e) for e in data["extra"]]
    award_any = bool(data["award_any"])
    award_tokens = int(data["award_tokens"])
    n_draw, n_double, n_award, n_plain = (
        [int(k) for k in data[name]] for name in ("n_draw", "n_double", "n_award", "n_plain")
    )
    objective = int(data["objective"])
    shared_win = bool(data.get("shared_win", False))
    first_player = int(data.get("first_player", 0))
    min_score = int(data.get("min_score", 0))
    M = 5 if P == 2 else 6
    TMAX = 5 * (M - 1) + 1
    VMAX = 3 * R + 2 * award_tokens
    m = Programme()
    rp, ra = range(P), range(A)

    x = m.var((R, P, A), 0, M)  # cards displayed (all kinds)
    dr = m.var((R, P, A), 0, M)  # draw-one cards displayed
    db = m.var((R, P, A), 0, M)  # double cards displayed (each with a plain second card)
    aw = m.var((R, P, A), 0, M)  # award cards displayed
    ex = m.var((R, A), 0, 1)  # the round's face-up extra card
    awd = m.var((R, A), 0, award_tokens)  # award tokens placed on the artist this round
    fp = m.var((R, P), 0, 1)  # first player (one-hot)
    cl = m.var((R, P), 0, 1)  # closing player (one-hot)
    ca = m.var((R, A), 0, 1)  # closing artist (one-hot)
    T = m.var((R,), 1, TMAX)  # turns of the players from the first player to the closer
    pair = m.var((R, P, P), 0, 1)  # (first player, closer)
    for r in range(R):
        m.eq(total(fp[r]), 1)
        m.eq(total(cl[r]), 1)
        m.eq(total(ca[r]), 1)
        for f in rp:
            m.eq(total(pair[r, f, c] for c in rp), fp[r, f])
        for c in rp:
            m.eq(total(pair[r, f, c] for f in rp), cl[r, c])

    plain = np.empty((R, P, A), dtype=object)
    for r in range(R):
        for p in rp:
            for a in ra:
                plain[r, p, a] = x[r, p, a] - dr[r, p, a] - aw[r, p, a] - db[r, p, a]
                m.ge(plain[r, p, a], db[r, p, a])  # a double's second card is plain
    cnt = np.empty((R, A), dtype=object)
    for r in range(R):
        for a in ra:
            cnt[r, a] = total(x[r, p, a] for p in rp) + ex[r, a]

    # Cards: each symbol card once per game, the plain cards and extra cards of each artist's
    # supply (the symbols table), and no more award cards than award tokens
    every = [(r, p) for r in range(R) for p in rp]
    for a in ra:
        m.le(total(dr[r, p, a] for r, p in every), n_draw[a])
        m.le(total(db[r, p, a] for r, p in every), n_double[a])
        m.le(total(aw[r, p, a] for r, p in every), n_award[a])
        m.le(
            total(plain[r, p, a] for r, p in every) + total(ex[r, a] for r in range(R)),
            n_plain[a],
        )
    m.le(total(aw.ravel()), award_tokens)
    for r in range(R):
        m.eq(total(ex[r]), int(extra[r]))
    drawn = np.empty((R, P), dtype=object)
    for r in range(R):
        for p in rp:
            drawn[r, p] = total(dr[r, p])
    m.le(P * sum(deal) + total(drawn.ravel()) + total(ex.ravel()), N_CARDS)

    # Round end: the closing artist reaches exactly M, every other stays below; the closer's
    # last turn displays a plain card of the closing artist
    for r in range(R):
        for a in ra:
            m.ge(cnt[r, a], M * ca[r, a])
            m.le(cnt[r, a], M - 1 + ca[r, a])
            for p in rp:
                m.ge(plain[r, p, a], cl[r, p] + ca[r, a] - 1)

    # Turns: players from the first player to the closer (clockwise) have T turns, the others
    # T - 1; the next round starts left of the closer
    turns = np.empty((R, P), dtype=object)
    for r in range(R):
        for p in rp:
            extra_turn = total(pair[r, f, c] for f in rp for c in rp if (p - f) % P <= (c - f) % P)
            turns[r, p] = T[r] - 1 + extra_turn
    for r in range(R - 1):
        for c in rp:
            m.eq(fp[r + 1, (c + 1) % P], cl[r, c])
    if first_player:
        m.eq(fp[0, first_player - 1], 1)
    n = np.empty((R, P), dtype=object)
    for r in range(R):
        for p in rp:
            n[r, p] = total(x[r, p])
            m.eq(n[r, p], turns[r, p] + total(db[r, p]))

    # Hands: draw-ones first, so a player needs one card to start and at most hand + draws
    hand = np.empty((R, P), dtype=object)
    for p in rp:
        hand[0, p] = Expr.of(deal[0])
    for r in range(R - 1):
        for p in rp:
            hand[r + 1, p] = hand[r, p] + drawn[r, p] - n[r, p] + deal[r + 1]
    for r in range(R):
        for p in rp:
            m.le(n[r, p], hand[r, p] + drawn[r, p])
            m.ge(hand[r, p] * TMAX, turns[r, p])  # a turn to play: a card to play it with
            m.ge(hand[r, p], 0)

    # Awards
    for r in range(R):
        if award_any:
            m.eq(total(awd[r]), total(aw[r].ravel()))
            for a in ra:
                m.le(awd[r, a], award_tokens * total(x[r, p, a] for p in rp))
        else:
            for a in ra:
                m.eq(awd[r, a], total(aw[r, p, a] for p in rp))

    # Ranking. ahead[r, a, b] (a < b): a has at least as many cards as b (ties to a).
    ahead = m.var((R, A, A), 0, 1)
    place = m.var((R, A, A), 0, 1)  # place[r, a, k]: artist a is (k + 1)-th
    shown = m.var((R, A), 0, 1)  # the artist has a card on display
    wins = m.var((R, A, 3), 0, 1)  # places 1..3 with a card: tokens 3, 2, 1
    tok = np.empty((R, A), dtype=object)
    ranked = np.empty((R, A), dtype=object)
    for r in range(R):
        for a in ra:
            for b in range(a + 1, A):
                m.ge(cnt[r, a] - cnt[r, b], -(M + 1) * (1 - ahead[r, a, b]))
                m.ge(cnt[r, b] - cnt[r, a], 1 - (M + 2) * ahead[r, a, b])
            before = [ahead[r, b, a] for b in range(a)]
            after = [1 - ahead[r, a, b] for b in range(a + 1, A)]
            behind = total(before + after)  # artists ahead of a
            m.eq(total(place[r, a]), 1)
            m.eq(total(k * place[r, a, k] for k in ra), behind)
            m.le(shown[r, a], cnt[r, a])
            m.ge(M * shown[r, a], cnt[r, a])
            for k in range(3):
                m.le(wins[r, a, k], place[r, a, k])
                m.le(wins[r, a, k], shown[r, a])
                m.ge(wins[r, a, k], place[r, a, k] + shown[r, a] - 1)
            tok[r, a] = 3 * wins[r, a, 0] + 2 * wins[r, a, 1] + wins[r, a, 2]
            ranked[r, a] = total(wins[r, a])
            m.le(ca[r, a], wins[r, a, 0])  # the closing artist is first
        for k in range(A):  # each place is one artist's
            m.eq(total(place[r, a, k] for a in ra), 1)
    val = np.empty((R, A), dtype=object)
    sv = m.var((R, A), 0, VMAX)  # the value the artist's cards score this round
    for a in ra:
        val[0, a] = tok[0, a] + 2 * awd[0, a]
        for r in range(1, R):
            val[r, a] = val[r - 1, a] + tok[r, a] + 2 * awd[r, a]
    for r in range(R):
        for a in ra:
            m.le(val[r, a], VMAX)
            m.le(sv[r, a], val[r, a])
            m.le(sv[r, a], VMAX * ranked[r, a])
            m.ge(sv[r, a], val[r, a] - VMAX * (1 - ranked[r, a]))

    # Scores. A card scores its artist's value when the artist ranks: the tokens and awards of
    # this round and every round before. Written as cards-that-rank x each earlier token or
    # award (an integer times a binary: exact and tight in the relaxation).
    K = max(award_tokens, 1)
    award_one_hot = m.var((R, A, K), 0, 1)  # awd[r, a] = j + 1
    for r in range(R):
        for a in ra:
            m.le(total(award_one_hot[r, a]), 1)
            m.eq(awd[r, a], total((j + 1) * award_one_hot[r, a, j] for j in range(K)))
    score = np.empty(P, dtype=object)
    for p in rp if objective != 1 else [0]:
        parts = []
        for r in range(R):
            for a in ra:
                counted = m.var((1,), 0, M)[0]  # x[r, p, a] if the artist ranks, else 0
                m.le(counted, x[r, p, a])
                m.le(counted, M * ranked[r, a])
                m.ge(counted, x[r, p, a] - M * (1 - ranked[r, a]))
                # Per earlier round, one place at most and one award count at most: the
                # products of one group sum to at most `counted` (a cut the relaxation needs).
                groups = [
                    [(w, wins[q, a, k]) for k, w in enumerate((3, 2, 1))] for q in range(r + 1)
                ] + [
                    [(2 * (j + 1), award_one_hot[q, a, j]) for j in range(K)] for q in range(r + 1)
                ]
                for group in groups:
                    zs = []
                    for w, flag in group:
                        z = m.var((1,), 0, M)[0]  # counted * flag
                        m.le(z, M * flag)
                        m.le(z, counted)
                        m.ge(z, counted - M * (1 - flag))
                        parts.append(w * z)
                        zs.append(z)
                    m.le(total(zs), counted)
        score[p] = total(parts)

    # Objectives
    if min_score:
        m.ge(score[0], min_score)
    if objective == 1:
        goal, maximise = score[0], True
    elif objective == 2:
        best_other = m.var((1,), 0, R * A * M * VMAX)[0]
        for q in range(1, P):
            m.ge(best_other, score[q])
        goal, maximise = score[0] - best_other, True
    else:
        for q in range(1, P):
            m.ge(score[0], score[q] + (0 if shared_win else 1))
        goal, maximise = score[0], False
    if better_than is not None:
        if maximise:
            m.ge(goal, better_than + 1)
        else:
            m.le(goal, better_than - 1)

    if fixed:  # (None leaves a decision free)
        one_hot = {"fp": fp, "cl": cl, "ca": ca}
        for name, values in fixed.items():
            if name in one_hot:
                for r, v in enumerate(values):
                    if v is not None:
                        m.eq(one_hot[name][r, int(v) - 1], 1)
                continue
            arr = {"x": x, "dr": dr, "db": db, "aw": aw, "ex": ex, "awd": awd, "T": T}[name]
            given = np.asarray(values, dtype=object).ravel()
            for variable, v in zip(arr.ravel(), given, strict=True):
                if v is not None:
                    m.eq(variable, int(v))

    start = time.perf_counter()
    res = m.solve(
        goal,
        maximise=maximise,
        time_limit=time_limit,
        max_solutions=max_solutions,
        max_nodes=max_nodes,
    )
    elapsed = time.perf_counter() - start
    value = None if res.value is None else round(res.value)
    optimal = res.optimal and value is not None
    # The objective is an integer: a bound rounds towards the answer (HiGHS' tolerance 1e-6).
    bound: int | None = None
    if optimal:
        bound = value
    elif np.isfinite(res.bound) and abs(res.bound) < 1e9:
        bound = math.floor(res.bound + 1e-6) if maximise else math.ceil(res.bound - 1e-6)
    raw = _raw(res.x, x, dr, db, aw, ex, awd, fp, cl, ca, T, turns, hand, tok, val, sv, value)
    return MipAnswer(
        raw=raw,
        value=value,
        bound=bound,
        optimal=optimal,
        infeasible=res.infeasible,
        time_limit_hit=res.time_limit_hit,
        elapsed=elapsed,
        nodes=res.nodes,
    )


def _raw(solution: np.ndarray | None, *arrays: Any) -> dict[str, Any] | None:
    """The model's variables from HiGHS' solution, as MiniZinc names and shapes them (players,
    closers and closing artists 1-based, one value each, not one-hot)."""
    if solution is None:
        return None
    values = np.round(solution).astype(int)
    x, dr, db, aw, ex, awd, fp, cl, ca, T, turns, hand, tok, val, sv, value = arrays

    def get(e: Expr | float) -> int:
        e = Expr.of(e)
        return round(e.const + sum(c * values[k] for k, c in e.terms.items()))

    def grid(arr: np.ndarray) -> list:
        return np.vectorize(get, otypes=[int])(arr).tolist()

    def one_hot(arr: np.ndarray) -> list[int]:
        return [int(np.argmax(row)) + 1 for row in grid(arr)]

    cards, scored = np.array(grid(x)), np.array(grid(sv))  # (R, P, A), (R, A)
    return {
        "x": cards.tolist(),
        "dr": grid(dr),
        "db": grid(db),
        "aw": grid(aw),
        "ex": grid(ex),
        "awd": grid(awd),
        "fp": one_hot(fp),
        "cl": one_hot(cl),
        "ca": one_hot(ca),
        "T": grid(T),
        "turns": grid(turns),
        "hand": grid(hand),
        "tok": grid(tok),
        "val": grid(val),
        "sv": scored.tolist(),
        "score": (cards * scored[:, None, :]).sum(axis=(0, 2)).tolist(),
        "obj": value,
    }
