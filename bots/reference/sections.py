"""Every section of the reference in page order."""

from __future__ import annotations

from bots.reference.diu import DIU_SECTIONS
from bots.reference.external import EXTERNAL_SECTIONS
from bots.reference.js_api import JS_API_SECTIONS
from bots.reference.ladder import LADDER_SECTIONS
from bots.reference.local_runner import LOCAL_RUNNER_SECTIONS
from bots.reference.model import Section
from bots.reference.stud import STUD_SECTIONS
from bots.reference.tienlen import TIENLEN_SECTIONS

__all__ = ["SECTIONS"]

#: Every section in page order: the shared ones, Tiến Lên's, stud's, Diu's, the local runner's
#: and the external bots'.
SECTIONS: tuple[Section, ...] = (
    *JS_API_SECTIONS,
    *TIENLEN_SECTIONS,
    *STUD_SECTIONS,
    *DIU_SECTIONS,
    *LADDER_SECTIONS,
    *LOCAL_RUNNER_SECTIONS,
    *EXTERNAL_SECTIONS,
)
