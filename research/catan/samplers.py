"""Board samplers: where the boards of a constraint set come from, and from which distribution.

* ``uniform``   uniform draws from the boards that satisfy the set, whatever its tightness; the
                method is chosen per set and reported:
                - *rejection* (exact): fair shuffles kept when every Python face accepts them,
                  when a pilot shows that enough of them do;
                - *enumeration* (exact): every board of the set listed depth-first (the
                  kernel), when the list is small, and draws from it;
                - *mcmc*: Markov chains whose stationary law is uniform, run until their
                  convergence diagnostics pass (:mod:`ludolab.research.catan.chain`), otherwise.
                Never the solver: a set that none of these can handle is an error that says why.
* ``rejection``, ``chain``: one of the methods above, forced.
* ``solver``    randomised Gecode search (flatten once, then one fzn-gecode run per batch of
                draws). Fast for tight sets, NOT uniform: the search order shapes the draws.
                Only on request, e.g. for raw MiniZinc constraints (no Python face).
* ``enumerate`` every board of the set (the parts it constrains), in the solver's order.
* ``optimise``  the best board for an objective within a time limit.

Board parts that no constraint reads are filled by a fair shuffle in every sampler, so that a
tile-only set still yields complete boards.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ludolab.envs.catan.board import DESERT, HARBOR_TYPES, TERRAINS, Board, shuffled_board
from ludolab.research.catan import terrain_listing
from ludolab.research.catan.catalog import FIRST_BOARD_SECONDS
from ludolab.research.catan.catalog import (
    SAMPLERS as SAMPLERS,  # re-exported: its home before catalog
)
from ludolab.research.catan.chain import ChainError, ChainSettings, run_chains
from ludolab.research.catan.constraint_set import ConstraintSet
from ludolab.research.catan.constraints import OBJECTIVES
from ludolab.research.catan.geometry import layout_arrays
from ludolab.research.catan.model import SEARCH_DEFAULT, SEARCH_RANDOM, board_model, model_parts
from ludolab.research.catan.space import Space, enumerate_space, random_boards, terrain_layouts
from ludolab.research.solve import (
    SolveResult,
    Status,
    UnknownResult,
    Unsatisfiable,
    compile_model,
    solve,
)

HANG_SECONDS = 60.0  # a solver run this long is taken to be stuck (see sample_solver)
START_TRIES = 200  # random depth-first searches for the chains' starting boards, in all
QUICK_TRIES = 10  # of them, tried before Gecode is asked whether the set has a board at all
PROOF_SECONDS = 10.0  # Gecode's complete search, tried once to prove such a set impossible
UNIFORM_METHODS = ("rejection", "enumeration", "mcmc")


class SamplingError(RuntimeError):
    """A sampler cannot deliver (e.g. the uniform acceptance rate is too low)."""


class ImpossibleSet(SamplingError):
    """A constraint set provably has no board; the message gives the proof."""


def no_board_found(
    cset: ConstraintSet, seconds: float, searched: str, *, prove: bool = True
) -> SamplingError:
    """The error for a set in which ``searched`` (e.g. "the solver's randomised search") found
    no board in ``seconds``. With ``prove``, Gecode's complete search first gets
    :data:`PROOF_SECONDS` to prove the set impossible: :class:`ImpossibleSet` when it does, else
    an error that says the set may be impossible and how to settle it."""
    settle = (
        "To settle it, count its boards exactly with `ludolab count -c SET --method "
        "depth-first` (no budget; it may take long); to search longer, raise the time limit "
        "(--time-limit; in an experiment config, the condition's time_limit)."
    )
    if not prove:
        return SamplingError(
            f"{cset.label}: no board found in {seconds:.0f} s ({searched}); the set may be "
            f"impossible. {settle}"
        )
    try:
        found = try_to_prove_impossible(
            cset, before=f"{searched} found none in {seconds:.0f} s, and "
        )
    except ImpossibleSet as proof:
        return proof
    if not found:
        return SamplingError(
            f"{cset.label}: no board found in {seconds:.0f} s ({searched}); the set may be "
            f"impossible (Gecode's complete search could not prove it either way in "
            f"{PROOF_SECONDS:.0f} s). {settle}"
        )
    return SamplingError(
        f"{cset.label}: no board found in {seconds:.0f} s ({searched}), though the set has "
        f"boards (Gecode found one): it is very tight. Raise the time limit (--time-limit, or "
        f"a condition's time_limit), or use the solver sampler (fast, NOT uniform)."
    )


@dataclass
class SampleReport:
    """What a sampler did, for the summary and the provenance of the boards.

    ``method`` is what drew the boards (``rejection``, ``enumeration``, ``mcmc``, ``solver``,
    ``enumerate``, ``optimise``); ``uniform`` whether they are uniform draws from the boards that
    satisfy the set (exactly, or by Markov chains whose diagnostics passed: ``chain``).
    """

    sampler: str
    uniform: bool
    method: str = ""
    seconds: float = 0.0
    draws: int = 0  # uniform: shuffles tried
    accepted: int = 0
    solver_runs: int = 0
    exhausted: bool | None = None  # enumerate: every solution was listed
    optimal: bool | None = None  # optimise: proven optimal
    objective: float | None = None
    chain: dict | None = None  # mcmc: ChainDiagnostics.as_dict()
    notes: list[str] = field(default_factory=list)

    @property
    def acceptance(self) -> float | None:
        return self.accepted / self.draws if self.draws else None


class Shuffle:
    """Fair shuffles of a layout's parts, as integer arrays (batch first)."""

    def __init__(self, layout: str = "standard") -> None:
        lay = layout_arrays(layout).layout
        self.terrain = np.repeat(
            np.arange(len(TERRAINS), dtype=np.int8),
            [lay.resource_counts.get(t, 0) for t in TERRAINS],
        )
        values = sorted(lay.number_counts)
        self.tokens = np.repeat(
            np.array(values, dtype=np.int8), [lay.number_counts[v] for v in values]
        )
        self.harbors = np.repeat(
            np.arange(len(HARBOR_TYPES), dtype=np.int8),
            [lay.harbor_counts.get(h, 0) for h in HARBOR_TYPES],
        )

    def draw_terrain(self, rng: np.random.Generator, b: int) -> np.ndarray:
        """(b, n_hexes) uniform arrangements of the terrain tiles."""
        return rng.permuted(np.broadcast_to(self.terrain, (b, self.terrain.size)), axis=1)

    def draw_numbers(self, rng: np.random.Generator, terrain: np.ndarray) -> np.ndarray:
        """(b, n_hexes) tokens shuffled onto the producing hexes of each terrain row."""
        b = terrain.shape[0]
        tokens = rng.permuted(np.broadcast_to(self.tokens, (b, self.tokens.size)), axis=1)
        producing = np.argsort(terrain == DESERT, axis=1, kind="stable")[:, : self.tokens.size]
        numbers = np.zeros(terrain.shape, dtype=np.int8)
        np.put_along_axis(numbers, producing, tokens, axis=1)
        return numbers

    def draw_harbors(self, rng: np.random.Generator, b: int) -> np.ndarray:
        """(b, n_slots) uniform arrangements of the harbor types."""
        return rng.permuted(np.broadcast_to(self.harbors, (b, self.harbors.size)), axis=1)


