"""Rendering the reference: Markdown for ``docs/bot-api.md``, HTML for the editor's panel."""

from __future__ import annotations

import html
import re
import textwrap
from collections.abc import Callable, Iterator, Mapping

from bots.reference.sections import sections
from bots.reference.vi import vi_table
from games.engine.core.reference import Section

__all__ = ["LANGUAGES", "panel_sections", "render_html", "render_markdown"]

#: The panel's languages: English (the sections' own text) and Vietnamese (:mod:`.vi`).
LANGUAGES = ("en", "vi")

_INLINE = re.compile(r"`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)\s]+)\)")


def inline_html(text: str, *, link_base: str, links: Mapping[str, str | None] | None = None) -> str:
    out: list[str] = []
    pos = 0
    for m in _INLINE.finditer(text):
        out.append(html.escape(text[pos : m.start()].replace("\\|", "|")))
        if m.group(1) is not None:
            out.append(f"<code>{html.escape(m.group(1).replace(chr(92) + '|', '|'))}</code>")
        elif m.group(2) is not None:
            out.append(f"<strong>{html.escape(m.group(2))}</strong>")
        else:
            url = m.group(4)
            if links is not None and url in links:  # a docs file shown as a site page
                target = links[url]
                if target is None:  # no page for it: the words alone, no 404 link
                    out.append(html.escape(m.group(3)))
                    pos = m.end()
                    continue
                url = target
            if ":" in url.split("/")[0] and not url.startswith(("http://", "https://")):
                out.append(html.escape(m.group(3)))  # no javascript:, data: … links
                pos = m.end()
                continue
            if not url.startswith(("http://", "https://", "/", "#")):
                url = link_base + url
            out.append(f'<a href="{html.escape(url)}">{html.escape(m.group(3))}</a>')
        pos = m.end()
    out.append(html.escape(text[pos:].replace("\\|", "|")))
    return "".join(out)


def _wrap(text: str, first: str = "", rest: str = "") -> str:
    return textwrap.fill(
        text,
        width=100,
        initial_indent=first,
        subsequent_indent=rest,
        break_long_words=False,
        break_on_hyphens=False,
    )


def render_markdown() -> str:
    """The whole reference as Markdown (the content of ``docs/bot-api.md``)."""
    parts: list[str] = []
    for section in sections():
        parts.append("#" * section.level + " " + section.title)
        for block in section.blocks:
            if block.kind == "p":
                parts.append(_wrap(block.text))
            elif block.kind == "list":
                parts.append("\n".join(_wrap(item, "* ", "  ") for item in block.items))
            elif block.kind == "code":
                parts.append(f"```{block.lang}\n{block.text}\n```")
            elif block.kind == "table":
                lines = ["| " + " | ".join(block.header) + " |"]
                lines.append("|" + "|".join("---" for _ in block.header) + "|")
                lines += ["| " + " | ".join(row) + " |" for row in block.rows]
                parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def panel_sections(game: str) -> Iterator[Section]:
    """The sections the editor panel shows for a bot of ``game``: the shared ones marked
    ``in_panel`` and ``game``'s own (its title section included)."""
    for section in sections():
        if section.game is not None and section.game != game:
            continue
        if not section.in_panel and section.game is None:
            continue
        yield section


def translator(lang: str) -> Callable[[str], str]:
    """The panel's text in ``lang`` (``vi``, ``vi-VN``…: :func:`bots.reference.vi.vi_table`; any
    other language, or a text without an entry: the English text).

    >>> translator("vi")("How your bot runs"), translator("en")("How your bot runs")
    ('Bot của bạn chạy thế nào', 'How your bot runs')
    """
    if lang.lower().split("-")[0] != "vi":
        return lambda text: text
    vi = vi_table()
    return lambda text: vi.get(" ".join(text.split()), text)


def render_html(
    *,
    link_base: str = "",
    game: str = "tienlen",
    lang: str = "en",
    links: Mapping[str, str | None] | None = None,
) -> str:
    """The panel's HTML for a bot of ``game`` (:func:`panel_sections`), each section a
    ``<details>`` element, in ``lang`` (English, or Vietnamese for ``vi``; code blocks stay
    as they are). ``links`` maps a link's target in the reference (``rules/tienlen.md``) to the
    site's page for it, or to None: no page, the link's words alone.

    All text is escaped; only the markup produced here reaches the page.

    >>> "myDownCards" in render_html(game="stud"), "myDownCards" in render_html()
    (True, False)
    >>> "<summary>Mã lỗi</summary>" in render_html(game="diu", lang="vi")
    True
    """
    tr = translator(lang)

    def inline(text: str) -> str:
        return inline_html(text, link_base=link_base, links=links)

    parts: list[str] = []
    first = True
    for section in panel_sections(game):
        title = inline(tr(section.title))
        opened = " open" if first else ""
        first = False
        parts.append(f'<details class="ref-section" id="ref-{section.id}"{opened}>')
        parts.append(f"<summary>{title}</summary>")
        for block in section.blocks:
            if block.kind == "p":
                parts.append(f"<p>{inline(tr(block.text))}</p>")
            elif block.kind == "list":
                items = "".join(f"<li>{inline(tr(i))}</li>" for i in block.items)
                parts.append(f"<ul>{items}</ul>")
            elif block.kind == "code":
                parts.append(
                    f'<pre class="ref-code" data-lang="{html.escape(block.lang)}">'
                    f"<code>{html.escape(block.text)}</code></pre>"
                )
            elif block.kind == "table":
                head = "".join(f"<th>{html.escape(tr(h))}</th>" for h in block.header)
                body = "".join(
                    "<tr>" + "".join(f"<td>{inline(tr(c))}</td>" for c in row) + "</tr>"
                    for row in block.rows
                )
                parts.append(
                    f'<table class="ref-table"><thead><tr>{head}</tr></thead>'
                    f"<tbody>{body}</tbody></table>"
                )
        parts.append("</details>")
    return "\n".join(parts)
