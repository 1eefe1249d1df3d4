"""Constraint-set files whose constraints take whole-number parameters, for any game.

A set file is TOML with a ``name``, a ``description`` and ``[[constraint]]`` tables, each a
constraint's ``name`` and its parameters::

    name = "late-prizes"
    description = "The last four prizes are worth 36 points or more."

    [[constraint]]
    name = "back-loaded"
    k = 4
    min = 36

A game describes its constraints once (:class:`Library`: each constraint's parameters with
their defaults, minimums and units) and gets from here what every game's sets need: reading a
shipped set or a file with errors that name the file, the table and the key
(:class:`ludolab.games.SetupSetError`), flat overrides ``{"constraint.param": value}`` from a
condition's ``params`` or a sweep, the parameters a sweep or a design search may vary, and the
library in words for ``ludolab constraints list``.
"""

from __future__ import annotations

import textwrap
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ludolab.games import SetupSetError
from ludolab.research.set_names import (
    set_file_constraints,
    shipped_set_file,
    shipped_set_names,
)
from ludolab.research.suggest import did_you_mean


@dataclass(frozen=True)
class Param:
    """One whole-number parameter of a constraint: its default, least value, unit and meaning."""

    default: int
    minimum: int
    unit: str
    doc: str


@dataclass(frozen=True)
class ConstraintDoc:
    """A constraint as a set file names it: its summary and its parameters by name."""

    name: str
    summary: str
    params: Mapping[str, Param]


@dataclass(frozen=True)
class SetFile:
    """A set file as written, checked against the library: its name, description, where it
    came from (for messages) and its ``(constraint, parameters)`` entries, every parameter's
    value filled in (the defaults where the file is silent)."""

    name: str
    description: str
    source: str
    entries: tuple[tuple[str, dict[str, int]], ...]

    def constraints(self) -> dict[str, dict[str, int]]:
        """The entries as ``{"constraint": {"param": value}}``."""
        return {c: dict(v) for c, v in self.entries}