def to_boards(
    terrain: np.ndarray, numbers: np.ndarray, harbors: np.ndarray, layout: str
) -> list[Board]:
    """Boards from (B, ...) integer arrays; the robber starts on the desert."""
    robber = np.argmax(terrain == DESERT, axis=1)
    return [
        Board(tuple(t), tuple(n), tuple(h), int(r), layout)
        for t, n, h, r in zip(
            terrain.tolist(), numbers.tolist(), harbors.tolist(), robber.tolist(), strict=True
        )
    ]


def fair_board(seed: int, layout: str = "standard") -> Board:
    """One fair shuffle of tiles, tokens and harbors (the ``random`` set), from ``seed``."""
    return shuffled_board(np.random.default_rng(seed), layout)


# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class UniformSettings:
    """Budgets of the uniform sampler.

    Attributes:
        pilot_draws: fair shuffles a rejection pilot tries before another method is considered.
        max_draws: fair shuffles rejection may try in all.
        list_nodes: depth-first search nodes spent trying to list the whole set (exact draws
            from the list when it completes).
        list_limit: boards such a list may hold.
        by_terrain_nodes: search nodes spent listing the set terrain layout by terrain layout
            (sets over terrain and tokens whose terrain layouts can be listed); one layout
            may take at most ``terrain_listing.LAYOUT_SLACK`` times its share of them.
        terrain_nodes / terrain_limit: the same for the list of terrain layouts the set's
            terrain-only constraints allow (the chains' terrain redraws draw from it).
        chain: the Markov chains' settings.
        start_seconds: bounds the solver's search for the chains' starting boards, when the
            rejection pilot and random depth-first searches found too few (None:
            :data:`FIRST_BOARD_SECONDS`, after which a set with no board found stops with an
            error that says it may be impossible).
    """

    pilot_draws: int = 1_000_000
    max_draws: int = 50_000_000
    list_nodes: int = 300_000
    list_limit: int = 1_000_000
    by_terrain_nodes: int = 50_000_000
    terrain_nodes: int = 30_000_000
    terrain_limit: int = 1_000_000
    chain: ChainSettings = ChainSettings()
    start_seconds: float | None = None


