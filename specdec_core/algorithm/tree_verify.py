"""The verification of a drafted tree as one pure function on tensors: several candidates per position, still exact.

Sampling follows the multi-step speculative sampling of SpecInfer (Miao et al. 2024, arXiv 2305.09781,
Algorithm 2, proved exact in its Theorem 4.2), the recursion over siblings that tree drafters such as
EAGLE-2 (arXiv 2406.16858) build on. The siblings under a node must be drawn i.i.d. from q, with
replacement: that is the case the theorem covers. Siblings drawn without replacement (a draft's top-k,
say) change the rule; this function does not cover them.
Names match verify.py and the paper: p is the target, q the draft. No models here.

A tree is given as flat node arrays. Node i holds the token tokens[:, i] and hangs under parents[i]
(-1: under the root, the context's last position); a parent is listed before its children and the
children of one node are listed in the order they were drawn. Row 0 of p and q is the distribution
after the context; row i + 1 the distribution after the path that ends at node i.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch

from specdec_core.algorithm.rules import RULES, Rule
from specdec_core.algorithm.sampling import sample
from specdec_core.algorithm.verify import acceptance_probability, residual


@dataclass
class TreeVerdict:
    """What verifying a tree decided for each of B rows (tensors on the input's device).

    The per-node fields are indexed by node. The walk tries a node at most once, when it stands at the
    node's parent, so one (B, N) array per quantity holds every try; the order of tries is depth, then
    drawing order. p_x, q_x and uniforms are given for every node; r_x, accept_prob and accepted only
    where tried (zeros and False elsewhere).
    """

    path: torch.Tensor  # (B, N) the accepted nodes from the root down, padded with -1
    n_accepted: torch.Tensor  # (B,) tokens kept: the length of the accepted path
    next_token: torch.Tensor  # (B,) drawn where the walk ended: a correction, or the bonus after a leaf
    next_dist: torch.Tensor  # (B, V) the distribution next_token was drawn from (greedy: its argmax)
    tried: torch.Tensor  # (B, N) the walk tested this node against its parent's distribution
    p_x: torch.Tensor  # (B, N) p(x) of the node's token at its parent
    q_x: torch.Tensor  # (B, N) q(x), the draft's probability of drawing it there
    r_x: torch.Tensor  # (B, N) r(x) at that try: the residual the siblings before it left (p(x) for the first)
    uniforms: torch.Tensor  # (B, N) the u each try compared with accept_prob
    accept_prob: torch.Tensor  # (B, N) min(1, r(x) / q(x)); greedy: 1 where x is the target's argmax, else 0
    accepted: torch.Tensor  # (B, N) the try succeeded: the node is on the accepted path


def tree_verify(
    p: torch.Tensor,
    q: torch.Tensor,
    tokens: torch.Tensor,
    parents: torch.Tensor,
    generator: torch.Generator,
    rule: Rule = RULES["exact"],
    greedy: bool = False,
) -> TreeVerdict:
    """Accept a path of each row's tree and draw the token that follows it.

    p: (B, N+1, V) target distributions at the root and after each node.
    q: (B, N+1, V) the draft distributions each node's children were drawn from, i.i.d. (rows of leaves unused).
    tokens: (B, N) the drafted tokens; parents: (N,) or (B, N), -1 for the root's children.

    Sampling walks down from the root. At a node, r starts as p there; each sibling x in drawing order
    is accepted when u < min(1, r(x)/q(x)), and on rejection r becomes norm(max(0, r - q)) for the
    next one (`residual`, which keeps r when no mass is left: in exact arithmetic that needs r = q, where
    no sibling drawn from q is ever rejected, so only round-off gets there). The walk descends into an accepted sibling; where all are rejected it ends with a
    token drawn from the last r, and after an accepted leaf with the bonus drawn from p after it.

    rule: its accept, residual and siblings fields act here; draft_greedy and raw_q act where the tree is drawn.
    greedy (temperature 0): the longest path whose every token is the target's argmax (the first drawn of
    equally long ones), then the argmax after it; no draw decides anything.
    """
    batch, n = tokens.shape
    parents = _checked_parents(parents, batch, n, p, q)
    rows = torch.arange(batch, device=p.device)
    at_parent = parents + 1  # (B, N) the row of p and q each node was drawn from
    # 1. score: p(x), q(x) of every node at its parent, and one uniform per node (each is tried at most once)
    p_x = p[rows[:, None], at_parent, tokens]  # (B, N)
    q_x = q[rows[:, None], at_parent, tokens]  # (B, N)
    uniforms = torch.rand((batch, n), generator=generator, device=p.device)
    if greedy:
        return _greedy_path(p, tokens, parents, p_x, q_x, uniforms)
    target_samples = sample(p[rows[:, None], at_parent], generator) if rule.accept == "match" else None  # (B, N)
    record = _empty_record(p_x, q_x, uniforms)
    # 2. walk: try the siblings under the current node, descend into the one accepted, or stop
    node = torch.full((batch,), -1, dtype=torch.long, device=p.device)  # (B,) -1 is the root
    walking = torch.ones(batch, dtype=torch.bool, device=p.device)
    path = torch.full((batch, n), -1, dtype=torch.long, device=p.device)
    n_accepted = torch.zeros(batch, dtype=torch.long, device=p.device)
    next_dist = torch.zeros_like(p[:, 0])  # (B, V)
    for _ in range(n + 1):
        p_node, q_node = p[rows, node + 1], q[rows, node + 1]  # (B, V)
        children = (parents == node[:, None]) & walking[:, None]  # (B, N)
        chosen, r = _try_siblings(rule, p_node, q_node, children, tokens, target_samples, record)
        # 3. where no sibling was accepted the walk ends: correction from the last residual, or bonus after a leaf
        ending = walking & (chosen < 0)
        next_dist[ending] = _final_distribution(rule, r, p_node, q_node, children.any(-1))[ending]
        # 4. descend into the accepted sibling
        descend = chosen >= 0
        path[rows[descend], n_accepted[descend]] = chosen[descend]
        n_accepted += descend.long()
        node, walking = torch.where(descend, chosen, node), descend
        if not bool(walking.any()):
            break
    next_token = sample(next_dist, generator)
    return TreeVerdict(path, n_accepted, next_token, next_dist, **record)


def _try_siblings(rule, p_node, q_node, children, tokens, target_samples, record):
    """Test the children (B, N) of the node in drawing order until one is accepted: (chosen node or -1, last r).

    Writes each try into record, the verdict's per-node arrays.
    """
    batch = children.shape[0]
    rows = torch.arange(batch, device=children.device)
    rank = children.long().cumsum(-1) * children  # (B, N) 1, 2, ... in drawing order, 0 elsewhere
    chosen = torch.full((batch,), -1, dtype=torch.long, device=children.device)
    r = p_node.clone()  # (B, V)
    most = int(rank.max()) if rank.numel() else 0  # the most children any row's node has
    for turn in range(1, most + 1):
        sibling = (rank == turn).long().argmax(-1)  # (B,)
        trying = (rank == turn).any(-1) & (chosen < 0)
        x = tokens[rows, sibling]
        against = r if rule.siblings == "residual" else p_node
        r_x = against[rows, x]
        q_x = record["q_x"][rows, sibling]
        accept_prob = acceptance_probability(r_x, q_x)
        ok = trying & _decide(rule, record["uniforms"][rows, sibling], accept_prob, q_x, x, target_samples, rows, sibling)
        at = (rows[trying], sibling[trying])
        record["tried"][at] = True
        record["r_x"][at] = r_x[trying]
        record["accept_prob"][at] = accept_prob[trying]
        record["accepted"][at] = ok[trying]
        chosen = torch.where(ok, sibling, chosen)
        rejected = (trying & ~ok)[:, None]
        r = torch.where(rejected, residual(r, q_node), r)  # the next sibling faces what this one left
    return chosen, r


def _decide(rule, u, accept_prob, q_x, x, target_samples, rows, sibling) -> torch.Tensor:
    drafted = q_x > 0
    if rule.accept == "all":
        return drafted
    if rule.accept == "match":
        return drafted & (target_samples[rows, sibling] == x)
    return u < accept_prob


def _final_distribution(rule, r, p_node, q_node, had_children) -> torch.Tensor:
    """Where the walk ends at a node: the last residual (after a leaf, r is p itself), or what a broken rule draws from."""
    if rule.residual == "p":
        return p_node
    if rule.siblings == "p":  # the plain residual of p and q, as if only one sibling had been tried
        return residual(p_node, q_node * had_children[:, None])
    return r


def _greedy_path(p, tokens, parents, p_x, q_x, uniforms) -> TreeVerdict:
    """The deepest node whose path from the root matches the target's argmax at every step (first drawn on ties)."""
    batch, n = tokens.shape
    rows = torch.arange(batch, device=p.device)
    best = p.argmax(-1)  # (B, N+1) the target's argmax at the root and after each node
    matches = tokens == best.gather(1, parents + 1)  # (B, N)
    path_ok, depth = matches.clone(), torch.ones_like(tokens)
    for i in range(n):  # parents come first, so a node's parent is settled before it
        under = parents[:, i]
        has_parent = under >= 0
        path_ok[:, i] &= ~has_parent | path_ok[rows, under.clamp(min=0)]
        depth[:, i] += torch.where(has_parent, depth[rows, under.clamp(min=0)], 0)
    score = torch.where(path_ok, depth, 0)  # (B, N)
    n_accepted = score.max(-1).values if n else torch.zeros(batch, dtype=torch.long, device=p.device)
    deepest = torch.where(n_accepted > 0, score.argmax(-1) if n else n_accepted, -1)  # (B,)
    on_path = torch.zeros_like(matches)
    path = torch.full((batch, n), -1, dtype=torch.long, device=p.device)
    node = deepest
    for step in range(n):  # climb from the deepest node, writing the path from its far end
        climbing = node >= 0
        on_path[rows[climbing], node[climbing]] = True
        path[rows[climbing], (n_accepted - 1 - step)[climbing]] = node[climbing]
        node = torch.where(climbing, parents[rows, node.clamp(min=0)], -1)
    stops = torch.cat([torch.ones_like(matches[:, :1]), on_path], dim=1)  # (B, N+1) the root and the path
    tried = stops.gather(1, parents + 1)  # the siblings under every node the path passed through
    next_dist = p[rows, deepest + 1]  # (B, V)
    accept_prob = matches.to(p_x.dtype)
    return TreeVerdict(
        path, n_accepted, next_dist.argmax(-1), next_dist, tried,
        p_x, q_x, p_x * tried, uniforms, accept_prob * tried, on_path,
    )


def _empty_record(p_x, q_x, uniforms) -> dict:
    """The per-node record before the walk: what is known of every node, and room for what each try found."""
    return dict(
        tried=torch.zeros_like(p_x, dtype=torch.bool),
        p_x=p_x,
        q_x=q_x,
        r_x=torch.zeros_like(p_x),
        uniforms=uniforms,
        accept_prob=torch.zeros_like(p_x),
        accepted=torch.zeros_like(p_x, dtype=torch.bool),
    )


def _checked_parents(parents, batch, n, p, q) -> torch.Tensor:
    """parents as (B, N), after checking that the arrays describe a tree whose parents come before their children."""
    parents = parents.to(device=p.device, dtype=torch.long).expand(batch, n)
    if p.shape[:2] != (batch, n + 1) or q.shape != p.shape:
        raise ValueError(f"p and q must be (B, N+1, V) = ({batch}, {n + 1}, V); got {tuple(p.shape)} and {tuple(q.shape)}")
    index = torch.arange(n, device=p.device)
    if bool(((parents < -1) | (parents >= index)).any()):
        raise ValueError("each node's parent must be -1 (the root) or a node listed before it")
    return parents
