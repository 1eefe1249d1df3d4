"""Read a FlatZinc solver's solution stream (the FlatZinc spec's output format).

fzn-gecode prints, for each solution, one ``name = value;`` line per variable annotated
``::output_var`` / ``::output_array``, then ``----------``. The run ends with ``==========``
when the search completed, or ``=====UNSATISFIABLE=====`` / ``=====UNKNOWN=====``.
Values: ``5``, ``-3``, ``true``, ``1.5``, sets ``{1,3}`` / ``1..3``, and arrays
``array1d(1..9, [...])`` / ``array2d(1..3, 1..3, [...])`` (returned as nested lists).

There is no Python FlatZinc-output reader in our dependencies (minizinc-python's dzn parser
needs `lark`), and the grammar is tiny, so it is parsed here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ludolab.research.solve.result import SolverStats, parse_statistics_lines

_TOKEN = re.compile(
    r"\s*(?:(?P<float>-?\d+\.\d+(?:[eE][-+]?\d+)?|-?\d+[eE][-+]?\d+)"
    r"|(?P<int>-?\d+)|(?P<dots>\.\.)|(?P<word>[A-Za-z_]\w*)|(?P<punct>[\[\]{}(),]))"
)
# The common case, a 1-d int array, is read without the general parser (it is the hot path
# when thousands of boards are sampled).
_INT_ARRAY1D = re.compile(r"array1d\(\s*-?\d+\s*\.\.\s*-?\d+\s*,\s*\[([-\d,\s]*)\]\s*\)")
_INT = re.compile(r"-?\d+")


class FznValueError(ValueError):
    """A value in solver output that is not FlatZinc output syntax."""


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.tokens: list[tuple[str, str]] = []
        pos = 0
        while pos < len(text):
            match = _TOKEN.match(text, pos)
            if match is None or match.end() == pos:
                if text[pos:].strip() == "":
                    break
                raise FznValueError(f"unexpected text {text[pos : pos + 20]!r} in {text!r}")
            kind = match.lastgroup or ""
            self.tokens.append((kind, match.group(kind)))
            pos = match.end()
        self.i = 0

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.i] if self.i < len(self.tokens) else ("end", "")

    def take(self, expected: str | None = None) -> tuple[str, str]:
        tok = self.peek()
        if expected is not None and tok[1] != expected:
            raise FznValueError(f"expected {expected!r}, found {tok[1]!r} in {self.text!r}")
        self.i += 1
        return tok

    def value(self) -> Any:
        kind, text = self.take()
        if kind == "int":
            if self.peek()[0] == "dots":  # a set value written as a range
                self.take()
                hi = int(self.take()[1])
                return set(range(int(text), hi + 1))
            return int(text)
        if kind == "float":
            return float(text)
        if kind == "word" and text in ("true", "false"):
            return text == "true"
        if kind == "word" and re.fullmatch(r"array\d+d", text):
            return self.array_nd(int(text[5:-1]))
        if text == "[":
            return self.items("]")
        if text == "{":
            return set(self.items("}"))
        raise FznValueError(f"unexpected {text!r} in {self.text!r}")

    def items(self, close: str) -> list[Any]:
        out: list[Any] = []
        while self.peek()[1] != close:
            out.append(self.value())
            if self.peek()[1] == ",":
                self.take()
        self.take(close)
        return out

    def index_set_length(self) -> int:
        if self.peek()[1] == "{":  # an empty index set may print as {}
            self.take("{")
            self.take("}")
            return 0
        lo = int(self.take()[1])
        if self.take()[0] != "dots":
            raise FznValueError(f"expected an index range in {self.text!r}")
        hi = int(self.take()[1])
        return max(0, hi - lo + 1)

    def array_nd(self, ndim: int) -> list[Any]:
        self.take("(")
        dims = []
        for _ in range(ndim):
            dims.append(self.index_set_length())
            self.take(",")
        self.take("[")
        flat = self.items("]")
        self.take(")")
        return _reshape(flat, dims)


def _reshape(flat: list[Any], dims: list[int]) -> list[Any]:
    if len(dims) <= 1:
        return flat
    step = len(flat) // dims[0] if dims[0] else 0
    return [_reshape(flat[k * step : (k + 1) * step], dims[1:]) for k in range(dims[0])]


def parse_value(text: str) -> Any:
    """Parse one FlatZinc output value (see module docstring) into Python."""
    text = text.strip()
    if _INT.fullmatch(text):
        return int(text)
    if fast := _INT_ARRAY1D.fullmatch(text):
        return [int(v) for v in fast.group(1).split(",") if v.strip()]
    parser = _Parser(text)
    value = parser.value()
    if parser.peek()[0] != "end":
        raise FznValueError(f"trailing text after value in {text!r}")
    return value


def parse_assignments(text: str) -> dict[str, Any]:
    """``"x = 1;\\ny = array1d(1..2, [3, 4]);"`` -> ``{"x": 1, "y": [3, 4]}``."""
    out: dict[str, Any] = {}
    for statement in text.split(";"):  # FlatZinc output has no strings, so ';' only ends items
        if not statement.strip():
            continue
        name, eq, value = statement.partition("=")
        if not eq:
            raise FznValueError(f"not an assignment: {statement.strip()!r}")
        out[name.strip()] = parse_value(value)
    return out


@dataclass
class FznRun:
    """One fzn-gecode run, parsed."""

    solutions: list[dict[str, Any]] = field(default_factory=list)
    complete: bool = False  # "==========": search finished (all solutions / optimum proven)
    unsatisfiable: bool = False
    unknown: bool = False
    other_status: str | None = None  # e.g. "UNBOUNDED", "ERROR"
    stats: SolverStats | None = None
    comments: list[str] = field(default_factory=list)  # non-statistics '%' lines


def parse_solution_stream(text: str) -> FznRun:
    """Parse fzn-gecode's stdout into solutions, final status and statistics."""
    run = FznRun()
    pending: list[str] = []
    stat_lines: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line == "----------":
            run.solutions.append(parse_assignments("\n".join(pending)))
            pending = []
        elif line == "==========":
            run.complete = True
        elif line == "=====UNSATISFIABLE=====":
            run.unsatisfiable = True
        elif line == "=====UNKNOWN=====":
            run.unknown = True
        elif line.startswith("=====") and line.endswith("====="):
            run.other_status = line.strip("=")
        elif line.startswith("%"):
            if line.startswith("%%"):
                stat_lines.append(line)
            else:
                run.comments.append(line)
        else:
            pending.append(line)
    run.stats = SolverStats.from_mapping(parse_statistics_lines(stat_lines))
    return run
