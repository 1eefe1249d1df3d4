"""The site's generated reference pages (mkdocs-gen-files runs this during ``make docs``):
written from the code, so that a command, flag or metric added there appears here without
editing a page.

- ``reference/cli.md``: every command's ``--help``, from the command line's parsers (every
  registered game's ``simulate`` and ``generate`` with their flags);
- ``reference/metrics.md``: every registered metric, its formula and unit, from the registry.
"""

from __future__ import annotations

import argparse
import os

import mkdocs_gen_files

from ludolab import games
from ludolab.research.cli import _parser
from ludolab.research.markdown import pipe_table
from ludolab.research.metrics.registry import METRICS, registry_unit

os.environ["COLUMNS"] = "84"  # argparse wraps the help at the terminal's width: fix it


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
            pipe_table(("name", "description", "formula", "unit"), rows),
        ]
    )


with mkdocs_gen_files.open("reference/cli.md", "w") as fh:
    fh.write(cli_page())
with mkdocs_gen_files.open("reference/metrics.md", "w") as fh:
    fh.write(metrics_page())
