"""Speed of the pretrained encoder (MiniLM) on this machine: `python -m tests.bench_pretrained [--json]`.

Figures, not pass/fail tests: MiniLM's load time (the first load in the process, which also imports
transformers, and the median of later loads), and one 20-piece sentence's forward pass with everything the
pages draw recorded (attention from output_attentions, Q/K/V from the hooks, hidden states), as the app runs
it (one torch thread) and with torch's default threads. Medians over repeated runs.
"""

from __future__ import annotations

import argparse
import json
import os
import time

TWENTY = "The quick brown fox jumps over the lazy dog while the small cat sleeps near the warm fire."


def run(repeat: int = 20) -> dict:
    os.environ["HF_HUB_OFFLINE"] = "1"
    start = time.perf_counter()
    import torch
    import transformers  # noqa: F401  (imported apart: the first load's own time is then the model's)

    from viz_model.model.pretrained import PretrainedEncoder, minilm_path
    from viz_model.training.bench import _median_ms  # the training benchmark's medians

    import_ms = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    path = minilm_path()
    model = PretrainedEncoder.load(path)
    first_load_ms = (time.perf_counter() - start) * 1000
    figures = {
        "import_ms (torch + transformers)": round(import_ms, 1),
        "first_load_ms (after the imports)": round(first_load_ms, 1),
        "load_ms (median of 3 later loads)": _median_ms(lambda: PretrainedEncoder.load(path), 3),
    }
    view = model.view(TWENTY)
    figures["pieces"] = len(view.pieces)
    figures["layers x heads"] = f"{view.n_layers} x {view.n_heads}"
    default_threads = torch.get_num_threads()
    figures[f"view_ms ({default_threads} torch threads)"] = _median_ms(lambda: model.view(TWENTY), repeat)
    torch.set_num_threads(1)  # as the app runs it (pages/parts/cache.py)
    figures["view_ms (1 thread, as in the app)"] = _median_ms(lambda: model.view(TWENTY), repeat)
    torch.set_num_threads(default_threads)
    return figures


def main(argv=None):
    parser = argparse.ArgumentParser(description="Benchmark MiniLM as the Attention Lab reads it.")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)
    figures = run(args.repeat)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        for name, value in figures.items():
            print(f"{name:45s} {value}")


if __name__ == "__main__":
    main()
