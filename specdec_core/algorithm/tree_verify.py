"""The verification of a drafted tree as one pure function on tensors: several candidates per position, still exact.

Sampling follows the multi-step speculative sampling of SpecInfer (Miao et al. 2024, arXiv 2305.09781,
Algorithm 2, proved exact in its Theorem 4.2), the recursion over siblings that tree drafters such as
EAGLE-2 (arXiv 2406.16858) build on, for siblings drawn i.i.d. from q, with replacement ("iid").

Siblings drawn without replacement ("distinct": sibling i from q_i, q with the tokens of the siblings
before it removed and renormalised) are verified by the same recursion with q_i in place of q: accept x_i
with min(1, r_i(x_i)/q_i(x_i)), on rejection r_{i+1} = norm(max(0, r_i - q_i)). This is the recursive
rejection sampling of Recursive Speculative Decoding (Jeon et al. 2024, arXiv 2402.14160, its RSD-C trees);
SpecTr (Sun et al. 2023, arXiv 2310.15141) casts drafting several candidates as optimal transport.
Why it is exact, by induction from the last sibling back: given the siblings before it, sibling i's test
writes y with probability min(q_i(y), r_i(y)), and on rejection (probability sum(max(0, r_i - q_i))) the
rest writes r_{i+1}, which depends on those earlier siblings only, never on x_i itself; the two add up to
r_i(y), and r_1 = p. A rejected x had r_i(x) < q_i(x), so r_{i+1}(x) = 0: leaving x out of the later
draws loses nothing the residual still needs. Verifying distinct siblings with q in place of q_i is not
exact (tests/test_tree_distinct.py catches it).
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
from specdec_core.algorithm.tree_shape import SIBLINGS
from specdec_core.algorithm.verify import acceptance_probability, residual


@dataclass
class TreeVerdict:
    """What verifying a tree decided for each of B rows (tensors on the input's device).

    The per-node fields are indexed by node. The walk tries a node at most once, when it stands at the
    node's parent, so one (B, N) array per quantity holds every try; the order of tries is depth, then
    drawing order. p_x, q_x, q_i and uniforms are given for every node; r_x, accept_prob and accepted only
    where tried (zeros and False elsewhere).
    """

    path: torch.Tensor  # (B, N) the accepted nodes from the root down, padded with -1
    n_accepted: torch.Tensor  # (B,) tokens kept: the length of the accepted path
    next_token: torch.Tensor  # (B,) drawn where the walk ended: a correction, or the bonus after a leaf
    next_dist: torch.Tensor  # (B, V) the distribution next_token was drawn from (greedy: its argmax)
    tried: torch.Tensor  # (B, N) the walk tested this node against its parent's distribution
    p_x: torch.Tensor  # (B, N) p(x) of the node's token at its parent
    q_x: torch.Tensor  # (B, N) q(x), the draft's probability of the token at its parent
    r_x: torch.Tensor  # (B, N) r(x) at that try: the residual the siblings before it left (p(x) for the first)
    uniforms: torch.Tensor  # (B, N) the u each try compared with accept_prob
    accept_prob: torch.Tensor  # (B, N) min(1, r(x) / q_i(x)); greedy: 1 where x is the target's argmax, else 0
    accepted: torch.Tensor  # (B, N) the try succeeded: the node is on the accepted path
    # (B, N) q_i(x), the probability the draft drew the node with, given the siblings drawn before it: q(x) for
    # i.i.d. siblings; for distinct ones q(x) renormalised over what the elder siblings' tokens left
    q_i: torch.Tensor | None = None


def tree_verify(
    p: torch.Tensor,
    q: torch.Tensor,
    tokens: torch.Tensor,
    parents: torch.Tensor,
    generator: torch.Generator,
    rule: Rule = RULES["exact"],
    greedy: bool = False,
    siblings: str = "iid",
) -> TreeVerdict:
    """Accept a path of each row's tree and draw the token that follows it.

    p: (B, N+1, V) target distributions at the root and after each node.
    q: (B, N+1, V) the draft distributions each node's children were drawn from (rows of leaves unused).
    tokens: (B, N) the drafted tokens; parents: (N,) or (B, N), -1 for the root's children.
    siblings: how the children were drawn from q: "iid" (with replacement) or "distinct" (without: child i
    from q_i, q less its elder siblings' tokens; distinct_draft_probs).

    Sampling walks down from the root. At a node, r starts as p there; each sibling x in drawing order
    is accepted when u < min(1, r(x)/q(x)), and on rejection r becomes norm(max(0, r - q)) for the
    next one (`residual`, which keeps r when no mass is left: in exact arithmetic that needs r = q, where
    no sibling drawn from q is ever rejected, so only round-off gets there). Distinct siblings are tested the same
    way with q_i for q. The walk descends into an accepted sibling; where all are rejected it ends with a
    token drawn from the last r, and after an accepted leaf with the bonus drawn from p after it.

    rule: its accept, residual and siblings fields act here; draft_greedy and raw_q act where the tree is drawn.
    greedy (temperature 0): the longest path whose every token is the target's argmax (the first drawn of
    equally long ones), then the argmax after it; no draw decides anything.
    """
    batch, n = tokens.shape
    parents = _checked_parents(parents, batch, n, p, q)
    if siblings not in SIBLINGS:
        raise ValueError(f"siblings are drawn {' or '.join(map(repr, SIBLINGS))}; got {siblings!r}")
    distinct = siblings == "distinct"
    rows = torch.arange(batch, device=p.device)
    at_parent = parents + 1  # (B, N) the row of p and q each node was drawn from
    # 1. score: p(x), q(x) and q_i(x) of every node at its parent, and one uniform per node (each is tried at most once)
    p_x = p[rows[:, None], at_parent, tokens]  # (B, N)
    q_x = q[rows[:, None], at_parent, tokens]  # (B, N)
    q_i = distinct_draft_probs(q, tokens, parents) if distinct else q_x  # (B, N) what each was drawn with
    uniforms = torch.rand((batch, n), generator=generator, device=p.device)
    if greedy:
        return _greedy_path(p, tokens, parents, p_x, q_x, uniforms, q_i)
    target_samples = sample(p[rows[:, None], at_parent], generator) if rule.accept == "match" else None  # (B, N)
    record = _empty_record(p_x, q_x, uniforms, q_i)
    path, n_accepted, next_dist = _walk(p, q, tokens, parents, rule, target_samples, record, distinct)
    next_token = sample(next_dist, generator)
    return TreeVerdict(path, n_accepted, next_token, next_dist, **record)


def _walk(p, q, tokens, parents, rule, target_samples, record, distinct):
    """The walk from the root (steps 2-4): (path (B, N) of accepted nodes, -1 after them; n_accepted (B,);
    next_dist (B, V) the last residual or p after a leaf). `record` is filled with each node's trial."""
    batch, n = tokens.shape
    rows = torch.arange(batch, device=p.device)
    # 2. walk: try the siblings under the current node, descend into the one accepted, or stop
    node = torch.full((batch,), -1, dtype=torch.long, device=p.device)  # (B,) -1 is the root
    walking = torch.ones(batch, dtype=torch.bool, device=p.device)
    path = torch.full((batch, n), -1, dtype=torch.long, device=p.device)
    n_accepted = torch.zeros(batch, dtype=torch.long, device=p.device)
    next_dist = torch.zeros_like(p[:, 0])  # (B, V)
    for _ in range(n + 1):
        p_node, q_node = p[rows, node + 1], q[rows, node + 1]  # (B, V)
        children = (parents == node[:, None]) & walking[:, None]  # (B, N)
        chosen, r = _try_siblings(rule, p_node, q_node, children, tokens, target_samples, record, distinct)
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
    return path, n_accepted, next_dist


def _try_siblings(rule, p_node, q_node, children, tokens, target_samples, record, distinct=False):
    """Test the children (B, N) of the node in drawing order until one is accepted: (chosen node or -1, last r).

    Writes each try into record, the verdict's per-node arrays. distinct: sibling i was drawn from q_i, q without
    the tokens before it, so the residual it leaves is norm(max(0, r_i - q_i)).
    """
    batch = children.shape[0]
    rows = torch.arange(batch, device=children.device)
    rank = children.long().cumsum(-1) * children  # (B, N) 1, 2, ... in drawing order, 0 elsewhere
    chosen = torch.full((batch,), -1, dtype=torch.long, device=children.device)
    r = p_node.clone()  # (B, V)
    q_i = q_node  # (B, V) what this turn's sibling was drawn from
    most = int(rank.max()) if rank.numel() else 0  # the most children any row's node has
    for turn in range(1, most + 1):
        sibling = (rank == turn).long().argmax(-1)  # (B,)
        exists = (rank == turn).any(-1)
        trying = exists & (chosen < 0)
        x = tokens[rows, sibling]
        against = r if rule.siblings == "residual" else p_node
        r_x = against[rows, x]
        q_x = record["q_i"][rows, sibling]
        accept_prob = acceptance_probability(r_x, q_x)
        ok = trying & _decide(rule, record["uniforms"][rows, sibling], accept_prob, q_x, x, target_samples, rows, sibling)
        at = (rows[trying], sibling[trying])
        record["tried"][at] = True
        record["r_x"][at] = r_x[trying]
        record["accept_prob"][at] = accept_prob[trying]
        record["accepted"][at] = ok[trying]
        chosen = torch.where(ok, sibling, chosen)
        rejected = (trying & ~ok)[:, None]
        r = torch.where(rejected, residual(r, q_i), r)  # the next sibling faces what this one left
        if distinct:  # the next sibling was drawn from what this one's draw left of q
            q_i = torch.where(exists[:, None], _without(q_i, x), q_i)
    return chosen, r


def distinct_draft_probs(q: torch.Tensor, tokens: torch.Tensor, parents: torch.Tensor) -> torch.Tensor:
    """q_i(x_i) of every node (B, N): the probability that sibling i, drawn after its elder siblings without
    replacement, is x_i. q_i is q at the parent with the elder siblings' tokens removed and renormalised, so
    q_i(x_i) = q(x_i) / (1 - the q of the distinct tokens before it); 0 where x_i repeats an elder sibling's
    token or the elders took all of q.

    q: (B, N+1, V) as tree_verify's; tokens: (B, N); parents: (N,) or (B, N), -1 under the root.
    """
    batch, n = tokens.shape
    parents = parents.to(device=q.device, dtype=torch.long).expand(batch, n)
    rows = torch.arange(batch, device=q.device)[:, None]
    q_x = q[rows, parents + 1, tokens].double()  # (B, N) q(x) at the parent
    mass = q.sum(-1, dtype=torch.float64)[rows, parents + 1]  # (B, N) q's total at the parent (0: no proposal)
    order = torch.arange(n, device=q.device)
    # (B, N, N) [b, i, j]: node j is an elder sibling of node i
    elder = (parents[:, :, None] == parents[:, None, :]) & (order[None, None, :] < order[None, :, None])
    same = tokens[:, :, None] == tokens[:, None, :]  # (B, N, N)
    repeats = (elder & same).any(-1)  # (B, N) the token was drawn before under the same parent
    removed = (elder.double() * (q_x * ~repeats)[:, None, :]).sum(-1)  # (B, N) the q the distinct elder tokens held
    left = mass - removed
    q_i = torch.where(~repeats & (left > 1e-12), q_x / left.clamp_min(1e-300), 0.0)
    return q_i.clamp(max=1.0).to(q.dtype)


def _without(q: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    """q (B, V) with each row's token x (B,) removed and the rest renormalised; zeros where nothing is left."""
    kept = q.scatter(-1, x[:, None], 0.0)
    mass = kept.sum(-1, keepdim=True)
    return torch.where(mass > 1e-12, kept / mass.clamp_min(1e-30), torch.zeros_like(kept))


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


def _greedy_path(p, tokens, parents, p_x, q_x, uniforms, q_i) -> TreeVerdict:
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
        p_x, q_x, p_x * tried, uniforms, accept_prob * tried, on_path, q_i,
    )


def _empty_record(p_x, q_x, uniforms, q_i) -> dict:
    """The per-node record before the walk: what is known of every node, and room for what each try found."""
    return dict(
        tried=torch.zeros_like(p_x, dtype=torch.bool),
        p_x=p_x,
        q_x=q_x,
        r_x=torch.zeros_like(p_x),
        uniforms=uniforms,
        accept_prob=torch.zeros_like(p_x),
        accepted=torch.zeros_like(p_x, dtype=torch.bool),
        q_i=q_i,
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
