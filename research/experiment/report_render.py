"""A report as blocks (headings, paragraphs, tables, figures, code) and their two renderings:
Markdown beside the figure files, and self-contained HTML with the figures embedded."""

from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ludolab.research.markdown import escape_markdown
from ludolab.research.stats import to_markdown
from ludolab.research.stats.report import NUMERIC_TEXT, format_table


@dataclass(frozen=True)
class Block:
    """One piece of the report: ``kind`` is h1, h2, p, list, table, figure or code."""

    kind: str
    content: Any
    caption: str = ""


def markdown_of(block: Block, base: Path) -> str:
    if block.kind == "h1":
        return f"# {block.content}\n"
    if block.kind == "h2":
        return f"## {block.content}\n"
    if block.kind == "p":
        return f"{block.content}\n"
    if block.kind == "list":
        return "\n".join(f"- {item}" for item in block.content) + "\n"
    if block.kind == "table":
        caption = f"*{escape_markdown(block.caption)}*\n\n" if block.caption else ""
        return caption + to_markdown(block.content)
    if block.kind == "figure":
        png, pdf = block.content.png.relative_to(base), block.content.pdf.relative_to(base)
        return f"![{block.caption}]({png})\n\n*{block.caption}* (PDF: {pdf})\n"
    return f"```\n{block.content}\n```\n"


def block_text(block: Block) -> str:
    """A block's words as a reader sees them: a table's caption, headers and cells, a
    figure's caption, a list's items."""
    if block.kind == "table":
        table = format_table(block.content)
        cells = [str(c) for c in table.columns]
        cells += [str(v) for row in table.itertuples(index=False) for v in row]
        return block.caption + "\n" + "\n".join(cells)
    if block.kind == "figure":
        return block.caption
    if block.kind == "list":
        return "\n".join(str(i) for i in block.content)
    return str(block.content)


def inline_html(text: str) -> str:
    """Markdown's **bold**, *italics* and `code` in an escaped HTML string (an asterisk with
    a space or a word character on its outer side, as in ``2 * 3`` or ``a*b``, stays one)."""
    text = html.escape(text)
    text = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", text)
    text = re.sub(r"(?<![\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])", r"<em>\1</em>", text)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", text)


def html_of(block: Block) -> str:
    if block.kind in ("h1", "h2"):
        return f"<{block.kind}>{html.escape(block.content)}</{block.kind}>"
    if block.kind == "p":
        return f"<p>{inline_html(block.content)}</p>"
    if block.kind == "list":
        return "<ul>" + "".join(f"<li>{inline_html(i)}</li>" for i in block.content) + "</ul>"
    if block.kind == "table":
        caption = f"<p class='caption'>{html.escape(block.caption)}</p>" if block.caption else ""
        return f"<figure>{caption}<div class='wide'>{html_table(block.content)}</div></figure>"
    if block.kind == "figure":
        data = base64.b64encode(block.content.png.read_bytes()).decode()
        return (
            f"<figure><img alt='{html.escape(block.caption)}' src='data:image/png;base64,"
            f"{data}'><figcaption>{html.escape(block.caption)}</figcaption></figure>"
        )
    return f"<pre>{html.escape(str(block.content))}</pre>"


NUMBER = NUMERIC_TEXT
"""A cell that holds a number (or an interval, or ``—``): right-aligned."""


def html_table(table: pd.DataFrame) -> str:
    """A table as HTML: numbers (and intervals) right-aligned, text left-aligned."""
    formatted = format_table(table)
    align = formatted.attrs.get("align", {})
    right = {
        c: align.get(c) == "r" or all(NUMBER.match(str(v)) for v in formatted[c])
        for c in formatted.columns
    }

    def cell(tag: str, col: str, text: str) -> str:
        side = "r" if right[col] else "l"
        return f"<{tag} class='{side}'>{html.escape(str(text))}</{tag}>"

    head = "".join(cell("th", c, c) for c in formatted.columns)
    rows = "".join(
        "<tr>"
        + "".join(cell("td", c, v) for c, v in zip(formatted.columns, row, strict=True))
        + "</tr>"
        for row in formatted.itertuples(index=False)
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


STYLE = """body{font-family:system-ui,sans-serif;max-width:78rem;margin:2rem auto;padding:0 1rem;
line-height:1.45;color:#222}table{border-collapse:collapse;font-size:.8rem;margin:.5rem 0}
td,th{padding:.2rem .45rem;border-bottom:1px solid #ddd;vertical-align:top}
.r{text-align:right}.l{text-align:left}th{white-space:nowrap}figure{margin:1rem 0}
.wide{overflow-x:auto}img{max-width:100%;max-width:52rem}
.caption,figcaption{font-size:.9rem;color:#555;max-width:60rem}
p,ul{max-width:60rem}code{background:#f3f3f3;padding:0 .2rem}"""
