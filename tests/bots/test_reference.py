"""One source for the bot API reference: docs/bot-api.md, the editor panel and the .d.ts."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

import bots.reference
import bots.samples
import bots.validation
from bots.reference import render_html, render_markdown
from bots.reference.render import panel_sections
from bots.reference.vi import keep_texts, vi_table
from games.engine.tienlen.reference import EXTRA_FIELDS, SEED_FIELDS

ROOT = Path(__file__).resolve().parents[2]


def test_docs_bot_api_md_is_generated_from_the_reference() -> None:
    on_disk = (ROOT / "docs" / "bot-api.md").read_text(encoding="utf-8")
    assert on_disk == render_markdown(), "run: python manage.py bot_api_docs"
    call_command("bot_api_docs", "--check")


def test_check_fails_when_the_file_is_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bots.management.commands import bot_api_docs

    stale = tmp_path / "bot-api.md"
    stale.write_text("# old\n", encoding="utf-8")
    monkeypatch.setattr(bot_api_docs, "docs_path", lambda: stale)
    with pytest.raises(CommandError, match="out of date"):
        call_command("bot_api_docs", "--check")
    call_command("bot_api_docs")
    assert stale.read_text(encoding="utf-8") == render_markdown()


def test_panel_html_is_the_same_reference_and_escapes_text() -> None:
    html = render_html()
    for name, _kind, _meaning in SEED_FIELDS:
        assert f"<code>{name}</code>" in html
    assert "<code>does_not_beat</code>" in html
    assert "(int | null)[]" in html  # markdown escapes are undone for the panel
    tags = set(re.findall(r"</?([a-z]+)", html))
    assert tags <= {"details", "summary", "p", "ul", "li", "code", "pre", "table", "thead"} | {
        "tbody",
        "tr",
        "th",
        "td",
        "strong",
        "a",
    }


def test_inline_markup_escapes_everything_else() -> None:
    out = bots.reference.inline_html(
        "<b>x</b> `<i>` **<u>** [<s>](javascript:alert(1)) [ok](rules.md)", link_base="/docs/"
    )
    assert "<b>" not in out
    assert "<i>" not in out
    assert "<u>" not in out
    assert "<s>" not in out
    assert "javascript:" not in out
    assert '<a href="/docs/rules.md">ok</a>' in out
    assert "<code>&lt;i&gt;</code>" in out


def test_gamestate_type_definition_declares_every_documented_field() -> None:
    dts = (ROOT / "static" / "js" / "bots" / "types" / "tienlen.d.ts").read_text(encoding="utf-8")
    for name, _kind, _meaning in SEED_FIELDS + EXTRA_FIELDS:
        leaf = name.split(".")[-1]
        assert re.search(rf"\b{leaf}\??:", dts), name
    for type_name in ("interface GameState", "interface Card", "type Move", "interface ValidMove"):
        assert type_name in dts


GAMES = ("tienlen", "stud", "diu")
MARKUP = re.compile(r"`[^`]+`|\]\([^)]+\)")


def panel_texts(game: str) -> list[str]:
    """Every text of ``game``'s panel a reader reads (code blocks aside), whitespace
    normalised, with words outside `code` (type names like ``int[]`` are text too)."""
    texts: list[str] = []
    for section in panel_sections(game):
        texts.append(section.title)
        for block in section.blocks:
            texts += [block.text] if block.kind == "p" else list(block.items)
            texts += list(block.header) + [cell for row in block.rows for cell in row]
    normal = (" ".join(t.split()) for t in texts)
    return [t for t in normal if re.search(r"[^\W\d_]", MARKUP.sub("", t))]


@pytest.mark.parametrize("game", GAMES)
def test_every_panel_text_has_a_vietnamese_version(game: str) -> None:
    vi, keep = vi_table(), keep_texts()
    missing = [t for t in panel_texts(game) if t not in vi and t not in keep]
    assert missing == [], "add them to bots/reference/vi.py or the game's reference.py"


def test_every_vietnamese_entry_is_still_in_the_panel() -> None:
    shown = {t for game in GAMES for t in panel_texts(game)}
    assert sorted(set(vi_table()) - shown) == []
    assert sorted(keep_texts() - shown) == []


def test_the_vietnamese_text_keeps_the_code_links_and_bold() -> None:
    for english, vietnamese in vi_table().items():
        assert sorted(MARKUP.findall(english)) == sorted(MARKUP.findall(vietnamese)), english
        assert english.count("**") == vietnamese.count("**"), english
        assert english != vietnamese, english


def test_the_vietnamese_panel_and_the_english_file() -> None:
    vi = render_html(game="diu", lang="vi")
    assert "<summary>Giá trị trả về</summary>" in vi
    assert "<summary>Return value</summary>" not in vi
    assert "<th>lời nhắc</th>" in vi
    assert "options.find((o) =&gt; o.action === &quot;diu&quot;)" in vi  # code as it is
    assert render_html(game="diu", lang="vi-VN") == vi
    assert render_html(game="diu", lang="en") == render_html(game="diu")
    assert "Bot của bạn chạy thế nào" not in render_markdown()  # docs/bot-api.md: English


@pytest.mark.parametrize("module", [bots.reference, bots.samples, bots.validation])
def test_doctests(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.failed == 0
