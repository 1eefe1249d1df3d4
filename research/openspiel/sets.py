"""Constraint sets for OpenSpiel games: which game parameters a condition plays, and which
openings (the chance outcomes before the first decision) its setups may have.

A set is a TOML file, as every game's sets are::

    name = "komi-6.5"
    description = "7x7 Go with a komi of 6.5."

    [[constraint]]
    name = "parameters"        # the game's parameters (ludolab openspiel GAME lists them)
    board_size = 7
    komi = 6.5

    [[constraint]]
    name = "opening"           # per chance event before the first decision, the outcomes
    allow = [["Deal:2"], []]   # it may have, by OpenSpiel's names ([]: any); here seat 0 holds
                               # the king in Kuhn poker

Both constraints are optional (the shipped set ``defaults`` has neither: the game as OpenSpiel
defines it, openings drawn with their own probabilities). The parameters are what a sweep or a
design search varies (``parameters.komi``); the sampler ``rejection`` draws openings with the
game's chance probabilities from the condition's seed and keeps those the set allows, so the
setups are exact draws from the chance distribution conditioned on the set, and it counts the
allowed share exactly where the openings can be listed.
"""

from __future__ import annotations

import random
import textwrap
import time
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ludolab.envs.openspiel.engine import (
    OpenSpielError,
    OpenSpielSetup,
    checked_parameters,
    draw_chance,
    game_string,
    load,
)
from ludolab.games import SetupSetError
from ludolab.research.set_names import shipped_set_file, shipped_set_names

SETS_FOLDER = ("ludolab.research", "openspiel", "sets")
CONSTRAINTS = {
    "parameters": "the game's parameters, each as name = value (the game's defaults for the rest)",
    "opening": "allow = a list per chance event before the first decision: the outcomes it may "
    "have, by OpenSpiel's names ([]: any)",
}
MAX_DRAWS = 200_000
"""Openings the rejection sampler draws at most for one condition before it gives up."""
MAX_LISTED = 100_000
"""Openings listed at most to count the allowed share exactly."""


@dataclass(frozen=True)
class OpenSpielSet:
    """A constraint set for one OpenSpiel game.

    Attributes:
        name, description: the set's.
        game: OpenSpiel's short name of the game.
        parameters: the game parameters the set fixes, sorted (name, value) pairs.
        allow: per opening chance event, the outcome names allowed (an empty tuple: any);
            None when the set has no ``opening`` constraint.
    """

    name: str
    description: str
    game: str
    parameters: tuple[tuple[str, Any], ...]
    allow: tuple[tuple[str, ...], ...] | None

    def constraints(self) -> dict[str, dict[str, Any]]:
        """The set's constraints with their parameters, ``{"parameters": {"komi": 6.5}}``."""
        out: dict[str, dict[str, Any]] = {}
        if self.parameters:
            out["parameters"] = dict(self.parameters)
        if self.allow is not None:
            out["opening"] = {"allow": [list(a) for a in self.allow]}
        return out


def shipped() -> list[str]:
    """The names of the shipped sets."""
    return shipped_set_names(*SETS_FOLDER)


def read_entries(source: str | Path) -> tuple[str, str, dict[str, dict[str, Any]]]:
    """A set's name, description and constraints (``{"parameters": {...}}``), from a shipped
    set's name or a TOML file; SetupSetError (key ``constraints``) when it is neither or is
    malformed."""
    name = str(source)
    path = shipped_set_file(*SETS_FOLDER, name=name) if name in shipped() else Path(source)
    if not path.is_file():
        raise SetupSetError(
            "constraints",
            f"{source}: not an OpenSpiel set file nor a shipped set ({', '.join(shipped())})",
        )
    try:
        data = tomllib.loads(path.read_text())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SetupSetError("constraints", f"{path}: not TOML: {exc}") from None
    entries: dict[str, dict[str, Any]] = {}
    for i, entry in enumerate(data.get("constraint", [])):
        if not isinstance(entry, dict) or entry.get("name") not in CONSTRAINTS:
            raise SetupSetError(
                "constraints",
                f"{path}: constraint[{i}]: name must be one of {', '.join(CONSTRAINTS)}, got "
                f"{entry.get('name') if isinstance(entry, dict) else entry!r}",
            )
        if entry["name"] in entries:
            raise SetupSetError("constraints", f"{path}: constraint {entry['name']!r} twice")
        entries[entry["name"]] = {k: v for k, v in entry.items() if k != "name"}
    return str(data.get("name", path.stem)), str(data.get("description", "")), entries


