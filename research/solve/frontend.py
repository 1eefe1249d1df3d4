"""Drive the `minizinc` front end: stage model, extra code and data; run; read its JSON stream.

Shared by `run.solve` (flatten and solve) and `flatzinc.compile_model` (flatten only).
Errors come back as `ModelError` carrying MiniZinc's own message, with temp paths replaced by
the names the user knows; Debian's harmless deprecation notices are dropped, other warnings are
re-raised as `MiniZincWarning`.
"""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import tempfile
import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ludolab.research.solve.errors import MiniZincWarning, ModelError, SolveError
from ludolab.research.solve.toolchain import Toolchain

# Gecode 6.2.0's library overrides some std globals the pre-2.3 way; MiniZinc 2.6.4 says so on
# every run ("included file "count.mzn" overrides a global constraint file ..."). Harmless.
_NOISE = re.compile(r"overrides a global constraint file from the standard library")
# Flattening proved the model unsatisfiable; callers turn this into `Unsatisfiable`.
INCONSISTENT = re.compile(r"model inconsistency detected")


@dataclass(frozen=True)
class ModelSource:
    """A model given as a file or as MiniZinc code; `name` is what messages call it."""

    name: str
    path: Path | None = None
    code: str | None = None


def model_source(model: str | Path, model_name: str | None = None) -> ModelSource:
    """Decide whether `model` is a file (Path, or an existing path string) or MiniZinc code."""
    if isinstance(model, Path) or (
        "\n" not in model and ";" not in model and (model.endswith(".mzn") or Path(model).is_file())
    ):
        path = Path(model)
        name = model_name or path.name
        if not path.is_file():
            raise ModelError(f"model file not found: {path}", model=name)
        return ModelSource(name=name, path=path.resolve())
    return ModelSource(name=model_name or "model.mzn", code=model)


def _safe_file_name(name: str) -> str:
    stem = re.sub(r"[^\w.-]+", "_", name).strip("._") or "model"
    return stem if stem.endswith(".mzn") else f"{stem}.mzn"


def _to_json(value: Any) -> Any:
    """JSON encoder fallback: numpy arrays/scalars and Python sets (MiniZinc's {"set": [...]})."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, set | frozenset):
        return {"set": sorted(value)}
    raise TypeError(f"cannot pass {type(value).__name__} to MiniZinc: {value!r}")


@dataclass
class Staged:
    """Files written for one `minizinc` call, and how to translate their paths in messages."""

    workdir: Path  # private temp dir, removed with everything in it after the call
    files: list[Path]
    include_args: list[str]
    aliases: dict[str, str] = field(default_factory=dict)  # temp path -> user-facing name

    def clean(self, text: str) -> str:
        for path, name in self.aliases.items():
            text = text.replace(path, name)
        return text


@contextlib.contextmanager
def staged(
    source: ModelSource,
    data: Mapping[str, Any] | None,
    extra_code: str,
    include_dirs: Sequence[str | Path],
    toolchain: Toolchain,
) -> Iterator[Staged]:
    """Write code/data to a private temp dir (removed afterwards) and yield the CLI pieces."""
    with tempfile.TemporaryDirectory(prefix="ludolab-mzn-") as tmp:
        tmpdir = Path(tmp)
        out = Staged(workdir=tmpdir, files=[], include_args=[])
        if source.path is not None:
            out.files.append(source.path)
        else:
            path = tmpdir / _safe_file_name(source.name)
            path.write_text(source.code or "")
            out.files.append(path)
            out.aliases[str(path)] = source.name
        if extra_code.strip():
            path = tmpdir / "extra_code.mzn"
            path.write_text(extra_code)
            out.files.append(path)
            out.aliases[str(path)] = "extra_code"
        if data:
            path = tmpdir / "data.json"
            path.write_text(json.dumps(dict(data), default=_to_json))
            out.files.append(path)
            out.aliases[str(path)] = "data"
        for directory in (*toolchain.compat_include_dirs, *include_dirs):
            out.include_args += ["-I", str(directory)]
        out.aliases[str(tmpdir) + "/"] = ""
        yield out


def base_args(toolchain: Toolchain) -> list[str]:
    """Flags every front-end call shares: Gecode (the exact binary we found), JSON stream."""
    return [
        "--solver",
        "gecode",
        "--fzn-cmd",  # so LUDOLAB_FZN_GECODE is honoured by `solve` as well as by sampling
        str(toolchain.fzn_gecode),
        "--json-stream",
        "--output-mode",
        "json",
    ]


def _location(loc: Mapping[str, Any] | None, staged_files: Staged) -> str:
    if not loc or not loc.get("filename"):
        return ""
    name = staged_files.clean(str(loc["filename"]))
    line, col = loc.get("firstLine"), loc.get("firstColumn")
    last_line, last_col = loc.get("lastLine"), loc.get("lastColumn")
    where = f"{name}:{line}.{col}"
    if last_line == line and last_col not in (None, col):
        where += f"-{last_col}"
    elif last_line not in (None, line):
        where += f"-{last_line}.{last_col}"
    return where


def _quiet_stderr(stderr: str) -> str:
    """stderr without the deprecation notices (each a line, followed by a blank line)."""
    return "\n".join(
        line for line in stderr.splitlines() if line.strip() and not _NOISE.search(line)
    )


def run_minizinc(
    toolchain: Toolchain,
    args: Sequence[str],
    files: Staged,
    *,
    model: str,
    label: str | None,
) -> list[dict[str, Any]]:
    """Run ``minizinc <args>`` and return its JSON-stream messages.

    Raises `ModelError` for MiniZinc's own errors (syntax, type, assertion, evaluation) and
    `SolveError` for anything else that makes it fail.
    """
    cmd = [str(toolchain.minizinc), *args]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as exc:
        raise SolveError(
            f"could not run {toolchain.minizinc}: {exc}", model=model, label=label
        ) from exc
    messages: list[dict[str, Any]] = []
    stray: list[str] = []
    for line in proc.stdout.splitlines():
        if not line.strip():
            continue
        try:
            messages.append(json.loads(line))
        except json.JSONDecodeError:
            stray.append(line)  # e.g. a solver writing to stdout outside the JSON protocol

    for msg in messages:
        text = msg.get("message", "")
        if msg.get("type") == "warning" and not (_NOISE.search(text) or INCONSISTENT.search(text)):
            text = files.clean(text)
            where = _location(msg.get("location"), files)
            warnings.warn(
                f"{model}: MiniZinc warning{' at ' + where if where else ''}: {text}",
                MiniZincWarning,
                stacklevel=3,
            )
    errors = [m for m in messages if m.get("type") == "error"]
    if errors:
        err = errors[0]
        what = err.get("what", "error")
        where = _location(err.get("location"), files)
        text = files.clean(str(err.get("message", "")).strip())
        raise ModelError(
            f"MiniZinc {what}{' at ' + where if where else ''}: {text}", model=model, label=label
        )
    status = next((m["status"] for m in messages if m.get("type") == "status"), None)
    if proc.returncode != 0 or status == "ERROR":
        detail = files.clean(_quiet_stderr(proc.stderr) or "\n".join(stray)) or "no message"
        raise SolveError(
            f"minizinc failed (exit code {proc.returncode}): {detail}", model=model, label=label
        )
    return messages
