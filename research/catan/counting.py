"""How many boards satisfy a constraint set, and what share of fair shuffles that is.

Three methods, tried in this order, each reporting what it is:

* **depth-first** (exact), at once when the set's space is small (``quick_nodes``);
* **rejection** (an estimate with an exact interval): when a pilot of fair shuffles finds the
  set common enough (at least ``min_hits`` boards), the share of fair shuffles that satisfy it
  is the binomial proportion of a large sample, with its Clopper-Pearson 95% interval;
* **depth-first** (exact): the kernel lists the set over the parts it constrains, when that
  finishes within ``max_nodes`` search nodes;
* **importance sampling** (an estimate with a normal 95% interval): random descents of the
  depth-first search tree, each weighed by the product of the numbers of choices it met
  (Knuth's estimator of a tree's size: unbiased); when the terrain layouts the set's
  terrain-only constraints allow can be listed, each descent starts from one of them, drawn
  uniformly. Its interval relies on the mean of many descents being near normal; the number of
  descents that reached a board is reported beside it.

Boards are complete boards: parts no constraint reads multiply the count by the number of their
arrangements. The share of fair shuffles is the count over all arrangements (terrain, tokens,
harbors), and the tightness is -log10 of the share.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ludolab.envs.catan.board import DESERT
from ludolab.research.catan import kernel, terrain_listing
from ludolab.research.catan.catalog import COUNT_METHODS as COUNT_METHODS  # re-exported
from ludolab.research.catan.catalog import CountSettings
from ludolab.research.catan.constraint_set import ConstraintSet
from ludolab.research.catan.feasibility import check_possible
from ludolab.research.catan.samplers import (
    SamplingError,
    _Rejection,
    no_board_found,
    try_to_prove_impossible,
)
from ludolab.research.catan.space import Space, enumerate_space, multinomial, terrain_layouts


@dataclass
class Count:
    """How many boards satisfy a set.

    Attributes:
        constraint_set: its name.
        method: "rejection", "depth-first" or "terrain sample".
        exact: whether ``boards`` is exact.
        boards: complete boards that satisfy the set (an estimate unless ``exact``).
        low / high: its 95% interval (equal to ``boards`` when exact).
        total: all complete boards (fair shuffles are uniform over them).
        constrained: the parts the set constrains; ``constrained_count``: boards over those
            parts alone (the seed's "96 tile layouts"), exact or estimated like ``boards``.
        free: each part no constraint reads, with its number of arrangements.
        terrain_layouts: terrain layouts the set's terrain-only constraints allow, when listed.
        detail: what the method did (draws and hits, nodes, terrains sampled).
    """

    constraint_set: str
    method: str
    exact: bool
    boards: float
    low: float
    high: float
    total: int
    constrained: tuple[str, ...]
    constrained_count: float
    free: dict[str, int] = field(default_factory=dict)
    terrain_layouts: int | None = None
    detail: str = ""
    seconds: float = 0.0

    @property
    def share(self) -> float:
        return self.boards / self.total

    @property
    def tightness(self) -> float:
        """-log10 of the share of fair shuffles that satisfy the set (0 = no constraint)."""
        return max(0.0, -math.log10(self.share)) if self.boards > 0 else math.inf

    def summary(self) -> str:
        def num(x: float) -> str:
            return f"{x:,.0f}" if x < 1e9 else f"{x:.4g}"

        if self.exact:
            boards = f"{num(self.boards)} (exact)"
            share = f"{self.share:.4g}"
        else:
            boards = f"{num(self.boards)} (95% interval {num(self.low)} to {num(self.high)})"
            low, high = self.low / self.total, self.high / self.total
            share = f"{self.share:.3g} (95% {low:.3g} to {high:.3g})"
        parts = " x ".join(self.constrained) or "nothing"
        lines = [
            f"{self.constraint_set}: {self.method}{' (exact)' if self.exact else ''}, "
            f"{self.detail}, {self.seconds:.1f} s",
            f"  boards that satisfy it: {boards}",
            f"  over the constrained parts ({parts}): {num(self.constrained_count)}",
        ]
        for part, k in self.free.items():
            lines.append(f"  free part, any of its arrangements: {part} ({num(k)})")
        if self.terrain_layouts is not None:
            lines.append(
                f"  terrain layouts the terrain-only constraints allow: {num(self.terrain_layouts)}"
            )
        tight = "inf" if self.boards == 0 else f"{self.tightness:.2f}"
        lines.append(f"  share of fair shuffles: {share}; tightness -log10(share) = {tight}")
        return "\n".join(lines)


def count_boards(
    cset: ConstraintSet,
    rng: np.random.Generator,
    settings: CountSettings | None = None,
    method: str = "auto",
    status: Callable[[str], None] | None = None,
) -> Count:
    """Count the boards that satisfy ``cset`` (see the module docstring for the methods).

    ``method``: ``auto`` (the first that applies, in the order above), or one of
    ``rejection``, ``depth-first`` (no node limit), ``importance`` to force it. ``status`` is
    called with a line on the long steps' progress (a listing by terrain layout).
    """
    settings = settings or CountSettings()
    check_possible(cset)
    if not cset.has_python_faces:
        raise SamplingError(
            f"{cset.label} contains raw MiniZinc constraints, which have no Python face; "
            f"counting needs library constraints (`ludolab constraints list`). For a small set, "
            f"`ludolab generate catan -c SET --sampler enumerate -o FILE` lists every board with "
            f"Gecode, and says whether the list is complete."
        )
    start = time.perf_counter()
    space = Space.of(cset)
    tiles, tokens, harbors = space.multisets
    arrangements = {
        "terrain": multinomial(tiles),
        "tokens": multinomial(tokens),
        "harbors": multinomial(harbors),
    }
    total = math.prod(arrangements.values())
    given = {
        "terrain": "terrain" in cset.fixed,
        "tokens": "numbers" in cset.fixed,
        "harbors": "harbors" in cset.fixed,
    }
    searched = {"terrain": space.terrain, "tokens": space.numbers, "harbors": space.harbors}
    free = {p: k for p, k in arrangements.items() if not searched[p] and not given[p]}
    multiplier = math.prod(free.values())
    constrained = tuple(p for p in arrangements if searched[p])

    def result(
        method: str,
        exact: bool,
        value: float,
        low: float,
        high: float,
        detail: str,
        terrain_layouts: int | None = None,
    ) -> Count:
        return Count(
            cset.name,
            method,
            exact,
            value * multiplier,
            low * multiplier,
            high * multiplier,
            total,
            constrained,
            value,
            free,
            terrain_layouts,
            detail,
            time.perf_counter() - start,
        )

    if not cset.constraints:
        return result("no constraint", True, 1, 1, 1, "every board satisfies it")
    if method == "auto":  # a small space is counted exactly at once
        quick = enumerate_space(space, keep=0, node_limit=settings.quick_nodes)
        if quick.exhausted:
            return result(
                "depth-first",
                True,
                quick.count,
                quick.count,
                quick.count,
                f"{quick.nodes:,} search nodes",
            )
    pilot = _Rejection(cset, rng, keep=False)
    if method in ("auto", "rejection"):
        pilot.run(settings.pilot_draws + 1, settings.pilot_draws)
    if pilot.accepted >= settings.min_hits or method == "rejection":
        pilot.run(settings.draws + 1, settings.draws)
        from scipy.stats import binomtest

        interval = binomtest(pilot.accepted, pilot.draws).proportion_ci(method="exact")
        low, high = interval.low, interval.high
        p = pilot.accepted / pilot.draws
        per_free = total / multiplier
        return result(
            "rejection",
            False,
            p * per_free,
            low * per_free,
            high * per_free,
            f"{pilot.accepted:,} of {pilot.draws:,} fair shuffles satisfy it",
        )
    terrains = None
    if space.terrain and space.terrain_only().cset.constraints and (space.numbers or space.harbors):
        terrains = terrain_layouts(
            space, limit=settings.terrain_limit, node_limit=settings.list_nodes * 10
        )
    to_list = terrain_listing.layouts(space, terrains)
    if method in ("auto", "depth-first") and to_list is not None:
        by_terrain = terrain_listing.list_by_terrain(
            space,
            to_list,
            keep=settings.terrain_limit,
            node_limit=0 if method == "depth-first" else settings.by_terrain_nodes,
            board_limit=0 if method == "depth-first" else settings.terrain_limit,
            status=status,
        )
        if by_terrain.exhausted:
            how = (
                "read from the cache folder"
                if by_terrain.cached
                else f"{by_terrain.nodes:,} search nodes"
            )
            return result(
                "depth-first by terrain layout",
                True,
                by_terrain.count,
                by_terrain.count,
                by_terrain.count,
                f"tokens listed on {_layouts_phrase(len(to_list))} ({how})",
                None if terrains is None else len(terrains),
            )
    if method in ("auto", "depth-first"):
        limit = 0 if method == "depth-first" else settings.list_nodes
        listing = enumerate_space(space, keep=0, node_limit=limit)
    if method == "depth-first" or (method == "auto" and listing.exhausted):
        return result(
            "depth-first",
            True,
            listing.count,
            listing.count,
            listing.count,
            f"{listing.nodes:,} search nodes",
        )
    if not pilot.accepted:  # nothing found so far: a quick proof may spare a long estimate
        try_to_prove_impossible(cset)
    return _descents(cset, space, terrains, rng, settings, result)


def _descents(cset, space: Space, terrains: np.ndarray | None, rng, settings, result):
    """Estimate the count by random descents of the search tree (Knuth's estimator): each
    descent picks, at every node, one of the values forward checking leaves, uniformly, and
    weighs the board it reaches by the product of the numbers of choices; the mean weight is an
    unbiased estimate of the number of boards. When the terrain layouts are listed, a descent
    starts from one of them drawn uniformly (weight times the list size) and searches the rest."""
    tiles, tokens, harbors = space.multisets
    t0, n0, h0 = space.template()
    if terrains is not None:
        search = kernel.Search(
            space.checker,
            DESERT,
            tiles,
            tokens,
            harbors,
            False,
            space.numbers,
            space.harbors,
            False,
        )
    else:
        search = space.search()
    batches: list[np.ndarray] = []
    hits = 0
    start = time.perf_counter()
    while hits < settings.min_descent_hits:
        elapsed = time.perf_counter() - start
        if not hits and batches and elapsed >= settings.first_board_seconds:
            done = sum(len(b) for b in batches)
            # (Gecode had its chance to prove the set impossible before the descents.)
            raise no_board_found(
                cset, elapsed, f"{done:,} random descents of its search tree", prove=False
            )
        if sum(len(b) for b in batches) >= settings.max_descents:
            done = sum(len(b) for b in batches)
            raise SamplingError(
                f"{cset.label}: only {hits} of {done:,} random descents reached a board; the "
                f"estimate needs {settings.min_descent_hits:,} (its interval is unreliable "
                f"with fewer); raise --max-descents"
            )
        weights = np.zeros(settings.descents)
        for i in range(settings.descents):
            seeds = [int(x) for x in rng.integers(0, 2**32, 4)]
            t, n, hb = list(t0), list(n0), list(h0)
            scale = 1.0
            if terrains is not None:
                t = [int(x) for x in terrains[rng.integers(len(terrains))]]
                n = _placeholder_tokens(t, tokens)
                scale = float(len(terrains))
            weights[i] = scale * search.descend(t, n, hb, kernel.Random(*seeds))
        batches.append(weights)
        hits += int((weights > 0).sum())
    weights = np.concatenate(batches)
    k = len(weights)
    mean = weights.mean()
    half = 1.96 * weights.std(ddof=1) / math.sqrt(k)
    where = "" if terrains is None else f" from the {len(terrains):,} listed terrain layouts"
    return result(
        "importance sampling",
        False,
        mean,
        max(mean - half, 0.0),
        mean + half,
        f"{k:,} random descents{where} (Knuth's estimator), {hits:,} reached a board, relative "
        f"standard error {half / 1.96 / mean:.1%}",
        None if terrains is None else len(terrains),
    )


def _placeholder_tokens(terrain: list[int], tokens: list[int]) -> list[int]:
    it = iter(tokens)
    return [0 if x == DESERT else next(it) for x in terrain]


def _with_terrain(cset: ConstraintSet, terrain: list[int]) -> ConstraintSet:
    """The set with its terrain given (a ``fixed`` constraint added)."""
    from dataclasses import replace

    from ludolab.envs.catan.board import TERRAINS
    from ludolab.research.catan.constraints import make_constraint

    fixed = make_constraint("fixed", cset.layout, terrain=[TERRAINS[t] for t in terrain])
    return replace(cset, constraints=(*cset.constraints, fixed))


def _layouts_phrase(k: int) -> str:
    return "its one terrain layout" if k == 1 else f"each of its {k:,} terrain layouts"
