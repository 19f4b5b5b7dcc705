"""One round of speculative sampling for B rows at once (Leviathan, Kalman & Matias 2023, Algorithm 1).

Every decoding in the app is this function: the scriptorium's sheet is one row with KV caches, the
proof is thousands of rows that share the prompt, the iron rule is k = 1 at one fixed position, and
the target writing alone is a round with no draft. So the proof tests the code that writes the sheet.

`tree_round` is the same round over a drafted tree (SpecInfer, Miao et al. 2024, arXiv 2305.09781):
the draft expands a depth's nodes in one forward, the target scores the whole tree in one, and
tree_verify walks it. It stands beside `speculative_round` rather than replacing it: the chain round
also serves the proof's thousands of cache-less rows and scribes that stop drafting early (prompt
lookup), which a tree's shape decided ahead of the draws does not model. A tree of branching 1 gives the chain round's tokens from the same
seed (tests/test_tree_round.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import torch

from specdec_core.algorithm.drafting import draft_token
from specdec_core.algorithm.rules import Rule, rule_named
from specdec_core.algorithm.sampling import probs_from_logits, sample
from specdec_core.algorithm.tree_shape import TreeShape
from specdec_core.algorithm.tree_verify import TreeVerdict, tree_verify
from specdec_core.algorithm.verify import Verdict, verify


class Verifier(Protocol):
    """The target as a round reads it."""

    cache_len: int

    def score(self, contexts: torch.Tensor, drafted: torch.Tensor) -> torch.Tensor:
        """Logits (B, n+1, V) at each drafted position and one past the last, for contexts (B, L) and drafted (B, n)."""

    def rollback(self, keep: torch.Tensor) -> None:
        """Forget what follows the first keep[b] tokens of each row (B,)."""


class Drafter(Protocol):
    """The draft as a round reads it."""

    cache_len: int

    def next_logits(self, sequences: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Scores (B, V) for the token after each row of sequences (B, L), and which rows have a proposal (B,)."""

    def rollback(self, keep: torch.Tensor) -> None:
        """As Verifier.rollback."""


class NoClock:
    """Rounds that are not timed (the proof, the iron rule) read this clock."""

    @staticmethod
    def now() -> float:
        return 0.0


@dataclass
class RoundResult:
    """What a round drafted, saw and decided, row by row, and what it cost."""

    drafted: torch.Tensor  # (B, n) n <= k: drafting stops early when no row has a proposal
    draft_len: torch.Tensor  # (B,) tokens each row really drafted
    q: torch.Tensor  # (B, n, V) the distributions the draft sampled from
    p: torch.Tensor  # (B, n+1, V) the target's, after the shared sampling settings
    verdict: Verdict
    draft_s: float
    target_s: float
    target_cache: list[int]  # cache lengths before the verify forward, after it, after rollback
    draft_cache: list[int]  # the same for the draft

    @property
    def n_accepted(self) -> torch.Tensor:
        return self.verdict.n_accepted  # (B,) never past draft_len: q = 0 there, so nothing is accepted

    def new_tokens(self) -> list[list[int]]:
        """Each row's written tokens: its accepted prefix, then the correction or the bonus."""
        drafted, kept, following = self.drafted.tolist(), self.n_accepted.tolist(), self.verdict.next_token.tolist()
        return [row[:n] + [token] for row, n, token in zip(drafted, kept, following)]


