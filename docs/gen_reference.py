"""The site's generated reference pages (mkdocs-gen-files runs this during ``make docs``):
written from the code, so that a command, flag or metric added there appears here without
editing a page.

- ``reference/cli.md``: every command's ``--help``, from the command line's parsers (every
  registered game's ``simulate`` and ``generate`` with their flags);
- ``reference/metrics.md``: every registered metric, its formula and unit, from the registry;
- ``reference/config.md``: every key of an experiment config, from the records whose fields
  declare them (their types, defaults, allowed values and docstrings);
- ``reference/agents.md``: every registered game's agents, their parameters and docstrings;
- ``reference/constraints.md``: every game's constraint library and shipped sets, as
  ``ludolab constraints list`` prints them.
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import os
import re

os.environ["LUDOLAB_PURE_PYTHON"] = "1"  # the compiled agents' source: signatures, docstrings
os.environ["COLUMNS"] = "84"  # argparse wraps the help at the terminal's width: fix it

import mkdocs_gen_files

from ludolab import games
from ludolab.research.cli import _parser
from ludolab.research.cli.common import field_docs
from ludolab.research.experiment.config import model, schema
from ludolab.research.experiment.config.keys import Check
from ludolab.research.metrics.registry import METRICS, registry_unit


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The parser's subcommands by name, in the order they were added."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _command_pages(prefix: list[str], parser: argparse.ArgumentParser) -> list[str]:
    """``prefix``'s help, then its subcommands' (depth first), as Markdown sections."""
    lines = [f"## `{' '.join(['ludolab', *prefix])}`", "", "```text", parser.format_help(), "```"]
    for name, sub in _subcommands(parser).items():
        argv = [*prefix, name]
        if len(argv) == 2 and argv[0] in ("simulate", "generate"):
            sub = _subcommands(_parser(argv))[argv[0]]
            sub = _subcommands(sub)[name]  # a game's flags are built when argv names it
        lines += ["", *_command_pages(argv, sub)]
    return lines


def cli_page() -> str:
    """The command line's reference."""
    intro = [
        "# Command line",
        "",
        "Every `ludolab` command with its `--help`, generated from the command line's parsers. "
        "`simulate` and `generate` have a subcommand for each registered game "
        f"({', '.join(games.names())}), whose rule-option flags come from the game's "
        "description.",
        "",
    ]
    root = _parser([])
    body: list[str] = []
    for name, sub in _subcommands(root).items():
        if name == "puzzle":
            continue  # each puzzle's options load only when named; see `ludolab puzzle --help`
        body += _command_pages([name], sub) + [""]
    return "\n".join(intro + body)


def metrics_page() -> str:
    """The metrics' reference."""
    rows = [
        (f"`{name}`", m.description, f"`{m.formula}`", registry_unit(name))
        for name, m in METRICS.items()
    ]
    return "\n".join(
        [
            "# Metrics",
            "",
            "Every metric a config may name, generated from the metrics registry "
            "(`ludolab metrics` prints the same table). Per-game metrics are computed for every "
            "game from the record core; a game's own are named `<game>.<metric>`; "
            "`condition.*` metrics are computed over a condition's games.",
            "",
            _table(("name", "description", "formula", "unit"), rows),
        ]
    )


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    """A pipe table of cells that are Markdown already (code spans kept), ``|`` escaped outside
    code spans."""

    def cell(text: str) -> str:
        # a pipe splits cells outside code spans only: inside one it is text, and escaping it
        # there would show the backslash
        parts = " ".join(str(text).split()).split("`")
        return "`".join(p if i % 2 else p.replace("|", "\\|") for i, p in enumerate(parts))

    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _allowed(check: Check | None) -> str:
    if check is None:
        return ""
    return {
        "integer": f"a whole number ≥ {check.minimum}",
        "boolean": "true or false",
        "choice": ", ".join(f"`{a}`" for a in check.allowed),
        "fraction": "a number between 0 and 1",
    }[check.kind]


def _key_rows(cls: type) -> list[tuple[str, str, str, str, str]]:
    """One row per config key ``cls`` declares: key, type, default, allowed values, meaning."""
    docs = {name: text.replace("``", "`") for name, text in field_docs(cls).items()}
    rows = []
    for f in dataclasses.fields(cls):
        if not f.metadata.get("key"):
            continue
        named = f.metadata.get("named")
        shown = (
            " / ".join(f"`{getattr(games.get(g), named)}`" for g in games.names())
            if named
            else f"`{f.name}`"
        )
        # the parser fills in what a record field without a default leaves to the config (its
        # meaning says so): only a literal default is shown
        default = "" if f.default is dataclasses.MISSING else f"`{f.default!r}`"
        rows.append(
            (shown, f"`{f.type}`", default, _allowed(f.metadata.get("check")), docs.get(f.name, ""))
        )
    return rows