def load_set(game: str, source: str | Path, params: Mapping[str, Any]) -> OpenSpielSet:
    """The set ``source`` for OpenSpiel's game ``game`` with ``params`` (flat
    ``{"parameters.komi": 6.5}``) applied; SetupSetError naming the key when the game does not
    take a parameter, a value has the wrong type, or the opening is malformed."""
    name, description, entries = read_entries(source)
    for key, value in params.items():
        constraint, _, param = key.partition(".")
        if constraint != "parameters" or not param:
            raise SetupSetError(
                "params",
                f"{key}: only the game's parameters can be set (parameters.<name>), not {key!r}",
            )
        entries.setdefault("parameters", {})[param] = value
    try:
        parameters = checked_parameters(
            game, entries.get("parameters", {}), f"{source}: parameters"
        )
    except OpenSpielError as exc:
        raise SetupSetError("constraints", str(exc)) from None
    allow = None
    if "opening" in entries:
        opening = entries["opening"]
        raw = opening.get("allow")
        if (
            set(opening) != {"allow"}
            or not isinstance(raw, list)
            or not all(isinstance(a, list) and all(isinstance(x, str) for x in a) for a in raw)
        ):
            raise SetupSetError(
                "constraints",
                f"{source}: opening: expected allow = a list of lists of outcome names, e.g. "
                '[["Deal:2"], []]',
            )
        allow = tuple(tuple(a) for a in raw)
    return OpenSpielSet(name, description, game, parameters, allow)


def _bare(cset: OpenSpielSet, players: int) -> OpenSpielSetup:
    return OpenSpielSetup(cset.game, cset.parameters, players)


def check_opening(cset: OpenSpielSet, players: int, probes: int = 500) -> None:
    """SetupSetError when the set's ``opening.allow`` names more chance events than the
    opening has, or an outcome its chance event never had in ``probes`` openings drawn (a
    misspelt name: the outcomes seen are listed)."""
    if not cset.allow:
        return
    game = load(_bare(cset, players))
    rng = random.Random(0)
    seen: list[set[str]] = []
    for _ in range(probes):
        spiel = game.new_initial_state()
        step = 0
        while spiel.is_chance_node():
            if step == len(seen):
                seen.append(set())
            seen[step] |= {_outcome_name(spiel, a) for a, _ in spiel.chance_outcomes()}
            spiel.apply_action(draw_chance(spiel, rng))
            step += 1
    if len(cset.allow) > len(seen):
        raise SetupSetError(
            "constraints",
            f"{cset.name}: opening.allow lists {len(cset.allow)} chance events; "
            f"{game_string(_bare(cset, players))} has {len(seen)} before the first decision",
        )
    for i, names in enumerate(cset.allow):
        unknown = sorted(set(names) - seen[i])
        if unknown:
            raise SetupSetError(
                "constraints",
                f"{cset.name}: opening.allow[{i}]: no outcome {', '.join(unknown)}; this chance "
                f"event's outcomes: {', '.join(sorted(seen[i])[:20])}",
            )


def _outcome_name(spiel: Any, action: int) -> str:
    return str(spiel.action_to_string(spiel.current_player(), action))


def _allowed(cset: OpenSpielSet, spiel: Any, step: int, action: int) -> bool:
    if cset.allow is None or step >= len(cset.allow) or not cset.allow[step]:
        return True
    return _outcome_name(spiel, action) in cset.allow[step]


@dataclass(frozen=True)
class Draw:
    """What the rejection sampler did: the setups kept, the openings drawn, the seconds, and
    the allowed share of openings counted exactly (None when too many to list)."""

    setups: list[OpenSpielSetup]
    draws: int
    seconds: float
    exact_share: float | None


