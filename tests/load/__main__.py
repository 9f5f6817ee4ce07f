"""A class on one server, measured: `python -m tests.load [options]` (from the repository root).

    python -m tests.load --students 10,30,60,100 --spread 0,10,30

starts `streamlit run app.py` on a free loopback port (or uses --base-url, e.g. a balancer in front of
replicas), lets the teacher open the link once, then for every (spread, students) runs one class: every
student opens the link, types a sentence of its own from the corpus's held-out split (English and Chinese
alternating; new sentences for every class), opens --page and changes a control there. Prints per view p50 /
p95 / max latency, errors, the server's peak CPU and memory; writes the figures as JSON and the latency
curve as a plot under artifacts/load/. Exit status 1 if any student saw an error.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))

from tests.load.classroom import VIEWS, ClassResult, class_sentences, run_class  # noqa: E402
from tests.load.student import Student, link, run  # noqa: E402

OUT = ROOT / "artifacts" / "load"
TEACHER_SENTENCE = "The animal didn't cross the street because it was too tired."


def expected_translations(pairs: list[tuple[str, str]], model_dir: Path | None) -> list[str]:
    """What the sidebar must show for each sentence: viz_model.Translator's own output."""
    import torch

    from viz_model.model import checkpoint
    from viz_model.model.translator import Translator

    torch.set_num_threads(1)
    translator = Translator.load(model_dir or checkpoint.MODEL_DIR)
    return [(translator.translate(text, direction).output_text or "∅").strip() for text, direction in pairs]


def teacher_opens(base_url: str, class_link: str, page: str) -> None:
    """The teacher tries the link and the page once before class: the model is loaded and the link's
    sentence computed, as they would be in a classroom."""

    async def visit():
        async with Student(base_url) as teacher:
            for step in (await teacher.open(class_link), await teacher.go_to(page)):
                teacher.check(step)
                if step.errors:
                    raise RuntimeError(f"the teacher's {step.view}: {step.errors}")

    run(visit())


def table(rows: list[dict]) -> str:
    header = list(rows[0])
    widths = [max(len(str(h)), *(len(str(r[h])) for r in rows)) for h in header]
    lines = ["  ".join(str(h).rjust(w) for h, w in zip(header, widths))]
    lines += ["  ".join(str(r[h]).rjust(w) for h, w in zip(header, widths)) for r in rows]
    return "\n".join(lines)


