"""How every number of a report is written: one module, so a quantity reads the same wherever
it appears (the run's report and terminal summary, ``comparisons.md``, the design search's
report).

The rules:

* no scientific notation, ever: a value is written with decimals (``0.000635``) or, where the
  context fixes a precision, rounded to it (a shift of 2e-17 in a metric written with three
  decimals is ``0.000``);
* one precision per quantity: the callers choose a number of decimals for a column or a metric
  (:func:`decimals_for`: two significant figures of its typical interval width, as the journal
  tables do) and write every value of it with :func:`fixed`;
* counts are integers with thousands separators (``2,400``; ``30``, not ``30.0``);
* p-values have three decimals or are below 0.001: ``0.003``, ``1.000``, ``< 0.001``; in a
  sentence ``p = 0.003`` / ``p < 0.001`` (:func:`p_is`). A p-value below alpha is never
  rounded up to it (``0.0499``, not ``0.050``);
* no negative zero (``-0.00`` is ``0.00``), and ``—`` for a missing value;
* a value someone wrote (a margin, a parameter) reads as written: ``0.01``, ``4``
  (:func:`plain`);
* words agree with their counts: ``1 test``, ``2 tests`` (:func:`plural`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

MISSING = "—"
"""A missing value (NaN, None) in a report."""

MAX_DECIMALS = 6
"""The most decimals :func:`number` writes; a value that rounds to zero there is ``0``."""

P_THRESHOLD = 0.001
"""p-values below it are written ``< 0.001``."""

MINUS = "-"


def is_missing(x: Any) -> bool:
    """None, pandas' NA, or a float NaN (Python's or NumPy's)."""
    if x is None or type(x).__name__ == "NAType":
        return True
    if isinstance(x, float) or getattr(getattr(x, "dtype", None), "kind", "") == "f":
        return bool(math.isnan(x))
    return False


def _float(x: Any) -> float | None:
    """``x`` as a finite-or-infinite float, None when missing or not a number."""
    if is_missing(x) or isinstance(x, bool):
        return None
    try:
        value = float(x)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(value) else value


def decimals_for(scale: float | None, sig: int = 2, most: int = 4) -> int:
    """Decimals that show ``scale`` (a typical width or magnitude) with ``sig`` significant
    figures, between 0 and ``most``; 2 when the scale is unknown (NaN, None or 0)."""
    value = _float(scale)
    if value is None or not math.isfinite(value) or value == 0:
        return 2
    return int(min(max(sig - 1 - math.floor(math.log10(abs(value))), 0), most))


def median_scale(*columns: Iterable[Any]) -> float:
    """The median absolute value of the first of ``columns`` that has a finite non-zero one
    (NaN when none has): the scale :func:`decimals_for` turns into decimals."""
    for column in columns:
        values = sorted(
            abs(v) for v in (_float(x) for x in column) if v is not None and math.isfinite(v) and v
        )
        if values:
            mid = len(values) // 2
            return values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2
    return float("nan")


def fixed(
    x: Any, decimals: int, *, sign: bool = False, na: str = MISSING, thousands: bool = True
) -> str:
    """``x`` with ``decimals`` decimals (thousands separated unless ``thousands`` is False),
    no negative zero; ``sign`` writes a plus on positive values (``+1.2``); ``na`` for a
    missing value."""
    value = _float(x)
    if value is None:
        return na
    if math.isinf(value):
        return "infinite" if value > 0 else "minus infinite"
    text = f"{value:{',' if thousands else ''}.{decimals}f}"
    if text.lstrip("-").strip("0.,") == "":  # rounds to zero: no sign at all
        return text.lstrip("-")
    if sign and not text.startswith("-"):
        return "+" + text
    return text


def number(x: Any, sig: int = 3, *, na: str = MISSING, trim: bool = False) -> str:
    """A number without a fixed precision: whole numbers as counts (:func:`count`), other
    floats to ``sig`` significant figures (at most :data:`MAX_DECIMALS` decimals, ``0`` when
    they round to zero there; large values keep every integer digit; ``trim`` drops trailing
    zeros, for a level such as alpha / m: ``0.025``), booleans as yes/no, text as is."""
    if is_missing(x):
        return na
    if isinstance(x, bool) or type(x).__name__ == "bool_":
        return "yes" if x else "no"
    if isinstance(x, int) or (hasattr(x, "dtype") and getattr(x.dtype, "kind", "") in "iu"):
        return count(x)
    value = _float(x)
    if value is None:
        return str(x)
    if math.isinf(value) or value == int(value):
        return count(value) if math.isfinite(value) else fixed(value, 0)
    text = fixed(value, decimals_for(value, sig, MAX_DECIMALS))
    if trim and "." in text:  # a level such as alpha / m: 0.025, not 0.0250
        text = text.rstrip("0").rstrip(".")
    return "0" if text.strip("0.") == "" else text


