"""The project can be cited: CITATION.cff parses, names what pyproject.toml says, and the
LICENSE file is the license it declares."""

from __future__ import annotations

import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
# The keys Citation File Format 1.2.0 requires of every file, and the first line of each
# license text we could declare.
REQUIRED = {"cff-version", "message", "title", "authors"}
LICENSE_TITLES = {"MIT": "MIT License"}


def citation() -> dict:
    return yaml.safe_load((ROOT / "CITATION.cff").read_text())


def test_citation_file_has_the_required_keys_and_named_authors() -> None:
    cff = citation()
    assert set(cff) >= REQUIRED, REQUIRED - set(cff)
    assert cff["cff-version"] == "1.2.0"
    assert cff["type"] == "software"
    assert cff["authors"] and all(
        a.get("name") or a.get("family-names") for a in cff["authors"]
    ), cff["authors"]


def test_citation_version_and_license_are_the_package_s() -> None:
    cff = citation()
    # YAML reads 0.1.0 as a string, but 1.0 would be a float: compare as text
    assert str(cff["version"]) == PROJECT["version"]
    assert cff["license"] == PROJECT["license"]


def test_the_license_file_is_the_declared_license() -> None:
    assert PROJECT["license-files"] == ["LICENSE"]
    first = (ROOT / "LICENSE").read_text().splitlines()[0]
    assert first == LICENSE_TITLES[PROJECT["license"]]


def test_the_readme_says_how_to_cite() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "## How to cite" in readme and "CITATION.cff" in readme
