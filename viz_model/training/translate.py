"""Translate from the command line: `python -m viz_model.training.translate "I saw a saw" [--to zh|en] [--beam 4]`."""

from __future__ import annotations

import argparse
import sys

from viz_model.model.checkpoint import CheckpointError
from viz_model.model.translator import DEFAULT_BEAM_WIDTH, SearchSettings, Translator, suggested_direction


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Translate English ⇄ Chinese with the Attention Lab model.")
    parser.add_argument("text")
    parser.add_argument("--to", choices=["zh", "en"], help="target language (default: the other one)")
    parser.add_argument("--beam", type=int, default=DEFAULT_BEAM_WIDTH, help="beam width (1 = greedy)")
    parser.add_argument("--alpha", type=float, default=0.75, help="length penalty α")
    args = parser.parse_args(argv)
    try:
        translator = Translator.load()
    except CheckpointError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    direction = {"zh": "en2zh", "en": "zh2en"}.get(args.to) or suggested_direction(args.text)
    if translator.is_empty(args.text):
        print("error: nothing to translate", file=sys.stderr)
        return 1
    result = translator.translate(
        args.text, direction, SearchSettings(beam_width=max(1, args.beam), length_penalty=args.alpha)
    )
    print(result.output_text)
    if result.source.unknown_words:
        print(f"unknown words: {', '.join(result.source.unknown_words)}", file=sys.stderr)
    if result.source.truncated:
        print(f"note: input cut to {translator.max_source_words} tokens", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
