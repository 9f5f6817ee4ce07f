"""Any node of a beam search opened: the hypothesis it ends, what the decoder attended to on the way, what it
would write next, and the search continued from it ("force this token").

A node is named by its step and its rank among that step's candidates (the search's ranking order), which is
what a link stores. Its attention is a fresh teacher-forced trace of the node's prefix: the decoder is causal,
so the rows of that pass are what the search computed while it wrote those tokens.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from viz_model.model.decoding import largest
from viz_model.model.search_record import Candidate, Hypothesis, SearchRecord
from viz_model.model.tokenizer import EOS
from viz_model.model.trace import TranslationTrace, build_trace
from viz_model.model.translator import SearchSettings, Translator

NEXT_SHOWN = 10


def node_places(record: SearchRecord) -> dict[int, tuple[int, int]]:
    """Node id -> (step, rank) for every candidate of the record."""
    return {c.hypothesis: (step.step, rank) for step in record.steps for rank, c in enumerate(step.candidates)}


def node_place(record: SearchRecord, node_id: int) -> tuple[int, int] | None:
    """(step, rank) of the node with this id, or None."""
    return node_places(record).get(node_id)


def node_at(record: SearchRecord, step: int, rank: int) -> Candidate | None:
    """The candidate ranked `rank` (0-based) at `step` (0-based); None when the record has no such node (a
    link from before the sentence or the settings changed)."""
    if not (0 <= step < len(record.steps)):
        return None
    candidates = record.steps[step].candidates
    return candidates[rank] if 0 <= rank < len(candidates) else None


@dataclass
class NodeView:
    node: Candidate
    path: list[str]  # the tokens from the first step to this node's, inclusive
    trace: TranslationTrace  # teacher-forced over the path's words (<eos> is never fed)
    next_top: list[tuple[str, float]]  # the NEXT_SHOWN most probable writable next tokens; [] after <eos>

    @property
    def finished(self) -> bool:
        return self.node.token == EOS


def open_node(translator: Translator, text: str, direction: str, record: SearchRecord, node: Candidate) -> NodeView:
    path = [c.token for c in record.path_nodes(node.hypothesis)]
    words = [tok for tok in path if tok != EOS]
    tokenizer = translator.tokenizer
    source = translator.encode(text, direction)
    trace = build_trace(translator.model, tokenizer, source.ids, tokenizer.ids(words), source.labels)
    next_top = []
    if path[-1] != EOS and len(words) < translator.config.max_len - 1:
        probs = trace.next_token_probs[len(words)].copy()  # (V,) after the node's token
        probs[tokenizer.foreign_ids(source.ids[0])] = -1.0  # as the search: never the source's language
        probs[tokenizer.pad_id] = -1.0
        top = largest(probs, NEXT_SHOWN)
        next_top = [(tokenizer.vocab[i], float(trace.next_token_probs[len(words), i])) for i in top]
    return NodeView(node, path, trace, next_top)


@dataclass
class Continuation:
    """The search continued from a node, beside the model's own best output."""

    prefix: list[str]
    forced: Hypothesis  # the best hypothesis of the search that had to start with `prefix`
    own: Hypothesis  # the model's own best

    @property
    def log_ratio(self) -> float:
        """ln P(forced) − ln P(own): below 0, the model's own choice is the more probable sentence."""
        return self.forced.log_prob - self.own.log_prob


def continue_from(
    translator: Translator, text: str, direction: str, settings: SearchSettings, record: SearchRecord, node: Candidate
) -> Continuation:
    """Force the node's path and search on with the same settings (a finished node's path is its sentence)."""
    prefix = [c.token for c in record.path_nodes(node.hypothesis)]
    if prefix[-1] == EOS:
        forced = next(h for h in record.hypotheses if h.node == node.hypothesis)
    else:
        forced = translator.search(text, direction, replace(settings, prefix=tuple(prefix))).hypotheses[0]
    return Continuation(prefix, forced, record.hypotheses[0])
