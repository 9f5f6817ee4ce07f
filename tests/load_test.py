"""The full load test, run by hand (a few minutes of both cores):

    python tests/load_test.py [--sessions 10] [--sentences 5] [--rounds 3]

Starts `streamlit run app.py` on a free port, then in each round opens N new browser sessions (contexts of
one headless Chromium) that all at once type their own sentences and visit every page. Fails (exit 1) if any
session sees an error, a dialog, another session's sentence, or a translation different from the one
viz_model.Translator gives for its sentence. Prints the server's RSS (with children) after each round and
its peak: with bounded caches it levels off instead of growing round after round (each round types new
sentences, so the caches are churned, not hit).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.harness import ARTIFACTS, MODEL_DIR_ENV, StreamlitServer, health, launch_chromium  # noqa: E402
from tests.browser.load import run_load  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--sentences", type=int, default=5, help="sentences each session types per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pages", default="all", help="comma-separated url paths ('' is home), or all")
    parser.add_argument("--model-dir", default=os.environ.get(MODEL_DIR_ENV), help="default: assets/model")
    args = parser.parse_args(argv)

    import torch
    from playwright.sync_api import sync_playwright

    from pages.parts.frame import PAGES
    from viz_model.model import checkpoint
    from viz_model.model.translator import Translator

    torch.set_num_threads(1)
    model_dir = Path(args.model_dir or checkpoint.MODEL_DIR)
    translator = Translator.load(model_dir)
    url_paths = (
        ["" if i == 0 else p.url_path for i, p in enumerate(PAGES)] if args.pages == "all" else args.pages.split(",")
    )
    ARTIFACTS.mkdir(exist_ok=True)
    server = StreamlitServer(env={MODEL_DIR_ENV: str(model_dir)}, log_path=ARTIFACTS / "load-server.log")
    try:
        server.start()
        print(
            f"server pid {server.pid} ready in {server.wait_healthy():.1f} s at {server.base_url}; "
            f"RSS {server.rss_bytes() / 2**20:.0f} MiB before any session"
        )
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            try:
                result = run_load(
                    browser,
                    server,
                    translator,
                    args.sessions,
                    args.sentences,
                    url_paths,
                    rounds=args.rounds,
                    log=lambda line: print(line, flush=True),
                )
            finally:
                browser.close()
        alive = health(server.base_url)
    finally:
        server.stop()
    rss = [r / 2**20 for r in result.rss_after_rounds]
    print(
        f"\n{args.sessions} sessions × {args.sentences} sentences × {len(url_paths)} pages × {args.rounds} rounds: "
        f"{result.checks} views checked in {result.seconds:.0f} s "
        f"(rounds {', '.join(f'{s:.0f} s' for s in result.round_seconds)})"
    )
    print(
        f"server RSS after each round (MiB): {', '.join(f'{r:.0f}' for r in rss)}; "
        f"peak {result.peak_rss / 2**20:.0f} MiB"
    )
    if len(rss) >= 3:
        later = rss[-1] - rss[1]
        print(
            f"growth from round 2 to round {len(rss)}: {later:+.0f} MiB "
            f"({'levels off' if later < 0.1 * rss[1] else 'KEEPS GROWING'})"
        )
    print(f"server healthy at the end: {alive}; errors: {len(result.errors)}")
    for line in result.errors[:50]:
        print("  " + line)
    return 0 if not result.errors and alive else 1


if __name__ == "__main__":
    # SIGTERM (e.g. from `timeout`) would skip the `finally` that stops the server: turn it into SystemExit.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sys.exit(main())
