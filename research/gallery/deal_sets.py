"""Deal sets: named lists of deal constraints with their parameters, shipped (deal_sets/*.toml) or
read from a file."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ludolab.research.gallery.deal_constraints import (
    DEAL_CONSTRAINTS,
    DealConstraint,
    DealConstraintError,
    DealContext,
    make_deal_constraint,
)
from ludolab.research.set_names import shipped_set_names
from ludolab.research.suggest import did_you_mean


@dataclass(frozen=True)
class DealSet:
    """A named list of deal constraints (a TOML file in ``deal_sets/``, or built in code)."""

    name: str
    entries: tuple[tuple[str, dict[str, Any]], ...]  # (constraint name, parameters)
    description: str = ""
    source: str = "<deal set>"

    @property
    def label(self) -> str:
        return f"deal set {self.name!r}"

    def bind(self, ctx: DealContext) -> list[DealConstraint]:
        out = []
        for i, (cname, values) in enumerate(self.entries):
            try:
                out.append(make_deal_constraint(cname, ctx, **values))
            except DealConstraintError as exc:
                raise DealConstraintError(f"{self.source}: constraint[{i}]: {exc}") from None
        return out


def shipped_deal_sets() -> list[str]:
    """Names of the deal sets shipped with ludolab."""
    return shipped_set_names("ludolab.research", "gallery", "deal_sets")


def load_deal_set(name_or_path: str | Path) -> DealSet:
    """A shipped deal set by name, a ``.toml`` file, or library constraint names ("a,b")."""
    path = Path(name_or_path)
    spec = str(name_or_path)
    if path.suffix == ".toml" or (path.exists() and path.is_file()):
        if not path.is_file():
            raise DealConstraintError(f"{path}: no such deal set file")
        text, source, stem = path.read_text(), str(path), path.stem
    elif spec in shipped_deal_sets():
        folder = resources.files("ludolab.research.gallery") / "deal_sets"
        text, source, stem = (folder / f"{spec}.toml").read_text(), f"deal_sets/{spec}.toml", spec
    else:
        names = [s.strip() for s in spec.split(",") if s.strip()]
        unknown = [s for s in names if s not in DEAL_CONSTRAINTS]
        if not names or unknown:
            wrong = (unknown or [spec])[0]
            hint = did_you_mean(wrong, [*shipped_deal_sets(), *DEAL_CONSTRAINTS])
            raise DealConstraintError(
                f"unknown deal set or constraint {wrong!r}; {hint}shipped deal sets: "
                f"{', '.join(shipped_deal_sets()) or 'none'}; deal constraints: "
                f"{', '.join(sorted(DEAL_CONSTRAINTS))}; or a path to a .toml file"
            )
        return DealSet(spec, tuple((s, {}) for s in names), source=f"constraints {spec!r}")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DealConstraintError(f"{source}: not valid TOML: {exc}") from exc
    return parse_deal_set(data, source, stem)


def parse_deal_set(data: Mapping[str, Any], source: str, default_name: str) -> DealSet:
    allowed = {"name", "description", "constraint"}
    extra = set(data) - allowed
    if extra:
        raise DealConstraintError(
            f"{source}: unknown key {sorted(extra)[0]!r}; allowed keys: "
            f"{', '.join(sorted(allowed))} (constraints go in [[constraint]] tables)"
        )
    entries = data.get("constraint", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise DealConstraintError(
            f"{source}: 'constraint' must be an array of tables ([[constraint]] with a name "
            f"and parameters)"
        )
    out = []
    for i, e in enumerate(entries):
        if "name" not in e:
            raise DealConstraintError(f"{source}: constraint[{i}]: missing 'name'")
        if e["name"] not in DEAL_CONSTRAINTS:
            raise DealConstraintError(
                f"{source}: constraint[{i}]: unknown deal constraint {e['name']!r}; "
                f"{did_you_mean(e['name'], DEAL_CONSTRAINTS)}known: "
                f"{', '.join(sorted(DEAL_CONSTRAINTS))}"
            )
        out.append((e["name"], {k: v for k, v in e.items() if k != "name"}))
    return DealSet(
        str(data.get("name", default_name)),
        tuple(out),
        str(data.get("description", "")),
        source,
    )


def as_deal_set(
    constraints: Any, params: Mapping[str, Any] | None, overrides_from: str = "params"
) -> DealSet:
    """Normalise the ``constraints`` argument and merge ``params`` into it; messages name the
    overrides as given in ``overrides_from`` (the ``--param`` flag, a config's ``params``)."""
    if isinstance(constraints, DealSet):
        dset = constraints
    elif isinstance(constraints, (str, Path)):
        dset = load_deal_set(constraints)
    elif isinstance(constraints, (list, tuple, set, frozenset)):
        names = sorted(constraints) if isinstance(constraints, (set, frozenset)) else constraints
        for c in names:
            if c not in DEAL_CONSTRAINTS:
                raise DealConstraintError(
                    f"unknown deal constraint {c!r}; {did_you_mean(c, DEAL_CONSTRAINTS)}known "
                    f"deal constraints: {', '.join(sorted(DEAL_CONSTRAINTS))}"
                )
        label = ",".join(names) or "fair"
        dset = DealSet(label, tuple((c, {}) for c in names), source=f"constraints {label!r}")
    else:
        raise DealConstraintError(
            f"constraints must be a deal set name, a .toml path, a list of constraint names or "
            f"a DealSet; got {type(constraints).__name__}"
        )
    if not params:
        return dset
    # params: {"name": {"param": v}} or {"name.param": v}
    flat: dict[tuple[str, str], Any] = {}
    for key, value in params.items():
        if isinstance(value, Mapping):
            for k, v in value.items():
                flat[(key, k)] = v
        else:
            cname, dot, pname = str(key).partition(".")
            if not dot:
                raise DealConstraintError(
                    f"parameter {key!r}: give it as 'constraint.param' or as "
                    f"{{constraint: {{param: value}}}}"
                )
            flat[(cname, pname)] = value
    names = {c for c, _ in dset.entries}
    flat_names = {c: p for c, p in flat}
    for cname, _ in flat:
        if cname not in names:
            raise DealConstraintError(
                f"{overrides_from} {cname}.{flat_names[cname]}: {dset.label} has no constraint "
                f"{cname!r}; {did_you_mean(cname, names)}its constraints: "
                f"{', '.join(sorted(names)) or 'none'}"
            )
    entries = tuple(
        (c, {**vals, **{p: v for (cn, p), v in flat.items() if cn == c}})
        for c, vals in dset.entries
    )
    # A parameter that the constraint refuses is then blamed on the override as well as the file.
    shown = " ".join(f"{c}.{p}={v!r}" for (c, p), v in flat.items())
    return DealSet(
        dset.name, entries, dset.description, f"{dset.source} with {overrides_from} {shown}"
    )
