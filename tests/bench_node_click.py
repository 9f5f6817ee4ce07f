"""How long a click on a search-tree node takes to open it, run by hand (prints figures; not a pass/fail test):

    python tests/bench_node_click.py [--clicks 8] [--compare OTHER_CHECKOUT]

On the Beam search page's "Open any node" view, a student reads the tree by clicking its nodes. This opens
the view on one sentence in headless Chromium, clicks nodes spread over the tree (the same ones in every
checkout), and times each click until that node is ringed and the page has finished its run. With
`--compare`, another checkout of the app (e.g. one where a node was a link the browser loaded as a new page)
is measured the same way after this one, and both medians are printed with their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.harness import Session, launch_chromium  # noqa: E402
from tests.server import StreamlitServer  # noqa: E402

SENTENCE = "The little girl put her new red umbrella next to the old wooden door."
NODE = ".beam-tree svg a"
RINGED = """(node) => document.querySelector(`.beam-tree svg a[data-node="${node}"] circle.ring`) !== null"""


def click_times(pw, app: Path, clicks: int) -> list[float]:
    browser = launch_chromium(pw)
    server = StreamlitServer(app, env=None)
    server.start()
    try:
        server.wait_healthy(timeout=180)
        session = Session(browser.new_context(viewport={"width": 1400, "height": 900}), server.base_url)
        session.open("beam_search", part="part_node", text=SENTENCE)
        times = []
        for i in range(1, clicks + 1):
            nodes = session.page.locator(NODE)
            target = nodes.nth((i * 37) % nodes.count())  # spread over the tree: kept, pruned, finished
            node = target.get_attribute("data-node")
            started = time.perf_counter()
            target.click()
            session.page.wait_for_function(RINGED, arg=node, timeout=60_000)
            session.wait_idle(timeout=60_000)
            times.append(time.perf_counter() - started)
        problems = session.problems()
        if problems:
            raise SystemExit(f"{app}: " + "\n".join(problems))
        return times
    finally:
        server.stop()
        browser.close()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clicks", type=int, default=8)
    parser.add_argument("--compare", type=Path, help="another checkout of the app, measured the same way")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    apps = {"app": ROOT / "app.py"} | ({"compare": args.compare.resolve() / "app.py"} if args.compare else {})
    medians = {}
    with sync_playwright() as pw:
        for name, app in apps.items():
            times = click_times(pw, app, args.clicks)
            medians[name] = statistics.median(times)
            print(f"{name}: click -> node open, median {medians[name]:.2f} s ({', '.join(f'{t:.2f}' for t in times)})")
    if args.compare:
        print(f"compare / app: {medians['compare'] / medians['app']:.2f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
