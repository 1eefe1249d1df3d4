"""Formatting result tables as Markdown, LaTeX (booktabs) and CSV.

:func:`format_table` turns a numeric result table (a :func:`~ludolab.research.stats.pairwise` frame,
an :class:`~ludolab.research.stats.OmnibusResult`, a
:class:`~ludolab.research.stats.RegressionResult`, or any DataFrame) into strings: p-values as
``0.003`` / ``< 0.001``, ``ci_low``/``ci_high`` merged into one ``95% CI`` column ``[a, b]``, effect
sizes with fixed decimals, other numbers to three significant figures, counts as integers, booleans
as yes/no, all by :mod:`ludolab.research.numbers` (no scientific notation). :func:`to_markdown`
and :func:`to_latex` render that; :func:`to_csv` writes the *unformatted* numbers (full
precision).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import pandas as pd

from ludolab.research.markdown import pipe_table
from ludolab.research.numbers import (
    MAX_DECIMALS,
    P_THRESHOLD,
    decimals_for,
    fixed,
    interval,
    is_missing,
    number,
    p_value,
)


class _HasFrame(Protocol):
    def to_frame(self) -> pd.DataFrame: ...


TableLike = pd.DataFrame | _HasFrame

P_COLUMNS = frozenset({"p", "p_adj", "pvalue", "p_value", "f_pvalue"})
"""Column names formatted as p-values (as is any name starting with ``p_``)."""
FIXED_COLUMNS = frozenset({"effect", "std_coef", "ci_low", "ci_high", "r2", "adj_r2", "delta"})
"""Column names formatted with a fixed number of decimals (effect sizes, correlations)."""


NUMERIC_TEXT = re.compile(r"^(< ?|[-−+±])?\d|^—$|^\[")
"""A cell that already holds a number as text (``-3.2 [-7.7, 1.2]``, ``< 0.001``, ``20 / 20``,
``29%``, ``—``): right-aligned like one."""


def format_p(p: float | None, threshold: float = P_THRESHOLD, na_rep: str = "—") -> str:
    """A p-value for a table: ``"0.003"``, ``"0.250"``, ``"< 0.001"``
    (:func:`ludolab.research.numbers.p_value`; ``threshold`` other than 0.001 writes
    ``< threshold``)."""
    if threshold != P_THRESHOLD and not is_missing(p) and float(p) < threshold:  # type: ignore[arg-type]
        return f"< {threshold:g}"
    return p_value(p, na=na_rep)


def format_fixed(x: float | None, decimals: int = 2, na_rep: str = "—") -> str:
    """Fixed decimals, with no negative zero (``-0.00`` becomes ``0.00``) and no thousands
    separator (LaTeX tables read it as a number): :func:`ludolab.research.numbers.fixed`."""
    return fixed(x, decimals, na=na_rep, thousands=False)


def format_ci(
    low: float | None,
    high: float | None,
    decimals: int | None = 2,
    na_rep: str = "—",
    sig: int = 3,
) -> str:
    """A confidence interval as ``"[a, b]"``, both bounds with the same number of decimals:
    ``decimals``, or if ``None`` enough for ``sig`` significant figures of the larger bound."""
    if is_missing(low) or is_missing(high):
        return na_rep
    if decimals is None:
        big = max(abs(float(low)), abs(float(high)))  # type: ignore[arg-type]
        decimals = decimals_for(big, sig, MAX_DECIMALS) if big > 0 else 0
    return interval(low, high, decimals, na=na_rep)


def format_number(x: Any, sig: int = 3, na_rep: str = "—") -> str:
    """A general number (:func:`ludolab.research.numbers.number`): whole numbers as counts
    (``2,400``), other floats to ``sig`` significant figures, never in scientific notation."""
    return number(x, sig, na=na_rep)


def _as_frame(table: TableLike) -> pd.DataFrame:
    if isinstance(table, pd.DataFrame):
        return table
    if hasattr(table, "to_frame"):
        return table.to_frame()
    raise TypeError(f"expected a DataFrame or a result with .to_frame(), got {type(table)}")


def _is_p_column(name: Any) -> bool:
    return isinstance(name, str) and (name in P_COLUMNS or name.startswith("p_"))


def format_table(
    table: TableLike,
    *,
    decimals: int = 2,
    sig: int = 3,
    p_threshold: float = 0.001,
    na_rep: str = "—",
    columns: Sequence[str] | None = None,
    labels: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """Format every cell of ``table`` as a string (see the module docstring).

    ``columns`` selects and orders columns (before merging the CI); ``labels`` renames columns of
    the output (e.g. ``{"p_adj": "p (Holm)"}``). Columns already formatted as text are
    right-aligned when every cell reads as a number (:data:`NUMERIC_TEXT`). The CI column is
    labelled ``"{level}% CI"`` using ``table.attrs["level"]`` when present. The attribute
    ``align`` of the result's ``attrs`` maps each output column to ``"l"`` or ``"r"``.
    """
    df = _as_frame(table)
    attrs = dict(df.attrs)
    if columns is not None:
        df = df[list(columns)]
    out: dict[str, pd.Series] = {}
    align: dict[str, str] = {}
    has_ci = "ci_low" in df.columns and "ci_high" in df.columns
    level = attrs.get("level")
    ci_label = f"{100 * level:g}% CI" if isinstance(level, float | int) else "CI"
    for name in df.columns:
        col = df[name]
        if has_ci and name == "ci_high":
            continue
        if has_ci and name == "ci_low":
            # CIs of effect sizes get fixed decimals; others (e.g. regression coefficients)
            # enough decimals for `sig` significant figures.
            ci_dec = decimals if "effect" in df.columns else None
            out[ci_label] = pd.Series(
                [
                    format_ci(lo, hi, ci_dec, na_rep, sig)
                    for lo, hi in zip(df["ci_low"], df["ci_high"], strict=True)
                ],
                index=df.index,
            )
            align[ci_label] = "r"
            continue
        if pd.api.types.is_bool_dtype(col):
            cells = ["yes" if v else "no" for v in col]
            align[name] = "l"
        elif _is_p_column(name) and pd.api.types.is_numeric_dtype(col):
            cells = [format_p(v, p_threshold, na_rep) for v in col]
            align[name] = "r"
        elif name in FIXED_COLUMNS and pd.api.types.is_numeric_dtype(col):
            cells = [format_fixed(v, decimals, na_rep) for v in col]
            align[name] = "r"
        elif pd.api.types.is_numeric_dtype(col):
            cells = [format_number(v, sig, na_rep) for v in col]
            align[name] = "r"
        else:
            cells = [na_rep if is_missing(v) else str(v) for v in col]
            numeric = all(NUMERIC_TEXT.match(c) or c == na_rep for c in cells) and len(cells)
            align[name] = "r" if numeric else "l"
        out[str(name)] = pd.Series(cells, index=df.index, dtype=object)
    result = pd.DataFrame(out, index=df.index)
    if labels:
        result = result.rename(columns=dict(labels))
        align = {labels.get(k, k): v for k, v in align.items()}
    result.attrs = {**attrs, "align": align}
    return result


def to_markdown(table: TableLike, **format_kwargs: Any) -> str:
    """A GitHub-flavoured Markdown pipe table (numbers right-aligned), ending in a newline.

    Keyword arguments go to :func:`format_table`.
    """
    formatted = format_table(table, **format_kwargs)
    align = formatted.attrs.get("align", {})
    right = [align.get(c) == "r" for c in formatted.columns]
    return pipe_table(list(formatted.columns), formatted.itertuples(index=False), right)


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
}
_LATEX_RE = re.compile("|".join(re.escape(k) for k in _LATEX_SPECIAL))


def escape_latex(text: str) -> str:
    """Escape LaTeX special characters so ``text`` typesets literally in text mode."""
    s = _LATEX_RE.sub(lambda m: _LATEX_SPECIAL[m.group(0)], str(text))
    # A cell starting with "[" right after "\\" would be read as the optional argument of "\\".
    return "{}" + s if s.startswith("[") else s


def to_latex(
    table: TableLike,
    *,
    caption: str | None = None,
    label: str | None = None,
    **format_kwargs: Any,
) -> str:
    """A booktabs ``tabular`` (``\\toprule``/``\\midrule``/``\\bottomrule``; needs
    ``\\usepackage{booktabs}``), every cell escaped. With ``caption`` or ``label`` it is wrapped in
    a ``table`` float (caption is escaped; label is used verbatim). Missing values print as
    ``--``. Keyword arguments go to :func:`format_table`.
    """
    format_kwargs.setdefault("na_rep", "--")
    formatted = format_table(table, **format_kwargs)
    align = formatted.attrs.get("align", {})
    spec = "".join(align.get(c, "l") for c in formatted.columns)
    body = [
        rf"\begin{{tabular}}{{{spec}}}",
        r"\toprule",
        " & ".join(escape_latex(c) for c in formatted.columns) + r" \\",
        r"\midrule",
    ]
    for row in formatted.itertuples(index=False):
        body.append(" & ".join(escape_latex(v) for v in row) + r" \\")
    body += [r"\bottomrule", r"\end{tabular}"]
    if caption is None and label is None:
        return "\n".join(body) + "\n"
    lines = [r"\begin{table}[htbp]", r"\centering"]
    if caption is not None:
        lines.append(rf"\caption{{{escape_latex(caption)}}}")
    if label is not None:
        lines.append(rf"\label{{{label}}}")
    lines += body + [r"\end{table}"]
    return "\n".join(lines) + "\n"


def to_csv(table: TableLike, path: str | Path | None = None, **csv_kwargs: Any) -> str | None:
    """The unformatted table as CSV (full precision, no index); written to ``path`` if given,
    otherwise returned as a string. Keyword arguments go to :meth:`pandas.DataFrame.to_csv`."""
    df = _as_frame(table)
    csv_kwargs.setdefault("index", False)
    if path is None:
        return df.to_csv(**csv_kwargs)
    df.to_csv(path, **csv_kwargs)
    return None
