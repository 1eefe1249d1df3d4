"""The keys each table of a config may hold, and the one reader that checks a value against what
its key takes (an integer from a minimum, a choice, a typed rule option...) and words the error:
file, key, what is allowed."""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

from ludolab import games
from ludolab.research.experiment.config.keys import Check, keys_of
from ludolab.research.experiment.config.model import (
    NONE_WORD,
    AgentLineup,
    Comparisons,
    Condition,
    ConfigError,
)


class Source:
    """Where errors come from: the file (or label) and helpers that raise ConfigError."""

    def __init__(self, label: str, base: Path) -> None:
        self.label = label
        self.base = base

    def fail(self, key: str, message: str) -> ConfigError:
        return ConfigError(f"{self.label}: key {key!r}: {message}")

    def known_keys(
        self,
        table: Mapping[str, Any],
        allowed: Sequence[str],
        where: str,
        hints: Mapping[str, str] | None = None,
    ) -> None:
        for key in table:
            if key not in allowed:
                hint = (hints or {}).get(key, "")
                raise self.fail(
                    f"{where}{key}",
                    f"unknown key{hint}; allowed keys: {', '.join(allowed)}",
                )

    def integer(
        self,
        table: Mapping[str, Any],
        key: str,
        where: str,
        *,
        minimum: int,
        default: int | None = None,
    ) -> int:
        path = f"{where}{key}"
        if key not in table:
            if default is None:
                raise self.fail(path, f"missing; expected an integer >= {minimum}")
            return default
        value = table[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
            raise self.fail(path, f"expected an integer >= {minimum}, got {value!r}")
        return value

    def string(
        self, table: Mapping[str, Any], key: str, where: str, default: str | None = None
    ) -> str:
        path = f"{where}{key}"
        if key not in table:
            if default is None:
                raise self.fail(path, "missing; expected a string")
            return default
        value = table[key]
        if not isinstance(value, str) or not value.strip():
            raise self.fail(path, f"expected a non-empty string, got {value!r}")
        return value

    def boolean(self, table: Mapping[str, Any], key: str, where: str, default: bool) -> bool:
        value = table.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(f"{where}{key}", f"expected true or false, got {value!r}")
        return value

    def choice(
        self,
        table: Mapping[str, Any],
        key: str,
        where: str,
        allowed: Sequence[str],
        default: str | None = None,
    ) -> str:
        path = f"{where}{key}"
        if key not in table:
            if default is None:
                raise self.fail(path, f"missing; one of {', '.join(allowed)}")
            return default
        value = table[key]
        if value not in allowed:
            raise self.fail(path, f"{value!r} is not one of {', '.join(allowed)}")
        return value

    def value(
        self,
        table: Mapping[str, Any],
        declared: dataclasses.Field,
        where: str,
        name: str | None = None,
    ) -> Any:
        """The value of the key a record's field declares (see
        :mod:`ludolab.research.experiment.config.keys`), checked by its :class:`Check`; the
        field's default when the key is not given. ``name``: the key's name in the file, when
        it is not the field's."""
        check: Check = declared.metadata["check"]
        name = name or declared.name
        default = None if declared.default is dataclasses.MISSING else declared.default
        if check.kind == "integer":
            return self.integer(table, name, where, minimum=check.minimum, default=default)
        if check.kind == "boolean":
            return self.boolean(table, name, where, default)
        if check.kind == "choice":
            return self.choice(table, name, where, check.allowed, default)
        if check.kind == "fraction":
            value = table.get(name, default)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < 1:
                raise self.fail(where + name, f"expected a number between 0 and 1, got {value!r}")
            return float(value)
        raise ValueError(f"unknown check {check.kind!r} of key {name!r}")

    def tables(self, data: Mapping[str, Any], key: str, example: str) -> list[dict[str, Any]]:
        value = data.get(key)
        if value is None:
            raise self.fail(key, f"missing; give at least one {example} table")
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.fail(key, f"expected an array of tables ({example})")
        if not value:
            raise self.fail(key, f"empty; give at least one {example} table")
        return value


TOP_KEYS = (
    "name",
    "description",
    "question",
    "game",
    "seed",
    "players",
    "conditions",
    "lineups",
    "options",
    "metrics",
    "comparisons",
    "chunk_size",
    "sweep",
    "report",
)




def _described(game: object) -> list[games.Game]:
    # The game, or every registered one when ``game`` is not a registered name (such a config
    # is refused for its game, not for its keys).
    if games.known(game):
        return [games.get(str(game))]
    return [games.get(n) for n in games.names()]


def top_keys(game: object) -> tuple[str, ...]:
    """The keys a config of ``game`` may hold at its top level: :data:`TOP_KEYS` with the
    game's setup keys (``boards`` and ``games_per_board`` for Catan) after ``players``."""
    setup_keys = dict.fromkeys(
        k for g in _described(game) for k in (g.setups_key, g.games_per_setup_key)
    )
    i = TOP_KEYS.index("players") + 1
    return (*TOP_KEYS[:i], *setup_keys, *TOP_KEYS[i:])


def _sampler_keys(game: object) -> tuple[str, ...]:
    return tuple(dict.fromkeys(k for g in _described(game) for k in g.condition_keys))


def condition_keys(game: object) -> tuple[str, ...]:
    """The keys a condition of ``game`` may hold: :data:`CONDITION_KEYS` with the settings the
    game's samplers take (its ``condition_keys``) before ``options``."""
    return (*CONDITION_KEYS[:-1], *_sampler_keys(game), CONDITION_KEYS[-1])


def sweep_keys(game: object) -> tuple[str, ...]:
    """The keys a ``[[sweep]]`` of ``game`` may hold: :data:`SWEEP_KEYS` with the game's
    sampler settings after ``params``."""
    return (*SWEEP_KEYS[:4], *_sampler_keys(game), *SWEEP_KEYS[4:])


CONDITION_KEYS = keys_of(Condition)


LINEUP_KEYS = keys_of(AgentLineup)
SWEEP_KEYS = ("name", "constraints", "sampler", "params", "parameter", "values")
"""A sweep's keys, besides the sampler settings its game takes (its ``condition_keys``)."""


COMPARISON_KEYS = keys_of(Comparisons)


def read_options(
    src: Source,
    table: Any,
    game: str,
    where: str = "options",
    base: Any = None,
) -> Any:
    """The game's rule options built from ``table`` (on top of ``base`` when given); errors
    name ``where.<key>``."""
    described = games.get(game)
    cls = described.options_type
    if not isinstance(table, dict):
        raise src.fail(where, f"expected a table of {cls.__name__} fields")
    hints = typing.get_type_hints(cls)
    names = [f.name for f in fields(cls)]
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key not in names:
            raise src.fail(
                f"{where}.{key}",
                f"unknown {cls.__name__} option; allowed: {', '.join(names)}",
            )
        try:
            given = described.option_from_config(key, value, where)
        except ValueError as exc:
            at, _, message = str(exc).partition(": ")  # "options.symbols.Yoko: ..."
            raise src.fail(at, message) from None
        if given is not value:  # the game read it (a table TOML cannot write as the type)
            values[key] = given
            continue
        try:
            values[key] = convert(value, hints[key])
        except TypeError:
            raise src.fail(
                f"{where}.{key}", f"expected {describe_type(hints[key])}, got {value!r}"
            ) from None
    try:
        return dataclasses.replace(base, **values) if base is not None else cls(**values)
    except (ValueError, TypeError) as exc:
        m = re.search(r"Options\.(\w+)", str(exc))
        key = f"{where}.{m.group(1)}" if m and m.group(1) in names else where
        raise src.fail(key, str(exc)) from None


def convert(value: Any, hint: Any) -> Any:
    """A TOML value as the type ``hint``; TypeError if it does not fit."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if type(None) in args and value == NONE_WORD:
            return None
        for arg in args:
            if arg is type(None):
                continue
            try:
                return convert(value, arg)
            except TypeError:
                pass
        raise TypeError
    if origin is tuple:
        if not isinstance(value, list):
            raise TypeError
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(convert(v, args[0]) for v in value)
        if len(value) != len(args):
            raise TypeError
        return tuple(convert(v, a) for v, a in zip(value, args, strict=True))
    if hint is bool:
        if isinstance(value, bool):
            return value
        raise TypeError
    if hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise TypeError
    if hint is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        raise TypeError
    if hint is str:
        if isinstance(value, str):
            return value
        raise TypeError
    raise TypeError


def describe_type(hint: Any) -> str:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        parts = [describe_type(a) for a in args if a is not type(None)]
        if type(None) in args:
            parts.append(f'"{NONE_WORD}"')
        return " or ".join(parts)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a list of {_plural(args[0])}"
        return f"a list of {len(args)} {_plural(args[0])}"
    return {bool: "true or false", int: "an integer", float: "a number", str: "a string"}.get(
        hint, str(hint)
    )


def _plural(hint: Any) -> str:
    if typing.get_origin(hint) is tuple:
        return "lists" + describe_type(hint).removeprefix("a list")
    return {bool: "booleans", int: "integers", float: "numbers", str: "strings"}.get(
        hint, str(hint)
    )
