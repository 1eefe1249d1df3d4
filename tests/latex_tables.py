"""Reading back the journal tables (research/experiment/tables.py) for tests: the column spec,
the header and body cells of a booktabs ``tabular``, and the numbers in its cells checked
against the full-precision CSV they were rounded from."""

from __future__ import annotations

import math
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

_COLUMN_SPEC = re.compile(r"\\begin\{tabular\}\{((?:[^{}]|\{[^{}]*\})*)\}")
_NUMBER = re.compile(r"(?:< ?)?-?\d+(?:\.\d+)?")
_SPLIT = re.compile(r"(?<!\\)&")


@dataclass
class Tabular:
    """One ``tabular``: its column spec, header rows and body rows, as lists of cells."""

    spec: str
    header: list[list[str]]
    body: list[list[str]]


def column_count(spec: str) -> int:
    """Columns of a tabular column spec: each ``l``/``c``/``r`` and each ``p{}``/``m{}``/
    ``b{}``/``X``/``S`` counts one; ``@{}``/``!{}``/``>{}``/``<{}``, ``[options]`` and ``|``
    none;
    ``*{n}{spec}`` n times its spec."""
    while (star := re.search(r"\*\{(\d+)\}\{([^{}]*)\}", spec)) is not None:
        spec = spec[: star.start()] + star.group(2) * int(star.group(1)) + spec[star.end() :]
    spec = re.sub(r"[@!<>]\{[^{}]*\}|\[[^\]]*\]", "", spec)
    spec = re.sub(r"[pmb]\{[^{}]*\}", "p", spec)
    return len(re.findall(r"[lcrpXS]", spec))


def width(row: list[str]) -> int:
    """The columns a row of cells covers (``\\multicolumn{n}`` covers n)."""
    spans = [re.match(r"\\multicolumn\{(\d+)\}", c) for c in row]
    return sum(int(m.group(1)) if m else 1 for m in spans)


def _cells(line: str) -> list[str]:
    line = line.strip()
    line = line.removesuffix(r"\\").strip()
    return [c.strip() for c in _SPLIT.split(line)]


def parse_tabular(tex: str) -> Tabular:
    """The first ``tabular`` of ``tex``; header rows lie between ``\\toprule`` and
    ``\\midrule`` (rule lines such as ``\\cmidrule`` left out), body rows between ``\\midrule``
    and ``\\bottomrule``."""
    match = _COLUMN_SPEC.search(tex)
    assert match, "no \\begin{tabular}{...}"
    lines = tex[match.end() :].splitlines()
    top, mid, bottom = (lines.index(r) for r in (r"\toprule", r"\midrule", r"\bottomrule"))
    header = [_cells(x) for x in lines[top + 1 : mid] if not x.startswith(r"\cmidrule")]
    body = [_cells(x) for x in lines[mid + 1 : bottom] if x.strip()]
    return Tabular(match.group(1), header, body)


def plain(cell: str) -> str:
    """A cell's LaTeX for numbers: typographic minus and ``$<$`` as text, marks removed."""
    for mark in (r"$^{\dagger}$", r"$^{\ddagger}$"):
        cell = cell.replace(mark, "")
    return cell.replace("$-$", "-").replace("$<$", "<")


def numbers(cell: str) -> list[str]:
    """The numbers of a cell as written (``-3.6``, ``< 0.001``); ``--`` (missing) as is."""
    text = plain(cell)
    return ["--"] if text.strip() == "--" else _NUMBER.findall(text)


def check_number(written: str, value: float, where: str) -> None:
    """``written`` is ``value`` rounded to as many decimals as ``written`` shows (``--`` for a
    missing value, ``< 0.001`` for a p-value below it)."""
    if written == "--":
        assert value is None or math.isnan(value), f"{where}: '--' for {value}"
        return
    assert value is not None and not math.isnan(value), f"{where}: {written} for a missing value"
    if written.startswith("<"):
        assert value < float(written[1:]), f"{where}: {written} for {value}"
        return
    decimals = len(written.partition(".")[2])
    assert float(written) == float(f"{value:.{decimals}f}"), f"{where}: {written} for {value}"


