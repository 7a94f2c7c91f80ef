"""The bot API reference: one source for ``docs/bot-api.md`` and the editor's reference panel.

The content is data (sections of paragraphs, tables, lists and code), one module per concern:
:mod:`games.engine.core.reference` (the blocks), :mod:`~bots.reference.js_api` (the JavaScript bot
API every game shares), each registered game's own part (its ``gameState``, moves and error
codes: ``Game.bot_reference``, written in ``games/engine/<game>/reference.py``),
:mod:`~bots.reference.local_runner` (``./bin/bot``) and :mod:`~bots.reference.external`
(external bots); :mod:`~bots.reference.sections` puts them in page order. :func:`render_markdown`
writes the Markdown file (``python manage.py bot_api_docs``; a test fails when the file is out
of date) and :func:`render_html` the panel, in English or Vietnamese
(:mod:`~bots.reference.vi`). Inline markup is limited to `code`, **bold** and
[links](url). Pure Python: no Django.

>>> "getNextMove" in render_markdown()
True
>>> "<script>" in render_html()
False
"""

from __future__ import annotations

import inspect

from bots.reference import external, js_api, ladder, local_runner, render, sections, vi
from bots.reference.external import EXTERNAL_SECTIONS
from bots.reference.js_api import JS_API_SECTIONS, SANDBOX_ERRORS
from bots.reference.local_runner import LOCAL_RUNNER_SECTIONS
from bots.reference.render import (
    LANGUAGES,
    inline_html,
    panel_sections,
    render_html,
    render_markdown,
    translator,
)
from bots.reference.sections import game_sections
from games.engine.core.reference import Block, Section

__all__ = [
    "EXTERNAL_SECTIONS",
    "JS_API_SECTIONS",
    "LANGUAGES",
    "LOCAL_RUNNER_SECTIONS",
    "SANDBOX_ERRORS",
    "Block",
    "Section",
    "game_sections",
    "inline_html",
    "panel_sections",
    "render_html",
    "render_markdown",
    "translator",
]

#: ``doctest.testmod(bots.reference)`` also runs the examples of the submodules' docstrings
#: (their module docstrings and those of the functions and classes they define).
__test__ = {
    f"{module.__name__}.{name}": obj
    for module in (external, js_api, ladder, local_runner, render, sections, vi)
    for name, obj in [("__doc__", module), *vars(module).items()]
    if obj is module
    or (
        (inspect.isroutine(obj) or inspect.isclass(obj))
        and getattr(obj, "__module__", None) == module.__name__
    )
}
