"""The trace is the computation: checked against torch's own attention and by recombining its parts."""

import math

import numpy as np
import pytest
import torch

from viz_model.model.config import ModelConfig
from viz_model.model.decoding import beam_search, greedy_batch, greedy_search, score_target
from viz_model.model.tokenizer import SPECIAL_TOKENS, Tokenizer, token_language
from viz_model.model.trace import build_trace
from viz_model.model.transformer import MultiHeadAttention, Transformer, causal_mask

WORDS = ["i", "saw", "a", "saw", "an", "apple", "我", "看见", "了", "锯子", "一", "把", "。", "."]


@pytest.fixture(scope="module", params=[False, True], ids=["post-LN", "pre-LN"])
def tiny(request):
    torch.manual_seed(0)
    tokenizer = Tokenizer(list(SPECIAL_TOKENS) + sorted(set(WORDS)))
    config = ModelConfig(
        vocab_size=len(tokenizer),
        d_model=16,
        n_heads=4,
        n_encoder_layers=2,
        n_decoder_layers=2,
        d_ff=32,
        max_len=12,
        norm_first=request.param,
    )
    model = Transformer(config).eval()
    return model, tokenizer


def test_multi_head_attention_equals_torch_module():
    torch.manual_seed(1)
    config = ModelConfig(vocab_size=10, d_model=32, n_heads=4, dropout=0.0)
    ours = MultiHeadAttention(config).eval()
    reference = torch.nn.MultiheadAttention(32, 4, batch_first=True).eval()
    with torch.no_grad():
        reference.in_proj_weight.copy_(torch.cat([ours.w_q.weight, ours.w_k.weight, ours.w_v.weight]))
        reference.in_proj_bias.copy_(torch.cat([ours.w_q.bias, ours.w_k.bias, ours.w_v.bias]))
        reference.out_proj.weight.copy_(ours.w_o.weight)
        reference.out_proj.bias.copy_(ours.w_o.bias)
    x_q, x_kv = torch.randn(2, 5, 32), torch.randn(2, 7, 32)
    out, _ = ours(x_q, x_kv)
    expected, _ = reference(x_q, x_kv, x_kv)
    torch.testing.assert_close(out, expected, atol=1e-5, rtol=0)

    # Causal self-attention: torch's attn_mask marks *forbidden* positions with True.
    x = torch.randn(2, 6, 32)
    out, rec = ours(x, x, causal_mask(6)[None, None], record=True)
    expected, expected_weights = reference(x, x, x, attn_mask=~causal_mask(6), average_attn_weights=False)
    torch.testing.assert_close(out, expected, atol=1e-5, rtol=0)
    torch.testing.assert_close(rec["weights"], expected_weights, atol=1e-5, rtol=0)


def _trace(model, tokenizer):
    source = tokenizer.encode_source("I saw a saw.", "zh", model.config.max_len)
    target = tokenizer.ids(["我", "看见", "了", "一", "把", "锯子", "。"])
    return build_trace(model, tokenizer, source.ids, target)


def test_recombining_the_trace_reproduces_every_attention_output(tiny):
    model, tokenizer = tiny
    trace = _trace(model, tokenizer)
    blocks = {"encoder_self": model.encoder_layers, "decoder_self": model.decoder_layers}
    for kind in ("encoder_self", "decoder_self", "cross"):
        for layer in range(2):
            att = trace.attention(kind, layer)
            module = (
                model.decoder_layers[layer].cross_attention if kind == "cross" else blocks[kind][layer].self_attention
            )
            W = {n: getattr(module, n).weight.detach().numpy().T for n in ("w_q", "w_k", "w_v", "w_o")}
            b = {n: getattr(module, n).bias.detach().numpy() for n in ("w_q", "w_k", "w_v", "w_o")}
            H, d_k = att.n_heads, model.config.d_head
            q = (att.query_input @ W["w_q"] + b["w_q"]).reshape(-1, H, d_k).transpose(1, 0, 2)
            k = (att.key_value_input @ W["w_k"] + b["w_k"]).reshape(-1, H, d_k).transpose(1, 0, 2)
            v = (att.key_value_input @ W["w_v"] + b["w_v"]).reshape(-1, H, d_k).transpose(1, 0, 2)
            np.testing.assert_allclose(q, att.q, atol=1e-5)
            scores = q @ k.transpose(0, 2, 1) / math.sqrt(d_k) + np.where(att.mask, 0.0, -np.inf)
            weights = np.exp(scores - scores.max(-1, keepdims=True))
            weights /= weights.sum(-1, keepdims=True)
            np.testing.assert_allclose(weights, att.weights, atol=1e-5)
            concat = (weights @ v).transpose(1, 0, 2).reshape(len(att.query_input), -1)
            np.testing.assert_allclose(concat, att.concat, atol=1e-5)
            np.testing.assert_allclose(concat @ W["w_o"] + b["w_o"], att.output, atol=1e-5)


