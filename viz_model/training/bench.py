"""Speed and memory of the model on this machine: `python -m viz_model.training.bench [--json]`.

Figures, not pass/fail tests: medians over repeated runs of model load, a full trace of a 10-token and a
max-length sentence, every head's importance on a 20-token sentence, and beam search at k = 1, 4, 8 (and k = 5
forced to 30 tokens), plus peak memory.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import time

import torch

from viz_model.lessons.experiments import head_importance
from viz_model.model.decoding import beam_search
from viz_model.model.sampling import SamplingSettings, sample
from viz_model.model.trace import build_trace
from viz_model.model.translator import SearchSettings, Translator

TEN_TOKENS = "please buy an apple and an orange at the bank"
TWELVE_WORDS = "the little girl put her new red umbrella next to the old door"


def _median_ms(fn, repeat: int) -> float:
    fn()  # warm-up: first calls pay for allocation and kernel selection
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(times), 2)


def _long_sentence(translator: Translator) -> str:
    """A sentence that fills the encoder exactly (max_len − 2 words) from the model's own vocabulary."""
    words = [
        "please",
        "buy",
        "an",
        "apple",
        "and",
        "an",
        "orange",
        "and",
        "a",
        "light",
        "bat",
        "at",
        "the",
        "bank",
        "today",
    ]
    words = [w for w in words if w in translator.tokenizer.token_to_id] or ["apple"]
    return " ".join((words * 10)[: translator.max_source_words])


def run(repeat: int = 20, threads: int | None = None) -> dict:
    if threads:
        torch.set_num_threads(threads)
    start = time.perf_counter()
    translator = Translator.load()
    load_ms = (time.perf_counter() - start) * 1000
    load_ms = min(load_ms, _median_ms(Translator.load, 5))  # the first load also imports and warms up

    model, tokenizer = translator.model, translator.tokenizer
    figures = {"threads": torch.get_num_threads(), "model_load_ms": round(load_ms, 1)}
    for name, text in (("trace_10_tokens_ms", TEN_TOKENS), ("trace_max_length_ms", _long_sentence(translator))):
        source = translator.encode(text, "en2zh")
        target = tokenizer.ids(translator.translate(text, "en2zh", SearchSettings(beam_width=1)).output_tokens)
        target = (target + target)[: model.config.max_len - 1]
        figures[name] = _median_ms(lambda: build_trace(model, tokenizer, source.ids, target), repeat)
        figures[name.replace("_ms", "_shape")] = f"{len(source.ids)} source × {len(target) + 1} target tokens"
    # Every head's importance (36 heads switched off one at a time, in one batched teacher-forced pass) on a
    # 20-token sentence, given its translation: what the Experiments page computes on a new sentence.
    twenty = " ".join(_long_sentence(translator).split()[:18])  # + the direction tag and <eos>
    output = translator.translate(twenty, "en2zh").output_tokens
    figures["head_importance_20_tokens_ms"] = _median_ms(
        lambda: head_importance(translator, twenty, "en2zh", output_tokens=output), max(3, repeat // 4)
    )
    # Ten seeded samples of a 12-word sentence (temperature 1, no cut: the widest the sampling gets), what the
    # Decoding lab computes on a new sentence besides greedy and beam.
    twelve = translator.encode(TWELVE_WORDS, "en2zh")
    figures["ten_samples_12_words_ms"] = _median_ms(
        lambda: sample(model, tokenizer, twelve.ids, SamplingSettings(samples=10, seed=0), 0.75), max(3, repeat // 4)
    )
    source = translator.encode(TEN_TOKENS, "en2zh")
    for k in (1, 4, 8):
        figures[f"beam_k{k}_ms"] = _median_ms(lambda: beam_search(model, tokenizer, source.ids, beam_width=k), repeat)
    # Worst case of the targets: k = 5 kept open for 30 full steps (<eos> suppressed until then).
    forced_len = min(30, model.config.max_len)
    figures["beam_k5_30_tokens_ms"] = _median_ms(
        lambda: beam_search(model, tokenizer, source.ids, beam_width=5, max_len=forced_len, min_len=forced_len),
        max(3, repeat // 4),
    )
    figures["full_translate_ms"] = _median_ms(lambda: translator.translate(TEN_TOKENS, "en2zh"), repeat)
    figures["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return figures


def main(argv=None):
    parser = argparse.ArgumentParser(description="Benchmark the Attention Lab model on this machine.")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--threads", type=int, default=None, help="torch threads (default: torch's)")
    args = parser.parse_args(argv)
    figures = run(args.repeat, args.threads)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        width = max(map(len, figures))
        for key, value in figures.items():
            print(f"{key:<{width}}  {value}")


if __name__ == "__main__":
    main()
