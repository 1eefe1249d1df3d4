"""Constraint sets: TOML files that list library constraints with their parameters.

Format::

    name = "official"                       # optional; defaults to the file name
    description = "6 and 8 never adjacent"  # optional
    layout = "standard"                     # optional

    [[constraint]]
    name = "red-numbers-apart"             # a library constraint (`ludolab constraints list`)
    numbers = [6, 8]                        # its parameters; omitted ones take their defaults

    [[constraint]]
    name = "minizinc"                       # raw MiniZinc: solver face only, no Python face
    code = "terrain[10] = 5"                # a boolean expression over terrain/number/harbor
    reads = ["terrain"]

Shipped sets live in ``research/catan/constraint_sets/``; a set is named by its file stem there
or by a path to a ``.toml`` file.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ludolab.research.catan.catalog import shipped_sets as shipped_sets  # re-exported
from ludolab.research.catan.constraints import (
    PARTS,
    Constraint,
    ConstraintError,
    Fixed,
    make_constraint,
)
from ludolab.research.suggest import did_you_mean


class ConstraintSetError(ValueError):
    """A constraint set file is missing or malformed; the message names file and entry."""


@dataclass(frozen=True)
class RawMiniZinc:
    """A user's raw MiniZinc constraint: only a solver face."""

    code: str
    reads: frozenset[str]

    def describe(self) -> str:
        return f"minizinc({self.code!r})"


