"""A report page as a few kinds of block, written out as Markdown or as HTML.

The report (report.py) says what is on the page once; this module says how each format writes it,
so that the two pages cannot drift apart and every piece of text is escaped in one place.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

__all__ = ["Block", "Format", "Heading", "Image", "Inline", "Link", "Paragraph", "Strong", "Table", "render"]


class Format(str, Enum):
    MARKDOWN = "md"
    HTML = "html"


@dataclass(frozen=True)
class Strong:
    text: str


@dataclass(frozen=True)
class Link:
    text: str
    #: A file name beside the page (no spaces or brackets: the report's names are slugs).
    href: str


Inline = str | Strong | Link


@dataclass(frozen=True)
class Heading:
    level: int
    text: str


@dataclass(frozen=True)
class Paragraph:
    parts: tuple[Inline, ...]


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[Inline, ...], ...]
    #: Columns aligned right (the numbers), by position.
    numeric: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Image:
    #: A file beside the page.
    src: str
    alt: str


Block = Heading | Paragraph | Table | Image


def render(blocks: Sequence[Block], form: Format, title: str) -> str:
    """The page's text, ending with one newline."""
    if form is Format.MARKDOWN:
        return "\n\n".join(_markdown(block) for block in blocks) + "\n"
    body = "\n".join(_html(block) for block in blocks)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{html.escape(title)}</title>\n<style>\n{_STYLE}</style>\n</head>\n<body>\n{body}\n"
            "</body>\n</html>\n")


_STYLE = """body { font-family: sans-serif; max-width: 72em; margin: 2em auto; padding: 0 1em; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.6em; }
th { background: #eee; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
img { max-width: 100%; }
"""

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#])")


def _md_text(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", text)


def _md_inline(part: Inline) -> str:
    if isinstance(part, Strong):
        return f"**{_md_text(part.text)}**"
    if isinstance(part, Link):
        return f"[{_md_text(part.text)}]({part.href})"
    return _md_text(part)


def _markdown(block: Block) -> str:
    if isinstance(block, Heading):
        return f"{'#' * block.level} {_md_text(block.text)}"
    if isinstance(block, Paragraph):
        return "".join(_md_inline(part) for part in block.parts)
    if isinstance(block, Image):
        return f"![{_md_text(block.alt)}]({block.src})"
    rule = ["---:" if i in block.numeric else "---" for i in range(len(block.header))]
    lines = [[_md_text(h) for h in block.header], rule,
             *([_md_inline(cell) for cell in row] for row in block.rows)]
    return "\n".join(f"| {' | '.join(cells)} |" for cells in lines)


def _html_inline(part: Inline) -> str:
    if isinstance(part, Strong):
        return f"<strong>{html.escape(part.text)}</strong>"
    if isinstance(part, Link):
        return f'<a href="{html.escape(part.href)}">{html.escape(part.text)}</a>'
    return html.escape(part)


def _html(block: Block) -> str:
    if isinstance(block, Heading):
        return f"<h{block.level}>{html.escape(block.text)}</h{block.level}>"
    if isinstance(block, Paragraph):
        return f"<p>{''.join(_html_inline(part) for part in block.parts)}</p>"
    if isinstance(block, Image):
        return f'<p><img src="{html.escape(block.src)}" alt="{html.escape(block.alt)}"></p>'
    head = "".join(f"<th>{html.escape(h)}</th>" for h in block.header)
    rows = "\n".join("<tr>" + "".join(_html_cell(cell, i in block.numeric) for i, cell in enumerate(row)) + "</tr>"
                     for row in block.rows)
    return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}\n</tbody>\n</table>"


def _html_cell(cell: Inline, numeric: bool) -> str:
    opening = '<td class="n">' if numeric else "<td>"
    return f"{opening}{_html_inline(cell)}</td>"
