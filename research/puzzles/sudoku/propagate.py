"""The hardness ladder: five propagation strengths for the all-different model of Sudoku.

The model: one variable per cell with domain ``1..n`` (a bitmask, bit ``v - 1`` = value ``v``),
clues fixed, and an all-different constraint on each row, column and box (``3n``
constraints; no redundant constraints). Each level is a propagator per unit, run by a queue
until no unit changes anything (a fixpoint); none of them ever branches. In order of strength
(as in Simonis, *Sudoku as a constraint problem*, 2005, and the seed's Val/Bnd/Dom/BS/DS):

``val``  value consistency (forward checking): a fixed cell removes its value from the other
         cells of the unit. Finds *naked singles* only.
``bnd``  ``val``, then bounds consistency: Hall intervals -- a range ``[a, b]`` of values
         holding the whole ``[min, max]`` range of ``b - a + 1`` cells -- push the bounds of
         the other cells out of ``[a, b]``; holes inside a domain are ignored (the bounds(Z)
         relaxation). Fails when a range holds more cells than values.
``dom``  ``val``, then domain consistency (generalised arc consistency), by Regin's matching
         algorithm: a maximum matching of cells to values, then a value stays in a cell's
         domain only if some maximum matching uses it (it is matched, lies on an alternating
         cycle, or on an alternating path from a free value). This is all Hall-set reasoning
         (naked and hidden subsets of every size) at once.
``bs``   bounds shaving on top of ``dom``: for each cell, try its smallest and largest value,
         propagate at ``dom``; a value whose trial fails is removed. Repeated until a whole
         pass removes nothing.
``ds``   domain shaving (singleton arc consistency over ``dom``): the same, trying every value
         of every domain.

Each stronger level reaches a fixpoint contained in (never larger than) the weaker one's: GAC
implies bounds(Z) consistency, which (with ``val`` included, as Gecode's bounds propagator does)
implies value consistency; shaving only ever removes values after ``dom``'s fixpoint, and
``ds`` tries a superset of ``bs``'s trials. So from a weaker level's fixpoint the stronger level
reaches the same fixpoint as from the start (:func:`propagate` accepts any starting domains),
which the classifier uses to climb the ladder incrementally.

Every function takes a list of bitmask domains and either narrows it in place and returns
True, or returns False when some domain is wiped out (no solution).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ludolab.research.puzzles import PuzzleError
from ludolab.research.puzzles.sudoku.grid import Geometry, Grid, geometry

LEVELS: tuple[str, ...] = ("val", "bnd", "dom", "bs", "ds")
"""The propagation levels, weakest first."""
TAGS: tuple[str, ...] = (*LEVELS, "search")
"""Hardness tags: the weakest level that solves a puzzle, or ``search``."""

UnitPropagator = Callable[[list[int], tuple[int, ...]], "list[int] | None"]


# ------------------------------------------------------------------------------ unit propagators


def _val_unit(doms: list[int], unit: tuple[int, ...]) -> list[int] | None:
    """Value consistency on one unit, to its own fixpoint. The changed cells, or None."""
    changed: list[int] = []
    while True:
        fixed = 0
        for cell in unit:
            d = doms[cell]
            if not d & (d - 1):
                if fixed & d:
                    return None  # two cells fixed to one value
                fixed |= d
        again = False
        keep = ~fixed
        for cell in unit:
            d = doms[cell]
            if d & (d - 1) and d & fixed:
                d &= keep
                if not d:
                    return None
                doms[cell] = d
                changed.append(cell)
                if not d & (d - 1):
                    again = True
        if not again:
            return changed


def _range_mask(a: int, b: int) -> int:
    """Bits ``a..b`` (0-based values) set."""
    return (1 << (b + 1)) - (1 << a)


def _bnd_unit(doms: list[int], unit: tuple[int, ...]) -> list[int] | None:
    """``val`` then bounds consistency by Hall intervals, to the unit's fixpoint."""
    changed = _val_unit(doms, unit)
    if changed is None:
        return None
    while True:
        los: list[int] = []
        his: list[int] = []
        for cell in unit:
            d = doms[cell]
            los.append((d & -d).bit_length() - 1)
            his.append(d.bit_length() - 1)
        pruned = False
        for a in sorted(set(los)):
            inside = sorted(h for lo, h in zip(los, his, strict=True) if lo >= a)
            for j, b in enumerate(inside):
                if j + 1 < len(inside) and inside[j + 1] == b:
                    continue  # count all cells ending at b first
                count, width = j + 1, b - a + 1
                if count > width:
                    return None  # more cells than values in [a, b]
                if count < width:
                    continue
                # Hall interval [a, b]: the cells inside it use all its values.
                mask = _range_mask(a, b)
                for i, cell in enumerate(unit):
                    lo, hi = los[i], his[i]
                    if (lo >= a and hi <= b) or not (a <= lo <= b or a <= hi <= b):
                        continue  # inside the interval, or no bound in it
                    d = doms[cell] & ~mask
                    if not d:
                        return None
                    doms[cell] = d
                    changed.append(cell)
                    pruned = True
                if pruned:
                    break
            if pruned:
                break
        if not pruned:
            return changed
        more = _val_unit(doms, unit)
        if more is None:
            return None
        changed.extend(more)


