"""The Home page's model card, read from the card saved with the checkpoint (never hard-coded: the shipped
model is retrained)."""

from __future__ import annotations


def model_card_rows(card: dict) -> list[tuple[str, str | None]]:
    """(field, value) for the Home page's model card, read from the card, never hard-coded, since the shipped
    model is retrained. Values are written as shown (thousands separated, scores to one decimal); None when
    the card does not have them. The field "norm" is "pre" or "post" (where LayerNorm sits). The page names
    each field in the interface language."""
    config = card.get("config", {})
    evaluation = card.get("evaluation", {})
    training = card.get("training", {})

    def number(value, digits=0) -> str | None:
        if value is None:
            return None
        return f"{value:,.{digits}f}" if isinstance(value, (int, float)) else str(value)

    return [
        ("layers", f"{config.get('n_encoder_layers', '?')} + {config.get('n_decoder_layers', '?')}"),
        ("heads", number(config.get("n_heads"))),
        ("d_model", number(config.get("d_model"))),
        ("d_ff", number(config.get("d_ff"))),
        ("parameters", number(card.get("parameters"))),
        ("vocabulary", number(card.get("vocabulary_size", config.get("vocab_size")))),
        ("max_len", number(config.get("max_len"))),
        ("training", number(card.get("corpus", {}).get("train") or training.get("examples"))),
        ("bleu_en2zh", number(evaluation.get("test_bleu_en2zh"), 1)),
        ("bleu_zh2en", number(evaluation.get("test_bleu_zh2en"), 1)),
        ("everyday_chrf_en2zh", number(evaluation.get("everyday_chrf_en2zh"), 1)),
        ("everyday_chrf_zh2en", number(evaluation.get("everyday_chrf_zh2en"), 1)),
        ("everyday_chrf_all_references_en2zh", number(evaluation.get("everyday_chrf_all_references_en2zh"), 1)),
        ("everyday_chrf_all_references_zh2en", number(evaluation.get("everyday_chrf_all_references_zh2en"), 1)),
        ("everyday_coverage", number(_mean_percent(evaluation, "everyday_coverage"), 0)),
        ("classics", _both_ways(evaluation, "classics_exact")),
        ("coreference_by_kind", number(_percent(evaluation.get("coreference_by_kind_referent_accuracy")), 0)),
        ("norm", "pre" if config.get("norm_first") else "post"),
    ]


def _both_ways(evaluation: dict, prefix: str) -> str | None:
    """ "232/232 · 231/232": a count in each direction (English → Chinese first); None when not measured."""
    values = [evaluation.get(f"{prefix}_{d}") for d in ("en2zh", "zh2en")]
    return None if None in values else " · ".join(values)


def _percent(share: float | None) -> float | None:
    return None if share is None else 100 * share


def _mean_percent(evaluation: dict, prefix: str) -> float | None:
    """Mean over both directions of a share, in percent; None when not measured."""
    values = [evaluation.get(f"{prefix}_{d}") for d in ("en2zh", "zh2en")]
    return None if None in values else 50 * (values[0] + values[1])


def pretrained_card_rows(config: dict, parameters: int | None, tokenizer: str | None) -> list[tuple[str, str | None]]:
    """(field, value) for the Home page's card of the pretrained encoder (MiniLM) picked in the sidebar, read
    from its Hugging Face config (a dict), its parameter count and its tokenizer's kind ("WordPiece"), never
    hard-coded: the tests load a tiny random BERT in its place. None where the model does not say."""

    def number(value) -> str | None:
        return f"{value:,}" if isinstance(value, int) else None

    architectures = config.get("architectures") or []
    return [
        ("architecture", architectures[0] if architectures else config.get("model_type")),
        ("layers", number(config.get("num_hidden_layers"))),
        ("heads", number(config.get("num_attention_heads"))),
        ("hidden", number(config.get("hidden_size"))),
        ("d_ff", number(config.get("intermediate_size"))),
        ("parameters", number(parameters)),
        ("tokenizer", tokenizer),
        ("vocabulary", number(config.get("vocab_size"))),
        ("max_len", number(config.get("max_position_embeddings"))),
    ]


def encoder_facts(encoder) -> tuple[dict, int, str | None]:
    """(config as a dict, parameter count, tokenizer kind) of a loaded `PretrainedEncoder`: what
    `pretrained_card_rows` reads."""
    backend = getattr(encoder.tokenizer, "backend_tokenizer", None)
    kind = type(backend.model).__name__ if backend is not None else None
    parameters = sum(p.numel() for p in encoder.model.parameters())
    return encoder.config.to_dict(), int(parameters), kind
