"""The documentation's examples run as written.

Every page of the site (``docs/**/*.md``) and the README is read as a reader would follow it:
its blocks run in order, in one fresh folder holding a copy of ``experiments/`` and
``examples/`` (as a checkout does), with the virtualenv's ``ludolab`` and ``python`` first on
the ``PATH`` (as after ``source .venv/bin/activate``). What a block is, is said by its fence and
by the HTML comment on the line right above it:

- a ``bash`` block runs in ``bash`` (``set -euo pipefail``) and must exit 0;
- a ``python`` block runs as a script and must exit 0;
- ``<!-- file: NAME -->`` above a block of any language writes the block to ``NAME`` (in the
  folder) instead of running it: a file the reader is asked to write;
- ``<!-- slow -->`` above a block (a whole study, say) runs it only in the slow suite
  (``make test-all``), where the page runs whole; in ``make test`` the page runs without it, so
  later blocks must not need what a slow block made;
- ``<!-- setup -->`` above a ``bash`` block: it may hold only ``make setup``, ``source
  .venv/bin/activate`` (which the ``PATH`` above stands for) or commands of the Makefile's
  recipes (with ``$(BIN)/`` dropped), which every run of the suite has run first (``make test``
  does); it is checked, not run again (a nested install could reinstall a package under the
  running tests).

Blocks of other languages (``text`` output, ``toml`` excerpts) are read, not run.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted(
    [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")],
    key=lambda page: str(page.relative_to(ROOT)),
)
BLOCK = re.compile(
    r"^(?:<!-- (slow|setup|file: [^ ]+) -->\n)?```(\w*)[^\n]*\n(.*?)^```[ \t]*$", re.S | re.M
)
RUN = ("bash", "python")
COPIED = ("experiments", "examples")


@dataclass(frozen=True)
class Block:
    """One fenced block of a page: its language, its text and its mark (``""``, ``"slow"``,
    ``"setup"`` or ``"file: NAME"``)."""

    language: str
    text: str
    mark: str

    @property
    def runs(self) -> bool:
        return self.language in RUN and self.mark in ("", "slow")


def blocks(page: Path) -> list[Block]:
    """The page's fenced blocks, in order."""
    return [Block(lang, text, mark) for mark, lang, text in BLOCK.findall(page.read_text())]


def name(page: Path) -> str:
    return str(page.relative_to(ROOT))


def executed(*, slow: bool) -> list[Path]:
    """The pages with something to run: in the fast suite, those with a block that is not slow;
    in the slow suite, those with a slow block (their whole run)."""
    return [
        page for page in PAGES if any(b.runs and (b.mark == "slow") == slow for b in blocks(page))
    ]


def follow(page: Path, folder: Path, *, with_slow: bool) -> None:
    """Run the page's blocks in order in ``folder``, as a reader would."""
    for copied in COPIED:
        shutil.copytree(
            ROOT / copied,
            folder / copied,
            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", ".pytest_cache"),
        )
    (folder / "tmp").mkdir()
    bin_dir = str(Path(sys.executable).parent)
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "TMPDIR": str(folder / "tmp"),  # mktemp -d lands in the test's folder
        "MPLBACKEND": "Agg",
    }
    for i, block in enumerate(blocks(page)):
        if block.mark.startswith("file: "):
            target = folder / block.mark.removeprefix("file: ")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(block.text)
            continue
        if not block.runs or (block.mark == "slow" and not with_slow):
            continue
        if block.language == "bash":
            argv = ["bash", "-c", "set -euo pipefail\n" + block.text]
        else:
            script = folder / "tmp" / f"block-{i}.py"
            script.write_text(block.text)
            argv = [sys.executable, str(script)]
        done = subprocess.run(argv, cwd=folder, env=env, capture_output=True, text=True)
        assert done.returncode == 0, (
            f"{name(page)}, block {i} ({block.language}):\n{block.text}\n"
            f"stdout:\n{done.stdout[-4000:]}\nstderr:\n{done.stderr[-4000:]}"
        )


@pytest.mark.parametrize("page", executed(slow=False), ids=name)
def test_a_page_s_examples_run_as_written(page: Path, tmp_path: Path) -> None:
    follow(page, tmp_path, with_slow=False)


@pytest.mark.slow
@pytest.mark.parametrize("page", executed(slow=True), ids=name)
def test_a_page_runs_whole_with_its_slow_examples(page: Path, tmp_path: Path) -> None:
    follow(page, tmp_path, with_slow=True)


def test_the_docs_have_examples_to_run() -> None:
    runnable = [b for page in PAGES for b in blocks(page) if b.runs]
    assert len(runnable) >= 5, len(runnable)


def test_a_setup_block_is_only_what_make_test_runs_first() -> None:
    recipe = {
        line.strip().replace("$(BIN)/", "")
        for line in (ROOT / "Makefile").read_text().splitlines()
        if line.startswith("\t")
    }
    setup = [(name(p), b.text) for p in PAGES for b in blocks(p) if b.mark == "setup"]
    assert setup
    for where, text in setup:
        commands = [line.split("#")[0].strip() for line in text.splitlines()]
        done_first = {"make setup", "source .venv/bin/activate"} | recipe
        assert all(c in done_first for c in commands if c), (where, commands)


def test_every_fenced_block_is_read() -> None:
    """A fence the pattern misses (an odd indent, a typo) would be silently not run: every
    opening fence of every page is one of the blocks found."""
    for page in PAGES:
        text = page.read_text()
        fences = re.findall(r"^[ \t]*```", text, re.M)
        assert len(fences) == 2 * len(blocks(page)), name(page)


def test_the_readme_s_links_and_pictures_lead_to_files() -> None:
    """The README points into the site's pages by their files (as a repository host shows
    them): each relative link and picture is a file of the checkout."""
    text = (ROOT / "README.md").read_text()
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text) + re.findall(r'src="([^"]+)"', text)
    local = [t for t in targets if "://" not in t]
    assert len(local) >= 10
    assert [t for t in local if not (ROOT / t).is_file()] == []
