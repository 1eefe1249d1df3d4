"""Constrained deals for Masters Gallery: named constraints on the round-1 hands, and samplers.

A deal (:class:`ludolab.envs.gallery.deal.Deal`) is the order of the 95 cards. Round 1's hands are
fixed by it alone: seat ``s`` holds ``order[13 s : 13 s + 13]``. The constraints here look only
at those hands — later deals depend on how many cards were drawn during play, so their contents
are not fixed by the deal, and no constraint reads them. Every constraint reads its hands
through a *labelling* of the cards (each card's symbol kind, or artist, or "artist A or not",
...) and tests the (seats x labels) matrix of counts — vectorised over a batch of deals.

Constraints (``DEAL_CONSTRAINTS``; ``describe_constraints()`` prints them with parameters):

* ``balanced-symbols``   every seat holds the same number of each symbol kind (draw, double,
                         award, ...), or within ``tolerance``; ``by = "total"`` counts symbol
                         cards of any kind.
* ``balanced-artists``   every artist's count differs by at most ``tolerance`` between seats.
* ``skewed-artists``     some seat (or a given seat) holds at least ``min_count`` cards of one
                         artist (or of a given artist).
* ``no-symbols-for-seat`` a seat holds no symbol cards (of the listed kinds).
* ``symbol-cards``       every seat (or a given seat) holds between ``min`` and ``max`` symbol
                         cards.

Samplers — every one draws from the **uniform distribution over the deals that satisfy the
constraints** (each satisfying card order equally likely):

* ``rejection``  fair shuffles (all 95! orders equally likely), kept if every constraint holds.
  Plain rejection, so uniform on the accepted set. Fine while the acceptance rate is not tiny.
* ``exact``      when all constraints read the same labelling and the count matrices they allow
  can be listed (at most ``EXACT_LIMIT`` candidates): list every allowed count matrix ``X``
  (rows: the seats and the rest of the deck; columns: labels), draw one with probability
  proportional to ``w(X) = prod_{rows b, labels k} 1 / X[b,k]!``, then deal each label's cards
  uniformly at random into the rows by those counts and order every row uniformly at random.
  Why uniform: a card order with count matrix ``X`` arises from exactly one (matrix, assignment
  of cards to rows, order within rows) triple, with probability
  ``w(X)/Z * prod_k X[.,k]!/m_k! * prod_b 1/size_b!`` (``m_k`` cards of label ``k``; a
  multivariate-hypergeometric split of each label, then uniform orders) ``= 1 / (Z prod_k m_k!
  prod_b size_b!)`` — the same for every satisfying order. As a by-product the exact method
  knows the constraint set's probability under fair shuffles exactly:
  ``P = Z prod_b size_b! prod_k m_k! / 95!`` (reported as ``exact_probability``).
* ``auto``       ``exact`` when possible, else ``rejection``.

MiniZinc is not used: the count-matrix enumeration above both counts the satisfying deals
exactly and samples them uniformly, which a solver's search order would not.

The constraints live in :mod:`ludolab.research.gallery.deal_constraints`, the sets in
:mod:`ludolab.research.gallery.deal_sets`; this module holds the samplers and names the whole
API. Public API: :func:`generate_deals`, :func:`check_deals`, :func:`violated`,
:func:`make_deal_constraint`, :func:`load_deal_set`, :func:`describe_constraints`,
:data:`DEAL_CONSTRAINTS`, :func:`write_deals_jsonl`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ludolab.envs.gallery.cards import (
    DEFAULT_SYMBOLS,
    N_CARDS,
    SymbolsTable,
)
from ludolab.envs.gallery.deal import Deal, write_deals
from ludolab.research.gallery.deal_constraints import (
    DEAL_CONSTRAINTS,
    HAND_SIZE,
    DealConstraint,
    DealConstraintError,
    DealContext,
    Labelling,
    check_deals,
    describe_constraints,
    make_deal_constraint,
    violated,
)
from ludolab.research.gallery.deal_sets import (
    DealSet,
    as_deal_set,
    load_deal_set,
    shipped_deal_sets,
)

EXACT_LIMIT = 3_000_000  # candidate count matrices the exact sampler may list


METHODS = ("auto", "exact", "rejection")


REJECTION_SECONDS_PER_DRAW = 2e-6  # a fair shuffle plus checks, measured; for ``auto`` only


class DealSamplingError(RuntimeError):
    """A sampler cannot deliver: unsatisfiable constraints, or acceptance too low."""


@dataclass
class DealReport:
    """What the sampler did, for the summary and the deals' provenance."""

    deal_set: str
    constraints: list[str]
    n_players: int
    method: str  # "rejection", "exact" or "fair"
    uniform: bool = True
    seed: int = 0
    draws: int = 0  # rejection: fair shuffles tried
    hits: int = 0  # rejection: shuffles that satisfied the set (a few beyond n may be dropped)
    accepted: int = 0  # deals returned
    exact_kind: str = ""  # exact: "dp" or "list"
    candidates: int = 0  # exact: state-column pairs (dp) or count matrices (list) examined
    exact_probability: float | None = None  # P(a fair shuffle satisfies the set), exact method
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def acceptance(self) -> float | None:
        return self.hits / self.draws if self.draws else None

    @property
    def deals_per_second(self) -> float | None:
        return self.accepted / self.seconds if self.seconds > 0 else None

    def summary(self) -> str:
        parts = [
            f"{self.accepted} deals, {self.n_players} players, {self.deal_set}: "
            f"{self.method} sampler (uniform over the satisfying deals)"
        ]
        if self.draws:
            parts.append(f"acceptance {self.hits:,}/{self.draws:,} = {self.acceptance:.3g}")
        if self.exact_probability is not None:
            parts.append(f"P(fair shuffle satisfies) = {self.exact_probability:.4g} (exact)")
        if self.seconds:
            parts.append(f"{self.seconds:.2f} s, {self.deals_per_second:,.0f} deals/s")
        return "; ".join(parts) + "".join(f"\n  note: {n}" for n in self.notes)


