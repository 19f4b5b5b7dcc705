"""The verification step of speculative sampling as one pure function on tensors.

Names match the paper (Leviathan, Kalman & Matias 2023, Algorithm 1): p is the target, q the draft.
No models here, so the rule is tested with hand-built distributions.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch

from specdec_core.algorithm.rules import RULES, Rule
from specdec_core.algorithm.sampling import sample


@dataclass
class Verdict:
    """What verification decided for each of B rows (tensors on the input's device)."""

    n_accepted: torch.Tensor  # (B,) drafted tokens kept, 0..k
    next_token: torch.Tensor  # (B,) the correction at the first rejection, or the bonus token
    uniforms: torch.Tensor  # (B, k) the u_i the decisions used
    accept_prob: torch.Tensor  # (B, k) min(1, p(x_i) / q(x_i))
    accepted: torch.Tensor  # (B, k) each position's own decision (later ones may be moot)
    next_dist: torch.Tensor  # (B, V) the distribution next_token was drawn from


def verify(
    p: torch.Tensor,
    q: torch.Tensor,
    draft_tokens: torch.Tensor,
    generator: torch.Generator,
    rule: Rule = RULES["exact"],
    draft_len: torch.Tensor | None = None,
) -> Verdict:
    """Accept a prefix of each row's draft and draw the token that follows it.

    p: (B, k+1, V) target distributions at each drafted position and one past the last.
    q: (B, k, V) the distributions the draft sampled draft_tokens (B, k) from.
    draft_len: (B,) how many of the k tokens each row really drafted (default: all k);
    positions past it are treated as q = 0, so the token there is drawn from p.
    """
    batch, k = draft_tokens.shape
    q = _mask_undrafted(q, draft_len)
    # 1. score: p(x_i) and q(x_i) of every drafted token
    p_x = p[:, :k].gather(-1, draft_tokens.unsqueeze(-1)).squeeze(-1)  # (B, k)
    q_x = q.gather(-1, draft_tokens.unsqueeze(-1)).squeeze(-1)  # (B, k)
    accept_prob = acceptance_probability(p_x, q_x)
    # 2. decide each position with its own uniform u_i
    uniforms = torch.rand((batch, k), generator=generator, device=p.device)
    accepted = _decide(rule, p, accept_prob, uniforms, draft_tokens, q_x, generator)
    # 3. keep the longest accepted prefix
    n_accepted = accepted.long().cumprod(-1).sum(-1)  # (B,)
    # 4. correction from the residual at the first rejection, or the bonus from p at k+1
    rows = torch.arange(batch, device=p.device)
    p_next = p[rows, n_accepted]  # (B, V)
    q_next = torch.cat([q, torch.zeros_like(p[:, :1])], dim=1)[rows, n_accepted]  # (B, V)
    next_dist = p_next if rule.residual == "p" else residual(p_next, q_next)
    next_token = sample(next_dist, generator)
    return Verdict(n_accepted, next_token, uniforms, accept_prob, accepted, next_dist)


def acceptance_probability(p_x: torch.Tensor, q_x: torch.Tensor) -> torch.Tensor:
    """min(1, p(x) / q(x)), elementwise; 0 where q(x) = 0 (a token the draft could not have written)."""
    return torch.where(q_x > 0, (p_x / q_x.clamp_min(1e-300 if q_x.dtype == torch.float64 else 1e-30)).clamp(max=1.0), 0.0)


def residual(p: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
    """norm(max(0, p - q)) along the last axis. Where q is all zeros (the bonus) this is p."""
    diff = (p - q).clamp_min(0.0)
    mass = diff.sum(-1, keepdim=True)
    # A rejection implies p(x) < q(x) somewhere, so mass > 0 in exact arithmetic; guard round-off.
    return torch.where(mass > 1e-12, diff / mass.clamp_min(1e-30), p)


def _mask_undrafted(q: torch.Tensor, draft_len: torch.Tensor | None) -> torch.Tensor:
    if draft_len is None:
        return q
    positions = torch.arange(q.shape[1], device=q.device)
    return q * (positions < draft_len.unsqueeze(-1)).unsqueeze(-1)


def _decide(rule, p, accept_prob, uniforms, draft_tokens, q_x, generator) -> torch.Tensor:
    drafted = q_x > 0
    if rule.accept == "all":
        return drafted
    if rule.accept == "match":
        target_sample = sample(p[:, : draft_tokens.shape[1]], generator)  # (B, k)
        return drafted & (target_sample == draft_tokens)
    return uniforms < accept_prob
