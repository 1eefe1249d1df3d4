"""Board samplers: where the boards of a constraint set come from, and from which distribution.

* ``uniform``   exact uniform draws from the boards that satisfy the set: rejection from a fair
                shuffle, checked by the Python faces, many thousands of shuffles per numpy call.
                Staged: the terrain is tested before tokens are drawn for it, and so on. This is
                still plain rejection (a rejected board is redrawn whole), so it stays uniform.
* ``solver``    randomised Gecode search (flatten once, then one fzn-gecode run per batch of
                draws). Fast for tight sets, NOT uniform: the search order shapes the draws.
* ``enumerate`` every board of the set (the parts it constrains), in the solver's order.
* ``optimise``  the best board for an objective within a time limit.

Board parts that no constraint reads are filled by a fair shuffle in every sampler, so that a
tile-only set still yields complete boards.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field

import numpy as np

from envs.catan.board import DESERT, HARBOR_TYPES, TERRAINS, Board, shuffled_board
from research.catan.constraint_set import ConstraintSet
from research.catan.constraints import OBJECTIVES
from research.catan.geometry import layout_arrays
from research.catan.model import SEARCH_DEFAULT, SEARCH_RANDOM, board_model, model_parts
from research.solve import Status, UnknownResult, compile_model, solve

HANG_SECONDS = 60.0  # a solver run this long is taken to be stuck (see sample_solver)
SAMPLERS = ("uniform", "solver", "enumerate", "optimise")


class SamplingError(RuntimeError):
    """A sampler cannot deliver (e.g. the uniform acceptance rate is too low)."""


@dataclass
class SampleReport:
    """What a sampler did, for the summary and the provenance of the boards."""

    sampler: str
    uniform: bool
    seconds: float = 0.0
    draws: int = 0  # uniform: shuffles tried
    accepted: int = 0
    solver_runs: int = 0
    exhausted: bool | None = None  # enumerate: every solution was listed
    optimal: bool | None = None  # optimise: proven optimal
    objective: float | None = None
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


def sample_uniform(
    cset: ConstraintSet,
    n: int,
    rng: np.random.Generator,
    *,
    batch: int = 65_536,
    max_draws: int = 50_000_000,
    enumerate_limit: int = 100_000,
    enumerate_seconds: float = 10.0,
) -> tuple[list[Board], SampleReport]:
    """``n`` boards drawn uniformly from the boards that satisfy ``cset``.

    Rejection from fair shuffles first. When the acceptance rate is too low, falls back to an
    exact alternative for small spaces: enumerate the set's constrained parts (at most
    ``enumerate_limit`` solutions) and draw uniformly from the list, the free parts shuffled.

    Raises :class:`SamplingError` when the set has raw MiniZinc (no Python face), or when
    rejection is too slow and the space is too large to enumerate.
    """
    try:
        return _rejection(cset, n, rng, batch=batch, max_draws=max_draws)
    except SamplingError as too_slow:
        if not model_parts(cset):
            raise
        start = time.perf_counter()
        try:
            listed, report = enumerate_boards(
                cset, rng, limit=enumerate_limit + 1, time_limit=enumerate_seconds
            )
        except UnknownResult:
            listed, report = [], SampleReport("enumerate", uniform=False, exhausted=False)
        if not report.exhausted or len(listed) > enumerate_limit:
            raise SamplingError(
                f"{too_slow} Nor can the space be enumerated to draw from (more than "
                f"{enumerate_limit:,} boards, or not listed within {enumerate_seconds:.0f} s)."
            ) from None
        picks = rng.integers(0, len(listed), size=n)
        parts = model_parts(cset)
        boards = _fill(cset, [_as_solution(listed[i], parts) for i in picks], rng)
        report = SampleReport(
            "uniform",
            uniform=True,
            solver_runs=1,
            seconds=time.perf_counter() - start,
            notes=[
                f"rejection acceptance too low; drew uniformly from the "
                f"{len(listed)} enumerated solutions of the constrained "
                f"parts ({', '.join(model_parts(cset))})"
            ],
        )
        return boards, report


def _as_solution(board: Board, parts: tuple[str, ...]) -> dict:
    """The decided parts of a board, keyed as the MiniZinc model names them."""
    values = {
        "terrain": ("terrain", board.terrain),
        "numbers": ("number", board.numbers),
        "harbors": ("harbor", board.harbors),
    }
    return {values[p][0]: list(values[p][1]) for p in parts}


def _rejection(
    cset: ConstraintSet, n: int, rng: np.random.Generator, *, batch: int, max_draws: int
) -> tuple[list[Board], SampleReport]:
    if not cset.has_python_faces:
        raise SamplingError(
            f"{cset.label} contains raw MiniZinc constraints, which have no "
            f"Python face; the uniform sampler cannot check them. Use "
            f"--sampler solver."
        )
    report = SampleReport("uniform", uniform=True)
    start = time.perf_counter()
    shuffle = Shuffle(cset.layout)
    fixed = cset.fixed
    stage = {
        part: [c for c in cset.constraints if _stage_of(c.reads) == part]
        for part in ("terrain", "numbers", "harbors")
    }
    out_t, out_n, out_h = [], [], []
    got = 0
    while got < n:
        if report.draws >= max_draws:
            raise _too_slow(cset, n, got, report)
        b = batch
        t = _given(fixed, "terrain", b) if "terrain" in fixed else shuffle.draw_terrain(rng, b)
        report.draws += b
        t = t[_passes(stage["terrain"], t, None, None)]
        num = (
            _given(fixed, "numbers", len(t)) if "numbers" in fixed else shuffle.draw_numbers(rng, t)
        )
        keep = ((num == 0) == (t == DESERT)).all(axis=1) & _passes(stage["numbers"], t, num, None)
        t, num = t[keep], num[keep]
        har = (
            _given(fixed, "harbors", len(t))
            if "harbors" in fixed
            else shuffle.draw_harbors(rng, len(t))
        )
        keep = _passes(stage["harbors"], t, num, har)
        out_t.append(t[keep])
        out_n.append(num[keep])
        out_h.append(har[keep])
        got += int(keep.sum())
        if report.draws >= 2_000_000 and got == 0 and not fixed:
            raise _too_slow(cset, n, got, report)
    terrain, numbers, harbors = (np.concatenate(a)[:n] for a in (out_t, out_n, out_h))
    report.accepted = got
    report.seconds = time.perf_counter() - start
    return to_boards(terrain, numbers, harbors, cset.layout), report


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
        f"{cset.label}: uniform rejection sampling is too slow: {detail}. Use --sampler solver "
        f"(randomised search, fast but not uniform), raise --max-draws, or loosen the set."
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
) -> tuple[list[Board], SampleReport]:
    """``n`` boards from randomised Gecode search: flatten once, then fzn-gecode with seeds.

    Each fzn-gecode run asks for up to ``per_run`` randomised draws (Gecode restarts its search
    after every solution, and on a Luby sequence of failure cutoffs ``luby_scale`` x 1, 1, 2,
    1, 1, 2, 4, ..., so that a tight set cannot trap it in a huge empty subtree); the next run
    starts afresh with a new seed from ``rng``. ``run_seconds`` additionally stops a run after
    that much wall-clock time, at the price of reproducibility (what a run finds in time
    depends on the machine), so it is off by default. ``time_limit`` bounds the whole call:
    past it the sampler gives up with an error rather than returning other boards.
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
    compiled = compile_model(
        board_model(cset, search=SEARCH_RANDOM), label=cset.label, model_name=f"{cset.name}.mzn"
    )
    solutions: list[dict] = []
    while len(solutions) < n:
        elapsed = time.perf_counter() - start
        if report.solver_runs >= max_runs or (time_limit is not None and elapsed > time_limit):
            raise SamplingError(
                f"{cset.label}: the solver sampler found {len(solutions)} of {n} "
                f"boards in {elapsed:.0f} s ({report.solver_runs} runs); raise "
                f"--time-limit or loosen the set"
            )
        seed = int(rng.integers(0, 2**31 - 2))
        want = min(per_run, n - len(solutions))
        with contextlib.suppress(UnknownResult):  # nothing within the limit: next seed
            # Gecode 6.2.0 can hang inside global_cardinality, ignoring -t; a generous
            # wall-clock bound kills such a run, and a cut-short run is dropped whole so that
            # the boards stay a function of the seed.
            drawn = compiled.sample(
                seed, n=want, time_limit=run_seconds or HANG_SECONDS, luby_scale=luby_scale
            )
            if run_seconds is not None or len(drawn) == want:
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
    result = solve(
        board_model(cset, search=SEARCH_DEFAULT),
        all_solutions=limit is None,
        n_solutions=limit,
        time_limit=time_limit,
        label=cset.label,
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
    result = solve(
        board_model(opt_set, objective=obj),
        time_limit=time_limit,
        label=cset.label,
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

    from research.catan.constraint_set import RawMiniZinc

    if {"terrain", "numbers"} <= cset.reads:
        return cset
    return replace(cset, raw=(*cset.raw, RawMiniZinc("true", frozenset({"terrain", "numbers"}))))