@dataclass(frozen=True)
class ConstraintSet:
    """A named list of constraints on one layout.

    Attributes:
        name: the set's name (file stem for shipped sets).
        constraints: library constraints (both faces).
        raw: raw MiniZinc constraints (solver face only).
        source: where it was read from, for messages.
    """

    name: str
    constraints: tuple[Constraint, ...]
    raw: tuple[RawMiniZinc, ...] = ()
    description: str = ""
    layout: str = "standard"
    source: str = "<constraint set>"
    params_overridden: dict[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """How messages name this set."""
        return f"constraint set {self.name!r}"

    @property
    def reads(self) -> frozenset[str]:
        """Board parts that some constraint looks at."""
        parts = set()
        for c in (*self.constraints, *self.raw):
            parts |= c.reads
        return frozenset(parts)

    @property
    def fixed(self) -> dict[str, tuple[int, ...]]:
        """Parts fixed by a ``fixed`` constraint: part -> codes."""
        out: dict[str, tuple[int, ...]] = {}
        for c in self.constraints:
            if isinstance(c, Fixed):
                out.update({p: c.values[p] for p in PARTS if c.values[p] is not None})
        return out

    @property
    def has_python_faces(self) -> bool:
        return not self.raw

    def check(self, terrain: np.ndarray, numbers: np.ndarray, harbors: np.ndarray) -> np.ndarray:
        """All Python faces on a batch: (B, n_hexes), (B, n_hexes), (B, n_slots) -> (B,) bool.

        Each constraint sees only the boards that passed the ones before it, so a tight first
        constraint makes the rest cheap (the samplers check millions of boards).
        """
        alive = np.arange(terrain.shape[0])
        for c in self.constraints:
            if not alive.size:
                break
            if alive.size == terrain.shape[0]:
                alive = alive[c.check(terrain, numbers, harbors)]
            else:
                alive = alive[c.check(terrain[alive], numbers[alive], harbors[alive])]
        ok = np.zeros(terrain.shape[0], dtype=bool)
        ok[alive] = True
        return ok

    def violated(self, terrain: np.ndarray, numbers: np.ndarray, harbors: np.ndarray) -> list[str]:
        """Names of the constraints one board (1-D arrays) violates, by the Python faces."""
        t, n, h = terrain[None, :], numbers[None, :], harbors[None, :]
        return [c.describe() for c in self.constraints if not c.check(t, n, h)[0]]

    def describe(self) -> str:
        lines = [f"{self.name}: {self.description}".rstrip(": ")]
        lines += [f"  - {c.describe()}" for c in (*self.constraints, *self.raw)]
        if not self.constraints and not self.raw:
            lines.append("  (no constraints: a fair shuffle)")
        return "\n".join(lines)


def load_constraint_set(
    name_or_path: str | Path,
    overrides: dict[str, Any] | None = None,
    overrides_from: str = "--param",
) -> ConstraintSet:
    """Load a shipped set by name, or a TOML file by path.

    Args:
        name_or_path: a shipped set's name (see :func:`shipped_sets`) or a path to a .toml file.
        overrides: ``{"constraint-name.param": value}`` replacing parameters in the file, e.g.
            ``{"seed-2019-marker-threshold.threshold": 22}``.
        overrides_from: where the overrides were given, for messages: a bad override is blamed
            on it (``--param red-numbers-apart.numbers``), not on the set's file.
    """
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.exists():
        if not path.is_file():
            raise ConstraintSetError(f"{path}: no such constraint set file")
        text, source, default_name = path.read_text(), str(path), path.stem
    else:
        folder = resources.files("ludolab.research.catan") / "constraint_sets"
        shipped = folder / f"{name_or_path}.toml"
        if not shipped.is_file():
            from ludolab import games

            # Another game's set given here: say whose (the registry, not its code).
            others = [games.get(n) for n in games.names() if n != "catan"]
            theirs = {s: g for g in others for s in g.shipped_sets()}
            hint = did_you_mean(str(name_or_path), [*shipped_sets(), *theirs])
            if str(name_or_path) in theirs:
                owner = theirs[str(name_or_path)]
                hint = f"that is a {owner.title} set (ludolab generate {owner.name}); "
            raise ConstraintSetError(
                f"unknown constraint set {str(name_or_path)!r}; {hint}shipped sets: "
                f"{', '.join(shipped_sets())}; or give a path to a .toml file"
            )
        text, source, default_name = (
            shipped.read_text(),
            f"constraint_sets/{name_or_path}.toml",
            str(name_or_path),
        )
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConstraintSetError(f"{source}: not valid TOML: {exc}") from exc
    return parse_constraint_set(data, source, default_name, overrides or {}, overrides_from)


def parse_constraint_set(
    data: dict[str, Any],
    source: str,
    default_name: str,
    overrides: dict[str, Any],
    overrides_from: str = "--param",
) -> ConstraintSet:
    """Build a :class:`ConstraintSet` from parsed TOML; errors name ``source`` and the entry,
    or ``overrides_from`` and the override when an override is what is wrong."""
    allowed_top = {"name", "description", "layout", "constraint"}
    extra = set(data) - allowed_top
    if extra:
        raise ConstraintSetError(
            f"{source}: unknown key {sorted(extra)[0]!r}; allowed keys: "
            f"{', '.join(sorted(allowed_top))} (constraints go in "
            f"[[constraint]] tables)"
        )
    layout = str(data.get("layout", "standard"))
    entries = data.get("constraint", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise ConstraintSetError(
            f"{source}: 'constraint' must be an array of tables "
            f"([[constraint]] with a name and parameters)"
        )
    pending = dict(overrides)
    constraints: list[Constraint] = []
    raw: list[RawMiniZinc] = []
    for i, entry in enumerate(entries):
        where = f"{source}: constraint[{i}]"
        if "name" not in entry:
            raise ConstraintSetError(f"{where}: missing 'name' (see `ludolab constraints list`)")
        cname = entry["name"]
        written = {k: v for k, v in entry.items() if k != "name"}
        params = dict(written)
        applied = []
        for key in list(pending):
            target, _, param = key.partition(".")
            if target == cname:
                params[param] = pending.pop(key)
                applied.append(key)
        if cname == "minizinc":
            raw.append(_parse_raw(params, where))
            continue
        try:
            constraints.append(make_constraint(cname, layout, **params))
        except ConstraintError as exc:
            if applied and _builds(cname, layout, written):
                shown = " ".join(f"{k}={overrides[k]!r}" for k in applied)
                raise ConstraintSetError(f"{overrides_from} {shown}: {exc}") from None
            raise ConstraintSetError(f"{where}: {exc}") from None
    if pending:
        names = sorted({e.get("name", "?") for e in entries})
        wrong = sorted(pending)[0]
        hint = did_you_mean(wrong.partition(".")[0], names)
        raise ConstraintSetError(
            f"{overrides_from} {wrong}: {source} has no constraint "
            f"{wrong.partition('.')[0]!r}; {hint}its constraints: {', '.join(names) or 'none'}"
        )
    return ConstraintSet(
        name=str(data.get("name", default_name)),
        constraints=tuple(constraints),
        raw=tuple(raw),
        description=str(data.get("description", "")),
        layout=layout,
        source=source,
        params_overridden=dict(overrides),
    )


def _builds(name: str, layout: str, params: dict[str, Any]) -> bool:
    """Whether library constraint ``name`` accepts ``params`` as written in the file."""
    try:
        make_constraint(name, layout, **params)
    except ConstraintError:
        return False
    return True


def _parse_raw(params: dict[str, Any], where: str) -> RawMiniZinc:
    code, reads = params.get("code"), params.get("reads", list(PARTS))
    if not isinstance(code, str) or not code.strip():
        raise ConstraintSetError(
            f"{where}: a 'minizinc' constraint needs code = \"<a MiniZinc "
            f'boolean expression over terrain, number, harbor>"'
        )
    if not isinstance(reads, list) or not set(reads) <= set(PARTS):
        raise ConstraintSetError(f"{where}: 'reads' must list parts from {', '.join(PARTS)}")
    unknown = set(params) - {"code", "reads"}
    if unknown:
        raise ConstraintSetError(
            f"{where}: unknown key {sorted(unknown)[0]!r} for a 'minizinc' "
            f"constraint (allowed: code, reads)"
        )
    return RawMiniZinc(code.strip().rstrip(";"), frozenset(reads))