def check_comparison_table(tex: str, rows: pd.DataFrame, full: pd.DataFrame) -> None:
    """Every number of a comparison table (``tex``) is its row of ``full`` (the run's
    ``comparisons.csv``) rounded as written: setups, means, difference and interval, MDE and
    adjusted p, with a dagger exactly where the corrected test is significant. ``rows`` is
    the table's CSV (same rows, in order), whose keys find each row in ``full``."""
    table = parse_tabular(tex)
    assert len(table.body) == len(rows), (len(table.body), len(rows))
    keys = ["lineup", "metric", "condition1", "condition2"]
    indexed = full.set_index(keys)
    for i, (cells, (_, row)) in enumerate(zip(table.body, rows.iterrows(), strict=True)):
        ref = indexed.loc[tuple(row[k] for k in keys)]
        where = f"row {i} ({', '.join(str(row[k]) for k in keys)})"
        # the row's own CSV holds the same numbers as comparisons.csv, unrounded
        for col in ("n1", "n2", "mean1", "mean2", "diff", "diff_low", "diff_high", "mde", "p_adj"):
            a, b = float(row[col]), float(ref[col])
            assert (math.isnan(a) and math.isnan(b)) or a == b, f"{where}: {col} {a} != {b}"
        setups = numbers(cells[2])
        check_number(setups[0], float(ref["n1"]), where)
        check_number(setups[-1], float(ref["n2"]), where)
        check_number(numbers(cells[3])[0], float(ref["mean1"]), where)
        check_number(numbers(cells[4])[0], float(ref["mean2"]), where)
        diff = numbers(cells[5])
        check_number(diff[0], float(ref["diff"]), where)
        if len(diff) > 1:
            check_number(diff[1], float(ref["diff_low"]), where)
            check_number(diff[2], float(ref["diff_high"]), where)
        else:
            assert math.isnan(float(ref["diff_low"])), f"{where}: interval missing"
        check_number(numbers(cells[6])[0], float(ref["mde"]), where)
        check_number(numbers(cells[7])[0], float(ref["p_adj"]), where)
        assert (r"\dagger" in cells[7]) == bool(ref["significant"]), where


def check_trend_table(tex: str, trends: pd.DataFrame) -> None:
    """Every number of the trend table is its row of ``trends`` (the run's ``trends.csv``)
    rounded as written: swept values, setups, slope and its interval, adjusted p."""
    table = parse_tabular(tex)
    assert len(table.body) == len(trends)
    for i, (cells, (_, ref)) in enumerate(zip(table.body, trends.iterrows(), strict=True)):
        where = f"trend row {i} ({ref['lineup']}, {ref['metric']})"
        check_number(numbers(cells[3])[0], float(ref["values"]), where)
        check_number(numbers(cells[4])[0], float(ref["setups"]), where)
        slope = numbers(cells[5])
        check_number(slope[0], float(ref["slope"]), where)
        if len(slope) > 1:
            check_number(slope[1], float(ref["slope_low"]), where)
            check_number(slope[2], float(ref["slope_high"]), where)
        check_number(numbers(cells[6])[0], float(ref["p_adj"]), where)
        assert (r"\dagger" in cells[6]) == bool(ref["significant"]), where


def tex_engine() -> list[str] | None:
    """A command that compiles a .tex file to PDF without stopping for input, or None."""
    if shutil.which("latexmk"):
        return ["latexmk", "-pdf", "-interaction=nonstopmode", "-halt-on-error"]
    if shutil.which("pdflatex"):
        return ["pdflatex", "-interaction=nonstopmode", "-halt-on-error"]
    if shutil.which("tectonic"):
        return ["tectonic"]
    return None


def compile_tables(tables: list[Path], folder: Path) -> tuple[int, str]:
    """Compile a two-column article with booktabs that ``\\input``'s each table; return the
    engine's exit status and its log (where LaTeX reports an overfull box: a table wider
    than the page)."""
    engine = tex_engine()
    assert engine is not None
    # Copies beside the document: \input of a relative name, whatever the temporary path.
    for i, p in enumerate(tables):
        shutil.copyfile(p, folder / f"table{i}.tex")
    body = "\n".join(rf"\input{{table{i}}}" for i in range(len(tables)))
    doc = folder / "tables.tex"
    doc.write_text(
        "\\documentclass[twocolumn]{article}\n\\usepackage[T1]{fontenc}\n"
        "\\usepackage{booktabs}\n\\begin{document}\n" + body + "\n\\end{document}\n"
    )
    if engine[0] == "tectonic":
        engine = [*engine, "--keep-logs"]
    done = subprocess.run(
        [*engine, doc.name], cwd=folder, capture_output=True, text=True, timeout=300
    )
    log = folder / "tables.log"
    return done.returncode, (log.read_text(errors="replace") if log.exists() else done.stdout)
