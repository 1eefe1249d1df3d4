""""Did you mean ...?" for a mistyped name: the one helper every unknown-name message uses."""

from __future__ import annotations

from collections.abc import Iterable
from difflib import get_close_matches


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """``"did you mean 'a' or 'b'? "`` for the known names closest to ``word`` (difflib's
    similarity, at most three), or "" when none is close: the prefix of an error message."""
    close = get_close_matches(str(word), list(dict.fromkeys(known)), n=3)
    return f"did you mean {' or '.join(map(repr, close))}? " if close else ""
