"""A class on one server: N students open the same link within `spread` seconds (0: in the same instant),
then each types a sentence of its own, opens a page and changes a control there. Every view is timed and
checked (tests/load/student.py); the server's CPU and resident memory (with its children) are sampled
throughout. Bounded: each student's actions have a timeout, and the class ends when the last one has.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import threading
import time
from dataclasses import dataclass, field

from tests.load.student import Step, Student, run

VIEWS = ("first view", "new sentence", "page", "control")  # the order of a student's actions


@dataclass
class ClassResult:
    students: int
    spread: float
    steps: list[tuple[int, Step]] = field(default_factory=list)  # (student, step)
    seconds: float = 0.0
    peak_rss: int = 0  # bytes
    peak_cpu: float = 0.0  # percent of one core, over 0.5 s windows
    cpu_seconds: float = 0.0  # the server's CPU time during the class
    replicas: dict[str, int] = field(default_factory=dict)  # sessions per replica, when a balancer names it

    def view_of(self, step: Step) -> str:
        return next(v for v in VIEWS if step.view.startswith(v))

    def errors(self) -> list[str]:
        return [f"student {i} {s.view}: {e}" for i, s in self.steps for e in s.errors]

    def summary(self) -> list[dict]:
        rows = []
        for view in VIEWS:
            steps = [s for _, s in self.steps if self.view_of(s) == view]
            times = sorted(s.seconds for s in steps)
            if not times:
                continue
            rows.append(
                {
                    "students": self.students,
                    "spread_s": self.spread,
                    "view": view,
                    "n": len(times),
                    "p50_s": round(statistics.median(times), 2),
                    "p95_s": round(percentile(times, 95), 2),
                    "max_s": round(times[-1], 2),
                    "errors": sum(bool(s.errors) for s in steps),
                    "kB": round(statistics.mean(s.bytes for s in steps) / 1000, 1),
                }
            )
        return rows


def percentile(sorted_values: list[float], q: float) -> float:
    """The nearest-rank percentile: the smallest value with at least q % of the values at or below it."""
    rank = max(1, -(-len(sorted_values) * q // 100))
    return sorted_values[int(rank) - 1]


class ServerSampler(threading.Thread):
    """Samples the server processes' (and their children's) CPU and resident memory every `every` s."""

    def __init__(self, pids: list[int], every: float = 0.5):
        super().__init__(daemon=True)
        import psutil

        self.processes = []
        for pid in pids:
            proc = psutil.Process(pid)
            self.processes += [proc, *proc.children(recursive=True)]
        self.every, self.peak_rss, self.peak_cpu, self._done = every, 0, 0.0, threading.Event()
        self.cpu_start = self._cpu()

    def _cpu(self) -> float:
        total = 0.0
        for proc in self.processes:
            try:
                times = proc.cpu_times()
                total += times.user + times.system
            except Exception:  # a child that has exited
                pass
        return total

    def _rss(self) -> int:
        total = 0
        for proc in self.processes:
            try:
                total += proc.memory_info().rss
            except Exception:
                pass
        return total

    def run(self) -> None:
        last, last_at = self.cpu_start, time.perf_counter()
        while not self._done.wait(self.every):
            cpu, now = self._cpu(), time.perf_counter()
            self.peak_cpu = max(self.peak_cpu, 100 * (cpu - last) / (now - last_at))
            self.peak_rss = max(self.peak_rss, self._rss())
            last, last_at = cpu, now

    def stop(self) -> float:
        """Stop sampling; the CPU seconds used since the sampler was made."""
        self._done.set()
        self.join()
        return self._cpu() - self.cpu_start


async def student_lesson(
    base_url: str,
    index: int,
    start_at: float,
    link: str,
    sentence: str,
    translation: str,
    page: str,
    timeout: float,
) -> list[Step]:
    """One student: waits until `start_at` (perf_counter), opens `link`, types `sentence`, opens `page` and
    changes a control there; each view checked, the translation against `translation`."""
    await asyncio.sleep(max(0.0, start_at - time.perf_counter()))
    student = Student(base_url, timeout=timeout)
    try:
        async with student:
            student.check(await student.open(link))
            student.check(await student.type_sentence(sentence), sentence, translation)
            if not student.steps[-1].errors:
                student.check(await student.go_to(page), sentence, translation)
                step = await student.change_a_control()
                if step is None:
                    student.steps.append(Step("control", 0.0, 0, [f"no control to change on /{page}"]))
                else:
                    student.check(step, sentence, translation)
    except Exception as err:  # a refused or dropped connection is this student's error, not the class's end
        student.steps.append(Step("first view", 0.0, 0, [f"{type(err).__name__}: {err}"]))
    return student.steps


def run_class(
    base_url: str,
    server_pids: list[int],
    link: str,
    sentences: list[tuple[str, str]],
    page: str = "attention",
    spread: float = 0.0,
    timeout: float = 300.0,
    seed: int = 0,
) -> ClassResult:
    """Run one class: len(sentences) students, each with its (sentence, expected translation). Start times
    are spread evenly over `spread` seconds in a seeded random order."""
    n = len(sentences)
    order = list(range(n))
    random.Random(seed).shuffle(order)
    offsets = [spread * order[i] / max(1, n - 1) if spread else 0.0 for i in range(n)]
    result = ClassResult(students=n, spread=spread)
    sampler = ServerSampler(server_pids)
    sampler.start()

    async def everyone() -> list[list[Step]]:
        start = time.perf_counter() + 0.2
        return await asyncio.gather(
            *(
                student_lesson(base_url, i, start + offsets[i], link, text, expected, page, timeout)
                for i, (text, expected) in enumerate(sentences)
            )
        )

    started = time.perf_counter()
    try:
        all_steps = run(everyone())
    finally:
        result.cpu_seconds = sampler.stop()
    result.seconds = time.perf_counter() - started
    result.peak_rss, result.peak_cpu = sampler.peak_rss, sampler.peak_cpu
    for i, steps in enumerate(all_steps):
        result.steps += [(i, s) for s in steps]
        replica = steps[0].replica if steps else None
        if replica:
            result.replicas[replica] = result.replicas.get(replica, 0) + 1
    return result


def held_out_sentences() -> dict[str, list[str]]:
    """The held-out test split's distinct source sentences by direction. The shipped split is read, not
    rebuilt (tests/test_corpus.py checks it equals a fresh build; a build takes a minute and a half)."""
    from viz_model.corpus import read_split

    rows = read_split("test")
    return {"en2zh": list(dict.fromkeys(r["en"] for r in rows)), "zh2en": list(dict.fromkeys(r["zh"] for r in rows))}


def class_sentences(n: int, skip: int = 0) -> list[tuple[str, str]]:
    """n (sentence, direction) pairs from the held-out test split, English and Chinese alternating, after
    skipping `skip` of each language (so that each class types sentences no earlier class typed)."""
    pools = held_out_sentences()
    chosen = []
    for i in range(n):
        direction = "en2zh" if i % 2 == 0 else "zh2en"
        k = skip + i // 2
        if k >= len(pools[direction]):
            raise ValueError(f"not enough different {direction} test sentences for {n} students")
        chosen.append((pools[direction][k], direction))
    return chosen
