"""Vietnamese UI (issue #4): the pages outside the table speak Vietnamese with ``?lang=vi``, and
the catalog in ``locale/vi`` is complete, keeps every placeholder and is compiled."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

pytestmark = pytest.mark.django_db

PO_PATH = Path(settings.BASE_DIR) / "locale" / "vi" / "LC_MESSAGES" / "django.po"


# --------------------------------------------------------------------------- pages

#: (url name, needs login, Vietnamese that must be on the page, English that must not be).
PAGES = [
    (
        "home",
        False,
        ["Chơi Tiến Lên với bạn bè", "Bàn công khai", "để trò chuyện", "Bảng xếp hạng bot"],
        ["Public tables", "Recent matches", "to chat.", "Quick actions"],
    ),
    (
        "tables:create",
        True,
        ["Tạo bàn mới", "Số ghế", "Độ dài phiên", "AI nhà"],
        ["Create a table", "Session length", "Read the rules"],
    ),
    (
        "bots:list",
        True,
        ["Bot của tôi", "Tạo bot mới", "Bạn chưa có bot nào"],
        ["Create New Bot", "You have no bots yet"],
    ),
    ("bots:leaderboard", False, ["Bảng xếp hạng bot"], ["Bot leaderboard", "No bot has played"]),
    ("accounts:login", False, ["Đăng nhập", "Lần đầu đến đây?", "Mật khẩu"], ["New here?"]),
    (
        "accounts:signup",
        False,
        ["Tạo tài khoản", "Đã có tài khoản?", "Chỉ dùng để khôi phục tài khoản"],
        ["Create your account", "Already have an account?"],
    ),
    ("accounts:profile", True, ["Bàn của tôi", "Đổi mật khẩu"], ["My tables", "No tables yet."]),
    ("accounts:token", True, ["Token API của bạn", "Tạo token mới"], ["Regenerate token"]),
    (
        "how_to_play",
        False,
        ["Cách chơi Tiến Lên Miền Nam", "Đôi thông", "Tới trắng", "chặt", "cóng", "thúi"],
        ["Instant wins", "Consecutive pairs", "Scoring"],
    ),
]


@pytest.mark.parametrize(
    ("name", "login", "vietnamese", "english"), PAGES, ids=[page[0] for page in PAGES]
)
def test_page_renders_in_vietnamese_with_lang_query(
    request: pytest.FixtureRequest,
    name: str,
    login: bool,
    vietnamese: list[str],
    english: list[str],
) -> None:
    browser: Client = request.getfixturevalue("user_client" if login else "client")
    response = browser.get(f"{reverse(name)}?lang=vi")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'lang="vi"' in html
    assert "Trang chủ" in html  # the navigation
    for text in vietnamese:
        assert text in html, text
    for text in english:
        assert text not in html, text


def test_the_same_pages_stay_english_by_default(client: Client) -> None:
    html = client.get(reverse("how_to_play")).content.decode()
    assert 'lang="en"' in html
    assert "Instant wins (tới trắng)" in html
    assert "Cách chơi" not in html


def test_signup_errors_are_vietnamese(client: Client, user: object) -> None:
    response = client.post(
        f"{reverse('accounts:signup')}?lang=vi",
        {"username": "alice", "email": "alice@example.com", "password1": "x", "password2": "y"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Tạo tài khoản" in html
    assert "already exists" not in html
    assert "Email này đã có tài khoản" in html


# --------------------------------------------------------------------------- catalog


@dataclass
class Entry:
    msgid: str = ""
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)


def _read_po(path: Path) -> list[Entry]:
    """The entries of a PO file written by ``makemessages`` (no obsolete ones)."""
    entries = []
    for block in path.read_text(encoding="utf-8").strip().split("\n\n"):
        entry, target = Entry(), ""
        for line in block.splitlines():
            if line.startswith("#,"):
                entry.flags |= {flag.strip() for flag in line[2:].split(",")}
            elif line.startswith("#"):
                continue
            elif line.startswith('"'):
                value = ast.literal_eval(line)
                if target == "msgid":
                    entry.msgid += value
                elif target == "msgctxt":
                    entry.msgctxt = (entry.msgctxt or "") + value
                elif target == "msgid_plural":
                    entry.msgid_plural = (entry.msgid_plural or "") + value
                else:
                    index = int(target[7:-1])
                    entry.msgstr[index] += value
            else:
                match = re.fullmatch(
                    r'(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) (".*")', line
                )
                assert match, f"unexpected line in {path.name}: {line!r}"
                key, value = match[1], ast.literal_eval(match[2])
                if key == "msgstr":
                    key = "msgstr[0]"
                if key.startswith("msgstr"):
                    entry.msgstr[int(key[7:-1])] = value
                elif key == "msgid_plural":
                    entry.msgid_plural = value
                elif key == "msgctxt":
                    entry.msgctxt = value
                else:
                    entry.msgid = value
                target = key
        entries.append(entry)
    return entries[1:]  # the header


PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w*\}|</?[a-z]+[^>]*>")


def test_every_message_is_translated_and_none_is_fuzzy() -> None:
    entries = _read_po(PO_PATH)
    assert len(entries) > 300
    fuzzy = [e.msgid for e in entries if "fuzzy" in e.flags]
    untranslated = [e.msgid for e in entries if not all(e.msgstr.values())]
    assert not fuzzy, f"check and un-fuzzy these in {PO_PATH}: {fuzzy}"
    assert not untranslated, f"translate these in {PO_PATH}: {untranslated}"


def test_translations_keep_every_placeholder_and_tag() -> None:
    for entry in _read_po(PO_PATH):
        wanted = sorted(PLACEHOLDER.findall(entry.msgid_plural or entry.msgid))
        for msgstr in entry.msgstr.values():
            if msgstr:
                assert sorted(PLACEHOLDER.findall(msgstr)) == wanted, entry.msgid


def test_compiled_catalog_matches_the_po_file() -> None:
    """``django.mo`` is compiled from the current ``django.po`` (run compilemessages)."""
    stale = []
    with translation.override("vi"):
        for entry in _read_po(PO_PATH):
            if not entry.msgstr.get(0) or "fuzzy" in entry.flags:
                continue
            if entry.msgctxt is not None and entry.msgid_plural is None:
                shown = translation.pgettext(entry.msgctxt, entry.msgid)
            elif entry.msgctxt is not None and entry.msgid_plural is not None:
                shown = translation.npgettext(entry.msgctxt, entry.msgid, entry.msgid_plural, 2)
            elif entry.msgid_plural is None:
                shown = translation.gettext(entry.msgid)
            else:
                shown = translation.ngettext(entry.msgid, entry.msgid_plural, 2)
            if shown != entry.msgstr[0]:
                stale.append(entry.msgid)
    assert not stale, f"django.mo is out of date for: {stale}"


def test_the_catalog_uses_vietnamese_plural_forms() -> None:
    header = PO_PATH.read_text(encoding="utf-8").split("\n\n", 1)[0]
    assert '"Plural-Forms: nplurals=1; plural=0;\\n"' in header
    for entry in _read_po(PO_PATH):
        if entry.msgid_plural is not None:
            assert sorted(entry.msgstr) == [0], entry.msgid


# --------------------------------------------------------------------------- the switch
@pytest.mark.parametrize("url_name", ["home", "how_to_play", "accounts:login", "tables:history"])
def test_every_page_has_the_language_switch_in_its_navigation(
    client: Client, url_name: str
) -> None:
    html = client.get(reverse(url_name)).content.decode()
    nav = html[html.index('<nav class="nav container"') : html.index("</nav>")]
    assert 'href="?lang=vi"' in nav
    assert 'href="?lang=en"' in nav


def test_the_switch_changes_the_language_and_marks_the_current_one(client: Client) -> None:
    html = client.get(reverse("home") + "?lang=vi").content.decode()
    assert 'lang="vi" hreflang="vi" title="Tiếng Việt" aria-current="true"' in html
    assert "Đăng nhập" in html  # "Log in" in the navigation
    again = client.get(reverse("how_to_play")).content.decode()  # remembered by the cookie
    assert '<html lang="vi">' in again
