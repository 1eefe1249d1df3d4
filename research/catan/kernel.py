"""One-board checks, Markov chain steps and depth-first enumeration over constraint rules.

One concept in one file (about 1,400 lines): the constraint rules as code over one board. The
checks, the chain steps and the search share the rule tables and call each other in their inner
loops, which stay native only within one compiled module.

This module is compiled with mypyc at install time (``setup.py``), as the Catan engine is; its
Python source is the reference and runs when it is not compiled. It works on plain lists of
ints, one board at a time: terrain codes ``t`` (per hex), tokens ``n`` (per hex, 0 on the
desert) and harbor codes ``hb`` (per slot), as in :mod:`ludolab.envs.catan.board`.

:class:`Checker` holds a constraint set's rules (:mod:`ludolab.research.catan.rules`, flattened by
:func:`ludolab.research.catan.chain.checker_for`) with an index from each position to the rule
instances that read it, so that after a change only those are checked again. It checks a whole
board, a board after some positions changed, and a partial board during enumeration.

:func:`run_chain` advances one Markov chain (the moves are described in
:mod:`ludolab.research.catan.chain`); :func:`search` enumerates, counts or draws the boards of a set
depth-first. Random numbers come from xoshiro128** seeded by the caller, so that both are
reproducible from a seed the user sees.
"""

from __future__ import annotations

from typing import Final

MASK32: Final = 0xFFFFFFFF
TOKEN_CODES: Final = 13
KIND_TERRAIN: Final = 0
KIND_NUMBERS: Final = 1
KIND_TILE: Final = 2
PART_TERRAIN: Final = 0
PART_NUMBERS: Final = 1
PART_HARBORS: Final = 2


# ----------------------------------------------------------------------------------------------
# Random numbers: xoshiro128** (Blackman and Vigna), 32-bit words so that mypyc keeps every
# intermediate in a machine integer.


class Random:
    """xoshiro128** with a four-word state; ``below(k)`` is exactly uniform on 0..k-1."""

    def __init__(self, s0: int, s1: int, s2: int, s3: int) -> None:
        self.s0 = s0 & MASK32
        self.s1 = s1 & MASK32
        self.s2 = s2 & MASK32
        self.s3 = s3 & MASK32
        if not (self.s0 | self.s1 | self.s2 | self.s3):
            self.s0 = 1  # the all-zero state is a fixed point

    def next32(self) -> int:
        s1 = self.s1
        x = (s1 * 5) & MASK32
        x = ((x << 7) | (x >> 25)) & MASK32
        result = (x * 9) & MASK32
        t = (s1 << 9) & MASK32
        self.s2 ^= self.s0
        self.s3 ^= self.s1
        self.s1 ^= self.s2
        self.s0 ^= self.s3
        self.s2 ^= t
        self.s3 = ((self.s3 << 11) | (self.s3 >> 21)) & MASK32
        return result

    def below(self, k: int) -> int:
        """Uniform on 0..k-1 (rejection: no modulo bias, so swap proposals stay symmetric)."""
        limit = (MASK32 + 1) - ((MASK32 + 1) % k)
        while True:
            x = self.next32()
            if x < limit:
                return x % k

    def state(self) -> list[int]:
        return [self.s0, self.s1, self.s2, self.s3]


# ----------------------------------------------------------------------------------------------


