"""The layering of the code: no import cycle among ludolab's modules, and neither game's code
imports the other game's.

The import graph is read from the source (every ``import`` the code can run, at module level or
inside a function; imports under ``if TYPE_CHECKING:`` are left out, since they never run).
Importing ``a.b.c`` also imports the packages ``a.b`` and ``a``, so an edge to a module is an
edge to each package above it too, except the importer's own packages (a module inside a
package imports its siblings while the package itself loads, which is no cycle).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# The installed names of the repository's folders (setup.py's PACKAGE_DIRS).
FOLDERS = {"ludolab": "ludolab", "ludolab.envs": "envs", "ludolab.research": "research"}


def _modules() -> dict[str, Path]:
    modules: dict[str, Path] = {}
    for package, folder in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join([package, *parts])] = path
    return modules


def _imported_names(tree: ast.Module, package: str) -> list[str]:
    """Every module name the code of ``tree`` (a module of ``package``) may import."""
    never = {
        id(node)
        for guard in ast.walk(tree)
        if isinstance(guard, ast.If) and "TYPE_CHECKING" in ast.unparse(guard.test)
        for statement in guard.body
        for node in ast.walk(statement)
    }
    names: list[str] = []
    for node in ast.walk(tree):
        if id(node) in never:
            continue
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            names += [base, *(f"{base}.{alias.name}" for alias in node.names)]
    return names


def import_graph() -> dict[str, set[str]]:
    """Per ludolab module, the ludolab modules importing it runs (see the module docstring)."""
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for imported in _imported_names(ast.parse(path.read_text()), package):
            while imported and imported not in modules:  # an attribute: its module
                imported = imported.rpartition(".")[0]
            parts = imported.split(".")
            for i in range(1, len(parts) + 1):
                target = ".".join(parts[:i])
                own_package = name.startswith(target + ".")
                if target in modules and target != name and not own_package:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def test_the_graph_sees_imports_inside_functions_and_the_packages_above() -> None:
    graph = import_graph()
    # Catan's game description imports the engine's play loop inside a method.
    assert "ludolab.envs.catan.play" in graph["ludolab.research.catan.game"]
    # ... and ludolab.envs.catan.agents.greedy loads the package ludolab.envs.catan.agents.
    assert "ludolab.envs.catan.agents" in graph["ludolab.envs.catan.play"]
    # A TYPE_CHECKING import is no edge: the core module names the engine only for its types.
    assert "ludolab.envs.catan.engine" not in graph["ludolab.envs.catan.native"]


def test_the_cycle_finder_finds_a_planted_cycle() -> None:
    graph = import_graph()
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    graph["ludolab.envs.agents"].add("ludolab.envs.catan.agents")  # the loop there once was
    assert any("ludolab.envs.agents" in c for c in cycles(graph))


def test_no_import_cycle() -> None:
    found = cycles(import_graph())
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


@pytest.mark.parametrize(("one", "other"), [("catan", "gallery"), ("gallery", "catan")])
def test_neither_game_imports_the_other(one: str, other: str) -> None:
    graph = import_graph()
    crossing = sorted(
        f"{name} -> {target}"
        for name, targets in graph.items()
        if one in name.split(".")
        for target in targets
        if other in target.split(".")
    )
    assert not crossing, f"{one} code imports {other} code: " + "; ".join(crossing)