def draw_rejection(cset: OpenSpielSet, n: int, seed: int, players: int) -> Draw:
    """``n`` setups of the set for ``players`` seats: openings drawn with the game's chance
    probabilities from ``seed``'s stream, kept when the set allows them (each setup numbered
    by its ``replicate``). SetupSetError when none of :data:`MAX_DRAWS` openings is allowed."""
    check_opening(cset, players)
    start = time.perf_counter()
    share = exact_share(cset, players)
    if share == 0:
        raise SetupSetError(
            "constraints",
            f"{cset.name}: no opening satisfies opening.allow (every opening counted)",
        )
    game = load(_bare(cset, players))
    rng = random.Random(f"ludolab.openspiel.sets:{seed}")
    setups: list[OpenSpielSetup] = []
    draws = 0
    while len(setups) < n:
        if draws >= MAX_DRAWS:
            raise SetupSetError(
                "constraints",
                f"{cset.name}: opening.allow kept {len(setups)} of {MAX_DRAWS:,} openings drawn, "
                f"{n} were asked for; allow more outcomes",
            )
        draws += 1
        spiel = game.new_initial_state()
        opening: list[int] = []
        ok = True
        while spiel.is_chance_node():
            action = draw_chance(spiel, rng)
            ok = ok and _allowed(cset, spiel, len(opening), action)
            spiel.apply_action(action)
            opening.append(action)
        if ok:
            setups.append(
                OpenSpielSetup(cset.game, cset.parameters, players, tuple(opening), len(setups))
            )
    return Draw(setups, draws, time.perf_counter() - start, share)


def exact_share(cset: OpenSpielSet, players: int) -> float | None:
    """The probability that an opening drawn with the game's chance probabilities is allowed by
    the set, summed over every opening (None when there are more than :data:`MAX_LISTED`);
    1 without listing any when the set constrains no chance event."""
    if not cset.allow or not any(cset.allow):
        return 1.0
    root = load(_bare(cset, players)).new_initial_state()
    listed = 0

    def walk(spiel: Any, step: int) -> float | None:
        nonlocal listed
        if not spiel.is_chance_node():
            listed += 1
            return 1.0
        if listed > MAX_LISTED:
            return None
        total = 0.0
        for action, p in spiel.chance_outcomes():
            if not _allowed(cset, spiel, step, action):
                continue
            child = spiel.child(action)
            below = walk(child, step + 1)
            if below is None:
                return None
            total += p * below
        return total

    return walk(root, 0)


def describe(source: str | Path) -> str:
    """A set as ``ludolab constraints show`` prints it: name, description, constraints."""
    name, description, entries = read_entries(source)
    lines = [f"{name}: {description or '(no description)'}"]
    if not entries:
        lines.append("  no constraint: the game's defaults, openings as chance deals them")
    for constraint, values in entries.items():
        given = ", ".join(f"{k} = {v!r}" for k, v in values.items())
        lines.append(f"  {constraint}: {given}")
    return "\n".join(lines)


def library() -> str:
    """The constraints an OpenSpiel set may list, for ``ludolab constraints list``."""
    lines = ["OpenSpiel games (openspiel:<game>): constraints"]
    lines += [
        textwrap.fill(f"{name}: {what}", 100, initial_indent="  ", subsequent_indent="    ")
        for name, what in CONSTRAINTS.items()
    ]
    lines.append("shipped sets: " + ", ".join(shipped()))
    return "\n".join(lines)


def constraints_of(source: str | Path) -> dict[str, dict[str, Any]]:
    """The set's constraints with their values, as a design search reads them."""
    return read_entries(source)[2]


def parameters_of(source: str | Path) -> list[str]:
    """The set's parameters a sweep may vary, ``parameters.<name>``."""
    return [f"parameters.{p}" for p in read_entries(source)[2].get("parameters", {})]


def owns(source: str | Path) -> bool:
    """Whether ``source`` is a shipped set or a set file listing only OpenSpiel's constraints
    (the family's games all read the same sets)."""
    from ludolab.research.set_names import set_file_constraints

    if str(source) in shipped():
        return True
    listed = set_file_constraints(source)
    return bool(listed) and listed <= set(CONSTRAINTS)


__all__ = [
    "CONSTRAINTS",
    "Draw",
    "OpenSpielSet",
    "check_opening",
    "constraints_of",
    "describe",
    "draw_rejection",
    "exact_share",
    "library",
    "load_set",
    "owns",
    "parameters_of",
    "read_entries",
    "shipped",
]
