"""Setups on disk: one JSON object per file (``.json``) or per line (``.jsonl``).

Boards and deals share it: ``from_json(text, source)`` parses one object and raises the type's
own error (naming ``source``: the file, and the line for ``.jsonl``); files are written
atomically, so a failed write leaves no partial file.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Protocol, TypeVar

T = TypeVar("T")


class ToJson(Protocol):
    def to_json(self) -> str: ...


def iter_records(
    path: str | Path, from_json: Callable[[str, str], T], error: type[Exception], what: str
) -> Iterator[T]:
    """The objects of a ``.jsonl`` file, one per non-blank line; ``what`` names one ("board")."""
    path = Path(path)
    lines = _read(path, error, what).splitlines()
    found = False
    for lineno, line in enumerate(lines, 1):
        if line.strip():
            found = True
            yield from_json(line, f"{path}:{lineno}")
    if not found:
        raise error(f"{path}: holds no {what}s")


def read_record(
    path: str | Path, from_json: Callable[[str, str], T], error: type[Exception], what: str
) -> T:
    """One object from a ``.json`` file (or the first line of a ``.jsonl``)."""
    path = Path(path)
    if path.suffix == ".jsonl":
        return next(iter_records(path, from_json, error, what))
    return from_json(_read(path, error, what), str(path))


def _read(path: Path, error: type[Exception], what: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"{path}: cannot read the {what} file ({exc.strerror})") from exc
    except UnicodeDecodeError as exc:
        raise error(
            f"{path}: not UTF-8 text (byte {exc.start}); a {what} file is JSON, saved as UTF-8"
        ) from None


def write_records(items: Iterable[ToJson], path: str | Path) -> int:
    """Write objects atomically, one JSON object per line; return how many were written."""
    path = Path(path)
    # A temporary name of its own (not one derived from the target): two writers of one path
    # each fill their own file, and each rename puts a whole file in place.
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".partial")
    tmp = Path(name)
    count = 0
    try:
        with os.fdopen(fd, "w") as fh:
            for item in items:
                fh.write(item.to_json() + "\n")
                count += 1
        mask = os.umask(0)
        os.umask(mask)
        tmp.chmod(0o666 & ~mask)
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)
    return count
