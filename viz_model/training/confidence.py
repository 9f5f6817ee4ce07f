"""Where to draw the "low confidence" line: `python -m viz_model.training.confidence [--json]`.

The app marks a translation as a guess when the mean probability the model gave its own tokens falls below
`translator.LOW_CONFIDENCE`. This command translates the development set (`assets/eval/everyday_dev.tsv`,
never the everyday set the figures are reported on) and, for each candidate line, shows how many
translations it would mark and how good the marked and the unmarked ones are (sentence chrF against the
reference, from sacrebleu). A good line marks the translations that are mostly wrong and few of the rest;
the grammar's own test sentences, nearly all right, show how often it would cry wolf.
"""

from __future__ import annotations

import argparse
import json
import statistics
from dataclasses import asdict, dataclass
from pathlib import Path

from viz_model import corpus
from viz_model.corpus.evalset import DEV_FILE, EvalPair, load_everyday
from viz_model.model.translator import Translator

THRESHOLDS = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75)
DIRECTIONS = ("en2zh", "zh2en")


@dataclass(frozen=True)
class Scored:
    mean_token_probability: float
    chrf: float  # sentence chrF of the output against the reference, 0–100


@dataclass(frozen=True)
class Line:
    threshold: float
    marked: int  # development translations below the line
    total: int
    chrf_marked: float  # mean sentence chrF of the marked ones (nan when none)
    chrf_unmarked: float
    grammar_marked: int  # grammar test translations below the line
    grammar_total: int


def score(translator: Translator, pairs: list[EvalPair]) -> list[Scored]:
    """Translate each pair's source the way it goes and score the output against its reference."""
    import sacrebleu

    out = []
    for pair in pairs:
        result = translator.translate(pair.source, pair.direction)
        chrf = sacrebleu.sentence_chrf(result.output_text, [pair.reference]).score
        out.append(Scored(result.mean_token_probability, chrf))
    return out


def dev_pairs(per_direction: int | None = None) -> list[EvalPair]:
    """The development set, the first `per_direction` pairs of each direction."""
    pairs = load_everyday(DEV_FILE)
    return [p for direction in DIRECTIONS for p in [p for p in pairs if p.direction == direction][:per_direction]]


def grammar_pairs(per_direction: int) -> list[EvalPair]:
    """The grammar's own test sentences, the first `per_direction` each way, as evaluation pairs (a pair the
    corpus uses both ways counts once in each direction)."""
    test = [p for p in corpus.split_corpus(corpus.corpus_pairs())["test"] if p.origin == "grammar"]
    return [
        EvalPair(p.en, p.zh, direction, p.topic)
        for direction in DIRECTIONS
        for p in [p for p in test if p.direction in (direction, "both")][:per_direction]
    ]


def _mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else float("nan")


def lines(dev: list[Scored], grammar: list[Scored], thresholds=THRESHOLDS) -> list[Line]:
    return [
        Line(
            threshold=t,
            marked=sum(s.mean_token_probability < t for s in dev),
            total=len(dev),
            chrf_marked=_mean([s.chrf for s in dev if s.mean_token_probability < t]),
            chrf_unmarked=_mean([s.chrf for s in dev if s.mean_token_probability >= t]),
            grammar_marked=sum(s.mean_token_probability < t for s in grammar),
            grammar_total=len(grammar),
        )
        for t in thresholds
    ]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--model-dir", type=Path)
    parser.add_argument("--grammar-sentences", type=int, default=200, help="grammar test sentences per direction")
    args = parser.parse_args(argv)
    translator = Translator.load(args.model_dir)
    dev = score(translator, dev_pairs())
    grammar = score(translator, grammar_pairs(args.grammar_sentences))
    table = lines(dev, grammar)
    if args.json:
        print(json.dumps([asdict(line) for line in table], indent=2))
        return
    print("line   marked (development)   chrF marked / unmarked   grammar test marked")
    for line in table:
        print(
            f"{line.threshold:4.2f}   {line.marked:3d} of {line.total} ({line.marked / line.total:4.0%})"
            f"        {line.chrf_marked:5.1f} / {line.chrf_unmarked:5.1f}"
            f"          {line.grammar_marked} of {line.grammar_total}"
        )


if __name__ == "__main__":
    main()