def sample_uniform(
    cset: ConstraintSet,
    n: int,
    rng: np.random.Generator,
    *,
    method: str = "auto",
    settings: UniformSettings = UniformSettings(),
    status: Callable[[str], None] | None = None,
) -> tuple[list[Board], SampleReport]:
    """``n`` boards drawn uniformly from the boards that satisfy ``cset``.

    Args:
        method: ``auto`` (exact rejection when a pilot shows it is quick enough, else an exact
            list when the set is small enough to list, else Markov chains), or ``rejection`` or
            ``chain`` to force one.
        status: called with a line on what the sampler is doing (for a live status line).

    Raises :class:`SamplingError` when the set has raw MiniZinc (no Python face), when it has no
    board at all, when forced rejection is too slow, or when the chains do not converge.
    """
    if not cset.has_python_faces:
        raise SamplingError(
            f"{cset.label} contains raw MiniZinc constraints, which have no Python face: the "
            f"uniform samplers cannot check them. Express them with library constraints "
            f"(`ludolab constraints list`), or use --sampler solver (fast, NOT uniform)."
        )
    say = status or (lambda line: None)
    start = time.perf_counter()
    pilot = _Rejection(cset, rng)
    if method != "chain":
        budget = settings.max_draws if method == "rejection" else settings.pilot_draws
        say("rejection from fair shuffles (a pilot)")
        pilot.run(n, budget, hopeless_beyond=settings.max_draws if method == "auto" else 0)
        if method == "auto" and pilot.accepted and pilot.accepted < n:
            need = (n - pilot.accepted) * pilot.draws / pilot.accepted
            if pilot.draws + need <= settings.max_draws:
                say(f"rejection: about {pilot.draws + need:,.0f} fair shuffles to try")
                pilot.run(n, settings.max_draws)
        if pilot.accepted >= n:
            return pilot.boards(n), pilot.report(time.perf_counter() - start)
        if method == "rejection":
            raise _too_slow(cset, n, pilot.accepted, pilot.report(0.0))
    space = Space.of(cset)
    say("listing the set's terrain layouts")
    terrain_list = _terrain_list(space, pilot, settings)
    if terrain_list is not None and not len(terrain_list):
        raise ImpossibleSet(
            f"{cset.label} has no board: its constraints on the terrain alone allow no terrain "
            f"layout (a complete depth-first listing found none). Loosen the set."
        )
    exact_list = space.parts == ("terrain",) and not space.tokens_given
    if method == "auto" and exact_list and terrain_list is not None:
        t, tokens, harbors = space.template()
        pool = np.tile(np.array(t + tokens + harbors, dtype=np.int8), (len(terrain_list), 1))
        pool[:, : space.geo.layout.n_hexes] = terrain_list
        what = "terrain layouts of the set, listed depth-first"
        return _from_list(space, pool, what, n, rng, start)
    terrains = terrain_listing.layouts(space, terrain_list)
    if method == "auto" and terrains is not None:
        say("listing every board of the set, terrain layout by terrain layout")
        by_terrain = terrain_listing.list_by_terrain(
            space,
            terrains,
            keep=settings.list_limit,
            node_limit=settings.by_terrain_nodes,
            board_limit=settings.list_limit,
            status=say,
        )
        if by_terrain.exhausted:
            if not by_terrain.count:
                raise ImpossibleSet(
                    f"{cset.label} has no board: a complete depth-first listing found none. "
                    f"Loosen the set."
                )
            how = (
                "read from the cache folder"
                if by_terrain.cached
                else f"listed in {by_terrain.seconds:.1f} s and kept in the cache folder"
            )
            what = (
                f"boards of the set ({' and '.join(space.parts)}) over its "
                f"{by_terrain.layouts:,} terrain layout{'s' * (by_terrain.layouts > 1)}, {how}"
            )
            return _from_list(space, by_terrain.boards, what, n, rng, start)
    # A set with many tile layouts and more parts to place has far more boards than a list
    # could hold: no point trying to list it. (With the tokens given, the terrain is all
    # there is to place, under rules the terrain list does not hold: worth trying.)
    more_parts = space.numbers or space.harbors
    many_layouts = (
        more_parts and terrain_list is not None and len(terrain_list) * 10 > settings.list_limit
    )
    if method == "auto" and not many_layouts:
        say("trying to list every board of the set")
        listing = enumerate_space(space, keep=settings.list_limit, node_limit=settings.list_nodes)
        if listing.exhausted:
            if not listing.count:
                raise ImpossibleSet(
                    f"{cset.label} has no board: a complete depth-first listing found none. "
                    f"Loosen the set."
                )
            if listing.count <= settings.list_limit:
                what = f"boards of the set (over {', '.join(space.parts)}), listed depth-first"
                return _from_list(space, listing.boards, what, n, rng, start)
    say("Markov chains: finding starting boards")
    starts = _starts(
        cset, space, pilot, settings.chain.starts, rng, settings.start_seconds, since=start
    )
    try:
        rows, diag = run_chains(
            cset,
            n,
            starts,
            rng,
            settings=settings.chain,
            terrain_list=terrain_list,
            status=lambda line: say(f"Markov chains: {line}"),
        )
    except ChainError as exc:
        raise SamplingError(str(exc)) from None
    notes = [diag.summary()]
    if pilot.draws:
        notes.append(
            f"rejection would be too slow: {pilot.accepted} of {pilot.draws:,} fair shuffles "
            f"satisfied the set"
        )
    if terrain_list is not None:
        notes.append(f"terrain redraws from the {len(terrain_list):,} layouts the set allows")
    report = SampleReport(
        "uniform",
        uniform=True,
        method="mcmc",
        seconds=time.perf_counter() - start,
        chain=diag.as_dict(),
        notes=notes,
    )
    return _complete(space, rows, rng), report


