"""Build step: compile the Catan engine, its agents and the samplers' kernel with mypyc.

Everything else about the package is in pyproject.toml. The Python source of these modules stays
the reference: a compiled module is used only while its source is unchanged since it was built
(envs/compiled.py checks the digests written here to <package>/_compiled.json, and runs the
source of every compiled module of that package, with a warning, when one no longer matches).
Compiled games are move for move the games of the source, and compiled chains step for step the
chains of the source (tests/test_compiled.py, tests/test_chain.py); games are about twice as
fast compiled, the kernel's chain steps about six times.

One module is plain C, research/catan/listers.c (two depth-first listings for the uniform
sampler and the counter): it is built as the extension ludolab.research.catan._listers with the
SHA-256 of its source compiled in, and research/catan/listers.py runs the Python it stands in
for when that digest no longer matches the source beside it.

LUDOLAB_PURE_PYTHON=1 at install time skips compiling (a machine without a C compiler); at run
time it makes the package ignore whatever was compiled.
"""

from __future__ import annotations

import hashlib
import json
import os
import sysconfig
from pathlib import Path

from setuptools import Extension, find_namespace_packages, setup
from setuptools.command.build_ext import build_ext

# One installed name, `ludolab`: the folders keep their places in the repository (research/ and
# envs/ at the top, as the card asks) and are mounted under it, so that nothing is installed under a
# generic name a user's own project may also use (an `envs` package, say).
PACKAGE_DIRS = {"ludolab": "ludolab", "ludolab.envs": "envs", "ludolab.research": "research"}

# Per package, the modules compiled together (they call each other natively): the hot path of a
# game, and the samplers' one-board checks and chain steps.
COMPILED = {
    "ludolab.envs": (
        "envs/catan/engine.py",
        "envs/catan/play.py",
        "envs/catan/loop.py",
        "envs/catan/agents/greedy.py",
        "envs/catan/agents/lookahead.py",
        "envs/catan/agents/random_agent.py",
    ),
    "ludolab.research": ("research/catan/kernel.py", "research/catan/token_lister.py"),
}
STAMP = "_compiled.json"  # in each package folder
PURE_PYTHON = os.environ.get("LUDOLAB_PURE_PYTHON", "") not in ("", "0")

ROOT = Path(__file__).resolve().parent
# Taken before compiling: the digests of the source the extensions are built from.
DIGESTS = {
    package: {path: hashlib.sha256((ROOT / path).read_bytes()).hexdigest() for path in paths}
    for package, paths in COMPILED.items()
}
# mypy names a module after the folders above it, so mypyc compiles the sources through a tree
# that spells the installed names: build/mypyc-src/ludolab/{envs,research} link to the folders.
MYPYC_SOURCES = ROOT / "build" / "mypyc-src"


def packages() -> list[str]:
    """Every package and data folder under the installed names (ludolab, ludolab.envs...)."""
    found = ["ludolab"]
    for name, folder in PACKAGE_DIRS.items():
        if name != "ludolab":
            found += [name, *(f"{name}.{sub}" for sub in find_namespace_packages(folder))]
    return [name for name in found if "__pycache__" not in name]


class BuildExtWithStamp(build_ext):
    """build_ext, then the stamp that ties each extension to the source it was built from."""

    def run(self) -> None:
        super().run()
        from mypy.version import __version__ as mypy_version

        for package, digests in DIGESTS.items():
            if self.inplace:
                path = ROOT / PACKAGE_DIRS[package] / STAMP
            else:
                path = Path(self.build_lib, *package.split(".")) / STAMP
            # One record per extension suffix: other interpreters' builds here stay valid.
            try:
                builds = json.loads(path.read_text())["builds"]
            except (OSError, ValueError, KeyError, TypeError):
                builds = {}
            builds[sysconfig.get_config_var("EXT_SUFFIX")] = {
                "compiler": f"mypyc {mypy_version}",
                "sources": digests,
            }
            path.write_text(json.dumps({"builds": builds}, indent=1) + "\n")


def mypyc_source(path: str) -> str:
    """``path`` (e.g. envs/catan/engine.py) in the tree that names it ludolab.envs.catan.engine."""
    package = MYPYC_SOURCES / "ludolab"
    package.mkdir(parents=True, exist_ok=True)
    (package / "__init__.py").touch()  # empty: mypy need not read the public API
    for name, folder in PACKAGE_DIRS.items():
        link = MYPYC_SOURCES / Path(*name.split("."))
        if name != "ludolab" and not link.is_symlink():
            link.symlink_to(ROOT / folder, target_is_directory=True)
    top, rest = path.split("/", 1)
    return str(MYPYC_SOURCES / "ludolab" / top / rest)


# Plain C extensions (no Python twin of the same name; the Python beside them that runs in
# their place, and checks SOURCE_SHA256 against the source, is named in each C file's header):
# module -> its C source, and the Python files (beside it) whose rules or choices it states a
# second time. A change to one of those is a change the C does not have: the built extension
# carries their digests too (MIRRORS_SHA256), and is refused when one no longer matches.
C_EXTENSIONS: dict[str, tuple[str, tuple[str, ...]]] = {
    "ludolab.research.catan._listers": ("research/catan/listers.c", ()),
    "ludolab.envs.catan._core": (
        "envs/catan/core.c",
        (
            "engine.py",
            "play.py",
            "agents/greedy.py",
            "agents/random_agent.py",
            "agents/value.py",
            "agents/determinise.py",
        ),
    ),
    "ludolab.envs.gallery._core": (
        "envs/gallery/core.c",
        (
            "engine.py",
            "play.py",
            "agents/greedy.py",
            "agents/random_agent.py",
            "agents/determinise.py",
        ),
    ),
}
# Headers the C extensions include (a change to one rebuilds them all).
C_HEADERS = ["envs/stream.h"]


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def c_extensions() -> list[Extension]:
    extensions = []
    for name, (path, mirrors) in C_EXTENSIONS.items():
        folder = (ROOT / path).parent
        mirrored = ";".join(f"{m}={_sha256(folder / m)}" for m in mirrors)
        extensions.append(
            Extension(
                name,
                [path],
                define_macros=[
                    ("SOURCE_SHA256", f'"{_sha256(ROOT / path)}"'),
                    ("MIRRORS_SHA256", f'"{mirrored}"'),
                ],
                extra_compile_args=["-O3"],
                depends=C_HEADERS,
            )
        )
    return extensions


def extensions() -> list:
    if PURE_PYTHON:
        return []
    from mypyc.build import mypycify

    # The build environment has none of the package's dependencies (numpy, gymnasium): their
    # types are unknown to mypy, which is fine, as no compiled module leans on them.
    options = ["--ignore-missing-imports", "--follow-imports=silent"]
    return [
        extension
        for package, paths in COMPILED.items()
        for extension in mypycify(
            [*options, *map(mypyc_source, paths)], opt_level="3", group_name=f"{package}.native"
        )
    ] + c_extensions()


setup(
    packages=packages(),
    package_dir=PACKAGE_DIRS,
    ext_modules=extensions(),
    cmdclass={"build_ext": BuildExtWithStamp},
)