class Checker:
    """A constraint set's rules, indexed by position, checked one board at a time.

    Build it with the ``add_*`` methods (tables are ``bytes`` of 0/1, row-major), then
    ``finish()``. Kinds: 0 terrain code, 1 token, 2 tile (terrain * 13 + token).
    """

    def __init__(self, n_hexes: int, n_slots: int) -> None:
        self.n_hexes = n_hexes
        self.n_slots = n_slots
        # pair rules (forbidden code pairs) and pair counts share the pair storage
        self.pair_kind: list[int] = []
        self.pair_size: list[int] = []
        self.pair_table: list[bytes] = []
        self.pair_a: list[list[int]] = []
        self.pair_b: list[list[int]] = []
        self.pair_lo: list[int] = []  # -1 for a forbidding rule; counts: bounds
        self.pair_hi: list[int] = []
        self.pair_same_terrain: list[bool] = []
        # triple rules
        self.tri_kind: list[int] = []
        self.tri_size: list[int] = []
        self.tri_table: list[bytes] = []
        self.tri_hexes: list[list[int]] = []  # flat, 3 per triple
        # group sums over tokens
        self.group_hexes: list[list[list[int]]] = []
        self.group_const: list[list[int]] = []
        self.group_weight: list[list[int]] = []
        self.group_hi: list[int] = []
        # per-resource sums of token weights
        self.res_list: list[list[int]] = []
        self.res_weight: list[list[int]] = []
        self.res_lo: list[int] = []
        self.res_hi: list[int] = []
        # unary: allowed tables per (part, position)
        self.unary: list[list[list[bytes]]] = [
            [[] for _ in range(n_hexes)],
            [[] for _ in range(n_hexes)],
            [[] for _ in range(n_slots)],
        ]
        # harbor touch rules
        self.touch_require: list[bool] = []
        self.touch: list[list[list[int]]] = []
        # harbor slot pairs: forbidden harbor-code pairs on pairs of slots
        self.slot_table: list[bytes] = []
        self.slot_a: list[list[int]] = []
        self.slot_b: list[list[int]] = []
        self.slot_pairs: list[list[list[int]]] = []  # [slot][rule] -> partner*2 + (slot first)
        # "no 2:1 harbor touches the best hex of its own resource" (weights: pips per token)
        self.best_touch: list[list[list[int]]] = []
        self.best_weight: list[list[int]] = []
        # indexes, built by finish()
        self.hex_pairs: list[list[list[int]]] = []  # [hex][rule] -> partner*2 + (hex is first)
        self.hex_tris: list[list[list[int]]] = []  # [hex][rule] -> triple indices
        self.hex_groups: list[list[list[int]]] = []  # [hex][rule] -> group indices
        self.hex_slots: list[list[int]] = []  # [hex] -> slots whose harbor touches it
        self.has_counts = False
        self.has_globals = False  # counts or per-resource sums: rules that read the whole board
        self.every_hex = [True] * n_hexes  # "all assigned", for checks of complete boards
        self.every_slot = [True] * n_slots

    # -- building --------------------------------------------------------------------------

    def add_pair(
        self, kind: int, size: int, table: bytes, a: list[int], b: list[int], lo: int, hi: int
    ) -> None:
        """A pair rule (``lo == -1``: no pair may hold a flagged code pair) or a pair count
        (the number of pairs holding a flagged code pair lies in lo..hi)."""
        self.pair_kind.append(kind)
        self.pair_size.append(size)
        self.pair_table.append(table)
        self.pair_a.append(a)
        self.pair_b.append(b)
        self.pair_lo.append(lo)
        self.pair_hi.append(hi)
        # A tile rule that flags only pairs of one terrain (per-resource rules) need not look
        # at partners of another terrain: the commonest case, skipped by one comparison.
        same_terrain = kind == KIND_TILE
        for code in range(len(table) if kind == KIND_TILE else 0):
            if table[code] and code // size // TOKEN_CODES != code % size // TOKEN_CODES:
                same_terrain = False
                break
        self.pair_same_terrain.append(same_terrain)
        if lo >= 0:
            self.has_counts = True
            self.has_globals = True

    def add_triple(self, kind: int, size: int, table: bytes, hexes: list[int]) -> None:
        self.tri_kind.append(kind)
        self.tri_size.append(size)
        self.tri_table.append(table)
        self.tri_hexes.append(hexes)

    def add_group_sum(
        self, groups: list[list[int]], constants: list[int], weights: list[int], hi: int
    ) -> None:
        self.group_hexes.append(groups)
        self.group_const.append(constants)
        self.group_weight.append(weights)
        self.group_hi.append(hi)

    def add_resource_sum(self, resources: list[int], weights: list[int], lo: int, hi: int) -> None:
        self.res_list.append(resources)
        self.res_weight.append(weights)
        self.res_lo.append(lo)
        self.res_hi.append(hi)
        self.has_globals = True

    def add_unary(self, part: int, position: int, allowed: bytes) -> None:
        self.unary[part][position].append(allowed)

    def add_harbor_touch(self, require: bool, touch: list[list[int]]) -> None:
        self.touch_require.append(require)
        self.touch.append(touch)

    def add_slot_pair(self, table: bytes, a: list[int], b: list[int]) -> None:
        """No pair of slots (a[i], b[i]) holds a flagged pair of harbor codes (6 x 6 table)."""
        self.slot_table.append(table)
        self.slot_a.append(a)
        self.slot_b.append(b)

    def add_harbor_best(self, touch: list[list[int]], weights: list[int]) -> None:
        """No 2:1 harbor touches a hex of its own resource whose token weighs the most among
        that resource's hexes (ties included)."""
        self.best_touch.append(touch)
        self.best_weight.append(weights)
        self.has_globals = True

    def finish(self) -> None:
        n = self.n_hexes
        self.hex_pairs = [[[] for _ in self.pair_kind] for _ in range(n)]
        for r in range(len(self.pair_kind)):
            if self.pair_lo[r] >= 0:
                continue  # counts are checked whole
            for a, b in zip(self.pair_a[r], self.pair_b[r], strict=True):
                self.hex_pairs[a][r].append(b * 2 + 1)
                self.hex_pairs[b][r].append(a * 2)
        self.hex_tris = [[[] for _ in self.tri_kind] for _ in range(n)]
        for r in range(len(self.tri_kind)):
            hexes = self.tri_hexes[r]
            for k in range(len(hexes) // 3):
                for j in range(3):
                    found = self.hex_tris[hexes[3 * k + j]][r]
                    if not found or found[-1] != k:
                        found.append(k)
        self.hex_groups = [[[] for _ in self.group_hi] for _ in range(n)]
        for r in range(len(self.group_hi)):
            for g, hexes in enumerate(self.group_hexes[r]):
                for h in hexes:
                    self.hex_groups[h][r].append(g)
        self.hex_slots = [[] for _ in range(n)]
        for r in range(len(self.touch)):
            for s, hexes in enumerate(self.touch[r]):
                for h in hexes:
                    if s not in self.hex_slots[h]:
                        self.hex_slots[h].append(s)
        self.slot_pairs = [[[] for _ in self.slot_table] for _ in range(self.n_slots)]
        for r in range(len(self.slot_table)):
            for a, b in zip(self.slot_a[r], self.slot_b[r], strict=True):
                self.slot_pairs[a][r].append(b * 2 + 1)
                self.slot_pairs[b][r].append(a * 2)

    # -- checks ----------------------------------------------------------------------------

    def full(self, t: list[int], n: list[int], hb: list[int]) -> bool:
        """Every rule on a complete board."""
        for h in range(self.n_hexes):
            if not self._hex_local(t, n, hb, h, h):
                return False
        for s in range(self.n_slots):
            if not self._slot(t, n, hb, s):
                return False
        return self._globals(t, n, hb)

    def changed(
        self, t: list[int], n: list[int], hb: list[int], hexes: list[int], slots: list[int]
    ) -> bool:
        """Every rule, on a complete board that satisfied them all before ``hexes`` and
        ``slots`` changed: only the rule instances reading a changed position are checked."""
        if hexes:
            first = hexes[0]
            for h in hexes:
                # a pair between two changed hexes is checked once, from the first of them
                if not self._hex_local(t, n, hb, h, first if h != first else -1):
                    return False
                for s in self.hex_slots[h]:
                    if not self._slot(t, n, hb, s):
                        return False
            if self.has_globals and not self._globals(t, n, hb):
                return False
        for s in slots:  # noqa: SIM110 - a plain loop compiles to a plain loop
            if not self._slot(t, n, hb, s):
                return False
        return True

    def changed2(self, t: list[int], n: list[int], hb: list[int], i: int, j: int) -> bool:
        """``changed`` after hexes ``i`` and ``j`` changed (the chains' commonest case)."""
        if not self._hex_local(t, n, hb, i, -1) or not self._hex_local(t, n, hb, j, i):
            return False
        for s in self.hex_slots[i]:
            if not self._slot(t, n, hb, s):
                return False
        for s in self.hex_slots[j]:
            if not self._slot(t, n, hb, s):
                return False
        return not self.has_globals or self._globals(t, n, hb)

    def _code(self, kind: int, t: list[int], n: list[int], h: int) -> int:
        if kind == KIND_TERRAIN:
            return t[h]
        if kind == KIND_NUMBERS:
            return n[h]
        return t[h] * TOKEN_CODES + n[h]

    def _hex_local(self, t: list[int], n: list[int], hb: list[int], h: int, skip: int) -> bool:
        """Rules at hex ``h``: its unary rules, its pairs (except with hex ``skip``, and only
        with hexes numbered above it when ``skip == h``: a full check visits each pair once),
        its triples and its groups."""
        for allowed in self.unary[PART_TERRAIN][h]:
            if not allowed[t[h]]:
                return False
        for allowed in self.unary[PART_NUMBERS][h]:
            if not allowed[n[h]]:
                return False
        pairs_here = self.hex_pairs[h]
        for r in range(len(pairs_here)):
            partners = pairs_here[r]
            if not partners:
                continue
            kind = self.pair_kind[r]
            size = self.pair_size[r]
            table = self.pair_table[r]
            if kind == KIND_TILE:
                mine = t[h] * TOKEN_CODES + n[h]
                terrain = t[h] if self.pair_same_terrain[r] else -1
                for p in partners:
                    other = p >> 1
                    if other == skip or (skip == h and other < h):
                        continue
                    if terrain >= 0 and t[other] != terrain:
                        continue
                    theirs = t[other] * TOKEN_CODES + n[other]
                    if p & 1:
                        if table[mine * size + theirs]:
                            return False
                    elif table[theirs * size + mine]:
                        return False
                continue
            values = t if kind == KIND_TERRAIN else n
            mine = values[h]
            for p in partners:
                other = p >> 1
                if other == skip or (skip == h and other < h):
                    continue
                if p & 1:
                    if table[mine * size + values[other]]:
                        return False
                elif table[values[other] * size + mine]:
                    return False
        tris_here = self.hex_tris[h]
        for r in range(len(tris_here)):
            found = tris_here[r]
            if not found:
                continue
            kind = self.tri_kind[r]
            size = self.tri_size[r]
            table = self.tri_table[r]
            hexes = self.tri_hexes[r]
            for k in found:
                a = self._code(kind, t, n, hexes[3 * k])
                b = self._code(kind, t, n, hexes[3 * k + 1])
                c = self._code(kind, t, n, hexes[3 * k + 2])
                if table[(a * size + b) * size + c]:
                    return False
        groups_here = self.hex_groups[h]
        for r in range(len(groups_here)):
            found = groups_here[r]
            if not found:
                continue
            weight = self.group_weight[r]
            hi = self.group_hi[r]
            for g in found:
                total = self.group_const[r][g]
                for x in self.group_hexes[r][g]:
                    total += weight[n[x]]
                if total > hi:
                    return False
        return True

    def _slot(self, t: list[int], n: list[int], hb: list[int], s: int) -> bool:
        """Rules at harbor slot ``s`` of a complete board."""
        return self._slot_partial(t, n, hb, self.every_hex, self.every_hex, self.every_slot, s)

    def _best(self, t: list[int], n: list[int], r: int, s: int, code: int) -> bool:
        """Best-hex rule ``r`` at slot ``s`` holding harbor ``code`` > 0."""
        weight = self.best_weight[r]
        resource = code - 1
        best = -1
        for h in range(self.n_hexes):
            if t[h] == resource and weight[n[h]] > best:
                best = weight[n[h]]
        for h in self.best_touch[r][s]:  # noqa: SIM110 - a plain loop compiles to one
            if t[h] == resource and weight[n[h]] == best:
                return False
        return True

    def _globals(self, t: list[int], n: list[int], hb: list[int]) -> bool:
        """Counts, per-resource sums and best hexes of a complete board."""
        return self._globals_partial(
            t, n, hb, self.every_hex, self.every_hex, self.every_slot, True
        )

    # -- partial boards (enumeration) -------------------------------------------------------

    def partial(
        self,
        t: list[int],
        n: list[int],
        hb: list[int],
        have_t: list[bool],
        have_n: list[bool],
        have_h: list[bool],
        part: int,
        position: int,
        last: bool,
        local_done: bool,
    ) -> bool:
        """Rules that read ``position`` of ``part`` and nothing unassigned, after it was just
        assigned; bounds that can only grow (counts, sums of non-negative weights) are checked
        on what is assigned; ``last``: the board is complete, check lower bounds too.
        ``local_done``: forward checking already enforced the unary, pair, triple and group
        rules at this position (only harbor and whole-board rules are left to check)."""
        if part == PART_HARBORS:
            if not self._slot_partial(t, n, hb, have_t, have_n, have_h, position):
                return False
            return self._globals_partial(t, n, hb, have_t, have_n, have_h, last)
        h = position
        if local_done:
            if have_t[h]:
                for s in self.hex_slots[h]:
                    if have_h[s] and not self._slot_partial(t, n, hb, have_t, have_n, have_h, s):
                        return False
            return self._globals_partial(t, n, hb, have_t, have_n, have_h, last)
        for allowed in self.unary[PART_TERRAIN][h]:
            if have_t[h] and not allowed[t[h]]:
                return False
        for allowed in self.unary[PART_NUMBERS][h]:
            if have_n[h] and not allowed[n[h]]:
                return False
        pairs_here = self.hex_pairs[h]
        for r in range(len(pairs_here)):
            partners = pairs_here[r]
            if not partners:
                continue
            kind = self.pair_kind[r]
            if not _assigned(kind, have_t, have_n, h):
                continue
            size = self.pair_size[r]
            table = self.pair_table[r]
            mine = self._code(kind, t, n, h)
            for p in partners:
                other = p >> 1
                if not _assigned(kind, have_t, have_n, other):
                    continue
                theirs = self._code(kind, t, n, other)
                if p & 1:
                    if table[mine * size + theirs]:
                        return False
                elif table[theirs * size + mine]:
                    return False
        tris_here = self.hex_tris[h]
        for r in range(len(tris_here)):
            found = tris_here[r]
            if not found:
                continue
            kind = self.tri_kind[r]
            size = self.tri_size[r]
            table = self.tri_table[r]
            hexes = self.tri_hexes[r]
            for k in found:
                x, y, z = hexes[3 * k], hexes[3 * k + 1], hexes[3 * k + 2]
                if not (
                    _assigned(kind, have_t, have_n, x)
                    and _assigned(kind, have_t, have_n, y)
                    and _assigned(kind, have_t, have_n, z)
                ):
                    continue
                a = self._code(kind, t, n, x)
                b = self._code(kind, t, n, y)
                c = self._code(kind, t, n, z)
                if table[(a * size + b) * size + c]:
                    return False
        if have_n[h]:
            groups_here = self.hex_groups[h]
            for r in range(len(groups_here)):
                weight = self.group_weight[r]
                hi = self.group_hi[r]
                for g in groups_here[r]:
                    total = self.group_const[r][g]
                    for x in self.group_hexes[r][g]:
                        if have_n[x]:
                            total += weight[n[x]]
                    if total > hi:
                        return False
        if have_t[h]:
            for s in self.hex_slots[h]:
                if have_h[s] and not self._slot_partial(t, n, hb, have_t, have_n, have_h, s):
                    return False
        return self._globals_partial(t, n, hb, have_t, have_n, have_h, last)

    def _slot_partial(
        self,
        t: list[int],
        n: list[int],
        hb: list[int],
        have_t: list[bool],
        have_n: list[bool],
        have_h: list[bool],
        s: int,
    ) -> bool:
        for allowed in self.unary[PART_HARBORS][s]:
            if not allowed[hb[s]]:
                return False
        code = hb[s]
        pairs_here = self.slot_pairs[s]
        for r in range(len(pairs_here)):
            table = self.slot_table[r]
            for p in pairs_here[r]:
                if not have_h[p >> 1]:
                    continue
                other = hb[p >> 1]
                if table[code * 6 + other] if p & 1 else table[other * 6 + code]:
                    return False
        if code == 0:
            return True
        if self.best_touch and (have_t is self.every_hex or (all(have_t) and all(have_n))):
            for r in range(len(self.best_touch)):
                if not self._best(t, n, r, s, code):
                    return False
        for r in range(len(self.touch)):
            complete = True
            own = False
            for h in self.touch[r][s]:
                if not have_t[h]:
                    complete = False
                elif t[h] == code - 1:
                    own = True
            if own and not self.touch_require[r]:
                return False
            if complete and own != self.touch_require[r]:
                return False
        return True

    def _globals_partial(
        self,
        t: list[int],
        n: list[int],
        hb: list[int],
        have_t: list[bool],
        have_n: list[bool],
        have_h: list[bool],
        last: bool,
    ) -> bool:
        if last:
            for r in range(len(self.best_touch)):
                for s in range(self.n_slots):
                    if hb[s] and not self._best(t, n, r, s, hb[s]):
                        return False
        if self.has_counts:
            for r in range(len(self.pair_kind)):
                lo = self.pair_lo[r]
                if lo < 0:
                    continue
                kind = self.pair_kind[r]
                size = self.pair_size[r]
                table = self.pair_table[r]
                count = 0
                a = self.pair_a[r]
                b = self.pair_b[r]
                for i in range(len(a)):
                    if _assigned(kind, have_t, have_n, a[i]) and _assigned(
                        kind, have_t, have_n, b[i]
                    ):
                        ca = self._code(kind, t, n, a[i])
                        if table[ca * size + self._code(kind, t, n, b[i])]:
                            count += 1
                if count > self.pair_hi[r] or (last and count < lo):
                    return False
        for r in range(len(self.res_list)):
            weight = self.res_weight[r]
            for res in self.res_list[r]:
                total = 0
                for h in range(self.n_hexes):
                    if have_t[h] and have_n[h] and t[h] == res:
                        total += weight[n[h]]
                if total > self.res_hi[r] or (last and total < self.res_lo[r]):
                    return False
        return True


def _assigned(kind: int, have_t: list[bool], have_n: list[bool], h: int) -> bool:
    if kind == KIND_TERRAIN:
        return have_t[h]
    if kind == KIND_NUMBERS:
        return have_n[h]
    return have_t[h] and have_n[h]


# ----------------------------------------------------------------------------------------------
# Markov chain moves (see research/catan/chain.py for why each is symmetric)

SWAP_TILES: Final = 0
SWAP_TERRAIN: Final = 1
SWAP_TOKENS: Final = 2
SWAP_HARBORS: Final = 3
SYMMETRY: Final = 4
RELABEL_RESOURCES: Final = 5
RELABEL_TOKENS: Final = 6
REDRAW_TERRAIN: Final = 7
REDRAW_TOKENS: Final = 8
REDRAW_HARBORS: Final = 9
REDRAW_BOARD: Final = 10
CARRY_TERRAIN: Final = 11
N_MOVES: Final = 12


class Moves:
    """What a chain may change, and how often each kind of move is proposed.

    Args:
        weights: per move kind (indexed by the constants above), an integer weight; 0 = off.
        desert: the desert's terrain code.
        tiles / tokens / harbors: the multisets of terrain codes, tokens and harbor codes.
        symmetries: flat (n_sym * n_hexes) hex permutations, the identity first.
        symmetry_safe: per symmetry, whether it maps every rule of the set onto itself (then
            the image of a satisfying board satisfies the set, and is not checked again).
        resource_pairs / token_pairs: flat pairs of codes with equal counts (for relabelling).
        terrain_list: flat (m * n_hexes) bytes, every terrain layout the set allows, or empty.
        terrain: redraw terrain (the terrain moves); numbers / harbors likewise.
        keep_desert: the tokens are given, so a terrain redraw keeps the desert where it is.
    """

    def __init__(
        self,
        weights: list[int],
        desert: int,
        tiles: list[int],
        tokens: list[int],
        harbors: list[int],
        symmetries: list[int],
        symmetry_safe: list[bool],
        resource_pairs: list[int],
        token_pairs: list[int],
        terrain_list: bytes,
        terrain: bool,
        numbers: bool,
        harbors_live: bool,
        keep_desert: bool,
    ) -> None:
        self.cumulative: list[int] = []
        total = 0
        for w in weights:
            total += w
            self.cumulative.append(total)
        self.total = total
        self.desert = desert
        self.tiles = tiles
        self.tokens = tokens
        self.harbor_codes = harbors
        self.symmetries = symmetries
        self.symmetry_safe = symmetry_safe
        self.resource_pairs = resource_pairs
        self.token_pairs = token_pairs
        self.terrain_list = terrain_list
        self.terrain = terrain
        self.numbers = numbers
        self.harbors_live = harbors_live
        self.keep_desert = keep_desert

    def pick(self, rng: Random) -> int:
        x = rng.below(self.total)
        for k in range(len(self.cumulative)):
            if x < self.cumulative[k]:
                return k
        return len(self.cumulative) - 1


def _shuffle(values: list[int], rng: Random) -> list[int]:
    out = list(values)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def _new_terrain(mv: Moves, t: list[int], n: list[int], rng: Random) -> None:
    """Redraw the terrain in place (from the list, or a fair shuffle, or the non-desert tiles
    only when the desert must stay); the token on the new desert moves to the old desert's hex."""
    h_count = len(t)
    old = t.index(mv.desert)
    if mv.keep_desert:
        rest = _shuffle([x for x in t if x != mv.desert], rng)
        k = 0
        for h in range(h_count):
            if h != old:
                t[h] = rest[k]
                k += 1
        return
    if mv.terrain_list:
        row = rng.below(len(mv.terrain_list) // h_count) * h_count
        for h in range(h_count):
            t[h] = mv.terrain_list[row + h]
    else:
        fresh = _shuffle(mv.tiles, rng)
        for h in range(h_count):
            t[h] = fresh[h]
    new = t.index(mv.desert)
    if new != old:
        n[old] = n[new]
        n[new] = 0


def _carry_terrain(mv: Moves, t: list[int], n: list[int], rng: Random) -> None:
    """A new terrain layout (from the list, or a fair shuffle) whose tiles carry their tokens:
    each hex that takes a terrain it did not have receives the token of a hex that lost that
    terrain, the pairing drawn uniformly. The reverse change pairs the same hexes the other way
    and is drawn just as often, so the proposal is symmetric; tokens stay with their resource,
    so rules on tokens per resource keep holding."""
    h_count = len(t)
    if mv.terrain_list:
        row = rng.below(len(mv.terrain_list) // h_count) * h_count
        new_t = list(mv.terrain_list[row : row + h_count])
    else:
        new_t = _shuffle(mv.tiles, rng)
    new_n = list(n)
    for code in range(6):
        lost: list[int] = []
        gained: list[int] = []
        for h in range(h_count):
            if t[h] == code and new_t[h] != code:
                lost.append(h)
            elif new_t[h] == code and t[h] != code:
                gained.append(h)
        gained = _shuffle(gained, rng)
        for k in range(len(lost)):
            new_n[gained[k]] = n[lost[k]]
    for h in range(h_count):
        t[h] = new_t[h]
        n[h] = new_n[h]


def _new_tokens(mv: Moves, t: list[int], n: list[int], rng: Random) -> None:
    fresh = _shuffle(mv.tokens, rng)
    k = 0
    for h in range(len(t)):
        if t[h] == mv.desert:
            n[h] = 0
        else:
            n[h] = fresh[k]
            k += 1


def run_chain(
    ck: Checker,
    mv: Moves,
    t: list[int],
    n: list[int],
    hb: list[int],
    rng: Random,
    steps: int,
    record_every: int,
    record: bytearray,
    tried: list[int],
    taken: list[int],
) -> None:
    """Advance one chain ``steps`` steps in place (its board must satisfy ``ck``).

    Every ``record_every`` steps (0 = never) the board is appended to ``record`` as bytes
    (terrain, tokens, harbors). ``tried`` and ``taken`` count proposals and acceptances per
    move kind.
    """
    h_count = len(t)
    s_count = len(hb)
    for step in range(1, steps + 1):
        kind = mv.pick(rng)
        tried[kind] += 1
        ok = False
        if kind in (SWAP_TILES, SWAP_TERRAIN, SWAP_TOKENS):
            i = rng.below(h_count)
            j = (i + 1 + rng.below(h_count - 1)) % h_count
            if kind != SWAP_TILES and (t[i] == mv.desert or t[j] == mv.desert):
                ok = False  # the desert moves only with its (missing) token
            else:
                if kind != SWAP_TOKENS:
                    t[i], t[j] = t[j], t[i]
                if kind != SWAP_TERRAIN:
                    n[i], n[j] = n[j], n[i]
                ok = ck.changed2(t, n, hb, i, j)
                if not ok:
                    if kind != SWAP_TOKENS:
                        t[i], t[j] = t[j], t[i]
                    if kind != SWAP_TERRAIN:
                        n[i], n[j] = n[j], n[i]
        elif kind == SWAP_HARBORS:
            a = rng.below(s_count)
            b = (a + 1 + rng.below(s_count - 1)) % s_count
            hb[a], hb[b] = hb[b], hb[a]
            ok = ck.changed(t, n, hb, [], [a, b])
            if not ok:
                hb[a], hb[b] = hb[b], hb[a]
        elif kind in (RELABEL_RESOURCES, RELABEL_TOKENS):
            pairs = mv.resource_pairs if kind == RELABEL_RESOURCES else mv.token_pairs
            p = rng.below(len(pairs) // 2)
            x, y = pairs[2 * p], pairs[2 * p + 1]
            values = t if kind == RELABEL_RESOURCES else n
            moved: list[int] = []
            for h in range(h_count):
                if values[h] == x:
                    values[h] = y
                    moved.append(h)
                elif values[h] == y:
                    values[h] = x
                    moved.append(h)
            ok = ck.changed(t, n, hb, moved, [])
            if not ok:
                for h in moved:
                    values[h] = x if values[h] == y else y
        else:
            old_t = list(t)
            old_n = list(n)
            old_h = list(hb)
            safe = False
            if kind == SYMMETRY:
                element = 1 + rng.below(len(mv.symmetry_safe) - 1)
                safe = mv.symmetry_safe[element]
                g = element * h_count
                for h in range(h_count):
                    target = mv.symmetries[g + h]
                    t[target] = old_t[h]
                    n[target] = old_n[h]
            elif kind == REDRAW_TERRAIN:
                _new_terrain(mv, t, n, rng)
            elif kind == CARRY_TERRAIN:
                _carry_terrain(mv, t, n, rng)
            elif kind == REDRAW_TOKENS:
                _new_tokens(mv, t, n, rng)
            elif kind == REDRAW_HARBORS:
                fresh = _shuffle(mv.harbor_codes, rng)
                for s in range(s_count):
                    hb[s] = fresh[s]
            else:  # REDRAW_BOARD: every part the chain moves, at once
                if mv.terrain:
                    _new_terrain(mv, t, n, rng)
                if mv.numbers:
                    _new_tokens(mv, t, n, rng)
                if mv.harbors_live:
                    fresh = _shuffle(mv.harbor_codes, rng)
                    for s in range(s_count):
                        hb[s] = fresh[s]
            ok = safe or ck.full(t, n, hb)
            if not ok:
                for h in range(h_count):
                    t[h] = old_t[h]
                    n[h] = old_n[h]
                for s in range(s_count):
                    hb[s] = old_h[s]
        if ok:
            taken[kind] += 1
        if record_every and step % record_every == 0:
            for h in range(h_count):
                record.append(t[h])
            for h in range(h_count):
                record.append(n[h])
            for s in range(s_count):
                record.append(hb[s])


# ----------------------------------------------------------------------------------------------
# Depth-first search over the boards of a set


class Search:
    """Depth-first enumeration of the boards that satisfy a checker, with forward checking.

    The searched parts are assigned phase by phase: the hexes' terrain (when ``terrain``), then
    the tokens (when ``numbers``; the desert's hex gets none), then the harbor slots (when
    ``harbors``). Within a phase the next position is the one with the fewest values left in
    its domain (ties: the lowest index); it takes, in turn, each distinct value its multiset
    still holds, so each board is met exactly once. After each assignment, pair, triple and
    group rules remove the values they now forbid from the domains of unassigned positions, and
    every rule that reads only assigned positions is checked (``Checker.partial``). Parts not
    searched keep the values of the board passed in (given parts, or placeholders the caller
    ignores).

    Args:
        ck: the rules.
        desert: the desert's terrain code.
        tiles / tokens / harbor_codes: the multisets (value codes, with repetitions).
        terrain / numbers / harbors: which parts to search.
        tokens_given: the tokens are given (not searched) and the terrain is searched: the
            desert must go where the token is missing.
    """

    def __init__(
        self,
        ck: Checker,
        desert: int,
        tiles: list[int],
        tokens: list[int],
        harbor_codes: list[int],
        terrain: bool,
        numbers: bool,
        harbors: bool,
        tokens_given: bool,
    ) -> None:
        self.ck = ck
        self.desert = desert
        self.terrain = terrain
        self.numbers = numbers
        self.harbors = harbors
        self.tokens_given = tokens_given
        self.left: list[list[int]] = [
            _counts(tiles, 6),
            _counts(tokens, TOKEN_CODES),
            _counts(harbor_codes, 6),
        ]
        self.popcount = [bin(x).count("1") for x in range(1 << TOKEN_CODES)]
        # Per pair rule and value, the partner values it forbids (partner second / first).
        # Per pair rule and value, the partner values it forbids (partner second / first); for
        # tile rules, per (own tile code, partner terrain), the partner tokens it allows.
        self.forbid_second: list[list[int]] = []
        self.forbid_first: list[list[int]] = []
        for r in range(len(ck.pair_kind)):
            size = ck.pair_size[r]
            table = ck.pair_table[r]
            second: list[int] = []
            first: list[int] = []
            if ck.pair_kind[r] == KIND_TILE:
                for mine in range(size):
                    for terrain_code in range(size // TOKEN_CODES):
                        m2 = 0
                        m1 = 0
                        for w in range(TOKEN_CODES):
                            code = terrain_code * TOKEN_CODES + w
                            if not table[mine * size + code]:
                                m2 |= 1 << w
                            if not table[code * size + mine]:
                                m1 |= 1 << w
                        second.append(m2)
                        first.append(m1)
            else:
                for v in range(size):
                    m2 = 0
                    m1 = 0
                    for w in range(size):
                        if table[v * size + w]:
                            m2 |= 1 << w
                        if table[w * size + v]:
                            m1 |= 1 << w
                    second.append(m2)
                    first.append(m1)
            self.forbid_second.append(second)
            self.forbid_first.append(first)
        self.nodes = 0
        self.found = 0
        self.node_limit = 0
        self.keep_limit = 0
        self.kept: list[int] = []
        self.stop = False
        self.rng = Random(1, 2, 3, 4)
        self.randomise = False
        self.first_only = False
        self.count_limit = 0
        self.dom: list[list[int]] = [[], [], []]
        self.have: list[list[bool]] = [[], [], []]
        self.trail: list[int] = []

    def run(
        self,
        t: list[int],
        n: list[int],
        hb: list[int],
        node_limit: int,
        keep_limit: int,
        rng: Random | None,
        first_only: bool,
        count_limit: int = 0,
    ) -> bool:
        """Search from the given board; returns True when the space was exhausted.

        Keeps up to ``keep_limit`` boards in ``kept`` (flat: terrain, tokens, harbors per
        board), counts them all in ``found``, stops after ``node_limit`` nodes (0 = none), when
        more than ``count_limit`` boards were found (0 = none) or, with ``first_only``, at the
        first board. With ``rng``, values are tried in a random
        order (random boards, not uniform ones: starting points for chains).
        """
        self.nodes = 0
        self.found = 0
        self.kept = []
        self.node_limit = node_limit
        self.keep_limit = keep_limit
        self.stop = False
        self.first_only = first_only
        self.count_limit = count_limit
        self.randomise = rng is not None
        if rng is not None:
            self.rng = rng
        self._begin(n, len(hb))
        if not (self.terrain or self.numbers or self.harbors):
            if self.ck.full(t, n, hb):
                self.found = 1
                self._keep(t, n, hb)
            return True
        self._dfs(t, n, hb, PART_TERRAIN)
        return not self.stop

    def _begin(self, n: list[int], s_count: int) -> None:
        """Nothing assigned yet: the searched positions open, their domains from the unary
        rules (no token 0 but on the desert, which gets it separately; with given tokens, the
        desert only where the token is missing)."""
        ck = self.ck
        h_count = len(n)
        self.have = [
            [not self.terrain] * h_count,
            [not self.numbers] * h_count,
            [not self.harbors] * s_count,
        ]
        self.dom = [
            [_allowed(ck.unary[PART_TERRAIN][h], 6) for h in range(h_count)],
            [_allowed(ck.unary[PART_NUMBERS][h], TOKEN_CODES) & ~1 for h in range(h_count)],
            [_allowed(ck.unary[PART_HARBORS][s], 6) for s in range(s_count)],
        ]
        if self.tokens_given:
            for h in range(h_count):
                if n[h] == 0:
                    self.dom[PART_TERRAIN][h] &= 1 << self.desert
                else:
                    self.dom[PART_TERRAIN][h] &= ~(1 << self.desert)
        self.trail = []

    def _keep(self, t: list[int], n: list[int], hb: list[int]) -> None:
        if len(self.kept) < self.keep_limit * (len(t) * 2 + len(hb)):
            self.kept.extend(t)
            self.kept.extend(n)
            self.kept.extend(hb)

    def _searched(self, part: int) -> bool:
        if part == PART_TERRAIN:
            return self.terrain
        if part == PART_NUMBERS:
            return self.numbers
        return self.harbors

    def _dfs(self, t: list[int], n: list[int], hb: list[int], phase: int) -> None:
        if self.stop:
            return
        # the next position: fewest values left, in the first phase not yet complete
        while phase <= PART_HARBORS:
            if self._searched(phase) and not all(self.have[phase]):
                break
            phase += 1
            if phase == PART_NUMBERS and self.numbers:
                self._place_desert_token(t, n, hb)  # which searches on from there
                return
        if phase > PART_HARBORS:
            if not self.ck.full(t, n, hb):
                raise AssertionError("forward checking let a board through that breaks a rule")
            self.found += 1
            self._keep(t, n, hb)
            if self.first_only or (self.count_limit and self.found > self.count_limit):
                self.stop = True
            return
        self.nodes += 1
        if self.node_limit and self.nodes > self.node_limit:
            self.stop = True
            return
        left = self.left[phase]
        available = 0
        for v in range(len(left)):
            if left[v] > 0:
                available |= 1 << v
        have = self.have[phase]
        dom = self.dom[phase]
        if phase == PART_NUMBERS and not self._supply(left, have, dom):
            return
        best = -1
        best_size = 99
        for i in range(len(have)):
            if not have[i]:
                size = self.popcount[dom[i] & available]
                if size < best_size:
                    best = i
                    best_size = size
                    if size <= 1:
                        break
        if best_size == 0:
            return
        values: list[int] = []
        mask = dom[best] & available
        for v in range(len(left)):
            if mask >> v & 1:
                values.append(v)
        if self.randomise:
            values = _shuffle(values, self.rng)
        last = self._is_last(phase, best)
        for v in values:
            mark = len(self.trail)
            left[v] -= 1
            self._set(t, n, hb, phase, best, v)
            # Forward checking covers the local rules at this position, except the tile rules
            # when the terrain is searched against given tokens (it prunes tokens, not terrain).
            local_done = not (self.tokens_given and phase == PART_TERRAIN)
            if self.ck.partial(
                t, n, hb, self.have[0], self.have[1], self.have[2], phase, best, last, local_done
            ) and self._propagate(t, n, phase, best, v):
                self._dfs(t, n, hb, phase)
            self._undo(mark)
            have[best] = False
            left[v] += 1
            if self.stop:
                return

    def descend(self, t: list[int], n: list[int], hb: list[int], rng: Random) -> float:
        """One random descent of the search tree, without backtracking (Knuth 1975): at each
        node a value uniformly among those forward checking leaves. Returns the product of the
        numbers of values met on the way when it reaches a board, else 0: an unbiased estimate
        of the number of boards (its mean over many descents converges to the count)."""
        self._begin(n, len(hb))
        saved = [list(self.left[0]), list(self.left[1]), list(self.left[2])]
        try:
            return self._descend(t, n, hb, rng)
        finally:
            self.left = saved

    def _descend(self, t: list[int], n: list[int], hb: list[int], rng: Random) -> float:
        left = self.left
        weight = 1.0
        for phase in range(PART_HARBORS + 1):
            if not self._searched(phase):
                continue
            if phase == PART_NUMBERS:
                h = t.index(self.desert)
                self._set(t, n, hb, PART_NUMBERS, h, 0)
                if not (
                    self.ck.partial(
                        t,
                        n,
                        hb,
                        self.have[0],
                        self.have[1],
                        self.have[2],
                        phase,
                        h,
                        self._is_last(phase, h),
                        False,
                    )
                    and self._propagate(t, n, phase, h, 0)
                ):
                    return 0.0
            have = self.have[phase]
            dom = self.dom[phase]
            counts = left[phase]
            while True:
                available = 0
                for v in range(len(counts)):
                    if counts[v] > 0:
                        available |= 1 << v
                best = -1
                best_size = 99
                for i in range(len(have)):
                    if not have[i]:
                        size = self.popcount[dom[i] & available]
                        if size < best_size:
                            best = i
                            best_size = size
                if best < 0:
                    break
                if best_size == 0:
                    return 0.0
                mask = dom[best] & available
                pick = rng.below(best_size)
                v = 0
                for w in range(len(counts)):
                    if mask >> w & 1:
                        if pick == 0:
                            v = w
                            break
                        pick -= 1
                weight *= best_size
                counts[v] -= 1
                self._set(t, n, hb, phase, best, v)
                local_done = not (self.tokens_given and phase == PART_TERRAIN)
                if not (
                    self.ck.partial(
                        t,
                        n,
                        hb,
                        self.have[0],
                        self.have[1],
                        self.have[2],
                        phase,
                        best,
                        self._is_last(phase, best),
                        local_done,
                    )
                    and self._propagate(t, n, phase, best, v)
                ):
                    return 0.0
        return weight if self.ck.full(t, n, hb) else 0.0

    def _supply(self, left: list[int], have: list[bool], dom: list[int]) -> bool:
        """Every value still to place has as many open positions that allow it (a necessary
        condition: a value short of places cannot all be placed)."""
        for v in range(len(left)):
            need = left[v]
            if need <= 0:
                continue
            bit = 1 << v
            places = 0
            for i in range(len(have)):
                if not have[i] and dom[i] & bit:
                    places += 1
                    if places >= need:
                        break
            if places < need:
                return False
        return True

    def _place_desert_token(self, t: list[int], n: list[int], hb: list[int]) -> None:
        """Entering the token phase: the desert's hex gets no token, then search on."""
        h = t.index(self.desert)
        mark = len(self.trail)
        self._set(t, n, hb, PART_NUMBERS, h, 0)
        last = self._is_last(PART_NUMBERS, h)
        if self.ck.partial(
            t, n, hb, self.have[0], self.have[1], self.have[2], PART_NUMBERS, h, last, False
        ) and self._propagate(t, n, PART_NUMBERS, h, 0):
            self._dfs(t, n, hb, PART_NUMBERS)
        self._undo(mark)
        self.have[PART_NUMBERS][h] = False

    def _is_last(self, phase: int, position: int) -> bool:
        for part in range(phase, PART_HARBORS + 1):
            if not self._searched(part):
                continue
            have = self.have[part]
            for i in range(len(have)):
                if not have[i] and not (part == phase and i == position):
                    return False
        return True

    def _set(self, t: list[int], n: list[int], hb: list[int], part: int, i: int, v: int) -> None:
        if part == PART_TERRAIN:
            t[i] = v
        elif part == PART_NUMBERS:
            n[i] = v
        else:
            hb[i] = v
        self.have[part][i] = True

    def _narrow(self, part: int, i: int, mask: int) -> bool:
        """dom[part][i] &= mask, on the trail; False when it empties."""
        dom = self.dom[part]
        old = dom[i]
        new = old & mask
        if new != old:
            self.trail.append(part * 4096 + i)
            self.trail.append(old)
            dom[i] = new
        return new != 0

    def _undo(self, mark: int) -> None:
        trail = self.trail
        while len(trail) > mark:
            old = trail.pop()
            key = trail.pop()
            self.dom[key // 4096][key % 4096] = old

    def _propagate(self, t: list[int], n: list[int], part: int, h: int, v: int) -> bool:
        """Forward checking after ``part`` of hex ``h`` took value ``v`` (harbors: none)."""
        if part == PART_HARBORS:
            return True
        ck = self.ck
        have_t = self.have[PART_TERRAIN]
        have_n = self.have[PART_NUMBERS]
        pairs_here = ck.hex_pairs[h]
        for r in range(len(pairs_here)):
            partners = pairs_here[r]
            if not partners or ck.pair_lo[r] >= 0:
                continue
            kind = ck.pair_kind[r]
            if kind == KIND_TILE:
                if not (have_t[h] and have_n[h]):
                    continue
                terrains = ck.pair_size[r] // TOKEN_CODES
                row = (t[h] * TOKEN_CODES + n[h]) * terrains
                allowed_second = self.forbid_second[r]
                allowed_first = self.forbid_first[r]
                for e in partners:
                    q = e >> 1
                    if have_n[q] or not have_t[q]:
                        continue
                    mask = allowed_second[row + t[q]] if e & 1 else allowed_first[row + t[q]]
                    if not self._narrow(PART_NUMBERS, q, mask):
                        return False
                continue
            if (kind == KIND_TERRAIN) != (part == PART_TERRAIN):
                continue
            have = have_t if kind == KIND_TERRAIN else have_n
            for e in partners:
                q = e >> 1
                if have[q]:
                    continue
                forbid = self.forbid_second[r][v] if e & 1 else self.forbid_first[r][v]
                if not self._narrow(part, q, ~forbid):
                    return False
        tris_here = ck.hex_tris[h]
        for r in range(len(tris_here)):
            kind = ck.tri_kind[r]
            if kind == KIND_TILE or (kind == KIND_TERRAIN) != (part == PART_TERRAIN):
                continue
            have = have_t if kind == KIND_TERRAIN else have_n
            values = t if kind == KIND_TERRAIN else n
            size = ck.tri_size[r]
            table = ck.tri_table[r]
            hexes = ck.tri_hexes[r]
            for k in tris_here[r]:
                x, y, z = hexes[3 * k], hexes[3 * k + 1], hexes[3 * k + 2]
                missing = -1
                open_count = 0
                for j in (x, y, z):
                    if not have[j]:
                        missing = j
                        open_count += 1
                if open_count != 1:
                    continue
                mask = 0
                for w in range(size):
                    a = w if x == missing else values[x]
                    b = w if y == missing else values[y]
                    c = w if z == missing else values[z]
                    if not table[(a * size + b) * size + c]:
                        mask |= 1 << w
                if not self._narrow(part, missing, mask):
                    return False
        if part == PART_NUMBERS:
            # Sums: with each open hex at its lightest possible token the group must fit, and
            # each open hex can take at most what the others' lightest tokens leave.
            groups_here = ck.hex_groups[h]
            left = self.left[PART_NUMBERS]
            available = 0
            for w in range(1, TOKEN_CODES):
                if left[w] > 0:
                    available |= 1 << w
            dom_n = self.dom[PART_NUMBERS]
            for r in range(len(groups_here)):
                weight = ck.group_weight[r]
                hi = ck.group_hi[r]
                for g in groups_here[r]:
                    total = ck.group_const[r][g]
                    open_hexes: list[int] = []
                    lightest: list[int] = []
                    for x in ck.group_hexes[r][g]:
                        if have_n[x]:
                            total += weight[n[x]]
                        else:
                            best = -1
                            mask = dom_n[x] & available
                            for w in range(1, TOKEN_CODES):
                                if mask >> w & 1 and (best < 0 or weight[w] < best):
                                    best = weight[w]
                            if best < 0:
                                return False
                            open_hexes.append(x)
                            lightest.append(best)
                            total += best
                    if total > hi:
                        return False
                    for k in range(len(open_hexes)):
                        cap = hi - total + lightest[k]
                        mask = 0
                        for w in range(TOKEN_CODES):
                            if weight[w] <= cap:
                                mask |= 1 << w
                        if not self._narrow(PART_NUMBERS, open_hexes[k], mask):
                            return False
        return True


def _allowed(tables: list[bytes], size: int) -> int:
    """The bitmask of codes every table allows."""
    mask = (1 << size) - 1
    for table in tables:
        for v in range(size):
            if not table[v]:
                mask &= ~(1 << v)
    return mask


def _counts(values: list[int], size: int) -> list[int]:
    out = [0] * size
    for v in values:
        out[v] += 1
    return out
