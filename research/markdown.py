"""GitHub-flavoured Markdown pipe tables, without pandas (the command line's listings use them
and should start fast; :func:`ludolab.research.stats.to_markdown` formats DataFrames with
them)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

_MD_SPECIAL = re.compile(r"([\\|*_`])")


def escape_markdown(text: object) -> str:
    """Escape characters with meaning in a GitHub-flavoured Markdown table cell."""
    return _MD_SPECIAL.sub(r"\\\1", str(text)).replace("\n", " ")


def pipe_table(
    header: Sequence[object], rows: Iterable[Sequence[object]], right: Sequence[bool] = ()
) -> str:
    """A pipe table, every cell escaped, ending in a newline; ``right[k]``: column ``k`` is
    right-aligned (numbers), else left."""
    rule = ["---:" if k < len(right) and right[k] else ":---" for k in range(len(header))]
    lines = ["| " + " | ".join(escape_markdown(c) for c in header) + " |"]
    lines.append("| " + " | ".join(rule) + " |")
    lines += ["| " + " | ".join(escape_markdown(v) for v in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"
