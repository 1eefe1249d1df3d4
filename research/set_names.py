"""The names of the setup sets shipped with each game, read from their folders.

Below both games' research code: a message about one game's sets can name the other game's (a
Masters Gallery deal set given where a Catan constraint set belongs, say) without one game's
code importing the other's.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path


def _names(game: str, folder: str) -> list[str]:
    # Through the research package, so that neither game's package is imported.
    path = resources.files("ludolab.research") / game / folder
    if not path.is_dir():
        return []
    return sorted(p.name.removesuffix(".toml") for p in path.iterdir() if p.name.endswith(".toml"))


def constraint_set_names() -> list[str]:
    """The Catan constraint sets shipped with ludolab (``research/catan/constraint_sets``)."""
    return _names("catan", "constraint_sets")


def deal_set_names() -> list[str]:
    """The Masters Gallery deal sets shipped with ludolab (``research/gallery/deal_sets``)."""
    return _names("gallery", "deal_sets")


def set_file_constraints(source: str | Path) -> set[str]:
    """The constraint names a set file lists (its ``[[constraint]]`` tables' ``name``); empty
    when ``source`` is not a readable TOML set file (the game's loader then says why)."""
    path = Path(source)
    if path.suffix != ".toml" or not path.is_file():
        return set()
    try:
        entries = tomllib.loads(path.read_text()).get("constraint", [])
        return {str(entry["name"]) for entry in entries}
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, TypeError, KeyError, AttributeError):
        return set()