def plot(results: list[ClassResult], path: Path) -> None:
    """p95 (solid) and p50 (dotted) latency per view against the number of students, one panel per spread."""
    from plotly.subplots import make_subplots

    spreads = sorted({r.spread for r in results})
    fig = make_subplots(
        rows=1, cols=len(spreads), shared_yaxes=True, subplot_titles=[f"spread {s:g} s" for s in spreads]
    )
    colours = dict(zip(VIEWS, ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")))
    for col, spread in enumerate(spreads, start=1):
        runs = sorted((r for r in results if r.spread == spread), key=lambda r: r.students)
        for view in VIEWS:
            rows = [(r.students, row) for r in runs for row in r.summary() if row["view"] == view]
            if not rows:
                continue
            xs = [n for n, _ in rows]
            for q, dash in (("p95_s", "solid"), ("p50_s", "dot")):
                fig.add_scatter(
                    x=xs,
                    y=[row[q] for _, row in rows],
                    mode="lines+markers",
                    line={"color": colours[view], "dash": dash},
                    name=f"{view} {q[:3]}",
                    legendgroup=view,
                    showlegend=col == 1,
                    row=1,
                    col=col,
                )
        fig.update_xaxes(title_text="students", row=1, col=col)
    fig.update_yaxes(title_text="seconds", row=1, col=1)
    fig.update_layout(width=420 * len(spreads) + 200, height=420, margin={"t": 40, "b": 50, "l": 60, "r": 20})
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.write_html(path.with_suffix(".html"), include_plotlyjs=True)
    if path.suffix == ".png":
        from viz_model.figures.export import use_system_chromium

        use_system_chromium()
        fig.write_image(path, scale=1)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", default="10,30,60,100", help="comma-separated class sizes")
    parser.add_argument("--spread", default="0", help="comma-separated seconds over which a class arrives")
    parser.add_argument("--link", default=link("", text=TEACHER_SENTENCE, dir="en2zh"), help="the shared link")
    parser.add_argument("--page", default="attention", help="the page each student opens after typing")
    parser.add_argument("--replicas", type=int, default=0, help="start this many replicas behind nginx instead")
    parser.add_argument("--base-url", help="an app already running (e.g. a balancer); default: start one")
    parser.add_argument("--server-pids", default="", help="with --base-url: PIDs whose CPU and memory to sample")
    parser.add_argument("--model-dir", default=os.environ.get("ATTENTION_LAB_MODEL_DIR"))
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds a student waits for one view")
    parser.add_argument("--plot", default=str(OUT / "latency.png"), help="where to write the plot (.png/.html)")
    args = parser.parse_args(argv)

    sizes = [int(n) for n in args.students.split(",")]
    spreads = [float(s) for s in args.spread.split(",")]
    model_dir = Path(args.model_dir) if args.model_dir else None
    plans, skip = [], 0
    for spread in spreads:
        for n in sizes:
            plans.append((spread, n, class_sentences(n, skip)))
            skip += (n + 1) // 2
    print("computing every student's expected translation ...", flush=True)
    expected = {p: e for _, _, pairs in plans for p, e in zip(pairs, expected_translations(pairs, model_dir))}

    server = None
    if args.base_url:
        base_url, pids = args.base_url, [int(p) for p in args.server_pids.split(",") if p]
    elif args.replicas:
        from tests.load.replicas import Replicas

        server = Replicas(args.replicas, model_dir=args.model_dir).start()
        print(f"{args.replicas} replicas behind nginx at {server.base_url}", flush=True)
        base_url, pids = server.base_url, server.pids
    else:
        from tests.server import StreamlitServer

        OUT.mkdir(parents=True, exist_ok=True)
        env = {"ATTENTION_LAB_MODEL_DIR": str(model_dir)} if model_dir else {}
        server = StreamlitServer(env=env, log_path=OUT / "server.log").start()
        print(f"server ready in {server.wait_healthy():.1f} s at {server.base_url}", flush=True)
        base_url, pids = server.base_url, [server.pid]
    results: list[ClassResult] = []
    try:
        # Before class the teacher opens the link once; behind a balancer, on every replica (each loads
        # the model on its first session).
        for url in [s.base_url for s in getattr(server, "servers", [])] or [base_url]:
            teacher_opens(url, args.link, args.page)
        for spread, n, pairs in plans:
            result = run_class(
                base_url, pids, args.link, [(t, expected[t, d]) for t, d in pairs], args.page, spread, args.timeout
            )
            results.append(result)
            print(
                f"\n{n} students, spread {spread:g} s: {result.seconds:.1f} s, server CPU {result.cpu_seconds:.1f} s "
                f"(peak {result.peak_cpu:.0f} %), peak RSS {result.peak_rss / 2**20:.0f} MiB, "
                f"{len(result.errors())} errors"
                + (f", sessions per replica {result.replicas}" if result.replicas else ""),
                flush=True,
            )
            print(table(result.summary()), flush=True)
            for error in result.errors()[:10]:
                print("  ERROR", error, flush=True)
    finally:
        if server:
            server.stop()
    rows = [row for r in results for row in r.summary()]
    stamp = time.strftime("%Y%m%d-%H%M%S")
    OUT.mkdir(parents=True, exist_ok=True)
    record = {
        "command": "python -m tests.load " + " ".join(sys.argv[1:] if argv is None else argv),
        "classes": [
            {
                "students": r.students,
                "spread_s": r.spread,
                "seconds": round(r.seconds, 1),
                "server_cpu_s": round(r.cpu_seconds, 1),
                "peak_cpu_percent": round(r.peak_cpu),
                "peak_rss_mib": round(r.peak_rss / 2**20),
                "errors": r.errors(),
                "replicas": r.replicas,
                "views": r.summary(),
            }
            for r in results
        ],
    }
    (OUT / f"class-{stamp}.json").write_text(json.dumps(record, ensure_ascii=False, indent=1), encoding="utf-8")
    if rows:
        print("\n" + table(rows))
        plot(results, Path(args.plot))
        print(f"\nfigures: {OUT / f'class-{stamp}.json'}; plot: {args.plot}")
    return 1 if any(r.errors() for r in results) else 0


if __name__ == "__main__":
    raise SystemExit(main())
