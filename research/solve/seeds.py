"""Map our seeds onto Gecode's random seeds without silent collisions."""

from __future__ import annotations

import operator

# Gecode's generator works modulo 2**31 - 1 and treats 0 like 1: seeds 0, 1 and 2**31 - 1 all
# give the same search (checked with fzn-gecode 6.2.0 -r). Values above 2**31 are not even
# parsed reliably. So seeds are folded onto 1 .. 2**31 - 2, where every value is distinct.
GECODE_SEED_SPAN = 2**31 - 2


def gecode_seed(seed: int) -> int:
    """The ``-r`` value for `seed`: ``1 + seed % (2**31 - 2)``.

    Seeds 0 .. 2**31 - 3 map to distinct Gecode seeds, so draw seeds below that
    (e.g. ``numpy.random.SeedSequence(...).generate_state(1)[0] >> 1``).
    """
    return 1 + operator.index(seed) % GECODE_SEED_SPAN  # index(): ints and numpy ints only
