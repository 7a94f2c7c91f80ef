"""The bot API reference: one source for ``docs/bot-api.md`` and the editor's reference panel.

The content is data (sections of paragraphs, tables, lists and code), one module per concern:
:mod:`~bots.reference.model` (the blocks), :mod:`~bots.reference.js_api` (the JavaScript bot
API every game shares), :mod:`~bots.reference.tienlen`, :mod:`~bots.reference.stud` and
:mod:`~bots.reference.diu` (each game's ``gameState`` and moves),
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

from bots.reference import diu, external, js_api, local_runner, model, render, stud, tienlen, vi
from bots.reference.diu import DIU_FIELDS, DIU_SECTIONS
from bots.reference.external import EXTERNAL_SECTIONS
from bots.reference.js_api import JS_API_SECTIONS, SANDBOX_ERRORS
from bots.reference.local_runner import LOCAL_RUNNER_SECTIONS
from bots.reference.model import Block, Section
from bots.reference.render import (
    LANGUAGES,
    inline_html,
    panel_sections,
    render_html,
    render_markdown,
    translator,
)
from bots.reference.sections import SECTIONS
from bots.reference.stud import STUD_FIELDS, STUD_SECTIONS
from bots.reference.tienlen import EXTRA_FIELDS, MOVE_ERRORS, SEED_FIELDS, TIENLEN_SECTIONS

__all__ = [
    "DIU_FIELDS",
    "DIU_SECTIONS",
    "EXTERNAL_SECTIONS",
    "EXTRA_FIELDS",
    "JS_API_SECTIONS",
    "LANGUAGES",
    "LOCAL_RUNNER_SECTIONS",
    "MOVE_ERRORS",
    "SANDBOX_ERRORS",
    "SECTIONS",
    "SEED_FIELDS",
    "STUD_FIELDS",
    "STUD_SECTIONS",
    "TIENLEN_SECTIONS",
    "Block",
    "Section",
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
    for module in (diu, external, js_api, local_runner, model, render, stud, tienlen, vi)
    for name, obj in [("__doc__", module), *vars(module).items()]
    if obj is module
    or (
        (inspect.isroutine(obj) or inspect.isclass(obj))
        and getattr(obj, "__module__", None) == module.__name__
    )
}
