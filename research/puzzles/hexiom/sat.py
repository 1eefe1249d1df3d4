"""Hexiom as SAT: a CNF encoding, solved by a real SAT solver through python-sat.

Variables, for every cell ``c``:

- ``occ[c]``: a tile is on ``c``;
- ``tile[c][n]``: the tile on ``c`` is ``n``, for the numbers ``n`` that can go there
  (``n`` at most the cell's neighbour count, and a tile ``n`` exists in the level).

So every cell takes exactly one of ``empty (= not occ), tile 0, tile 1, ...`` (a one-hot row).

Clauses:

- one-hot rows (at least one, pairwise at most one: rows have at most 8 entries);
- neighbour counts: per cell a small totalizer over its neighbours' ``occ`` gives unary
  outputs ``u[k] <=> (occupied neighbours >= k)`` in both directions (the seed's unary
  encoding too); ``tile[c][n] -> u[n] and not u[n + 1]``;
- tile counts: for each number, exactly as many ``tile[.][n]`` as the level has, and exactly
  as many ``occ`` as tiles (implied, but it prunes early), via `pysat.card` (sequential
  counters, the best of its encodings here; see `DEFAULT_CARD`);
- locked cells as unit clauses;
- optional symmetry breaking: for each non-identity symmetry ``g`` the level allows, the
  lex-leader constraint ``X <=lex g(X)``, where ``X`` is the board read cell by cell in
  reading order, each cell ordered empty < 0 < 1 < ... < 6. A chain of ``eq`` variables
  (``eq[i]``: the first ``i`` positions agree) gives ``eq[i] -> X[i] <= Y[i]`` and
  ``eq[i] and X[i] = Y[i] -> eq[i+1]``. Exactly one board per orbit satisfies all of them
  (its lexicographically smallest image; see `symmetry.canonical`).

Counting adds a blocking clause over the one-hot rows after each solution, so solutions are
counted as boards (equal tiles are indistinguishable), never as assignments of auxiliaries.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from pysat.card import CardEnc, EncType
from pysat.solvers import Solver

from ludolab.research.puzzles import PuzzleError
from ludolab.research.puzzles.hexiom.geometry import Symmetry, hex_grid
from ludolab.research.puzzles.hexiom.level import Board, Level
from ludolab.research.puzzles.hexiom.symmetry import allowed_symmetries

DEFAULT_SOLVER = "cadical195"
# Incremental python-sat solvers that report statistics (counting adds clauses between
# calls, which Kissat cannot do). CaDiCaL 1.9.5 is the default: fastest on level 38, the
# hardest without symmetry breaking (benchmarks/solve_hexiom.py --compare).
SAT_SOLVERS = ("cadical195", "glucose4", "minisat22", "maplechrono")
# Tile-count cardinality encoding: sequential counters have the best total over levels 36-40
# (the modulo totalizer is as fast on 36 and 38 but 8x slower on 40; sorting and cardinality
# networks 2x slower on 38; benchmarks/solve_hexiom.py --compare).
DEFAULT_CARD = EncType.seqcounter


@dataclass
class Cnf:
    """A CNF under construction: clauses as lists of DIMACS literals, `top` the last var."""

    top: int = 0
    clauses: list[list[int]] = field(default_factory=list)

    def new_var(self) -> int:
        """A fresh variable (positive int)."""
        self.top += 1
        return self.top

    def add(self, clause: Sequence[int]) -> None:
        """Add one clause."""
        self.clauses.append(list(clause))


@dataclass
class HexiomCnf:
    """The encoding of one level: the CNF and how to read a board off a model.

    `values[c]` lists ``(value, literal)`` for cell ``c``: value None (empty, literal
    ``-occ[c]``) or the tile number, in the lex order empty < 0 < 1 < ... ; exactly one of a
    cell's literals is true in every model.
    """

    level: Level
    cnf: Cnf
    values: list[list[tuple[int | None, int]]]
    symmetries: tuple[Symmetry, ...]  # the ones broken (non-identity), empty if not asked

    def decode(self, model: Sequence[int]) -> Board:
        """The board of a solver model (a list of signed literals, as python-sat returns)."""
        # python-sat models list every variable in order: model[v - 1] is +v or -v.
        board: list[int | None] = []
        for row in self.values:
            chosen = [v for v, lit in row if (model[abs(lit) - 1] > 0) == (lit > 0)]
            if len(chosen) != 1:  # cannot happen with the one-hot clauses
                raise AssertionError(f"cell {len(board)} has values {chosen} in the model")
            board.append(chosen[0])
        return tuple(board)

    def blocking_clause(self, board: Board) -> list[int]:
        """A clause that excludes exactly `board` (over the unlocked cells' one-hot rows)."""
        clause = []
        for c, row in enumerate(self.values):
            if self.level.locked[c]:
                continue
            clause += [-lit for v, lit in row if v == board[c]]
        return clause


def _unary_counter(cnf: Cnf, inputs: Sequence[int]) -> list[int]:
    """Literals ``u[1..len(inputs)]`` with ``u[k] <=> at least k inputs true`` (a totalizer).

    Both directions are encoded, so a tile's number can force neighbours on and off.
    """
    if len(inputs) == 1:
        return [inputs[0]]
    half = len(inputs) // 2
    left, right = _unary_counter(cnf, inputs[:half]), _unary_counter(cnf, inputs[half:])
    out = [cnf.new_var() for _ in range(len(inputs))]
    # Index 0 of a unary number means ">= 0", always true; None stands for that constant.
    for i in range(len(left) + 1):
        for j in range(len(right) + 1):
            a = left[i - 1] if i else None
            b = right[j - 1] if j else None
            if i + j > 0:  # left >= i and right >= j  ->  out >= i + j
                cnf.add([-x for x in (a, b) if x is not None] + [out[i + j - 1]])
            if i + j < len(inputs):  # left < i+1 and right < j+1  ->  out < i + j + 1
                na = left[i] if i < len(left) else None
                nb = right[j] if j < len(right) else None
                cnf.add([x for x in (na, nb) if x is not None] + [-out[i + j]])
    return out


def _exactly(cnf: Cnf, lits: Sequence[int], k: int, encoding: int) -> None:
    """Exactly `k` of `lits` are true."""
    if k > len(lits):
        cnf.add([])  # cannot hold: more tiles of a number than cells that can take it
        return
    if k == 0:
        for lit in lits:
            cnf.add([-lit])
        return
    if k == len(lits):
        for lit in lits:
            cnf.add([lit])
        return
    enc = CardEnc.equals(lits=list(lits), bound=k, top_id=cnf.top, encoding=encoding)
    cnf.top = max(cnf.top, enc.nv)
    cnf.clauses.extend(enc.clauses)


def _lex_leader(
    cnf: Cnf, values: list[list[tuple[int | None, int]]], level: Level, sym: Symmetry
) -> None:
    """Clauses for ``X <=lex Y`` with ``Y[i] = X[sym.perm[i]]`` (see the module doc)."""
    order = {None: 0, **{n: n + 1 for n in range(7)}}
    eq: int | None = None  # None: "the prefix so far is equal" is simply true
    positions = [
        i
        for i, j in enumerate(sym.perm)
        if i != j and not (level.locked[i] and level.locked[j])  # these always agree
    ]
    for k, i in enumerate(positions):
        j = sym.perm[i]
        guard = [] if eq is None else [-eq]
        # X[i] <= Y[i] while the prefix is equal: forbid X[i] = a > b = X[j].
        for a, la in values[i]:
            for b, lb in values[j]:
                if order[a] > order[b]:
                    cnf.add([*guard, -la, -lb])
        if k + 1 == len(positions):
            break
        nxt = cnf.new_var()
        # Equal prefix and X[i] = X[j]  ->  the prefix including i is equal.
        rows_j = dict(values[j])
        for a, la in values[i]:
            if a in rows_j:
                cnf.add([*guard, -la, -rows_j[a], nxt])
        eq = nxt


def encode(
    level: Level, *, break_symmetry: bool = False, card_encoding: int = DEFAULT_CARD
) -> HexiomCnf:
    """The CNF of `level` (with lex-leader symmetry breaking if asked)."""
    grid = hex_grid(level.side)
    counts = level.counts
    n_cells, n_tiles = level.n_cells, level.n_tiles
    cnf = Cnf()
    occ = [cnf.new_var() for _ in range(n_cells)]
    values: list[list[tuple[int | None, int]]] = []
    by_number: list[list[int]] = [[] for _ in range(7)]
    for c in range(n_cells):
        deg = len(grid.neighbours[c])
        row: list[tuple[int | None, int]] = [(None, -occ[c])]
        for n in range(min(deg, 6) + 1):
            if counts[n]:
                lit = cnf.new_var()
                row.append((n, lit))
                by_number[n].append(lit)
        values.append(row)
        lits = [lit for _, lit in row]
        cnf.add(lits)
        for a in range(len(lits)):
            for b in range(a + 1, len(lits)):
                cnf.add([-lits[a], -lits[b]])
        if level.locked[c]:
            want = level.tiles[c]
            if want is not None and want not in dict(row):
                cnf.add([])  # a locked tile that cannot fit its cell: no solution
            else:
                cnf.add([dict(row)[want]])
    for c in range(n_cells):
        nbrs = grid.neighbours[c]
        tiles = [(n, lit) for n, lit in values[c] if n is not None]
        if not tiles:
            continue
        u = _unary_counter(cnf, [occ[m] for m in nbrs])
        for n, lit in tiles:
            if n >= 1:
                cnf.add([-lit, u[n - 1]])
            if n < len(nbrs):
                cnf.add([-lit, -u[n]])
    for n in range(7):
        if by_number[n] or counts[n]:
            _exactly(cnf, by_number[n], counts[n], card_encoding)
    _exactly(cnf, occ, n_tiles, card_encoding)
    broken: tuple[Symmetry, ...] = ()
    if break_symmetry:
        broken = tuple(s for s in allowed_symmetries(level) if not s.is_identity)
        for sym in broken:
            _lex_leader(cnf, values, level, sym)
    return HexiomCnf(level, cnf, values, broken)


@dataclass(frozen=True)
class SatRun:
    """What a SAT run found: boards (1, or all when counting), and its statistics.

    `complete` is True when the search proved there are no more boards (after a full count;
    after a first-solution run only if there was none); `timed_out` when the time limit
    stopped a count. `counters` holds the
    solver's accumulated conflicts/decisions/propagations/restarts plus the CNF size;
    `build_seconds` the encoding time, `solve_seconds` the solver's own wall time.
    """

    boards: tuple[Board, ...]
    complete: bool
    timed_out: bool
    counters: dict[str, int]
    build_seconds: float
    solve_seconds: float


def solve_sat(
    level: Level,
    *,
    all_solutions: bool = False,
    break_symmetry: bool = False,
    solver: str = DEFAULT_SOLVER,
    max_solutions: int | None = None,
    time_limit: float | None = None,
    card_encoding: int = DEFAULT_CARD,
) -> SatRun:
    """Solve `level` with a python-sat solver: the first board, or all (blocking clauses).

    `max_solutions` caps counting (`complete` stays False if the cap was reached).
    `time_limit` (seconds, from the start of the search) is checked between solutions: it
    stops a long count, but not a single solver call, since CaDiCaL in python-sat cannot be
    interrupted (no level needs more than a second for one solution, see the benchmark).
    """
    if solver not in SAT_SOLVERS:
        raise PuzzleError(f"unknown SAT solver {solver!r}; choose one of {', '.join(SAT_SOLVERS)}")
    t0 = time.perf_counter()
    enc = encode(level, break_symmetry=break_symmetry, card_encoding=card_encoding)
    build = time.perf_counter() - t0
    boards: list[Board] = []
    complete = timed_out = False
    t1 = time.perf_counter()
    with Solver(name=solver, bootstrap_with=enc.cnf.clauses) as sat:
        while True:
            if not sat.solve():
                complete = True
                break
            board = enc.decode(sat.get_model())
            boards.append(board)
            if not all_solutions or (max_solutions is not None and len(boards) >= max_solutions):
                break
            if time_limit is not None and time.perf_counter() - t1 > time_limit:
                timed_out = True
                break
            block = enc.blocking_clause(board)
            if not block:  # every cell locked: this was the only board
                complete = True
                break
            sat.add_clause(block)
        stats = dict(sat.accum_stats())
    solve_seconds = time.perf_counter() - t1
    counters = {
        "variables": enc.cnf.top,
        "clauses": len(enc.cnf.clauses),
        **{k: int(v) for k, v in stats.items()},
    }
    return SatRun(tuple(boards), complete, timed_out, counters, build, solve_seconds)
