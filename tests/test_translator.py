"""The shipped model as people use it: the facade, the command line, and the quality bars it promises."""

import json
import subprocess
import sys

import numpy as np
import pytest
import torch

from viz_model import corpus
from viz_model.corpus import EN_NUMBERS, ZH_NUMBERS
from viz_model.model.checkpoint import RESTORE_COMMAND
from viz_model.model.decoding import beam_search, greedy_search
from viz_model.model.translator import SearchSettings, Translator, normalise_direction, suggested_direction
from viz_model.training.coreference_eval import named_referent
from viz_model.training.evaluate import names_senses, translate_tokens


@pytest.fixture(scope="module")
def translator():
    return Translator.load()


# test_split builds the corpus in this process (one to three minutes): tests/conftest.py marks its tests `slow`.
SLOW_FIXTURES = ("test_split",)


@pytest.fixture(scope="module")
def test_split():
    return corpus.split_corpus(corpus.corpus_pairs())["test"]


def test_every_course_sentence_is_translated_exactly_as_its_reference(translator):
    for pair in corpus.COURSE_SENTENCES:
        if pair.direction in ("both", "en2zh"):
            assert translate_tokens(translator.model, translator.tokenizer, pair.en, "zh") == list(pair.zh_tokens)
        if pair.direction in ("both", "zh2en"):
            assert translate_tokens(translator.model, translator.tokenizer, pair.zh, "en") == list(pair.en_tokens)


def test_the_course_arithmetic_example(translator):
    """The course's slide: "one plus three" is answered with its sum in either language. The expected outputs
    are not what the model happened to print: they are written here from the numbers (1 + 3 = 4, in the
    corpus's number words), and they are the course's own pairs (COURSE_SENTENCES), which the model is trained
    to translate exactly (the triple 1 plus 3 is never held out of training)."""
    x, y = 1, 3
    en_question, zh_question = f"{EN_NUMBERS[x]} plus {EN_NUMBERS[y]}", f"{ZH_NUMBERS[x]}加{ZH_NUMBERS[y]}"
    en_answer, zh_answer = f"{en_question} equals {EN_NUMBERS[x + y]}", f"{zh_question}等于{ZH_NUMBERS[x + y]}"
    course = {(" ".join(p.en_tokens), "".join(p.zh_tokens)) for p in corpus.COURSE_SENTENCES}
    assert {(en_answer, zh_question), (en_answer, zh_answer)} <= course
    assert (x, "plus", y) not in corpus.HELD_OUT_ARITHMETIC
    assert translator.translate(zh_question, "zh2en").output_text.lower().rstrip(".") == en_answer
    assert translator.translate(en_question, "en2zh").output_text == zh_answer


def test_ambiguous_words_get_their_sense_from_context(translator, test_split):
    """The right Chinese sense appears in the output for ≥ 95% of test sentences with an ambiguous word."""
    with_ambiguity = [p for p in test_split if p.ambiguous and p.direction in ("both", "en2zh")]
    assert len(with_ambiguity) >= 100
    outputs = [
        translate_tokens(translator.model, translator.tokenizer, p.en, "zh", beam_width=4) for p in with_ambiguity
    ]
    right = [names_senses(out, p.ambiguous) for p, out in zip(with_ambiguity, outputs)]
    assert sum(right) / len(right) >= 0.95


def test_arithmetic_on_operand_pairs_never_seen_in_training(translator, test_split):
    questions = [p for p in test_split if corpus.is_held_out_arithmetic(p) and p.direction != "both"]
    assert len(questions) >= 30
    right = []
    for p in questions:
        if p.direction == "en2zh":
            right.append(translate_tokens(translator.model, translator.tokenizer, p.en, "zh") == list(p.zh_tokens))
        else:
            right.append(translate_tokens(translator.model, translator.tokenizer, p.zh, "en") == list(p.en_tokens))
    assert sum(right) / len(right) >= 0.9


