"""What theory predicts from alpha and the costs (Leviathan et al. 2023, section 3)."""
from __future__ import annotations

import math

import torch


def expected_acceptance(p: torch.Tensor, q: torch.Tensor) -> float:
    """alpha = sum_x min(p(x), q(x)): the chance a token drafted from q is kept (Definition 3.1)."""
    return float(torch.minimum(p, q).sum(-1).mean())


def expected_tokens_per_round(alpha: float, k: int) -> float:
    """(1 - alpha^(k+1)) / (1 - alpha): accepted tokens plus the correction or bonus (Eq. 1)."""
    if alpha >= 1.0:
        return float(k + 1)
    return (1.0 - alpha ** (k + 1)) / (1.0 - alpha)


def most_tokens_per_round(k: int, length: int) -> float:
    """The most tokens per target forward a run of `length` new tokens can reach: every draft accepted.

    A round writes at most k + 1 tokens, and never past the length, so the run takes at least
    ceil(length / (k + 1)) rounds and its last one gets only what is left. Eq. 1's expectation counts
    rounds of an endless text, so a short run measures below it even when nothing is rejected.
    """
    return length / math.ceil(length / (k + 1))


def speedup(alpha: float, k: int, c: float, verify_cost: float = 1.0) -> float:
    """Expected wall-time speedup over plain decoding (Theorem 3.8, generalised).

    c: one draft forward over one target forward. verify_cost: a (k+1)-token target forward over a
    1-token one; the paper assumes 1, which holds while decoding is memory-bound.
    """
    return expected_tokens_per_round(alpha, k) / (k * c + verify_cost)


def best_k(alpha: float, c: float, verify_cost=lambda k: 1.0, k_max: int = 16) -> tuple[int, float]:
    """The k in 1..k_max with the highest predicted speedup, and that speedup."""
    scores = {k: speedup(alpha, k, c, verify_cost(k)) for k in range(1, k_max + 1)}
    k = max(scores, key=scores.get)
    return k, scores[k]


def alpha_needed(target: float, c: float, verify_cost=lambda k: 1.0, k_max: int = 16) -> float | None:
    """The least alpha at which some k in 1..k_max is predicted to reach `target` speedup, to within 1e-6;
    None where even alpha = 1 does not: (k + 1) / (k·c + verify_cost(k)) stays below the target for every k.

    The best predicted speedup grows with alpha (every k's does), so bisection finds where it crosses.
    """
    if best_k(1.0, c, verify_cost, k_max)[1] < target:
        return None
    low, high = 0.0, 1.0  # best_k(low) < target <= best_k(high), unless the target is met at alpha 0
    if best_k(low, c, verify_cost, k_max)[1] >= target:
        return 0.0
    while high - low > 1e-6:
        middle = (low + high) / 2
        low, high = (low, middle) if best_k(middle, c, verify_cost, k_max)[1] >= target else (middle, high)
    return high


def accepted_length_law(alpha: float, k: int) -> list[float]:
    """P(a round accepts i of its k drafts), i = 0..k, when each draft is accepted with chance alpha
    independently of the others (the paper's simplifying assumption, section 3.1): alpha^i (1 - alpha)
    below k, and alpha^k at k, where the law is cut off because the line has no more drafts. Its mean
    plus one is expected_tokens_per_round."""
    return [alpha**i * (1.0 - alpha) for i in range(k)] + [alpha**k]