def _from_list(
    space: Space, pool: np.ndarray, what: str, n: int, rng: np.random.Generator, start: float
) -> tuple[list[Board], SampleReport]:
    """``n`` exact uniform draws (with replacement) from every board of the set, ``pool``."""
    rows = pool[rng.integers(0, len(pool), size=n)]
    report = SampleReport(
        "uniform",
        uniform=True,
        method="enumeration",
        seconds=time.perf_counter() - start,
        exhausted=True,
        notes=[f"exact: drew uniformly from all {len(pool):,} {what}"],
    )
    return _complete(space, rows, rng), report


def _terrain_list(space: Space, pilot: _Rejection, settings: UniformSettings) -> np.ndarray | None:
    """Every terrain layout the set's terrain-only constraints allow, when they are few enough
    to list, else None. The rejection pilot's terrain stage says whether to try: a share of
    fair terrains passing that puts the list far above the limit skips it."""
    if not space.terrain or not space.terrain_only().cset.constraints:
        return None
    if pilot.draws and pilot.terrain_passes / pilot.draws * space.terrain_layouts > (
        4 * settings.terrain_limit
    ):
        return None
    return terrain_layouts(space, limit=settings.terrain_limit, node_limit=settings.terrain_nodes)


def _starts(
    cset: ConstraintSet,
    space: Space,
    pilot: _Rejection,
    k: int,
    rng: np.random.Generator,
    seconds: float | None = None,
    since: float | None = None,
) -> np.ndarray:
    """Up to ``k`` distinct starting boards for the chains: exact draws from the rejection pilot
    first, then random depth-first searches, then the solver. ``seconds`` bounds the solver (the
    user's time limit); without it, a solver that has no board yet to go on stops after what is
    left of :data:`FIRST_BOARD_SECONDS` (counted from ``since``, when the sampler started, as
    ``time.perf_counter``), and once some board was found it searches as long as it takes, as
    it always did (so that the boards of a satisfiable set do not depend on the machine)."""
    start = time.perf_counter() if since is None else since
    rows = [r for r in pilot.rows()[:k]]
    # Random depth-first searches, in two goes that consume ``rng`` exactly as one would: when
    # the first few find nothing either, Gecode gets a chance to prove the set impossible
    # before the long rest (a proof is quick; on a satisfiable tight set the search is not).
    for tries in (QUICK_TRIES, START_TRIES - QUICK_TRIES):
        if len(rows) < k:
            rows += list(random_boards(space, k - len(rows), rng, tries=tries))
        if not rows and tries == QUICK_TRIES:
            try_to_prove_impossible(cset)
    if len(rows) < k:
        left = max(FIRST_BOARD_SECONDS - (time.perf_counter() - start), PROOF_SECONDS)
        try:
            boards, _ = sample_solver(
                cset,
                k - len(rows),
                rng,
                per_run=k - len(rows),
                time_limit=seconds,
                first_board_seconds=None if rows else left,
                prove=False,  # tried above, before the searches
            )
            rows += [np.array([*b.terrain, *b.numbers, *b.harbors], dtype=np.int8) for b in boards]
        except ImpossibleSet:
            raise
        except SamplingError:
            pass  # the chains start from the boards found so far, if any
    if not rows:
        raise no_board_found(
            cset,
            time.perf_counter() - start,
            "fair shuffles, random depth-first searches and the solver, looking for the Markov "
            "chains' starting boards",
            prove=False,
        )
    return np.unique(np.array(rows, dtype=np.int8), axis=0)


