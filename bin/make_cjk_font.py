"""Rebuild ``static/fonts/cjk-game-terms.woff``: Noto Sans CJK SC cut down to the Chinese
characters the site shows (Suijiang Diu's terms: 丢, 吃, 听用, 头家 …), so they render on a
machine without a CJK font. ~15 KB; the page only downloads it when it shows one of those characters
(``unicode-range`` in static/css/site.css).

Needs the font and fontTools, which the project itself does not depend on::

    apt-get install fonts-noto-cjk
    pip install fonttools
    python bin/make_cjk_font.py

tests/test_fonts.py fails when a template, script or translation uses a Chinese character the
subset lacks: rerun this script then.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
TARGET = ROOT / "static" / "fonts" / "cjk-game-terms.woff"
#: Where the site's own text lives.
SOURCES = (
    "templates/**/*.html",
    "static/js/**/*.js",
    "locale/*/LC_MESSAGES/*.po",
    "games/**/*.py",
    "bots/**/*.py",
)


#: The ranges the font covers, as in its ``unicode-range`` in static/css/site.css.
CJK_RANGES = (("\u3000", "\u303f"), ("\u4e00", "\u9fff"), ("\uff00", "\uffef"))


def is_cjk(char: str) -> bool:
    """CJK ideographs, CJK punctuation and full-width forms (the font's unicode-range)."""
    return any(lo <= char <= hi for lo, hi in CJK_RANGES)


def site_characters(root: Path = ROOT) -> set[str]:
    """Every CJK character in the site's templates, scripts and translations."""
    found: set[str] = set()
    for pattern in SOURCES:
        for path in root.glob(pattern):
            found.update(c for c in path.read_text(encoding="utf-8") if is_cjk(c))
    return found


def main() -> None:
    from fontTools import subset
    from fontTools.ttLib import TTCollection

    collection = TTCollection(str(SOURCE))
    font = next(f for f in collection.fonts if f["name"].getDebugName(4) == "Noto Sans CJK SC")
    options = subset.Options()
    options.flavor = "woff"
    options.layout_features = []
    options.name_IDs = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text="".join(sorted(site_characters())))
    subsetter.subset(font)
    font.flavor = "woff"
    font.save(str(TARGET))
    print(f"{TARGET.name}: {TARGET.stat().st_size} bytes")


if __name__ == "__main__":
    main()
