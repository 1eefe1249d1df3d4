"""Every token layout that completes one terrain layout, listed depth-first value by value.

Compiled with mypyc at install time like :mod:`ludolab.research.catan.kernel` (its source is
the reference and runs when it is not compiled).

The kernel's general search (:class:`ludolab.research.catan.kernel.Search`) picks a hex and
tries its tokens. For tight token rules on a given terrain (the 2019 seed's marker model: sums
of three tokens below 23 on its triangles, different numbers within a resource) that search
meets most dead ends late: about 4 million nodes for the 4,018 token layouts of one of the
seed's terrains. :class:`TokenLister` turns the question round: it takes a token value and
tries the hexes it may go on, the copies of one value at increasing hexes so that each layout
is met once. Values are taken in a fixed order: those whose pair rules narrow the most first
(the red 6 and 8), then the heaviest in the sums (12, 11, ...), so that the light tokens fill
in last; 200,000 nodes for the same terrain.

After each placement it prunes: the pair rules (numbers, and tile rules read with the terrain
known) narrow the partners' values; every group sum narrows its open hexes to the values that
still fit beside the lightest tokens left for the others; a value used up leaves every domain.
Then the tokens left must still fit: every value as many open hexes as it has copies, a value
with two copies two hexes that allow each other, and all copies distinct hexes together (a
bipartite matching: Kuhn's augmenting paths). A layout that gets through is checked by every
rule of the set (``Checker.full``) before it counts, so rules the pruning does not read
(triples, counts, per-resource sums) still hold, only found later.
"""

from __future__ import annotations

from typing import Final

from ludolab.research.catan.kernel import (
    KIND_NUMBERS,
    KIND_TILE,
    PART_NUMBERS,
    TOKEN_CODES,
    Checker,
    _allowed,
)

VALUES: Final = 13  # token codes 0..12 (0 = the desert's missing token)


