"""Training works from scratch: a tiny config learns (its loss falls) within seconds, deterministically."""

import pytest
import torch

from viz_model import corpus
from viz_model.model.config import ModelConfig
from viz_model.training.precision import bf16_is_faster
from viz_model.training.train import TrainConfig, learning_rate, train

TINY = ModelConfig(
    vocab_size=1, d_model=32, n_heads=4, n_encoder_layers=1, n_decoder_layers=1, d_ff=64, max_len=40, dropout=0.0
)


def _run(steps=60, arithmetic_first_steps=0):
    lines = []
    model, tokenizer, card = train(
        TINY,
        TrainConfig(
            steps=steps,
            batch_size=32,
            warmup_steps=10,
            peak_lr=3e-3,
            eval_every=10_000,
            eval_sentences=8,
            threads=1,
            log_every=10,
            arithmetic_first_steps=arithmetic_first_steps,
            train_pairs=4000,  # a sample: the loop is what is tested, and the sample is drawn from the seed
        ),
        model_dir=None,
        log=lines.append,
        run_evaluation=False,
    )
    return model, tokenizer, card, lines


# tiny_run builds the corpus and trains: tests/conftest.py marks every test using it `slow`.
SLOW_FIXTURES = ("tiny_run",)


@pytest.fixture(scope="module")
def tiny_run():
    return _run(arithmetic_first_steps=2)  # both phases, both batch streams


def test_loss_falls_on_a_tiny_config(tiny_run):
    _, _, card, lines = tiny_run
    losses = [float(line.split("loss ")[1].split()[0]) for line in lines if line.startswith("step")]
    assert len(losses) == 6 and all("tokens/s" in line for line in lines if line.startswith("step"))
    # Untrained, the loss is about ln(V) (a uniform guess over the vocabulary); 60 steps later well below.
    uniform = torch.log(torch.tensor(float(card["vocabulary_size"]))).item()
    assert losses[0] > 0.8 * uniform
    assert losses[-1] < losses[0] - 1.0
    assert card["corpus"]["train"] == 4000  # the sample asked for; validation and test stay whole
    assert card["corpus"]["validation"] == len(corpus.split_corpus(corpus.corpus_pairs())["validation"])
    # bfloat16 products only where the CPU computes them faster (elsewhere float32; emulated, ~40x faster).
    assert card["training"]["bf16"] is bf16_is_faster()


def test_training_is_deterministic_from_the_seed(tiny_run):
    model_a, _, _, lines_a = tiny_run
    model_b, _, _, lines_b = _run(arithmetic_first_steps=2)  # a second run from scratch, same seed

    def losses(lines):  # "step 10/60  loss 9.737  lr 2.40e-03  978 tokens/s …": the figures before the speed
        return [line.split(" tokens/s")[0].rsplit(" ", 1)[0] for line in lines if line.startswith("step")]

    assert losses(lines_a) == losses(lines_b) != [], "the same losses, step by step"
    for (name, a), (_, b) in zip(model_a.state_dict().items(), model_b.state_dict().items()):
        torch.testing.assert_close(a, b, msg=name)


def test_bfloat16_where_its_products_are_faster(tmp_path):
    """AMX: bfloat16, untimed. No bfloat16 instructions: float32, untimed (emulated on AVX2, ~40x slower).
    AVX-512 BF16 alone: whichever product the machine computes in clearly less time."""
    flags = "flags\t\t: fpu sse2 avx2 avx512f avx512bw"
    cpus = {"amx": flags + " avx512_bf16 amx_bf16 amx_tile", "avx512": flags + " avx512_bf16", "avx2": flags}
    for name, line in cpus.items():
        (tmp_path / name).write_text(f"processor\t: 0\n{line}\n\nprocessor\t: 1\n{line}\n")

    def untimed(dtype):
        raise AssertionError("timed a product where the flags decide")

    def timed(bf16_seconds):
        return lambda dtype: bf16_seconds if dtype == torch.bfloat16 else 1.0

    assert bf16_is_faster(tmp_path / "amx", untimed) is True
    assert bf16_is_faster(tmp_path / "avx2", untimed) is False
    assert bf16_is_faster(tmp_path / "avx512", timed(0.43)) is True  # an AMD EPYC's ratio
    assert bf16_is_faster(tmp_path / "avx512", timed(0.95)) is False  # a tie: float32
    assert bf16_is_faster(tmp_path / "avx512", timed(1.2)) is False  # an Intel Xeon without AMX
    assert bf16_is_faster(tmp_path / "no such file", untimed) is False