def _dom_unit(doms: list[int], unit: tuple[int, ...]) -> list[int] | None:
    """``val`` then generalised arc consistency by Regin's algorithm, to the unit's fixpoint."""
    changed = _val_unit(doms, unit)
    if changed is None:
        return None
    while True:
        cells = [c for c in unit if doms[c] & (doms[c] - 1)]
        k = len(cells)
        if k < 2:
            return changed
        ds = [doms[c] for c in cells]
        # Maximum matching (Kuhn's augmenting paths over bitmasks), greedy start.
        owner: dict[int, int] = {}
        mate = [0] * k
        for i, d in enumerate(ds):
            while d:
                bit = d & -d
                if bit not in owner:
                    owner[bit] = i
                    mate[i] = bit
                    break
                d ^= bit
        for i in range(k):
            if not mate[i] and not _augment(i, ds, owner, mate, [0]):
                return None  # fewer values than cells: some Hall set is overfull
        # Var graph: i -> j when i could take j's matched value.
        union = 0
        out = [0] * k
        for i, d in enumerate(ds):
            union |= d
            d &= ~mate[i]
            o = 0
            while d:
                bit = d & -d
                j = owner.get(bit)
                if j is not None:
                    o |= 1 << j
                d ^= bit
            out[i] = o
        reach = list(out)  # transitive closure (Warshall over bitsets)
        for m in range(k):
            bm, rm = 1 << m, reach[m]
            for i in range(k):
                if reach[i] & bm:
                    reach[i] |= rm
        free = union & ~sum(mate)
        g = 0
        if free:
            for i, d in enumerate(ds):
                if d & free:
                    g |= 1 << i
        f = g
        if g:
            for i in range(k):
                if reach[i] & g:
                    f |= 1 << i
        pruned = False
        for i in range(k):
            keep = mate[i] | (ds[i] & free)
            o = out[i]
            bi = 1 << i
            while o:
                bj = o & -o
                j = bj.bit_length() - 1
                if f & bj or reach[j] & bi:
                    keep |= mate[j]
                o ^= bj
            if keep != ds[i]:
                doms[cells[i]] = keep
                changed.append(cells[i])
                pruned = True
        if not pruned:
            return changed
        more = _val_unit(doms, unit)
        if more is None:
            return None
        changed.extend(more)


def _augment(
    i: int, ds: list[int], owner: dict[int, int], mate: list[int], seen: list[int]
) -> bool:
    """Find an augmenting path from cell ``i`` (``seen[0]``: values visited); update the
    matching in place."""
    d = ds[i] & ~seen[0]
    while d:
        bit = d & -d
        d ^= bit
        seen[0] |= bit
        j = owner.get(bit)
        if j is None or _augment(j, ds, owner, mate, seen):
            owner[bit] = i
            mate[i] = bit
            return True
    return False