def _complete(space: Space, rows: np.ndarray, rng: np.random.Generator) -> list[Board]:
    """Boards from (n, 2 * n_hexes + n_slots) rows: the parts no constraint reads (and none
    fixes) get a fair shuffle."""
    cset, h = space.cset, space.geo.layout.n_hexes
    shuffle, fixed, reads = Shuffle(cset.layout), cset.fixed, cset.reads
    terrain, numbers, harbors = rows[:, :h], rows[:, h : 2 * h], rows[:, 2 * h :]
    if not space.terrain and "terrain" not in fixed:
        terrain = shuffle.draw_terrain(rng, len(rows))
    if not space.numbers and "numbers" not in fixed and "numbers" not in reads:
        numbers = shuffle.draw_numbers(rng, terrain)
    if not space.harbors and "harbors" not in fixed:
        harbors = shuffle.draw_harbors(rng, len(rows))
    return to_boards(terrain, numbers, harbors, cset.layout)


class _Rejection:
    """Rejection from fair shuffles, staged: terrain is tested before tokens are drawn for it,
    and so on. Still plain rejection (a rejected board is redrawn whole), so exactly uniform."""

    def __init__(
        self,
        cset: ConstraintSet,
        rng: np.random.Generator,
        batch: int = 65_536,
        keep: bool = True,
    ) -> None:
        self.cset, self.rng, self.batch, self.keep = cset, rng, batch, keep
        self.shuffle = Shuffle(cset.layout)
        self.stage = {
            part: [c for c in cset.constraints if _stage_of(c.reads) == part]
            for part in ("terrain", "numbers", "harbors")
        }
        self.draws = self.accepted = 0
        self.terrain_passes = 0  # shuffles whose terrain passed the terrain-only constraints
        self.seconds = 0.0
        self.kept: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    def run(self, want: int, budget: int, hopeless_beyond: int = 0) -> None:
        """Draw until ``want`` boards are accepted or ``budget`` shuffles were tried in all;
        with ``hopeless_beyond``, also stop once no shuffle was accepted and even the upper
        95% bound of the acceptance rate (3 / draws, the rule of three) puts ``want`` boards
        beyond that many shuffles."""
        start = time.perf_counter()
        fixed, shuffle, rng = self.cset.fixed, self.shuffle, self.rng
        while self.accepted < want and self.draws < budget:
            if hopeless_beyond and not self.accepted and self.draws * want > 3 * hopeless_beyond:
                break
            b = min(self.batch, budget - self.draws)
            t = _given(fixed, "terrain", b) if "terrain" in fixed else shuffle.draw_terrain(rng, b)
            self.draws += b
            t = t[_passes(self.stage["terrain"], t, None, None)]
            self.terrain_passes += len(t)
            num = (
                _given(fixed, "numbers", len(t))
                if "numbers" in fixed
                else shuffle.draw_numbers(rng, t)
            )
            keep = ((num == 0) == (t == DESERT)).all(axis=1) & _passes(
                self.stage["numbers"], t, num, None
            )
            t, num = t[keep], num[keep]
            har = (
                _given(fixed, "harbors", len(t))
                if "harbors" in fixed
                else shuffle.draw_harbors(rng, len(t))
            )
            keep = _passes(self.stage["harbors"], t, num, har)
            if self.keep:
                self.kept.append((t[keep], num[keep], har[keep]))
            self.accepted += int(keep.sum())
        self.seconds += time.perf_counter() - start

    def rows(self) -> np.ndarray:
        """The accepted boards as (k, 2 * n_hexes + n_slots) int8 rows."""
        if not self.kept:
            return np.zeros((0, 0), dtype=np.int8)
        return np.concatenate([np.concatenate(k, axis=1) for k in self.kept]).astype(np.int8)

    def boards(self, n: int) -> list[Board]:
        parts = [np.concatenate([k[i] for k in self.kept])[:n] for i in range(3)]
        return to_boards(*parts, self.cset.layout)

    def report(self, seconds: float) -> SampleReport:
        return SampleReport(
            "uniform",
            uniform=True,
            method="rejection",
            seconds=seconds,
            draws=self.draws,
            accepted=self.accepted,
            notes=["exact: fair shuffles kept when every constraint accepts them"],
        )