def fair_orders(rng: np.random.Generator, b: int) -> np.ndarray:
    """(b, 95) uniformly random card orders."""
    return rng.permuted(np.broadcast_to(np.arange(N_CARDS, dtype=np.int64), (b, N_CARDS)), axis=1)


def sample_rejection(
    constraints: Sequence[DealConstraint],
    n: int,
    rng: np.random.Generator,
    report: DealReport,
    *,
    batch: int = 20_000,
    max_draws: int = 20_000_000,
) -> np.ndarray:
    """``n`` orders, uniform over those satisfying every constraint, by rejection."""
    kept: list[np.ndarray] = []
    got = 0
    start = report.draws  # an earlier batch's draws count against max_draws, not this rate
    while got < n:
        # Give up early when the rate so far says max_draws will not be enough.
        spent = report.draws - start
        if report.draws >= max_draws or (
            spent >= 10 * batch and spent * n > (max_draws - start) * max(got, 1)
        ):
            raise _too_slow(report, n, got)
        orders = fair_orders(rng, batch)
        report.draws += batch
        ok = check_deals(constraints, orders)
        kept.append(orders[ok])
        got += int(ok.sum())
    report.hits += got
    return np.concatenate(kept)[:n]


def _too_slow(report: DealReport, n: int, got: int) -> DealSamplingError:
    rate = got / report.draws
    detail = (
        f"{got} of {report.draws:,} fair shuffles were accepted (rate {rate:.2e})"
        if got
        else f"none of {report.draws:,} fair shuffles was accepted, so fewer than one deal in "
        f"{report.draws / 3:,.0f} satisfies the set (95% upper bound), and it may have none"
    )
    return DealSamplingError(
        f"{report.deal_set} ({report.n_players} players): rejection sampling is too slow: "
        f"{detail}; {n} deals wanted. The exact sampler needs all constraints to read the same "
        f"labelling and a small enough count space; loosen the set (e.g. a larger tolerance)"
    )


