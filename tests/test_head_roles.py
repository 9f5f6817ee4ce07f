"""Head roles: constructed weight matrices with a known pattern get that role; the shipped model's heads each
get exactly one role; its first encoder layer parks on the direction tag, as `attention_sink` also says."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from viz_model.lessons.attention_notes import attention_sink
from viz_model.lessons.head_notes import load_reference_sentences, look_for_line, usual_roles
from viz_model.lessons.head_roles import (
    LEXICON_FILE,
    ROLES,
    RULES,
    THRESHOLDS,
    HeadRole,
    head_role,
    head_roles,
    minilm_head_roles,
)
from viz_model.model.trace import ATTENTION_KINDS
from viz_model.model.translator import Translator

WORDS = ["<2zh>", "i", "like", "my", "new", "book", "very", "much", ".", "<eos>"]
T = len(WORDS)


def _role(W, kind="encoder_self", query=WORDS, keys=WORDS, mask=None, outputs=None) -> HeadRole:
    return head_role(W, kind, 0, 0, query, keys, mask, outputs)


# ---- constructed matrices --------------------------------------------------------------------------------


def test_thresholds_cover_every_role_and_lie_in_0_1():
    assert set(THRESHOLDS) == set(ROLES) - {"unlabelled"}
    assert all(0 < t <= 1 for t in THRESHOLDS.values())


def test_previous_token_matrix_is_previous():
    W = np.eye(T, k=-1)
    W[0, 0] = 1.0  # row 0 has no previous token: on itself
    r = _role(W)
    assert (r.role, r.rule) == ("previous", "previous")
    assert r.score == pytest.approx(1.0)


def test_next_token_matrix_is_next():
    W = np.eye(T, k=1)
    W[-1, -1] = 1.0
    assert _role(W).role == "next"


def test_uniform_matrix_is_broad():
    r = _role(np.full((T, T), 1 / T))
    assert r.role == "broad" and r.score == pytest.approx(1.0)


def test_one_hot_column_on_the_tag_parks_with_score_1():
    W = np.zeros((T, T))
    W[:, 0] = 1.0
    r = _role(W)
    assert (r.role, r.rule, r.score) == ("parks", "parks_tag", pytest.approx(1.0))
    assert r.detail["token"] == "<2zh>" and r.detail["position"] == 0


def test_parking_on_final_punctuation_is_named_so():
    W = np.zeros((T, T))
    W[:, WORDS.index(".")] = 0.8
    W[:, 1] = 0.2
    r = _role(W)
    assert (r.role, r.rule, r.detail["token"]) == ("parks", "parks_punct", ".")
    assert r.score == pytest.approx(0.8)


def test_identity_is_self():
    r = _role(np.eye(T))
    assert r.role == "self" and r.score == pytest.approx(1.0)


@pytest.mark.parametrize("seed", range(5))
def test_random_moderately_concentrated_rows_are_unlabelled(seed):
    W = np.random.default_rng(seed).dirichlet(np.full(T, 0.5), size=T)
    r = _role(W)
    assert r.role == "unlabelled" and r.rule == "unlabelled"
    assert 0 <= r.score < 1  # the best score / threshold it reached: short of every role
    assert r.detail["closest"] in ROLES


def test_decoder_causal_rows_judge_only_rows_with_a_choice():
    """Decoder row 0 may only see <bos>: its forced 1.0 must not make a previous-token head look like self."""
    tokens = ["<bos>", "我", "喜欢", "书", "。"]
    n = len(tokens)
    mask = np.tril(np.ones((n, n), dtype=bool))
    W = np.eye(n, k=-1)
    W[0, 0] = 1.0
    r = _role(W, "decoder_self", tokens, tokens, mask)
    assert r.role == "previous" and r.score == pytest.approx(1.0)
    assert "next" not in r.scores  # no row may see the next token
    assert r.scores["self"] == pytest.approx(0.0)


def _lexicon_nouns(n: int) -> list[tuple[str, str]]:
    """The first n noun pairs of the shipped lexicon file, read here without the module's loader."""
    with open(LEXICON_FILE, encoding="utf-8", newline="") as handle:
        rows = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        return [(r["english"], r["chinese"]) for r in rows if r["part_of_speech"] == "noun"][:n]


def _cross(sources: list[str], rows_to: list[int], on: float = 0.9) -> np.ndarray:
    W = np.full((len(rows_to), len(sources)), (1 - on) / (len(sources) - 1))
    for i, j in enumerate(rows_to):
        W[i, j] = on
    return W


