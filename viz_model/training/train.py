"""Train the shipped translator: `python -m viz_model.training.train`, from scratch or `--continue-from DIR`.
Deterministic from a seed on CPU: the corpus, the batch order and the initial weights all come from it.
Prints steps, loss, tokens/s and, every so often, validation BLEU; writes assets/model/ at the end.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from dataclasses import dataclass
from pathlib import Path

import torch
import torch.nn.functional as F

from viz_model import corpus
from viz_model.lessons.metrics import corpus_bleu
from viz_model.model import checkpoint
from viz_model.model.config import ModelConfig
from viz_model.model.decoding import greedy_batch
from viz_model.model.tokenizer import Tokenizer
from viz_model.model.transformer import Transformer

from .evaluate import evaluate
from .examples import Example, collate, evaluating, make_examples, mean_loss
from .precision import training_logits, with_products_decided
from .step import adamw, optimizer_step

# The shipped model's size: wide enough for ~9,000 words in two languages, small enough to show every number.
SHIPPED_MODEL = {"d_model": 256, "n_heads": 4, "n_encoder_layers": 3, "n_decoder_layers": 3, "d_ff": 1024}


@dataclass
class TrainConfig:
    # On the corpus before the six newest phrasebook files, 10,000 steps left everyday chrF at 52.9 / 58.4
    # and 15,000 reached 57.1 / 61.8. With them (+9,107 phrasebook pairs) 16,000 steps give 56.0 / 63.5
    # (65.1 / 70.2 against all references, coreference 98 %) in ~107 minutes on 2 cores, inside 120.
    steps: int = 16000
    batch_size: int = 128  # sentence pairs per step
    peak_lr: float = 1.5e-3
    warmup_steps: int = 400  # post-LN needs a gentle start
    final_lr_fraction: float = 0.05  # cosine decay down to this share of the peak
    label_smoothing: float = 0.1
    weight_decay: float = 1.0  # strong decay is what lets arithmetic generalise (grokking)
    # ... but through the mixed phase it also keeps the model from learning rare constructions: with 1.0
    # throughout, "When you …, …" never began with 当 (p = 0.016 on training sentences, 883 of them) and
    # course sentences repeated 100× per epoch still came out wrong. The mixed phase decays less.
    mixed_weight_decay: float = 0.1
    eval_every: int = 1000
    log_every: int = 50
    eval_sentences: int = 200  # per direction, greedy, for the progress display
    seed: int = 0
    threads: int = 2
    # Some examples are shown more often than once per epoch. The course sentences are 19 examples among
    # 100,000 and must come out exactly; arithmetic has to generalise to operand pairs never seen, which
    # takes many more passes over the addition table than translation needs (it "groks" late).
    course_repeats: int = 100
    # Once the addition table has generalised (first phase below), fewer passes keep it: 24 repeats made
    # arithmetic a third of every mixed epoch, time the everyday sentences need more.
    arithmetic_repeats: int = 10
    # A pair with an ambiguous word ("saw", "bank") teaches its sense from context; shown twice, the
    # senses hold while the phrasebook's share grows.
    ambiguous_repeats: int = 2
    # A coreference pair ("... because it was too tired / too wide") differs from its partner by one word
    # that decides the Chinese referent; seen once an epoch, 80% of held-out pairs named the right one.
    coreference_repeats: int = 3
    # Curriculum: the first steps see arithmetic only, with their own warm-up and cosine decay. Mixed in with
    # 100,000 translation pairs from the start, the addition table is memorised but never generalises
    # (26% right on unseen operand pairs after 6,000 steps); on its own it "groks" (~90% after 1,500 steps),
    # and the circuit it finds survives the mixed phase because arithmetic stays in the mix.
    arithmetic_first_steps: int = 1500
    # At 10 repeats the held-out questions fell from 97% to 35% in the first 1,500 mixed steps (at 24 they
    # fell to 47% and came back). From this step on, every `arithmetic_rehearsal_every`-th step is an
    # arithmetic batch: a quarter of the steps. Rehearsal from step 3,500 let the fall happen first, and with
    # twice the phrasebook the questions came back only to 85%; from the first mixed step they never fall.
    arithmetic_rehearsal_from: int = 1500
    arithmetic_rehearsal_every: int = 4
    # People type "I saw a saw" without the full stop far more often than the corpus writes it so. Without
    # this, the model reads the missing stop as "the sentence goes on" and repeats itself, or takes a
    # question for a statement (78% right on test sentences with the final mark removed, against 97% with
    # it). This share of training sources loses its final mark; the target keeps its punctuation.
    unpunctuated_share: float = 0.25
    # The hand-written phrasebook is ~34,000 pairs among ~67,000 generated ones; seen this many times per
    # epoch, its set phrases and natural word order are not drowned out by the templates.
    phrasebook_repeats: int = 5
    # Matrix products in bfloat16 (weights, optimizer and loss stay float32) where the CPU computes them
    # faster: with AMX 1.6x on the Xeon that trained the shipped model; with AVX-512 BF16 a 1.6x faster step on
    # an AMD EPYC, a slower one on an Intel Xeon; on an AVX2-only EPYC, where bfloat16 is emulated, a 2560 x
    # 256 x 1024 product took 1,064 ms against 25 ms in float32.
    # None: decided on the machine (precision.bf16_is_faster), recorded in the card as True or False.
    bf16: bool | None = None
    save_every: int = 500  # steps between resumable training states (model, optimizer, step)
    # A seeded sample of this many training pairs instead of all of them: a quick trial of the whole
    # pipeline (tokenizing the full split for the examples takes about a minute on a slow CPU).
    train_pairs: int | None = None


def oversample(pairs, cfg: TrainConfig) -> list:
    """The training pairs with the course sentences, arithmetic, phrasebook, coreference and ambiguous words repeated
    (see TrainConfig)."""
    course = set(corpus.COURSE_SENTENCES)
    out = []
    for pair in pairs:
        repeats = (
            cfg.course_repeats
            if pair in course
            else cfg.arithmetic_repeats
            if pair.topic == "arithmetic"
            else cfg.phrasebook_repeats
            if pair.origin == "phrasebook"
            else cfg.coreference_repeats
            if pair.topic == "coreference"
            else cfg.ambiguous_repeats
            if pair.ambiguous
            else 1
        )
        out.extend([pair] * repeats)
    return out


def batches(examples: list[Example], batch_size: int, rng: random.Random):
    """Endless shuffled batches; each batch groups similar lengths so little compute goes to padding."""
    while True:
        order = list(range(len(examples)))
        rng.shuffle(order)
        chunk = batch_size * 50
        for start in range(0, len(order), chunk):
            block = sorted(order[start : start + chunk], key=lambda i: len(examples[i].target_ids))
            group = [block[i : i + batch_size] for i in range(0, len(block), batch_size)]
            rng.shuffle(group)
            for indices in group:
                yield [examples[i] for i in indices]


def warmup_cosine(step: int, length: int, warmup: int, peak_lr: float, final_fraction: float) -> float:
    """Step `step` of a phase of `length` steps: linear warm-up over `warmup`, then cosine decay to
    `final_fraction` of the peak."""
    if step < warmup:
        return peak_lr * (step + 1) / warmup
    progress = (step - warmup) / max(1, length - warmup)
    cosine = 0.5 * (1 + math.cos(math.pi * min(1.0, progress)))
    return peak_lr * (final_fraction + (1 - final_fraction) * cosine)


def learning_rate(step: int, cfg: TrainConfig) -> float:
    """Linear warm-up then cosine decay, restarted for each phase (arithmetic first, then everything)."""
    first = min(cfg.arithmetic_first_steps, cfg.steps)
    start, length = (0, first) if step < first else (first, cfg.steps - first)
    warmup = min(cfg.warmup_steps, max(1, length // 5))
    return warmup_cosine(step - start, length, warmup, cfg.peak_lr, cfg.final_lr_fraction)


@torch.no_grad()
def greedy_bleu(model, examples, tokenizer) -> float:
    """Corpus BLEU (0–100) of greedy outputs, a quick progress signal (the card uses beam search)."""
    outputs = []
    with evaluating(model):
        for start in range(0, len(examples), 128):
            outputs += greedy_batch(model, tokenizer, [e.source_ids for e in examples[start : start + 128]])
    return corpus_bleu(
        [tokenizer.tokens(o) for o in outputs], [[tokenizer.tokens(e.target_ids)] for e in examples]
    ).score_100


@torch.no_grad()
def greedy_exact(model, examples, tokenizer) -> float:
    """Share of `examples` whose greedy output equals the reference exactly."""
    if not examples:
        return 0.0
    with evaluating(model):
        outputs = greedy_batch(model, tokenizer, [e.source_ids for e in examples])
    return sum(o == e.target_ids for o, e in zip(outputs, examples)) / len(examples)


def train(
    model_config: ModelConfig | None = None,
    cfg: TrainConfig | None = None,
    model_dir: Path | None = checkpoint.MODEL_DIR,
    log=print,
    run_evaluation: bool = True,
    state_file: Path | None = None,
):
    """Train, report progress through `log`, save to `model_dir` (None: don't save). Returns (model,
    tokenizer, card). With `state_file`, a resumable state is written every `cfg.save_every` steps and, if
    the file exists, training continues from it."""
    cfg = cfg or TrainConfig()
    cfg = with_products_decided(cfg)
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.threads)
    rng = random.Random(cfg.seed)
    pairs = corpus.corpus_pairs(seed=cfg.seed)
    splits = corpus.split_corpus(pairs, seed=cfg.seed)
    if cfg.train_pairs is not None:
        splits = {**splits, "train": random.Random(cfg.seed + 3).sample(splits["train"], cfg.train_pairs)}
    tokenizer = Tokenizer.from_corpus([p.en_tokens for p in pairs] + [p.zh_tokens for p in pairs])
    model_config = model_config or ModelConfig(vocab_size=len(tokenizer), **SHIPPED_MODEL)
    if model_config.vocab_size != len(tokenizer):
        model_config = ModelConfig(**{**model_config.to_dict(), "vocab_size": len(tokenizer)})
    model = Transformer(model_config)
    examples = {
        "train": make_examples(
            oversample(splits["train"], cfg),
            tokenizer,
            model_config.max_len,
            cfg.unpunctuated_share,
            random.Random(cfg.seed + 2),
        )
    }
    examples |= {name: make_examples(splits[name], tokenizer, model_config.max_len) for name in ("validation", "test")}
    quick_eval = {
        d: [e for e in examples["validation"] if e.direction == d][: cfg.eval_sentences] for d in ("en2zh", "zh2en")
    }
    # Held-out arithmetic questions: their operand pairs never appear in training.
    arithmetic_eval = make_examples(
        [p for p in splits["validation"] if corpus.is_held_out_arithmetic(p) and p.direction != "both"],
        tokenizer,
        model_config.max_len,
    )
    log(
        f"corpus: {', '.join(f'{k} {len(v)}' for k, v in examples.items())} examples; "
        f"vocabulary {len(tokenizer)}; parameters {model.num_parameters():,}; "
        f"matrix products in {'bfloat16' if cfg.bf16 else 'float32'}"
    )

    optimizer = adamw(model, cfg.peak_lr, cfg.weight_decay)
    model.train()
    arithmetic_train = make_examples(
        [p for p in splits["train"] if p.topic == "arithmetic"], tokenizer, model_config.max_len
    )
    arithmetic_stream = batches(arithmetic_train, cfg.batch_size, random.Random(cfg.seed + 1))
    stream = batches(examples["train"], cfg.batch_size, rng)
    start = time.time()
    tokens_seen, window_loss, window_steps = 0, 0.0, 0
    losses = []
    first_step = 0
    if state_file is not None and Path(state_file).exists():
        # Resume: weights, optimizer and step from the saved state; the batch streams restart from seeds
        # derived from the step, so a resumed run is deterministic given where it was resumed.
        state = torch.load(state_file, weights_only=False)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        first_step, tokens_seen, losses = state["step"], state["tokens_seen"], state["losses"]
        torch.set_rng_state(state["torch_rng"])
        arithmetic_stream = batches(arithmetic_train, cfg.batch_size, random.Random(f"{cfg.seed}-a-{first_step}"))
        stream = batches(examples["train"], cfg.batch_size, random.Random(f"{cfg.seed}-{first_step}"))
        start -= state["seconds"]
        log(f"resumed from {state_file} at step {first_step}")
    for step in range(first_step, cfg.steps):
        arithmetic_phase = step < cfg.arithmetic_first_steps
        for group in optimizer.param_groups:
            group["lr"] = learning_rate(step, cfg)
            group["weight_decay"] = cfg.weight_decay if arithmetic_phase else cfg.mixed_weight_decay
        rehearsal = (
            step >= cfg.arithmetic_rehearsal_from
            and (step - cfg.arithmetic_rehearsal_from) % cfg.arithmetic_rehearsal_every == 0
        )
        batch = next(arithmetic_stream if arithmetic_phase or rehearsal else stream)
        src, dec_in, dec_out = collate(batch, tokenizer)
        logits = training_logits(model, src, dec_in, cfg.bf16)
        loss = F.cross_entropy(
            logits.flatten(0, 1),
            dec_out.flatten(),
            ignore_index=tokenizer.pad_id,
            label_smoothing=cfg.label_smoothing,
        )
        optimizer_step(model, optimizer, loss)
        tokens_seen += int((src != tokenizer.pad_id).sum() + (dec_out != tokenizer.pad_id).sum())
        window_loss += loss.item()
        window_steps += 1
        losses.append(loss.item())
        if (step + 1) % cfg.log_every == 0 or step + 1 == cfg.steps:
            elapsed = time.time() - start
            log(
                f"step {step + 1:5d}/{cfg.steps}  loss {window_loss / window_steps:.3f}  "
                f"lr {learning_rate(step, cfg):.2e}  {tokens_seen / elapsed:,.0f} tokens/s  "
                f"{elapsed / 60:.1f} min, ~{elapsed / (step + 1) * (cfg.steps - step - 1) / 60:.1f} min left"
            )
            window_loss, window_steps = 0.0, 0
        if arithmetic_phase and (step + 1) % 250 == 0:
            log(f"  arithmetic phase: unseen arithmetic right: {greedy_exact(model, arithmetic_eval, tokenizer):.0%}")
        if (step + 1) % cfg.eval_every == 0 or step + 1 == cfg.steps:
            scores = {d: greedy_bleu(model, ex, tokenizer) for d, ex in quick_eval.items()}
            log(
                f"  validation greedy BLEU: en→zh {scores['en2zh']:.1f}, zh→en {scores['zh2en']:.1f}; "
                f"unseen arithmetic right: {greedy_exact(model, arithmetic_eval, tokenizer):.0%}"
            )
        if state_file is not None and ((step + 1) % cfg.save_every == 0 and step + 1 < cfg.steps):
            Path(state_file).parent.mkdir(parents=True, exist_ok=True)
            torch.save(
                {
                    "model": model.state_dict(),
                    "optimizer": optimizer.state_dict(),
                    "step": step + 1,
                    "tokens_seen": tokens_seen,
                    "losses": losses,
                    "torch_rng": torch.get_rng_state(),
                    "seconds": time.time() - start,
                },
                state_file,
            )

    train_seconds = time.time() - start
    checkpoint.round_to_storage(model)  # every figure below is the stored model's
    model.eval()
    card = {
        "name": "attention-lab-en-zh",
        "config": model_config.to_dict(),
        "norm_placement": "pre-LN" if model_config.norm_first else "post-LN (as in the paper)",
        "parameters": model.num_parameters(),
        "vocabulary_size": len(tokenizer),
        "training": {
            **cfg.__dict__,
            "examples_per_epoch": len(examples["train"]),
            "train_seconds": round(train_seconds, 1),
            "tokens_seen": tokens_seen,
            "final_train_loss": round(sum(losses[-50:]) / len(losses[-50:]), 4),
            "validation_loss": round(mean_loss(model, examples["validation"], tokenizer), 4),
        },
        "corpus": {name: len(split) for name, split in splits.items()},
    }
    if run_evaluation:  # test BLEU with beam search, perplexity, course accuracy
        card["evaluation"] = evaluate(model, tokenizer, splits, log=log)
    if model_dir is not None:
        checkpoint.save(model, tokenizer, card, model_dir)
        log(f"saved to {model_dir}")
    return model, tokenizer, card


def main(argv=None):
    parser = argparse.ArgumentParser(description="Train the Attention Lab translator from scratch.")
    parser.add_argument("--steps", type=int, default=TrainConfig.steps)
    parser.add_argument("--seed", type=int, default=TrainConfig.seed)
    parser.add_argument(
        "--arithmetic-first-steps",
        type=int,
        default=TrainConfig.arithmetic_first_steps,
        help="steps on arithmetic alone before the mixed phase",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=TrainConfig.threads,
        help="PyTorch threads (1 when another job shares the machine: two threads on one free "
        "core slow each step several-fold)",
    )
    parser.add_argument("--train-pairs", type=int, default=None, help="a seeded sample of this many pairs (trials)")
    parser.add_argument("--out", type=Path, default=checkpoint.MODEL_DIR)
    parser.add_argument("--no-eval", action="store_true", help="skip the test-set evaluation (quick trials)")
    parser.add_argument(
        "--state",
        type=Path,
        default=Path("artifacts/train_state.pt"),
        help="resumable training state, written every 500 steps; an existing one is resumed",
    )
    parser.add_argument(
        "--continue-from",
        type=Path,
        default=None,
        help="continue this trained model (e.g. assets/model_from_scratch) with the classics and more added",
    )
    args, extra = parser.parse_known_args(argv)  # the continuation's own options: see continuation.main_continue
    if args.continue_from is not None:
        from .continuation import main_continue

        return main_continue(args, extra)
    if extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    cfg = TrainConfig(
        steps=args.steps,
        seed=args.seed,
        arithmetic_first_steps=args.arithmetic_first_steps,
        threads=args.threads,
        train_pairs=args.train_pairs,
    )
    train(
        cfg=cfg,
        model_dir=args.out,
        run_evaluation=not args.no_eval,
        log=lambda line: print(line, flush=True),
        state_file=args.state,
    )


if __name__ == "__main__":
    main()
