"""The native Catan core (``_core``, built from ``core.c``), when it is built, current and not
switched off; the Python reference runs otherwise.

The core is being built in steps (issue 33: a native engine that plays the reference engine's
games action for action). Its first piece is :class:`Stream`: CPython's ``random.Random``
(the Mersenne Twister) in C, number for number, so that a native engine draws the same dice,
shuffles and steals as :mod:`ludolab.envs.catan.engine` does from its ``random.Random``
streams. :func:`stream` gives one seeded as ``random.Random(seed)`` would be.

``LUDOLAB_PURE_PYTHON=1`` switches the core off, as it does the mypyc modules; so does a
``core.c`` edited since the extension was built (with a warning): the source is the reference.
"""

from __future__ import annotations

import hashlib
import random
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Protocol

from ludolab.envs.compiled import PURE_PYTHON_ENV, c_extension

__all__ = ["PURE_PYTHON_ENV", "SOURCE", "Stream", "native", "stream", "stream_key"]
SOURCE = Path(__file__).with_name("core.c")


class Stream(Protocol):
    """What the engine draws from: ``random.Random`` or the core's ``Stream``."""

    def random(self) -> float: ...

    def getrandbits(self, k: int, /) -> int: ...

    def shuffle(self, items: list, /) -> None: ...

    def getstate(self) -> object: ...


@cache
def native() -> ModuleType | None:
    """The C extension, when it is built, current and not switched off; else None."""
    return c_extension(
        "ludolab.envs.catan._core", SOURCE, "the Python reference runs in its place"
    )


def stream_key(seed: int | str) -> list[int]:
    """The 32-bit key words ``random.Random(seed)`` seeds its Mersenne Twister with (version 2
    seeding): a string becomes the integer of its UTF-8 bytes followed by their SHA-512 digest;
    an integer's absolute value is cut into words, least significant first ([0] for 0)."""
    if isinstance(seed, str):
        raw = seed.encode()
        seed = int.from_bytes(raw + hashlib.sha512(raw).digest(), "big")
    n = abs(int(seed))
    words = [(n >> shift) & 0xFFFFFFFF for shift in range(0, max(n.bit_length(), 1), 32)]
    return words or [0]


def stream(seed: int | str) -> Stream:
    """A stream seeded as ``random.Random(seed)``: the core's when it is available, else
    ``random.Random`` itself. Both give the same numbers from the same seed."""
    core = native()
    if core is None:
        return random.Random(seed)
    return core.Stream(stream_key(seed))
