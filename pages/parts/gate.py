"""First come, first served: at most SLOTS script runs of this process compute at once, the others wait in
the order they arrived.

Streamlit runs every session's script in its own thread. When a whole class opens a link in the same second,
60 runs interleave on two cores (and one GIL), so almost everyone waits almost as long as the last one. In
a queue, the first students are served in a fraction of a second and the last one waits no longer than
before; the server also spends less time switching between threads.
"""

from __future__ import annotations

import os
import threading
from collections import deque
from contextlib import contextmanager

SLOTS_ENV = "ATTENTION_LAB_RUN_SLOTS"  # a deployment's override; 0 lets every run in at once


class FairGate:
    """A semaphore whose waiters enter in arrival order (threading.Semaphore wakes an arbitrary one)."""

    def __init__(self, slots: int):
        self.slots = slots
        self._inside = 0
        self._queue: deque[object] = deque()
        self._changed = threading.Condition()

    @contextmanager
    def entered(self):
        """Hold one slot for the duration of the with-block, after every earlier arrival has entered."""
        if self.slots <= 0:
            yield
            return
        ticket = object()
        with self._changed:
            self._queue.append(ticket)
            while self._queue[0] is not ticket or self._inside >= self.slots:
                self._changed.wait()
            self._queue.popleft()
            self._inside += 1
            self._changed.notify_all()  # the next in line may enter too, if a slot is free
        try:
            yield
        finally:
            with self._changed:
                self._inside -= 1
                self._changed.notify_all()

    @property
    def waiting(self) -> int:
        return len(self._queue)


def default_slots() -> int:
    """One run per core: PyTorch runs each forward pass on one thread (pages.parts.cache)."""
    configured = os.environ.get(SLOTS_ENV, "").strip()
    return int(configured) if configured.lstrip("-").isdigit() else max(1, os.cpu_count() or 1)


RUNS = FairGate(default_slots())  # the process's one gate: app.py holds it for the whole script run