def _stage_of(reads: frozenset[str]) -> str:
    if "harbors" in reads:
        return "harbors"
    return "numbers" if "numbers" in reads else "terrain"


def _given(fixed: dict[str, tuple[int, ...]], part: str, b: int) -> np.ndarray:
    return np.broadcast_to(np.array(fixed[part], dtype=np.int8), (b, len(fixed[part]))).copy()


def _passes(constraints, t, num, har) -> np.ndarray:
    ok = np.ones(len(t), dtype=bool)
    for c in constraints:
        if not ok.any():
            break
        ok &= c.check(t, num, har)
    return ok


def _too_slow(cset: ConstraintSet, n: int, got: int, report: SampleReport) -> SamplingError:
    rate = got / report.draws
    if got:
        need = int((n - got) / rate)
        detail = (
            f"{got} of {report.draws:,} shuffles were accepted (rate {rate:.2e}); {n} "
            f"boards would need about {need + report.draws:,} shuffles"
        )
    else:
        detail = f"none of {report.draws:,} shuffles was accepted (rate < {1 / report.draws:.1e})"
    return SamplingError(
        f"{cset.label}: rejection sampling is too slow: {detail}. Use --sampler uniform (it "
        f"switches to Markov chains for tight sets), raise --max-draws, or loosen the set."
    )


# ----------------------------------------------------------------------------------------------


def _fill(cset: ConstraintSet, solutions: list[dict], rng: np.random.Generator) -> list[Board]:
    """Complete solver solutions: parts the model did not decide get a fair shuffle."""
    shuffle = Shuffle(cset.layout)
    fixed = cset.fixed
    b = len(solutions)
    if not b:
        return []

    def part(name: str, key: str) -> np.ndarray | None:
        if name in fixed:
            return _given(fixed, name, b)
        if key in solutions[0]:
            return np.array([s[key] for s in solutions], dtype=np.int8)
        return None

    t = part("terrain", "terrain")
    t = shuffle.draw_terrain(rng, b) if t is None else t
    num = part("numbers", "number")
    num = shuffle.draw_numbers(rng, t) if num is None else num
    har = part("harbors", "harbor")
    har = shuffle.draw_harbors(rng, b) if har is None else har
    return to_boards(t, num, har, cset.layout)


def try_to_prove_impossible(
    cset: ConstraintSet, seconds: float = PROOF_SECONDS, *, before: str = ""
) -> bool:
    """Give Gecode's complete search ``seconds`` to settle whether ``cset`` has a board: raise
    :class:`ImpossibleSet` when it proves there is none (``before`` opens the proof's words),
    else return whether it found one. Worth its flattening (0.1-0.4 s) once the cheap methods
    have found no board, before a long search."""
    start = time.perf_counter()
    try:
        solve(
            board_model(cset, search=SEARCH_DEFAULT),
            n_solutions=1,
            time_limit=seconds,
            label=cset.label,
            model_name=f"{cset.name}.mzn",
        )
    except Unsatisfiable:
        raise _proved_impossible(cset, time.perf_counter() - start, before) from None
    except UnknownResult:
        return False
    return True


