"""``--set PATH=VALUE``: changes to a config's TOML data before it is read."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Sequence
from typing import Any

from ludolab.research.experiment.config.model import ConfigError
from ludolab.research.experiment.config.schema import (
    COMPARISON_KEYS,
    LINEUP_KEYS,
    condition_keys,
    sweep_keys,
    top_keys,
)

# Tables whose keys may contain dots (constraint.param, catan.metric): the rest of a --set path
# after them is one key.
_DOTTED_KEY_TABLES = ("params", "margins")




def apply_overrides(
    data: dict[str, Any], overrides: Sequence[str], allowed_top: Sequence[str] | None = None
) -> dict[str, Any]:
    """A copy of a config's TOML ``data`` with ``PATH=VALUE`` overrides applied.

    ``PATH`` is dotted: ``boards``, ``options.vp_to_win``, ``comparisons.primary``,
    ``conditions.NAME.sampler`` (a condition or lineup by its name, or by its 0-based index),
    ``conditions.NAME.params.red-numbers-apart.numbers``. ``VALUE`` is read as a TOML value
    (``100``, ``true``, ``[6, 8]``, ``"text"``); anything else is taken as a string
    (``uniform``). A path that does not exist raises ConfigError naming what does.
    ``allowed_top``: the keys a file of this kind may hold at its top level (a design
    config's differ from an experiment's); None: an experiment config's, for its game.
    """
    game = data.get("game")
    if allowed_top is None:
        allowed_top = top_keys(game)
    arrays = {"conditions": condition_keys(game), "lineups": LINEUP_KEYS, "sweep": sweep_keys(game)}
    out = json.loads(json.dumps(data))  # a deep copy of plain TOML data
    for item in overrides:
        where = f"--set {item}"
        key_path, sep, text = item.partition("=")
        parts = [p.strip() for p in key_path.split(".")]
        if not sep or not all(parts):
            raise ConfigError(f"{where}: expected PATH=VALUE, e.g. boards=100")
        value = _toml_value(text.strip())
        table: dict[str, Any] = out
        allowed: Sequence[str] = allowed_top  # () inside free tables such as [options]
        i = 0
        while True:
            key = parts[i]
            if allowed and key not in allowed:
                raise ConfigError(
                    f"{where}: {key!r} is not a config key here; allowed: {', '.join(allowed)}"
                )
            if i == len(parts) - 1:
                table[key] = value
                break
            if key in _DOTTED_KEY_TABLES:
                table.setdefault(key, {})[".".join(parts[i + 1 :])] = value
                break
            if table is out and key in arrays:
                table = _find_entry(table.get(key) or [], parts[i + 1], key, where)
                allowed, i = arrays[key], i + 2
                if i == len(parts):
                    raise ConfigError(f"{where}: name a key of the {key[:-1]}, e.g. {key}.X.name")
                continue
            nxt = table.setdefault(key, {})
            if not isinstance(nxt, dict):
                raise ConfigError(f"{where}: {key!r} is a value, not a table")
            table = nxt
            allowed = COMPARISON_KEYS if key == "comparisons" and i == 0 else ()
            i += 1
    return out


def _find_entry(entries: list[Any], ref: str, key: str, where: str) -> dict[str, Any]:
    names = [
        e.get("name", e.get("constraints", e.get("seats", e.get("parameter")))) for e in entries
    ]
    shown = [n if isinstance(n, str) else ",".join(map(str, n)) for n in names]
    for entry, name in zip(entries, shown, strict=True):
        if name == ref:
            return entry
    if ref.isdigit() and int(ref) < len(entries):
        return entries[int(ref)]
    raise ConfigError(
        f"{where}: no {key[:-1]} named {ref!r}; {key}: {', '.join(shown) or 'none'} "
        f"(or an index 0..{len(entries) - 1})"
    )


def _toml_value(text: str) -> Any:
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text
