"""The space of boards a constraint set allows: its rules compiled for the kernel, and
depth-first enumeration, counting and random boards over it.

A set constrains some *parts* of the board (terrain, tokens, harbors) and leaves the others to a
fair shuffle. Tokens bring the terrain with them (they sit where the desert is not). Parts a
``fixed`` constraint gives are not searched. :class:`Space` knows which parts are searched and
builds the kernel's :class:`~ludolab.research.catan.kernel.Checker` from the constraints' rules.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import os
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path

import numpy as np

from ludolab.envs.catan.board import DESERT, HARBOR_TYPES, TERRAINS
from ludolab.research.catan import kernel, listers
from ludolab.research.catan import rules as R
from ludolab.research.catan.constraint_set import ConstraintSet
from ludolab.research.catan.geometry import layout_arrays

_KIND = {"terrain": kernel.KIND_TERRAIN, "numbers": kernel.KIND_NUMBERS, "tile": kernel.KIND_TILE}
_PART = {
    "terrain": kernel.PART_TERRAIN,
    "numbers": kernel.PART_NUMBERS,
    "harbors": kernel.PART_HARBORS,
}


def multinomial(values: list[int]) -> int:
    """Distinct arrangements of a multiset: len! / prod(count!)."""
    out = math.factorial(len(values))
    for k in np.unique(values, return_counts=True)[1]:
        out //= math.factorial(int(k))
    return out


def _bytes(table: np.ndarray) -> bytes:
    return np.ascontiguousarray(table, dtype=np.uint8).tobytes()


def _merged(rules: list[R.Rule]) -> list[R.Rule]:
    """The rules, with pair rules of one kind over the same pairs merged into one rule whose
    table forbids what any of them forbids (the same verdicts, half the pair loops for sets
    such as `balanced`)."""
    out: list[R.Rule] = []
    merged: dict[tuple[str, bytes], int] = {}
    for r in rules:
        if isinstance(r, R.PairRule):
            key = (r.kind, np.ascontiguousarray(r.pairs, dtype=np.int64).tobytes())
            if key in merged:
                first = out[merged[key]]
                assert isinstance(first, R.PairRule)
                out[merged[key]] = R.PairRule(r.kind, r.pairs, first.forbidden | r.forbidden)
                continue
            merged[key] = len(out)
        out.append(r)
    return out


def checker_for(constraints: list, n_hexes: int, n_slots: int) -> kernel.Checker:
    """The kernel checker of ``constraints`` (library constraints: each gives its rules)."""
    ck = kernel.Checker(n_hexes, n_slots)
    for r in _merged([r for c in constraints for r in c.rules()]):
        if isinstance(r, (R.PairRule, R.PairCount)):
            table = r.forbidden if isinstance(r, R.PairRule) else r.counted
            lo, hi = (-1, -1) if isinstance(r, R.PairRule) else (r.lo, r.hi)
            ck.add_pair(
                _KIND[r.kind],
                R.CODE_SIZE[r.kind],
                _bytes(table),
                [int(a) for a in r.pairs[:, 0]],
                [int(b) for b in r.pairs[:, 1]],
                lo,
                hi,
            )
        elif isinstance(r, R.TripleRule):
            ck.add_triple(
                _KIND[r.kind],
                R.CODE_SIZE[r.kind],
                _bytes(r.forbidden),
                [int(h) for h in np.asarray(r.triples).ravel()],
            )
        elif isinstance(r, R.GroupSum):
            ck.add_group_sum(
                [list(g) for g in r.groups],
                list(r.constants),
                [int(w) for w in r.weights],
                int(r.hi),
            )
        elif isinstance(r, R.ResourceSum):
            ck.add_resource_sum(
                list(r.resources), [int(w) for w in r.weights], int(r.lo), int(r.hi)
            )
        elif isinstance(r, R.Unary):
            ck.add_unary(_PART[r.part], int(r.position), _bytes(r.allowed))
        elif isinstance(r, R.HarborTouch):
            ck.add_harbor_touch(bool(r.require), [list(t) for t in r.touch])
        elif isinstance(r, R.SlotPair):
            ck.add_slot_pair(
                _bytes(r.forbidden),
                [int(a) for a in r.pairs[:, 0]],
                [int(b) for b in r.pairs[:, 1]],
            )
        elif isinstance(r, R.HarborBest):
            ck.add_harbor_best([list(t) for t in r.touch], [int(w) for w in r.weights])
        else:
            raise TypeError(f"unknown rule {r!r}")
    ck.finish()
    return ck


@dataclass(frozen=True)
class Space:
    """A constraint set's board space, as the kernel sees it.

    Attributes:
        cset: the set (library constraints only: raw MiniZinc has no rules).
        terrain / numbers / harbors: the parts searched and moved (read by a constraint and not
            fixed; the terrain also whenever the tokens are searched).
    """

    cset: ConstraintSet
    terrain: bool
    numbers: bool
    harbors: bool

    @classmethod
    def of(cls, cset: ConstraintSet) -> Space:
        reads, fixed = cset.reads, cset.fixed
        numbers = "numbers" in reads and "numbers" not in fixed
        terrain = bool({"terrain", "numbers"} & reads) and "terrain" not in fixed
        harbors = "harbors" in reads and "harbors" not in fixed
        return cls(cset, terrain or (numbers and "terrain" not in fixed), numbers, harbors)

    @property
    def parts(self) -> tuple[str, ...]:
        flags = {"terrain": self.terrain, "numbers": self.numbers, "harbors": self.harbors}
        return tuple(p for p, on in flags.items() if on)

    @property
    def tokens_given(self) -> bool:
        return "numbers" in self.cset.fixed

    @cached_property
    def geo(self):  # noqa: ANN201 - LayoutArrays
        return layout_arrays(self.cset.layout)

    @cached_property
    def multisets(self) -> tuple[list[int], list[int], list[int]]:
        """The layout's terrain tiles, tokens and harbors as code lists (with repetitions)."""
        lay = self.geo.layout
        tiles = [i for i, t in enumerate(TERRAINS) for _ in range(lay.resource_counts.get(t, 0))]
        tokens = [v for v in sorted(lay.number_counts) for _ in range(lay.number_counts[v])]
        harbors = [
            i for i, h in enumerate(HARBOR_TYPES) for _ in range(lay.harbor_counts.get(h, 0))
        ]
        return tiles, tokens, harbors

    @property
    def terrain_layouts(self) -> int:
        """Arrangements of the layout's terrain tiles (19! / (4! 4! 4! 3! 3! 1!) on the standard
        board)."""
        return multinomial(self.multisets[0])

    @cached_property
    def checker(self) -> kernel.Checker:
        lay = self.geo.layout
        return checker_for(list(self.cset.constraints), lay.n_hexes, len(lay.harbor_slots))

    def search(self) -> kernel.Search:
        tiles, tokens, harbors = self.multisets
        return kernel.Search(
            self.checker,
            DESERT,
            tiles,
            tokens,
            harbors,
            self.terrain,
            self.numbers,
            self.harbors,
            self.tokens_given and self.terrain,
        )

    def template(self) -> tuple[list[int], list[int], list[int]]:
        """A board with the given parts in place and placeholders elsewhere (a valid board: the
        sorted tiles, tokens beside them, harbors in order), as the search starts from it."""
        tiles, tokens, harbors = self.multisets
        fixed = self.cset.fixed
        t = list(fixed.get("terrain", tiles))
        if "numbers" in fixed:
            n = list(fixed["numbers"])
        else:
            it = iter(tokens)
            n = [0 if x == DESERT else next(it) for x in t]
        hb = list(fixed.get("harbors", harbors))
        return t, n, hb

    @cached_property
    def symmetry_safe(self) -> list[bool]:
        """Per symmetry of the layout (``geo.symmetries``), whether it maps every rule of the
        set onto itself, so that it maps satisfying boards to satisfying boards."""
        rules = [r for c in self.cset.constraints for r in c.rules()]
        unary = [r for r in rules if isinstance(r, R.Unary) and r.part != "harbors"]
        others = [r for r in rules if not isinstance(r, R.Unary)]

        def unary_set(perm: np.ndarray) -> set:
            return {(r.part, int(perm[r.position]), r.allowed.tobytes()) for r in unary}

        identity = unary_set(np.arange(self.geo.layout.n_hexes))
        return [
            unary_set(perm) == identity and all(_maps_onto_itself(r, perm) for r in others)
            for perm in self.geo.symmetries
        ]

    def terrain_only(self) -> Space:
        """The space of the set's terrain-only constraints, searched over the terrain alone."""
        kept = tuple(c for c in self.cset.constraints if c.reads <= {"terrain"})
        return Space(replace(self.cset, constraints=kept), self.terrain, False, False)


