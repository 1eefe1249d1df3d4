"""The documentation site (``make docs``): it builds with warnings as errors, every internal link
of it leads to a page, its search finds what a reader looks for, and its reference pages are
generated from the code (a metric or command added there appears without editing a page)."""

from __future__ import annotations

import functools
import html
import http.server
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlparse

import pytest

ROOT = Path(__file__).resolve().parent.parent
QUIET = {"DISABLE_MKDOCS_2_WARNING": "true", "NO_MKDOCS_2_WARNING": "1"}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site as `make docs` builds it (mkdocs --strict, then the API reference under api/)."""
    out = tmp_path_factory.mktemp("docs") / "site"
    env = {**os.environ, **QUIET}
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr
    api = subprocess.run(
        [sys.executable, "docs/build.py", str(out / "api")],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert api.returncode == 0, api.stderr
    return out


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    """The site over HTTP on a free local port (its search runs in a web worker, which a page
    opened from a file may not start)."""
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


def test_every_internal_link_leads_to_a_page(served: str, browser) -> None:
    """From the home page, every link to the site itself is followed (the API reference's
    own pages aside: pdoc links them, and its build fails on a broken one), and each leads to
    a page, on which the anchor the link names, if any, is."""
    ids: dict[str, set[str]] = {}  # page -> the ids on it
    wanted: set[tuple[str, str, str]] = set()  # (from page, to page, anchor)
    todo = [served]
    broken: list[str] = []
    while todo:
        page, _ = urldefrag(todo.pop())
        if page in ids:
            continue
        browser.get(page)
        ids[page] = set(
            browser.execute_script("return [...document.querySelectorAll('[id]')].map(e => e.id)")
        )
        if "404" in browser.title or "Error response" in browser.page_source:
            broken.append(page)
            continue
        if "/api/" in urlparse(page).path:
            continue
        for a in browser.find_elements("css selector", "a[href]"):
            target, anchor = urldefrag(urljoin(page, a.get_attribute("href")))
            if not target.startswith(served):
                continue
            if anchor:
                wanted.add((page, target, anchor))
            todo.append(target)
    broken += [
        f"{source} -> {target}#{anchor}"
        for source, target, anchor in sorted(wanted)
        if anchor not in ids.get(target, set())
    ]
    assert not broken, f"broken links: {broken}"
    assert len(ids) >= 30, sorted(ids)  # every page of the nav, the references, the API


@pytest.mark.parametrize(
    ("query", "expected"), [("design search", "design search"), ("uniform", "uniform")]
)
def test_the_search_finds_what_a_reader_looks_for(
    served: str, browser, query: str, expected: str
) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(f"{served}?q={query.replace(' ', '+')}")
    results = WebDriverWait(browser, 30).until(
        lambda d: d.find_elements("css selector", ".md-search-result__item")
    )
    assert any(expected in r.text.lower() for r in results), [r.text for r in results]


def test_the_reference_pages_are_generated_from_the_code(site: Path) -> None:
    """Every registered metric, command, agent and shipped set is on its reference page."""
    from ludolab.research.cli import _parser
    from ludolab.research.metrics.registry import METRICS

    metrics = (site / "reference" / "metrics" / "index.html").read_text()
    missing = [name for name in METRICS if f"<code>{html.escape(name)}</code>" not in metrics]
    assert not missing, missing
    cli = (site / "reference" / "cli" / "index.html").read_text()
    commands = next(a.choices for a in _parser([])._actions if hasattr(a, "choices") and a.choices)
    assert all(f"ludolab {name}" in cli for name in commands if name != "puzzle")
    assert "--vp-to-win" in cli  # a game's rule option, derived from its options
    from ludolab import games

    agents = (site / "reference" / "agents" / "index.html").read_text()
    sets = (site / "reference" / "constraints" / "index.html").read_text()
    for name in games.names():
        game = games.get(name)
        assert all(f"<code>{agent}</code>" in agents for agent in game.agents.agents)
        assert all(f"{shipped}:" in sets for shipped in game.shipped_sets())


def test_every_config_key_is_on_the_config_reference(site: Path) -> None:
    """A key declared on a config record (research/experiment/config/model.py) is on the
    page without editing it: every declared key, as every registered game names it."""
    import dataclasses

    from ludolab import games
    from ludolab.research.experiment.config import model
    from ludolab.research.experiment.config.keys import keys_of

    page = (site / "reference" / "config" / "index.html").read_text()
    records = (model.ExperimentConfig, model.Condition, model.AgentLineup, model.Comparisons)
    for name in games.names():
        for record in records:
            for key in keys_of(record, name):
                assert f"<code>{key}</code>" in page, (record.__name__, key)
    documented = [f for r in records for f in dataclasses.fields(r) if f.metadata.get("key")]
    assert len(documented) >= 30


def test_a_metric_or_key_added_in_code_appears_on_its_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reference pages are written from the code at build time: a metric registered and a
    config key declared (here, for this test only) are on the pages the build writes, with no
    page edited."""
    import dataclasses
    import runpy

    import mkdocs_gen_files

    from ludolab.research.experiment.config import model
    from ludolab.research.experiment.config.keys import Check, key
    from ludolab.research.metrics.registry import METRICS, Metric

    monkeypatch.setitem(METRICS, "test.rolls", Metric("dice rolls in the game", "#rolls", "rolls"))
    wider = dataclasses.make_dataclass(
        "Comparisons",
        [("n_lucky", "int", dataclasses.field(default=7, metadata=key(Check("integer"))))],
        bases=(model.Comparisons,),
        frozen=True,
    )
    wider.__doc__ = "Comparisons.\n\nAttributes:\n    n_lucky: a key for this test only.\n"
    monkeypatch.setattr(model, "Comparisons", wider)

    def written(path: str, mode: str = "r"):
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        return open(target, mode)

    monkeypatch.setattr(mkdocs_gen_files, "open", written)
    for name in ("LUDOLAB_PURE_PYTHON", "COLUMNS"):  # the script sets them: restored after
        monkeypatch.setenv(name, os.environ.get(name, ""))
    runpy.run_path(str(ROOT / "docs" / "gen_reference.py"))
    metrics = (tmp_path / "reference" / "metrics.md").read_text()
    assert "| `test.rolls` | dice rolls in the game | `#rolls` | rolls |" in metrics
    config = (tmp_path / "reference" / "config.md").read_text()
    assert "| `n_lucky` | `int` | `7` | a whole number ≥ " in config
    assert "a key for this test only." in config
