"""Compiled modules: which run, and the Python source in their place when it has changed.

Installing the package compiles the Catan engine and its agents with mypyc (``setup.py``), which
plays the same games about twice as fast. The Python source stays the reference, and a compiled
module is only a faster copy of it: ``envs/_compiled.json`` holds, per interpreter, the SHA-256 of
the source each extension was built from. When the package is imported, this module compares
them. If any compiled module's source has changed since (a rule edited in place, a ``git pull``),
the source of *every* compiled module runs instead — they call each other natively, so they
cannot be mixed — with a warning that says how to compile again. ``LUDOLAB_PURE_PYTHON=1`` runs
the source without a warning (for profiling, or to compare the two).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

PURE_PYTHON_ENV = "LUDOLAB_PURE_PYTHON"
PACKAGE_ROOT = Path(__file__).resolve().parent  # envs/
STAMP_NAME = "_compiled.json"
EXTENSION_SUFFIX = str(sysconfig.get_config_var("EXT_SUFFIX"))  # the name setup.py's build uses


@dataclass(frozen=True)
class CompiledState:
    """What runs: ``compiled`` names the modules running compiled (empty when none does);
    ``note`` says which compiler built them, or why their source runs instead."""

    compiled: tuple[str, ...]
    note: str

    def describe(self) -> str:
        """One line for provenance records and benchmark output."""
        if self.compiled:
            return f"compiled ({self.note}): {', '.join(self.compiled)}"
        return f"Python source ({self.note})"


def _module_name(path: Path, root: Path, package: str) -> str:
    return ".".join((package, *path.relative_to(root).with_suffix("").parts))


def find_extensions(root: Path, package: str | None = None) -> dict[str, Path]:
    """Compiled modules under the folder ``root`` of the package named ``package`` (by default
    the folder's name; ``ludolab.envs`` for envs/): module name -> the Python source beside it."""
    found: dict[str, Path] = {}
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:  # what this interpreter would load
        for extension in root.rglob(f"*{suffix}"):
            source = extension.with_name(extension.name[: -len(suffix)] + ".py")
            if source.exists():
                found[_module_name(source, root, package or root.name)] = source
    return found


def build_record(root: Path) -> dict:
    """What the stamp says of this interpreter's build: {"compiler", "sources": {path: sha256}}
    ({} if nothing). Builds are kept per extension suffix, because interpreters sharing one
    checkout (3.11 and 3.12, say) each compile their own extensions, at different times."""
    try:
        record = json.loads((root / STAMP_NAME).read_text())["builds"][EXTENSION_SUFFIX]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return record if isinstance(record, dict) else {}


def stale_sources(
    root: Path, extensions: Mapping[str, Path], record: Mapping | None = None
) -> list[str]:
    """The sources (paths relative to the project) that differ from what was compiled, or that
    no stamp vouches for, among ``extensions`` (as from :func:`find_extensions`); ``record`` is
    :func:`build_record` of ``root``, read here when not given."""
    digests = (build_record(root) if record is None else record).get("sources", {})
    stale = []
    for source in extensions.values():
        relative = source.relative_to(root.parent).as_posix()
        if digests.get(relative) != hashlib.sha256(source.read_bytes()).hexdigest():
            stale.append(relative)
    return sorted(stale)


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the named modules' Python source ahead of their compiled extensions."""

    def __init__(self, sources: Mapping[str, Path]) -> None:
        self.sources = dict(sources)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        source = self.sources.get(fullname)
        return None if source is None else importlib.util.spec_from_file_location(fullname, source)


def activate(
    root: Path = PACKAGE_ROOT,
    package: str | None = None,
    environ: Mapping[str, str] = os.environ,
) -> CompiledState:
    """Decide what runs for the package named ``package`` (see :func:`find_extensions`) at
    ``root``, and make imports follow: when the source must run, a finder that prefers it goes
    first on ``sys.meta_path``. Call before any compiled module is imported (``envs/__init__.py``
    does)."""
    extensions = find_extensions(root, package)
    if not extensions:
        return CompiledState((), "not compiled")
    if environ.get(PURE_PYTHON_ENV, "") not in ("", "0"):
        note = f"{PURE_PYTHON_ENV} is set"
    else:
        record = build_record(root)
        stale = stale_sources(root, extensions, record)
        if not stale:
            return CompiledState(tuple(sorted(extensions)), str(record.get("compiler", "?")))
        note = f"{', '.join(stale)} changed since it was compiled"
        warnings.warn(  # (once per process: worker processes each say it too)
            f"ludolab: {note}, so the Python source of the compiled modules runs (same results, "
            "slower). Compile again with `make setup` (or `pip install -e .`).",
            RuntimeWarning,
            stacklevel=2,
        )
    sys.meta_path.insert(0, _SourceFinder(extensions))
    return CompiledState((), note)


def c_extension(module: str, source: Path, instead: str) -> ModuleType | None:
    """A plain C extension (setup.py's C_EXTENSIONS) by its module name, when it is built,
    current and not switched off; else None, and the Python it stands in for runs.

    Current: its compiled-in ``SOURCE_SHA256`` is the digest of ``source``, and each Python
    file it states a second time (``MIRRORS_SHA256``: ``path=sha256;...``, paths beside
    ``source``) is as it was built: a rule edited in the Python reference is a rule the C does
    not have. An installed wheel carries no C source: the extension is then what was shipped. A
    stale one is refused with a warning naming the changed file and ``instead``, what runs in
    its place."""
    if os.environ.get(PURE_PYTHON_ENV, "") not in ("", "0"):
        return None
    try:
        extension = importlib.import_module(module)
    except ImportError:
        return None
    changed = _changed_since_built(extension, source)
    if changed is not None:
        since = "it was" if changed == source else f"{source.name}, which restates it, was"
        warnings.warn(
            f"ludolab: {Path(*changed.parts[-3:])} changed since {since} compiled, so "
            f"{instead} (same results, slower). Compile again with `make setup` (or "
            "`pip install -e .`).",
            RuntimeWarning,
            stacklevel=3,
        )
        return None
    return extension


def _changed_since_built(extension: ModuleType, source: Path) -> Path | None:
    """The first of ``source`` and the files it mirrors whose digest is not the built one (None:
    all current). Only files present are checked (a wheel ships no C source)."""
    if not source.exists():
        return None
    built = {source: getattr(extension, "SOURCE_SHA256", None)}
    for entry in filter(None, str(getattr(extension, "MIRRORS_SHA256", "")).split(";")):
        path, _, digest = entry.partition("=")
        built[source.parent / path] = digest
    for path, digest in built.items():
        if path.exists() and hashlib.sha256(path.read_bytes()).hexdigest() != digest:
            return path
    return None
