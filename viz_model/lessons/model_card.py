"""The Home page's model card, read from the card saved with the checkpoint (never hard-coded: the shipped
model is retrained)."""
from __future__ import annotations


def model_card_rows(card: dict) -> list[tuple[str, object]]:
    """(catalogue key under "home.", value) for the Home page's model card; read from the card, never
    hard-coded, since the shipped model is retrained. Missing entries become "not_measured"."""
    config = card.get("config", {})
    evaluation = card.get("evaluation", {})
    training = card.get("training", {})

    def number(value, digits=0):
        if value is None:
            return "not_measured"
        return f"{value:,.{digits}f}" if isinstance(value, (int, float)) else str(value)

    norm = "norm_pre" if config.get("norm_first") else "norm_post"
    return [
        ("card_layers", f"{config.get('n_encoder_layers', '?')} + {config.get('n_decoder_layers', '?')}"),
        ("card_heads", number(config.get("n_heads"))),
        ("card_d_model", number(config.get("d_model"))),
        ("card_d_ff", number(config.get("d_ff"))),
        ("card_parameters", number(card.get("parameters"))),
        ("card_vocabulary", number(card.get("vocabulary_size", config.get("vocab_size")))),
        ("card_max_len", number(config.get("max_len"))),
        ("card_training", number(card.get("corpus", {}).get("train") or training.get("examples"))),
        ("card_bleu_en2zh", number(evaluation.get("test_bleu_en2zh"), 1)),
        ("card_bleu_zh2en", number(evaluation.get("test_bleu_zh2en"), 1)),
        ("card_everyday_chrf_en2zh", number(evaluation.get("everyday_chrf_en2zh"), 1)),
        ("card_everyday_chrf_zh2en", number(evaluation.get("everyday_chrf_zh2en"), 1)),
        ("card_everyday_coverage", number(_mean_percent(evaluation, "everyday_coverage"), 0)),
        ("card_norm", norm),
    ]


def _mean_percent(evaluation: dict, prefix: str) -> float | None:
    """Mean over both directions of a share, in percent; None when not measured."""
    values = [evaluation.get(f"{prefix}_{d}") for d in ("en2zh", "zh2en")]
    return None if None in values else 50 * (values[0] + values[1])