def _proved_impossible(cset: ConstraintSet, seconds: float, before: str = "") -> ImpossibleSet:
    return ImpossibleSet(
        f"{cset.label} has no board: {before}MiniZinc and Gecode proved that none exists "
        f"({seconds:.1f} s). Loosen the set."
    )


def _solve_boards(cset: ConstraintSet, model: str, searched: str, **kwargs: Any) -> SolveResult:
    """:func:`~ludolab.research.solve.solve` on a board model of ``cset``, its failures said as
    a sampler says them: a proof that no board exists is :class:`ImpossibleSet`, a search that
    ended with none (``searched``, e.g. "Gecode's complete search") :func:`no_board_found`."""
    start = time.perf_counter()
    try:
        return solve(model, label=cset.label, **kwargs)
    except Unsatisfiable:
        raise _proved_impossible(cset, time.perf_counter() - start) from None
    except UnknownResult:
        raise no_board_found(cset, time.perf_counter() - start, searched, prove=False) from None


def sample_solver(
    cset: ConstraintSet,
    n: int,
    rng: np.random.Generator,
    *,
    time_limit: float | None = None,
    per_run: int = 50,
    run_seconds: float | None = None,
    luby_scale: int = 100,
    max_runs: int = 10_000,
    first_board_seconds: float | None = FIRST_BOARD_SECONDS,
    prove: bool = True,
) -> tuple[list[Board], SampleReport]:
    """``n`` boards from randomised Gecode search: flatten once, then fzn-gecode with seeds.

    Each fzn-gecode run asks for up to ``per_run`` randomised draws (Gecode restarts its search
    after every solution, and on a Luby sequence of failure cutoffs ``luby_scale`` x 1, 1, 2,
    1, 1, 2, 4, ..., so that a tight set cannot trap it in a huge empty subtree); the next run
    starts afresh with a new seed from ``rng``. ``run_seconds`` additionally stops a run after
    that much wall-clock time, at the price of reproducibility (what a run finds in time
    depends on the machine), so it is off by default. ``time_limit`` bounds the whole call:
    past it the sampler gives up with an error rather than returning other boards. Without
    it, only the search for the first board is bounded, by ``first_board_seconds`` (None: not
    at all), after which the error says the set may be impossible (``prove``: after Gecode's
    complete search had :data:`PROOF_SECONDS` to prove it).
    """
    report = SampleReport(
        "solver",
        uniform=False,
        notes=[
            "draws follow Gecode's randomised search (first-fail variable, "
            "random value, restarts), not the uniform distribution"
        ],
    )
    start = time.perf_counter()
    if not model_parts(cset) or set(model_parts(cset)) <= set(cset.fixed):
        report.notes.append("the set leaves nothing to search: boards are fair shuffles")
        boards, _ = sample_uniform(cset, n, rng)
        report.seconds = time.perf_counter() - start
        return boards, report
    try:
        compiled = compile_model(
            board_model(cset, search=SEARCH_RANDOM),
            label=cset.label,
            model_name=f"{cset.name}.mzn",
        )
    except Unsatisfiable:  # MiniZinc's flattening found the contradiction
        raise _proved_impossible(cset, time.perf_counter() - start) from None
    # Without a time limit, only the search for the first board is bounded: a set with no
    # board would otherwise keep the solver searching for ever.
    budget = first_board_seconds if time_limit is None else time_limit
    solutions: list[dict] = []
    while len(solutions) < n:
        elapsed = time.perf_counter() - start
        if not solutions and budget is not None and elapsed >= budget:
            # A limit the user gave bounds the whole call: no proof attempt past it.
            raise no_board_found(
                cset, elapsed, "the solver's randomised search", prove=prove and time_limit is None
            )
        if report.solver_runs >= max_runs or (time_limit is not None and elapsed >= time_limit):
            raise SamplingError(
                f"{cset.label}: the solver sampler found {len(solutions)} of {n} "
                f"boards in {elapsed:.0f} s ({report.solver_runs} runs); raise "
                f"--time-limit or loosen the set"
            )
        seed = int(rng.integers(0, 2**31 - 2))
        want = min(per_run, n - len(solutions))
        # Gecode 6.2.0 can hang inside global_cardinality, ignoring -t; a generous wall-clock
        # bound kills such a run, and a cut-short run is dropped whole so that the boards stay a
        # function of the seed. No run outlasts the budget that is left.
        bounded = budget is not None and (not solutions or time_limit is not None)
        left = budget - elapsed if bounded else HANG_SECONDS
        try:
            drawn = compiled.sample(
                seed,
                n=want,
                time_limit=min(run_seconds or HANG_SECONDS, max(left, 0.001)),
                luby_scale=luby_scale,
            )
        except UnknownResult:  # nothing within the limit: next seed
            drawn = []
        except Unsatisfiable:  # the run's search completed: no board exists
            raise _proved_impossible(cset, time.perf_counter() - start) from None
        if drawn and (run_seconds is not None or len(drawn) == want):
            solutions += drawn
        report.solver_runs += 1
    boards = _fill(cset, solutions, rng)
    report.seconds = time.perf_counter() - start
    return boards, report


