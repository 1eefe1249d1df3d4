"""Constraints on the prize order, the sets that combine them, and the rejection sampler.

A *constraint set* is a TOML file with a ``name``, a ``description`` and ``[[constraint]]``
tables, each a constraint's ``name`` and its parameters (the shape of ludolab's own sets)::

    name = "back-loaded"
    description = "The big prizes come late."

    [[constraint]]
    name = "back-loaded"
    k = 4
    min = 36

The sets shipped with the package are in ``sets/`` (:func:`shipped_sets`); a condition may name
one of them or a file. Parameters are overridden flat, ``{"back-loaded.min": 40}``.

Constraints (:data:`CONSTRAINTS`; positions count from round 1, K = the ``cards`` option):

* ``back-loaded``: the last ``k`` prizes sum to at least ``min`` points.
* ``front-loaded``: the first ``k`` prizes sum to at least ``min`` points.
* ``balanced-halves``: the first ``K // 2`` prizes and the last ``K // 2`` differ in sum by at
  most ``tolerance`` points (with an odd K the middle prize belongs to neither half).

Every constraint reads the order only through sums of prizes over a prefix or a suffix, so the
number of orders a set allows can be counted exactly (:func:`count_orders`): cut the positions
at every window's ends into *zones*, hand the cards 1..K to the zones one by one keeping each
zone's count and each constraint's running value, and multiply the assignments that satisfy
every constraint by the orders within the zones (``prod size!``). That proves a set empty
(:class:`ludolab.games.SetupSetError` when it is loaded) and gives the exact share of fair
shuffles it accepts.

**The sampler** ``rejection`` shuffles the prize deck fairly (every order equally likely) and
keeps the orders that satisfy the set: uniform over the satisfying orders, every random choice
from the seed given. It reports the acceptance it measured (hits / shuffles).
"""

from __future__ import annotations

import math
import random
import time
import tomllib
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar

from ludolab.games import SetupSetError
from ludolab_goofspiel.engine import PrizeOrder

SETS_PACKAGE, SETS_FOLDER = "ludolab_goofspiel", "sets"
"""Where the shipped sets are: ``ludolab_goofspiel/sets/<name>.toml``."""

DEFAULT_CARDS = 13
"""K of the standard rules (the options' default), against which a set's own consistency is
judged when a rule option makes it empty."""

MAX_DRAWS = 2_000_000
"""Fair shuffles the rejection sampler may try per call (about ten seconds)."""

COUNT_STATES = 300_000
"""The exact count gives up (the set is then only checked by sampling) when its table of
partial assignments grows beyond this many entries."""


class SamplingError(RuntimeError):
    """The rejection sampler cannot deliver the orders asked for (the set accepts too few)."""


@dataclass(frozen=True)
class Param:
    """One parameter of a constraint: an integer with a default, a minimum and a unit."""

    default: int
    minimum: int
    unit: str
    doc: str


