"""Uniform boards from tight constraint sets: Markov chains whose stationary law is uniform.

Rejection from fair shuffles is exact but hopeless when one shuffle in 10^9 satisfies the set;
the solver's randomised search is fast but follows Gecode's search order. This sampler runs
Markov chains over the satisfying boards instead (the steps run in the compiled
:mod:`ludolab.research.catan.kernel`):

* **Moves.** Each step proposes one change, of a kind drawn with fixed weights: swap two hexes'
  tiles (terrain with its token), two terrains (tokens stay), two tokens, or two harbors;
  rotate or mirror the land (the 12 symmetries of the hexagon); exchange all hexes of two
  resources with equal counts, or all tokens of two values with equal counts; redraw the
  terrain (from the full list of layouts the set's terrain rules allow, when that list is
  small enough to enumerate, else from a fair shuffle; the token on the new desert moves to
  the old desert's hex; or, another kind, each tile carrying its token, the tokens of a
  terrain dealt uniformly to the hexes that gain it), the tokens, the harbors, or every part
  at once. Each kind is
  *symmetric*: from a board ``y`` the change back to ``x`` is proposed exactly as often as the
  change from ``x`` to ``y`` (pairs and group elements are drawn uniformly, whatever the
  board). A proposal is accepted when the new board satisfies every rule of the set
  (Metropolis for a uniform target), so the uniform distribution on the satisfying boards is
  stationary. The whole-board redraw proposes every board with positive probability, so the
  chain is irreducible and aperiodic on every set: it converges to uniform. How fast is a
  question of measurement:
* **Diagnostics.** Chains start in groups from a few distinct boards. A panel of board
  statistics is recorded; burn-in doubles until, over its second half, the nested rank-
  normalised R-hat of every statistic (Margossian et al. 2024: groups of chains that share a
  start, the R-hat made for many short chains) is at most ``rhat_max`` and its bulk effective
  sample size is at least ``ess_min`` (Vehtari et al. 2021; both from arviz-stats). The largest
  integrated autocorrelation time on the panel then sets the thinning: boards of one chain are
  two autocorrelation times apart (``thin_taus``), boards of different chains are independent
  draws. A set
  that does not converge within ``max_steps`` is an error, never a silent biased sample.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

import numpy as np

from ludolab.envs.catan.board import DESERT
from ludolab.research.catan import kernel
from ludolab.research.catan.constraint_set import ConstraintSet
from ludolab.research.catan.geometry import PIPS_TABLE, with_zero_column
from ludolab.research.catan.space import Space

# Relative weights of the move kinds, indexed as in the kernel (moves that cannot change
# anything on a set are switched off).
MOVE_NAMES = (
    "swap-tiles",
    "swap-terrain",
    "swap-tokens",
    "swap-harbors",
    "symmetry",
    "relabel-resources",
    "relabel-tokens",
    "redraw-terrain",
    "redraw-tokens",
    "redraw-harbors",
    "redraw-board",
    "carry-terrain",
)
MOVE_WEIGHTS = (8, 16, 32, 8, 4, 4, 8, 8, 2, 2, 1, 2)
# After the first half-window, a kind of move accepted less often than this is switched off
# (each kind leaves the uniform law invariant on its own, so dropping one keeps it; the
# whole-board redraw always stays, so the chain stays irreducible).
MIN_ACCEPTANCE = 0.002


class ChainError(RuntimeError):
    """The chains did not converge within their budget; the message says what was measured."""


@dataclass(frozen=True)
class ChainSettings:
    """How long and how carefully to run the chains.

    Attributes:
        chains: chains run (one after another); boards of different chains are independent.
        starts: distinct starting boards (chains share them in turn: the superchains of
            nested R-hat).
        window: steps per chain of the first burn-in window; grown by half until converged.
        max_steps: steps per chain allowed for burn-in before giving up.
        records: panel records per chain over the analysed half of a window.
        rhat_max: largest nested R-hat accepted for any panel statistic.
        ess_min: smallest bulk effective sample size accepted for any panel statistic.
        thin_taus: boards of one chain are this many autocorrelation times apart. One is not
            enough: draws one integrated autocorrelation time apart are still correlated (for
            a slowly mixing statistic with geometric decay, by about e^-2 = 0.14; on the
            seed's 96 tile layouts, 5.4% of consecutive boards of a chain were the same board,
            where independent draws repeat 1.0% of the time); two leave about e^-4 = 0.02.
    """

    chains: int = 32
    starts: int = 8
    window: int = 4_000
    max_steps: int = 4_096_000
    records: int = 250
    rhat_max: float = 1.01
    ess_min: float = 400.0
    thin_taus: float = 2.0


@dataclass
class ChainDiagnostics:
    """What the chains did and how well they mixed (for reports and provenance).

    Attributes:
        chains / starts: chains run, distinct starting boards.
        burn_in: steps per chain before the first board was taken.
        thin: steps per chain between two boards taken from one chain.
        steps: steps per chain in all.
        max_rhat / min_ess: the worst panel values at the end of burn-in.
        worst: the panel statistic with the largest R-hat.
        tau: the largest integrated autocorrelation time on the panel, in steps.
        acceptance: share of proposals accepted, per move kind.
        terrain_list: terrain layouts the terrain redraws drew from (0: fair shuffles).
        moves_off: kinds of move switched off after the first half-window (accepted less than
            ``MIN_ACCEPTANCE`` of the time there).
        from_burn_in: boards per chain taken from the analysed half of the last burn-in window
            (``thin`` steps apart, like the boards after it).
    """

    chains: int
    starts: int
    burn_in: int = 0
    thin: int = 0
    steps: int = 0
    max_rhat: float = math.nan
    min_ess: float = math.nan
    worst: str = ""
    tau: float = math.nan
    acceptance: dict[str, float] = field(default_factory=dict)
    terrain_list: int = 0
    moves_off: list[str] = field(default_factory=list)
    from_burn_in: int = 0

    def as_dict(self) -> dict:
        return asdict(self)

    def summary(self) -> str:
        return (
            f"MCMC, {self.chains} chains from {self.starts} starts: burn-in {self.burn_in:,} "
            f"steps, nested R-hat <= {self.max_rhat:.3f} (worst: {self.worst}), bulk ESS >= "
            f"{self.min_ess:,.0f}, autocorrelation time {self.tau:,.0f} steps, one board per "
            f"{self.thin:,} steps of a chain ({self.from_burn_in} per chain from the analysed "
            f"half of the burn-in)"
        )


def kernel_moves(
    space: Space, terrain_list: np.ndarray | None, weights: tuple[int, ...] = MOVE_WEIGHTS
) -> kernel.Moves:
    """The kernel's move table for ``space``: which kinds are on (with ``weights``), and the
    data they draw from."""
    geo = space.geo
    tiles, tokens, harbors = space.multisets
    given_tokens = space.tokens_given
    on = {
        "swap-tiles": space.terrain and not given_tokens,
        "swap-terrain": space.terrain,
        "swap-tokens": space.numbers,
        "swap-harbors": space.harbors,
        "symmetry": space.terrain and not given_tokens and len(geo.symmetries) > 1,
        "relabel-resources": space.terrain and bool(_equal_count_pairs(tiles)),
        "relabel-tokens": space.numbers and bool(_equal_count_pairs(tokens)),
        "redraw-terrain": space.terrain and not given_tokens,
        "redraw-tokens": space.numbers,
        "redraw-harbors": space.harbors,
        "redraw-board": space.terrain or space.numbers or space.harbors,
        "carry-terrain": space.terrain and space.numbers and not given_tokens,
    }
    weights = [w if on[name] else 0 for name, w in zip(MOVE_NAMES, weights, strict=True)]
    flat_list = (
        b"" if terrain_list is None else np.ascontiguousarray(terrain_list, np.uint8).tobytes()
    )
    return kernel.Moves(
        list(weights),
        DESERT,
        tiles,
        tokens,
        harbors,
        [int(x) for x in geo.symmetries.ravel()],
        space.symmetry_safe,
        [x for pair in _equal_count_pairs(tiles) for x in pair],
        [x for pair in _equal_count_pairs(tokens) for x in pair],
        flat_list,
        space.terrain,
        space.numbers,
        space.harbors,
        given_tokens,
    )


def _equal_count_pairs(values: list[int]) -> list[tuple[int, int]]:
    """Pairs of codes a < b that occur equally often in ``values``."""
    counts = np.bincount(values)
    codes = np.flatnonzero(counts)
    return [(int(a), int(b)) for a in codes for b in codes if a < b and counts[a] == counts[b]]


# ----------------------------------------------------------------------------------------------
# The panel: statistics whose mixing is measured


class Panel:
    """Scalar statistics of boards, recorded along the chains.

    Position-free summaries (pairs of equal resources, the richest intersection, each
    resource's pips, where the desert is) and position-sensitive ones (fixed random linear
    projections of each terrain's and the tokens' placement, which rotations and swaps move),
    so that a chain stuck in one region of the board space shows in some statistic.
    """

    def __init__(self, space: Space) -> None:
        geo = space.geo
        self.geo, self.space = geo, space
        weights = np.random.default_rng(20_191_119)  # fixed: the panel is part of the method
        n = geo.layout.n_hexes
        self.terrain_weights = weights.normal(size=(6, n))
        self.pip_weights = weights.normal(size=(2, n))
        self.harbor_weights = weights.normal(size=(2, len(geo.layout.harbor_slots)))
        names: list[str] = []
        if space.terrain:
            names += ["equal-resource pairs", "desert on the coast", "desert in the centre"]
            names += [f"terrain projection {k}" for k in range(6)]
        if space.numbers:
            names += ["richest intersection (pips)", "pips on the coast"]
            names += [f"pips of resource {r}" for r in range(5)]
            names += [f"pip projection {k}" for k in range(2)]
        if space.harbors:
            names += [f"harbor projection {k}" for k in range(2)]
        self.names = names

    def __call__(self, terrain: np.ndarray, numbers: np.ndarray, harbors: np.ndarray) -> np.ndarray:
        """(B, n_stats) float values of a batch of boards."""
        g, cols = self.geo, []
        t = terrain
        if self.space.terrain:
            adj = g.adjacent
            cols.append((t[:, adj[:, 0]] == t[:, adj[:, 1]]).sum(axis=1))
            desert_ring = g.ring[np.argmax(t == DESERT, axis=1)]
            cols += [desert_ring == g.ring.max(), desert_ring == 0]
            cols += [((t == k) * w).sum(axis=1) for k, w in enumerate(self.terrain_weights)]
        if self.space.numbers:
            pips = PIPS_TABLE[numbers]
            sums = PIPS_TABLE[with_zero_column(numbers)][:, g.intersections].sum(axis=2)
            cols += [sums.max(axis=1), (pips * (g.ring == g.ring.max())).sum(axis=1)]
            cols += [(pips * (t == r)).sum(axis=1) for r in range(5)]
            cols += [(pips * w).sum(axis=1) for w in self.pip_weights]
        if self.space.harbors:
            cols += [(harbors * w).sum(axis=1) for w in self.harbor_weights]
        return np.stack([np.asarray(c, dtype=float) for c in cols], axis=1)


# ----------------------------------------------------------------------------------------------


@dataclass
class _Chain:
    t: list[int]
    n: list[int]
    hb: list[int]
    rng: kernel.Random


def run_chains(
    cset: ConstraintSet,
    n: int,
    starts: np.ndarray,
    rng: np.random.Generator,
    *,
    settings: ChainSettings = ChainSettings(),
    terrain_list: np.ndarray | None = None,
    status: Callable[[str], None] | None = None,
) -> tuple[np.ndarray, ChainDiagnostics]:
    """``n`` boards from chains started at ``starts``.

    Args:
        cset: the set (library constraints only).
        n: boards wanted.
        starts: (k, 2 * n_hexes + n_slots) boards that satisfy the set, as rows of terrain,
            tokens, harbors; chain ``c`` starts from row ``c % k`` (the chain count is rounded
            down to a multiple of ``k``).
        rng: every random choice derives from it.
        settings: chain count and budget.
        terrain_list: (m, n_hexes) every terrain layout the set's terrain-only constraints
            allow (terrain redraws then draw from it), or None.
        status: called with a line on the chains' progress (burn-in, then boards drawn).

    Returns:
        (n, 2 * n_hexes + n_slots) int8 boards (parts the chains do not move are as in the
        starts: the caller redraws them) and the diagnostics.

    Raises:
        ChainError: burn-in did not converge within ``settings.max_steps``.
    """
    space = Space.of(cset)
    ck, moves, panel = space.checker, kernel_moves(space, terrain_list), Panel(space)
    n_hexes = space.geo.layout.n_hexes
    width = starts.shape[1]
    # chains in equal groups per start (the superchains of nested R-hat)
    starts = starts[: min(len(starts), settings.chains)]
    c = settings.chains // len(starts) * len(starts)
    superchains = np.arange(c) % len(starts)
    chains = []
    for i in superchains:
        row = [int(x) for x in starts[i]]
        t, tokens, hb = row[:n_hexes], row[n_hexes : 2 * n_hexes], row[2 * n_hexes :]
        if not ck.full(t, tokens, hb):
            raise ValueError(f"{cset.label}: starting board {i} does not satisfy the set")
        chains.append(_Chain(t, tokens, hb, kernel.Random(*map(int, rng.integers(0, 2**32, 4)))))
    diag = ChainDiagnostics(
        chains=c,
        starts=len(np.unique(starts, axis=0)),
        terrain_list=0 if terrain_list is None else len(terrain_list),
    )
    if not moves.total or not panel.names:  # nothing moves: every chain keeps its start
        rows = np.array([ch.t + ch.n + ch.hb for ch in chains], dtype=np.int8)
        return rows[np.arange(n) % c], diag
    tried, taken = [0] * len(MOVE_NAMES), [0] * len(MOVE_NAMES)

    def advance(steps: int, every: int) -> list[tuple[np.ndarray, np.ndarray]]:
        """Every chain ``steps`` steps; the panel every ``every`` steps (0 = never), as one
        ((C, n_stats) values, (C, width) boards) pair per record."""
        records = []
        for ch in chains:
            buffer = bytearray()
            kernel.run_chain(
                ck, moves, ch.t, ch.n, ch.hb, ch.rng, steps, every, buffer, tried, taken
            )
            records.append(np.frombuffer(bytes(buffer), dtype=np.int8).reshape(-1, width))
        if not every:
            return []
        boards = np.concatenate(records)
        h = n_hexes
        values = panel(boards[:, :h], boards[:, h : 2 * h], boards[:, 2 * h :])
        values = values.reshape(c, -1, values.shape[1])
        boards = boards.reshape(c, -1, width)
        return [(values[:, k], boards[:, k]) for k in range(values.shape[1])]

    # Burn-in: the window grows by half until the second half of it passes the diagnostics.
    # The panel is recorded every `every` steps from the start; when the records pass twice
    # their target number, every other one is dropped and `every` doubles.
    every = max(1, settings.window // (2 * settings.records))
    done = settings.window // 4
    advance(done, 0)
    # Moves that (almost) never succeed on this set only cost time: switch them off.
    kept = tuple(
        w if name == "redraw-board" or not tried[k] or taken[k] >= MIN_ACCEPTANCE * tried[k] else 0
        for k, (name, w) in enumerate(zip(MOVE_NAMES, MOVE_WEIGHTS, strict=True))
    )
    moves = kernel_moves(space, terrain_list, kept)
    diag.moves_off = [
        name for name, w, base in zip(MOVE_NAMES, kept, MOVE_WEIGHTS, strict=True) if base and not w
    ]
    record: list[tuple[int, np.ndarray, np.ndarray]] = []  # (step, panel values, boards)
    window = settings.window
    say = status or (lambda line: None)
    while True:
        say(f"{c} chains, burn-in {window:,} steps each")
        for k, (values, boards) in enumerate(advance(window - done, every), 1):
            record.append((done + k * every, values, boards))
        done = window
        if len(record) > 2 * settings.records:
            record, every = record[1::2], every * 2
        recent = [values for step, values, _ in record if step > window // 2]
        history = np.stack(recent, axis=2)  # (C, n_stats, draws)
        rhat, ess = _rhat_ess(history, superchains)
        diag.max_rhat, diag.min_ess = float(np.max(rhat)), float(np.min(ess))
        diag.worst = panel.names[int(np.argmax(rhat))]
        if diag.max_rhat <= settings.rhat_max and diag.min_ess >= settings.ess_min:
            break
        if window * 1.5 > settings.max_steps:
            raise ChainError(
                f"{cset.label}: the Markov chains did not converge in {window:,} steps per "
                f"chain ({c} chains): nested R-hat of '{diag.worst}' is {diag.max_rhat:.3f} "
                f"(needs <= {settings.rhat_max}), smallest bulk ESS {diag.min_ess:,.0f} (needs "
                f">= {settings.ess_min:,.0f}). The set may have regions the moves cannot "
                f"connect; loosen the set, or use --sampler solver (fast, not uniform)."
            )
        window = int(window * 1.5)
        window += (-window) % every  # whole records
    draws = history.shape[0] * history.shape[2]
    diag.tau = float(np.max(draws / ess)) * every  # records are `every` steps apart
    diag.burn_in = window
    diag.thin = max(1, math.ceil(settings.thin_taus * diag.tau))
    # The boards of the analysed half-window are draws like those after it (the diagnostics
    # were computed on them): keep those `thin` steps apart, the newest first
    # (the chains' present states, from which they go on).
    batches = []
    last = window + diag.thin
    for step, _, boards in reversed(record):
        if step <= window // 2 or len(batches) * c >= n:
            break
        if last - step >= diag.thin:
            batches.append(boards)
            last = step
    diag.from_burn_in = len(batches)
    extra = 0
    while len(batches) * c < n:
        say(f"{c} chains, {len(batches) * c:,} of {n:,} boards (thinning {diag.thin:,})")
        advance(diag.thin, 0)
        extra += 1
        batches.append(np.array([ch.t + ch.n + ch.hb for ch in chains], dtype=np.int8))
    diag.steps = window + diag.thin * extra
    diag.acceptance = {
        name: round(taken[k] / tried[k], 4) for k, name in enumerate(MOVE_NAMES) if tried[k]
    }
    return np.concatenate(batches)[:n], diag


def _rhat_ess(history: np.ndarray, superchains: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Nested rank-normalised R-hat and bulk ESS per statistic of (C, n_stats, draws) values.

    Nested R-hat compares groups of chains that share a starting board; with one chain per
    start it is the usual split R-hat. A statistic that never varies has R-hat 1 and full ESS;
    one that is constant within each chain but differs between chains (chains that never moved)
    has R-hat infinity.
    """
    from arviz_stats.base import array_stats

    x = np.moveaxis(history, 1, 0)  # (n_stats, C, draws)
    moving = (x.max(axis=2) > x.min(axis=2)).any(axis=1)  # exact: no rounding of a variance
    overall = x.reshape(len(x), -1)
    rhat = np.ones(len(x))
    ess = np.full(len(x), float(x.shape[1] * x.shape[2]))
    if moving.any():
        if len(np.unique(superchains)) < len(superchains):
            rhat[moving] = array_stats.rhat_nested(
                x[moving], superchain_ids=superchains, chain_axis=-2, draw_axis=-1
            )
        else:
            rhat[moving] = array_stats.rhat(x[moving], chain_axis=-2, draw_axis=-1)
        ess[moving] = array_stats.ess(x[moving], chain_axis=-2, draw_axis=-1)
    stuck = ~moving & (overall.max(axis=1) > overall.min(axis=1))
    rhat[stuck], ess[stuck] = np.inf, 1.0
    return rhat, ess
