"""How good is the shipped model? `python -m viz_model.training.evaluate [--json]`.

Two yardsticks. In the grammar's world: test BLEU per direction (beam search, corpus level), test
perplexity, exact accuracy on the course sentences, on the ambiguous words (is the right Chinese sense in the
output?), on arithmetic questions whose operand pairs never appeared in training, and on held-out
coreference pairs (does the translation name the referent of "it"? `coreference_eval`). Out of it: the everyday set
(`assets/eval/everyday.tsv`, written apart from the grammar), per direction: coverage (sentences with no
unknown word), exact match, BLEU and chrF from `sacrebleu`, outputs that mix the source language in, and
the share of the most frequent English words the model knows. Every miss is written to a file to read.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import time
from functools import partial
from pathlib import Path

from viz_model import corpus
from viz_model.corpus.evalset import (
    CONFIRM_FILE,
    DEV_FILE,
    EVERYDAY_FILE,
    NEAR_DUPLICATE_OVERLAP,
    closest_overlap,
    independent_translations_file,
    load_everyday,
    load_independent_translations,
    load_more_references,
    more_references_file,
    normalise,
)
from viz_model.lessons.metrics import corpus_bleu
from viz_model.model import checkpoint
from viz_model.model.decoding import beam_search
from viz_model.model.detokenize import detokenize
from viz_model.model.tokenizer import contains_chinese

from .coreference_eval import evaluate_coreference_by_kind, evaluate_pronouns, named_referent
from .examples import make_examples, mean_loss  # shared with training: one definition of the loss

MISSES_FILE = Path("artifacts/everyday_misses.tsv")
DEV_MISSES_FILE = Path("artifacts/everyday_dev_misses.tsv")
CONFIRM_MISSES_FILE = Path("artifacts/everyday_confirm_misses.tsv")

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
    model.eval()  # the figures are those of the model as shipped: no dropout
    splits = splits or corpus.split_corpus(corpus.corpus_pairs())
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
        result[f"test_exact_match_{direction}"] = round(sum(h == r[0] for h, r in zip(hyps, refs)) / len(hyps), 4)
        log(f"test BLEU {direction}: {result[f'test_bleu_{direction}']}")
    nll = mean_loss(model, make_examples(test, tokenizer, model.config.max_len), tokenizer)
    # Perplexity = 2^(−mean log2 p) = e^(mean NLL in nats): the inverse geometric mean of token probabilities.
    result["test_perplexity"] = round(math.exp(nll), 4)

    course = []
    for pair in corpus.COURSE_SENTENCES:
        for _, text, lang, reference in _examples([pair], "en2zh"):
            course.append(translate_tokens(model, tokenizer, text, lang, beam_width) == reference)
        for _, text, lang, reference in _examples([pair], "zh2en"):
            course.append(translate_tokens(model, tokenizer, text, lang, beam_width) == reference)
    result["course_sentences_exact"] = f"{sum(course)}/{len(course)}"

    senses = [
        names_senses(out, pair.ambiguous)
        for (pair, direction), out in outputs.items()
        if direction == "en2zh" and pair.ambiguous
    ]
    result["ambiguous_word_accuracy"] = round(sum(senses) / max(1, len(senses)), 4)
    result["ambiguous_test_sentences"] = len(senses)

    # Questions ("one plus three" → 一加三等于四) whose operand triple never appeared in training.
    arithmetic = [
        out == (list(pair.zh_tokens) if d == "en2zh" else list(pair.en_tokens))
        for (pair, d), out in outputs.items()
        if corpus.is_held_out_arithmetic(pair) and pair.direction != "both"
    ]
    result["arithmetic_heldout_accuracy"] = round(sum(arithmetic) / max(1, len(arithmetic)), 4)
    result["arithmetic_test_questions"] = len(arithmetic)

    # Coreference ("… because it was too tired / wide"): right when the output names the same referent as the
    # reference (它 for the subject, the noun itself for the object).
    coref = [
        named_referent(out) == named_referent(list(pair.zh_tokens))
        for (pair, d), out in outputs.items()
        if d == "en2zh" and pair.topic == "coreference"
    ]
    result["coreference_heldout_accuracy"] = round(sum(coref) / max(1, len(coref)), 4)
    result["coreference_test_sentences"] = len(coref)
    result.update(evaluate_classics(model, tokenizer, splits["train"], beam_width, log))
    to_chinese = partial(translate_tokens, model, tokenizer, target_language="zh", beam_width=beam_width)
    result.update(evaluate_coreference_by_kind(to_chinese, log))
    result.update(evaluate_pronouns(to_chinese, log=log))
    result.update(evaluate_everyday(model, tokenizer, beam_width=beam_width, log=log, training_pairs=splits["train"]))
    result["seconds"] = round(time.time() - start, 1)
    log(f"evaluation: {json.dumps(result, ensure_ascii=False)}")
    return result


def evaluate_classics(model, tokenizer, training_pairs, beam_width=EVAL_BEAM_WIDTH, log=print) -> dict:
    """The classroom classics the model was trained on, each direction: translated exactly, case and final
    punctuation aside? Empty for a model trained without them."""
    classics = [p for p in training_pairs if p.origin == "classics"]
    if not classics:
        return {}
    result, misses = {}, []
    for direction in ("en2zh", "zh2en"):
        right = 0
        for _, text, lang, reference in _examples(classics, direction):
            out = detokenize(translate_tokens(model, tokenizer, text, lang, beam_width), lang)
            if normalise(out) == normalise(detokenize(reference, lang)):
                right += 1
            else:
                misses.append(f"{text} → {out}")
        result[f"classics_exact_{direction}"] = f"{right}/{len(classics)}"
    log(f"classics exact: {result['classics_exact_en2zh']} en→zh, {result['classics_exact_zh2en']} zh→en")
    result["classics_misses"] = misses
    return result


def names_senses(output_tokens: list[str], tagged) -> bool:
    """Does a translation give each ambiguous word its tagged sense? `tagged`: (word, sense) pairs, as in
    `SentencePair.ambiguous`. Each sense is written in the output, as a word or inside one (jieba keeps
    打乒乓球 and 看电视 whole), and no sense the sentence does not use is ("I saw a saw" uses both of saw's)."""

    def written(chinese: str) -> bool:
        return any(chinese in token for token in output_tokens)

    used = {sense for _, sense in tagged}
    others = {
        s for word, _ in tagged for s in corpus.AMBIGUOUS_WORDS[word] if s not in used and not any(s in u for u in used)
    }
    return all(written(sense) for sense in used) and not any(written(s) for s in others)


_LATIN = re.compile(r"[A-Za-z]")


def mixes_source_language(output: str, direction: str) -> bool:
    """An English→Chinese output with Latin letters, or a Chinese→English output with Chinese characters."""
    return bool(_LATIN.search(output)) if direction == "en2zh" else contains_chinese(output)


def word_coverage(tokenizer, sizes=(1000, 3000)) -> dict:
    """Share of the n most frequent English words (wordfreq) that the tokenizer maps to a known word."""
    from wordfreq import top_n_list

    words = [w for w in top_n_list("en", max(sizes) * 2) if re.fullmatch(r"[a-z]+", w)]
    out = {}
    for n in sizes:
        known = [w for w in words[:n] if w in tokenizer.token_to_id]
        out[f"known_top{n}_english_words"] = round(len(known) / n, 4)
    return out


def evaluate_everyday(
    model,
    tokenizer,
    beam_width=EVAL_BEAM_WIDTH,
    log=print,
    misses_file=MISSES_FILE,
    training_pairs=None,
    eval_file: Path = EVERYDAY_FILE,
    name: str = "everyday",
    outputs: dict | None = None,
) -> dict:
    """The everyday set, per direction: coverage, exact match, BLEU and chrF (sacrebleu), mixed outputs;
    and, against `training_pairs` (default: the corpus's train split), how many sources have a near
    duplicate in training (`evalset.closest_overlap`) and the chrF of those that do not. BLEU and chrF are
    also given against every reference (`evalset.load_more_references`), leaving out any further reference
    that is a sentence of `training_pairs`, so no figure rewards output the model saw in training. Where the set
    has an independent translation (`evalset.independent_translations_file`), it is scored the same way: the
    chrF a fluent person's own wording gets against these references, beside the model's.
    `eval_file` and `name` (the figures' prefix): another set in the same format, e.g. the development set.
    `outputs`: filled with direction -> (outputs, references), for a paired comparison of two models."""
    import sacrebleu

    pairs = load_everyday(eval_file)
    if training_pairs is None:
        training_pairs = corpus.split_corpus(corpus.corpus_pairs())["train"]
    more_references = load_more_references(more_references_file(eval_file))  # none for a set without the file
    independent = load_independent_translations(independent_translations_file(eval_file))  # may be absent
    seen = {normalise(s) for t in training_pairs for s in (t.en, t.zh)}
    result: dict = {f"{name}_sentences": len(pairs)}
    misses = ["direction\tsource\toutput\treference\tunknown_words\tclosest_training_overlap"]
    for direction, target in (("en2zh", "zh"), ("zh2en", "en")):
        chosen = [p for p in pairs if p.direction == direction]
        hyps, refs, covered, exact, mixed = [], [], 0, 0, 0
        side = [t.en if direction == "en2zh" else t.zh for t in training_pairs]
        overlaps = closest_overlap([p.source for p in chosen], side)
        for p, overlap in zip(chosen, overlaps):
            source = tokenizer.encode_source(p.source, target, model.config.max_len)
            covered += not source.unknown_words
            best = beam_search(model, tokenizer, source.ids, beam_width=beam_width).hypotheses[0]
            output = detokenize([t for t in best.tokens if t != "<eos>"], target)
            hyps.append(output)
            refs.append(p.reference)
            exact += normalise(output) == normalise(p.reference)
            mixed += mixes_source_language(output, direction)
            if normalise(output) != normalise(p.reference):
                unknown = " ".join(source.unknown_words)
                misses.append(f"{direction}\t{p.source}\t{output}\t{p.reference}\t{unknown}\t{overlap:.2f}")
        if outputs is not None:
            outputs[direction] = (hyps, refs)
        n = max(1, len(chosen))
        bleu = sacrebleu.corpus_bleu(hyps, [refs], tokenize="zh" if target == "zh" else "13a")
        chrf = sacrebleu.corpus_chrf(hyps, [refs])
        apart = [i for i, o in enumerate(overlaps) if o < NEAR_DUPLICATE_OVERLAP]
        chrf_apart = sacrebleu.corpus_chrf([hyps[i] for i in apart], [[refs[i] for i in apart]])
        further = [more_references.get((direction, p.source), []) for p in chosen]
        kept = [[r for r in rs if normalise(r) not in seen] for rs in further]
        streams = [refs] + [
            [rs[i] if i < len(rs) else None for rs in kept] for i in range(max(map(len, kept), default=0))
        ]
        bleu_all = sacrebleu.corpus_bleu(hyps, streams, tokenize="zh" if target == "zh" else "13a")
        chrf_all = sacrebleu.corpus_chrf(hyps, streams)
        # A person's own wording, scored as the model's is: what a fluent translation scores against these references.
        person = [independent.get((direction, p.source)) for p in chosen]
        if chosen and all(person):
            result |= {
                f"{name}_independent_translation_chrf_{direction}": round(
                    sacrebleu.corpus_chrf(person, [refs]).score, 2
                ),
                f"{name}_independent_translation_chrf_all_references_{direction}": round(
                    sacrebleu.corpus_chrf(person, streams).score, 2
                ),
            }
        result |= {
            f"{name}_coverage_{direction}": round(covered / n, 4),
            f"{name}_exact_match_{direction}": round(exact / n, 4),
            f"{name}_bleu_{direction}": round(bleu.score, 2),
            f"{name}_chrf_{direction}": round(chrf.score, 2),
            f"{name}_mixed_language_{direction}": mixed,
            f"{name}_near_duplicates_{direction}": len(chosen) - len(apart),
            f"{name}_chrf_without_near_duplicates_{direction}": round(chrf_apart.score, 2),
            f"{name}_references_per_sentence_{direction}": round(1 + sum(map(len, kept)) / n, 2),
            f"{name}_references_left_out_as_seen_in_training_{direction}": sum(map(len, further)) - sum(map(len, kept)),
            f"{name}_bleu_all_references_{direction}": round(bleu_all.score, 2),
            f"{name}_chrf_all_references_{direction}": round(chrf_all.score, 2),
        }
        log(
            f"{name} {direction}: coverage {covered / n:.0%}, exact {exact / n:.0%}, "
            f"BLEU {bleu.score:.1f}, chrF {chrf.score:.1f}, mixed-language outputs {mixed}; "
            f"{len(chosen) - len(apart)} with a near duplicate in training, chrF of the other "
            f"{len(apart)}: {chrf_apart.score:.1f}; against all references "
            f"({1 + sum(map(len, kept)) / n:.1f} a sentence): BLEU {bleu_all.score:.1f}, chrF {chrf_all.score:.1f}"
        )
        if f"{name}_independent_translation_chrf_{direction}" in result:
            log(
                f"{name} {direction}: a translator's own wording, scored the same way: chrF "
                f"{result[f'{name}_independent_translation_chrf_{direction}']:.1f}, against all references "
                f"{result[f'{name}_independent_translation_chrf_all_references_{direction}']:.1f}"
            )
    result |= word_coverage(tokenizer)
    if misses_file is not None:
        Path(misses_file).parent.mkdir(parents=True, exist_ok=True)
        Path(misses_file).write_text("\n".join(misses) + "\n", encoding="utf-8")
        log(f"{name} misses written to {misses_file}")
    return result


def training_splits(card: dict, tokenizer) -> dict:
    """The splits the model in `card` was trained on: the corpus's, plus the continuation's pairs in training
    when the card records a continuation."""
    from viz_model.corpus.continuation import continuation_splits

    splits = corpus.split_corpus(corpus.corpus_pairs())
    if "continuation" in card:
        run = card["continuation"]
        splits = continuation_splits(
            splits, tokenizer, run["seed"], added_phrasebook=run.get("added_phrasebook_repeats", 0) > 0
        )
    return splits


def main(argv=None):
    parser = argparse.ArgumentParser(description="Evaluate the shipped Attention Lab model on its test set.")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--everyday-only", action="store_true", help="only the everyday set (fast)")
    parser.add_argument(
        "--dev",
        action="store_true",
        help="only the development set (assets/eval/everyday_dev.tsv): for choosing between trained models",
    )
    parser.add_argument(
        "--confirm",
        action="store_true",
        help="only the confirmation set (assets/eval/everyday_confirm.tsv): never chosen on, to confirm a change",
    )
    parser.add_argument("--model-dir", type=Path, default=checkpoint.MODEL_DIR)
    parser.add_argument(
        "--against",
        type=Path,
        default=None,
        help="with --dev, --confirm or --everyday-only: each direction's chrF and BLEU change from this model's, "
        "with sacrebleu's paired bootstrap p-value",
    )
    parser.add_argument(
        "--update-card",
        action="store_true",
        help="write the figures into the model card's evaluation (the card is what the app shows)",
    )
    args = parser.parse_args(argv)
    model, tokenizer, card = checkpoint.load(args.model_dir)
    log = (lambda *_: None) if args.json else print
    one_set = {
        "dev": dict(misses_file=DEV_MISSES_FILE, eval_file=DEV_FILE, name="dev"),
        "confirm": dict(misses_file=CONFIRM_MISSES_FILE, eval_file=CONFIRM_FILE, name="confirm"),
        "everyday_only": dict(),
    }
    chosen = next((options for flag, options in one_set.items() if getattr(args, flag)), None)
    if args.against is not None and chosen is None:
        parser.error("--against compares on one set: give --dev, --confirm or --everyday-only")
    if chosen is not None:
        outputs: dict = {}
        result = evaluate_everyday(model, tokenizer, log=log, outputs=outputs, **chosen)
        if args.against is not None:
            from .significance import compare_with

            result |= compare_with(args.against, outputs, chosen, log)
    else:
        result = evaluate(model, tokenizer, training_splits(card, tokenizer), log=log)
    if args.update_card:
        card["evaluation"] = {**card.get("evaluation", {}), **result}
        path = Path(args.model_dir) / checkpoint.CARD_FILE
        path.write_text(json.dumps(card, ensure_ascii=False, indent=2), encoding="utf-8")
        log(f"model card updated: {path}")
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()
