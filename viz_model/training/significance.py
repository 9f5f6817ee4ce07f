"""Is a candidate model's change on an evaluation set real, or the luck of which sentences the set holds?

sacrebleu's paired bootstrap resampling test (Koehn 2004, as in Moses' bootstrap-hypothesis-difference-
significance.pl): the same resampled sentences score both models, many times over, and the p-value is how often
a resample's difference is at least the observed one once centred. `python -m viz_model.training.evaluate
--confirm --against assets/model_from_scratch --model-dir CANDIDATE` reports it for chrF and BLEU in each direction.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

BOOTSTRAP_SAMPLES = 1000  # sacrebleu's default; its seed (SACREBLEU_SEED, 12345) makes the test repeatable


@dataclass(frozen=True)
class Change:
    """A candidate's score minus the baseline's on the same sentences, with the test's p-value. Two identical outputs
    get the smallest p-value, by sacrebleu's convention (a zero difference is not put down to chance): read the
    p-value of a difference that is not zero."""

    metric: str
    baseline: float
    candidate: float
    p_value: float

    @property
    def difference(self) -> float:
        return self.candidate - self.baseline


def paired_test(
    baseline: list[str], candidate: list[str], references: list[str], target: str, samples: int = BOOTSTRAP_SAMPLES
) -> list[Change]:
    """chrF and BLEU of two systems' outputs of the same sources against one reference each, and sacrebleu's
    paired bootstrap p-value of each difference. `target`: "zh" or "en" (BLEU's tokenizer, as in evaluation)."""
    from sacrebleu.metrics import BLEU, CHRF
    from sacrebleu.significance import PairedTest

    if not (len(baseline) == len(candidate) == len(references)) or not references:
        raise ValueError("paired_test needs the two systems' outputs of the same, non-empty set of sources")
    metrics = {"chrF": CHRF(), "BLEU": BLEU(tokenize="zh" if target == "zh" else "13a")}
    _, scores = PairedTest(
        [("baseline", baseline), ("candidate", candidate)], metrics, [references], test_type="bs", n_samples=samples
    )()
    columns = [key for key in scores if key != "System"]  # sacrebleu names them by signature ("chrF2")
    return [
        Change(name, scores[column][0].score, scores[column][1].score, scores[column][1].p_value)
        for name, column in zip(metrics, columns)
    ]


def change_figures(name: str, direction: str, changes: list[Change]) -> dict:
    """The figures `evaluate --against` adds: e.g. confirm_chrf_change_en2zh and its _p."""
    out = {}
    for change in changes:
        key = f"{name}_{change.metric.lower()}_change_{direction}"
        out[key] = round(change.difference, 2)
        out[f"{key}_p"] = round(change.p_value, 4)
    return out


def compare_with(baseline_dir: Path, outputs: dict, options: dict, log=print) -> dict:
    """Each direction's chrF and BLEU change from the model in `baseline_dir` on the same set, with sacrebleu's
    paired bootstrap p-value (`significance.paired_test`)."""
    from viz_model.model import checkpoint

    from .evaluate import evaluate_everyday

    baseline_model, baseline_tokenizer, _ = checkpoint.load(baseline_dir)
    theirs: dict = {}
    evaluate_everyday(
        baseline_model, baseline_tokenizer, log=lambda *_: None, outputs=theirs, **{**options, "misses_file": None}
    )
    name, result = options.get("name", "everyday"), {}
    for direction, (hyps, refs) in outputs.items():
        changes = paired_test(theirs[direction][0], hyps, refs, "zh" if direction == "en2zh" else "en")
        result |= change_figures(name, direction, changes)
        for c in changes:
            log(
                f"{name} {direction}: {c.metric} {c.baseline:.2f} → {c.candidate:.2f} "
                f"({c.difference:+.2f}, p = {c.p_value:.3f})"
            )
    return result