@dataclass(frozen=True)
class Library:
    """A game's constraints and where its shipped sets are.

    Attributes:
        title: the game's name in prose, for messages (``"Goofspiel"``).
        constraints: the constraints by name.
        sets_folder: the package and folders of the shipped ``<name>.toml`` files.
    """

    title: str
    constraints: Mapping[str, ConstraintDoc]
    sets_folder: tuple[str, ...]

    def shipped(self) -> list[str]:
        """The names of the shipped sets, sorted."""
        return shipped_set_names(*self.sets_folder)

    def read(self, source: str | Path) -> SetFile:
        """The set ``source`` names: a shipped set's name or a ``.toml`` file. SetupSetError
        (key ``constraints``) naming what is wrong: no such set, not TOML, an unknown key,
        constraint or parameter, a value that is not a whole number at or above its minimum."""
        text = str(source)
        shipped = self.shipped()
        if text in shipped and not isinstance(source, Path):
            path = shipped_set_file(*self.sets_folder, name=text)
            label = f"{self.title} set {text!r}"
        elif Path(source).suffix == ".toml" or Path(source).is_file():
            path, label = Path(source), str(source)
            if not path.is_file():
                raise SetupSetError("constraints", f"{path}: no such constraint set file")
        else:
            raise SetupSetError(
                "constraints",
                f"unknown {self.title} constraint set {text!r}; {did_you_mean(text, shipped)}"
                f"shipped sets: {', '.join(shipped)}; or a path to a .toml file",
            )
        try:
            data = tomllib.loads(path.read_text())
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise SetupSetError(
                "constraints", f"{label}: not a valid TOML set file: {exc}"
            ) from None
        return self.parse(data, label, path.stem)

    def parse(self, data: Mapping[str, Any], label: str, default_name: str) -> SetFile:
        """A set from its TOML data (see :meth:`read`)."""
        allowed = ("name", "description", "constraint")
        for key in data:
            if key not in allowed:
                raise SetupSetError(
                    "constraints",
                    f"{label}: unknown key {key!r}; allowed: {', '.join(allowed)} (constraints "
                    f"go in [[constraint]] tables)",
                )
        tables = data.get("constraint", [])
        if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
            raise SetupSetError(
                "constraints", f"{label}: 'constraint' must be [[constraint]] tables"
            )
        entries: dict[str, dict[str, int]] = {}
        for i, table in enumerate(tables):
            where = f"{label}: constraint[{i}]"
            cname = table.get("name")
            if cname not in self.constraints:
                raise SetupSetError(
                    "constraints",
                    f"{where}: unknown constraint {cname!r}; "
                    f"{did_you_mean(str(cname), self.constraints)}{self.title} constraints: "
                    f"{', '.join(self.constraints)}",
                )
            if cname in entries:  # parameters are addressed as name.param: names are unique
                raise SetupSetError(
                    "constraints", f"{where}: {cname!r} appears twice; give each constraint once"
                )
            values = {k: v for k, v in table.items() if k != "name"}
            problem = self.check_values(cname, values)
            if problem:
                raise SetupSetError("constraints", f"{where}: {problem}")
            params = self.constraints[cname].params
            entries[cname] = {p: values.get(p, d.default) for p, d in params.items()}
        name = data.get("name", default_name)
        description = data.get("description", "")
        if not isinstance(name, str) or not isinstance(description, str):
            raise SetupSetError("constraints", f"{label}: 'name' and 'description' must be strings")
        return SetFile(name, description, label, tuple(entries.items()))

    def check_values(self, cname: str, values: Mapping[str, Any]) -> str | None:
        """What is wrong with ``values`` as parameters of ``cname``, or None."""
        params = self.constraints[cname].params
        for key, value in values.items():
            if key not in params:
                return (
                    f"{cname} has no parameter {key!r}; its parameters: "
                    f"{', '.join(params) or 'none'}"
                )
            low = params[key].minimum
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                return (
                    f"{cname}.{key} must be a whole number >= {low} ({params[key].unit}), "
                    f"got {value!r}"
                )
        return None

    def with_params(self, base: SetFile, params: Mapping[str, Any]) -> SetFile:
        """``base`` with the flat overrides ``params`` (``{"constraint.param": value}``)
        applied; SetupSetError (key ``params``) naming the override that is wrong."""
        entries = base.constraints()
        for key, value in params.items():
            cname, dot, pname = str(key).rpartition(".")
            if not dot or not cname:
                first = next(iter(self.constraints.values()))
                example = f"{first.name}.{next(iter(first.params), 'param')}"
                raise SetupSetError(
                    "params",
                    f"{key!r}: give a parameter as 'constraint.param' (e.g. {example})",
                )
            if cname not in entries:
                known = ", ".join(entries) or "none"
                raise SetupSetError(
                    "params",
                    f"{key}: set {base.name!r} has no constraint {cname!r}; its constraints: "
                    f"{known}",
                )
            problem = self.check_values(cname, {pname: value})
            if problem:
                raise SetupSetError("params", f"{key}: {problem}")
            entries[cname][pname] = value
        shown = " ".join(f"{k}={v!r}" for k, v in params.items())
        source = f"{base.source} with {shown}" if params else base.source
        return SetFile(base.name, base.description, source, tuple(entries.items()))

    def parameters(self, source: str | Path) -> list[str]:
        """The parameters (``constraint.param``) of the set ``source`` a sweep may vary."""
        return [f"{c}.{p}" for c, values in self.read(source).entries for p in values]

    def unit(self, name: str) -> str:
        """What the parameter ``name`` (``constraint.param``) counts; "" when unknown."""
        cname, _, pname = name.rpartition(".")
        doc = self.constraints.get(cname)
        param = None if doc is None else doc.params.get(pname)
        return "" if param is None else param.unit

    def owns(self, source: str | Path) -> bool:
        """Whether ``source`` is a shipped set, or a set file naming only these constraints."""
        if str(source) in self.shipped():
            return True
        names = set_file_constraints(source)
        return bool(names) and names <= set(self.constraints)

    def describe(self) -> str:
        """The constraints in words, one paragraph each with its parameters (unit, default,
        least value), in lines of at most 100 characters."""
        lines = [f"{self.title} constraints (in a set's [[constraint]] table as name = ...):"]
        for doc in self.constraints.values():
            lines.append(
                textwrap.fill(
                    f"{doc.name}: {doc.summary}", 96, initial_indent="  ", subsequent_indent="    "
                )
            )
            for pname, param in doc.params.items():
                lines.append(
                    textwrap.fill(
                        f"{pname} ({param.unit}, default {param.default}, at least "
                        f"{param.minimum}): {param.doc}",
                        96,
                        initial_indent="    ",
                        subsequent_indent="      ",
                    )
                )
        return "\n".join(lines)


__all__ = ["ConstraintDoc", "Library", "Param", "SetFile"]
