"""The run gate (pages/parts/gate.py): at most `slots` holders at once, waiters served in arrival order,
a slot given back when the holder raises (Streamlit ends a run with an exception on rerun or st.stop)."""

from __future__ import annotations

import threading
import time

import pytest

from pages.parts.gate import SLOTS_ENV, FairGate, default_slots


def _arrive_in_order(gate: FairGate, n: int, hold: float) -> tuple[list[int], int]:
    """n threads arrive one after another while the gate is full; returns their entry order and the most
    threads ever inside at once."""
    entered, inside, peak, lock = [], [0], [0], threading.Lock()

    def visit(i: int) -> None:
        with gate.entered():
            with lock:
                entered.append(i)
                inside[0] += 1
                peak[0] = max(peak[0], inside[0])
            time.sleep(hold)
            with lock:
                inside[0] -= 1

    blockers = [threading.Event() for _ in range(gate.slots)]

    def block(event: threading.Event) -> None:
        with gate.entered():
            event.wait()

    holders = [threading.Thread(target=block, args=(e,)) for e in blockers]
    for t in holders:
        t.start()
    while gate._inside < gate.slots:  # the gate is full before anyone else arrives
        time.sleep(0.001)
    threads = []
    for i in range(n):
        t = threading.Thread(target=visit, args=(i,))
        t.start()
        threads.append(t)
        while gate.waiting < i + 1:  # i has queued before i + 1 arrives
            time.sleep(0.001)
    for e in blockers:
        e.set()
    for t in threads + holders:
        t.join(10)
    return entered, peak[0]


@pytest.mark.parametrize("slots", [1, 2])
def test_waiters_enter_in_arrival_order_and_never_more_than_the_slots(slots):
    order, peak = _arrive_in_order(FairGate(slots), 12, hold=0.01)
    if slots == 1:
        assert order == list(range(12))
    else:  # two enter at a time: each pair in order, and no one overtakes an earlier pair
        assert sorted(order) == list(range(12)) and all(order[i] < order[i + 2] for i in range(10))
    assert 1 <= peak <= slots


def test_a_holder_that_raises_gives_its_slot_back():
    gate = FairGate(1)
    with pytest.raises(RuntimeError), gate.entered():
        raise RuntimeError("st.stop() or a rerun ends a run with an exception")
    done, leave = threading.Event(), threading.Event()

    def hold() -> None:
        with gate.entered():
            done.set()
            leave.wait()

    holder = threading.Thread(target=hold)
    holder.start()
    assert done.wait(2) and gate._inside == 1
    leave.set()
    holder.join(2)
    assert gate._inside == 0


def test_zero_slots_let_everyone_in(monkeypatch):
    gate = FairGate(0)
    with gate.entered(), gate.entered(), gate.entered():
        assert gate.waiting == 0
    monkeypatch.setenv(SLOTS_ENV, "0")
    assert default_slots() == 0
    monkeypatch.setenv(SLOTS_ENV, "3")
    assert default_slots() == 3
    monkeypatch.setenv(SLOTS_ENV, "many")  # not a number: one per core
    assert default_slots() >= 1