def enumerate_boards(
    cset: ConstraintSet,
    rng: np.random.Generator,
    *,
    limit: int | None = None,
    time_limit: float | None = None,
) -> tuple[list[Board], SampleReport]:
    """Every board of ``cset`` (over the parts it constrains), up to ``limit``."""
    report = SampleReport("enumerate", uniform=False)
    start = time.perf_counter()
    model = board_model(cset, search=SEARCH_DEFAULT)
    if time_limit is None:
        # No limit: the listing may take as long as it needs once it has found a board, but a
        # set with none must not keep Gecode searching for ever. A first, bounded run says.
        _solve_boards(
            cset,
            model,
            "Gecode's complete search",
            n_solutions=1,
            time_limit=FIRST_BOARD_SECONDS,
            model_name=f"{cset.name}.mzn",
        )
    result = _solve_boards(
        cset,
        model,
        "Gecode's complete search, within --time-limit",
        all_solutions=limit is None,
        n_solutions=limit,
        time_limit=time_limit,
        model_name=f"{cset.name}.mzn",
    )
    report.exhausted = result.status == Status.ALL_SOLUTIONS
    report.solver_runs = 1
    if not report.exhausted:
        report.notes.append(
            f"stopped after {len(result.solutions)} solutions; the space was not exhausted"
        )
    free = {"terrain", "numbers", "harbors"} - set(model_parts(cset))
    if free:
        report.notes.append(
            f"parts no constraint reads ({', '.join(sorted(free))}) are fair "
            f"shuffles, one per enumerated board"
        )
    boards = _fill(cset, result.solutions, rng)
    report.seconds = time.perf_counter() - start
    return boards, report


def optimise_board(
    cset: ConstraintSet, objective: str, rng: np.random.Generator, *, time_limit: float = 10.0
) -> tuple[list[Board], SampleReport]:
    """The best board of ``cset`` for ``objective`` found within ``time_limit`` seconds."""
    if objective not in OBJECTIVES:
        raise SamplingError(f"unknown objective {objective!r}; known: {', '.join(OBJECTIVES)}")
    obj = OBJECTIVES[objective]
    report = SampleReport("optimise", uniform=False)
    start = time.perf_counter()
    opt_set = _with_numbers(cset)
    result = _solve_boards(
        cset,
        board_model(opt_set, objective=obj),
        "Gecode's optimising search, within --time-limit",
        time_limit=time_limit,
        model_name=f"{cset.name}-{objective}.mzn",
    )
    report.optimal = result.status == Status.OPTIMAL
    report.objective = result.objective
    report.solver_runs = 1
    report.notes.append(
        f"{obj.sense} {obj.name} ({obj.summary}): {result.objective}"
        f"{' (proven optimal)' if report.optimal else ' (best found in time)'}"
    )
    boards = _fill(cset, result.solutions[-1:], rng)
    report.seconds = time.perf_counter() - start
    return boards, report


def _with_numbers(cset: ConstraintSet) -> ConstraintSet:
    """Objectives read terrain and numbers: make sure the model declares them."""
    from dataclasses import replace

    from ludolab.research.catan.constraint_set import RawMiniZinc

    if {"terrain", "numbers"} <= cset.reads:
        return cset
    return replace(cset, raw=(*cset.raw, RawMiniZinc("true", frozenset({"terrain", "numbers"}))))
