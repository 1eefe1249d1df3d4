"""Pin a benchmark to one core: import this module before numpy (or anything that imports it).

Machines here are shared and have 2 cores; a benchmark pinned to one core, with BLAS/OpenMP
pools of one thread, measures single-core speed and leaves the other core to the rest.
"""

from __future__ import annotations

import os

_THREAD_VARS = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "NUMEXPR_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
)


def pin_to_one_core() -> int | None:
    """Pin this process (and every child it starts) to its first allowed CPU; return it.

    None where the platform cannot pin (not Linux): the run goes on unpinned and says so.
    """
    for var in _THREAD_VARS:
        os.environ[var] = "1"
    if not hasattr(os, "sched_setaffinity"):
        return None
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return cpu


# At import, before numpy creates any thread pool.
PINNED_CPU = pin_to_one_core()