def speculative_round(target: Verifier, drafter: Drafter | None, contexts: torch.Tensor, k: int, settings,
                      generator: torch.Generator, clock=NoClock) -> RoundResult:
    """Draft up to k tokens per row, verify them in one target forward, accept, correct or add the bonus, roll back.

    contexts: (B, L) token ids every row has written so far; a round with no draft is the target alone.
    """
    rule = rule_named(settings.rule)
    started, draft_cache = clock.now(), [_cache_len(drafter)]
    # 1. draft: the draft writes up to k tokens per row, each sampled from q
    drafted, q, q_scored, draft_len = _draft(drafter, contexts, k if drafter else 0, settings, rule, generator)
    draft_s, target_cache = clock.now() - started, [target.cache_len]
    draft_cache.append(_cache_len(drafter))
    # 2. verify: one target forward scores every drafted token and the position after them
    p = probs_from_logits(target.score(contexts, drafted), settings.sampling)  # (B, n+1, V)
    target_s = clock.now() - started - draft_s
    target_cache.append(target.cache_len)
    if q is None:  # nothing drafted: q is empty, and the token comes from p
        q = q_scored = p.new_zeros((p.shape[0], 0, p.shape[-1]))
    # 3. accept a prefix with probability min(1, p/q); 4. draw the correction from the residual, or the bonus
    verdict = verify(p, q_scored, drafted, generator, rule, draft_len)
    # 5. roll back: both caches keep the context and the accepted prefix, not the new token
    keep = contexts.shape[1] + verdict.n_accepted
    target.rollback(keep)
    if drafter:
        drafter.rollback(keep)
    target_cache.append(target.cache_len)
    draft_cache.append(_cache_len(drafter))
    return RoundResult(drafted, draft_len, q, p, verdict, draft_s, target_s, target_cache, draft_cache)


def _draft(drafter: Drafter | None, contexts: torch.Tensor, k: int, settings, rule: Rule, generator: torch.Generator):
    """Tokens (B, n), the q they were sampled from and the q the rule scores them with (B, n, V, or
    None when n = 0), and each row's own draft length (B,)."""
    batch, device = contexts.shape[0], contexts.device
    draft_len = torch.zeros(batch, dtype=torch.long, device=device)
    still_drafting = torch.ones(batch, dtype=torch.bool, device=device)
    tokens, sampled_from, scored = [], [], []
    for _ in range(k):
        logits, valid = drafter.next_logits(torch.cat([contexts, *tokens], dim=1))
        still_drafting &= valid.to(device)
        if not still_drafting.any():
            break
        token, q, q_scored = _draft_rows(logits.to(device), settings, rule, generator)
        draft_len += still_drafting
        tokens.append(token[:, None])
        sampled_from.append(q)
        scored.append(q_scored)
    if not tokens:
        return contexts.new_zeros((batch, 0)), None, None, draft_len
    return torch.cat(tokens, dim=1), torch.stack(sampled_from, dim=1), torch.stack(scored, dim=1), draft_len


def _draft_rows(logits: torch.Tensor, settings, rule: Rule, generator: torch.Generator):
    """draft_token on (B, V) scores. One row goes as (V,), where a part-vocabulary head's fast path applies."""
    if logits.shape[0] != 1:
        return draft_token(logits, settings, rule, generator)
    token, q, q_scored = draft_token(logits[0], settings, rule, generator)
    return token.reshape(1), q[None], q_scored[None]


def _cache_len(drafter: Drafter | None) -> int:
    return drafter.cache_len if drafter else 0


class TreeVerifier(Protocol):
    """The target as a tree round reads it."""

    cache_len: int

    def score_tree(self, contexts: torch.Tensor, tokens: torch.Tensor, parents: list[int]) -> torch.Tensor:
        """Logits (B, N+1, V) after the context and after each node, for contexts (B, L) and a tree's tokens (B, N)
        under parents (N,), all in one forward."""

    def keep_path(self, path: torch.Tensor, n_accepted: torch.Tensor) -> None:
        """Keep each row's context and its accepted nodes path[b, :n_accepted[b]] (B, N); forget the other nodes."""


class TreeDrafter(Protocol):
    """The draft as a tree round reads it."""

    cache_len: int

    def tree_logits(self, contexts: torch.Tensor, tokens: torch.Tensor, parents: list[int],
                    n_last: int) -> tuple[torch.Tensor, torch.Tensor]:
        """Scores (B, n_last, V) after the last n_last of the context's end and the tree's nodes (B, N), and
        which of them have a proposal (B, n_last)."""

    def keep_path(self, path: torch.Tensor, n_accepted: torch.Tensor) -> None:
        """As TreeVerifier.keep_path."""


