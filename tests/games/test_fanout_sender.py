"""The sender loop of synchronous code (games.realtime.fanout): one long-lived event loop per
process, FIFO, waited for by ``send_now`` and ``flush``, not by ``send_soon``."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from games.realtime import fanout


@pytest.fixture
def gated(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], threading.Event]:
    """``send_async`` replaced: each send waits for the gate, then records its group."""
    sent: list[str] = []
    gate = threading.Event()

    async def send(sends: list[Any], failure: str = "") -> None:
        while not gate.is_set():
            await asyncio.sleep(0.001)
        sent.extend(group for group, _ in sends)

    monkeypatch.setattr(fanout, "send_async", send)
    return sent, gate


def test_send_now_returns_once_its_sends_are_done(gated: tuple[list[str], threading.Event]) -> None:
    sent, gate = gated
    gate.set()
    fanout.send_now([("a", {}), ("b", {})])
    assert sent == ["a", "b"]
    fanout.send_now([("c", {})])
    assert sent == ["a", "b", "c"]


def test_background_sends_do_not_wait_but_leave_in_order_before_the_block_ends(
    gated: tuple[list[str], threading.Event],
) -> None:
    sent, gate = gated
    for i in range(20):
        fanout.send_soon([(f"g{i}", {})])  # returns although nothing can be sent yet
    assert sent == []
    gate.set()
    fanout.flush()
    # the flush waited for every one of them, in the order they were handed over
    assert sent == [f"g{i}" for i in range(20)]


def test_sends_from_several_threads_all_arrive(gated: tuple[list[str], threading.Event]) -> None:
    sent, gate = gated
    gate.set()

    def sender(n: int) -> None:
        for i in range(10):
            fanout.send_now([(f"t{n}-{i}", {})])

    threads = [threading.Thread(target=sender, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(sent) == sorted(f"t{n}-{i}" for n in range(4) for i in range(10))
    for n in range(4):  # each thread's own sends in its order
        mine = [s for s in sent if s.startswith(f"t{n}-")]
        assert mine == [f"t{n}-{i}" for i in range(10)]


def test_a_failing_send_is_logged_and_the_next_ones_still_go(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    sent: list[str] = []

    class Layer:
        async def group_send(self, group: str, message: Any) -> None:
            if group == "bad":
                raise ConnectionError("redis is down")
            sent.append(group)

    monkeypatch.setattr(fanout, "get_channel_layer", lambda: Layer())
    fanout.send_now([("bad", {})], "broadcast failed")
    fanout.send_now([("good", {})])
    assert sent == ["good"]
    assert "broadcast failed" in caplog.text
