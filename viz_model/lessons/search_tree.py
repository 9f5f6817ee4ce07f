"""Where each node of a beam-search tree goes on the page: a layout computed from a `SearchRecord`.

x is the depth (the root, the empty prefix, at 0; a token generated at step s at s + 1). y is the node's
row, like a file tree: every chain of hypotheses the search kept gets a row, in the search's own ranking
order, and a node sits on the row of its best-ranked surviving child, so the chain of best-ranked choices
is one straight line at the top and alternatives branch off below it. Pruned candidates get no row of their
own: they fan out just below their parent's row (within PRUNED_FAN of it), which keeps the tree as tall as
the beam, not as tall as every candidate scored. The rows are worked out once for the whole record, so
when the Beam search page replays the search step by step (`upto`) a node never changes places with another;
the rows in use up to that step are then numbered 0, 1, 2, … so each step's tree is as tall as its own beam
(laid out for the whole search, the four candidates of step 1 sat at the top and 500–800 px below it).
"""

from __future__ import annotations

from dataclasses import dataclass

from viz_model.model.search_record import SearchRecord

ROOT = -1  # id of the root node (the empty prefix, before step 0)
PRUNED_FAN = 0.3  # pruned children sit between their parent's row and PRUNED_FAN rows below it


@dataclass
class TreeNode:
    id: int  # the candidate's `hypothesis` id; ROOT for the root
    parent: int | None  # id of the parent node; None for the root
    step: int  # step that generated the token; -1 for the root
    token: str  # "" for the root
    prob: float  # p(token | prefix); 1 for the root
    cumulative_log_prob: float  # ln P(prefix + token)
    score: float  # ln P / L^α
    status: str  # "root", "kept", "pruned" or "finished"
    best: bool  # on the path of the best-ranked hypothesis
    x: float  # depth: step + 1
    y: float  # row, 0 at the top


@dataclass
class TreeLayout:
    nodes: list[TreeNode]  # the root first, then candidates by step and rank
    n_steps: int  # steps in the whole record
    n_rows: int  # rows of the nodes shown (for the figure's height)

    def edges(self) -> list[tuple[TreeNode, TreeNode]]:
        """(parent, child) pairs among the nodes shown."""
        by_id = {n.id: n for n in self.nodes}
        return [(by_id[n.parent], n) for n in self.nodes if n.parent is not None and n.parent in by_id]

    def candidates(self) -> list[TreeNode]:
        """The shown nodes without the root: one per candidate of the record up to the shown step."""
        return [n for n in self.nodes if n.id != ROOT]


def tree_layout(record: SearchRecord, upto: int | None = None) -> TreeLayout:
    """Layout of the search tree; `upto` keeps steps 0..upto (None: all steps)."""
    children: dict[int, list[int]] = {ROOT: []}
    candidates = record.nodes()
    for c in candidates:  # record.nodes() is ordered by step, then rank
        children.setdefault(c.hypothesis, [])
        children[ROOT if c.parent is None else c.parent].append(c.hypothesis)

    status = {c.hypothesis: c.status for c in candidates}
    # Rows for the surviving nodes: leaves in depth-first order get rows 0, 1, 2…, a parent sits on its
    # first (best-ranked) surviving child's row.
    rows: dict[int, float] = {}
    next_row = 0
    stack: list[tuple[int, bool]] = [(ROOT, False)]
    while stack:
        node, expanded = stack.pop()
        kids = [k for k in children[node] if status[k] != "pruned"]
        if not kids:
            rows[node] = float(next_row)
            next_row += 1
        elif expanded:
            rows[node] = rows[kids[0]]
        else:
            stack.append((node, True))
            stack.extend((k, False) for k in reversed(kids))
    # Pruned candidates fan out just below their parent's row, in rank order.
    for node, kids in children.items():
        pruned = [k for k in kids if status[k] == "pruned"]
        for j, k in enumerate(pruned):
            rows[k] = rows[node] + PRUNED_FAN * (j + 1) / len(pruned)

    best = {c.hypothesis for c in record.best_path_nodes()}
    last = len(record.steps) - 1 if upto is None else upto
    shown = [c for c in candidates if c.step <= last]
    # The rows in use up to `last`, numbered from 0 in the same order; a pruned node keeps its offset below
    # its parent's row.
    used = sorted({rows[ROOT]} | {rows[c.hypothesis] for c in shown if c.status != "pruned"})
    number = {row: float(i) for i, row in enumerate(used)}

    def row_of(c) -> float:
        if c.status != "pruned":
            return number[rows[c.hypothesis]]
        parent = ROOT if c.parent is None else c.parent
        return number[rows[parent]] + rows[c.hypothesis] - rows[parent]

    nodes = [TreeNode(ROOT, None, -1, "", 1.0, 0.0, 0.0, "root", True, 0.0, number[rows[ROOT]])]
    nodes += [
        TreeNode(
            c.hypothesis,
            ROOT if c.parent is None else c.parent,
            c.step,
            c.token,
            c.prob,
            c.cumulative_log_prob,
            c.score,
            c.status,
            c.hypothesis in best,
            float(c.step + 1),
            row_of(c),
        )
        for c in shown
    ]
    return TreeLayout(nodes, len(record.steps), len(used))
