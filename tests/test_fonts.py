"""The bundled CJK subset (static/fonts/cjk-game-terms.woff) covers every Chinese character the
site shows, and the stylesheet loads it for exactly the ranges it was cut for."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

from django.conf import settings
from fontTools.ttLib import TTFont

ROOT = Path(settings.BASE_DIR)
FONT = ROOT / "static" / "fonts" / "cjk-game-terms.woff"


def _maker() -> Any:  # bin/ is not a package: load the font script by path
    spec = importlib.util.spec_from_file_location(
        "make_cjk_font", ROOT / "bin" / "make_cjk_font.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_subset_has_a_glyph_for_every_chinese_character_the_site_uses() -> None:
    maker = _maker()
    used = maker.site_characters(ROOT)
    assert {"丢", "吃", "听", "用", "头", "家", "闲"} <= used  # the scan finds the diu terms
    cmap = TTFont(str(FONT)).getBestCmap()
    missing = sorted(c for c in used if ord(c) not in cmap)
    assert missing == [], f"rerun bin/make_cjk_font.py: {''.join(missing)}"


def test_the_stylesheet_loads_the_subset_for_the_ranges_it_covers() -> None:
    css = (ROOT / "static" / "css" / "site.css").read_text(encoding="utf-8")
    face = re.search(r"@font-face\s*{(.*?)}", css, re.S)
    assert face is not None
    assert 'url("../fonts/cjk-game-terms.woff")' in face.group(1)
    ranges = re.search(r"unicode-range:\s*([^;]+);", face.group(1))
    assert ranges is not None
    declared = [
        tuple(int(x, 16) for x in r.strip()[2:].split("-")) for r in ranges.group(1).split(",")
    ]
    assert declared == [(ord(lo), ord(hi)) for lo, hi in _maker().CJK_RANGES]
    assert '"Game Terms CJK"' in css.split("--font:")[1].split(";")[0]
    assert (
        (ROOT / "static" / "fonts" / "LICENSE-NotoSansCJK.txt")
        .read_text()
        .count("OPEN FONT LICENSE")
    )