@dataclass(frozen=True)
class Listing:
    """What a depth-first search found.

    Attributes:
        exhausted: the whole space was searched (``count`` is exact).
        count: boards found (all of them when ``exhausted``).
        boards: (k, 2 * n_hexes + n_slots) int8 rows (terrain, tokens, harbors), the first
            ``keep`` of them.
        nodes: search nodes visited.
    """

    exhausted: bool
    count: int
    boards: np.ndarray
    nodes: int


def enumerate_space(
    space: Space, *, keep: int, node_limit: int = 0, count_limit: int = 0
) -> Listing:
    """Every board of ``space`` (over its searched parts), depth-first, keeping up to ``keep``;
    stops after ``node_limit`` nodes or once more than ``count_limit`` boards were found (0 = no
    limit)."""
    search = space.search()
    t, n, hb = space.template()
    exhausted = search.run(t, n, hb, node_limit, keep, None, False, count_limit)
    width = 2 * len(t) + len(hb)
    boards = np.array(search.kept, dtype=np.int8).reshape(-1, width)
    return Listing(exhausted, search.found, boards, search.nodes)


def cache_folder() -> Path:
    """Where derived data that is costly to recompute is kept: ``$LUDOLAB_CACHE``, else
    ``$XDG_CACHE_HOME/ludolab``, else ``~/.cache/ludolab``. Deleting it only costs time."""
    if os.environ.get("LUDOLAB_CACHE"):
        return Path(os.environ["LUDOLAB_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "ludolab"


def rules_digest(space: Space, what: str) -> str:
    """A digest of ``what`` (a name and a version) and of the layout and every rule of the
    space's set: the key of derived data kept in the cache folder."""
    digest = hashlib.sha256(f"{what}/{space.cset.layout}".encode())
    for c in space.cset.constraints:
        for r in c.rules():
            digest.update(type(r).__name__.encode())
            for value in vars(r).values():
                try:
                    text = np.ascontiguousarray(np.asarray(value, dtype=object).astype(str))
                except ValueError:  # ragged (the groups of a sum): its repr says it all
                    digest.update(repr(value).encode())
                else:
                    digest.update(text.tobytes())
    return digest.hexdigest()[:32]


def terrain_layouts(space: Space, *, limit: int, node_limit: int) -> np.ndarray | None:
    """(m, n_hexes) int8: every terrain layout the set's terrain-only constraints allow, or None
    when there are more than ``limit`` or the search takes more than ``node_limit`` nodes. An
    empty list (m = 0) is a proof that those constraints allow no terrain layout at all.

    The layouts come in increasing order (hex 0 first). They are a pure function of those
    constraints' rules, so a complete list is kept in the cache folder under a digest of the
    rules, and read from there next time. Listed in C (:func:`listers.list_terrain`) when the
    rules are of the kinds it takes, else by the kernel's general search.
    """
    terrain_space = space.terrain_only()
    path = cache_folder() / f"terrain-{rules_digest(terrain_space, 'terrain-layouts/2')}.npy"
    with contextlib.suppress(OSError, ValueError):
        return np.load(path)
    tiles = space.multisets[0]
    fast = listers.list_terrain(terrain_space.checker, tiles, len(TERRAINS), limit, node_limit)
    n_hexes = space.geo.layout.n_hexes
    if fast is not None and (fast.finished or fast.found > limit):
        if not fast.finished:
            return None
        layouts = fast.rows if fast.found else np.zeros((0, n_hexes), dtype=np.int8)
    else:  # no C listing, or it ran out of nodes: the general search prunes more per node
        listing = enumerate_space(
            terrain_space, keep=limit, node_limit=node_limit, count_limit=limit
        )
        if not listing.exhausted or listing.count > limit:
            return None
        if not listing.count:
            return np.zeros((0, n_hexes), dtype=np.int8)
        layouts = listing.boards[:, :n_hexes]
        # In increasing order, as the C listing gives them: one list whichever ran.
        layouts = layouts[np.lexsort(layouts.T[::-1])].copy()
    with contextlib.suppress(OSError):
        from ludolab.research.files import write_atomic

        write_atomic(path, lambda tmp: np.save(open(tmp, "wb"), layouts))  # noqa: SIM115
    return layouts


def random_boards(
    space: Space,
    k: int,
    rng: np.random.Generator,
    *,
    tries: int = 200,
    node_limit: int = 20_000,
) -> np.ndarray:
    """Up to ``k`` boards of ``space`` from depth-first searches with random value orders (NOT
    uniform: starting points for chains). A search that takes more than ``node_limit`` nodes
    is restarted with another order (random restarts tame the long tails of such searches), at
    most ``tries`` times in all.

    Returns (k', 2 * n_hexes + n_slots) int8 rows.
    """
    out: list[list[int]] = []
    search = space.search()
    for _ in range(tries):
        if len(out) == k:
            break
        t, n, hb = space.template()
        seeds = [int(x) for x in rng.integers(0, 2**32, 4)]
        search.run(t, n, hb, node_limit, 1, kernel.Random(*seeds), True)
        if search.found:
            out.append(search.kept)
    width = 2 * space.geo.layout.n_hexes + len(space.geo.layout.harbor_slots)
    return np.array(out, dtype=np.int8).reshape(-1, width)


def _maps_onto_itself(rule: R.Rule, perm: np.ndarray) -> bool:
    """Whether moving every hex h to ``perm[h]`` leaves ``rule`` unchanged (its instances as
    sets; an instance whose table is symmetric may map onto one listed in another order).
    Unary rules are compared as a set by the caller."""
    if isinstance(rule, (R.ResourceSum, R.SlotPair)):
        return True  # no hex positions (the harbors stay when the land turns)
    if isinstance(rule, (R.PairRule, R.PairCount)):
        table = rule.forbidden if isinstance(rule, R.PairRule) else rule.counted
        pairs = np.asarray(rule.pairs)
        if not (table == table.T).all():
            return set(map(tuple, perm[pairs].tolist())) == set(map(tuple, pairs.tolist()))
        return {frozenset(p) for p in perm[pairs].tolist()} == {
            frozenset(p) for p in pairs.tolist()
        }
    if isinstance(rule, R.TripleRule):
        table, triples = rule.forbidden, np.asarray(rule.triples)
        orders = ((0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
        if all((table == table.transpose(o)).all() for o in orders):
            return {frozenset(t) for t in perm[triples].tolist()} == {
                frozenset(t) for t in triples.tolist()
            }
        return set(map(tuple, perm[triples].tolist())) == set(map(tuple, triples.tolist()))
    if isinstance(rule, R.GroupSum):
        groups = list(zip(rule.groups, rule.constants, strict=True))
        mapped = {(frozenset(perm[list(g)].tolist()), k) for g, k in groups}
        return mapped == {(frozenset(g), k) for g, k in groups}
    return False  # harbor rules: the harbors stay when the land turns
