"""Find MiniZinc and Gecode on this machine, once per process.

Lookup order for each tool: an environment override (``LUDOLAB_MINIZINC``,
``LUDOLAB_FZN_GECODE``; a path or a command name), then what MiniZinc itself registered
(the Gecode ``.msc`` from ``minizinc --solvers-json``), then ``PATH``.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ludolab.research.solve.errors import ToolchainMissing

MINIZINC_ENV = "LUDOLAB_MINIZINC"
FZN_GECODE_ENV = "LUDOLAB_FZN_GECODE"

# Shim directory with solver redefinitions that Debian's Gecode 6.2.0 library lacks (see below).
COMPAT_MZNLIB = Path(__file__).with_name("mznlib")

_PROBE_TIMEOUT = 30.0  # seconds; a version probe that takes longer is a broken install


@dataclass(frozen=True)
class Toolchain:
    """Paths and versions of the MiniZinc front end and the Gecode FlatZinc solver."""

    minizinc: Path
    minizinc_version: str
    fzn_gecode: Path
    gecode_version: str
    gecode_mznlib: Path | None  # Gecode's MiniZinc library dir (redefinitions of globals)

    @property
    def compat_include_dirs(self) -> tuple[Path, ...]:
        """Extra ``-I`` dirs that give MiniZinc the Gecode propagators it would otherwise miss.

        Gecode 6.2.0's library (Debian 12) predates MiniZinc's ``fzn_<global>`` naming, so
        MiniZinc 2.6.4 falls back to its own decomposition: ``alldifferent`` on n variables
        becomes n(n-1)/2 ``int_lin_ne`` constraints instead of Gecode's ``all_different_int``
        propagator. The shim maps ``fzn_all_different_int`` back to the native propagator.
        It is only used when the solver library lacks that file, so newer toolchains
        (whose Gecode library has it) are left alone.
        """
        lib = self.gecode_mznlib
        if lib is None or (lib / "fzn_all_different_int.mzn").exists():
            return ()
        if not (lib / "all_different_int.mzn").exists():
            return ()
        return (COMPAT_MZNLIB,)


def _resolve(tool: str, env_var: str, fallback: str | None) -> Path:
    override = os.environ.get(env_var)
    if override:
        found = shutil.which(override)
        if found is None:
            raise ToolchainMissing(
                tool, f"was not found at {env_var}={override!r} (no such executable)"
            )
        return Path(found)
    found = shutil.which(fallback) if fallback else None
    found = found or shutil.which(tool)
    if found is None:
        raise ToolchainMissing(tool, "was not found on PATH")
    return Path(found)


def _run(tool: str, args: list[str]) -> str:
    """Run a probe command; return stdout and stderr together (fzn-gecode -help uses stderr)."""
    try:
        proc = subprocess.run(args, capture_output=True, text=True, timeout=_PROBE_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ToolchainMissing(tool, f"at {args[0]} does not run ({exc})") from exc
    return proc.stdout + proc.stderr


def _gecode_registration(minizinc: Path) -> dict:
    """Gecode's entry from ``minizinc --solvers-json`` ({} when Gecode is not registered)."""
    out = _run("minizinc", [str(minizinc), "--solvers-json"])
    try:
        solvers = json.loads(out[out.index("[") :])
    except ValueError:
        return {}
    return next((s for s in solvers if s.get("id") == "org.gecode.gecode"), {})


def _mznlib_dir(minizinc: Path, mznlib: str | None) -> Path | None:
    """Turn the .msc ``mznlib`` entry ("-Ggecode" or a path) into a directory."""
    if not mznlib:
        return None
    if not mznlib.startswith("-G"):
        path = Path(mznlib)
        return path if path.is_dir() else None
    out = _run("minizinc", [str(minizinc), "--config-dirs"])
    try:
        stdlib = json.loads(out[out.index("{") :])["mznStdlibDir"]
    except (ValueError, KeyError):
        return None
    path = Path(stdlib) / mznlib[2:]
    return path if path.is_dir() else None


@functools.cache
def find_toolchain() -> Toolchain:
    """Locate and probe the toolchain (cached; call ``find_toolchain.cache_clear()`` to redo).

    Raises `ToolchainMissing`, with install instructions, when a tool is absent or broken.
    """
    minizinc = _resolve("minizinc", MINIZINC_ENV, None)
    version = re.search(r"version (\d+(?:\.\d+)+)", _run("minizinc", [str(minizinc), "--version"]))
    if version is None:
        raise ToolchainMissing("minizinc", f"at {minizinc} did not report a version")

    registered = _gecode_registration(minizinc)
    fzn_gecode = _resolve("fzn-gecode", FZN_GECODE_ENV, registered.get("executable"))
    help_text = _run("fzn-gecode", [str(fzn_gecode), "-help"])
    gecode = re.search(r"Version:\s*(\d+(?:\.\d+)+)", help_text)
    if gecode is None:
        raise ToolchainMissing("fzn-gecode", f"at {fzn_gecode} did not report a Gecode version")
    if not registered:
        raise ToolchainMissing(
            "Gecode solver configuration (gecode.msc)",
            f"is not registered with {minizinc}, so `minizinc --solver gecode` cannot run",
        )
    return Toolchain(
        minizinc=minizinc,
        minizinc_version=version.group(1),
        fzn_gecode=fzn_gecode,
        gecode_version=gecode.group(1),
        gecode_mznlib=_mznlib_dir(minizinc, registered.get("mznlib")),
    )