def test_the_trace_chains_into_the_residual_stream(tiny):
    model, tokenizer = tiny
    trace = _trace(model, tokenizer)
    # The encoder's first layer reads the embedding·√d + PE that the trace reports.
    np.testing.assert_allclose(trace.encoder_layers[0].sublayers["self_attention"].input, trace.source_input, atol=1e-5)
    for i in range(1, 2):
        np.testing.assert_allclose(
            trace.encoder_layers[i].sublayers["self_attention"].input, trace.encoder_layers[i - 1].output, atol=1e-6
        )
    # Cross-attention keys and values are the encoder output.
    np.testing.assert_allclose(trace.attention("cross", 1).key_value_input, trace.encoder_output, atol=1e-6)
    sub = trace.encoder_layers[0].sublayers["self_attention"]
    np.testing.assert_allclose(sub.sublayer_output, trace.attention("encoder_self", 0).output, atol=1e-6)


def test_attention_rows_sum_to_one_and_masked_entries_are_exactly_zero(tiny):
    model, tokenizer = tiny
    trace = _trace(model, tokenizer)
    for kind in ("encoder_self", "decoder_self", "cross"):
        stack = trace.attention_stack(kind)
        np.testing.assert_allclose(stack.sum(-1), 1.0, atol=1e-5)
    self_att = trace.attention("decoder_self", 0)
    T = len(trace.target_tokens)
    assert self_att.weights.shape == (4, T, T)
    assert (self_att.mask == np.tril(np.ones((T, T), dtype=bool))).all()
    assert (self_att.weights[:, ~self_att.mask] == 0.0).all()  # exactly, not approximately
    assert trace.attention("cross", 0).weights.shape == (4, T, len(trace.source_tokens))


def test_trace_probabilities_are_the_ones_the_search_used(tiny):
    model, tokenizer = tiny
    source = tokenizer.encode_source("I saw a saw.", "zh", model.config.max_len)
    record = greedy_search(model, tokenizer, source.ids, max_len=6)
    best = record.hypotheses[0]
    generated = [t for t in best.tokens if t != "<eos>"]
    trace = build_trace(model, tokenizer, source.ids, tokenizer.ids(generated))
    path = record.best_path_nodes()
    path_probs = [c.prob for c in path]
    n = len(path)
    np.testing.assert_allclose(trace.chosen_token_probs[:n], path_probs, atol=1e-5)
    # Greedy means: each chosen token is the arg-max of the distribution at its position, among the words
    # of the target language (the source language's words are never written).
    chosen = tokenizer.ids([c.token for c in path])
    writable = trace.next_token_probs[:n].copy()
    writable[:, tokenizer.foreign_ids(source.ids[0])] = -1.0
    assert list(writable.argmax(-1)) == chosen
    # Teacher-forced scoring of the same output agrees with the search's cumulative log-probability.
    score = score_target(model, tokenizer, source.ids, tokenizer.ids(generated))
    if best.finished:
        assert score.log_prob == pytest.approx(best.log_prob, abs=1e-4)


def test_beam_search_record_is_consistent(tiny):
    model, tokenizer = tiny
    source = tokenizer.encode_source("an apple", "zh", model.config.max_len)
    record = beam_search(model, tokenizer, source.ids, beam_width=3, max_len=5, length_penalty=0.75)
    for step in record.steps:
        kept = [c for c in step.candidates if c.status in ("kept", "finished")]
        assert len(kept) <= 3
        best_pruned = max((c.cumulative_log_prob for c in step.candidates if c.status == "pruned"), default=-math.inf)
        assert all(c.cumulative_log_prob >= best_pruned - 1e-9 for c in kept)
        for c in step.candidates:
            assert c.score == pytest.approx(c.cumulative_log_prob / c.length**0.75)
            if c.parent is not None:
                assert record.node(c.parent).status == "kept"
    scores = [h.score for h in record.hypotheses]
    assert scores == sorted(scores, reverse=True)
    # The search's cumulative log P for each hypothesis equals teacher-forced scoring of it.
    for h in record.hypotheses:
        gen = [t for t in h.tokens if t != "<eos>"]
        if h.finished:
            assert score_target(model, tokenizer, source.ids, tokenizer.ids(gen)).log_prob == pytest.approx(
                h.log_prob, abs=1e-4
            )


def test_one_token_decoding_equals_the_full_decoder(tiny):
    """decode_step (cached keys and values, what beam search runs) gives the full decoder's logits."""
    model, tokenizer = tiny
    torch.manual_seed(2)
    source = torch.tensor([tokenizer.encode_source("I saw a saw.", "zh", model.config.max_len).ids])
    memory, source_allowed, _ = model.encode(source)
    targets = torch.randint(len(SPECIAL_TOKENS), len(tokenizer), (3, model.config.max_len))  # 3 beams
    targets[:, 0] = tokenizer.bos_id
    memory_kv, past = model.memory_keys_values(memory), None
    with torch.no_grad():
        full, _ = model.decode(targets, memory.expand(3, -1, -1), source_allowed.expand(3, -1, -1, -1))
        for t in range(model.config.max_len):
            logits, past = model.decode_step(targets[:, t], memory_kv, source_allowed, past)
            torch.testing.assert_close(logits, full[:, t], atol=1e-5, rtol=1e-5)
        with pytest.raises(ValueError, match="max_len"):
            model.decode_step(targets[:, 0], memory_kv, source_allowed, past)