UNIT_PROPAGATORS: dict[str, UnitPropagator] = {"val": _val_unit, "bnd": _bnd_unit, "dom": _dom_unit}


# ------------------------------------------------------------------------------ fixpoint engine


def fixpoint(
    doms: list[int], geo: Geometry, unit_prop: UnitPropagator, units: Iterable[int] | None = None
) -> bool:
    """Run ``unit_prop`` over a queue of units (all, or ``units``) until none changes anything.

    A unit is queued again when a cell of it changed elsewhere; each unit propagator reaches
    its own fixpoint, so a unit is not requeued for its own changes.
    """
    all_units = geo.units
    cell_units = geo.cell_units
    queue = list(range(len(all_units))) if units is None else list(dict.fromkeys(units))
    queued = [False] * len(all_units)
    for u in queue:
        queued[u] = True
    head = 0
    while head < len(queue):
        u = queue[head]
        head += 1
        queued[u] = False
        changed = unit_prop(doms, all_units[u])
        if changed is None:
            return False
        for cell in changed:
            for u2 in cell_units[cell]:
                if not queued[u2] and u2 != u:
                    queued[u2] = True
                    queue.append(u2)
        if head > 4096:  # keep the list short on long runs
            queue = queue[head:]
            head = 0
    return True


def _shave(doms: list[int], geo: Geometry, bounds_only: bool) -> bool:
    """Shaving over ``dom``: singleton trials, to a fixpoint (module docstring)."""
    if not fixpoint(doms, geo, _dom_unit):
        return False
    cell_units = geo.cell_units
    # Values known to be in a solution of the current domains: a trial that ends with every
    # cell fixed *is* a solution, and it stays one as domains shrink (propagation is sound),
    # so its values need no trial of their own.
    supported = [0] * geo.cells
    while True:
        removed = False
        for cell in range(geo.cells):
            d = doms[cell]
            if not d & (d - 1):
                continue
            if bounds_only:
                hi = 1 << (d.bit_length() - 1)
                trials = [d & -d, hi]
            else:
                trials = []
                while d:
                    trials.append(d & -d)
                    d &= d - 1
            for bit in trials:
                if not doms[cell] & bit or supported[cell] & bit:
                    continue
                trial = list(doms)
                trial[cell] = bit
                if fixpoint(trial, geo, _dom_unit, cell_units[cell]):
                    if all(not t & (t - 1) for t in trial):
                        for c, t in enumerate(trial):
                            supported[c] |= t
                    continue
                nd = doms[cell] & ~bit
                if not nd:
                    return False
                doms[cell] = nd
                removed = True
                if not fixpoint(doms, geo, _dom_unit, cell_units[cell]):
                    return False
        if not removed:
            return True


def propagate(doms: list[int], n: int, level: str) -> bool:
    """Narrow ``doms`` (in place) to the fixpoint of ``level``; False if a domain empties."""
    geo = geometry(n)
    if level in UNIT_PROPAGATORS:
        return fixpoint(doms, geo, UNIT_PROPAGATORS[level])
    if level == "bs":
        return _shave(doms, geo, bounds_only=True)
    if level == "ds":
        return _shave(doms, geo, bounds_only=False)
    raise PuzzleError(f"level {level!r}: must be one of {', '.join(LEVELS)}")


def initial_domains(grid: Grid, n: int) -> list[int]:
    """Bitmask domains of a puzzle before any propagation: clues fixed, other cells full."""
    full = geometry(n).full
    return [1 << (v - 1) if v else full for v in grid]


def propagate_grid(grid: Grid, n: int, level: str) -> list[int] | None:
    """The ``level`` fixpoint of a puzzle from scratch (None: inconsistent)."""
    doms = initial_domains(grid, n)
    return doms if propagate(doms, n, level) else None


def candidates(doms: list[int]) -> int:
    """Total number of values left over all cells (``n * n`` when solved)."""
    return sum(d.bit_count() for d in doms)


def is_solved(doms: list[int]) -> bool:
    """Every domain a single value."""
    return all(not d & (d - 1) for d in doms)