class TokenLister:
    """The token layouts of one terrain (``t``), over the token multiset ``tokens``.

    ``run`` lists them into ``kept`` (flat: ``len(t)`` tokens per layout), counts them in
    ``found`` and the search nodes in ``nodes``; harbors ``hb`` are held fixed (only sets whose
    harbors no rule searches are listed this way).
    """

    def __init__(
        self, ck: Checker, t: list[int], hb: list[int], tokens: list[int], desert: int
    ) -> None:
        self.ck = ck
        self.t = list(t)
        self.hb = list(hb)
        h_count = len(t)
        self.h_count = h_count
        self.left = [0] * VALUES
        for v in tokens:
            self.left[v] += 1
        self.n = [0] * h_count
        self.open = [t[h] != desert for h in range(h_count)]
        self.deserts = [h for h in range(h_count) if t[h] == desert]
        # Start domains: the unary number rules, never the desert's 0 on a land hex.
        self.dom = [_allowed(ck.unary[PART_NUMBERS][h], VALUES) & ~1 for h in range(h_count)]
        # forbid[(p * VALUES + v) * h_count + q]: the values hex q may not take when hex p
        # holds token v (pair rules on numbers, and tile rules read with the terrain given).
        self.forbid = [0] * (h_count * VALUES * h_count)
        partners: list[list[int]] = [[] for _ in range(h_count)]
        for r in range(len(ck.pair_kind)):
            kind = ck.pair_kind[r]
            if ck.pair_lo[r] >= 0 or (kind != KIND_NUMBERS and kind != KIND_TILE):
                continue
            size = ck.pair_size[r]
            table = ck.pair_table[r]
            a_list = ck.pair_a[r]
            b_list = ck.pair_b[r]
            for i in range(len(a_list)):
                a = a_list[i]
                b = b_list[i]
                # The rule flags code pairs (at a, at b): v at a forbids at b every w with
                # (v, w) flagged, and v at b forbids at a every u with (u, v) flagged.
                for v in range(VALUES):
                    at_b = 0
                    at_a = 0
                    for w in range(VALUES):
                        if kind == KIND_NUMBERS:
                            forward = table[v * size + w]
                            backward = table[w * size + v]
                        else:
                            ta = t[a] * TOKEN_CODES
                            tb = t[b] * TOKEN_CODES
                            forward = table[(ta + v) * size + tb + w]
                            backward = table[(ta + w) * size + tb + v]
                        if forward:
                            at_b |= 1 << w
                        if backward:
                            at_a |= 1 << w
                    self.forbid[(a * VALUES + v) * h_count + b] |= at_b
                    self.forbid[(b * VALUES + v) * h_count + a] |= at_a
        for a in range(h_count):  # partners: the hexes some value at a narrows
            for b in range(h_count):
                for v in range(VALUES):
                    if self.forbid[(a * VALUES + v) * h_count + b]:
                        partners[a].append(b)
                        break
        self.partners = partners
        # Group sums, flattened over rules: hexes, constant, weights (per token), bound.
        self.g_hexes: list[list[int]] = []
        self.g_const: list[int] = []
        self.g_weight: list[list[int]] = []
        self.g_order: list[list[int]] = []  # token values by increasing weight
        self.g_hi: list[int] = []
        self.hex_groups: list[list[int]] = [[] for _ in range(h_count)]
        for r in range(len(ck.group_hi)):
            weight = ck.group_weight[r]
            order = sorted(range(1, VALUES), key=lambda w: weight[w])
            for g in range(len(ck.group_hexes[r])):
                k = len(self.g_hi)
                self.g_hexes.append(list(ck.group_hexes[r][g]))
                self.g_const.append(ck.group_const[r][g])
                self.g_weight.append(weight)
                self.g_order.append(order)
                self.g_hi.append(ck.group_hi[r])
                for h in ck.group_hexes[r][g]:
                    self.hex_groups[h].append(k)
        self.g_sum = [0] * len(self.g_hi)
        self.g_open = [0] * len(self.g_hi)
        # The order values are taken in: those that narrow the most first (summed over the
        # partners they narrow), then the heaviest in any sum.
        heavy = [0] * VALUES
        for g in range(len(self.g_hi)):
            for v in range(VALUES):
                heavy[v] = max(heavy[v], self.g_weight[g][v])
        narrowing = [0] * VALUES
        for a in range(h_count):
            for v in range(VALUES):
                for b in partners[a]:
                    narrowing[v] += bin(self.forbid[(a * VALUES + v) * h_count + b]).count("1")
        self.priority = sorted(range(1, VALUES), key=lambda v: (-narrowing[v], -heavy[v], v))
        # Per group, the values one hex may hold when it may weigh at most c: cap_mask[g][c]
        # for c in 0..top (c below 0: none; above top: every value).
        self.g_top = [0] * len(self.g_hi)
        self.g_cap_mask: list[list[int]] = []
        for g in range(len(self.g_hi)):
            weight = self.g_weight[g]
            top = max(weight)
            self.g_top[g] = top
            masks = [0] * (top + 1)
            for c in range(top + 1):
                for w in range(1, VALUES):
                    if weight[w] <= c:
                        masks[c] |= 1 << w
            self.g_cap_mask.append(masks)
        available = 0
        for v in range(1, VALUES):
            if self.left[v] > 0:
                available |= 1 << v
        for h in range(h_count):
            self.dom[h] &= available
        # Per value, the open hexes whose domain holds it (a bitmask over hexes).
        self.where = [0] * VALUES
        self.bit_count = [bin(x).count("1") for x in range(1 << 10)]
        # Per (hex p, value v), the hexes where v at p forbids v: copies that exclude each other.
        self.clash = [0] * (h_count * VALUES)
        for p in range(h_count):
            for v in range(VALUES):
                for q in partners[p]:
                    if self.forbid[(p * VALUES + v) * h_count + q] >> v & 1:
                        self.clash[p * VALUES + v] |= 1 << q
        self.owner = [-1] * h_count  # the matching of _consistent (scratch)
        self.seen = 0
        self.trail: list[int] = []
        self.kept: list[int] = []
        self.keep_limit = 0
        self.found = 0
        self.nodes = 0
        self.node_limit = 0
        self.stop = False
        self.placed = 0
        self.to_place = 0

    # -- the search ------------------------------------------------------------------------

    def run(self, keep_limit: int, node_limit: int) -> bool:
        """List the layouts (keeping up to ``keep_limit``); True when the search finished
        within ``node_limit`` nodes (0 = no limit)."""
        self.kept = []
        self.keep_limit = keep_limit
        self.found = 0
        self.nodes = 0
        self.node_limit = node_limit
        self.stop = False
        self.trail = []
        self.placed = 0
        self.to_place = sum(self.left) + len(self.deserts)
        for g in range(len(self.g_hi)):
            self.g_sum[g] = self.g_const[g]
            self.g_open[g] = len(self.g_hexes[g])
        for v in range(VALUES):
            self.where[v] = 0
        for h in range(self.h_count):
            if self.open[h]:
                self._mark(h, self.dom[h], True)
        # The deserts' 0 is placed first, like a token (its pair rules and sums apply).
        for h in self.deserts:
            self.open[h] = True
            self._mark(h, self.dom[h], True)
        ok = True
        marks: list[int] = []
        for h in self.deserts:
            self.left[0] += 1
            marks.append(len(self.trail))
            if not self._place(h, 0):
                ok = False
                break
        if ok and self._consistent():
            self._dfs(-1, -1)
        for i in range(len(marks) - 1, -1, -1):
            self._unplace(self.deserts[i], 0, marks[i])
            self.left[0] -= 1
        for h in self.deserts:
            self.open[h] = False
            self._mark(h, self.dom[h], False)
        return not self.stop

    def _dfs(self, run_value: int, last: int) -> None:
        if self.placed == self.to_place:
            if self.ck.full(self.t, self.n, self.hb):
                self.found += 1
                if len(self.kept) < self.keep_limit * self.h_count:
                    self.kept.extend(self.n)
            return
        self.nodes += 1
        if self.node_limit and self.nodes > self.node_limit:
            self.stop = True
            return
        if run_value >= 0 and self.left[run_value] > 0:
            v = run_value
            start = last + 1
        else:
            v = self._choose()
            start = 0
        bit = 1 << v
        for h in range(start, self.h_count):
            if not (self.open[h] and self.dom[h] & bit):
                continue
            mark = len(self.trail)
            if self._place(h, v) and self._consistent():
                self._dfs(v, h)
            self._unplace(h, v, mark)
            if self.stop:
                return

    def _choose(self) -> int:
        """The first value in ``priority`` with copies left."""
        for v in self.priority:
            if self.left[v] > 0:
                return v
        return -1

    def _place(self, h: int, v: int) -> bool:
        """Token ``v`` on hex ``h``, then forward checking; False on a dead end (the caller
        undoes with :meth:`_unplace` either way)."""
        self.n[h] = v
        self.open[h] = False
        self._mark(h, self.dom[h], False)
        self.left[v] -= 1
        self.placed += 1
        groups = self.hex_groups[h]
        for g in groups:  # before anything can fail: _unplace undoes all of this
            self.g_sum[g] += self.g_weight[g][v]
            self.g_open[g] -= 1
        h_count = self.h_count
        if self.left[v] == 0 and v > 0:  # used up: no open hex may keep it
            for q in range(h_count):
                if self.open[q] and self.dom[q] >> v & 1 and not self._narrow(q, ~(1 << v)):
                    return False
        base = (h * VALUES + v) * h_count
        for q in self.partners[h]:
            if self.open[q]:
                forbidden = self.forbid[base + q]
                if forbidden and not self._narrow(q, ~forbidden):
                    return False
        for g in groups:  # noqa: SIM110 - a plain loop compiles to a plain loop
            if not self._sum_fits(g):
                return False
        return True

    def _unplace(self, h: int, v: int, mark: int) -> None:
        trail = self.trail
        while len(trail) > mark:
            old = trail.pop()
            q = trail.pop()
            self._mark(q, old & ~self.dom[q], True)
            self.dom[q] = old
        for g in self.hex_groups[h]:
            self.g_sum[g] -= self.g_weight[g][v]
            self.g_open[g] += 1
        self.left[v] += 1
        self.placed -= 1
        self.open[h] = True
        self._mark(h, self.dom[h], True)
        self.n[h] = 0

    def _mark(self, h: int, values: int, present: bool) -> None:
        """Hex ``h`` now does (``present``) or no longer does allow each of ``values``."""
        bit = 1 << h
        v = 0
        while values:
            if values & 1:
                if present:
                    self.where[v] |= bit
                else:
                    self.where[v] &= ~bit
            values >>= 1
            v += 1

    def _places(self, v: int) -> int:
        hexes = self.where[v]
        return self.bit_count[hexes & 1023] + self.bit_count[hexes >> 10 & 1023] + (
            self.bit_count[hexes >> 20] if hexes >> 20 else 0
        )

    def _narrow(self, q: int, mask: int) -> bool:
        """dom[q] &= mask on an open hex, on the trail; False when it empties."""
        old = self.dom[q]
        new = old & mask
        if new != old:
            self.trail.append(q)
            self.trail.append(old)
            self.dom[q] = new
            self._mark(q, old & ~new, False)
        return new != 0

    def _sum_fits(self, g: int) -> bool:
        """Group ``g``'s sum can still stay within its bound: each open hex is narrowed to the
        values that fit beside the lightest tokens left for the others."""
        k = self.g_open[g]
        hi = self.g_hi[g] - self.g_sum[g]
        if k == 0:
            return hi >= 0
        weight = self.g_weight[g]
        others = 0  # the least weight k - 1 of the tokens left can add
        need = k - 1
        if need:
            for w in self.g_order[g]:
                take = self.left[w]
                if take > need:
                    take = need
                others += take * weight[w]
                need -= take
                if need == 0:
                    break
        cap = hi - others  # what one open hex may still weigh
        if cap >= self.g_top[g]:
            return True
        if cap < 0:
            return False
        mask = self.g_cap_mask[g][cap]
        for x in self.g_hexes[g]:  # noqa: SIM110 - compiles to a plain loop
            if self.open[x] and not self._narrow(x, mask):
                return False
        return True

    def _consistent(self) -> bool:
        """Whether the tokens left can still go somewhere: every value has at least as many
        open hexes that allow it as copies, a value with two copies two hexes that allow each
        other, and all copies together distinct hexes (a matching, Hall's condition)."""
        for v in range(1, VALUES):
            need = self.left[v]
            if need and self._places(v) < need:
                return False
        for v in range(1, VALUES):
            if self.left[v] == 2 and not self._pair_fits(v):
                return False
        owner = self.owner
        for h in range(self.h_count):
            owner[h] = -1
        for v in range(1, VALUES):
            for _ in range(self.left[v]):
                self.seen = 0
                if not self._augment(v):
                    return False
        return True

    def _pair_fits(self, v: int) -> bool:
        hexes = self.where[v]
        rest = hexes
        while rest:
            low = rest & -rest
            p = low.bit_length() - 1
            rest ^= low
            if rest & ~self.clash[p * VALUES + v]:
                return True
        return False

    def _augment(self, v: int) -> bool:
        """Kuhn's augmenting path for one more copy of ``v`` (``owner``: the value matched
        to each hex, -1 for none; ``seen``: hexes visited, a bitmask)."""
        candidates = self.where[v] & ~self.seen
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            if self.seen & low:
                continue
            h = low.bit_length() - 1
            self.seen |= low
            if self.owner[h] < 0 or self._augment(self.owner[h]):
                self.owner[h] = v
                return True
        return False
