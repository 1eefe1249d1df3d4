"""How a config key is declared: on the record's field it fills, as the field's metadata.

A field with ``metadata=key(...)`` is a key of its TOML table (the table's allowed keys are
those fields, in their order), and a :class:`Check` says how its value is read and checked; the
field's default is the key's default. :meth:`ludolab.research.experiment.config.schema.Source.value`
reads such a key. A new key of the ``[comparisons]`` table, say, is then one line in
:class:`~ludolab.research.experiment.config.model.Comparisons`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ludolab import games


@dataclass(frozen=True)
class Check:
    """How a scalar key's value is checked: ``kind`` ``"integer"`` (a whole number from
    ``minimum``), ``"boolean"``, ``"choice"`` (one of ``allowed``) or ``"fraction"`` (a number
    strictly between 0 and 1)."""

    kind: str
    minimum: int = 0
    allowed: tuple[str, ...] = ()


def key(check: Check | None = None, named: str | None = None) -> Mapping[str, Any]:
    """The metadata of a field that is a config key, read by ``check`` (None: the code that
    builds the record reads it, as for a key whose value needs the rest of the config);
    ``named``: where the key's name is the game's to say, the attribute of the game's
    description (:class:`ludolab.games.Game`) that holds it (``"setups_key"``: ``boards``)."""
    return {"key": True, "check": check, "named": named}


def key_name(declared: dataclasses.Field, game: str) -> str:
    """The TOML name of the key ``declared`` (a field) in a config of ``game``."""
    named = declared.metadata.get("named")
    return str(getattr(games.get(game), named)) if named else declared.name


def keys_of(record: type, game: str = "") -> tuple[str, ...]:
    """The config keys of a record class: its fields declared with :func:`key`, in order (named
    as in a config of ``game`` where the name depends on it)."""
    return tuple(key_name(f, game) for f in dataclasses.fields(record) if f.metadata.get("key"))


def checked_fields(record: type) -> tuple[dataclasses.Field, ...]:
    """The fields of ``record`` whose key has a :class:`Check`, in order."""
    return tuple(f for f in dataclasses.fields(record) if f.metadata.get("check") is not None)
