"""One round of tree drafting and verification for many rows at once, without caches: the proof's tree mode.

The draft proposes a static tree: under every node at depth d it draws branching[d] children i.i.d. from q
after the node's path, with replacement (twins happen), the case that SpecInfer's multi-step speculative
sampling is proved exact for (Miao et al., arXiv 2305.09781, Theorem 4.2). The target scores every
root-to-leaf path in one batched forward, so every node's p(x) at its parent and the p after each leaf
are read; `tree_verify` accepts a path and draws the token after it.

The round reads its models as round.speculative_round does (Verifier, Drafter): with the proof's
SharedPrefixTarget and ManyRowDraft every level is read from the shared prompt on, no per-row cache.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from specdec_core.algorithm.drafting import draft_token
from specdec_core.algorithm.round import Drafter, Verifier
from specdec_core.algorithm.rules import rule_named
from specdec_core.algorithm.sampling import probs_from_logits
from specdec_core.algorithm.tree_verify import TreeVerdict, tree_verify

BRANCHINGS = ("2-1", "2-2", "3-1", "3-2")  # the static shapes the proof page offers: branching at depth 1, then 2


def parse_branching(text: str) -> tuple[int, ...]:
    """'2-2' -> (2, 2): children per node at each depth, from the root down."""
    try:
        branching = tuple(int(part) for part in text.split("-"))
    except ValueError:
        raise ValueError(f"a tree's branching is counts joined by '-', such as 2-2; got {text!r}") from None
    if not branching or min(branching) < 1:
        raise ValueError(f"every depth of a tree needs at least one child per node; got {text!r}")
    return branching


def tree_parents(branching: tuple[int, ...]) -> list[int]:
    """Each node's parent (-1: the root) in breadth-first order: parents before children, siblings together."""
    parents, level = [], [-1]
    for width in branching:
        start = len(parents)
        parents += [parent for parent in level for _ in range(width)]
        level = list(range(start, len(parents)))
    return parents


@dataclass
class TreeRoundResult:
    """What a tree round drafted, saw and decided, row by row."""

    tokens: torch.Tensor  # (B, N) the drafted nodes, breadth-first
    parents: torch.Tensor  # (N,) each node's parent, -1 for the root's children
    p: torch.Tensor  # (B, N+1, V) the target's at the root and after each node
    q: torch.Tensor  # (B, N+1, V) the draft's each node's children were drawn from (zeros after leaves)
    verdict: TreeVerdict

    def new_tokens(self) -> list[list[int]]:
        """Each row's written tokens: the accepted path's, then the correction or the bonus."""
        path = self.tokens.gather(1, self.verdict.path.clamp(min=0)).tolist()
        kept, following = self.verdict.n_accepted.tolist(), self.verdict.next_token.tolist()
        return [row[:n] + [token] for row, n, token in zip(path, kept, following)]


def tree_round(target: Verifier, drafter: Drafter, contexts: torch.Tensor, branching: tuple[int, ...], settings,
               generator: torch.Generator) -> TreeRoundResult:
    """Draft a static tree after each row of contexts (B, L), score it with the target, verify it with tree_verify."""
    rule = rule_named(settings.rule)
    # 1. draft: level by level, every node's children drawn i.i.d. from q after its path
    tokens, q = _draft_tree(drafter, contexts, branching, settings, rule, generator)  # (B, N), (B, N+1, V)
    # 2. score: one target forward over every root-to-leaf path
    p = probs_from_logits(_score_tree(target, contexts, tokens, branching), settings.sampling)  # (B, N+1, V)
    # 3. verify: SpecInfer's recursion over the siblings at each node, down the tree
    parents = torch.tensor(tree_parents(branching), dtype=torch.long, device=contexts.device)
    verdict = tree_verify(p, q, tokens, parents, generator, rule, greedy=settings.sampling.greedy)
    return TreeRoundResult(tokens, parents, p, q, verdict)


def _draft_tree(drafter: Drafter, contexts, branching, settings, rule, generator):
    """Tokens (B, N) breadth-first, and q (B, N+1, V): at the root, after each node, zeros after the leaves.

    Where the draft has no proposal after a node, its children are placeholders scored with q = 0, which
    tree_verify never accepts; their residual is then p itself, so the target writes as if alone.
    """
    batch = contexts.shape[0]
    paths = contexts.new_zeros((batch, 1, 0))  # (B, nodes on this level, depth): the root's empty path
    tokens, q_rows = [], []
    for width in branching:
        nodes, depth = paths.shape[1], paths.shape[2]
        sequences = torch.cat([contexts.repeat_interleave(nodes, dim=0), paths.reshape(batch * nodes, depth)], dim=1)
        logits, valid = drafter.next_logits(sequences)  # (B*nodes, V), (B*nodes,)
        siblings = logits.to(contexts.device)[:, None].expand(-1, width, -1)  # the same q for every sibling
        drawn, _, q_scored = draft_token(siblings, settings, rule, generator)  # (B*nodes, width), (B*nodes, width, V)
        q_rows.append((q_scored[:, 0] * valid.to(contexts.device)[:, None]).reshape(batch, nodes, -1))
        tokens.append(drawn.reshape(batch, nodes * width))
        paths = torch.cat([paths.repeat_interleave(width, dim=1), drawn.reshape(batch, nodes * width, 1)], dim=2)
    q_rows.append(q_rows[-1].new_zeros((batch, paths.shape[1], q_rows[-1].shape[-1])))  # leaves have no children
    return torch.cat(tokens, dim=1), torch.cat(q_rows, dim=1)


def _score_tree(target: Verifier, contexts, tokens, branching) -> torch.Tensor:
    """Target logits (B, N+1, V) at the root and after each node, read from the paths to the leaves.

    tokens (B, N) breadth-first; a node's row is taken from the first leaf path through it, at its depth.
    """
    batch, depth = contexts.shape[0], len(branching)
    leaf_paths = _leaf_paths(tokens, branching)  # (B, P, D)
    n_paths = leaf_paths.shape[1]
    logits = target.score(contexts.repeat_interleave(n_paths, dim=0), leaf_paths.reshape(batch * n_paths, depth))
    logits = logits.reshape(batch, n_paths, depth + 1, -1)  # (B, P, D+1, V)
    leaf, at_depth = _node_rows(branching)
    return logits[:, leaf, at_depth]  # (B, N+1, V)


def _leaf_paths(tokens: torch.Tensor, branching) -> torch.Tensor:
    """The tokens on the path to each leaf (B, P, D), leaves in breadth-first order."""
    columns, start, nodes = [], 0, 1
    n_leaves = math.prod(branching)
    for width in branching:
        nodes *= width
        level = tokens[:, start : start + nodes]  # (B, nodes) this depth's nodes, breadth-first
        below = n_leaves // nodes  # leaves under each node of this depth
        columns.append(level.repeat_interleave(below, dim=1))  # (B, P)
        start += nodes
    return torch.stack(columns, dim=2)


def _node_rows(branching) -> tuple[list[int], list[int]]:
    """For the root and each node: the first leaf path through it, and its depth there (the root: leaf 0, depth 0)."""
    n_leaves = math.prod(branching)
    leaf, at_depth, nodes = [0], [0], 1
    for d, width in enumerate(branching, start=1):
        nodes *= width
        leaf += [j * (n_leaves // nodes) for j in range(nodes)]
        at_depth += [d] * nodes
    return leaf, at_depth
