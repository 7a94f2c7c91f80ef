"""Plural forms of the table page's strings: "1 card", "2 cards" (English), "1 lá" (Vietnamese).

The page renders each counted string with ngettext for the sample counts 0-9
(templates/games/_table_i18n.html); ``fmt`` in static/js/table/dom.js picks the form by the
plural category of the count. The JavaScript half runs in Node when it is installed.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from games import realtime, services

pytestmark = pytest.mark.django_db

DOM_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "table" / "dom.js"
PLURAL_KEYS = ("cards_n", "cards_left_n", "cut_announce", "stats_rounds", "stud_chips_n")


def _strings(client: Client, user: Any, language: str) -> dict[str, Any]:
    table = services.table_create(owner=user, name="T")
    html = client.get(f"/t/{table.code}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    marker = '<script type="application/json" id="table-i18n">'
    start = html.index(marker) + len(marker)
    strings: dict[str, Any] = json.loads(html[start : html.index("</script>", start)])
    return strings


def test_counted_strings_carry_their_plural_forms(client: Client, user: Any) -> None:
    strings = _strings(client, user, "en")
    for key in PLURAL_KEYS:
        assert sorted(strings[key]) == [str(n) for n in range(10)], key
    assert strings["cards_n"]["1"] == "{n} card"
    assert {strings["cards_n"][str(n)] for n in (0, 2, 5)} == {"{n} cards"}
    assert strings["cards_left_n"]["1"] == "{n} card left"
    assert strings["cut_announce"]["1"].endswith("{n} point")
    assert strings["stats_rounds"]["2"] == "{n} vòng (rounds)"


def test_vietnamese_has_one_form(client: Client, user: Any) -> None:
    strings = _strings(client, user, "vi")
    assert set(strings["cards_n"].values()) == {"{n} lá"}
    assert set(strings["cards_left_n"].values()) == {"còn {n} lá"}


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
def test_fmt_picks_the_form_for_the_count(client: Client, user: Any) -> None:
    english = _strings(client, user, "en")
    vietnamese = _strings(client, user, "vi")
    script = f"""
        globalThis.document = {{ documentElement: {{ lang: "en" }} }};
        const {{ fmt }} = await import({json.dumps(DOM_JS.as_uri())});
        const en = {json.dumps(english)}, vi = {json.dumps(vietnamese)};
        const out = [0, 1, 2, 13].map((n) => fmt(en.cards_n, {{ n }}));
        out.push(fmt(en.cut_announce, {{ name: "A", victim: "B", n: 1 }}));
        out.push(fmt(en.seat_n, {{ n: 1 }}));
        out.push(fmt(en.sys_cut, {{ name: "A", victim: "B", n: 2 }}));
        document.documentElement.lang = "vi";
        out.push(fmt(vi.cards_n, {{ n: 1 }}), fmt(vi.cards_n, {{ n: 7 }}));
        console.log(JSON.stringify(out));
    """
    result = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert json.loads(result.stdout) == [
        "0 cards",
        "1 card",
        "2 cards",
        "13 cards",
        "Chặt! A cuts B · 1 point",
        "Seat 1",
        "A cut B (2 points).",
        "1 lá",
        "7 lá",
    ]


def _placeholders(template: Any) -> set[str]:
    if isinstance(template, dict):
        texts = list(template.values())
    elif isinstance(template, tuple):
        texts = list(template)
    else:
        texts = [template]
    return {m for text in texts for m in re.findall(r"\{(\w+)\}", text)}


def _lobby_strings(client: Client, language: str) -> dict[str, Any]:
    html = client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    marker = '<script type="application/json" id="lobby-i18n">'
    start = html.index(marker) + len(marker)
    strings: dict[str, Any] = json.loads(html[start : html.index("</script>", start)])
    return strings


@pytest.mark.parametrize("language", ["en", "vi"])
def test_every_system_code_has_a_template(client: Client, user: Any, language: str) -> None:
    """Each code the server can emit (realtime.SYSTEM_CODES) has its sys_<code> entry: the
    table page for table lines, the home page for lobby lines; placeholders are params."""
    table_strings = _strings(client, user, language)
    lobby_strings = _lobby_strings(client, language)
    assert set(realtime.SYSTEM_MESSAGES) <= realtime.SYSTEM_CODES
    assert {"diu_meld", "diu_diu", "diu_result_win"} <= realtime.SYSTEM_CODES
    for code in sorted(realtime.SYSTEM_CODES):
        strings = lobby_strings if code.startswith("lobby_") else table_strings
        assert f"sys_{code}" in strings, code
        english = realtime.system_template(code)
        if english is not None:  # the browser's template takes the same params as the server's
            params = _placeholders(english)
            if code not in realtime.SYSTEM_MESSAGES:  # a game's result line also gets the game
                params |= {"game"}
            assert _placeholders(strings[f"sys_{code}"]) <= params, code
    assert sorted(table_strings["sys_cut"]) == [str(n) for n in range(10)]
    assert _placeholders(table_strings["sys_diu_meld"]) == {
        "name",
        "from",
        "card",
        "card_name",
        "claim",
        "cards",
    }


def test_system_params_fill_the_templates(client: Client, user: Any) -> None:
    """The params the server sends name every placeholder of the English templates."""
    english = _strings(client, user, "en")
    assert english["sys_seat_joined"] == "{name} joined seat {seat}."
    assert english["sys_cut"]["1"] == "{name} cut {victim} ({n} point)."
    assert realtime.system_text("seat_away", {"name": "Lan", "seat": 2}) == (
        "Lan is away; the house plays seat 2."
    )
    assert _lobby_strings(client, "en")["sys_lobby_session_won"] == (
        "{name} won the session at {table}."
    )


PROTOCOL_MD = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def _protocol_error_codes() -> tuple[set[str], set[str]]:
    """(table codes, lobby codes) of docs/protocol.md: the "Error codes" table, every game's
    "Engine codes:" list, and the lobby socket's ``error`` row."""
    doc = PROTOCOL_MD.read_text()
    section = doc[doc.index("### Error codes") : doc.index("The socket stays open after every")]
    engine = " ".join(re.findall(r"Engine codes: (.*?)\.\n", doc, flags=re.S))
    lobby_row = next(
        line for line in doc.splitlines() if line.startswith("| server → client | `error` |")
    )
    codes = r"`([a-z_]+)`"
    table = set(re.findall(codes, engine))
    for row in section.splitlines():
        cells = row.split("|")
        if len(cells) > 3 and "`" in cells[1] + cells[2]:  # "| `code` | when |"; engine codes
            table |= set(re.findall(codes, cells[2] if "engine" in cells[1] else cells[1]))
    lobby = set(re.findall(codes, lobby_row.split("`ref`:", 1)[1]))
    return table, lobby


@pytest.mark.parametrize("language", ["en", "vi"])
def test_every_error_code_has_a_text(client: Client, user: Any, language: str) -> None:
    """Each error code the server can send has an err_<code> text: on the table page (every
    code of docs/protocol.md and every engine ruling) and on the home page (the lobby's)."""
    from games.engine.registry import error_codes

    table_codes, lobby_codes = _protocol_error_codes()
    assert {"bad_frame", "no_table", "unknown_bot", "wild_discard", "bad_seat"} <= table_codes
    assert {"bad_json", "frame_too_large", "message_too_long", "internal"} <= lobby_codes
    codes = list(error_codes())
    rulings = codes[: codes.index("bad_card")]  # the games' own, then the shared, before malformed
    table_strings = _strings(client, user, language)
    lobby_strings = _lobby_strings(client, language)
    for code in sorted(table_codes | set(rulings) | lobby_codes):
        assert table_strings.get(f"err_{code}"), code
    for code in sorted(lobby_codes):
        assert lobby_strings.get(f"err_{code}"), code
