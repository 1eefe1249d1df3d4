"""The native core's random stream against CPython's random.Random, number for number; the
engine's own streams through it; bad input; the switches; and a run under AddressSanitizer and
UndefinedBehaviorSanitizer (slow)."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import sysconfig
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludolab.envs.catan import engine, native

CORE = native.native()
needs_core = pytest.mark.skipif(
    CORE is None, reason="the native core is not built (or LUDOLAB_PURE_PYTHON=1)"
)

seeds = st.one_of(
    st.integers(-(2**200), 2**200),
    st.text(max_size=40),
    st.builds(lambda s, n, name: f"ludolab.catan:{name}:{s}", st.integers(0, 2**63),
              st.just(0), st.sampled_from(["dice", "steal", "deck"])),
)
# One draw: (method, argument) as the engine and the search agents call them.
draws = st.lists(
    st.one_of(
        st.tuples(st.just("random"), st.none()),
        st.tuples(st.just("getrandbits"), st.integers(0, 64)),
        st.tuples(st.just("randbelow"), st.integers(1, 2**40)),
        st.tuples(st.just("shuffle"), st.integers(0, 30)),
    ),
    max_size=60,
)


def draw(rng, method: str, arg):
    """One call on either kind of stream, as its result."""
    if method == "random":
        return rng.random()
    if method == "getrandbits":
        return rng.getrandbits(arg)
    if method == "randbelow":
        return rng.randbelow(arg) if hasattr(rng, "randbelow") else rng._randbelow(arg)
    items = list(range(arg))
    rng.shuffle(items)
    return items


def test_the_key_is_the_one_random_seeds_with() -> None:
    assert native.stream_key(0) == [0]
    assert native.stream_key(-5) == [5]
    assert native.stream_key(2**32 + 7) == [7, 1]
    # what CPython keys a string seed with: its bytes, then their SHA-512, as one integer
    assert len(native.stream_key("ludolab.catan:dice:1")) == (20 * 8 + 512 + 31) // 32


@needs_core
@settings(max_examples=150, deadline=None)
@given(seed=seeds, calls=draws)
def test_a_stream_draws_what_random_draws(seed, calls) -> None:
    mine, theirs = native.stream(seed), random.Random(seed)
    for method, arg in calls:
        assert draw(mine, method, arg) == draw(theirs, method, arg), (method, arg)
    assert mine.getstate() == theirs.getstate()[1]


@needs_core
@settings(max_examples=40, deadline=None)
@given(seed=seeds, before=draws, after=draws)
def test_state_moves_between_the_two_mid_stream(seed, before, after) -> None:
    theirs = random.Random(seed)
    for method, arg in before:
        draw(theirs, method, arg)
    mine = CORE.Stream([1])
    mine.setstate(theirs.getstate()[1])
    back = random.Random()
    back.setstate((3, mine.getstate(), None))
    for method, arg in after:
        expected = draw(theirs, method, arg)
        assert draw(mine, method, arg) == expected
        assert draw(back, method, arg) == expected


@needs_core
@pytest.mark.parametrize("seed", [0, 1, 12345, 2**40 + 3])
def test_the_engine_s_streams_come_out_the_same(seed: int) -> None:
    """The deck shuffle, dice and steals of a game, drawn as the engine draws them."""
    deck = list(engine._FRESH_DECK)
    engine._shuffle(engine._stream(seed, "deck"), deck)
    mine = list(engine._FRESH_DECK)
    native.stream(f"ludolab.catan:deck:{seed}").shuffle(mine)
    assert mine == deck
    theirs, ours = engine._stream(seed, "dice"), native.stream(f"ludolab.catan:dice:{seed}")
    roll = [int(theirs.random() * 6) + int(theirs.random() * 6) + 2 for _ in range(500)]
    assert roll == [int(ours.random() * 6) + int(ours.random() * 6) + 2 for _ in range(500)]
    theirs, ours = engine._stream(seed, "steal"), native.stream(f"ludolab.catan:steal:{seed}")
    sizes = [1 + i % 19 for i in range(200)]
    assert [theirs.randrange(n) for n in sizes] == [ours.randbelow(n) for n in sizes]


@needs_core
def test_bad_calls_raise_and_leave_the_stream_as_it_was() -> None:
    with pytest.raises(ValueError, match="at least one 32-bit word"):
        CORE.Stream([])
    with pytest.raises(ValueError, match=r"key\[1\]: expected an integer in 0..2\*\*32-1"):
        CORE.Stream([3, 2**32])
    with pytest.raises(ValueError, match=r"key\[0\]"):
        CORE.Stream([-1])
    with pytest.raises(TypeError, match="sequence of 32-bit words"):
        CORE.Stream(5)
    s = CORE.Stream([42])
    before = s.getstate()
    with pytest.raises(ValueError, match="k must be in 0..64, got 65"):
        s.getrandbits(65)
    with pytest.raises(ValueError, match="n must be at least 1, got 0"):
        s.randbelow(0)
    with pytest.raises(TypeError, match="expected a list"):
        s.shuffle((1, 2))
    with pytest.raises(ValueError, match="a tuple of 625 integers"):
        s.setstate(before[:-1])
    with pytest.raises(ValueError, match="item 624 is out of range"):
        s.setstate(before[:-1] + (625,))
    with pytest.raises(ValueError, match="item 3 is out of range"):
        s.setstate(before[:3] + (2**32,) + before[4:])
    assert s.getstate() == before


def test_the_switch_and_a_stale_source_run_the_reference(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(native.PURE_PYTHON_ENV, "1")
    native.native.cache_clear()
    try:
        assert native.native() is None
        assert isinstance(native.stream(3), random.Random)
        if CORE is not None:
            monkeypatch.delenv(native.PURE_PYTHON_ENV)
            edited = tmp_path / "core.c"
            edited.write_text(native.SOURCE.read_text() + "\n/* an edit */\n")
            monkeypatch.setattr(native, "SOURCE", edited)
            native.native.cache_clear()
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                assert native.native() is None
            assert "core.c changed since it was compiled" in str(caught[0].message)
    finally:
        native.native.cache_clear()


# A script run under the sanitizers: every method on many seeds against random.Random, and
# every bad call (the checks above, without pytest).
SANITIZED = """
import random, sys
sys.path.insert(0, sys.argv[1])
import _core
from ludolab.envs.catan.native import stream_key
for seed in [0, 1, -7, 2**90 + 5, "", "ludolab.catan:dice:3", "x" * 300]:
    mine, theirs = _core.Stream(stream_key(seed)), random.Random(seed)
    for i in range(3000):
        assert mine.random() == theirs.random()
        assert mine.getrandbits(i % 65) == theirs.getrandbits(i % 65)
        assert mine.randbelow(1 + i * 7919) == theirs._randbelow(1 + i * 7919)
        a, b = list(range(i % 40)), list(range(i % 40))
        mine.shuffle(a); theirs.shuffle(b)
        assert a == b
    assert mine.getstate() == theirs.getstate()[1]
    mine.setstate(theirs.getstate()[1])