def count(n: Any, *, na: str = MISSING) -> str:
    """A count: ``2,400``; an integer-valued float without ``.0`` (``30``); a fractional one
    (a mean count, ``29.5``) to three significant figures."""
    value = _float(n)
    if value is None:
        return na
    if math.isfinite(value) and value == int(value):
        return f"{int(value):,}"
    return number(value)


def plain(x: Any, *, na: str = MISSING) -> str:
    """A value as it was written (a declared margin, a parameter's value): the shortest
    decimal that reads back as ``x``, without an exponent or a trailing ``.0`` (``0.01``,
    ``4``, ``0.00001``)."""
    value = _float(x)
    if value is None:
        return na
    if not math.isfinite(value):
        return fixed(value, 0)
    from decimal import Decimal

    text = format(Decimal(repr(value)), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def plural(n: Any, word: str, words: str | None = None) -> str:
    """``1 test``, ``2 tests``, ``1,200 games`` (``words``: the plural when not ``word + s``)."""
    many = words if words is not None else word + "s"
    value = _float(n)
    return f"{count(n)} {word if value == 1 else many}"


def with_article(noun: str) -> str:
    """``a board``, ``an order``: the noun with its indefinite article (by its first letter,
    which is right for the setup nouns games use)."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def p_value(p: Any, *, alpha: float = 0.05, na: str = MISSING) -> str:
    """A p-value: ``0.003``, ``0.250``, ``1.000``, ``< 0.001``. One that three decimals would
    round up onto ``alpha`` or onto a multiple of 0.005 up to 0.1 (every conventional level:
    0.005, 0.01, 0.025, 0.05, 0.1) keeps a fourth decimal, cut, not rounded (``0.0499``,
    ``0.0096``), so that a number never reads as the other side of a level, whichever level
    the reader's config uses."""
    value = _float(p)
    if value is None:
        return na
    if value < P_THRESHOLD:
        return f"< {P_THRESHOLD:g}"
    text = f"{value:.3f}"
    shown = float(text)
    on_a_level = shown == alpha or (shown <= 0.1 and round(shown * 1000) % 5 == 0)
    if value < shown and on_a_level:
        # (rounded first: 0.0096 * 1e4 is 95.99999..., whose floor would be 95)
        return f"{math.floor(round(value * 1e4, 6)) / 1e4:.4f}"
    return text


def p_is(p: Any, *, alpha: float = 0.05) -> str:
    """A p-value after ``p`` in a sentence: ``= 0.003`` or ``< 0.001``."""
    text = p_value(p, alpha=alpha)
    return text if text.startswith("<") or text == MISSING else f"= {text}"


def interval(low: Any, high: Any, decimals: int, *, sign: bool = False, na: str = MISSING) -> str:
    """An interval as ``[low, high]`` with one precision; ``na`` when either end is missing."""
    if _float(low) is None or _float(high) is None:
        return na
    return f"[{fixed(low, decimals, sign=sign)}, {fixed(high, decimals, sign=sign)}]"


def percent(share: Any, decimals: int = 0, *, na: str = MISSING) -> str:
    """A share as a percentage: ``0.2875`` is ``29%`` (``decimals`` of the percentage)."""
    value = _float(share)
    if value is None:
        return na
    return fixed(100 * value, decimals) + "%"


def one_in(share: Any, *, na: str = MISSING) -> str:
    """A small share (an acceptance rate) a reader can picture: ``0.137``, or below 0.001
    ``1 in 4,300,000`` (two significant figures of the odds)."""
    value = _float(share)
    if value is None:
        return na
    if value <= 0:
        return "0"
    if value >= P_THRESHOLD:
        return number(value)
    odds = 1 / value
    step = 10 ** max(math.floor(math.log10(odds)) - 1, 0)
    return f"1 in {count(round(odds / step) * step)}"


__all__ = [
    "MISSING",
    "count",
    "decimals_for",
    "fixed",
    "interval",
    "is_missing",
    "median_scale",
    "number",
    "one_in",
    "p_is",
    "p_value",
    "percent",
    "plain",
    "plural",
]
