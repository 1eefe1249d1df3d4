"""Build the API reference (HTML, pdoc) from the docstrings: ``make docs`` -> build/docs/.

Every module of the package is documented, with the Python source of the compiled modules
(LUDOLAB_PURE_PYTHON is set here, so their signatures and docstrings are the source's). Warnings
are errors: a module that fails to import, or a docstring pdoc cannot convert, fails the build.
"""

from __future__ import annotations

import os
import pkgutil
import sys
import warnings
from pathlib import Path

os.environ["LUDOLAB_PURE_PYTHON"] = "1"  # before ludolab.envs decides what runs

# matplotlib builds its font list on first import, asking fontconfig's fc-list when it is
# installed (Chromium, for the browser tests, brings it); pdoc forbids subprocesses while it
# imports modules, so the font list is built here first.
import matplotlib.font_manager  # noqa: E402, F401
import pdoc  # noqa: E402
import pdoc.extract  # noqa: E402
import pdoc.render  # noqa: E402

import ludolab  # noqa: E402
import ludolab.envs  # noqa: E402
import ludolab.research  # noqa: E402

ROOTS = ["ludolab", "ludolab.envs", "ludolab.research"]


def modules() -> list[str]:
    """The module specs for pdoc: the three roots, plus the modules their walk does not reach
    (those of packages whose ``__all__`` lists names, not submodules), each once."""
    every = [
        info.name
        for package in (ludolab.envs, ludolab.research)
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
        if not info.name.endswith("__mypyc")  # mypyc's shared library: no Python source
    ]
    reached = set(pdoc.extract.walk_specs(ROOTS))
    missing = [name for name in every if name not in reached]
    return ROOTS + [name for name in missing if name.rpartition(".")[0] not in missing]


def main(out: str = "build/docs") -> int:
    warnings.simplefilter("error")
    pdoc.render.configure(docformat="google", footer_text=f"ludolab {ludolab.__version__}")
    pdoc.pdoc(*modules(), output_directory=Path(out))
    print(f"API reference: {out}/index.html")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