@dataclass
class ExactPlan:
    """What the exact sampler draws from: the distribution of the round-1 count matrices.

    ``kind`` is ``"dp"`` (a dynamic programme over the labels, for separable constraints: the
    states are the partial hand sizes after the first j labels) or ``"list"`` (every allowed
    seat-count matrix listed with its weight).
    """

    labelling: Labelling
    kind: str
    size: int  # dp: state-column pairs examined; list: candidate matrices listed
    exact_probability: float
    n_players: int
    hand_size: int
    # list
    matrices: np.ndarray | None = None  # (M, n_players, L) seat counts
    probs: np.ndarray | None = None
    # dp
    free: tuple[int, ...] = ()
    slack: int = 0
    columns: list[np.ndarray] = field(default_factory=list)  # per free label (C, n)
    col_logw: list[np.ndarray] = field(default_factory=list)
    stage_codes: list[np.ndarray] = field(default_factory=list)  # sorted state codes
    stage_logz: list[np.ndarray] = field(default_factory=list)
    final_codes: np.ndarray | None = None
    final_logz: np.ndarray | None = None

    @property
    def satisfying(self) -> int:
        """Allowed count matrices (list) or allowed final states (dp)."""
        return len(self.matrices) if self.kind == "list" else len(self.final_codes)

    @property
    def seconds_per_deal(self) -> float:
        """A rough cost estimate (this machine class) of one exact draw, for ``auto``."""
        work = sum(len(c) for c in self.columns) * self.n_players if self.kind == "dp" else 0
        return 3e-5 + 2e-8 * work

    def sample_counts(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """(n, n_players, L) seat-count matrices, distributed as under uniform satisfying deals."""
        if self.kind == "list":
            return self.matrices[rng.choice(len(self.matrices), size=n, p=self.probs)]
        step = max(1, 4_000_000 // max(1, max(len(c) for c in self.columns) * self.n_players))
        return np.concatenate([self._sample_dp(min(step, n - i), rng) for i in range(0, n, step)])

    def _sample_dp(self, n: int, rng: np.random.Generator) -> np.ndarray:
        n_seats, h = self.n_players, self.hand_size
        pw = (h + 1) ** np.arange(n_seats)
        x = np.zeros((n, n_seats, self.labelling.n_labels), dtype=np.int64)
        state = self.final_codes[_gumbel_pick(self.final_logz[None, :], n, rng)]
        vec = _decode(state, h, n_seats)
        x[:, :, self.slack] = h - vec
        for j in range(len(self.free) - 1, -1, -1):
            cols, lw = self.columns[j], self.col_logw[j]
            codes, logz = self.stage_codes[j], self.stage_logz[j]
            pred = vec[:, None, :] - cols[None, :, :]  # (n, C, seats)
            pcode = pred @ pw
            pos = np.clip(np.searchsorted(codes, pcode), 0, len(codes) - 1)
            ok = (pred >= 0).all(axis=2) & (codes[pos] == pcode)
            logp = np.where(ok, logz[pos] + lw[None, :], -np.inf)
            pick = _gumbel_pick(logp, n, rng)
            x[:, :, self.free[j]] = cols[pick]
            vec = pred[np.arange(n), pick]
        return x


def _gumbel_pick(logp: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """Row-wise draws i with probability proportional to exp(logp[., i]) (Gumbel-max)."""
    logp = np.broadcast_to(logp, (n, logp.shape[1]))
    return np.argmax(logp + rng.gumbel(size=logp.shape), axis=1)


def _decode(codes: np.ndarray, h: int, n_seats: int) -> np.ndarray:
    return (codes[:, None] // (h + 1) ** np.arange(n_seats)) % (h + 1)


def _logsumexp_by(groups: np.ndarray, vals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Unique group codes (sorted) and the log-sum-exp of ``vals`` in each."""
    order = np.argsort(groups, kind="stable")
    g, v = groups[order], vals[order]
    uniq, starts = np.unique(g, return_index=True)
    mx = np.maximum.reduceat(v, starts)
    seg = np.repeat(np.arange(len(uniq)), np.diff(np.append(starts, len(g))))
    total = np.bincount(seg, weights=np.exp(v - mx[seg]), minlength=len(uniq))
    return uniq, mx + np.log(total)


def _log_fair_factor(ctx: DealContext, m: np.ndarray) -> float:
    """log(prod_b size_b! prod_k m_k! / 95!): turns the weight sum Z into a probability."""
    return (
        sum(math.lgamma(s + 1) for s in ctx.block_sizes)
        + sum(math.lgamma(int(k) + 1) for k in m)
        - math.lgamma(N_CARDS + 1)
    )


def _unsatisfiable(constraints: Sequence[DealConstraint], ctx: DealContext) -> DealSamplingError:
    return DealSamplingError(
        f"no deal for {ctx.n_players} players satisfies "
        f"{', '.join(c.describe() for c in constraints)}"
    )


def _label_columns(
    constraints: Sequence[DealConstraint], ctx: DealContext, lab: Labelling, k: int
) -> np.ndarray:
    n, h, m = ctx.n_players, ctx.hand_size, lab.card_counts
    top = min(h, int(m[k]))
    grid = np.indices((top + 1,) * n).reshape(n, -1).T
    cols = grid[grid.sum(axis=1) <= m[k]]
    for c in constraints:
        cols = cols[c.column_ok(k, cols)]
    return cols


def exact_plan(
    constraints: Sequence[DealConstraint], ctx: DealContext, limit: int = EXACT_LIMIT
) -> ExactPlan | None:
    """The exact sampler's plan, or None if it cannot apply (constraints on different
    labellings, or more than ``limit`` candidates to examine). Raises DealSamplingError if no
    deal satisfies the constraints."""
    if not constraints:
        return None
    labellings = {c.labelling().key: c.labelling() for c in constraints}
    if len(labellings) != 1:
        return None
    lab = next(iter(labellings.values()))
    if all(c.separable for c in constraints):
        return _dp_plan(constraints, ctx, lab, limit)
    return _list_plan(constraints, ctx, lab, limit)


def _dp_plan(
    constraints: Sequence[DealConstraint], ctx: DealContext, lab: Labelling, limit: int
) -> ExactPlan | None:
    from scipy.special import gammaln  # here: listing the deal sets needs no scipy

    n, h = ctx.n_players, ctx.hand_size
    m = lab.card_counts
    slack = int(np.argmax(m))  # its column is what the hands still lack after the others
    free = tuple(k for k in range(lab.n_labels) if k != slack)
    pw = (h + 1) ** np.arange(n)
    codes, logz = np.array([0], dtype=np.int64), np.array([0.0])
    plan = ExactPlan(lab, "dp", 0, 0.0, n, h, free=free, slack=slack)
    for k in free:
        cols = _label_columns(constraints, ctx, lab, k)
        lw = -gammaln(cols + 1).sum(axis=1) - gammaln(m[k] - cols.sum(axis=1) + 1)
        plan.columns.append(cols)
        plan.col_logw.append(lw)
        plan.stage_codes.append(codes)
        plan.stage_logz.append(logz)
        plan.size += len(codes) * len(cols)
        if plan.size > limit:
            return None
        new = _decode(codes, h, n)[:, None, :] + cols[None, :, :]
        ok = (new <= h).all(axis=2)
        vals = (logz[:, None] + lw[None, :])[ok]
        if not len(vals):
            raise _unsatisfiable(constraints, ctx)
        codes, logz = _logsumexp_by(new[ok] @ pw, vals)
    rest = h - _decode(codes, h, n)  # the slack label's column
    ok = rest.sum(axis=1) <= m[slack]
    for c in constraints:
        ok &= c.column_ok(slack, rest)
    if not ok.any():
        raise _unsatisfiable(constraints, ctx)
    rest = rest[ok]
    g = -gammaln(rest + 1).sum(axis=1) - gammaln(m[slack] - rest.sum(axis=1) + 1)
    plan.final_codes, plan.final_logz = codes[ok], logz[ok] + g
    top = plan.final_logz.max()
    log_z = top + math.log(np.exp(plan.final_logz - top).sum())
    plan.exact_probability = math.exp(log_z + _log_fair_factor(ctx, m))
    return plan


def _list_plan(
    constraints: Sequence[DealConstraint], ctx: DealContext, lab: Labelling, limit: int
) -> ExactPlan | None:
    from scipy.special import gammaln  # here: listing the deal sets needs no scipy

    n, h = ctx.n_players, ctx.hand_size
    m = lab.card_counts
    L = lab.n_labels
    slack = int(np.argmax(m))
    free = [k for k in range(L) if k != slack]
    columns = [_label_columns(constraints, ctx, lab, k) for k in free]
    sizes = [len(c) for c in columns]
    total = math.prod(sizes)
    if total > limit:
        return None
    kept_x, kept_w = [], []
    chunk = 200_000
    for start in range(0, total, chunk):
        idx = np.unravel_index(np.arange(start, min(total, start + chunk)), sizes)
        x = np.zeros((len(idx[0]), n, L), dtype=np.int64)
        for j, k in enumerate(free):
            x[:, :, k] = columns[j][idx[j]]
        x[:, :, slack] = h - x.sum(axis=2)
        ok = (x[:, :, slack] >= 0).all(axis=1) & (x[:, :, slack].sum(axis=1) <= m[slack])
        x = x[ok]
        for c in constraints:
            x = x[c.check_counts(x)]
        if len(x):
            kept_x.append(x)
            rest = m - x.sum(axis=1)
            kept_w.append(-gammaln(x + 1).sum(axis=(1, 2)) - gammaln(rest + 1).sum(axis=1))
    if not kept_x:
        raise _unsatisfiable(constraints, ctx)
    matrices = np.concatenate(kept_x)
    logw = np.concatenate(kept_w)
    top = logw.max()
    w = np.exp(logw - top)
    log_z = top + math.log(w.sum())
    return ExactPlan(
        lab,
        "list",
        total,
        math.exp(log_z + _log_fair_factor(ctx, m)),
        n,
        h,
        matrices=matrices,
        probs=w / w.sum(),
    )


EXACT_BATCH = 10_000  # deals per batch of the exact sampler: its work arrays take ~5 KB a deal


def sample_exact(plan: ExactPlan, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` orders, uniform over the deals whose round-1 count matrix the plan allows.

    Draw the seat-count matrix from the plan; deal each label's cards to the rows (seats, then
    the rest of the deck) by those counts in a uniformly random order of the label's cards;
    order each row uniformly at random. More than :data:`EXACT_BATCH` deals are drawn in
    batches of that size, so memory does not grow with ``n`` beyond the orders themselves.
    """
    if n > EXACT_BATCH:
        return np.concatenate(
            [_sample_exact(plan, min(EXACT_BATCH, n - i), rng) for i in range(0, n, EXACT_BATCH)]
        )
    return _sample_exact(plan, n, rng)


def _sample_exact(plan: ExactPlan, n: int, rng: np.random.Generator) -> np.ndarray:
    lab = plan.labelling
    seats = plan.sample_counts(n, rng)  # (n, seats, L)
    x = np.concatenate([seats, (lab.card_counts - seats.sum(axis=1))[:, None, :]], axis=1)
    labels = lab.labels
    # Cards grouped by label, in a random order within each label.
    perm = np.argsort(labels[None, :] + rng.random((n, N_CARDS)), axis=1)
    lab_of = labels[perm]  # (n, 95), non-decreasing along each row
    starts = np.concatenate([[0], np.cumsum(lab.card_counts)[:-1]])
    rank = np.arange(N_CARDS)[None, :] - starts[lab_of]  # rank within its label
    cum = np.cumsum(x, axis=1)  # (n, R, L): cards of each label in rows 0..r
    index = np.broadcast_to(lab_of[:, None, :], (n, cum.shape[1], N_CARDS))
    cum_k = np.take_along_axis(cum, index, axis=2)  # (n, R, 95)
    row = (cum_k <= rank[:, None, :]).sum(axis=1)  # each card's row: a seat, or R-1 = the rest
    o = np.argsort(row + rng.random((n, N_CARDS)), axis=1)  # rows in order, shuffled within
    return np.take_along_axis(perm, o, axis=1)


def stream_deals(
    constraints: str | Path | Sequence[str] | set[str] | DealSet,
    n_players: int,
    n: int,
    seed: int,
    params: Mapping[str, Any] | None = None,
    *,
    method: str = "auto",
    symbols: SymbolsTable = DEFAULT_SYMBOLS,
    hand_size: int = HAND_SIZE,
    max_draws: int = 20_000_000,
    exact_limit: int = EXACT_LIMIT,
) -> tuple[Iterator[Deal], DealReport]:
    """``n`` deals for ``n_players`` drawn uniformly from those satisfying ``constraints``,
    made :data:`EXACT_BATCH` at a time as the returned iterator is consumed (memory flat in
    ``n``); the report is complete once the iterator is exhausted. Bad arguments, an
    unsatisfiable set or a sampler that cannot apply raise at once, before any deal.

    Args:
        constraints: a shipped deal set's name (``shipped_deal_sets()``), a ``.toml`` path,
            comma-separated constraint names, a list/set of constraint names, or a DealSet.
            An empty list (or the ``fair`` set) gives fair shuffles.
        params: parameter values, ``{"balanced-symbols": {"tolerance": 1}}`` or
            ``{"balanced-symbols.tolerance": 1}``; they override the set's values.
        method: ``auto`` (exact when possible, else rejection), ``exact`` or ``rejection``.
        symbols, hand_size: the rules options the deals will be played under (they decide
            which cards carry symbols and how big the round-1 hands are).
        max_draws: fair shuffles the rejection sampler may try before giving up.

    Every deal is validated and re-checked against every constraint before it is returned.
    Same arguments and seed, same deals.
    """
    if method not in METHODS:
        raise DealConstraintError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise DealConstraintError(f"the number of deals must be an integer >= 1, got {n!r}")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise DealConstraintError(f"seed must be an integer >= 0, got {seed!r}")
    ctx = DealContext(n_players, hand_size, symbols)
    dset = as_deal_set(constraints, params)
    bound = dset.bind(ctx)
    report = DealReport(dset.label, [c.describe() for c in bound], n_players, "fair", seed=seed)
    rng = np.random.default_rng(np.random.SeedSequence([seed, n_players]))
    start = time.perf_counter()
    plan = None
    if bound:
        plan = None if method == "rejection" else exact_plan(bound, ctx, exact_limit)
        if (
            plan is not None
            and method == "auto"
            and REJECTION_SECONDS_PER_DRAW / plan.exact_probability < plan.seconds_per_deal
        ):
            report.notes.append(
                f"auto: rejection is cheaper here (P(fair shuffle satisfies) = "
                f"{plan.exact_probability:.3g}, exact)"
            )
            report.exact_probability = plan.exact_probability
            plan = None
        if plan is None and method == "exact":
            keys = sorted({c.labelling().key for c in bound})
            why = (
                f"its constraints read different labellings ({', '.join(keys)})"
                if len(keys) > 1
                else f"more than {exact_limit:,} count matrices would have to be listed"
            )
            raise DealSamplingError(
                f"{dset.label}: the exact sampler cannot handle this set for {n_players} "
                f"players: {why}; use method 'rejection'"
            )
        if plan is not None:
            report.method = "exact"
            report.exact_kind = plan.kind
            report.candidates = plan.size
            report.exact_probability = plan.exact_probability
            what = "final hand-size states" if plan.kind == "dp" else "allowed count matrices"
            report.notes.append(
                f"exact ({plan.kind}) over the '{plan.labelling.key}' labelling: "
                f"{plan.satisfying:,} {what}, {plan.size:,} candidates examined"
            )
        else:
            report.method = "rejection"

    def draw(m: int) -> np.ndarray:
        if not bound:
            return fair_orders(rng, m)
        if plan is not None:
            return sample_exact(plan, m, rng)
        return sample_rejection(bound, m, rng, report, max_draws=max_draws)

    def deals() -> Iterator[Deal]:
        for first in range(0, n, EXACT_BATCH):
            orders = draw(min(EXACT_BATCH, n - first))
            batch = [Deal(n_players, tuple(o)) for o in orders.tolist()]
            ok = check_deals(bound, orders)
            if not ok.all():  # a bug in a sampler: never hand out a deal that breaks the set
                bad = batch[int(np.flatnonzero(~ok)[0])]
                raise AssertionError(
                    f"{dset.label}: deal {bad.id} violates {', '.join(violated(bound, bad))}"
                )
            report.accepted += len(batch)
            report.seconds = time.perf_counter() - start
            yield from batch

    return deals(), report


def generate_deals(
    constraints: str | Path | Sequence[str] | set[str] | DealSet,
    n_players: int,
    n: int,
    seed: int,
    params: Mapping[str, Any] | None = None,
    **options: Any,
) -> tuple[list[Deal], DealReport]:
    """:func:`stream_deals` as a list (same arguments and keyword options)."""
    stream, report = stream_deals(constraints, n_players, n, seed, params, **options)
    return list(stream), report


def write_deals_jsonl(deals: Iterable[Deal], path: str | Path) -> int:
    """Write deals atomically to a ``.jsonl`` file (one per line); return how many."""
    path = Path(path)
    if path.suffix != ".jsonl":
        raise DealConstraintError(f"{path}: expected a .jsonl file name")
    if not path.parent.is_dir():
        raise DealConstraintError(f"{path}: the folder {path.parent} does not exist")
    return write_deals(deals, path)


def fair_probability(constraints: Sequence[DealConstraint], ctx: DealContext) -> float | None:
    """P(a fair shuffle satisfies the constraints), exactly, when the exact planner applies."""
    plan = exact_plan(constraints, ctx)
    return None if plan is None else plan.exact_probability


__all__ = [
    "DEAL_CONSTRAINTS",
    "as_deal_set",
    "METHODS",
    "DealConstraint",
    "DealConstraintError",
    "DealContext",
    "DealReport",
    "DealSamplingError",
    "DealSet",
    "check_deals",
    "describe_constraints",
    "exact_plan",
    "fair_orders",
    "fair_probability",
    "generate_deals",
    "stream_deals",
    "load_deal_set",
    "make_deal_constraint",
    "sample_exact",
    "sample_rejection",
    "shipped_deal_sets",
    "violated",
    "write_deals_jsonl",
]