def test_cross_rows_on_the_words_they_translate_are_aligned():
    (e1, z1), (e2, z2) = _lexicon_nouns(2)
    sources = ["<2en>", z1, "和", z2, "。", "<eos>"]
    outputs = [e2, "and", e1, "."]  # reversed order: not monotone, only aligned can explain it
    W = _cross(sources, [3, 2, 1, 4])
    r = _role(W, "cross", ["<bos>", *outputs[:-1]], sources, outputs=outputs)
    assert r.role == "aligned" and r.score == pytest.approx(0.9)
    assert {"previous", "next", "self", "pronoun"}.isdisjoint(r.scores)  # no positional roles in cross
    wrong = _role(_cross(sources, [1, 2, 3, 4]), "cross", ["<bos>", *outputs[:-1]], sources, outputs=outputs)
    assert wrong.scores["aligned"] < THRESHOLDS["aligned"]  # 0.9 on the other noun: not aligned


def test_monotone_diagonal_cross_is_monotone_and_a_reversed_one_is_not():
    sources = ["<2en>", "x1", "x2", "x3", "x4", "x5", "<eos>"]  # words the lexicon does not know
    outputs = ["y1", "y2", "y3", "y4", "y5", "<eos>"]
    forward = _role(_cross(sources, [1, 2, 3, 4, 5, 6], 0.8), "cross", outputs, sources, outputs=outputs)
    assert forward.role in ("monotone", "aligned")
    assert forward.scores["monotone"] == pytest.approx(1.0)
    assert forward.detail["path"] == ["x1", "x2", "x3", "x4", "x5"]  # the row on <eos> is left out
    backward = _role(_cross(sources, [5, 4, 3, 2, 1, 6], 0.8), "cross", outputs, sources, outputs=outputs)
    assert backward.role != "monotone" and backward.scores["monotone"] == pytest.approx(0.0)


def test_pronoun_row_on_a_noun_is_pronoun_and_on_an_adjective_is_not():
    tokens = ["<2zh>", "the", "cat", "sat", "because", "it", "was", "tired", ".", "<eos>"]
    n, it = len(tokens), tokens.index("it")
    W = np.full((n, n), 1 / n)
    W[it] = 0.2 / (n - 1)
    W[it, tokens.index("cat")] = 0.8
    r = _role(W, "encoder_self", tokens, tokens)
    assert r.role == "pronoun" and r.score == pytest.approx(0.8)
    assert (r.detail["pronoun"], r.detail["noun"]) == ("it", "cat")
    W[it] = W[it, ::-1].copy()  # now 0.8 on position n-1-2 = "tired"
    assert tokens[n - 1 - tokens.index("cat")] == "tired"
    assert _role(W, "encoder_self", tokens, tokens).scores["pronoun"] < THRESHOLDS["pronoun"]


def test_minilm_head_with_all_weight_on_sep_parks():
    labels = ["[CLS]", "the", "cat", "sat", "down", ".", "[SEP]"]
    L, H, n = 2, 3, len(labels)
    weights = np.random.default_rng(0).dirichlet(np.full(n, 0.5), size=(L, H, n))  # (L, H, T, T)
    weights[1, 2] = 0.0
    weights[1, 2, :, -1] = 1.0
    roles = minilm_head_roles(weights, labels)
    assert len(roles) == L * H and all(r.kind == "minilm" for r in roles)
    sep = next(r for r in roles if (r.layer, r.head) == (1, 2))
    assert (sep.role, sep.rule, sep.detail["token"], sep.score) == ("parks", "parks_sep", "[SEP]", pytest.approx(1))
    assert all({"aligned", "monotone"}.isdisjoint(r.scores) for r in roles)


def test_look_for_line_top_key_matches_a_hand_computation():
    rng = np.random.default_rng(3)
    weights = rng.dirichlet(np.full(T, 0.7), size=(4, T))  # (H, Tq, Tk)
    weights[1:, :, 0] += 2.0  # heads 1-3 park on the tag
    weights /= weights.sum(-1, keepdims=True)
    roles = [head_role(weights[h], "encoder_self", 0, h, WORDS, WORDS) for h in range(4)]
    for h in range(4):
        line = look_for_line(weights, h, roles, WORDS, WORDS)
        column_share = [sum(weights[h, i, j] for i in range(T)) / T for j in range(T)]
        j = int(np.argmax(column_share))
        assert (line["top_key"], line["top_key_position"]) == (WORDS[j], j)
        assert line["top_key_share"] == pytest.approx(column_share[j])
        assert (line["role"], line["score"]) == (roles[h].role, roles[h].score)
    assert line["tag"] == "<2zh>" and line["n_heads"] == 4
    assert line["heads_parked_on_tag"] == sum(r.rule == "parks_tag" for r in roles) == 3