def test_coreference_names_the_referent_of_it_on_held_out_pairs(translator, test_split):
    """ "… because it was too tired" → 因为它…, "… because it was too wide" → 因为马路…: the translation names
    the same referent as the reference for ≥ 90 % of held-out pairs, both readings present."""
    pairs = [p for p in test_split if p.topic == "coreference" and p.direction in ("both", "en2zh")]
    references = [named_referent(list(p.zh_tokens)) for p in pairs]
    assert len(pairs) >= 50 and "它" in references and len(set(references)) > 2
    outputs = [translate_tokens(translator.model, translator.tokenizer, p.en, "zh", beam_width=4) for p in pairs]
    right = [named_referent(out) == ref for out, ref in zip(outputs, references)]
    assert sum(right) / len(right) >= 0.9


def test_named_referent_reads_what_follows_because():
    assert named_referent(["动物", "没", "过", "马路", "，", "因为", "它", "太", "累", "了", "。"]) == "它"
    assert named_referent(["动物", "没", "过", "马路", "，", "因为", "马路", "太", "宽", "了", "。"]) == "马路"
    assert named_referent(["我", "很", "好", "。"]) == ""


def test_sentences_typed_without_their_final_mark(translator, test_split):
    """People type "I saw a saw" without the full stop: the output is still the reference (its punctuation
    restored by the model, a question still a question) for ≥ 90% of test sentences (the model trained
    without such sources got 78%; it repeated itself or made questions statements)."""
    pairs = [p for p in test_split if p.direction == "both" and p.en.endswith((".", "?", "!"))][:150]
    right = [
        translate_tokens(translator.model, translator.tokenizer, p.en[:-1].rstrip(), "zh", beam_width=4)
        == list(p.zh_tokens)
        for p in pairs
    ]
    assert len(pairs) == 150 and sum(right) / len(right) >= 0.9


def test_translation_reports_unknown_words_and_cuts(translator):
    result = translator.translate("I saw a qwzxv", "en2zh")
    assert result.source.unknown_words == ["qwzxv"]
    long = translator.translate("apple " * 100, "en2zh")
    assert long.source.truncated and long.source.original_length == 100
    assert len(long.source.tokens) == translator.config.max_len


def test_translation_trace_is_the_output(translator):
    result = translator.translate("I saw a saw.", "en2zh")
    assert result.trace.predicted_tokens[:-1] == result.output_tokens
    assert result.trace.source_tokens == result.source.tokens
    best = result.record.best_path_nodes()
    np.testing.assert_allclose(result.trace.chosen_token_probs, [c.prob for c in best], atol=1e-5)


def test_one_encoder_pass_serves_the_search_and_the_trace(translator):
    """translate runs the encoder once for both; the search and the trace are those of separate passes."""
    from viz_model.model.trace import build_trace

    text, direction = "The students are listening to the teacher.", "en2zh"
    result = translator.translate(text, direction)
    assert result.record == translator.search(text, direction)
    alone = build_trace(
        translator.model,
        translator.tokenizer,
        result.source.ids,
        translator.tokenizer.ids(result.output_tokens),
        result.source.labels,
    )
    config = translator.config
    for kind in ("encoder_self", "decoder_self", "cross"):
        for layer in range(config.n_encoder_layers if kind == "encoder_self" else config.n_decoder_layers):
            shared, separate = result.trace.attention(kind, layer), alone.attention(kind, layer)
            np.testing.assert_array_equal(shared.weights, separate.weights)
    np.testing.assert_array_equal(result.trace.encoder_output, alone.encoder_output)
    np.testing.assert_array_equal(result.trace.next_token_probs, alone.next_token_probs)
    # a pass over another sentence is refused, not silently used
    other = translator.encode("I saw a saw.", direction).ids
    with torch.inference_mode():
        encoded = translator.model.encode(torch.tensor([other]), record=True)
    with pytest.raises(ValueError, match="encoded"):
        build_trace(translator.model, translator.tokenizer, result.source.ids, [], encoded=encoded)
    with pytest.raises(ValueError, match="encoded"):
        beam_search(translator.model, translator.tokenizer, result.source.ids, encoded=encoded[:2])


