"""config/gctune.py and games.metrics.watch_gc: the garbage collector of daphne and the workers
(fewer, timed collections; docs/benchmarks.md "Garbage collection in daphne")."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from django.test import override_settings

from config import gctune
from games import metrics


@pytest.fixture
def restored_gc() -> Iterator[None]:
    thresholds = gc.get_threshold()
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


@pytest.mark.usefixtures("restored_gc")
@override_settings(GC_THRESHOLDS=[40000, 15, 5])
def test_the_start_up_heap_is_frozen_and_the_thresholds_come_from_the_settings() -> None:
    gc.unfreeze()
    assert gctune.tune() == (40000, 15, 5)
    assert gc.get_threshold() == (40000, 15, 5)
    assert gc.get_freeze_count() > 1000  # this process's modules, Django's apps


def _pauses(generation: str) -> tuple[float, float]:
    labels = {"node": metrics.NODE, "generation": generation}
    count = sum(
        sample.value
        for family in metrics.gc_pause_seconds.collect()
        for sample in family.samples
        if sample.name.endswith("_count") and sample.labels == labels
    )
    total = sum(
        sample.value
        for family in metrics.gc_pause_seconds.collect()
        for sample in family.samples
        if sample.name.endswith("_sum") and sample.labels == labels
    )
    return count, total


def test_every_collection_is_timed_by_generation() -> None:
    metrics.watch_gc()
    metrics.watch_gc()  # once per process, however often it is called
    assert gc.callbacks.count(metrics.time_gc) == 1
    before = _pauses("2")
    gc.collect(2)
    gc.collect(2)
    after = _pauses("2")
    assert after[0] == before[0] + 2
    assert after[1] > before[1]