def config_page() -> str:
    """The experiment config's keys."""
    header = ("key", "type", "default", "allowed", "what it is")
    sections = [
        ("Top level", model.ExperimentConfig, ""),
        (
            "`[[conditions]]`",
            model.Condition,
            "A condition may also hold the settings its game's samplers take: "
            + ", ".join(
                f"{games.get(g).title}: "
                + (", ".join(f"`{k}`" for k in games.get(g).condition_keys) or "none")
                for g in games.names()
            )
            + ".",
        ),
        ("`[[lineups]]`", model.AgentLineup, ""),
        ("`[comparisons]`", model.Comparisons, ""),
    ]
    lines = [
        "# Experiment config",
        "",
        "Every key an experiment config (TOML) may hold, generated from the records whose "
        "fields declare them (`research/experiment/config/model.py`): a key added there "
        "appears here. Where the game names a key (its setups), each registered game's name "
        "is shown. Every value is checked when the file is loaded; a wrong one is one line "
        "naming the file, the key and what is allowed.",
        "",
    ]
    for title, cls, note in sections:
        lines += [f"## {title}", "", _table(header, _key_rows(cls))]
        if note:
            lines += ["", note]
        lines.append("")
    lines += [
        "## `[[sweep]]`",
        "",
        "One condition per value of one parameter: "
        + ", ".join(f"`{k}`" for k in schema.SWEEP_KEYS)
        + " (and the game's sampler settings, as for a condition).",
        "",
    ]
    return "\n".join(lines)


def _first_paragraph(obj: object) -> str:
    """The docstring's first paragraph as Markdown: Sphinx roles (``:class:`X` ``) as code."""
    doc = inspect.getdoc(obj) or ""
    text = " ".join(doc.split("\n\n", 1)[0].split()).replace("``", "`")
    return re.sub(r":[a-z]+:`~?([^`]+)`", r"`\1`", text)


def _parameters(cls: type) -> str:
    """An agent's parameters with their defaults, as its spec writes them. An agent that takes
    ``**params`` for its parent's (with defaults of its own, ``_DEFAULTS``) shows the parent's
    parameters with those defaults."""
    defaults: dict[str, object] = {}
    for klass in cls.__mro__:
        defaults = {**getattr(klass, "_DEFAULTS", {}), **defaults}
        parameters = inspect.signature(klass.__init__).parameters.values()
        if not any(p.kind is p.VAR_KEYWORD for p in parameters):
            break
    shown = []
    for p in parameters:
        if p.name == "self" or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        default = defaults.get(p.name, p.default)
        shown.append(f"`{p.name}`" if default is p.empty else f"`{p.name}={default!r}`")
    return ", ".join(shown) or "none"


def agents_page() -> str:
    """Every registered game's agents."""
    lines = [
        "# Agents",
        "",
        "Every registered game's agents, generated from their classes. A config's lineup or "
        "the command line names one as `name` or `name:key=value,key=value` (e.g. "
        "`mcts:playouts=200`); an agent of your own as `module.path:Class`.",
        "",
    ]
    for name in games.names():
        game = games.get(name)
        rows = [
            (f"`{agent}`", _parameters(cls), _first_paragraph(cls), _module_link(cls))
            for agent, cls in game.agents.agents.items()
        ]
        header = ("agent", "parameters", "what it does", "module")
        lines += [f"## {game.title}", "", _table(header, rows)]
    return "\n".join(lines)


def _module_link(cls: type) -> str:
    """The agent's module: a link to its page of the API reference (ludolab's own modules,
    which the module docstrings the agents point to are on), else its name."""
    module = cls.__module__
    if not module.startswith("ludolab."):
        return f"`{module}`"
    path = module.replace(".", "/")
    # raw HTML: the API reference is built beside the site, not from its pages
    return f'<a href="../../api/{path}.html"><code>{module}</code></a>'


def constraints_page() -> str:
    """Every game's constraint library and shipped sets."""
    lines = [
        "# Constraints and sets",
        "",
        "Every registered game's setup constraints with their parameters, and the sets it "
        "ships, as `ludolab constraints list` prints them (each game's description gives "
        "them); `ludolab constraints show NAME` shows one set.",
        "",
    ]
    for name in games.names():
        game = games.get(name)
        lines += [f"## {game.title}", "", "```text", game.constraint_library(), "```", ""]
    return "\n".join(lines)


with mkdocs_gen_files.open("reference/agents.md", "w") as fh:
    fh.write(agents_page())
with mkdocs_gen_files.open("reference/constraints.md", "w") as fh:
    fh.write(constraints_page())
with mkdocs_gen_files.open("reference/config.md", "w") as fh:
    fh.write(config_page())
with mkdocs_gen_files.open("reference/cli.md", "w") as fh:
    fh.write(cli_page())
with mkdocs_gen_files.open("reference/metrics.md", "w") as fh:
    fh.write(metrics_page())