def test_greedy_is_beam_width_one(translator):
    source = translator.encode("please buy an apple and an orange", "en2zh")
    greedy = greedy_search(translator.model, translator.tokenizer, source.ids)
    beam1 = translator.translate(
        "please buy an apple and an orange", "en2zh", SearchSettings(beam_width=1, length_penalty=0.0)
    )
    assert greedy.hypotheses[0].tokens[:-1] == beam1.output_tokens
    assert all(len([c for c in s.candidates if c.status != "pruned"]) == 1 for s in greedy.steps)


def test_directions_fall_back_and_are_suggested():
    assert normalise_direction("xx") == "en2zh" and normalise_direction("zh2en") == "zh2en"
    assert suggested_direction("我看见了") == "zh2en" and suggested_direction("I saw") == "en2zh"


def _cli(*args):
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.slow  # three fresh interpreters load torch and the model (~10 s)
def test_translate_command_line(translator):
    done = _cli("viz_model.training.translate", "I saw a saw", "--to", "zh", "--beam", "4")
    assert done.returncode == 0
    assert done.stdout.strip() == translator.translate("I saw a saw", "en2zh", SearchSettings(beam_width=4)).output_text
    unknown = _cli("viz_model.training.translate", "I saw a qwzxv")
    assert "qwzxv" in unknown.stderr
    empty = _cli("viz_model.training.translate", "   ")
    assert empty.returncode == 1 and "nothing to translate" in empty.stderr


@pytest.mark.slow  # a fresh interpreter loads torch (~5 s)
def test_translate_command_line_names_a_broken_checkpoint(tmp_path):
    code = (
        "import sys; from viz_model.model import checkpoint; from viz_model.training import translate; "
        f"checkpoint.MODEL_DIR = __import__('pathlib').Path({str(tmp_path)!r}); "
        "sys.exit(translate.main(['I saw a saw']))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "checkpoint" in done.stderr or "model_card.json" in done.stderr
    assert RESTORE_COMMAND in done.stderr


def test_model_card_reports_the_bars(translator):
    card = translator.card
    evaluation = card["evaluation"]
    assert evaluation["test_bleu_en2zh"] >= 95 and evaluation["test_bleu_zh2en"] >= 95
    assert card["parameters"] == translator.model.num_parameters()
    assert card["norm_placement"].startswith("post-LN") == (not translator.config.norm_first)
    json.dumps(card)  # the card is plain JSON


def test_unknown_words_keep_their_typed_spelling_in_chart_labels(translator):
    result = translator.translate("I saw a qwertyzebra", "en2zh")
    assert "<unk>" in result.trace.source_tokens  # what the model reads
    rows, cols = result.trace.axis_tokens("encoder_self")
    assert "qwertyzebra→<unk>" in rows and rows == cols  # what every chart shows
    assert "qwertyzebra→<unk>" in result.trace.axis_tokens("cross")[1]
    assert len(rows) == len(result.trace.source_tokens)


def test_names_senses_reads_senses_inside_words_and_rejects_a_wrong_one():
    assert names_senses(["她", "晚上", "打乒乓球", "。"], [("play", "打")])  # jieba keeps 打乒乓球 whole
    assert not names_senses(["她", "晚上", "踢足球", "。"], [("play", "打")])
    assert not names_senses(["我", "买", "了", "一只", "蝙蝠", "和", "球拍"], [("bat", "球拍")])  # both: not given
    assert names_senses(["我", "看见", "了", "一把", "锯子"], [("saw", "看见"), ("saw", "锯子")])  # "I saw a saw"
    assert not names_senses(["我", "看见", "了", "一把", "锯子"], [("saw", "锯子")])
    assert names_senses(["河岸", "很", "美"], [("bank", "河岸")])