def test_learning_rate_warms_up_then_decays():
    cfg = TrainConfig(steps=1000, warmup_steps=100, peak_lr=1e-3, final_lr_fraction=0.1, arithmetic_first_steps=0)
    assert learning_rate(0, cfg) < learning_rate(50, cfg) < learning_rate(99, cfg) == pytest.approx(1e-3)
    assert learning_rate(500, cfg) < 1e-3
    assert learning_rate(999, cfg) == pytest.approx(1e-4, rel=0.01)


def test_learning_rate_restarts_after_the_arithmetic_phase():
    cfg = TrainConfig(steps=1000, warmup_steps=100, peak_lr=1e-3, final_lr_fraction=0.1, arithmetic_first_steps=250)
    # Phase 1 (steps 0-249) warms up over 50 steps (a fifth of it) and decays to the floor by its end ...
    assert learning_rate(49, cfg) == pytest.approx(1e-3)
    assert learning_rate(249, cfg) == pytest.approx(1e-4, rel=0.02)
    # ... then the mixed phase warms up again from near zero and decays to the floor at the last step.
    assert learning_rate(250, cfg) == pytest.approx(1e-5)
    assert learning_rate(349, cfg) == pytest.approx(1e-3)
    assert learning_rate(999, cfg) == pytest.approx(1e-4, rel=0.02)


def test_measuring_the_model_leaves_its_mode_alone(tiny_run):
    """The card's figures come after the validation loss: a helper that turned dropout back on would make
    them figures of a noisier model than the one shipped (a bug the first shipped card had)."""
    from viz_model.training.examples import make_examples, mean_loss
    from viz_model.training.train import greedy_bleu, greedy_exact

    model, tokenizer, _, _ = tiny_run
    pairs = corpus.split_corpus(corpus.corpus_pairs())["validation"][:8]
    examples = make_examples(pairs, tokenizer, model.config.max_len)
    for mode in (False, True):
        model.train(mode)
        for measure in (mean_loss, greedy_bleu, greedy_exact):
            measure(model, examples, tokenizer)
            assert model.training is mode, f"{measure.__name__} left the model in the other mode"
    model.eval()


def test_a_share_of_training_sources_lose_their_final_mark():
    import random

    from viz_model.model.tokenizer import Tokenizer
    from viz_model.training.examples import make_examples

    pairs = [p for p in corpus.COURSE_SENTENCES if p.en.endswith(".")]
    tokenizer = Tokenizer.from_corpus([p.en_tokens for p in pairs] + [p.zh_tokens for p in pairs])
    kept = make_examples(pairs, tokenizer, 40)
    stripped = make_examples(pairs, tokenizer, 40, unpunctuated_share=1.0, rng=random.Random(0))
    marks = set(tokenizer.ids([".", "。"]))
    assert len(kept) == len(stripped) == 2 * len(pairs)
    for a, b in zip(kept, stripped):
        # Source: <2xx> words mark <eos> becomes <2xx> words <eos>; the target keeps its punctuation.
        assert a.source_ids[-2] in marks and b.source_ids == a.source_ids[:-2] + a.source_ids[-1:]
        assert b.target_ids == a.target_ids and b.target_ids[-1] in marks
    # A share in between strips some and not others, drawn from the generator (so training stays seeded).
    many = make_examples(pairs * 40, tokenizer, 40, unpunctuated_share=0.25, rng=random.Random(0))
    share = sum(len(e.source_ids) < len(k.source_ids) for e, k in zip(many, kept * 40)) / len(many)
    assert 0.15 < share < 0.35
    assert [e.source_ids for e in many] == [
        e.source_ids for e in make_examples(pairs * 40, tokenizer, 40, 0.25, random.Random(0))
    ]