def test_the_inference_copy_of_the_output_matrix_follows_the_tied_embedding(tiny):
    """Inference multiplies by a contiguous copy of Eᵀ (faster on one core); it gives the training path's
    logits (Eᵀ as a view of the weight, which gradients reach) and is remade when the weights change."""
    model, tokenizer = tiny
    source = torch.tensor([tokenizer.encode_source("I saw a saw.", "zh", model.config.max_len).ids])
    target = torch.tensor([[tokenizer.bos_id] + tokenizer.ids(["我", "看见"])])

    def logits(grad: bool) -> torch.Tensor:
        with torch.set_grad_enabled(grad):
            memory, source_allowed, _ = model.encode(source)
            return model.decode(target, memory, source_allowed)[0].detach()

    torch.testing.assert_close(logits(False), logits(True), atol=1e-5, rtol=1e-5)
    original = model.embedding.weight.detach().clone()
    try:
        with torch.no_grad():
            model.embedding.weight.mul_(0.5)  # an in-place change, as an optimizer step or a load makes
        torch.testing.assert_close(logits(False), logits(True), atol=1e-5, rtol=1e-5)
    finally:
        with torch.no_grad():
            model.embedding.weight.copy_(original)


def test_every_candidate_the_search_scored_has_the_full_decoders_probability(tiny):
    """Kept, pruned and finished alike: each candidate's ln p is the teacher-forced decoder's for its prefix."""
    model, tokenizer = tiny
    source = tokenizer.encode_source("an apple", "zh", model.config.max_len)
    record = beam_search(model, tokenizer, source.ids, beam_width=3, max_len=6)
    memory, source_allowed, _ = model.encode(torch.tensor([source.ids]))

    def prefix(node):
        tokens = []
        while node is not None:
            candidate = record.node(node)
            tokens.insert(0, candidate.token)
            node = candidate.parent
        return tokens

    with torch.no_grad():
        for step in record.steps:
            for c in step.candidates:
                before = prefix(c.parent)
                ids = torch.tensor([[tokenizer.bos_id] + tokenizer.ids(before)])
                logits, _ = model.decode(ids, memory, source_allowed)
                expected = logits[0, -1].log_softmax(-1)[tokenizer.ids([c.token])[0]].item()
                assert c.log_prob == pytest.approx(expected, abs=1e-5)


@pytest.mark.parametrize("target", ["zh", "en"])
def test_searches_never_write_the_source_language(tiny, target):
    """A random model scores English and Chinese words alike; the searches still write only the target
    language (and shared marks), with the model's own, unrenormalised probabilities."""
    model, tokenizer = tiny
    foreign = set(tokenizer.foreign_ids(tokenizer.token_to_id["<2zh>" if target == "zh" else "<2en>"]))
    other = "en" if target == "zh" else "zh"
    assert foreign == {i for i, t in enumerate(tokenizer.vocab) if token_language(t) == other}
    assert foreign and all(token_language(t) != target for t in tokenizer.tokens(foreign))
    unconstrained_foreign = {}
    for text in ("I saw a saw.", "an apple", "我看见了一把锯子。"):
        source = tokenizer.encode_source(text, target, model.config.max_len)
        record = beam_search(model, tokenizer, source.ids, beam_width=3, max_len=6)
        written = {tokenizer.token_to_id[c.token] for step in record.steps for c in step.candidates}
        assert not written & foreign
        # Without the rule the random model would have proposed such words at the first step.
        memory, allowed, _ = model.encode(torch.tensor([source.ids]))
        first = model.decode(torch.tensor([[tokenizer.bos_id]]), memory, allowed)[0][0, -1]
        unconstrained_foreign[text] = set(first.topk(3).indices.tolist()) & foreign
        probs = first.softmax(-1)
        for c in record.steps[0].candidates:
            assert c.prob == pytest.approx(probs[tokenizer.token_to_id[c.token]].item(), abs=1e-6)
        greedy = greedy_batch(model, tokenizer, [source.ids], max_len=6)[0]
        assert not set(greedy) & foreign
    assert any(unconstrained_foreign.values())


def test_forced_prefix_is_followed(tiny):
    model, tokenizer = tiny
    source = tokenizer.encode_source("I saw a saw.", "zh", model.config.max_len)
    prefix = tokenizer.ids(["锯子", "了"])
    record = beam_search(model, tokenizer, source.ids, beam_width=2, max_len=6, prefix=prefix)
    assert record.hypotheses
    for h in record.hypotheses:
        assert h.tokens[:2] == ["锯子", "了"]


def test_one_embedding_table_serves_source_target_and_output(tiny):
    model, _ = tiny
    embeddings = [m for m in model.modules() if isinstance(m, torch.nn.Embedding)]
    assert len(embeddings) == 1
