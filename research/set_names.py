"""What any game's constraint-set files share: the names of the sets shipped in a folder, read
without importing the game's package, and the constraint names a set file lists."""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from importlib import resources
from pathlib import Path


def shipped_set_names(package: str, *folders: str) -> list[str]:
    """The names of the ``.toml`` files in the folder ``folders`` of ``package`` (e.g.
    ``shipped_set_names("ludolab.research", "catan", "constraint_sets")``), sorted; the files
    are read through ``package``, so a game's own package below it is not imported."""
    path = resources.files(package).joinpath(*folders)
    if not path.is_dir():
        return []
    return sorted(p.name.removesuffix(".toml") for p in path.iterdir() if p.name.endswith(".toml"))


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


def set_file_without(path: Path, names: Sequence[str]) -> str:
    """The TOML text of the set file ``path`` without its ``[[constraint]]`` tables named
    ``names``, renamed ``<name>-without-<a>-<b>`` and described as such (a game whose set files
    list their constraints so can give it as its ``set_without``)."""
    import tomli_w

    data = tomllib.loads(path.read_text())
    name = data.get("name", path.stem)
    data["name"] = f"{name}-without-{'-'.join(names)}"
    data["description"] = f"The set {name!r} without {', '.join(names)}."
    data["constraint"] = [c for c in data.get("constraint", []) if c.get("name") not in names]
    return tomli_w.dumps(data)


def shipped_set_file(package: str, *folders: str, name: str) -> Path:
    """The file of the shipped set ``name`` in the folder ``folders`` of ``package``."""
    return Path(str(resources.files(package).joinpath(*folders))) / f"{name}.toml"
