"""Config keys declared on the records they fill (research/experiment/config/keys.py): the
allowed keys, defaults and checks come from the fields, and the one reader words the errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from ludolab.research.experiment.config import (
    COMPARISON_KEYS,
    CONDITION_KEYS,
    LINEUP_KEYS,
    AgentLineup,
    Comparisons,
    ConfigError,
    ExperimentConfig,
    top_keys,
)
from ludolab.research.experiment.config.keys import Check, checked_fields, key, key_name, keys_of
from ludolab.research.experiment.config.schema import Source


@dataclass(frozen=True)
class Planted:
    """A record of the test's own: two checked keys, one read by code, one field that is no key."""

    size: int = field(metadata=key(Check("integer", minimum=3), named="setups_key"))
    share: float = field(default=0.25, metadata=key(Check("fraction")))
    kind: str = field(default="x", metadata=key(Check("choice", allowed=("x", "y"))))
    free: bool = field(default=False, metadata=key(Check("boolean")))
    listed: tuple[str, ...] = field(default=(), metadata=key())
    internal: int = 0


SRC = Source("planted.toml", Path("."))


def read(table: dict, game: str = "catan") -> dict:
    return {f.name: SRC.value(table, f, "t.", key_name(f, game)) for f in checked_fields(Planted)}


def test_the_keys_of_a_record_are_its_declared_fields_in_order_named_per_game() -> None:
    assert keys_of(Planted, "catan") == ("boards", "share", "kind", "free", "listed")
    assert keys_of(Planted, "gallery")[0] == "deals"
    assert [f.name for f in checked_fields(Planted)] == ["size", "share", "kind", "free"]


def test_defaults_come_from_the_fields() -> None:
    assert read({"boards": 4}) == {"size": 4, "share": 0.25, "kind": "x", "free": False}


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({}, "planted.toml: key 't.boards': missing; expected an integer >= 3"),
        ({"boards": 2}, "key 't.boards': expected an integer >= 3, got 2"),
        ({"boards": True}, "key 't.boards': expected an integer >= 3, got True"),
        ({"boards": 3, "share": 1}, "key 't.share': expected a number between 0 and 1, got 1"),
        ({"boards": 3, "kind": "z"}, "key 't.kind': 'z' is not one of x, y"),
        ({"boards": 3, "free": "yes"}, "key 't.free': expected true or false, got 'yes'"),
    ],
)
def test_the_reader_words_each_error_with_file_key_and_what_is_allowed(
    table: dict, message: str
) -> None:
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read(table)


def test_an_unknown_check_is_a_programming_error_not_a_config_error() -> None:
    @dataclass
    class Wrong:
        odd: int = field(default=0, metadata=key(Check("prime")))

    with pytest.raises(ValueError, match="unknown check 'prime' of key 'odd'"):
        SRC.value({}, checked_fields(Wrong)[0], "")


def test_the_tables_allowed_keys_are_the_records_declared_fields() -> None:
    assert keys_of(Comparisons) == COMPARISON_KEYS == (
        "baseline", "paired", "correction", "alpha", "n_boot", "metrics", "primary", "margins",
        "mixed_max_games", "skill",
    )  # fmt: skip
    assert keys_of(AgentLineup) == LINEUP_KEYS == ("name", "seats", "rotate_seats")
    # A game adds its samplers' settings (its description's condition_keys).
    assert CONDITION_KEYS == ("name", "constraints", "sampler", "params", "options")
    # The top-level table keeps its order (the error lists it), and names exactly the keys
    # ExperimentConfig declares for the config's game, plus [[sweep]], which becomes conditions.
    for game in ("catan", "gallery"):
        assert set(top_keys(game)) == set(keys_of(ExperimentConfig, game)) | {"sweep"}
    assert "boards" in top_keys("catan") and "deals" not in top_keys("catan")
