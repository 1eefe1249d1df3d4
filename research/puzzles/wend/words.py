"""The word lists of Wend (English) and Swend (Swedish): Debian's ``wamerican`` and ``wswedish``.

The lists are read from ``/usr/share/dict`` (``make setup`` installs both packages; they are
not shipped: wamerican is SCOWL's list under its permissive licence, wswedish is GPL-2). A
word counts when it is written in lower-case letters of the language's alphabet only (no
capitals, so no proper nouns; no apostrophes or hyphens) and is 3 to 8 letters long. (Debian's
Swedish list is in ISO-8859-1, the English one in UTF-8.)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from ludolab.research.puzzles import PuzzleError


@dataclass(frozen=True)
class Language:
    game: str
    name: str
    path: Path
    package: str
    alphabet: str
    encoding: str


LANGUAGES = {
    "wend": Language("wend", "English", Path("/usr/share/dict/american-english"), "wamerican",
                     "abcdefghijklmnopqrstuvwxyz", "utf-8"),
    "swend": Language("swend", "Swedish", Path("/usr/share/dict/swedish"), "wswedish",
                      "abcdefghijklmnopqrstuvwxyzåäö", "iso-8859-1"),
}
LENGTHS = range(3, 9)


@functools.cache
def word_list(game: str) -> tuple[str, ...]:
    """The words of ``game``'s language (see the module docstring), sorted."""
    lang = LANGUAGES[game]
    try:
        text = lang.path.read_text(encoding=lang.encoding)
    except FileNotFoundError:
        raise PuzzleError(
            f"{lang.path}: the {lang.name} word list is missing; install Debian's "
            f"{lang.package} (apt-get install {lang.package}, or make setup)"
        ) from None
    letters = set(lang.alphabet)
    return tuple(sorted({
        w for w in text.split() if len(w) in LENGTHS and set(w) <= letters
    }))


@functools.cache
def words_by_length(game: str) -> dict[int, tuple[str, ...]]:
    out: dict[int, list[str]] = {}
    for w in word_list(game):
        out.setdefault(len(w), []).append(w)
    return {k: tuple(v) for k, v in out.items()}


@functools.cache
def prefixes(game: str) -> frozenset[str]:
    """Every prefix of every word (the search's pruning)."""
    return frozenset(w[:k] for w in word_list(game) for k in range(1, len(w) + 1))


__all__ = ["LANGUAGES", "LENGTHS", "Language", "prefixes", "word_list", "words_by_length"]