@dataclass
class TreeRoundResult:
    """What a tree round drafted, saw and decided, row by row, and what it cost."""

    tokens: torch.Tensor  # (B, N) the drafted nodes, depth by depth, each depth's nodes by parent
    parents: list[int]  # (N,) each node's parent, -1 under the context
    depth: int  # depths drafted: the draft's forwards
    q: torch.Tensor  # (B, N+1, V) the distribution each node's children were drawn from (zeros where none were)
    p: torch.Tensor  # (B, N+1, V) the target's after the context and after each node
    verdict: TreeVerdict
    draft_s: float
    target_s: float
    target_cache: list[int]  # cache lengths before the verify forward, after it, after keeping the path
    draft_cache: list[int]  # the same for the draft

    @property
    def n_accepted(self) -> torch.Tensor:
        return self.verdict.n_accepted  # (B,)

    def new_tokens(self) -> list[list[int]]:
        """Each row's written tokens: its accepted path, then the correction or the bonus."""
        paths, kept, following = self.verdict.path.tolist(), self.n_accepted.tolist(), self.verdict.next_token.tolist()
        return [[row[node] for node in path[:n]] + [token]
                for row, path, n, token in zip(self.tokens.tolist(), paths, kept, following)]


def tree_round(target: TreeVerifier, drafter: TreeDrafter, contexts: torch.Tensor, shape: TreeShape, settings,
               generator: torch.Generator, clock=NoClock) -> TreeRoundResult:
    """Draft a tree of the given shape, verify it in one target forward, walk it, keep the accepted path.

    contexts: (B, L) token ids every row has written so far; a dynamic shape grows one row's tree (B = 1).
    A static shape of branching 1 at k depths is the chain round.
    """
    rule, greedy = rule_named(settings.rule), settings.sampling.greedy
    started, draft_cache = clock.now(), [drafter.cache_len]
    # 1. draft: depth by depth, each node's children drawn from q there (i.i.d., or distinct: without replacement),
    # one draft forward a depth
    tokens, parents, q_pieces, q_scored_pieces = _draft_tree(drafter, contexts, shape, settings, rule, generator)
    draft_s, target_cache = clock.now() - started, [target.cache_len]
    draft_cache.append(drafter.cache_len)
    # 2. verify: one target forward over the whole tree, each node seeing the context and its ancestors
    p = probs_from_logits(target.score_tree(contexts, tokens, parents), settings.sampling)  # (B, N+1, V)
    target_s = clock.now() - started - draft_s
    target_cache.append(target.cache_len)
    q, q_scored = _padded(q_pieces, p), _padded(q_scored_pieces, p)  # (B, N+1, V): leaves have no children
    # 3. walk down the tree: each node's siblings tested against the residual the rejected ones left
    # (distinct siblings: each with the q_i it was drawn from); 4. the correction from the last residual, or
    # the bonus after an accepted leaf
    verdict = tree_verify(p, q_scored, tokens, torch.tensor(parents, dtype=torch.long), generator, rule, greedy,
                          settings.siblings)
    # 5. keep the path: both caches gather the accepted nodes into place after the context
    target.keep_path(verdict.path, verdict.n_accepted)
    drafter.keep_path(verdict.path, verdict.n_accepted)
    target_cache.append(target.cache_len)
    draft_cache.append(drafter.cache_len)
    return TreeRoundResult(tokens, parents, len(q_pieces), q, p, verdict, draft_s, target_s, target_cache, draft_cache)