# ---- the shipped model -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def translator():
    return Translator.load()


@pytest.fixture(scope="module")
def reference_traces(translator):
    return [translator.translate(text, direction).trace for text, direction in load_reference_sentences()]


def test_reference_sentences_are_half_english_half_chinese():
    sentences = load_reference_sentences()
    directions = [d for _, d in sentences]
    assert 12 <= len(sentences) <= 20
    assert directions.count("en2zh") == directions.count("zh2en") == len(sentences) // 2
    assert any(w in {"it", "he", "she", "they"} for text, _ in sentences for w in text.lower().split())


def test_every_head_gets_exactly_one_role(translator):
    trace = translator.translate("The cat is sleeping on the bed.", "en2zh").trace
    roles = head_roles(trace)
    expected = sum(np.prod(trace.attention_stack(kind).shape[:2]) for kind in ATTENTION_KINDS)  # layers × heads
    assert len(roles) == expected
    keys = [(r.kind, r.layer, r.head) for r in roles]
    assert len(set(keys)) == len(keys)
    for r in roles:
        assert r.role in ROLES and r.rule in RULES
        assert 0.0 <= r.score <= 1.0
        if r.kind == "cross":
            assert {"previous", "next", "self"}.isdisjoint(r.scores)


def test_first_encoder_layer_parks_on_the_tag_as_attention_sink_says(reference_traces):
    for trace in reference_traces:
        tag = trace.source_labels[0]
        layer0 = [r for r in head_roles(trace) if (r.kind, r.layer) == ("encoder_self", 0)]
        on_tag = [r for r in layer0 if r.rule == "parks_tag"]
        assert all(r.detail["token"] == tag for r in on_tag)
        assert len(on_tag) > len(layer0) / 2, trace.source_labels  # most heads, in every reference sentence
    # The layer note's own measure, on one sentence: the same token, and at least these heads.
    trace = reference_traces[0]
    attention = trace.attention("encoder_self", 0)
    sink = attention_sink(attention.weights, trace.source_labels, attention.mask)
    on_tag = [r for r in head_roles(trace) if (r.kind, r.layer, r.rule) == ("encoder_self", 0, "parks_tag")]
    assert sink is not None and sink.token == trace.source_labels[0]
    assert len(on_tag) <= sink.heads
    for r in on_tag:  # per head, the sink's mean weight on the tag is the role's score
        one = attention_sink(attention.weights[r.head : r.head + 1], trace.source_labels, attention.mask)
        assert one.token == sink.token and one.mean_weight == pytest.approx(r.score, abs=1e-6)
    line = look_for_line(attention, 0, head_roles(trace), *trace.axis_tokens("encoder_self"))
    assert line["heads_parked_on_tag"] == len(on_tag) and line["tag"] == sink.token


def test_usual_roles_give_each_head_its_most_frequent_role(translator, reference_traces):
    usual = usual_roles(translator)
    per_sentence = [head_roles(trace) for trace in reference_traces]
    assert set(usual) == {(r.kind, r.layer, r.head) for r in per_sentence[0]}
    for (kind, layer, head), (role, share) in usual.items():
        seen = [r.role for roles in per_sentence for r in roles if (r.kind, r.layer, r.head) == (kind, layer, head)]
        assert share == pytest.approx(seen.count(role) / len(seen))
        assert all(seen.count(other) <= seen.count(role) for other in set(seen))
    first = [usual[("encoder_self", 0, h)][0] for h in range(translator.config.n_heads)]
    assert first.count("parks") > len(first) / 2


def test_look_for_line_on_a_model_trace_matches_numpy(reference_traces):
    trace = reference_traces[-1]
    roles = head_roles(trace)
    attention = trace.attention("cross", 1)
    queries, keys = trace.axis_tokens("cross")
    for h in range(attention.n_heads):
        line = look_for_line(attention, h, roles, queries, keys)
        share = attention.weights[h].sum(axis=0) / attention.weights.shape[1]
        assert line["top_key"] == keys[int(share.argmax())]
        assert line["top_key_share"] == pytest.approx(float(share.max()), abs=1e-6)
        assert (line["kind"], line["layer"], line["head"]) == ("cross", 1, h)
