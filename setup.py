"""Build step: compile the Catan engine and its agents to C extensions with mypyc.

Everything else about the package is in pyproject.toml. The Python source of these modules stays
the reference: a compiled module is used only while its source is unchanged since it was built
(envs/compiled.py checks the digests written here to envs/_compiled.json, and runs the source of
every compiled module, with a warning, when one no longer matches). Compiled games are move for
move the games of the source (tests/test_compiled.py); they are about twice as fast.

LUDOLAB_PURE_PYTHON=1 at install time skips compiling (a machine without a C compiler); at run
time it makes the package ignore whatever was compiled.
"""

from __future__ import annotations

import hashlib
import json
import os
import sysconfig
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

# The modules on the hot path of a game, compiled together (they call each other natively).
COMPILED = (
    "envs/catan/engine.py",
    "envs/catan/play.py",
    "envs/catan/agents/greedy.py",
    "envs/catan/agents/lookahead.py",
    "envs/catan/agents/random_agent.py",
)
STAMP = "envs/_compiled.json"
PURE_PYTHON = os.environ.get("LUDOLAB_PURE_PYTHON", "") not in ("", "0")

ROOT = Path(__file__).resolve().parent
# Taken before compiling: the digests of the source the extensions are built from.
DIGESTS = {path: hashlib.sha256((ROOT / path).read_bytes()).hexdigest() for path in COMPILED}


class BuildExtWithStamp(build_ext):
    """build_ext, then the stamp that ties each extension to the source it was built from."""

    def run(self) -> None:
        super().run()
        from mypy.version import __version__ as mypy_version

        path = (ROOT if self.inplace else Path(self.build_lib)) / STAMP
        # One record per extension suffix: other interpreters' builds in this tree stay valid.
        try:
            builds = json.loads(path.read_text())["builds"]
        except (OSError, ValueError, KeyError, TypeError):
            builds = {}
        builds[sysconfig.get_config_var("EXT_SUFFIX")] = {
            "compiler": f"mypyc {mypy_version}",
            "sources": DIGESTS,
        }
        path.write_text(json.dumps({"builds": builds}, indent=1) + "\n")


def extensions() -> list:
    if PURE_PYTHON:
        return []
    from mypyc.build import mypycify

    # The build environment has none of the package's dependencies (numpy, gymnasium): their
    # types are unknown to mypy, which is fine, as no compiled module leans on them.
    options = ["--ignore-missing-imports", "--follow-imports=silent"]
    return mypycify([*options, *COMPILED], opt_level="3", group_name="envs_native")


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExtWithStamp})