def _draft_tree(drafter: TreeDrafter, contexts: torch.Tensor, shape: TreeShape, settings, rule: Rule,
                generator: torch.Generator):
    """Tokens (B, N), parents (N,), and per depth drafted the q its frontier's children were sampled from and
    scored with (B, F, V). The frontier's nodes are the last F listed, so these rows follow the root's in node order."""
    batch = contexts.shape[0]
    tokens, parents, frontier = contexts.new_zeros((batch, 0)), [], [-1]
    confidence = [1.0]  # each frontier node's product of q along its path (row 0's: a dynamic tree grows one row)
    sampled_from, scored = [], []
    for depth in range(shape.max_depth):
        counts = shape.children(depth, confidence, tokens.shape[1])  # decided before the children are drawn
        if not any(counts):
            break
        logits, valid = drafter.tree_logits(contexts, tokens, parents, len(frontier))  # (B, F, V), (B, F)
        drawn, q, q_scored = _draw_children(logits.to(contexts.device), max(counts), settings, rule, generator)
        # no proposal: the children are placeholders scored q = 0, never accepted, and the residual stays p
        q, q_scored = (q * valid.to(q.device)[..., None], q_scored * valid.to(q.device)[..., None])
        if settings.siblings == "distinct" and not settings.sampling.greedy:  # no more distinct children than q has
            counts = [min(count, most) for count, most in zip(counts, (q > 0).sum(-1).max(0).values.tolist())]
        sampled_from.append(q)
        scored.append(q_scored)
        kept = [(f, j) for f in range(len(frontier)) for j in range(counts[f])]  # each node's first counts[f] draws
        under, order = [f for f, _ in kept], [j for _, j in kept]
        first = tokens.shape[1]
        tokens = torch.cat([tokens, drawn[:, under, order]], dim=1)
        parents += [frontier[f] for f in under]
        confidence = [confidence[f] * float(q[0, f, drawn[0, f, j]]) for f, j in kept]
        frontier = list(range(first, tokens.shape[1]))
    return tokens, parents, sampled_from, scored


def _padded(rows: list[torch.Tensor], like: torch.Tensor) -> torch.Tensor:
    """The drafted depths' q (B, F, V) after one another, then zeros for the nodes never expanded, to p's shape (B, N+1, V)."""
    have = torch.cat(rows, dim=1) if rows else like[:, :0]
    return torch.cat([have, like.new_zeros((like.shape[0], like.shape[1] - have.shape[1], like.shape[2]))], dim=1)


def _draw_children(logits: torch.Tensor, children: int, settings, rule: Rule, generator: torch.Generator):
    """b children (B, F, b) under each of F nodes, and q there (B, F, V) as sampled and as scored.

    Sampling, "iid" siblings: i.i.d. draws from q, as SpecInfer's theorem requires (duplicates allowed).
    "distinct": the first as i.i.d., then one after another without replacement (_distinct_draws).
    Greedy (temperature 0): no draw decides anything, and q is one-hot, so the children are the draft's
    top b distinct tokens; tree_verify's greedy walk keeps the longest path of the target's argmax.
    """
    batch, width, vocab = logits.shape
    first, q, q_scored = _draft_rows(logits.reshape(batch * width, vocab), settings, rule, generator)
    q, q_scored = q.reshape(batch, width, vocab), q_scored.reshape(batch, width, vocab)
    if children == 1:
        return first.reshape(batch, width, 1), q, q_scored
    if settings.sampling.greedy:
        return logits.topk(children, dim=-1).indices, q, q_scored
    if settings.siblings == "distinct":
        return _distinct_draws(first.reshape(batch, width), q, children, rule, generator), q, q_scored
    if rule.draft_greedy:  # a broken rule's scribe writes its argmax every time
        return first.reshape(batch, width, 1).expand(batch, width, children), q, q_scored
    more = sample(q[:, :, None].expand(batch, width, children - 1, vocab), generator)  # (B, F, b-1)
    return torch.cat([first.reshape(batch, width, 1), more], dim=-1), q, q_scored


def _distinct_draws(first: torch.Tensor, q: torch.Tensor, children: int, rule: Rule,
                    generator: torch.Generator) -> torch.Tensor:
    """b children (B, F, b) drawn without replacement: after the first (B, F), child i from q (B, F, V) less the
    tokens drawn before it, renormalised (sample() scales its uniform to the mass left), as tree_verify's recursive
    rejection sampling requires. Where a row's q holds fewer than b tokens, the children past them are placeholders
    that q_i gives no mass, so the walk never accepts them (one row's tree, B = 1, is cut to the tokens q has).
    A broken rule's greedy scribe writes q's top b instead."""
    drawn, left = [first], q
    for _ in range(children - 1):
        left = left.scatter(-1, drawn[-1][..., None], 0.0)  # (B, F, V) q less the tokens drawn so far
        drawn.append(left.argmax(-1) if rule.draft_greedy else sample(left, generator))
    return torch.stack(drawn, dim=-1)