for bad in ([], [2**32], [-1], 5):
    try:
        _core.Stream(bad)
    except (ValueError, TypeError):
        pass
    else:
        raise AssertionError(bad)
s = _core.Stream([1])
for call in (lambda: s.getrandbits(65), lambda: s.randbelow(0), lambda: s.shuffle(()),
             lambda: s.setstate(()), lambda: s.setstate(tuple(range(624)) + (625,))):
    try:
        call()
    except (ValueError, TypeError):
        pass
    else:
        raise AssertionError("no error")
print("clean")
"""


@pytest.mark.slow
def test_the_core_is_clean_under_asan_and_ubsan(tmp_path: Path) -> None:
    cc = shutil.which("gcc")
    if cc is None:
        pytest.skip("no gcc to build the sanitized core")
    asan = subprocess.run([cc, "-print-file-name=libasan.so"], capture_output=True, text=True)
    libasan = asan.stdout.strip()
    if not Path(libasan).is_file():
        pytest.skip("gcc has no AddressSanitizer runtime (libasan)")
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    build = subprocess.run(
        [cc, "-shared", "-fPIC", "-O1", "-g", "-fno-omit-frame-pointer",
         "-fsanitize=address,undefined", "-fno-sanitize-recover=undefined", "-Wall", "-Wextra",
         "-Werror", f"-I{sysconfig.get_paths()['include']}", str(native.SOURCE),
         "-o", str(tmp_path / f"_core{suffix}")],
        capture_output=True, text=True,
    )
    assert build.returncode == 0, build.stderr
    env = os.environ | {
        "LD_PRELOAD": libasan,
        "ASAN_OPTIONS": "detect_leaks=0",  # the interpreter's own allocations are not ours
        "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
    }
    run = subprocess.run(
        [sys.executable, "-c", SANITIZED, str(tmp_path)], capture_output=True, text=True, env=env
    )
    assert run.returncode == 0 and run.stdout.strip() == "clean", run.stderr[-3000:]
    assert "runtime error" not in run.stderr and "AddressSanitizer" not in run.stderr
