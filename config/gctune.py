"""The garbage collector of the site's long-lived processes (daphne, the Celery workers).

A full collection stops the whole process: in daphne, its event loop and every move in flight.
With CPython's default thresholds (700, 10, 10) a daphne serving 100 paced tables ran 3-7 full
collections of 80-320 ms in 25 s (docs/benchmarks.md, issue 26). :func:`tune`, called once the
process has loaded everything it will keep (Django's apps, the URL conf, the engines):

* moves what exists then to the permanent generation (``gc.freeze()``): later collections no
  longer scan the start-up heap;
* sets the thresholds from ``GC_THRESHOLDS`` (config/settings, default 50000, 20, 10): a young
  collection after 50,000 net allocations of tracked objects instead of 700 (each scans at most
  those young objects: a few milliseconds), so far fewer objects are promoted, and a full
  collection after 200 young ones: none in 25 s at 100 busy tables, where CPython's thresholds
  ran 60-80 collections, one of them full. Cyclic garbage is still collected, later.

Measured with ``benchmarks/ws_load.py`` (it reads each daphne's ``tienlen_gc_pause_seconds``):
docs/benchmarks.md "Garbage collection in daphne".
"""

from __future__ import annotations

import gc

from django.conf import settings


def tune() -> tuple[int, ...]:
    """Freeze the start-up heap and set the thresholds; return them."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*(int(x) for x in settings.GC_THRESHOLDS))
    return gc.get_threshold()
