"""Seeds for the native cores' random streams: the key words CPython's ``random.Random`` turns a
seed into, so that a core's ``Stream`` (envs/stream.h) draws the same numbers as the
``random.Random`` of the same seed."""

from __future__ import annotations

import hashlib


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


__all__ = ["stream_key"]
