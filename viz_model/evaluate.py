"""How good is the shipped model? `python -m viz_model.evaluate [--json]`.

Test BLEU per direction (beam search, corpus level), test perplexity, exact accuracy on the course
sentences, on the ambiguous words (is the right Chinese sense in the output?) and on arithmetic questions
whose operand pairs never appeared in training.
"""
from __future__ import annotations

import argparse
import json
import math
import time

from . import checkpoint, corpus
from .decoding import beam_search
from .metrics import corpus_bleu

EVAL_BEAM_WIDTH = 4


def _examples(pairs, direction):
    """(pair, source text, target-language tag, reference tokens) for pairs that go this way."""
    for pair in pairs:
        if pair.direction in ("both", direction):
            if direction == "en2zh":
                yield pair, pair.en, "zh", list(pair.zh_tokens)
            else:
                yield pair, pair.zh, "en", list(pair.en_tokens)


def translate_tokens(model, tokenizer, text, target_language, beam_width=EVAL_BEAM_WIDTH) -> list[str]:
    source = tokenizer.encode_source(text, target_language, model.config.max_len)
    best = beam_search(model, tokenizer, source.ids, beam_width=beam_width).hypotheses[0]
    return [t for t in best.tokens if t != "<eos>"]


def evaluate(model, tokenizer, splits=None, log=print, beam_width=EVAL_BEAM_WIDTH) -> dict:
    from .train import make_examples, mean_loss   # shared with training: one definition of the loss

    model.eval()   # the figures are those of the model as shipped: no dropout
    splits = splits or corpus.split_corpus(corpus.generate_pairs())
    start = time.time()
    result = {"beam_width": beam_width}
    test = splits["test"]
    outputs = {}
    for direction in ("en2zh", "zh2en"):
        hyps, refs = [], []
        for pair, text, lang, reference in _examples(test, direction):
            out = translate_tokens(model, tokenizer, text, lang, beam_width)
            outputs[(pair, direction)] = out
            hyps.append(out)
            refs.append([reference])
        result[f"test_bleu_{direction}"] = round(corpus_bleu(hyps, refs).score_100, 2)
        result[f"test_exact_match_{direction}"] = round(
            sum(h == r[0] for h, r in zip(hyps, refs)) / len(hyps), 4)
        log(f"test BLEU {direction}: {result[f'test_bleu_{direction}']}")
    nll = mean_loss(model, make_examples(test, tokenizer, model.config.max_len), tokenizer)
    # Perplexity = 2^(−mean log2 p) = e^(mean NLL in nats): the inverse geometric mean of token probabilities.
    result["test_perplexity"] = round(math.exp(nll), 4)

    course = []
    for pair in corpus.COURSE_SENTENCES:
        for p, text, lang, reference in _examples([pair], "en2zh"):
            course.append(translate_tokens(model, tokenizer, text, lang, beam_width) == reference)
        for p, text, lang, reference in _examples([pair], "zh2en"):
            course.append(translate_tokens(model, tokenizer, text, lang, beam_width) == reference)
    result["course_sentences_exact"] = f"{sum(course)}/{len(course)}"

    senses = [all(sense in out for _, sense in pair.ambiguous)
              for (pair, direction), out in outputs.items() if direction == "en2zh" and pair.ambiguous]
    result["ambiguous_word_accuracy"] = round(sum(senses) / max(1, len(senses)), 4)
    result["ambiguous_test_sentences"] = len(senses)

    # Questions ("one plus three" → 一加三等于四) whose operand triple never appeared in training.
    arithmetic = [out == (list(pair.zh_tokens) if d == "en2zh" else list(pair.en_tokens))
                  for (pair, d), out in outputs.items()
                  if corpus.is_held_out_arithmetic(pair) and pair.direction != "both"]
    result["arithmetic_heldout_accuracy"] = round(sum(arithmetic) / max(1, len(arithmetic)), 4)
    result["arithmetic_test_questions"] = len(arithmetic)
    result["seconds"] = round(time.time() - start, 1)
    log(f"evaluation: {json.dumps(result, ensure_ascii=False)}")
    return result


def main(argv=None):
    parser = argparse.ArgumentParser(description="Evaluate the shipped Attention Lab model on its test set.")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    model, tokenizer, _ = checkpoint.load()
    result = evaluate(model, tokenizer, log=(lambda *_: None) if args.json else print)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()