class Constraint:
    """A test of the prize order through one linear value of window sums.

    ``terms()`` lists ``(start, stop, coefficient)``: the value is the sum over terms of
    ``coefficient * sum(prizes[start:stop])``; ``accepts(value)`` decides. ``clamp`` may merge
    values that ``accepts`` (and every later card) cannot tell apart, for the exact count.
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    params: ClassVar[dict[str, Param]]

    def __init__(self, cards: int, values: Mapping[str, int]) -> None:
        self.cards = cards
        self.values = {p: int(values[p]) for p in self.params}

    def terms(self) -> tuple[tuple[int, int, int], ...]:
        raise NotImplementedError

    def accepts(self, value: int) -> bool:
        raise NotImplementedError

    def clamp(self, value: int) -> int:
        return value

    def problem(self) -> str | None:
        """Why this constraint alone allows no order of K prizes (a bound), or None."""
        return None

    def value(self, prizes: Sequence[int]) -> int:
        return sum(c * sum(prizes[a:b]) for a, b, c in self.terms())

    def holds(self, prizes: Sequence[int]) -> bool:
        return self.accepts(self.value(prizes))

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, **self.values}


def _top(cards: int, k: int) -> int:
    """The largest sum of ``k`` distinct prizes of 1..cards."""
    return sum(range(cards - k + 1, cards + 1))


class _Loaded(Constraint):
    """At least ``min`` points in ``k`` prizes at one end of the order."""

    params: ClassVar[dict[str, Param]] = {
        "k": Param(4, 1, "prizes", "how many prizes at that end of the order"),
        "min": Param(36, 0, "points", "the least they sum to"),
    }
    end: ClassVar[str]

    def _window(self) -> tuple[int, int]:
        k = self.values["k"]
        return (self.cards - k, self.cards) if self.end == "last" else (0, k)

    def terms(self) -> tuple[tuple[int, int, int], ...]:
        return ((*self._window(), 1),)

    def accepts(self, value: int) -> bool:
        return value >= self.values["min"]

    def clamp(self, value: int) -> int:
        return min(value, self.values["min"])  # prizes only add: beyond min is all the same

    def problem(self) -> str | None:
        k, least = self.values["k"], self.values["min"]
        if k > self.cards:
            return f"{self.name}.k = {k} but there are only {self.cards} prizes"
        if least > _top(self.cards, k):
            return (
                f"{self.name}.min = {least} but {k} prizes of 1..{self.cards} sum to at most "
                f"{_top(self.cards, k)}"
            )
        return None


class BackLoaded(_Loaded):
    name = "back-loaded"
    summary = "the last k prizes sum to at least min points"
    end = "last"


class FrontLoaded(_Loaded):
    name = "front-loaded"
    summary = "the first k prizes sum to at least min points"
    end = "first"


class BalancedHalves(Constraint):
    name = "balanced-halves"
    summary = (
        "the first K // 2 prizes and the last K // 2 differ in sum by at most tolerance points "
        "(an odd K's middle prize in neither half)"
    )
    params: ClassVar[dict[str, Param]] = {
        "tolerance": Param(3, 0, "points", "the largest difference of the halves' sums"),
    }

    def terms(self) -> tuple[tuple[int, int, int], ...]:
        h = self.cards // 2
        return ((0, h, 1), (self.cards - h, self.cards, -1))

    def accepts(self, value: int) -> bool:
        return abs(value) <= self.values["tolerance"]


CONSTRAINTS: dict[str, type[Constraint]] = {
    c.name: c for c in (BackLoaded, FrontLoaded, BalancedHalves)
}
"""The constraint library by name."""


@dataclass(frozen=True)
class PrizeSet:
    """A constraint set bound to K prizes, ready to test and draw orders.

    Attributes:
        name, description: the set's.
        source: where it came from, for messages (``sets/back-loaded.toml``, a path, with the
            parameters overridden).
        cards: K.
        constraints: the constraints, in the file's order.
        orders: how many of the K! orders satisfy the set, exactly; None when the count gave up
            (:data:`COUNT_STATES`).
    """

    name: str
    description: str
    source: str
    cards: int
    constraints: tuple[Constraint, ...]
    orders: int | None = field(default=None, compare=False)

    @property
    def share(self) -> float | None:
        """The share of fair shuffles the set accepts, exactly (None when not counted)."""
        return None if self.orders is None else self.orders / math.factorial(self.cards)

    def holds(self, prizes: Sequence[int]) -> bool:
        """Whether the order ``prizes`` (top first) satisfies every constraint."""
        return all(c.holds(prizes) for c in self.constraints)

    def entries(self) -> list[tuple[str, dict[str, int]]]:
        """``(constraint name, parameter values)`` in order."""
        return [(c.name, dict(c.values)) for c in self.constraints]


def describe_constraints() -> str:
    """The constraint library in words, one constraint a paragraph with its parameters (unit,
    default, minimum), lines of at most 100 characters."""
    import textwrap

    lines = ["Goofspiel prize-order constraints (in a set's [[constraint]] table as name = ...):"]
    for cls in CONSTRAINTS.values():
        lines.append(
            textwrap.fill(
                f"{cls.name}: {cls.summary}", 96, initial_indent="  ", subsequent_indent="    "
            )
        )
        for pname, param in cls.params.items():
            lines.append(
                f"    {pname} ({param.unit}, default {param.default}, at least {param.minimum}): "
                f"{param.doc}"
            )
    return "\n".join(lines)


# -- reading sets ----------------------------------------------------------------------------


def shipped_sets() -> list[str]:
    """The names of the sets shipped in ``ludolab_goofspiel/sets``, sorted."""
    from ludolab.research.set_names import shipped_set_names

    return shipped_set_names(SETS_PACKAGE, SETS_FOLDER)


def shipped_set_file(name: str) -> Path:
    """The file of the shipped set ``name``."""
    return Path(str(resources.files(SETS_PACKAGE).joinpath(SETS_FOLDER, f"{name}.toml")))


@dataclass(frozen=True)
class SetFile:
    """A set file as written: its name, description and ``(constraint, parameters)`` entries,
    checked against the library but not yet bound to a number of prizes."""

    name: str
    description: str
    source: str
    entries: tuple[tuple[str, dict[str, Any]], ...]


def read_set(source: str | Path) -> SetFile:
    """The set ``source`` names: a shipped set's name or a ``.toml`` file. SetupSetError (key
    ``constraints``) naming what is wrong: no such set, not TOML, an unknown key, constraint
    or parameter, a value that is not an integer at or above its minimum."""
    from ludolab.research.suggest import did_you_mean

    text = str(source)
    path = Path(source)
    if text in shipped_sets() and not isinstance(source, Path):
        path, label = shipped_set_file(text), f"sets/{text}.toml"
    elif path.suffix == ".toml" or path.is_file():
        if not path.is_file():
            raise SetupSetError("constraints", f"{path}: no such constraint set file")
        label = str(path)
    else:
        raise SetupSetError(
            "constraints",
            f"unknown Goofspiel constraint set {text!r}; {did_you_mean(text, shipped_sets())}"
            f"shipped sets: {', '.join(shipped_sets())}; or a path to a .toml file",
        )
    try:
        data = tomllib.loads(path.read_text())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SetupSetError("constraints", f"{label}: not a valid TOML set file: {exc}") from None
    return parse_set(data, label, path.stem)


def parse_set(data: Mapping[str, Any], label: str, default_name: str) -> SetFile:
    """A set from its TOML data (see :func:`read_set`)."""
    allowed = ("name", "description", "constraint")
    for key in data:
        if key not in allowed:
            raise SetupSetError(
                "constraints",
                f"{label}: unknown key {key!r}; allowed: {', '.join(allowed)} (constraints go "
                f"in [[constraint]] tables)",
            )
    tables = data.get("constraint", [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise SetupSetError("constraints", f"{label}: 'constraint' must be [[constraint]] tables")
    entries = []
    seen: set[str] = set()
    for i, table in enumerate(tables):
        where = f"{label}: constraint[{i}]"
        cname = table.get("name")
        if cname not in CONSTRAINTS:
            raise SetupSetError("constraints", f"{where}: {_unknown_constraint(cname)}")
        if cname in seen:  # parameters are addressed as name.param: names must be unique
            raise SetupSetError(
                "constraints", f"{where}: {cname!r} appears twice; give each constraint once"
            )
        seen.add(cname)
        values = {k: v for k, v in table.items() if k != "name"}
        problem = _check_values(cname, values)
        if problem:
            raise SetupSetError("constraints", f"{where}: {problem}")
        entries.append((cname, values))
    name = data.get("name", default_name)
    description = data.get("description", "")
    if not isinstance(name, str) or not isinstance(description, str):
        raise SetupSetError("constraints", f"{label}: 'name' and 'description' must be strings")
    return SetFile(name, description, label, tuple(entries))


def _unknown_constraint(cname: object) -> str:
    from ludolab.research.suggest import did_you_mean

    return (
        f"unknown constraint {cname!r}; {did_you_mean(str(cname), CONSTRAINTS)}Goofspiel "
        f"constraints: {', '.join(CONSTRAINTS)}"
    )


def _check_values(cname: str, values: Mapping[str, Any]) -> str | None:
    """What is wrong with ``values`` as parameters of ``cname``, or None."""
    params = CONSTRAINTS[cname].params
    for key, value in values.items():
        if key not in params:
            return (
                f"{cname} has no parameter {key!r}; its parameters: {', '.join(params) or 'none'}"
            )
        low = params[key].minimum
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            return f"{cname}.{key} must be an integer >= {low} ({params[key].unit}), got {value!r}"
    return None


def with_params(base: SetFile, params: Mapping[str, Any]) -> SetFile:
    """``base`` with the flat overrides ``params`` (``{"constraint.param": value}``) applied;
    SetupSetError (key ``params``) naming the override that is wrong."""
    entries = {c: dict(v) for c, v in base.entries}
    for key, value in params.items():
        cname, dot, pname = str(key).rpartition(".")
        if not dot or not cname:
            raise SetupSetError(
                "params", f"{key!r}: give a parameter as 'constraint.param' (e.g. back-loaded.min)"
            )
        if cname not in entries:
            known = ", ".join(entries) or "none"
            raise SetupSetError(
                "params",
                f"{key}: set {base.name!r} has no constraint {cname!r}; its constraints: {known}",
            )
        problem = _check_values(cname, {pname: value})
        if problem:
            raise SetupSetError("params", f"{key}: {problem}")
        entries[cname][pname] = value
    shown = " ".join(f"{k}={v!r}" for k, v in params.items())
    source = f"{base.source} with {shown}" if params else base.source
    return SetFile(base.name, base.description, source, tuple(entries.items()))


def bind(set_file: SetFile, cards: int) -> tuple[tuple[Constraint, ...], str | None]:
    """The constraints of ``set_file`` for ``cards`` prizes (defaults filled in), and why the
    set allows no order at all (a constraint's bound, or an exact count of 0), or None."""
    constraints = tuple(_make(c, cards, v) for c, v in set_file.entries)
    for constraint in constraints:
        problem = constraint.problem()
        if problem:
            return constraints, problem
    if constraints and count_orders(constraints, cards) == 0:
        names = " and ".join(c.name for c in constraints)
        both = " together" if len(constraints) > 1 else ""
        return constraints, f"no order of {cards} prizes satisfies {names}{both} (counted)"
    return constraints, None


def _make(cname: str, cards: int, values: Mapping[str, Any]) -> Constraint:
    cls = CONSTRAINTS[cname]
    return cls(cards, {p: values.get(p, d.default) for p, d in cls.params.items()})


def load_prize_set(
    source: str | Path, params: Mapping[str, Any], cards: int = DEFAULT_CARDS
) -> PrizeSet:
    """The set ``source`` with ``params`` applied, bound to ``cards`` prizes and counted.

    SetupSetError, its key naming what to change: ``constraints`` (the set itself is unusable
    or empty), ``params`` (an override is wrong, or makes the set empty), ``options.cards``
    (the set is fine with the standard 13 prizes but has no order of ``cards``).
    """
    base = read_set(source)
    given = with_params(base, params)
    constraints, problem = bind(given, cards)
    if problem:
        if cards != DEFAULT_CARDS and bind(given, DEFAULT_CARDS)[1] is None:
            key = "options.cards"
        elif params and bind(base, cards)[1] is None:
            key = "params"
        else:
            key = "constraints"
        raise SetupSetError(key, f"{given.source} has no prize order: {problem}; loosen it")
    return PrizeSet(
        given.name,
        given.description,
        given.source,
        cards,
        constraints,
        count_orders(constraints, cards) if constraints else math.factorial(cards),
    )


# -- counting --------------------------------------------------------------------------------


def count_orders(constraints: Sequence[Constraint], cards: int) -> int | None:
    """How many orders of the prizes 1..``cards`` satisfy every constraint, exactly (None when
    the count outgrows :data:`COUNT_STATES`); see the module docstring for the method."""
    key = tuple((type(c), tuple(sorted(c.values.items()))) for c in constraints)
    return _count(key, cards)


@lru_cache(maxsize=256)
def _count(
    key: tuple[tuple[type[Constraint], tuple[tuple[str, int], ...]], ...], cards: int
) -> int | None:
    constraints = [cls(cards, dict(values)) for cls, values in key]
    cuts = sorted({0, cards, *(e for c in constraints for a, b, _ in c.terms() for e in (a, b))})
    zones = [(a, b) for a, b in zip(cuts, cuts[1:], strict=False) if b > a]
    sizes = [b - a for a, b in zones]
    # coefficient of zone z in constraint i's value
    weight = [
        [sum(w for a, b, w in c.terms() if a <= lo and hi <= b) for c in constraints]
        for lo, hi in zones
    ]
    # state: (cards in each zone but the last, each constraint's clamped value) -> assignments
    last = len(zones) - 1
    states: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {
        ((0,) * last, (0,) * len(constraints)): 1
    }
    for card in range(1, cards + 1):
        grown: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = defaultdict(int)
        for (counts, values), ways in states.items():
            in_last = card - 1 - sum(counts)
            for z in range(len(zones)):
                if (counts[z] if z < last else in_last) >= sizes[z]:
                    continue
                new_counts = counts if z == last else (*counts[:z], counts[z] + 1, *counts[z + 1 :])
                new_values = tuple(
                    c.clamp(v + card * weight[z][i])
                    for i, (c, v) in enumerate(zip(constraints, values, strict=True))
                )
                grown[new_counts, new_values] += ways
        states = grown
        if len(states) > COUNT_STATES:
            return None
    assignments = sum(
        ways
        for (_, values), ways in states.items()
        if all(c.accepts(v) for c, v in zip(constraints, values, strict=True))
    )
    return assignments * math.prod(math.factorial(s) for s in sizes)


# -- sampling --------------------------------------------------------------------------------


@dataclass
class RejectionReport:
    """What the rejection sampler did: fair shuffles tried, orders kept, seconds taken."""

    draws: int = 0
    hits: int = 0
    seconds: float = 0.0

    @property
    def acceptance(self) -> float | None:
        """The measured share of fair shuffles the set accepted (hits / draws)."""
        return self.hits / self.draws if self.draws else None


def draw_rejection(
    pset: PrizeSet, n: int, seed: int, max_draws: int = MAX_DRAWS
) -> tuple[list[PrizeOrder], RejectionReport]:
    """``n`` prize orders uniform over those satisfying ``pset``: fair shuffles from ``seed``'s
    own stream, kept when the set holds. SamplingError when ``max_draws`` shuffles would not
    be enough (judged up front from the exact share when it is known)."""
    report = RejectionReport()
    share = pset.share
    if share is not None and n > 0 and n / share > max_draws:
        raise SamplingError(
            f"{pset.source}: only {share:.3g} of fair shuffles satisfy the set (counted), so "
            f"{n} orders need about {n / share:,.0f} shuffles, more than the {max_draws:,} the "
            f"rejection sampler tries; loosen the set or ask for fewer orders"
        )
    start = time.perf_counter()
    rng = random.Random(f"ludolab_goofspiel.rejection:{seed}")
    deck = list(range(1, pset.cards + 1))
    holds, shuffle = pset.holds, rng.shuffle
    out: list[PrizeOrder] = []
    while len(out) < n:
        if report.draws >= max_draws:
            report.seconds = time.perf_counter() - start
            raise SamplingError(
                f"{pset.source}: {len(out)} of {report.draws:,} fair shuffles satisfied the set, "
                f"{n} orders were asked for; loosen the set or ask for fewer orders"
            )
        order = deck[:]
        shuffle(order)
        report.draws += 1
        if holds(order):
            out.append(PrizeOrder(tuple(order)))
    report.hits = len(out)
    report.seconds = time.perf_counter() - start
    return out, report


__all__ = [
    "CONSTRAINTS",
    "COUNT_STATES",
    "DEFAULT_CARDS",
    "MAX_DRAWS",
    "BackLoaded",
    "BalancedHalves",
    "Constraint",
    "FrontLoaded",
    "Param",
    "PrizeSet",
    "RejectionReport",
    "SamplingError",
    "SetFile",
    "bind",
    "count_orders",
    "describe_constraints",
    "draw_rejection",
    "load_prize_set",
    "parse_set",
    "read_set",
    "shipped_set_file",
    "shipped_sets",
    "with_params",
]
